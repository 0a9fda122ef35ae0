"""Random hands played move for move in this engine and in PokerKit: final stacks must agree.

PokerKit (`pokerkit.State` built directly, dealt the same cards, ante trimming off so
antes are dead money as here) is the reference. Where the two follow different rules on
purpose, the random play is steered or the payout is re-split PokerKit's way, and the test
counts those hands:

- Short all-ins. PokerKit has no limit half-bet rule (an all-in of half a bet or more is a
  full bet; less does not count toward the cap and the next player completes it) and
  treats an all-in opening bet below the big blind as a full bet. After any all-in bet or
  raise in a betting round, a raise is only chosen when both engines offer it with the same
  amounts; before one, they must offer exactly the same moves and amounts.
- Odd chips: the rules settle each pot on its own and give odd chips one by one to the tied
  winners closest to the left of the button; PokerKit merges consecutive pots won by the
  same surviving players before splitting and gives every odd chip of a split to the first
  winner (and, in hi/lo, splits a pot's low half among its players when only someone
  outside it has a low). When the stacks differ, this engine's awards are re-split
  PokerKit's way (`pokerkit_split`) and must then match exactly, so pot sizes, eligibility
  and winners are still checked; such hands count as "odd chips differ as documented".
- Not exercised here (PokerKit has no equivalent): the card room's uncapped heads-up
  option, live and dead posts, declare-all-in, dead buttons. Rule tests cover those.

Set CROSSCHECK_HANDS to play more hands per variant than the default (PokerKit plays about
10 hi/lo or 30 high hands a second here).
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pokerkit as pk
import pytest

from tables.engine.cards import card_str
from tables.engine.config import AnteKind, Config, Game, Structure
from tables.engine.evaluator import high_value, low_value
from tables.engine.records import Bet, Burned, PotAwarded, Raised, SeatSpec, Shown
from tables.engine.state import Action, Hand

# PokerKit needs ~0.1 s for a hi/lo showdown, so the suite plays a modest number by default.
HANDS = os.environ.get("CROSSCHECK_HANDS")
DEFAULT_HANDS = {Game.OMAHA: 100, Game.OMAHA_HI_LO: 40}

AUTOMATIONS = (
    pk.Automation.ANTE_POSTING,
    pk.Automation.BET_COLLECTION,
    pk.Automation.BLIND_OR_STRADDLE_POSTING,
    pk.Automation.HAND_KILLING,
    pk.Automation.CHIPS_PUSHING,
    pk.Automation.CHIPS_PULLING,
)

_BETTING = {
    Structure.LIMIT: pk.BettingStructure.FIXED_LIMIT,
    Structure.POT_LIMIT: pk.BettingStructure.POT_LIMIT,
    Structure.NO_LIMIT: pk.BettingStructure.NO_LIMIT,
}


def pokerkit_state(config: Config, stacks: list[int]) -> pk.State:
    """A PokerKit state with this config's rules, players in this engine's deal order."""
    limit = config.structure is Structure.LIMIT
    big_bet = (config.big_bet or config.big_blind) if limit else config.big_blind

    def street(first: bool, size: int, count: int) -> pk.Street:
        return pk.Street(
            not first,
            (False,) * 4 if first else (),
            0 if first else count,
            False,
            pk.Opening.POSITION,
            size,
            None if cap is None else (cap - 1 if first else cap),
        )

    cap = config.raise_cap if limit else None
    hand_types: tuple[type[pk.Hand], ...] = (pk.OmahaHoldemHand,)
    if config.game is Game.OMAHA_HI_LO:
        hand_types += (pk.OmahaEightOrBetterLowHand,)
    return pk.State(
        AUTOMATIONS,
        pk.Deck.STANDARD,
        hand_types,
        (
            street(True, config.big_blind, 0),
            street(False, config.big_blind, 3),
            street(False, big_bet, 1),
            street(False, big_bet, 1),
        ),
        _BETTING[config.structure],
        False,
        {1: config.ante} if config.ante_kind is AnteKind.BIG_BLIND else config.ante,
        (config.small_blind, config.big_blind),
        0,
        stacks,
        len(stacks),
        divmod=divmod,
    )


def _deal(state: pk.State, hand: Hand) -> None:
    """Give PokerKit the cards this engine dealt: hole cards, then burns and board as due."""
    n = len(hand.seats)
    holes = [hand.hole_cards(seat) for seat in hand.seats]
    for k in range(4):
        for i in range(n):
            assert state.hole_dealee_index == i
            state.deal_hole(card_str(holes[i][k]))


def _burns(hand: Hand) -> list[int]:
    return [r.card for r in hand.records if isinstance(r, Burned)]


def _sync_board(state: pk.State, hand: Hand, dealt: list[int]) -> None:
    """Deal PokerKit the burns and board cards this engine has dealt since the last call."""
    board = hand.board
    while len(dealt) < len(board):
        if not state.can_burn_card():
            return  # PokerKit still wants a check this engine skipped
        state.burn_card(card_str(_burns(hand)[{0: 0, 3: 1, 4: 2}[len(dealt)]]))
        count = 1 if dealt else 3
        cards = board[len(dealt) : len(dealt) + count]
        state.deal_board("".join(card_str(c) for c in cards))
        dealt.extend(cards)


def pokerkit_split(hand: Hand) -> dict[int, int]:
    """What PokerKit pays each seat for this hand's showdown, from this engine's awards.

    PokerKit kills the hands that win nothing, then merges consecutive pots whose surviving
    players are the same before splitting, and gives all of a split's odd chips to the first
    winner; where a player anywhere has a low, a pot without one still has its low half
    split (among its surviving players). This engine settles each pot on its own and gives
    odd chips one by one, as the rules say; the two agree except on those odd chips.
    """
    awards = [r for r in hand.records if isinstance(r, PotAwarded)]
    paid: dict[int, int] = dict.fromkeys(hand.seats, 0)
    if len(awards) == 1 and not awards[0].hand:
        paid[awards[0].seat] += awards[0].amount  # everyone else folded or mucked
        return paid
    board = hand.board
    shown = {r.seat for r in hand.records if isinstance(r, Shown)}
    high = {s: high_value(hand.hole_cards(s), board) for s in shown}
    hi_lo = hand.config.game is Game.OMAHA_HI_LO
    low = {s: low_value(hand.hole_cards(s), board) if hi_lo else None for s in shown}
    winners: list[tuple[int, set[int], set[int]]] = []
    for k, (_, eligible) in enumerate(hand.pots()):
        amount = sum(r.amount for r in awards if r.pot == k)
        live = [s for s in eligible if s in shown]
        best = max(high[s] for s in live)
        lows = [v for s in live if (v := low[s]) is not None]
        highs = {s for s in live if high[s] == best}
        winners.append((amount, highs, {s for s in live if lows and low[s] == max(lows)}))
    alive = set().union(*(h | lo for _, h, lo in winners))
    merged: list[tuple[int, list[int], set[int], set[int]]] = []
    for (amount, highs, lows), (_, eligible) in zip(winners, hand.pots(), strict=True):
        survivors = [s for s in hand.seats if s in eligible and s in alive]
        if merged and merged[-1][1] == survivors:
            amount += merged.pop()[0]
        merged.append((amount, survivors, highs, lows))
    any_low = any(v is not None for s, v in low.items() if s in alive)
    for amount, survivors, highs, lows in merged:
        shares: list[tuple[int, list[int]]] = []
        if any_low:
            q, r = divmod(amount, 2)
            shares.append((q + r, [s for s in survivors if s in highs]))
            shares.append((q, [s for s in survivors if s in lows] or survivors))
        else:
            shares.append((amount, [s for s in survivors if s in highs]))
        for share, winners in shares:
            q, r = divmod(share, len(winners))
            for s in winners:
                paid[s] += q + (r if s == winners[0] else 0)
    return paid


def play_both(rng: random.Random, game: Game, structure: Structure) -> str:
    """Play one random hand in both engines; return "match" or the reason it was skipped."""
    bb = rng.choice((2, 4, 10))
    ante = rng.choice((0, 0, 0, 1, bb // 2, bb))
    config = Config(
        game,
        structure,
        big_blind=bb,
        ante=ante,
        ante_kind=rng.choice((AnteKind.EACH, AnteKind.BIG_BLIND)) if ante else AnteKind.NONE,
        raise_cap=rng.choice((4, 5, None)),
    )
    n = rng.randint(2, 9)
    stacks = [
        rng.choice((rng.randint(1, 4 * bb), rng.randint(bb, 60 * bb), 200 * bb)) for _ in range(n)
    ]
    deck = list(range(52))
    rng.shuffle(deck)
    # Seats 1..n with the button on seat n: deal order is then seat 1, 2, ..., n.
    hand = Hand.start(config, [SeatSpec(i + 1, s) for i, s in enumerate(stacks)], n, deck)
    state = pokerkit_state(config, stacks)
    _deal(state, hand)
    dealt: list[int] = []
    short_all_in_street = -1
    steps = 0
    while not hand.is_complete:
        steps += 1
        assert steps < 400
        _sync_board(state, hand, dealt)
        legal = hand.legal_actions()
        if Action.SHOW in legal.actions:
            assert legal.seat is not None
            # PokerKit shows a hand that can win and mucks one that cannot: same result.
            if hand.showing_could_win(legal.seat) or rng.random() < 0.5:
                hand.act(legal.seat, Action.SHOW)
            else:
                hand.act(legal.seat, Action.MUCK)
            continue
        street = len(hand.board)
        while state.actor_index is not None and state.actor_index + 1 != legal.seat:
            # This engine skips a player who has nothing to call and nobody to raise
            # against; PokerKit asks them to check.
            assert state.checking_or_calling_amount == 0, "PokerKit expects a move we skipped"
            state.check_or_call()
        assert state.actor_index is not None and legal.seat == state.actor_index + 1
        pk_call = state.checking_or_calling_amount
        assert legal.call == pk_call
        pk_min = state.min_completion_betting_or_raising_to_amount
        pk_max = state.max_completion_betting_or_raising_to_amount
        ours = None if legal.bet_or_raise is None else (legal.min_to, legal.max_to)
        theirs = None if pk_min is None else (pk_min, pk_max)
        if short_all_in_street != street:
            assert ours == theirs, f"raise range {ours} != PokerKit {theirs}"
        r = rng.random()
        if ours is not None and ours == theirs and r < 0.3:
            lo, hi = ours
            x = rng.random()
            amount = lo if x < 0.4 else hi if x < 0.6 else rng.randint(lo, hi)
            assert legal.bet_or_raise is not None
            new = hand.act(legal.seat, legal.bet_or_raise, amount)
            state.complete_bet_or_raise_to(amount)
            if any(isinstance(x, (Bet, Raised)) and x.all_in for x in new):
                short_all_in_street = street
        elif legal.call == 0 or r < 0.75:
            new = hand.act(legal.seat, Action.CHECK if legal.call == 0 else Action.CALL)
            state.check_or_call()
        else:
            hand.act(legal.seat, Action.FOLD)
            state.fold()
        if not hand.is_complete:
            _sync_board(state, hand, dealt)
    # Finish PokerKit: any board still to deal (a run-out) and checks we skipped.
    for _ in range(50):
        if not state.status:
            break
        if state.can_show_or_muck_hole_cards():
            # Every hand is shown (PokerKit's own show-or-muck choice is slow to compute).
            state.show_or_muck_hole_cards(True)
        elif state.actor_index is not None:
            assert state.checking_or_calling_amount == 0
            state.check_or_call()
        elif state.can_burn_card():
            _sync_board(state, hand, dealt)
        else:
            raise AssertionError("PokerKit is stuck")
    assert not state.status
    final = hand.final_stacks
    assert final is not None
    ours = [final[i + 1] for i in range(n)]
    theirs = list(state.stacks)
    if ours == theirs:
        return "match"
    # Same play, odd chips split as PokerKit does: the stacks must then agree exactly.
    won = {r.seat: 0 for r in hand.records if isinstance(r, PotAwarded)}
    for r in hand.records:
        if isinstance(r, PotAwarded):
            won[r.seat] += r.amount
    paid = pokerkit_split(hand)
    adjusted = [final[i + 1] - won.get(i + 1, 0) + paid[i + 1] for i in range(n)]
    assert adjusted == theirs, f"{ours} (PokerKit-style {adjusted}) != PokerKit {theirs}"
    return "odd chips differ as documented"


@pytest.mark.parametrize("game", list(Game))
@pytest.mark.parametrize("structure", list(Structure))
def test_final_stacks_match_pokerkit(game: Game, structure: Structure) -> None:
    rng = random.Random(f"{game}-{structure}")
    hands = int(HANDS) if HANDS else DEFAULT_HANDS[game]
    outcomes = Counter(play_both(rng, game, structure) for _ in range(hands))
    print(f"{game} {structure}: {dict(outcomes)}")  # shown with -s
    assert outcomes["match"] >= 0.9 * hands, outcomes
