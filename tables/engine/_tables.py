"""Lookup tables behind the Omaha evaluator, built once at import (about 0.1 s).

Outside flushes, an Omaha high depends only on the ranks. So the work splits into
- a value for every 5-rank multiset (6,175 of them) and for every 5-rank flush (1,287);
- for every board's ranks (455 of 3 cards, 1,820 of 4, 6,175 of 5), a row of 91 values: the
  best non-flush high with each hole rank pair; a hand's non-flush high is then the best of
  at most six entries of its board's row (four aces are one pair, A-A). Rows of 5-card
  boards, and the compact form the evaluator reads (`board_entry`), are built on first
  use;
- a flush only when the board has three of a suit and the hole two of it;
- for the 8-or-better low, which depends only on the sets of distinct low ranks in the hole
  and on the board, one flat table indexed by both 8-bit masks.

A card's weight packs what the evaluator needs into one int, so a hand's key is a sum:
- bits 0-18: the sum of the cards' rank weights, which differs for every multiset of up to
  five ranks (a Sidon-like set, found by a greedy search: each weight is the smallest that
  keeps the sums of 3, 4 and 5 ranks apart);
- bits 19-27: three bits each counting clubs, diamonds and hearts; spades are the rest.
The whole key stays below 2**30, one CPython digit, which keeps the sums and lookups cheap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from operator import itemgetter
from typing import Any

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

RANK_WEIGHT: tuple[int, ...] = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
RANK_KEY_MASK = (1 << 19) - 1
SUIT_SHIFT = 19
CARD_WEIGHT: tuple[int, ...] = tuple(
    RANK_WEIGHT[card >> 2] + ((1 << (SUIT_SHIFT + 3 * (card & 3))) if card & 3 < 3 else 0)
    for card in range(52)
)
"""Per card: its rank's weight plus, for a club, diamond or heart, its suit's counter."""

SUITED_BIT: tuple[int, ...] = tuple(1 << (13 * (card & 3) + (card >> 2)) for card in range(52))
"""Per card: one bit at ``13 * suit + rank``, so ``cards >> 13 * suit & 0x1FFF`` are the
ranks held in that suit."""

RANK_BIT_IN_SUIT: tuple[tuple[int, ...], ...] = tuple(
    tuple(1 << (card >> 2) if card & 3 == suit else 0 for card in range(52)) for suit in range(4)
)
"""`RANK_BIT_IN_SUIT[suit][card]`: the card's rank bit if it is of that suit, else 0; OR-ing
a hand's cards gives its 13-bit rank mask in the suit (small ints, cheaper than
`SUITED_BIT` when the suit is known)."""

LOW_BIT: tuple[int, ...] = tuple(
    (1 << (0 if card >> 2 == 12 else (card >> 2) + 1))
    if card >> 2 in (12, 0, 1, 2, 3, 4, 5, 6)
    else 0
    for card in range(52)
)
"""Per card: its bit in a low mask (ace 1, deuce 2, ..., eight 128), or 0 above eight."""

NO_LOW = 256
"""A low mask larger than any real one: no qualifying low."""


def _pack(category: int, ranks: Sequence[int]) -> int:
    value = category
    for rank in ranks:
        value = value << 4 | rank
    return value


def _straight_top(distinct_desc: Sequence[int]) -> int:
    """The top rank of five different ranks making a straight, or -1."""
    if distinct_desc[0] - distinct_desc[4] == 4:
        return distinct_desc[0]
    if list(distinct_desc) == [12, 3, 2, 1, 0]:
        return 3
    return -1


def rank_value(ranks: Sequence[int], flush: bool) -> int:
    """The high value of five ranks, as a flush or not: ``category << 20`` + five nibbles.

    The nibbles list the ranks in the order they matter (by count, then rank), and a
    straight lists its top card first, so the wheel 5-4-3-2-A sorts below 6-high.
    """
    desc = sorted(ranks, reverse=True)
    counts = {rank: desc.count(rank) for rank in desc}
    if len(counts) == 5:
        top = _straight_top(desc)
        if top >= 0:
            order = [top - i for i in range(4)] + [(top - 4) % 13]
            return _pack(STRAIGHT_FLUSH if flush else STRAIGHT, order)
        return _pack(FLUSH if flush else HIGH_CARD, desc)
    order = sorted(desc, key=lambda rank: (counts[rank], rank), reverse=True)
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


def _rank_key(ranks: Sequence[int]) -> int:
    return sum(RANK_WEIGHT[rank] for rank in ranks)


def _build_five_high() -> dict[int, int]:
    return {
        _rank_key(ranks): rank_value(ranks, flush=False)
        for ranks in combinations_with_replacement(range(13), 5)
        if ranks[0] != ranks[4]
    }


FIVE_HIGH: dict[int, int] = _build_five_high()
assert len(FIVE_HIGH) == 6175, "rank weights must keep every 5-rank multiset apart"
"""Non-flush value of every 5-rank multiset, keyed by its rank key."""

FLUSH_HIGH: dict[int, int] = {
    sum(1 << rank for rank in ranks): rank_value(ranks, flush=True)
    for ranks in combinations(range(13), 5)
}
"""Flush (or straight flush) value of five different ranks, keyed by their 13-bit mask."""

FLUSH_BY_MASK: list[int] = [FLUSH_HIGH.get(mask, 0) for mask in range(1 << 13)]
"""The same as a list over all 13-bit masks (0 unless five bits): two suited hole cards and
three suited board cards, the usual flush, need no search."""

PAIRS: tuple[tuple[int, int], ...] = tuple(combinations_with_replacement(range(13), 2))
PAIR_INDEX: dict[tuple[int, int], int] = {pair: index for index, pair in enumerate(PAIRS)}


def _build_triple_rows() -> dict[int, list[int]]:
    rows: dict[int, list[int]] = {}
    pair_keys = [_rank_key(pair) for pair in PAIRS]
    for triple in combinations_with_replacement(range(13), 3):
        key = _rank_key(triple)
        row = [FIVE_HIGH.get(key + pair_key, 0) for pair_key in pair_keys]
        if triple[0] == triple[2]:
            # Five of a rank cannot be dealt, and its key may be another hand's: 0 never wins.
            row[PAIR_INDEX[triple[0], triple[0]]] = 0
        rows[key] = row
    return rows


TRIPLE_ROWS: dict[int, list[int]] = _build_triple_rows()
"""For each 3-rank board multiset: the non-flush value with each of the 91 rank pairs."""

Getter = Callable[[list[int]], tuple[int, ...]]


def _build_holes() -> dict[int, tuple[Getter, int]]:
    holes: dict[int, tuple[Getter, int]] = {}
    for ranks in combinations_with_replacement(range(13), 4):
        indexes = sorted({PAIR_INDEX[pair] for pair in combinations(ranks, 2)})
        # itemgetter of one index returns a bare value; two keep max() over a tuple.
        getter: Getter = itemgetter(*indexes) if len(indexes) > 1 else itemgetter(*indexes * 2)
        low_mask = 0
        for rank in ranks:
            low_mask |= LOW_BIT[rank * 4]
        holes[_rank_key(ranks)] = (getter, low_mask << 8)
    return holes


def _hole_list() -> list[tuple[Getter, int]]:
    by_key = _build_holes()
    assert len(by_key) == 1820, "rank weights must keep every 4-rank multiset apart"
    no_hole: tuple[Getter, int] = (itemgetter(0, 0), 0)
    holes = [no_hole] * (max(by_key) + 1)
    for key, entry in by_key.items():
        holes[key] = entry
    return holes


HOLES: list[tuple[Getter, int]] = _hole_list()
"""For each 4-rank hole multiset: a getter of its rank pairs' entries in a board's row, and
its low mask shifted left 8 (ready to index `LOW_BEST`). Four aces give the one pair (A, A):
they play as two aces. A list indexed by the rank key rather than a dict: one memory access
instead of two or three (the keys are below 320,000, so 2.5 MB of pointers)."""


def _board_low_mask(ranks: Sequence[int]) -> int:
    mask = 0
    for rank in ranks:
        mask |= LOW_BIT[rank * 4]
    return mask


def _build_rows_4() -> dict[int, list[int]]:
    """The row of every 4-card board: the best of its triples' rows."""
    rows_4: dict[int, list[int]] = {}
    for ranks in combinations_with_replacement(range(13), 4):
        key = _rank_key(ranks)
        rows = [TRIPLE_ROWS[key - RANK_WEIGHT[rank]] for rank in sorted(set(ranks))]
        rows_4[key] = rows[0] if len(rows) == 1 else list(map(max, *rows))
    return rows_4


ROWS_4: dict[int, list[int]] = _build_rows_4()
"""For each 4-rank board multiset: its best non-flush value with each of the 91 rank pairs."""

BoardEntry = tuple[Any, ...]
"""A board's entry: ``(ranks, low_mask, value_0, value_1, ...)``.

`ranks` is 91 bytes, one per hole rank pair (by `PAIR_INDEX`): where in the entry that
pair's best non-flush value is, among the board's own distinct values, which follow from
index 2 in increasing order. So a hand's non-flush high is
``entry[max(getter(entry[0]))]``: 91 bytes and one tuple are far kinder to the processor's
cache than 91 pointers to int objects. `low_mask` is the board's low ranks (`LOW_BIT`).
"""

BOARDS_5: list[BoardEntry] = [()] * (4 * RANK_WEIGHT[12] + RANK_WEIGHT[11] + 1)
"""Entries of 5-card boards by rank key, filled by `board_entry` as boards come up (an
empty tuple until then): at most 6,175 of them, about 0.3 s to build them all, so not at
import. A list indexed by the key, like `HOLES`."""

_BOARDS_SMALL: tuple[dict[int, BoardEntry], ...] = ({}, {}, {}, {}, {})
"""Entries of 3- and 4-card boards, by size then rank key (only a flop or turn showdown)."""


def board_entry(board: Sequence[int]) -> BoardEntry:
    """The entry of a board of 3 to 5 cards, built and kept on first use.

    Two threads may build the same entry at once: they build equal tuples and either store
    wins, so no lock is needed.
    """
    ranks = sorted(card >> 2 for card in board)
    key = _rank_key(ranks)
    known = BOARDS_5[key] if len(ranks) == 5 else _BOARDS_SMALL[len(ranks)].get(key)
    if known:
        return known
    if len(ranks) == 3:
        row = TRIPLE_ROWS[key]
    elif len(ranks) == 4:
        row = ROWS_4[key]
    else:
        # Every triple of five cards lies in one of four of its 4-card subsets.
        rows = [ROWS_4[key - RANK_WEIGHT[rank]] for rank in sorted(set(ranks))[:4]]
        row = rows[0] if len(rows) == 1 else list(map(max, *rows))
    values = sorted(set(row))
    where = {value: index for index, value in enumerate(values, 2)}
    entry = (bytes(map(where.__getitem__, row)), _board_low_mask(ranks), *values)
    if len(ranks) == 5:
        BOARDS_5[key] = entry
    else:
        _BOARDS_SMALL[len(ranks)][key] = entry
    return entry


def build_all_boards() -> int:
    """Build every 5-card board entry now (about 0.3 s) instead of on first use.

    For a long-lived process that wants no first-use cost, e.g. at a worker's start.
    Returns how many entries there are.
    """
    for ranks in combinations_with_replacement(range(13), 5):
        if ranks[0] != ranks[4] and not BOARDS_5[_rank_key(ranks)]:
            board_entry([rank * 4 for rank in ranks])
    return sum(1 for entry in BOARDS_5 if entry)


def _lowest_three(mask: int) -> int:
    """The three lowest bits of `mask`, or `NO_LOW` when it has fewer than three."""
    picked = 0
    for bit in range(8):
        if mask >> bit & 1:
            picked |= 1 << bit
            if picked.bit_count() == 3:
                return picked
    return NO_LOW


def _build_low_best() -> bytes:
    """Best low value by ``hole_mask << 8 | board_mask``, 0 where there is none.

    Bytes, not a list: 64 KB stays in the processor's cache where 512 KB of pointers would
    not.

    For two given hole ranks the best three board ranks are the three lowest others:
    comparing from the highest card down is comparing masks as numbers.
    """
    lowest_three = [_lowest_three(mask) for mask in range(256)]
    pair_masks = [(1 << a) | (1 << b) for a, b in combinations(range(8), 2)]
    boards = [mask for mask in range(256) if 3 <= mask.bit_count() <= 5]
    best_for_pair: dict[int, list[int]] = {}
    for pair in pair_masks:
        row = [NO_LOW] * 256
        for board in boards:
            three = lowest_three[board & ~pair]
            if three != NO_LOW:
                row[board] = pair | three
        best_for_pair[pair] = row
    table = bytearray(256 * 256)
    for hole in range(256):
        if not 2 <= hole.bit_count() <= 4:
            continue
        rows = [best_for_pair[pair] for pair in pair_masks if pair & hole == pair]
        best = list(map(min, *rows)) if len(rows) > 1 else rows[0]
        base = hole << 8
        for board in boards:
            if best[board] != NO_LOW:
                table[base | board] = 255 - best[board]
    return bytes(table)


LOW_BEST: bytes = _build_low_best()
"""Best low value (``255 - mask``, 7 to 224) by hole and board low masks; 0: no low."""


def _suit_counts(field: int, cards: int) -> list[int]:
    counts = [field >> 3 * suit & 7 for suit in range(3)]
    return counts + [cards - sum(counts)]


def _build_flush_suit() -> tuple[list[int], ...]:
    """By board size, then by the key's suit field: the suit with three cards, or -1."""
    tables: list[list[int]] = []
    for cards in range(6):
        table = [-1] * 512
        for field in range(512):
            for suit, count in enumerate(_suit_counts(field, cards)):
                if count >= 3:
                    table[field] = suit
        tables.append(table)
    return tuple(tables)


FLUSH_SUIT: tuple[list[int], ...] = _build_flush_suit()
"""`FLUSH_SUIT[n][key >> SUIT_SHIFT]`: an n-card board (n <= 5) has at most one suit with
three cards or more."""

HOLE_FLUSHABLE: list[int] = [
    sum(1 << suit for suit, count in enumerate(_suit_counts(field, 4)) if count >= 2)
    for field in range(512)
]
"""By a 4-card hole's suit field: a bit per suit it holds two or more of."""


@lru_cache(maxsize=1 << 16)
def flush_value(masks: int) -> int:
    """Best flush from two hole and three board cards of one suit.

    `masks` is ``hole_ranks << 13 | board_ranks`` (13-bit rank masks of that suit); zero
    when the hole has fewer than two or the board fewer than three. Cached, because the
    same masks come back often and trying their combinations costs microseconds.
    """
    hole_bits = [1 << rank for rank in range(13) if masks >> (13 + rank) & 1]
    board_bits = [1 << rank for rank in range(13) if masks >> rank & 1]
    best = 0
    for a, b in combinations(hole_bits, 2):
        for x, y, z in combinations(board_bits, 3):
            value = FLUSH_HIGH[a | b | x | y | z]
            if value > best:
                best = value
    return best
