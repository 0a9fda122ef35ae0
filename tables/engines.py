"""The one cache of rebuilt hands: the engine's ``Hand`` for a stored hand row.

A hand row is its list of engine records; rebuilding a hand replays every record, which a
move cannot afford on every frame. This process keeps, per hand in play, the engine as of
the newest records it has seen. Records only ever grow, so a kept engine with fewer records
than the row is that same hand earlier on (another process moved it since): it catches up
by replaying only the records it missed. The commitment tells apart two hands that got the
same id (after a rollback in tests).

Kept engines are shared and never changed in place: readers (snapshots, pages) use them as
they are, and a move works on ``engine_to_move``'s private copy, which it files back with
``engine_file`` once its transaction has committed.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from tables.engine.errors import RuleError
from tables.engine.records import record_from_json, record_to_json
from tables.engine.state import Hand as EngineHand
from tables.models import Hand

SIZE = 1024

_KEPT: OrderedDict[tuple[int, str], EngineHand] = OrderedDict()
# Per table: the number and key of its newest hand kept.
_NEWEST: dict[int, tuple[int, tuple[int, str]]] = {}
_LOCK = threading.Lock()


def engine_of(hand: Hand) -> EngineHand:
    """The engine for the hand's stored records (shared: read it, never act on it)."""
    key = (hand.pk, hand.commitment)
    with _LOCK:
        kept = _KEPT.get(key)
    stored = hand.records
    if kept is not None:
        mine = kept.records  # a copy: taken once
        known = len(mine)
        if 0 < known <= len(stored) and record_to_json(mine[-1]) == stored[known - 1]:
            if known == len(stored):
                with _LOCK:
                    if key in _KEPT:
                        _KEPT.move_to_end(key)
                return kept
            engine = kept.copy()
            try:
                engine.catch_up([record_from_json(r) for r in stored[known:]])
            except RuleError:
                pass  # rebuilt below, where a broken record raises for good
            else:
                engine_file(hand, engine)
                return engine
    engine = EngineHand.from_records([record_from_json(r) for r in stored])
    engine_file(hand, engine)
    return engine


def engine_to_move(hand: Hand) -> EngineHand:
    """A private copy of the hand's engine, for a move to act on."""
    return engine_of(hand).copy()


def engine_file(hand: Hand, engine: EngineHand) -> None:
    """Keep ``engine`` as the hand's newest; nobody may change it after this.

    A table's next hand replaces its previous one's engine: a server keeps one hand per
    table it serves rather than a thousand finished ones, which the garbage collector
    would have to scan (their records are hundreds of objects each). An older hand read
    again (a history page) is kept too, until newer ones push it out.
    """
    key = (hand.pk, hand.commitment)
    with _LOCK:
        newest = _NEWEST.get(hand.table_id)
        if newest is None or (newest[1] != key and hand.number >= newest[0]):
            if newest is not None:
                _KEPT.pop(newest[1], None)
            _NEWEST[hand.table_id] = (hand.number, key)
        _KEPT[key] = engine
        _KEPT.move_to_end(key)
        while len(_KEPT) > SIZE:
            _KEPT.popitem(last=False)


def engines_forget() -> None:
    """Drop every kept engine (tests that simulate another process)."""
    with _LOCK:
        _KEPT.clear()
        _NEWEST.clear()


def engine_kept(hand: Hand) -> EngineHand | None:
    """The engine this process keeps for the hand, if any, without rebuilding one."""
    with _LOCK:
        return _KEPT.get((hand.pk, hand.commitment))
