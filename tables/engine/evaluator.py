"""Omaha showdown values: the best high and the best 8-or-better low.

Every Omaha hand is exactly two hole cards and three board cards, for high and for low
separately (docs/rules.md, "Showdown"). Values are ints, higher is better, for both.

- A high value is ``category << 20`` plus five 4-bit ranks in the order they matter
  (the trips before the pair of a full house; the five of a wheel before its ace), so
  comparing ints compares hands and suits never break a tie.
- A low value is ``255 - mask``, where `mask` has bit ``r`` set for each of the five low
  ranks (ace 0, deuce 1, ..., eight 7). Five different ranks compared from the highest
  down is exactly comparing their masks as numbers, smaller better.

The fast paths (`high_low_values`, `showdown_values`, `evaluate_many`, and `high_value` /
`low_value`) are a handful of lookups in the tables of `tables.engine._tables`; `best_high`
and `best_low` try all sixty combinations to name the five cards for the showdown display.

>>> from tables.engine.cards import parse_cards
>>> describe_high(high_value(parse_cards("AsAdKc2h"), parse_cards("AhKdKh7c")))
'Full house, aces full of kings'
>>> describe_low(low_value(parse_cards("As2d9c9h"), parse_cards("3h5d8cKs")) or 0)
'8-5-3-2-A'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import combinations

from tables.engine import _tables as t
from tables.engine._tables import (
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
)
from tables.engine.cards import RANKS, Card
from tables.engine.config import Game
from tables.engine.errors import RuleError

__all__ = [
    "FLUSH",
    "FULL_HOUSE",
    "HIGH_CARD",
    "PAIR",
    "QUADS",
    "STRAIGHT",
    "STRAIGHT_FLUSH",
    "TRIPS",
    "TWO_PAIR",
    "best_high",
    "best_low",
    "describe_high",
    "describe_low",
    "evaluate_many",
    "five_card_high",
    "five_card_low",
    "high_category",
    "high_low_values",
    "high_ranks",
    "high_value",
    "low_ranks",
    "low_value",
    "prepare_tables",
    "showdown_values",
]

_CATEGORY_NAMES = (
    "High card",
    "One pair",
    "Two pair",
    "Three of a kind",
    "Straight",
    "Flush",
    "Full house",
    "Four of a kind",
    "Straight flush",
)
_RANK_NAMES = (
    "deuce",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
_RANK_PLURALS = tuple(name + ("es" if name == "six" else "s") for name in _RANK_NAMES)

_WEIGHT = t.CARD_WEIGHT
_RANK_MASK = t.RANK_KEY_MASK
_SUIT_SHIFT = t.SUIT_SHIFT
_BOARDS_5 = t.BOARDS_5
_board_entry = t.board_entry
_HOLES = t.HOLES
_HOLE_FLUSHABLE = t.HOLE_FLUSHABLE
_LOW_BEST = t.LOW_BEST
_FLUSH_SUIT = t.FLUSH_SUIT
_FLUSH_SUIT_5 = t.FLUSH_SUIT[5]
_RANK_BIT_IN_SUIT = t.RANK_BIT_IN_SUIT
_flush_value = t.flush_value
_FLUSH_BY_MASK = t.FLUSH_BY_MASK
_FIVE_HIGH = t.FIVE_HIGH
_RANK_WEIGHT = t.RANK_WEIGHT
_LOW_BIT = t.LOW_BIT
_BOARDS_SEEN: set[int] = set()
"""Rank keys of the 5-card boards `showdown_values` has met without an entry: the second
time, it builds the entry."""


def _board_low_mask(board: Sequence[Card]) -> int:
    mask = 0
    for card in board:
        mask |= _LOW_BIT[card]
    return mask


def _triple_keys(board: Sequence[Card]) -> set[int]:
    weight = _RANK_WEIGHT
    return {weight[a >> 2] + weight[b >> 2] + weight[c >> 2] for a, b, c in combinations(board, 3)}


def _pair_keys(hole: Sequence[Card]) -> set[int]:
    weight = _RANK_WEIGHT
    return {weight[a >> 2] + weight[b >> 2] for a, b in combinations(hole, 2)}


def five_card_high(cards: Sequence[Card]) -> int:
    """The high value of exactly five cards.

    >>> from tables.engine.cards import parse_cards
    >>> five_card_high(parse_cards("5c4d3h2sAc")) < five_card_high(parse_cards("6c5d4h3s2c"))
    True
    """
    return t.rank_value([card >> 2 for card in cards], len({card & 3 for card in cards}) == 1)


def five_card_low(cards: Sequence[Card]) -> int | None:
    """The 8-or-better low value of exactly five cards, or None when they make no low."""
    mask = 0
    for card in cards:
        bit = t.LOW_BIT[card]
        if not bit or mask & bit:
            return None
        mask |= bit
    return 255 - mask


def _check(hole: Sequence[Card], board: Sequence[Card]) -> None:
    if len(hole) != 4:
        raise RuleError(
            f"an Omaha hand has four hole cards, not {len(hole)}",
            code="hole_cards",
            params={"count": len(hole)},
        )
    if not 3 <= len(board) <= 5:
        raise RuleError(
            f"a board has 3 to 5 cards at a showdown, not {len(board)}",
            code="showdown_board",
            params={"count": len(board)},
        )


def high_low_values(hole: Sequence[Card], board: Sequence[Card]) -> tuple[int, int | None]:
    """The best high value and the best low value (None: no low) of one hand.

    Both come from table lookups: the board's row of non-flush values per hole rank pair
    (best of at most six entries), a flush only when the board has three of a suit and the
    hole two, and the low from the two low-rank masks. Cards must be distinct.

    >>> from tables.engine.cards import parse_cards
    >>> high, low = high_low_values(parse_cards("As2dKhKd"), parse_cards("3c4c5c9sKs"))
    >>> describe_high(high), describe_low(low or 0)
    ('Straight, five high', '5-4-3-2-A')
    """
    weight = _WEIGHT
    try:
        h0, h1, h2, h3 = hole
    except ValueError:
        raise RuleError(
            f"an Omaha hand has four hole cards, not {len(hole)}",
            code="hole_cards",
            params={"count": len(hole)},
        ) from None
    hole_key = weight[h0] + weight[h1] + weight[h2] + weight[h3]
    try:
        b0, b1, b2, b3, b4 = board
        board_key = weight[b0] + weight[b1] + weight[b2] + weight[b3] + weight[b4]
        suit = _FLUSH_SUIT_5[board_key >> _SUIT_SHIFT]
        try:
            entry = _BOARDS_5[board_key & _RANK_MASK]
        except KeyError:
            entry = _board_entry(board)
    except ValueError:
        _check(hole, board)
        board_key = sum(weight[card] for card in board)
        suit = _FLUSH_SUIT[len(board)][board_key >> _SUIT_SHIFT]
        entry = _board_entry(board)
    getter, hole_low = _HOLES[hole_key & _RANK_MASK]
    high = entry[max(getter(entry[0]))]
    if suit >= 0 and _HOLE_FLUSHABLE[hole_key >> _SUIT_SHIFT] >> suit & 1:
        bit = _RANK_BIT_IN_SUIT[suit]
        hole_suited = bit[h0] | bit[h1] | bit[h2] | bit[h3]
        board_suited = 0
        for card in board:
            board_suited |= bit[card]
        both = hole_suited | board_suited
        if both.bit_count() == 5:
            flush = _FLUSH_BY_MASK[both]
        else:
            flush = _flush_value(hole_suited << 13 | board_suited)
        if flush > high:
            high = flush
    return high, _LOW_BEST[hole_low | entry[1]] or None


def high_value(hole: Sequence[Card], board: Sequence[Card]) -> int:
    """The best high value of two hole cards and three board cards; higher is better.

    >>> from tables.engine.cards import parse_cards
    >>> describe_high(high_value(parse_cards("AcAdAhAs"), parse_cards("Ks7d2c")))
    'One pair, aces'
    """
    return high_low_values(hole, board)[0]


def low_value(hole: Sequence[Card], board: Sequence[Card]) -> int | None:
    """The best 8-or-better low value, higher is better; None when there is no low.

    >>> from tables.engine.cards import parse_cards
    >>> low_value(parse_cards("2c2d9hKs"), parse_cards("3c4d5h")) is None
    True
    """
    return high_low_values(hole, board)[1]


def showdown_values(
    game: Game, holes: Sequence[Sequence[Card]], board: Sequence[Card]
) -> list[tuple[int, int | None]]:
    """`(high, low)` for each hand at one showdown; low is None in Omaha High or with no low.

    The board's share of the work (its row, low mask and flush suit) is done once for all
    the hands, so a 9-handed showdown costs little more than nine lookups.

    >>> from tables.engine.cards import parse_cards
    >>> board = parse_cards("3c4c5c9sKs")
    >>> holes = [parse_cards("As2dKhKd"), parse_cards("AcQc7d7h")]
    >>> [(describe_high(h), l and describe_low(l)) for h, l in
    ...  showdown_values(Game.OMAHA_HI_LO, holes, board)]
    [('Straight, five high', '5-4-3-2-A'), ('Flush, ace high', '7-5-4-3-A')]
    """
    if not 3 <= len(board) <= 5:
        raise RuleError(
            f"a board has 3 to 5 cards at a showdown, not {len(board)}",
            code="showdown_board",
            params={"count": len(board)},
        )
    weight = _WEIGHT
    entry: t.BoardEntry | None = None
    if len(board) == 5:
        b0, b1, b2, b3, b4 = board
        board_key = weight[b0] + weight[b1] + weight[b2] + weight[b3] + weight[b4]
        entry = _BOARDS_5.get(board_key & _RANK_MASK)
        if entry is None and board_key & _RANK_MASK in _BOARDS_SEEN:
            entry = _board_entry(board)
    else:
        board_key = sum(weight[card] for card in board)
        entry = _board_entry(board)
    suit = _FLUSH_SUIT[len(board)][board_key >> _SUIT_SHIFT]
    # One comprehension per step rather than one loop over the hands: fewer bytecodes
    # per hand, which is most of the cost.
    try:
        keys = [weight[a] + weight[b] + weight[c] + weight[d] for a, b, c, d in holes]
    except ValueError:
        sizes = sorted({len(hole) for hole in holes} - {4})
        raise RuleError(
            f"an Omaha hand has four hole cards, not {sizes[0]}",
            code="hole_cards",
            params={"count": sizes[0]},
        ) from None
    found = [_HOLES[key & _RANK_MASK] for key in keys]
    if entry is not None:
        ranks = entry[0]
        board_low = entry[1]
        highs = [entry[max(getter(ranks))] for getter, _ in found]
    else:
        # A 5-card board seen for the first time: its entry (under 0.1 ms) pays only when
        # the board comes back, so it is built then. A process replaying a file meets most
        # boards once.
        _BOARDS_SEEN.add(board_key & _RANK_MASK)
        board_low = _board_low_mask(board)
        highs = _highs_without_entry(holes, board)
    if suit >= 0:
        _flushes_counted(highs, holes, keys, board, suit)
    # A StrEnum equals its value, so the game may also be given as "omaha-hi-lo".
    if game != Game.OMAHA_HI_LO:
        return [(high, None) for high in highs]
    low_best = _LOW_BEST
    lows = [low_best[hole_low | board_low] or None for _, hole_low in found]
    return list(zip(highs, lows, strict=True))


def _highs_without_entry(holes: Sequence[Sequence[Card]], board: Sequence[Card]) -> list[int]:
    """Each hand's best non-flush high, its rank pairs looked up with the board's rank
    triples directly (the same values a board's entry holds): about 5 us a hand."""
    triples = _triple_keys(board)
    get = _FIVE_HIGH.get
    return [
        max([get(pair + triple, 0) for pair in _pair_keys(hole) for triple in triples])
        for hole in holes
    ]


def _flushes_counted(
    highs: list[int],
    holes: Sequence[Sequence[Card]],
    keys: list[int],
    board: Sequence[Card],
    suit: int,
) -> None:
    """Raises each hand's high in `highs` to its flush in `suit`, where it makes a better one
    (`keys`: the hands' weights, whose suit counts say which can make a flush at all)."""
    flushable = _HOLE_FLUSHABLE
    bit = _RANK_BIT_IN_SUIT[suit]
    board_suited = 0
    for card in board:
        board_suited |= bit[card]
    for i, key in enumerate(keys):
        if flushable[key >> _SUIT_SHIFT] >> suit & 1:
            h0, h1, h2, h3 = holes[i]
            hole_suited = bit[h0] | bit[h1] | bit[h2] | bit[h3]
            both = hole_suited | board_suited
            if both.bit_count() == 5:
                flush = _FLUSH_BY_MASK[both]
            else:
                flush = _flush_value(hole_suited << 13 | board_suited)
            if flush > highs[i]:
                highs[i] = flush


def evaluate_many(
    hands: Iterable[tuple[Sequence[Card], Sequence[Card]]],
) -> list[tuple[int, int | None]]:
    """`high_low_values` of many `(hole, board)` hands, each with its own board.

    The same lookups as one hand at a time, in one loop (no call per hand); for hands that
    share a board, `showdown_values` also shares the board's work.

    >>> from tables.engine.cards import parse_cards
    >>> evaluate_many([(parse_cards("AcAdAhAs"), parse_cards("Ks7d2c"))]) == [
    ...     high_low_values(parse_cards("AcAdAhAs"), parse_cards("Ks7d2c"))]
    True
    """
    weight = _WEIGHT
    boards = _BOARDS_5
    holes = _HOLES
    flush_suit = _FLUSH_SUIT_5
    flushable = _HOLE_FLUSHABLE
    low_best = _LOW_BEST
    mask = _RANK_MASK
    shift = _SUIT_SHIFT
    suit_bits = _RANK_BIT_IN_SUIT
    values: list[tuple[int, int | None]] = []
    append = values.append
    for hole, board in hands:
        try:
            h0, h1, h2, h3 = hole
            b0, b1, b2, b3, b4 = board
        except ValueError:
            append(high_low_values(hole, board))
            continue
        hole_key = weight[h0] + weight[h1] + weight[h2] + weight[h3]
        board_key = weight[b0] + weight[b1] + weight[b2] + weight[b3] + weight[b4]
        try:
            entry = boards[board_key & mask]
        except KeyError:
            entry = _board_entry(board)
        getter, hole_low = holes[hole_key & mask]
        high = entry[max(getter(entry[0]))]
        suit = flush_suit[board_key >> shift]
        if suit >= 0 and flushable[hole_key >> shift] >> suit & 1:
            bit = suit_bits[suit]
            hole_suited = bit[h0] | bit[h1] | bit[h2] | bit[h3]
            board_suited = bit[b0] | bit[b1] | bit[b2] | bit[b3] | bit[b4]
            both = hole_suited | board_suited
            if both.bit_count() == 5:
                flush = _FLUSH_BY_MASK[both]
            else:
                flush = _flush_value(hole_suited << 13 | board_suited)
            if flush > high:
                high = flush
        append((high, low_best[hole_low | entry[1]] or None))
    return values


def prepare_tables() -> int:
    """Build every 5-card board's entry now (about 0.3 s) rather than on first use.

    The evaluator builds a board's entry the first time its ranks come up (about 60 us,
    6,175 of them at most). A long-lived worker that wants no such cost in play can call
    this once at start. Returns the number of entries.
    """
    return t.build_all_boards()


def best_high(hole: Sequence[Card], board: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
    """The best high of two hole cards and three board cards, and the five cards used.

    For the showdown display; it tries all sixty combinations, so use `high_value` to
    compare hands.

    >>> from tables.engine.cards import cards_str, parse_cards
    >>> value, used = best_high(parse_cards("AsAdAcAh"), parse_cards("Ks7d2c"))
    >>> describe_high(value), cards_str(used)
    ('One pair, aces', 'AsAdKs7d2c')
    """
    best = _best_five(hole, board, five_card_high)
    assert best is not None  # every five cards make some high
    return best


def best_low(hole: Sequence[Card], board: Sequence[Card]) -> tuple[int, tuple[Card, ...]] | None:
    """The best 8-or-better low and the five cards used, or None when there is no low.

    >>> from tables.engine.cards import cards_str, parse_cards
    >>> value, used = best_low(parse_cards("As2d9c9h"), parse_cards("3h5d8cKs"))
    >>> describe_low(value), cards_str(used)
    ('8-5-3-2-A', 'As2d3h5d8c')
    """
    return _best_five(hole, board, five_card_low)


def _best_five(
    hole: Sequence[Card],
    board: Sequence[Card],
    score: Callable[[tuple[Card, ...]], int | None],
) -> tuple[int, tuple[Card, ...]] | None:
    """The best-scoring two-hole-plus-three-board five of all sixty, with its cards."""
    _check(hole, board)
    best = -1
    best_cards: tuple[Card, ...] = ()
    for pair in combinations(hole, 2):
        for triple in combinations(board, 3):
            five = pair + triple
            value = score(five)
            if value is not None and value > best:
                best, best_cards = value, five
    return (best, best_cards) if best >= 0 else None


def high_ranks(value: int) -> tuple[int, int, int, int, int]:
    """The five ranks of a high value, in the order they matter."""
    return (
        value >> 16 & 15,
        value >> 12 & 15,
        value >> 8 & 15,
        value >> 4 & 15,
        value & 15,
    )


def high_category(value: int) -> int:
    """`HIGH_CARD` .. `STRAIGHT_FLUSH` of a high value."""
    return value >> 20


def describe_high(value: int) -> str:
    """A high value in words.

    >>> from tables.engine.cards import parse_cards
    >>> describe_high(five_card_high(parse_cards("AsKsQsJsTs")))
    'Royal flush'
    >>> describe_high(five_card_high(parse_cards("5c4d3h2sAc")))
    'Straight, five high'
    """
    category = high_category(value)
    ranks = high_ranks(value)
    name = _CATEGORY_NAMES[category]
    top = _RANK_NAMES[ranks[0]]
    if category == STRAIGHT_FLUSH:
        return "Royal flush" if ranks[0] == 12 else f"Straight flush, {top} high"
    if category == QUADS:
        return f"{name}, {_RANK_PLURALS[ranks[0]]}"
    if category == FULL_HOUSE:
        return f"{name}, {_RANK_PLURALS[ranks[0]]} full of {_RANK_PLURALS[ranks[3]]}"
    if category in (FLUSH, STRAIGHT, HIGH_CARD):
        return f"{name}, {top} high"
    if category == TRIPS:
        return f"{name}, {_RANK_PLURALS[ranks[0]]}"
    if category == TWO_PAIR:
        return f"{name}, {_RANK_PLURALS[ranks[0]]} and {_RANK_PLURALS[ranks[2]]}"
    return f"{name}, {_RANK_PLURALS[ranks[0]]}"


def low_ranks(value: int) -> tuple[int, ...]:
    """The five ranks (deuce 0 .. ace 12) of a low value, highest low card first."""
    mask = 255 - value
    return tuple(
        12 if low_rank == 0 else low_rank - 1
        for low_rank in range(7, -1, -1)
        if mask >> low_rank & 1
    )


def describe_low(value: int) -> str:
    """A low value as its five ranks from the highest down.

    >>> describe_low(255 - 0b11111)
    '5-4-3-2-A'
    """
    if not 0 <= value <= 255 or (255 - value).bit_count() != 5:
        raise RuleError(
            f"{value} is not a low value: five different ranks ace to eight",
            code="not_a_low",
            params={"value": value},
        )
    return "-".join(RANKS[rank] for rank in low_ranks(value))
