"""Play many random hands across every game and structure and check the engine's invariants.

    python tests/engine/fuzz_hands.py --hands 100000 [--seed 1] [--check-every 10]

Each hand has random stakes, seats (2-10), stacks, antes and caps and is played with random
legal moves. Every other hand also plays the home-game options (docs/rules.md, "Home-game
options"): a straddle or a Mississippi straddle, a bomb pot, a vote on running the board
twice (answered yes, no or by silence), and cards shown after the hand. Checked for every
hand: chips are conserved after every move, every offered action is accepted, the hand ends;
for every `--check-every`-th hand also: a sample of illegal moves (and of illegal votes and
shows) raises RuleError and changes nothing, no view and no viewer's PHH copy holds a card
that viewer may not see, and `Hand.from_records` (also through JSON) rebuilds an identical
hand. Prints one summary line and exits non-zero on any failure.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tables.engine.cards import card_str
from tables.engine.config import AnteKind, Config, Game, Straddle, Structure
from tables.engine.errors import RuleError
from tables.engine.phh import hand_to_phh_for
from tables.engine.records import (
    CardsShown,
    RunTwiceOffered,
    SeatSpec,
    Shown,
    record_from_json,
    record_to_json,
)
from tables.engine.state import Action, Hand, LegalActions, straddle_seat

COMBOS = [(g, s) for g in Game for s in Structure]

# How often each home-game option was played, for the summary line.
PLAYED: Counter[str] = Counter()


def random_config(
    rng: random.Random, game: Game, structure: Structure, *, home: bool = False
) -> Config:
    """A random table; with `home`, the home-game options too (a straddle in pot-limit and
    no-limit only, a bomb pot ante, running it twice)."""
    unit = rng.choice((1, 1, 1, 5))
    bb = unit * rng.choice((2, 2, 4, 10, 20))
    ante_kind = rng.choice((AnteKind.NONE, AnteKind.NONE, AnteKind.EACH, AnteKind.BIG_BLIND))
    ante = 0 if ante_kind is AnteKind.NONE else rng.choice((1, bb // 2, bb))
    options: dict[str, object] = {}
    if home:
        if structure is not Structure.LIMIT:
            options["straddle"] = rng.choice((Straddle.UNDER_THE_GUN, Straddle.BUTTON))
        options["bomb_pot_ante"] = bb * rng.choice((0, 1, 2))
        options["run_it_twice"] = rng.random() < 0.7
    return Config(
        game,
        structure,
        big_blind=bb,
        chip_unit=unit,
        ante=ante,
        ante_kind=ante_kind,
        raise_cap=rng.choice((4, 5, None)),
        uncapped_heads_up=rng.random() < 0.3,
        all_in_on_timeout=rng.random() < 0.1,
        **options,  # type: ignore[arg-type]
    )


def random_hand(rng: random.Random, config: Config) -> Hand:
    n = rng.randint(2, 10)
    seat_numbers = sorted(rng.sample(range(1, 11), n))
    bb = config.big_blind
    seats = []
    for seat in seat_numbers:
        stack = rng.choice((rng.randint(1, 3 * bb), rng.randint(bb, 100 * bb), 100 * bb))
        live = bb if rng.random() < 0.05 else 0
        dead = (config.small_blind or 0) if rng.random() < 0.03 else 0
        seats.append(SeatSpec(seat, stack, live, dead))
    deck = list(range(52))
    rng.shuffle(deck)
    button = rng.choice(seat_numbers) if rng.random() < 0.95 else rng.randint(0, 11)
    # A tournament's dead small blind (seating.deal_in decides when), three players or more.
    dead_small_blind = n > 2 and rng.random() < 0.1
    if config.bomb_pot_ante and rng.random() < 0.3:
        try:
            return Hand.start(config, seats, button, deck, bomb_pot=True)
        except RuleError:
            pass  # a bomb pot this table cannot deal (someone posting to come in): a usual hand
    straddle = None
    if config.straddle is not Straddle.NONE and rng.random() < 0.6:
        straddle = straddle_seat(config, seats, button, dead_small_blind=dead_small_blind)
    return Hand.start(
        config, seats, button, deck, dead_small_blind=dead_small_blind, straddle=straddle
    )


def random_move(
    rng: random.Random, legal: LegalActions, unit: int = 1
) -> tuple[Action, int | None]:
    actions = legal.actions
    if Action.SHOW in actions:
        return (Action.SHOW if rng.random() < 0.8 else Action.MUCK), None
    r = rng.random()
    if legal.bet_or_raise is not None and r < 0.3:
        lo, hi = legal.min_to, legal.max_to
        x = rng.random()
        amount = lo if x < 0.4 else hi if x < 0.6 else rng.randint(lo, hi)
        if lo < amount < hi:
            amount = max(lo, amount - amount % unit)
        return legal.bet_or_raise, amount
    if Action.CHECK in actions:
        return (Action.CHECK if r < 0.95 else Action.FOLD), None
    return (Action.CALL if r < 0.75 else Action.FOLD), None


def _chips(hand: Hand) -> int:
    return sum(hand.stacks().values()) + hand.pot_total


def _state_key(hand: Hand) -> tuple[object, ...]:
    return (len(hand.records), repr(hand.view(None)), hand.legal_actions())


def illegal_moves(
    rng: random.Random, hand: Hand, legal: LegalActions
) -> list[tuple[int, str, int | None]]:
    """A few moves the rules forbid right now."""
    assert legal.seat is not None
    other = [s for s in hand.seats if s != legal.seat]
    moves: list[tuple[int, str, int | None]] = [(rng.choice(other), Action.CHECK, None)]
    me = next(s for s in hand.view(None)["seats"] if s["seat"] == legal.seat)
    all_in = me["stack"] + me["bet"]
    for a in Action:
        if a not in legal.actions:
            amount = rng.randint(0, 10**4) if a in (Action.BET, Action.RAISE) else None
            if amount == all_in:
                continue  # an all-in for less is accepted as a call at the stack total
            moves.append((legal.seat, a, amount))
    if legal.bet_or_raise is not None:
        if legal.min_to > 0:
            moves.append((legal.seat, legal.bet_or_raise, legal.min_to - 1))
        moves.append((legal.seat, legal.bet_or_raise, legal.max_to + 1))
    moves.append((legal.seat, "dance", None))
    return moves


def _card_texts(value: object) -> set[str]:
    """Every card written in a view or a PHH text ("Ah", or "AhKd..." runs of them)."""
    found: set[str] = set()
    for token in CARD_RUN.findall(repr(value)):
        found.update(token[i : i + 2] for i in range(0, len(token), 2))
    return found


CARD_RUN = re.compile(r"(?<![A-Za-z0-9?])((?:[2-9TJQKA][cdhs])+)(?![A-Za-z0-9])")


def check_no_leak(hand: Hand) -> None:
    """No view and no viewer's PHH copy holds a card that viewer may not see: only the
    board (both runs), the viewer's own cards, hands turned up at the showdown and cards
    shown after the hand (docs/rules.md, Home-game options: "no other card of a folded or mucked
    hand is ever revealed")."""
    shown: set[int] = set()
    public: set[int] = set(hand.board)
    for board in hand.boards:
        public.update(board)
    for record in hand.records:
        if isinstance(record, Shown):
            shown.add(record.seat)
            public.update(record.cards)
        elif isinstance(record, CardsShown):
            public.update(record.cards)
    for viewer in (None, *hand.seats):
        view = hand.view(viewer)
        for s in view["seats"]:
            if s["cards"] is not None and s["seat"] != viewer and s["seat"] not in shown:
                raise AssertionError(f"view for {viewer} shows seat {s['seat']}'s cards")
        if "deck" in repr(view):
            raise AssertionError("a view mentions the deck")
        seen = public | (set(hand.hole_cards(viewer)) if viewer is not None else set())
        allowed = {card_str(c) for c in seen}
        extra = _card_texts(view) - allowed
        if extra:
            raise AssertionError(f"view for {viewer} holds {sorted(extra)}")
        extra = _card_texts(hand_to_phh_for(hand, viewer)) - allowed
        if extra:
            raise AssertionError(f"PHH copy for {viewer} holds {sorted(extra)}")


def vote(rng: random.Random, hand: Hand, deep: bool) -> None:
    """Answer the open vote on running it twice: a waiting player agrees, or says no, or
    lets the time pass (silence is no). Deep: a seat not asked is refused first."""
    open_vote = hand.run_twice_vote
    assert open_vote is not None
    if deep:
        outsiders = [s for s in hand.seats if s not in open_vote.waiting]
        for seat in outsiders[:2]:
            before = _state_key(hand)
            try:
                hand.vote_run_twice(seat, True)
            except RuleError:
                pass
            else:
                raise AssertionError(f"a vote from seat {seat}, not waiting, was accepted")
            if _state_key(hand) != before:
                raise AssertionError("a refused vote changed the hand")
    seat = rng.choice(open_vote.waiting)
    r = rng.random()
    hand.vote_run_twice(seat, r < 0.8, silent=r > 0.95)


def show_after(rng: random.Random, hand: Hand, deep: bool) -> None:
    """Some players show some of their cards once the hand is over. Deep: a card not held
    and a card already shown are refused first."""
    for seat in hand.seats:
        if rng.random() > 0.3:
            continue
        held = hand.hole_cards(seat)
        if deep:
            stranger = next(c for c in range(52) if c not in held)
            before = _state_key(hand)
            if hand.can_show(seat, [stranger]):
                raise AssertionError(f"seat {seat} may show {card_str(stranger)}, not held")
            try:
                hand.show(seat, [stranger])
            except RuleError:
                pass
            if _state_key(hand) != before:
                raise AssertionError("a refused show changed the hand")
        cards = [c for c in held if hand.can_show(seat, [c])]
        if cards:
            hand.show(seat, rng.sample(cards, rng.randint(1, len(cards))))


def play_one(rng: random.Random, config: Config, deep: bool) -> int:
    """Play one random hand, checking invariants; returns the number of moves."""
    hand = random_hand(rng, config)
    total = sum(hand.starting_stacks().values())
    moves = 0
    while not hand.is_complete:
        legal = hand.legal_actions()
        if legal.seat is None and hand.run_twice_vote is not None:
            vote(rng, hand, deep)
            moves += 1
            continue
        assert legal.seat is not None, "an unfinished hand has nobody to act"
        if deep:
            for seat, action, amount in illegal_moves(rng, hand, legal):
                before = _state_key(hand)
                try:
                    hand.act(seat, action, amount)
                except RuleError:
                    pass
                else:
                    raise AssertionError(f"illegal {seat} {action} {amount} was accepted")
                if _state_key(hand) != before:
                    raise AssertionError("a rejected move changed the hand")
        if config.all_in_on_timeout and rng.random() < 0.02 and legal.bet_or_raise is not None:
            try:
                hand.declare_all_in(legal.seat)
            except RuleError:
                pass
            else:
                moves += 1
                continue
        action, amount = random_move(rng, legal, config.chip_unit)
        if not hand.can_act(legal.seat, action, amount):
            raise AssertionError(f"offered move {legal.seat} {action} {amount} refused")
        hand.act(legal.seat, action, amount)
        moves += 1
        if _chips(hand) != total:
            raise AssertionError("chips not conserved")
        if moves > 500:
            raise AssertionError("hand does not end")
    final = hand.final_stacks
    assert final is not None
    if sum(final.values()) != total:
        raise AssertionError("final stacks do not add up")
    show_after(rng, hand, deep)
    PLAYED["straddles"] += hand.straddle is not None
    PLAYED["bomb_pots"] += hand.bomb_pot
    PLAYED["run_twice_votes"] += any(isinstance(r, RunTwiceOffered) for r in hand.records)
    PLAYED["run_twice"] += len(hand.boards) == 2
    PLAYED["shown_after"] += any(isinstance(r, CardsShown) for r in hand.records)
    if deep:
        check_no_leak(hand)
        records = hand.records
        again = Hand.from_records(records)
        if again.records != records or again.view(None) != hand.view(None):
            raise AssertionError("from_records did not rebuild the hand")
        from_json = [record_from_json(record_to_json(r)) for r in records]
        if tuple(from_json) != records:
            raise AssertionError("records do not survive JSON")
    return moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check-every", type=int, default=10)
    parser.add_argument("--progress", type=int, default=50000, help="report every N hands")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    failures = 0
    moves = 0
    started = time.perf_counter()
    for k in range(args.hands):
        if k and not k % args.progress:
            elapsed = time.perf_counter() - started
            print(
                f"... hands={k} actions={moves} hands/s={k / elapsed:.0f} failures={failures}",
                file=sys.stderr,
                flush=True,
            )
        game, structure = COMBOS[k % len(COMBOS)]
        try:
            config = random_config(rng, game, structure, home=k % 2 == 1)
            moves += play_one(rng, config, k % args.check_every == 0)
        except Exception:
            failures += 1
            if failures <= 5:
                print(f"hand {k} failed:", file=sys.stderr)
                traceback.print_exc()
    elapsed = time.perf_counter() - started
    print(
        f"hands={args.hands} actions={moves} hands/s={args.hands / elapsed:.0f}"
        f" failures={failures} seconds={elapsed:.1f}"
    )
    print(" ".join(f"{name}={PLAYED[name]}" for name in sorted(PLAYED)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
