"""Generate the PHH corpus in tests/engine/data/ by playing random hands with PokerKit.

    .venv/bin/python -m tests.engine.gen_phh_corpus [--hands 60] [--seed 2026]

PokerKit is the oracle: every hand is played by a `pokerkit.State` built directly (not
through `HandHistory`, whose `FO/8` is pot-limit in PokerKit 0.7.7), and its finishing
stacks are written into the file. `test_phh_corpus.py` replays each hand with our engine and
expects the same stacks.

The module is also the PokerKit side of the other PHH tests: `OmahaHandHistory` is
PokerKit's own reader (its parser, default automations and `state_actions` loop) with the
state built here, since PokerKit 0.7.7 knows only `PO` and `FO/8` and reads `FO/8` as
pot-limit; `random_engine_hand` plays our engine with the same random policy.

The six codes: `PO` and `FO/8` are PHH's own; `FO`, `PO/8`, `NO` and `NO/8` use the same
fields. Limit rounds are capped at four bets (a bet and three raises; before the flop the big
blind is the first bet, so PokerKit's pre-flop street allows three raises), heads-up too.
`ante_trimming_status` is False: every ante is paid in full.

Where our rules knowingly differ from PokerKit's the generator does not go, so the corpus
only holds hands both engines must settle alike:
- odd chips of a pot split three or more ways: ours go one at a time to the tied players
  from the button's left; PokerKit gives the whole remainder to the first of them. A hand is
  dropped when a split leaves two or more odd chips (docs/rules.md, "Ties split a pot...").
- a short all-in bet or raise (less than a full bet): our limit rule counts half a bet or
  more as a full bet, and PokerKit adds up consecutive short all-ins and refuses any raise
  facing one. The random players never bet or raise all-in for less than a full raise.
- side pots that PokerKit merges: it kills the hands that cannot win before paying and
  rebuilds the pots from those left, so two pots with the same players left are split as
  one; ours settles each pot on its own, so the odd chips of a split can land elsewhere.
  Hands with a side pot, a killed hand and a split pot are dropped.
- a hi/lo side pot that none of its players can win low while a player outside it has a
  low: PokerKit still splits it and shares the "low" half among all its players; ours gives
  the best high the whole pot (docs/rules.md, "with no qualifying low, the best high takes it
  all"). Such hands are dropped.
"""

from __future__ import annotations

import argparse
import random
import warnings
from collections import deque
from collections.abc import Sequence
from pathlib import Path

from pokerkit import (
    Automation,
    BetCollection,
    BettingStructure,
    BoardDealing,
    CheckingOrCalling,
    ChipsPushing,
    CompletionBettingOrRaisingTo,
    Deck,
    Folding,
    HandKilling,
    HoleCardsShowingOrMucking,
    HoleDealing,
    Mode,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    Opening,
    State,
    Street,
)
from pokerkit.notation import HandHistory

from tables.engine.cards import shuffled_deck
from tables.engine.config import Config, Structure
from tables.engine.records import SeatSpec
from tables.engine.state import Action, Hand
from tables.engine.state import Street as EngineStreet

DATA = Path(__file__).parent / "data"


CODES: dict[str, tuple[bool, BettingStructure]] = {
    "FO": (False, BettingStructure.FIXED_LIMIT),
    "FO/8": (True, BettingStructure.FIXED_LIMIT),
    "PO": (False, BettingStructure.POT_LIMIT),
    "PO/8": (True, BettingStructure.POT_LIMIT),
    "NO": (False, BettingStructure.NO_LIMIT),
    "NO/8": (True, BettingStructure.NO_LIMIT),
}

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
"""Everything but dealing and burning, which the generator does from its own shuffled deck."""

RANKS = "23456789TJQKA"
SUITS = "cdhs"
FULL_DECK = [r + s for r in RANKS for s in SUITS]


def omaha_state(
    code: str,
    antes: Sequence[int],
    blinds: Sequence[int],
    small_bet: int,
    big_bet: int,
    stacks: Sequence[int],
    automations: tuple[Automation, ...] = AUTOMATIONS,
    ante_trimming: bool = False,
) -> State:
    """A PokerKit state for one of the six codes, limit capped at four bets a round.

    `ante_trimming` as the file's `ante_trimming_status` (a bomb pot's antes are stakes)."""
    hi_lo, structure = CODES[code]
    limit = structure is BettingStructure.FIXED_LIMIT
    # Pre-flop PokerKit counts raises only; the big blind is our first bet.
    caps = (3, 4, 4, 4) if limit else (None, None, None, None)
    sizes = (small_bet, small_bet, big_bet, big_bet)
    streets = tuple(
        Street(
            index > 0,
            (False,) * 4 if index == 0 else (),
            (0, 3, 1, 1)[index],
            False,
            Opening.POSITION,
            sizes[index],
            caps[index],
        )
        for index in range(4)
    )
    hand_types = (OmahaHoldemHand, OmahaEightOrBetterLowHand) if hi_lo else (OmahaHoldemHand,)
    return State(
        automations,
        Deck.STANDARD,
        hand_types,
        streets,
        structure,
        ante_trimming,
        list(antes),
        list(blinds),
        0,
        list(stacks),
        len(stacks),
        mode=Mode.CASH_GAME,
    )


def random_move(state: State, rng: random.Random, limit: bool) -> None:
    """One random legal move for the player to act; never a short all-in bet or raise."""
    actor = state.actor_index
    assert actor is not None
    to_call = state.checking_or_calling_amount or 0
    choices: list[tuple[str, float]] = [("cc", 0.5)]
    if to_call and state.can_fold():
        choices.append(("f", 0.25))
    full_raise_to = None
    if state.can_complete_bet_or_raise_to():
        street = state.street
        assert street is not None
        increment = max(
            street.min_completion_betting_or_raising_amount,
            state.completion_betting_or_raising_amount,
        )
        full_raise_to = max(state.bets) + increment
        if state.stacks[actor] + state.bets[actor] >= full_raise_to:
            choices.append(("cbr", 0.3 if to_call else 0.4))
    verbs, weights = zip(*choices, strict=True)
    verb = rng.choices(verbs, weights)[0]
    if verb == "f":
        state.fold()
    elif verb == "cc":
        state.check_or_call()
    else:
        assert full_raise_to is not None
        low = max(full_raise_to, state.min_completion_betting_or_raising_to_amount or 0)
        high = state.max_completion_betting_or_raising_to_amount or low
        if limit:
            amount = low
        else:
            amount = rng.choice(
                [low, low, high, rng.randint(low, max(low, high)), (low + high) // 2]
            )
        state.complete_bet_or_raise_to(amount)


def play(
    code: str,
    rng: random.Random,
    players: int,
    ante_kind: str,
) -> tuple[State, list[str], dict[str, object]] | None:
    """Play one random hand; None if it lands where our rules knowingly differ."""
    hi_lo, structure = CODES[code]
    limit = structure is BettingStructure.FIXED_LIMIT
    big_blind = rng.choice([2, 2, 4, 10])
    small_blind = big_blind // 2 if rng.random() < 0.8 else big_blind // 2 - 1 or 1
    small_bet, big_bet = big_blind, 2 * big_blind
    ante = {"none": 0, "each": rng.choice([1, big_blind // 2]), "bb": big_blind}[ante_kind]
    if ante_kind == "each":
        antes = [ante] * players
    elif ante_kind == "bb":
        antes = [0, ante] + [0] * (players - 2)
    else:
        antes = [0] * players
    blinds = [small_blind, big_blind] + [0] * (players - 2)
    floor = 3 * big_blind + ante
    stacks = [
        rng.choice(
            [rng.randint(floor, 20 * big_blind), rng.randint(20 * big_blind, 150 * big_blind)]
        )
        for _ in range(players)
    ]
    state = omaha_state(code, antes, blinds, small_bet, big_bet, stacks)
    deck = FULL_DECK[:]
    rng.shuffle(deck)
    position = 0

    def draw() -> str:
        nonlocal position
        position += 1
        return deck[position - 1]

    # Hole cards one at a time from p1 (the button's left), four rounds.
    holes: list[list[str]] = [[] for _ in range(players)]
    for _ in range(4):
        for player in range(players):
            holes[player].append(draw())
    for player in range(players):
        state.deal_hole("".join(holes[player]), player)
    board: list[str] = []
    while state.status:
        if state.can_burn_card():
            state.burn_card(draw())
        elif state.can_deal_board():
            count = 1 if board else 3
            cards = [draw() for _ in range(count)]
            board.extend(cards)
            state.deal_board("".join(cards))
        elif state.actor_index is not None:
            random_move(state, rng, limit)
        else:
            raise AssertionError(f"stuck: {state}")
    if diverges(state, holes, board, hi_lo):
        return None
    fields: dict[str, object] = {
        "variant": code,
        "ante_trimming_status": False,
        "antes": antes,
        "blinds_or_straddles": blinds,
    }
    if limit:
        fields["small_bet"] = small_bet
        fields["big_bet"] = big_bet
    else:
        fields["min_bet"] = big_blind
    fields["starting_stacks"] = stacks
    return state, phh_actions(state), fields


def diverges(state: State, holes: list[list[str]], board: list[str], hi_lo: bool) -> bool:
    if pots_merged_after_killing(state, hi_lo):
        return True
    for operation in state.operations:
        if not isinstance(operation, ChipsPushing):
            continue
        paid = [a for a in operation.amounts if a]
        if len(paid) >= 3 and max(paid) - min(paid) >= 2:
            return True
        if hi_lo and operation.hand_type_index == 1:
            for player, amount in enumerate(operation.amounts):
                if amount and not has_low(holes[player], board):
                    return True
    return False


def pots_merged_after_killing(state: State, hi_lo: bool) -> bool:
    """PokerKit kills the hands that cannot win before it pays, then rebuilds the pots from
    the hands left, so side pots whose players are now the same merge and are split once;
    ours settles every pot on its own (docs/rules.md, "Each pot ... is settled on its own"). A
    split of a merged pot can then put odd chips elsewhere: such hands are dropped."""
    if not any(isinstance(o, HandKilling) for o in state.operations):
        return False
    put_in = [0] * state.player_count
    for operation in state.operations:
        if isinstance(operation, BetCollection):
            for player, amount in enumerate(operation.bets):
                put_in[player] += amount
    at_showdown = {
        o.player_index for o in state.operations if isinstance(o, HoleCardsShowingOrMucking)
    }
    if len({put_in[p] for p in at_showdown}) < 2:
        return False  # no side pot among the hands at the showdown
    return hi_lo or any(
        isinstance(o, ChipsPushing) and sum(1 for a in o.amounts if a) >= 2
        for o in state.operations
    )


def has_low(hole: list[str], board: list[str]) -> bool:
    try:
        OmahaEightOrBetterLowHand.from_game("".join(hole), "".join(board))
    except ValueError:
        return False
    return True


def phh_actions(state: State) -> list[str]:
    """The `actions` field as PokerKit's `HandHistory.from_game_state` writes it."""
    lines: list[str] = []
    holes: dict[int, str] = {}
    board = ""

    def flush() -> None:
        nonlocal board
        for player in sorted(holes):
            lines.append(f"d dh p{player + 1} {holes[player]}")
        holes.clear()
        if board:
            lines.append(f"d db {board}")
            board = ""

    for operation in state.operations:
        if isinstance(operation, HoleDealing):
            holes[operation.player_index] = holes.get(operation.player_index, "") + "".join(
                map(repr, operation.cards)
            )
            continue
        if isinstance(operation, BoardDealing):
            board += "".join(map(repr, operation.cards))
            continue
        flush()
        if isinstance(operation, Folding):
            lines.append(f"p{operation.player_index + 1} f")
        elif isinstance(operation, CheckingOrCalling):
            lines.append(f"p{operation.player_index + 1} cc")
        elif isinstance(operation, CompletionBettingOrRaisingTo):
            lines.append(f"p{operation.player_index + 1} cbr {operation.amount}")
        elif isinstance(operation, HoleCardsShowingOrMucking):
            shown = "".join(map(repr, operation.hole_cards))
            lines.append(f"p{operation.player_index + 1} sm {shown}".strip())
    flush()
    return lines


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return str(value)


class OmahaHandHistory(HandHistory):
    """PokerKit's hand history reader with our six codes and a capped fixed limit."""

    def create_state(self) -> State:
        automations = tuple(a for a in self.automations if a is not Automation.CARD_BURNING)
        small = self.small_bet if self.small_bet is not None else self.min_bet
        big = self.big_bet if self.big_bet is not None else self.min_bet
        assert small is not None and big is not None
        return omaha_state(
            self.variant,
            self.antes,
            self.blinds_or_straddles or [],
            small,
            big,
            self.starting_stacks,
            automations,
            bool(self.ante_trimming_status),
        )


def pokerkit_final_state(text: str) -> State:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        history = OmahaHandHistory.loads(text)
        last = deque(history, maxlen=1)
    return last[0]


def pokerkit_finishing_stacks(text: str) -> list[int]:
    state = pokerkit_final_state(text)
    assert not state.status, "PokerKit did not finish the hand"
    return list(state.stacks)


def random_engine_hand(
    rng: random.Random,
    config: Config,
    stacks: list[int],
    first_seat: int = 1,
    *,
    dead_small_blind: bool = False,
) -> Hand:
    """A random hand on our engine, seats `first_seat`.. in order, the button last."""
    seats = [SeatSpec(first_seat + i, stack) for i, stack in enumerate(stacks)]
    hand = Hand.start(
        config, seats, seats[-1].seat, shuffled_deck(rng), dead_small_blind=dead_small_blind
    )
    while not hand.is_complete:
        legal = hand.legal_actions()
        seat = legal.seat
        assert seat is not None
        if hand.street is EngineStreet.SHOWDOWN:
            show = hand.showing_could_win(seat)
            hand.act(seat, Action.SHOW if show else Action.MUCK)
            continue
        choices: list[tuple[str, float]] = [("cc", 0.5)]
        if legal.call:
            choices.append(("f", 0.25))
        if legal.bet_or_raise is not None and not legal.raise_all_in:
            choices.append(("cbr", 0.3 if legal.call else 0.4))
        verbs, weights = zip(*choices, strict=True)
        verb = rng.choices(verbs, weights)[0]
        if verb == "f":
            hand.act(seat, Action.FOLD)
        elif verb == "cc":
            hand.act(seat, Action.CHECK if Action.CHECK in legal.actions else Action.CALL)
        else:
            assert legal.bet_or_raise is not None
            if config.structure is Structure.LIMIT:
                amount = legal.min_to
            else:
                low, high = legal.min_to, legal.max_to
                amount = rng.choice([low, low, high, rng.randint(low, high), (low + high) // 2])
            hand.act(seat, legal.bet_or_raise, amount)
    return hand


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=60, help="hands per variant code")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # PokerKit warns about cards dealt out of its own order
    args.out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    for code in CODES:
        tables: list[str] = []
        dropped = 0
        while len(tables) < args.hands:
            number = len(tables) + 1
            players = 2 if number % 4 == 1 else rng.randint(3, 6)
            ante_kind = ("none", "none", "each", "bb")[number % 4]
            result = play(code, rng, players, ante_kind)
            if result is None:
                dropped += 1
                continue
            state, actions, fields = result
            fields["actions"] = actions
            fields["finishing_stacks"] = list(state.stacks)
            name = f"{code.replace('/', '')}-{number:03d}"
            body = "\n".join(f"{key} = {toml_value(value)}" for key, value in fields.items())
            tables.append(f"[{name}]\n{body}\n")
        path = args.out / f"corpus-{code.replace('/', '')}.phhs"
        path.write_text(
            f"# {args.hands} random {code} hands played by PokerKit (seed {args.seed});"
            f" {dropped} dropped where our rules differ.\n\n" + "\n".join(tables)
        )
        print(f"{path}: {len(tables)} hands, {dropped} dropped")


if __name__ == "__main__":
    main()
