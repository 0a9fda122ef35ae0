"""The rows a move reads, kept per table as of the newest version this process has seen.

A move needs the table's row, its seats and its hand in play (``rows.move_rows``): one
round trip before anything can be decided. After a move this process has those rows in
hand, exactly as written; and a move that only added its records (``play.table_act``'s
unlocked path) changes nothing else, so the broadcast can carry what it wrote (``move_news``)
and every other process brings its own copy up to the same version (``KeptRows.follow``). The
next move, in whichever process its player's socket is, then starts from the kept rows
instead of reading them. One ``KeptRows`` per process, owned by the table state
(``tables.runtime.state``).

Why this is safe: every write to a table bumps its version and renews its nonce, and a
move's write is conditional on the version and nonce it started from (``rows.move_write``).
Kept rows are only used for the version they were kept at; if the table has moved on
meanwhile, the write finds nothing to update and the move is refused as stale, as it would
be after a fresh read. Kept objects are never changed: a move works on copies
(``KeptRows.for_move``).
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tables.models import Hand, Seat, Table

# A move's writes to the hand besides its records (``rows.HAND_STATE`` less the fields a
# move that goes on never changes: the hand's end, summary and awards).
MOVE_STATE = ("to_act", "turn_started_at", "deadline", "turn_extended", "board_shown", "reveal_at")


@dataclass(frozen=True)
class _Kept:
    table: Table
    seats: tuple[Seat, ...]
    hand: Hand


class KeptRows:
    """Per table, the rows of the newest version this process has seen (a bounded LRU)."""

    SIZE = 1024

    def __init__(self) -> None:
        self._kept: OrderedDict[int, _Kept] = OrderedDict()
        self._lock = threading.Lock()

    def file(self, table: Table, seats: list[Seat], hand: Hand) -> None:
        """Keep the rows a move just wrote (the writer's objects, never changed after).

        A hand that has ended is not kept: the next move is on another hand, which only a
        read can bring.
        """
        if hand.ended_at is not None:
            self.drop(table.pk)
            return
        kept = _Kept(table, tuple(sorted(seats, key=lambda s: s.number)), hand)
        with self._lock:
            self._kept[table.pk] = kept
            self._kept.move_to_end(table.pk)
            while len(self._kept) > self.SIZE:
                self._kept.popitem(last=False)

    def drop(self, table_id: int) -> None:
        with self._lock:
            self._kept.pop(table_id, None)

    def forget(self) -> None:
        with self._lock:
            self._kept.clear()

    def for_move(self, table_id: int, version: int) -> tuple[Table, list[Seat], Hand] | None:
        """Copies of the table's kept rows if they are of ``version``, for a move to work on."""
        with self._lock:
            kept = self._kept.get(table_id)
        if kept is None or kept.table.version != version:
            return None
        return (
            copy.copy(kept.table),
            [copy.copy(seat) for seat in kept.seats],
            copy.copy(kept.hand),
        )

    def follow(self, news: dict[str, Any]) -> None:
        """Bring the table's kept rows one version on, if they are of the version ``news``
        started from (else there is nothing to follow: the next move reads)."""
        table_id = news["table"]
        with self._lock:
            kept = self._kept.get(table_id)
        if (
            kept is None
            or "nonce" not in news  # from a process of an earlier release: the next move reads
            or kept.table.version != news["from"]
            or kept.hand.pk != news["hand"]
            or kept.table.created_at.isoformat() != news["created"]
        ):
            return
        table = copy.copy(kept.table)
        table.version += 1
        table.nonce = news["nonce"]
        hand = copy.copy(kept.hand)
        hand.records = kept.hand.records + list(news["records"])
        for name, value in zip(MOVE_STATE, news["state"], strict=True):
            setattr(hand, name, Hand._meta.get_field(name).to_python(value))
        with self._lock:
            # Unless a move of this process filed newer rows meanwhile.
            if self._kept.get(table_id) is kept:
                self._kept[table_id] = _Kept(table, kept.seats, hand)


def move_news(table: Table, hand: Hand, added: list[dict[str, Any]]) -> dict[str, Any]:
    """What a move that only added records wrote, for other processes' ``KeptRows.follow``:
    the version it started from, the table's new nonce, the records, the hand's turn fields.
    Plain JSON types (channels-redis packs it with msgpack)."""
    return {
        "table": table.pk,
        "created": table.created_at.isoformat(),
        "from": table.version - 1,
        "nonce": table.nonce,
        "hand": hand.pk,
        "records": added,
        "state": [_plain(getattr(hand, name)) for name in MOVE_STATE],
    }


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value
