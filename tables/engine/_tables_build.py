"""Builds the evaluator's stored tables, `_tables.bin`, from the rules of poker.

    python -m tables.engine._tables_build          # rewrite tables/engine/_tables.bin
    python -m tables.engine._tables_build --check  # exit 1 if the file is not what it builds

Building them takes about a tenth of a second of pure Python; reading them back takes well
under a millisecond, so `tables.engine._tables` reads the file and every process that
imports the engine starts fast. `tests/engine/test_tables_data.py` checks the file holds
exactly what this module builds.

The file is zlib-compressed; what is compared is its content, the payload: zlib's output
for the same input may differ from one zlib build to another. The payload is a sequence of
sections, each a 4-byte little-endian length then its bytes, in `SECTIONS` order; arrays of
ints are little-endian unsigned 32-bit (`U32`) or one byte each.
"""

from __future__ import annotations

import argparse
import struct
import sys
import zlib
from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement
from pathlib import Path

from tables.engine import _tables as t

DATA_PATH = Path(__file__).with_name("_tables.bin")

SECTIONS = (
    "five_keys",  # U32: the rank key of each 5-rank multiset (no five of a kind)
    "five_values",  # U32: its non-flush high value, in the same order
    "flush_by_mask",  # U32 by 13-bit rank mask: the flush value of five ranks, else 0
    "low_best",  # byte by hole_low << 8 | board_low: best low value (255 - mask), 0: none
    "flush_suit",  # byte by board size * 512 + suit field: the suit with three, 255: none
    "hole_flushable",  # byte by a 4-card hole's suit field: a bit per suit held twice
    "hole_keys",  # U32: the rank key of each 4-rank hole multiset
    "hole_lows",  # byte: that hole's low mask (LOW_BIT of its ranks)
    "hole_pairs",  # bytes: its rank pairs' indexes in a board row, one group per hole,
    # groups separated by 255
)


def five_high() -> dict[int, int]:
    """Non-flush value of every 5-rank multiset (6,175), keyed by its rank key."""
    table = {
        t.rank_key(ranks): t.rank_value(ranks, flush=False)
        for ranks in combinations_with_replacement(range(13), 5)
        if ranks[0] != ranks[4]
    }
    assert len(table) == 6175, "rank weights must keep every 5-rank multiset apart"
    return table


def flush_by_mask() -> list[int]:
    """The flush (or straight flush) value of five different ranks, by their 13-bit mask."""
    table = [0] * (1 << 13)
    for ranks in combinations(range(13), 5):
        table[sum(1 << rank for rank in ranks)] = t.rank_value(ranks, flush=True)
    return table


def _lowest_three(mask: int) -> int:
    """The three lowest bits of `mask`, or `NO_LOW` when it has fewer than three."""
    picked = 0
    for bit in range(8):
        if mask >> bit & 1:
            picked |= 1 << bit
            if picked.bit_count() == 3:
                return picked
    return t.NO_LOW


def low_best() -> bytes:
    """Best low value by ``hole_mask << 8 | board_mask``, 0 where there is none.

    For two given hole ranks the best three board ranks are the three lowest others:
    comparing from the highest card down is comparing masks as numbers.
    """
    no_low = t.NO_LOW
    lowest_three = [_lowest_three(mask) for mask in range(256)]
    pair_masks = [(1 << a) | (1 << b) for a, b in combinations(range(8), 2)]
    boards = [mask for mask in range(256) if 3 <= mask.bit_count() <= 5]
    best_for_pair: dict[int, list[int]] = {}
    for pair in pair_masks:
        row = [no_low] * 256
        for board in boards:
            three = lowest_three[board & ~pair]
            if three != no_low:
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
            if best[board] != no_low:
                table[base | board] = 255 - best[board]
    return bytes(table)


def _suit_counts(field: int, cards: int) -> list[int]:
    counts = [field >> 3 * suit & 7 for suit in range(3)]
    return counts + [cards - sum(counts)]


def flush_suit() -> bytes:
    """By board size (0 to 5) then the key's suit field: the suit with three cards or more
    (a board of five has at most one), 255 for none."""
    table = bytearray([255] * (6 * 512))
    for cards in range(6):
        for field in range(512):
            for suit, count in enumerate(_suit_counts(field, cards)):
                if count >= 3:
                    table[cards * 512 + field] = suit
    return bytes(table)


def hole_flushable() -> bytes:
    """By a 4-card hole's suit field: a bit per suit it holds two or more of."""
    return bytes(
        sum(1 << suit for suit, count in enumerate(_suit_counts(field, 4)) if count >= 2)
        for field in range(512)
    )


def holes() -> tuple[list[int], bytes, bytes]:
    """Every 4-rank hole multiset (1,820): its rank key, its low mask and the indexes of
    its rank pairs (`PAIR_INDEX`), four aces being the one pair (A, A)."""
    keys: list[int] = []
    lows = bytearray()
    groups: list[bytes] = []
    for ranks in combinations_with_replacement(range(13), 4):
        keys.append(t.rank_key(ranks))
        low_mask = 0
        for rank in ranks:
            low_mask |= t.LOW_BIT[rank * 4]
        lows.append(low_mask)
        groups.append(bytes(sorted({t.PAIR_INDEX[pair] for pair in combinations(ranks, 2)})))
    assert len(set(keys)) == 1820, "rank weights must keep every 4-rank multiset apart"
    return keys, bytes(lows), b"\xff".join(groups)


def _u32(values: Sequence[int]) -> bytes:
    return struct.pack(f"<{len(values)}I", *values)


def payload() -> bytes:
    """The tables' bytes, uncompressed: what `_tables.bin` must hold."""
    five = five_high()
    hole_keys, hole_lows, hole_pairs = holes()
    sections = {
        "five_keys": _u32(list(five)),
        "five_values": _u32(list(five.values())),
        "flush_by_mask": _u32(flush_by_mask()),
        "low_best": low_best(),
        "flush_suit": flush_suit(),
        "hole_flushable": hole_flushable(),
        "hole_keys": _u32(hole_keys),
        "hole_lows": hole_lows,
        "hole_pairs": hole_pairs,
    }
    return b"".join(struct.pack("<I", len(sections[name])) + sections[name] for name in SECTIONS)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tables.engine._tables_build")
    parser.add_argument(
        "--check", action="store_true", help="compare the stored file, write nothing"
    )
    args = parser.parse_args(argv)
    built = payload()
    if args.check:
        stored = zlib.decompress(DATA_PATH.read_bytes()) if DATA_PATH.exists() else b""
        if stored != built:
            print(f"{DATA_PATH} differs from what the rules build: rebuild it")
            return 1
        print(f"{DATA_PATH} is up to date")
        return 0
    DATA_PATH.write_bytes(zlib.compress(built, 9))
    print(f"wrote {DATA_PATH} ({DATA_PATH.stat().st_size:,} bytes, {len(built):,} uncompressed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
