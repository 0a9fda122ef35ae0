"""All-in equity: each hand's expected share of a pot that all of them contest.

Shares count scoops, halves and quarters as the showdown would award them (docs/rules.md,
"Showdown"): in Omaha Hi/Lo the best high takes half and the best qualifying low the other
half, ties split a half equally, and with no qualifying low the high takes it all. Odd
chips are ignored: shares are fractions.

- With 0, 1 or 2 board cards to come (river, turn, flop) every possible board is counted:
  exact.
- Before the flop, boards are sampled (Monte Carlo, 20,000 by default) and `error` is the
  standard error of the least certain share.

>>> from tables.engine.cards import parse_cards
>>> result = equity(Game.OMAHA_HI_LO, [parse_cards("As2sKdKc"), parse_cards("QhJhTh9h")],
...                 parse_cards("3s4dKh"))
>>> result.exact, result.boards, [round(share, 3) for share in result.shares]
(True, 820, [0.899, 0.101])
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from tables.engine import _tables as t
from tables.engine.cards import Card, cards_str
from tables.engine.config import Game
from tables.engine.errors import RuleError
from tables.engine.records import BoardDealt, HandStarted, RunTwiceOffered, Shown
from tables.engine.state import Hand

DEFAULT_SAMPLES = 20_000
"""Boards sampled before the flop: a standard error of about 0.35% on a share."""


@dataclass(frozen=True, slots=True)
class Equity:
    """Each hand's expected share of the pot, in the order the hands were given.

    - `shares` sum to 1.
    - `exact`: every possible board was counted; otherwise `boards` were sampled.
    - `error`: the largest standard error among the shares (0 when exact).
    - `high` / `low`: each hand's expected share of the high half and of the low half
      (Hi/Lo), as fractions of that half when it is awarded; `low` sums to the chance
      that some hand makes a low. In Omaha High, `high` equals `shares` and `low` is 0.
    """

    shares: tuple[float, ...]
    exact: bool
    boards: int
    error: float
    high: tuple[float, ...] = ()
    low: tuple[float, ...] = ()


class _Hand:
    """What a hand brings to every board, looked up once."""

    __slots__ = ("getter", "key", "low", "suited")

    def __init__(self, hole: Sequence[Card]) -> None:
        self.key = sum(t.CARD_WEIGHT[card] for card in hole)
        entry: tuple[t.Getter, int] = t.HOLES[self.key & t.RANK_KEY_MASK]
        self.getter, self.low = entry
        cards = sum(t.SUITED_BIT[card] for card in hole)
        # Per suit: the hole's ranks in it, or -1 when the hole has fewer than two of the
        # suit and so can make no flush in it.
        flushable = t.HOLE_FLUSHABLE[self.key >> t.SUIT_SHIFT]
        self.suited = tuple(
            cards >> 13 * suit & 0x1FFF if flushable >> suit & 1 else -1 for suit in range(4)
        )


def _check(
    holes: Sequence[Sequence[Card]], board: Sequence[Card], dead: Sequence[Card]
) -> list[Card]:
    """The cards left to deal, after checking the spot is one a deck can produce."""
    if not 2 <= len(holes) <= 9:
        raise RuleError(
            f"equity is for 2 to 9 hands, not {len(holes)}",
            code="equity_hands",
            params={"count": len(holes)},
        )
    for hole in holes:
        if len(hole) != 4:
            raise RuleError(
                f"an Omaha hand has four hole cards, not {len(hole)}",
                code="hole_cards",
                params={"count": len(hole)},
            )
    if len(board) not in (0, 3, 4, 5):
        raise RuleError(
            f"a board has 0, 3, 4 or 5 cards, not {len(board)}",
            code="equity_board",
            params={"count": len(board)},
        )
    known = [card for hole in holes for card in hole] + list(board) + list(dead)
    for card in known:
        if not 0 <= card < 52:
            raise RuleError(
                f"{card} is not a card: cards are 0..51", code="not_a_card", params={"card": card}
            )
    if len(set(known)) != len(known):
        repeated = sorted({card for card in known if known.count(card) > 1})
        raise RuleError(
            f"each card is dealt once: {cards_str(repeated)} appears twice",
            code="card_twice",
            params={"cards": cards_str(repeated)},
        )
    left = [card for card in range(52) if card not in set(known)]
    if len(left) < 5 - len(board):
        raise RuleError("not enough cards left in the deck to finish the board", code="deck_short")
    return left


def _values(
    hands: list[_Hand],
    hi_lo: bool,
    board: Sequence[Card],
    board_key: int,
    board_suited: int,
) -> tuple[list[int], list[int] | None]:
    """Each hand's high value and (Hi/Lo) low value on one full board; 0 is no low."""
    entry = t.BOARDS_5.get(board_key & t.RANK_KEY_MASK) or t.board_entry(board)
    ranks = entry[0]
    board_low = entry[1]
    suit = t.FLUSH_SUIT[5][board_key >> t.SUIT_SHIFT]
    flush_value = t.flush_value
    by_mask = t.FLUSH_BY_MASK
    highs = []
    if suit >= 0:
        board_mask = board_suited >> 13 * suit & 0x1FFF
        for hand in hands:
            high = entry[max(hand.getter(ranks))]
            hole_mask = hand.suited[suit]
            if hole_mask >= 0:
                both = hole_mask | board_mask
                if both.bit_count() == 5:
                    flush = by_mask[both]
                else:
                    flush = flush_value(hole_mask << 13 | board_mask)
                if flush > high:
                    high = flush
            highs.append(high)
    else:
        highs = [entry[max(hand.getter(ranks))] for hand in hands]
    if not hi_lo:
        return highs, None
    low_best = t.LOW_BEST
    return highs, [low_best[hand.low | board_low] for hand in hands]


def _award(
    highs: list[int], lows: list[int] | None, members: list[int] | None
) -> tuple[list[float], list[float], list[float]]:
    """Share of one pot, of its high half and of its low half, for the hands that contest
    it (``members``, indices into ``highs``; None: every hand); every other hand gets 0."""
    count = len(highs)
    high_share = [0.0] * count
    if members is None:
        best = max(highs)
        winners = [i for i, value in enumerate(highs) if value == best]
    else:
        best = max([highs[i] for i in members])
        winners = [i for i in members if highs[i] == best]
    for i in winners:
        high_share[i] = 1 / len(winners)
    if lows is None:
        return high_share, high_share, [0.0] * count
    if members is None:
        best_low = max(lows)
        winners = [i for i, value in enumerate(lows) if value == best_low]
    else:
        best_low = max([lows[i] for i in members])
        winners = [i for i in members if lows[i] == best_low]
    low_share = [0.0] * count
    if not best_low:
        return high_share, high_share, low_share
    for i in winners:
        low_share[i] = 1 / len(winners)
    return (
        [(h + lo) / 2 for h, lo in zip(high_share, low_share, strict=True)],
        high_share,
        low_share,
    )


def equity(
    game: Game,
    holes: Sequence[Sequence[Card]],
    board: Sequence[Card] = (),
    dead: Sequence[Card] = (),
    *,
    rng: random.Random | None = None,
    samples: int | None = None,
) -> Equity:
    """Each hand's expected share of a pot all of them contest, all in.

    Exact (every board counted) on the flop, turn and river; Monte Carlo before the flop,
    with `samples` boards (default 20,000) drawn by `rng` (default a fresh, OS-seeded
    `random.Random`: a sampled estimate needs no secure generator). Passing `samples`
    samples on the flop or turn too. `dead` cards (mucked, burned and shown) are not
    dealt.

    >>> from tables.engine.cards import parse_cards
    >>> result = equity(Game.OMAHA, [parse_cards("AsAdKsKd"), parse_cards("7h8h9hTh")],
    ...                 rng=random.Random(1), samples=4000)
    >>> result.exact, result.boards, 0.5 < result.shares[0] < 0.7, result.error < 0.01
    (False, 4000, True, True)
    """
    everyone = [range(len(holes))]
    return pot_equity(game, holes, everyone, board, dead, rng=rng, samples=samples)[0]


def pot_equity(
    game: Game,
    holes: Sequence[Sequence[Card]],
    pots: Sequence[Sequence[int]],
    board: Sequence[Card] = (),
    dead: Sequence[Card] = (),
    *,
    rng: random.Random | None = None,
    samples: int | None = None,
) -> tuple[Equity, ...]:
    """Each hand's expected share of each pot, when the pots are contested by different hands.

    `pots` lists, per pot, the indices (into `holes`) of the hands that can win it: a side
    pot is played for only by the hands that put in enough for it. Every hand's cards are
    out of the deck, whichever pots it plays for, and every pot is judged on the same
    boards. One `Equity` per pot, with a share for every hand (0 for a hand not in that
    pot); exact or sampled as `equity` says.

    The first hand (a short stack, all in) is ahead on this flop; the other two also play
    for a side pot, which the first cannot win:

    >>> from tables.engine.cards import parse_cards
    >>> holes = [parse_cards(h) for h in ("AsAdKsKd", "QhQcJhJc", "7s8s2d3c")]
    >>> main, side = pot_equity(Game.OMAHA, holes, [[0, 1, 2], [1, 2]], parse_cards("AhKc4d"))
    >>> [round(share, 2) for share in main.shares], [round(share, 2) for share in side.shares]
    ([0.67, 0.22, 0.12], [0.0, 0.75, 0.25])
    """
    game = Game(game)
    left = _check(holes, board, dead)
    members = _members(pots, len(holes))
    hands = [_Hand(hole) for hole in holes]
    hi_lo = game is Game.OMAHA_HI_LO
    to_come = 5 - len(board)
    board = tuple(board)
    if samples is None and to_come <= 2:
        return _exact(hands, hi_lo, left, board, members)
    if samples is None:
        samples = DEFAULT_SAMPLES
    if samples < 1:
        raise RuleError(
            f"samples must be at least 1, not {samples}",
            code="equity_samples",
            params={"samples": samples},
        )
    if to_come == 0:
        return _exact(hands, hi_lo, left, board, members)
    return _sampled(hands, hi_lo, left, board, rng or random.Random(), samples, members)


def _members(pots: Sequence[Sequence[int]], count: int) -> list[list[int] | None]:
    """The pots' hands as lists of indices (None: every hand, the common case, counted
    faster), after checking each pot is one the hands can have."""
    out: list[list[int] | None] = []
    for pot in pots:
        indices = sorted(set(pot))
        if not indices or len(indices) != len(pot) or not 0 <= indices[0] <= indices[-1] < count:
            raise RuleError(
                f"a pot is won by some of the {count} hands, each named once: not {list(pot)}",
                code="equity_pot",
                params={"pot": repr(list(pot)), "count": count},
            )
        out.append(None if len(indices) == count else indices)
    if not out:
        raise RuleError(
            "each pot is won by some of the hands: no pot given", code="equity_pot", params={}
        )
    return out


class _Tally:
    """One pot's running totals over the boards counted."""

    __slots__ = ("high", "low", "shares", "squares")

    def __init__(self, count: int) -> None:
        self.shares = [0.0] * count
        self.squares = [0.0] * count
        self.high = [0.0] * count
        self.low = [0.0] * count

    def equity(self, boards: int, exact: bool) -> Equity:
        means = [total / boards for total in self.shares]
        if exact:
            error = 0.0
        elif boards > 1:
            error = max(
                math.sqrt(max(square / boards - mean**2, 0.0) / (boards - 1))
                for square, mean in zip(self.squares, means, strict=True)
            )
        else:
            error = math.inf
        return Equity(
            shares=tuple(means),
            exact=exact,
            boards=boards,
            error=error,
            high=tuple(total / boards for total in self.high),
            low=tuple(total / boards for total in self.low),
        )


def _exact(
    hands: list[_Hand],
    hi_lo: bool,
    left: list[Card],
    board: tuple[Card, ...],
    pots: list[list[int] | None],
) -> tuple[Equity, ...]:
    count = len(hands)
    tallies = [_Tally(count) for _ in pots]
    weight = t.CARD_WEIGHT
    bit = t.SUITED_BIT
    boards = 0
    base_key = sum(weight[card] for card in board)
    base_suited = sum(bit[card] for card in board)
    for runout in combinations(left, 5 - len(board)):
        key = base_key
        suited = base_suited
        for card in runout:
            key += weight[card]
            suited |= bit[card]
        highs, lows = _values(hands, hi_lo, board + runout, key, suited)
        for members, tally in zip(pots, tallies, strict=True):
            shares, high, low = _award(highs, lows, members)
            totals, high_totals, low_totals = tally.shares, tally.high, tally.low
            for i in range(count):
                totals[i] += shares[i]
                high_totals[i] += high[i]
                low_totals[i] += low[i]
        boards += 1
    return tuple(tally.equity(boards, exact=True) for tally in tallies)


def _sampled(
    hands: list[_Hand],
    hi_lo: bool,
    left: list[Card],
    board: tuple[Card, ...],
    rng: random.Random,
    samples: int,
    pots: list[list[int] | None],
) -> tuple[Equity, ...]:
    count = len(hands)
    tallies = [_Tally(count) for _ in pots]
    weight = t.CARD_WEIGHT
    bit = t.SUITED_BIT
    deck = list(left)
    size = len(deck)
    draw = rng.random
    to_come = 5 - len(board)
    base_key = sum(weight[card] for card in board)
    base_suited = sum(bit[card] for card in board)
    for _ in range(samples):
        key = base_key
        suited = base_suited
        # A partial Fisher-Yates shuffle: the first `to_come` places get uniform cards.
        for j in range(to_come):
            k = j + int(draw() * (size - j))
            deck[j], deck[k] = deck[k], deck[j]
            card = deck[j]
            key += weight[card]
            suited |= bit[card]
        highs, lows = _values(hands, hi_lo, board + tuple(deck[:to_come]), key, suited)
        for members, tally in zip(pots, tallies, strict=True):
            shares, high, low = _award(highs, lows, members)
            totals, squares = tally.shares, tally.squares
            high_totals, low_totals = tally.high, tally.low
            for i in range(count):
                share = shares[i]
                totals[i] += share
                squares[i] += share * share
                high_totals[i] += high[i]
                low_totals[i] += low[i]
    return tuple(tally.equity(samples, exact=False) for tally in tallies)


__all__ = [
    "DEFAULT_SAMPLES",
    "Equity",
    "PotShares",
    "equity",
    "expected_shares",
    "pot_equity",
    "runout_equity",
    "runout_pots",
]


@dataclass(frozen=True, slots=True)
class PotShares:
    """One pot of an all-in run-out: its chips, and each hand's expected share of it.

    `shares` holds only the seats that can win the pot (a side pot is not the short stack's
    to win); they sum to 1.
    """

    amount: int
    shares: dict[int, float]


def expected_shares(pots: Sequence[PotShares]) -> dict[int, float]:
    """Each seat's expected share of all the chips in `pots`: what a hand is worth, in the
    chips it can expect, as a fraction of everything in the middle.

    >>> main = PotShares(30, {1: 1.0, 2: 0.0, 3: 0.0})
    >>> side = PotShares(60, {2: 0.75, 3: 0.25})
    >>> expected_shares([main, side])
    {1: 0.3333333333333333, 2: 0.5, 3: 0.16666666666666666}
    """
    if len(pots) == 1:
        return dict(pots[0].shares)
    total = sum(pot.amount for pot in pots)
    chips: dict[int, float] = {}
    for pot in pots:
        for seat, share in pot.shares.items():
            chips[seat] = chips.get(seat, 0.0) + share * pot.amount
    return {seat: value / total if total else 0.0 for seat, value in sorted(chips.items())}


def runout_equity(
    records: Sequence[object], samples: int = 10_000, board_cards: int | None = None
) -> dict[int, float] | None:
    """Each seat's all-in equity at the moment its hand was turned up for a run-out: its
    expected share of all the chips in the pots (`expected_shares` of `runout_pots`).

    A short stack all in for the main pot can win only that; the bigger stacks play for the
    side pots too, so each hand's worth is counted pot by pot, in chips. Returns None for a
    hand that had no run-out.
    """
    pots = runout_pots(records, samples, board_cards)
    return None if pots is None else expected_shares(pots)


def runout_pots(
    records: Sequence[object],
    samples: int = 10_000,
    board_cards: int | None = None,
    run: int = 1,
) -> tuple[PotShares, ...] | None:
    """Each pot's all-in equity at the moment the hands were turned up for a run-out.

    When nobody can bet any more, every hand is turned up before the board is run out
    (docs/rules.md, "Showdown"); a table shows what each hand's share of each pot was worth at
    that moment (the main pot first, then the side pots, as the engine's `Hand.pots`), and,
    dealing the run-out street by street, with the first ``board_cards`` cards of the board
    out. In Omaha Hi/Lo a share counts the halves and quarters the showdown would give.
    Returns None for a hand that had no such run-out (the betting went to the river, or
    fewer than two hands were turned up early).

    The sampled estimate before the flop uses a generator seeded from the cards, so every
    server process that rebuilds the same hand shows the same numbers.

    A hand whose players are voting on running it twice is at its turn-up; with the board
    run twice, `run` says which run's cards ``board_cards`` counts (1 or 2).
    """
    game: Game | None = None
    board: list[Card] = []
    run_out: list[Card] = []
    shown: dict[int, tuple[Card, ...]] = {}
    ran_out = False
    for record in records:
        if isinstance(record, HandStarted):
            game = record.config.game
        elif isinstance(record, Shown):
            if ran_out:
                break
            shown[record.seat] = record.cards
        elif isinstance(record, RunTwiceOffered):
            ran_out = True
        elif isinstance(record, BoardDealt):
            if shown:
                ran_out = True
                if record.run == run:
                    run_out.extend(record.cards)
            else:
                board.extend(record.cards)
    if game is None or not ran_out or len(shown) < 2:
        return None
    if board_cards is not None:
        board = (board + run_out)[: max(len(board), board_cards)]
    seats = sorted(shown)
    index = {seat: i for i, seat in enumerate(seats)}
    # Nobody bets during a run-out: the pots as the hand ended are the pots at the turn-up.
    pots = [
        (amount, [index[seat] for seat in eligible if seat in index])
        for amount, eligible in Hand.from_records(records).pots()  # type: ignore[arg-type]
    ]
    pots = [(amount, members) for amount, members in pots if members]
    holes = [shown[seat] for seat in seats]
    seed = cards_str([card for hole in holes for card in hole] + board)
    sampled = samples if len(board) < 3 else None
    results = pot_equity(
        game,
        holes,
        [members for _, members in pots],
        board,
        rng=random.Random(seed),
        samples=sampled,
    )
    return tuple(
        PotShares(amount, {seats[i]: result.shares[i] for i in members})
        for (amount, members), result in zip(pots, results, strict=True)
    )
