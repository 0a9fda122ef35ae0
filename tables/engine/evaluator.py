"""Omaha showdown values: the best high and the best 8-or-better low.

Every Omaha hand is exactly two hole cards and three board cards, for high and for low
separately (RULES.md, "Showdown"). Values are ints, higher is better, for both.

- A high value is ``category << 20`` plus five 4-bit ranks in the order they matter
  (the trips before the pair of a full house; the five of a wheel before its ace), so
  comparing ints compares hands and suits never break a tie.
- A low value is ``255 - mask``, where `mask` has bit ``r`` set for each of the five low
  ranks (ace 0, deuce 1, ..., eight 7). Five different ranks compared from the highest
  down is exactly comparing their masks as numbers, smaller better.

>>> from tables.engine.cards import parse_cards
>>> describe_high(high_value(parse_cards("AsAdKc2h"), parse_cards("AhKdKh7c")))
'Full house, aces full of kings'
>>> describe_low(low_value(parse_cards("As2d9c9h"), parse_cards("3h5d8cKs")) or 0)
'8-5-3-2-A'
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from tables.engine.cards import RANKS, Card
from tables.engine.errors import RuleError

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

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


def _pack(category: int, ranks: Sequence[int]) -> int:
    value = category
    for rank in ranks:
        value = value << 4 | rank
    return value


def five_card_high(cards: Sequence[Card]) -> int:
    """The high value of exactly five cards.

    >>> from tables.engine.cards import parse_cards
    >>> five_card_high(parse_cards("5c4d3h2sAc")) < five_card_high(parse_cards("6c5d4h3s2c"))
    True
    """
    ranks = sorted((card >> 2 for card in cards), reverse=True)
    flush = len({card & 3 for card in cards}) == 1
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    if len(counts) == 5:
        straight_top = -1
        if ranks[0] - ranks[4] == 4:
            straight_top = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:
            straight_top = 3
        if straight_top >= 0:
            order = [straight_top - i for i in range(4)] + [(straight_top - 4) % 13]
            return _pack(STRAIGHT_FLUSH if flush else STRAIGHT, order)
        return _pack(FLUSH if flush else HIGH_CARD, ranks)
    order = sorted(ranks, key=lambda rank: (counts[rank], rank), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 4:
        category = QUADS
    elif shape[:2] == [3, 2]:
        category = FULL_HOUSE
    elif shape[0] == 3:
        category = TRIPS
    elif shape[:2] == [2, 2]:
        category = TWO_PAIR
    else:
        category = PAIR
    return _pack(category, order)


def five_card_low(cards: Sequence[Card]) -> int | None:
    """The 8-or-better low value of exactly five cards, or None when they make no low."""
    mask = 0
    for card in cards:
        rank = card >> 2
        low_rank = 0 if rank == 12 else rank + 1
        if low_rank > 7 or mask >> low_rank & 1:
            return None
        mask |= 1 << low_rank
    return 255 - mask


def _check(hole: Sequence[Card], board: Sequence[Card]) -> None:
    if len(hole) != 4:
        raise RuleError(f"an Omaha hand has four hole cards, not {len(hole)}")
    if not 3 <= len(board) <= 5:
        raise RuleError(f"a board has 3 to 5 cards at a showdown, not {len(board)}")


def best_high(hole: Sequence[Card], board: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
    """The best high of two hole cards and three board cards, and the five cards used.

    >>> from tables.engine.cards import cards_str, parse_cards
    >>> value, used = best_high(parse_cards("AsAdAcAh"), parse_cards("Ks7d2c"))
    >>> describe_high(value), cards_str(used)
    ('One pair, aces', 'AsAdKs7d2c')
    """
    _check(hole, board)
    best = -1
    best_cards: tuple[Card, ...] = ()
    for pair in combinations(hole, 2):
        for triple in combinations(board, 3):
            five = pair + triple
            value = five_card_high(five)
            if value > best:
                best, best_cards = value, five
    return best, best_cards


def best_low(hole: Sequence[Card], board: Sequence[Card]) -> tuple[int, tuple[Card, ...]] | None:
    """The best 8-or-better low and the five cards used, or None when there is no low."""
    _check(hole, board)
    best = -1
    best_cards: tuple[Card, ...] = ()
    for pair in combinations(hole, 2):
        for triple in combinations(board, 3):
            five = pair + triple
            value = five_card_low(five)
            if value is not None and value > best:
                best, best_cards = value, five
    return (best, best_cards) if best >= 0 else None


def high_value(hole: Sequence[Card], board: Sequence[Card]) -> int:
    """The best high value of two hole cards and three board cards; higher is better."""
    return best_high(hole, board)[0]


def low_value(hole: Sequence[Card], board: Sequence[Card]) -> int | None:
    """The best 8-or-better low value, higher is better; None when there is no low."""
    found = best_low(hole, board)
    return None if found is None else found[0]


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
    return "-".join(RANKS[rank] for rank in low_ranks(value))
