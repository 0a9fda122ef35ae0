"""Colour-ups a blind structure implies: the level from which a chip is no longer needed.

A break may race chips off by name (``BlindLevel.colour_up``, TDA 24). Many blind structures
say nothing, and the smallest chip simply stops being useful: from some level on, no blind,
ante or bet of that level or of any later one needs it. The screens announce it at that
level change, so the director colours up then, not three levels late.

An amount needs no chip smaller than the largest denomination that divides it: with 25, 100
and 500 chips, 150 needs the 25s (100 + 25 + 25) and 200 does not. The denominations are the
blind structure's chip set; without one, the usual tournament chips (1, 5, 25, 100, 500, 1,000 and
up) are assumed, from the smallest one the first level needs. Chips a break races off are
the director's own plan and are never announced here too.

No Django here: rows are read by attribute (``kind`` or ``is_break``, the amounts,
``colour_up``), so blind structure rows, the clock's rows and plain objects all work.

>>> from types import SimpleNamespace as Row
>>> rows = [Row(kind="level", small_blind=25, big_blind=50),
...         Row(kind="level", small_blind=100, big_blind=200)]
>>> colour_ups(rows, [25, 100, 500])
((), (25,))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

# The usual tournament denominations, assumed when a blind structure has no chip set.
USUAL_CHIPS = (1, 5, 25, 100, 500, 1_000, 5_000, 25_000, 100_000, 500_000, 1_000_000)
AMOUNTS = ("small_blind", "big_blind", "ante", "small_bet", "big_bet")


def _is_break(row: Any) -> bool:
    if hasattr(row, "is_break"):
        return bool(row.is_break)
    return getattr(row, "kind", "level") == "break"


def smallest_needed(row: Any, chips: Sequence[int]) -> int | None:
    """The smallest chip the row's amounts need (None for a row with no amount).

    ``chips`` in increasing order. An amount no chip divides (a blind structure checked against
    another chip set) needs them all.
    """
    needed: int | None = None
    for name in AMOUNTS:
        amount = int(getattr(row, name, 0) or 0)
        if amount <= 0:
            continue
        chip = next((c for c in reversed(chips) if amount % c == 0), chips[0])
        needed = chip if needed is None else min(needed, chip)
    return needed


def colour_ups(rows: Sequence[Any], chip_set: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """For each row, the chips that leave at its start because no level from it on needs
    them (empty for most rows, and always for a break: it races off its own)."""
    chips = sorted({int(c) for c in chip_set if int(c) > 0}) or list(USUAL_CHIPS)
    raced = {
        int(c) for row in rows if _is_break(row) for c in (getattr(row, "colour_up", ()) or ())
    }
    # The smallest chip any level from each row on needs.
    later: list[int | None] = [None] * len(rows)
    smallest: int | None = None
    for index in range(len(rows) - 1, -1, -1):
        row = rows[index]
        if not _is_break(row):
            needed = smallest_needed(row, chips)
            if needed is not None:
                smallest = needed if smallest is None else min(smallest, needed)
        later[index] = smallest
    result: list[tuple[int, ...]] = []
    in_play: list[int] | None = None
    for index, row in enumerate(rows):
        floor = later[index]
        if _is_break(row) or floor is None:
            result.append(())
            continue
        if in_play is None:
            # The first level: chips below what the whole blind structure needs were never used.
            in_play = [c for c in chips if c >= floor]
            result.append(())
            continue
        leaving = tuple(c for c in in_play if c < floor and c not in raced)
        in_play = [c for c in in_play if c >= floor]
        result.append(leaving)
    return tuple(result)
