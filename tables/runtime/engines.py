"""Rebuilt hands: the engine's ``Hand`` for a stored hand row, kept per hand in play.

A hand row is its list of engine records; rebuilding a hand replays every record, which a
move cannot afford on every frame. ``Engines`` keeps, per hand in play, the engine as of
the newest records it has seen. Records only ever grow, so a kept engine with fewer records
than the row is that same hand earlier on (another process moved it since): it catches up
by replaying only the records it missed. The commitment tells apart two hands that got the
same id (after a rollback in tests).

Kept engines are shared and never changed in place: readers (snapshots, pages) use them as
they are, and a move works on ``to_move``'s private copy, which it files back with
``file`` once it is written. One ``Engines`` per process, owned by the table state
(``tables.runtime.state``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from tables.engine.errors import RuleError
from tables.engine.records import record_from_json, record_to_json
from tables.engine.state import Hand as EngineHand
from tables.models import Hand


class Engines:
    """The engines of the hands this process serves, newest first out of a bounded LRU."""

    SIZE = 1024

    def __init__(self) -> None:
        self._kept: OrderedDict[tuple[int, str], EngineHand] = OrderedDict()
        # Per table: the number and key of its newest hand kept.
        self._newest: dict[int, tuple[int, tuple[int, str]]] = {}
        self._lock = threading.Lock()

    def of(self, hand: Hand) -> EngineHand:
        """The engine for the hand's stored records (shared: read it, never act on it)."""
        key = (hand.pk, hand.commitment)
        with self._lock:
            kept = self._kept.get(key)
        stored = hand.records
        if kept is not None:
            mine = kept.records  # a copy: taken once
            known = len(mine)
            if 0 < known <= len(stored) and record_to_json(mine[-1]) == stored[known - 1]:
                if known == len(stored):
                    with self._lock:
                        if key in self._kept:
                            self._kept.move_to_end(key)
                    return kept
                engine = kept.copy()
                try:
                    engine.catch_up([record_from_json(r) for r in stored[known:]])
                except RuleError:
                    pass  # rebuilt below, where a broken record raises for good
                else:
                    self.file(hand, engine)
                    return engine
        engine = EngineHand.from_records([record_from_json(r) for r in stored])
        self.file(hand, engine)
        return engine

    def to_move(self, hand: Hand) -> EngineHand:
        """A private copy of the hand's engine, for a move to act on."""
        return self.of(hand).copy()

    def file(self, hand: Hand, engine: EngineHand) -> None:
        """Keep ``engine`` as the hand's newest; nobody may change it after this.

        A table's next hand replaces its previous one's engine: a server keeps one hand per
        table it serves rather than a thousand finished ones, which the garbage collector
        would have to scan (their records are hundreds of objects each). An older hand read
        again (a history page) is kept too, until newer ones push it out.
        """
        key = (hand.pk, hand.commitment)
        with self._lock:
            newest = self._newest.get(hand.table_id)
            if newest is None or (newest[1] != key and hand.number >= newest[0]):
                if newest is not None:
                    self._kept.pop(newest[1], None)
                self._newest[hand.table_id] = (hand.number, key)
            self._kept[key] = engine
            self._kept.move_to_end(key)
            while len(self._kept) > self.SIZE:
                self._kept.popitem(last=False)

    def forget(self) -> None:
        with self._lock:
            self._kept.clear()
            self._newest.clear()
