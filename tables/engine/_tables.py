"""Lookup tables behind the Omaha evaluator, read at import from `_tables.bin`.

Outside flushes, an Omaha high depends only on the ranks. So the work splits into
- a value for every 5-rank multiset (6,175 of them) and for every 5-rank flush (1,287);
- for every board's ranks (455 of 3 cards, 1,820 of 4, 6,175 of 5), a row of 91 values: the
  best non-flush high with each hole rank pair, the best over the board's rank triples; a
  hand's non-flush high is then the best of at most six entries of its board's row (four
  aces are one pair, A-A). A board's row, in the compact form the evaluator reads
  (`board_entry`), is built on first use;
- a flush only when the board has three of a suit and the hole two of it;
- for the 8-or-better low, which depends only on the sets of distinct low ranks in the hole
  and on the board, one flat table indexed by both 8-bit masks.

The tables that take pure Python a tenth of a second to build (the 5-rank values, the
flushes, the lows, the holes' pairs) are built once by `tables.engine._tables_build` and
stored in `_tables.bin` (about 60 KB); reading them at import takes about a millisecond.

A card's weight packs what the evaluator needs into one int, so a hand's key is a sum:
- bits 0-18: the sum of the cards' rank weights, which differs for every multiset of up to
  five ranks (a Sidon-like set, found by a greedy search: each weight is the smallest that
  keeps the sums of 3, 4 and 5 ranks apart);
- bits 19-27: three bits each counting clubs, diamonds and hearts; spades are the rest.
The whole key stays below 2**30, one CPython digit, which keeps the sums and lookups cheap.
"""

from __future__ import annotations

import os
import struct
import sys
import zlib
from array import array
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from operator import itemgetter

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
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


def rank_key(ranks: Sequence[int]) -> int:
    """The rank part of a key: the sum of the ranks' weights, one per multiset."""
    return sum(RANK_WEIGHT[rank] for rank in ranks)


PAIRS: tuple[tuple[int, int], ...] = tuple(combinations_with_replacement(range(13), 2))
PAIR_INDEX: dict[tuple[int, int], int] = {pair: index for index, pair in enumerate(PAIRS)}
_PAIR_KEYS: tuple[int, ...] = tuple(rank_key(pair) for pair in PAIRS)
_FIVE_OF_A_KIND: tuple[int, ...] = tuple(PAIR_INDEX[rank, rank] for rank in range(13))
"""By rank: the index of its pair, which with three of the rank on the board would be five of
a kind."""


def _sections() -> list[bytes]:
    """The stored tables (`_tables_build` documents the format), or, when the file is
    missing, the same built here (slower)."""
    try:
        with open(os.path.join(os.path.dirname(__file__), "_tables.bin"), "rb") as handle:
            data = zlib.decompress(handle.read())
    except FileNotFoundError:
        # The build script reads this module's rules: imported here, once, not at the top.
        from tables.engine._tables_build import payload  # noqa: PLC0415

        data = payload()
    sections = []
    position = 0
    while position < len(data):
        (size,) = struct.unpack_from("<I", data, position)
        sections.append(data[position + 4 : position + 4 + size])
        position += 4 + size
    return sections


def _u32(section: bytes) -> array[int]:
    values = array("I", section)
    assert values.itemsize == 4, "the stored tables hold 32-bit ints"
    if sys.byteorder == "big":
        values.byteswap()
    return values


(
    _five_keys,
    _five_values,
    _flush_by_mask,
    _low_best,
    _flush_suit,
    _hole_flushable,
    _hole_keys,
    _hole_lows,
    _hole_pairs,
) = _sections()

FIVE_HIGH: dict[int, int] = dict(zip(_u32(_five_keys), _u32(_five_values), strict=True))
"""Non-flush value of every 5-rank multiset, keyed by its rank key."""

FLUSH_BY_MASK: list[int] = _u32(_flush_by_mask).tolist()
"""The flush (or straight flush) value of five different ranks by their 13-bit mask, 0
unless five bits: two suited hole cards and three suited board cards, the usual flush, need
no search."""

LOW_BEST: bytes = _low_best
"""Best low value (``255 - mask``, 7 to 224) by ``hole_low_mask << 8 | board_low_mask``;
0: no low. Bytes, not a list: 64 KB stays in the processor's cache where 512 KB of pointers
would not."""

FLUSH_SUIT: tuple[list[int], ...] = tuple(
    [suit if suit < 4 else -1 for suit in _flush_suit[size * 512 : size * 512 + 512]]
    for size in range(6)
)
"""`FLUSH_SUIT[n][key >> SUIT_SHIFT]`: an n-card board (n <= 5) has at most one suit with
three cards or more; -1 when it has none."""

HOLE_FLUSHABLE: list[int] = list(_hole_flushable)
"""By a 4-card hole's suit field: a bit per suit it holds two or more of."""

Getter = Callable[[bytes], tuple[int, ...]]


def _holes(hole_keys: bytes, hole_lows: bytes, hole_pairs: bytes) -> dict[int, tuple[Getter, int]]:
    return {
        # itemgetter of one index returns a bare value; two keep max() over a tuple.
        key: (itemgetter(*pairs) if len(pairs) > 1 else itemgetter(pairs[0], pairs[0]), low << 8)
        for key, low, pairs in zip(
            _u32(hole_keys), hole_lows, hole_pairs.split(b"\xff"), strict=True
        )
    }


HOLES: dict[int, tuple[Getter, int]] = _holes(_hole_keys, _hole_lows, _hole_pairs)
"""For each 4-rank hole multiset (1,820), by its rank key: a getter of its rank pairs'
entries in a board's row, and its low mask shifted left 8 (ready to index `LOW_BEST`). Four
aces give the one pair (A, A): they play as two aces.

A dict, not a list indexed by the key (the keys run to 320,000): the list cost 2.5 MB of
pointers, made at every start, and the garbage collector walked all of it at each of its
collections that reached the list's generation (about 5 ms each, a third of the import);
a dict lookup costs a few nanoseconds more."""

del _five_keys, _five_values, _flush_by_mask, _low_best, _flush_suit, _hole_flushable
del _hole_keys, _hole_lows, _hole_pairs


def _board_low_mask(ranks: Sequence[int]) -> int:
    mask = 0
    for rank in ranks:
        mask |= LOW_BIT[rank * 4]
    return mask


_ROWS: dict[tuple[int, ...], list[int]] = {}
"""Built on first use: for a board's 3 ranks (sorted), its best non-flush value with each of
the 91 rank pairs."""


def _row(ranks: tuple[int, ...]) -> list[int]:
    """The row of a board's 3, 4 or 5 sorted ranks; those of 3 are kept."""
    if len(ranks) > 3:
        # A hand plays three of the board: the best of the rows of its distinct rank
        # triples, in one pass (91 calls of max over at most ten rows). Going through the
        # rows of the board less one card, as before, made four such passes more per board.
        rows = [_row(triple) for triple in set(combinations(ranks, 3))]
        return rows[0] if len(rows) == 1 else list(map(max, *rows))
    row = _ROWS.get(ranks)
    if row is None:
        key = rank_key(ranks)
        get = FIVE_HIGH.get
        row = [get(key + pair_key, 0) for pair_key in _PAIR_KEYS]
        if ranks[0] == ranks[2]:
            # Five of a rank cannot be dealt, and its key may be another hand's: 0 never wins.
            row[_FIVE_OF_A_KIND[ranks[0]]] = 0
        _ROWS[ranks] = row
    return row


if TYPE_CHECKING:
    BoardEntry = tuple[Any, ...]
else:
    BoardEntry = tuple
"""A board's entry: ``(ranks, low_mask, value_0, value_1, ...)``.

`ranks` is 91 bytes, one per hole rank pair (by `PAIR_INDEX`): where in the entry that
pair's best non-flush value is, among the board's own distinct values, which follow from
index 2 in increasing order. So a hand's non-flush high is
``entry[max(getter(entry[0]))]``: 91 bytes and one tuple are far kinder to the processor's
cache than 91 pointers to int objects. `low_mask` is the board's low ranks (`LOW_BIT`).
"""

BOARDS_5: dict[int, BoardEntry] = {}
"""Entries of 5-card boards by rank key, added by `board_entry` as boards come up: at most
6,175 of them, about 0.3 s to build them all, so not at import. A dict, like `HOLES`."""

_BOARDS_SMALL: tuple[dict[int, BoardEntry], ...] = ({}, {}, {}, {}, {})
"""Entries of 3- and 4-card boards, by size then rank key (only a flop or turn showdown)."""


def board_entry(board: Sequence[int]) -> BoardEntry:
    """The entry of a board of 3 to 5 cards, built and kept on first use.

    Two threads may build the same entry at once: they build equal tuples and either store
    wins, so no lock is needed.
    """
    ranks = tuple(sorted(card >> 2 for card in board))
    key = rank_key(ranks)
    known = (BOARDS_5 if len(ranks) == 5 else _BOARDS_SMALL[len(ranks)]).get(key)
    if known:
        return known
    row = _row(ranks)
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
        if ranks[0] != ranks[4] and rank_key(ranks) not in BOARDS_5:
            board_entry([rank * 4 for rank in ranks])
    return len(BOARDS_5)


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
            value = FLUSH_BY_MASK[a | b | x | y | z]
            if value > best:
                best = value
    return best
