"""One process's state of the live tables, and the one way a change goes through it.

The face is ``TableState.change(table_id, version, decide)`` (and ``change_on_loop``), the
one way every service changes a table: the service's ``decide`` says what a change does on
the rows read, a hand's move (``Moved``), another change (``Changed``: seats, settings) or
nothing (None), or that it needs the table's lock (``NeedsLock``); the table state chooses
the thread or the loop, tries unlocked and then locked, writes and publishes (``commit``).

Every change to a table, a player's move above all, takes four steps here (docs/moves.md):

1. ``read``: the table's row, its seats and its hand in play, from the rows this process
   keeps of that version when it has them, else from the database;
2. the move itself, on ``engine_to_move``'s private copy of the hand's engine (the rules are
   the engine's, the checks the services');
3. ``write``: one conditional write that bumps the version only if it is still the version
   (and nonce) read; ``Stale`` (``tables.errors``) if anything changed the table meanwhile, nothing written;
4. ``publish``: once committed, the new state is filed for the sockets (built once per
   version), the rows and engine kept for the next move, and the news broadcast.

The process-wide caches are all inside one ``TableState`` (``STATE``): the rows kept per table
(``tables.runtime.kept_rows``), the engines per hand (``tables.runtime.engines``) and the built snapshots
(``tables.runtime.snapshots.Snapshots``). Each is only ever used for the exact version (and nonce) it was
kept at, so a stale entry can make a move refused, never wrong; ``forget`` drops them all
when the database restarted (``tables.runtime.loop_db.database_restarted``).

Where the work runs is chosen here, in one place (``on_loop``): on PostgreSQL a socket's move
is read and written on the socket's own event loop, on the loop's asynchronous connection
(``read_on_loop``, ``write_on_loop``, ``publish_on_loop``); everywhere else, and for every
other change, on the caller's thread with Django's connection. The statements mean the same
on both, and on SQLite too, where the conditional write is two statements in one short
transaction.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tables.engine.state import Hand as EngineHand
from tables.errors import NeedsLock, TableError
from tables.models import Hand, Seat, Table
from tables.runtime import broadcast, rows
from tables.runtime.engines import Engines
from tables.runtime.kept_rows import KeptRows, move_news
from tables.runtime.snapshots import Built, Snapshots
from tables.scheduling import schedule_bot, schedule_bot_now, schedule_tick_now
from tables.signals import hand_ended

Rows = tuple[Table | None, list[Seat], Hand | None]


@dataclass(frozen=True)
class Moved:
    """What a move changed, all of it current: the new state is built from it without a
    query. ``added`` are the hand's new records, written with the table's version bump."""

    hand: Hand
    engine: EngineHand
    seats: dict[int, Seat]
    added: tuple[dict[str, Any], ...] = ()
    # The next to act is a house bot: its move is scheduled once this one is written.
    wake_bot: bool = False
    # A tournament table's hand is over: the ``hand_ended`` news (``tables.signals``), sent
    # after the commit once the table's own news is out, so the players see the hand's end
    # without waiting for the tournament's work (eliminations, moves).
    hand_ended: dict[str, Any] | None = None
    # A cash hand's end written with the move in one statement (``write_on_loop``): the
    # dealt seats, as they are after the hand, and when the next hand is dealt (a tick).
    ended_seats: tuple[Seat, ...] = ()
    next_hand_in: float | None = None


@dataclass
class Read:
    """The rows a change decides on, and what the way it is being made can write.

    ``table``, ``seats`` (by number) and ``hand`` are the change's own copies. A change
    made under the table's lock may write any row (``save``); one read unlocked or made on
    an event loop writes nothing but its records and the hand's turn, in its one
    conditional statement, and asks for the lock (``NeedsLock``) as soon as it would write
    more (``save``, ``writes_more``). On a loop that statement also carries a cash hand's
    simple end (``one_statement_end``).
    """

    table: Table
    seats: dict[int, Seat]
    hand: Hand | None
    locked: bool = False
    one_statement_end: bool = False
    state: TableState | None = field(default=None, repr=False)

    def engine_to_move(self, hand: Hand) -> EngineHand:
        """A private copy of the hand's engine, for the change to act on."""
        return (self.state or STATE).engine_to_move(hand)

    def writes_more(self) -> None:
        """The change writes more rows than its records and turn: ``NeedsLock`` unless it is
        made under the table's lock."""
        if not self.locked:
            raise NeedsLock

    def save(self, obj: Any, names: tuple[str, ...] | None = None) -> None:
        """Write a row the change alters besides its records (``rows.save``); ``NeedsLock``
        unless it is made under the table's lock."""
        self.writes_more()
        rows.save(obj, names)


@dataclass(frozen=True)
class Changed:
    """What a change other than a hand's move decided: the rows it altered (a seat, the
    table's settings, a request) are written already, under the table's lock
    (``Read.save``); the version's bump writes every table column and the new state is
    built by reading the table back.

    ``gathered``: news that comes in bursts (sockets opening) goes out with the others of
    its burst (``broadcast.table_changed_soon``)."""

    gathered: bool = False


CHANGED = Changed()

# What a service decides on the rows: a move made by the engine (``Moved``), another change
# (``Changed``), or nothing (None: nothing written, the version stays), not yet committed.
Outcome = Moved | Changed | None
Decide = Callable[[Read], Outcome]


class TableState:
    """The tables as this process keeps them, and the steps of a change through them."""

    def __init__(self) -> None:
        self._engines = Engines()
        self._rows = KeptRows()
        self._snapshots = Snapshots(self._engines)
        # The versions a change made on an event loop found it needs the table's lock at:
        # made again on a thread, it goes straight to the lock (the engine plays twice at
        # most). Only a choice of way: the locked way is right for every change.
        self._lock_wanted: OrderedDict[tuple[int, int], None] = OrderedDict()
        self._lock_wanted_lock = threading.Lock()

    def forget(self) -> None:
        """Drop every kept row, engine and built state (the database restarted, or a test
        wrote the rows behind the services' back)."""
        self._rows.forget()
        self._engines.forget()
        self._snapshots.forget()

    # ------------------------------------------------------------------ the one face

    def change(self, table_id: int, version: int | None, decide: Decide) -> tuple[Read, Outcome]:
        """Make a change on this thread: ``decide`` on the table's rows of ``version``, then
        write and publish what it decided (``commit``); the rows as the change left them
        (``read.table`` as written) and what was decided.

        A move (``version`` given, outside any transaction) is tried unlocked first (the
        rows kept of ``version``, or one unlocked read, and one conditional write); if
        ``decide`` asks for the lock (``NeedsLock``, or a ``Changed``), or inside a caller's
        transaction, or for a change made on whatever is current (``version`` None: the
        host's controls, a seat, a tick), it is made under the table's lock in a
        transaction. A refusal (``TableError``, ``Stale``) leaves nothing written.
        """
        if (
            version is not None
            and transaction.get_autocommit()
            and not self._lock_was_wanted(table_id, version)
        ):
            try:
                return self._change(table_id, version, decide, locked=False)
            except NeedsLock:
                pass
        with rows.writing():
            return self._change(table_id, version, decide, locked=True)

    def _change(
        self, table_id: int, version: int | None, decide: Decide, *, locked: bool
    ) -> tuple[Read, Outcome]:
        table, seats, hand = self.read(table_id, version, lock=locked)
        if table is None:
            raise TableError("not_found", _("there is no table %(table)s"), {"table": table_id})
        read = Read(table, {s.number: s for s in seats}, hand, locked, False, self)
        outcome = decide(read)
        if isinstance(outcome, Changed):
            if not locked:
                raise NeedsLock
            self.commit(table, gathered=outcome.gathered)
        elif outcome is not None:
            self.commit(table, outcome, table_columns=None if locked else ())
        return read, outcome

    async def change_on_loop(
        self, table_id: int, version: int, decide: Decide
    ) -> tuple[Read, Moved] | None:
        """``change`` without leaving the caller's event loop, where moves are made there
        (``on_loop``): the same read, ``decide`` and conditional write, on the loop's own
        connection, published from the loop. None when it is not made here (not on a loop,
        a read that would need a query on a thread, a change that needs the lock, the
        loop's connection failing): the caller makes it with ``change`` on a thread."""
        if not self.on_loop():
            return None
        found = await self.read_on_loop(table_id, version)
        if found is None or found[0] is None:
            return None
        table, seats, hand = found
        read = Read(table, {s.number: s for s in seats}, hand, False, True, self)
        try:
            moved = decide(read)
            if not isinstance(moved, Moved):
                # Only a move's records and turn are written on a loop.
                raise NeedsLock
        except NeedsLock:
            self._want_lock(table_id, version)
            return None
        try:
            await self.commit_on_loop(table, moved)
        except rows.LoopUnavailable:
            return None
        return read, moved

    def _want_lock(self, table_id: int, version: int) -> None:
        with self._lock_wanted_lock:
            self._lock_wanted[(table_id, version)] = None
            while len(self._lock_wanted) > 256:
                self._lock_wanted.popitem(last=False)

    def _lock_was_wanted(self, table_id: int, version: int) -> bool:
        with self._lock_wanted_lock:
            wanted = (table_id, version) in self._lock_wanted
            if wanted:
                del self._lock_wanted[(table_id, version)]
            return wanted

    def commit(
        self,
        table: Table,
        moved: Moved | None = None,
        *,
        table_columns: tuple[str, ...] | None = None,
        gathered: bool = False,
    ) -> None:
        """Bump the version, write the change (``write``: ``Stale`` if the table moved on)
        and publish it once the transaction has committed (at once for a move made outside
        a transaction, ``table_columns=()``), then what it asks for: the ``hand_ended`` news
        of a tournament's hand, a house bot's turn.

        ``gathered``: news that comes in bursts (sockets opening) goes out with the others
        of its burst (``broadcast.table_changed_soon``)."""
        table.version += 1
        self.write(table, moved, table_columns=table_columns)
        # A move written with no table column only added its records: other processes can
        # follow it from the news alone.
        self.publish(table, moved, only_records=table_columns == (), gathered=gathered)
        if moved is not None and moved.hand_ended is not None:
            # After the table's own news (callbacks run in order), so the players see the
            # hand's end without waiting for the tournament's work.
            news = moved.hand_ended
            transaction.on_commit(lambda: hand_ended.send(sender=Table, table_id=table.pk, **news))
        if moved is not None and moved.wake_bot:
            schedule_bot(table.pk)

    async def commit_on_loop(self, table: Table, moved: Moved) -> None:
        """``commit`` of a move made on an event loop: it only added records, or ended a
        cash hand simply (``Moved.next_hand_in``), in one conditional statement on the loop's
        own connection (``write_on_loop``), then published from the loop (a cash hand has no
        ``hand_ended``). ``rows.LoopUnavailable``: the connection failed (written or not,
        unknown); the change is made again on a thread, from a fresh read."""
        table.version += 1
        built = await self.write_on_loop(table, moved)
        if moved.wake_bot:
            schedule_bot_now(table.pk)
        if moved.next_hand_in is not None:
            schedule_tick_now(table.pk, moved.next_hand_in)
        await self.publish_on_loop(table, moved, built)

    # ------------------------------------------------------------------ where it runs

    def on_loop(self) -> bool:
        """Whether a socket's move is made on its event loop (``read_on_loop`` ...): on
        PostgreSQL, whose asynchronous connection lets the loop serve other sockets while a
        statement runs, unless the site turns it off (``TABLES_MOVES_ON_LOOP``)."""
        return rows.has_loop_connections() and bool(getattr(settings, "TABLES_MOVES_ON_LOOP", True))

    # ------------------------------------------------------------------ 1. read

    def read(self, table_id: int, version: int | None = None, *, lock: bool = False) -> Rows:
        """The table, its seats (by number, with their players) and its hand in play, for a
        change made from ``version`` (None: whatever is current).

        ``lock``: read inside the caller's transaction, locked until it ends (a change that
        writes more than a move's records). Otherwise from the rows kept of ``version`` when
        there are any (copies: the move may change them), else in one unlocked read whose
        version the write's condition checks.
        """
        if not lock and version is not None:
            kept = self._rows.for_move(table_id, version)
            if kept is not None:
                return kept
        return rows.move_rows(table_id, lock=lock)

    async def read_on_loop(self, table_id: int, version: int) -> Rows | None:
        """``read`` for a move on the caller's event loop, on the loop's own connection;
        None when the move is not to be made there (``on_loop`` says no, the connection
        failed, or filing its state would need a query: the recent hands and chat of that
        version are not known here)."""
        if not self.on_loop():
            return None
        found: Rows | None = self._rows.for_move(table_id, version)
        if found is None:
            try:
                found = await rows.move_rows_on_loop(table_id)
            except rows.LoopUnavailable:
                return None
        table = found[0]
        if table is None or not self._snapshots.tail_known(table):
            return None
        return found

    # ------------------------------------------------------------------ 2. the engine

    def engine(self, hand: Hand) -> EngineHand:
        """The engine of the hand's stored records, shared: read it, never act on it."""
        return self._engines.of(hand)

    def engine_to_move(self, hand: Hand) -> EngineHand:
        """A private copy of the hand's engine, for a change to act on."""
        return self._engines.to_move(hand)

    # ------------------------------------------------------------------ 3. write

    def write(
        self,
        table: Table,
        moved: Moved | None = None,
        *,
        table_columns: tuple[str, ...] | None = None,
    ) -> None:
        """Write the change, bumping ``table.version`` (already one higher than read) if the
        stored row is still at the version and nonce read; ``Stale`` otherwise.

        ``moved``: the hand's new records and its state, in the same statement.
        ``table_columns``: the table's fields to write besides the version (None: all;
        ``()`` for a move that changed none). Outside a transaction (a move read unlocked)
        the write is atomic on its own: one statement on PostgreSQL, a short transaction
        of this process's one SQLite writer at a time on SQLite.
        """
        with rows.written_alone():
            self._write(table, moved, table_columns)

    def _write(
        self, table: Table, moved: Moved | None, table_columns: tuple[str, ...] | None
    ) -> None:
        if moved is None:
            rows.table_bump(table)
        else:
            rows.move_write(table, moved.hand, list(moved.added), table_columns=table_columns)

    async def write_on_loop(self, table: Table, moved: Moved) -> Built:
        """``write`` of a move made on the event loop (``read_on_loop``): it only added
        records, or ended a cash hand simply (``Moved.next_hand_in``), in one conditional
        statement on the loop's own connection. Its new state is built meanwhile, and
        returned for ``publish_on_loop``.

        ``rows.LoopUnavailable`` (the connection failed: written or not, unknown) drops the
        kept rows, so a retry reads the table afresh."""
        if moved.next_hand_in is None:
            write = rows.move_write_on_loop(table, moved.hand, list(moved.added))
        else:
            write = rows.hand_end_write_on_loop(
                table, moved.hand, list(moved.added), list(moved.ended_seats)
            )
        # Awaiting the write sends its statement at once (its first step, with no hop
        # through a task that other sockets' work queued before would delay); the new state
        # is built on the loop's next turn, while PostgreSQL writes, or once written if that
        # turn comes later.
        built: concurrent.futures.Future[Built] = concurrent.futures.Future()
        seats = list(moved.seats.values())

        def build() -> None:
            if not built.set_running_or_notify_cancel():
                return  # cancelled: nothing was written
            try:
                built.set_result(self._snapshots.built(table, moved.hand, moved.engine, seats))
            except Exception as exc:  # noqa: BLE001 - raised again by result() below
                built.set_exception(exc)

        turn = asyncio.get_running_loop().call_soon(build)
        try:
            await write
        except rows.LoopUnavailable:
            self._rows.drop(table.pk)
            built.cancel()
            raise
        except BaseException:
            built.cancel()
            raise
        finally:
            turn.cancel()
        if not built.done():
            build()
        return built.result()

    # ------------------------------------------------------------------ 4. publish

    def publish(
        self,
        table: Table,
        moved: Moved | None = None,
        *,
        only_records: bool = False,
        gathered: bool = False,
    ) -> None:
        """Once the change's transaction commits (at once outside one): file its new state
        and keep its rows and engine, then broadcast it to the table's sockets in every
        process.

        ``only_records``: the move wrote nothing but its records and turn (``write`` with
        ``table_columns=()``), so other processes follow it from the news alone.
        ``gathered``: news that comes in bursts (sockets opening) goes out with the others
        of its burst (``broadcast.table_changed_soon``)."""
        version = table.version
        transaction.on_commit(
            lambda: self._publish_now(table, version, moved, only_records, gathered)
        )

    def _publish_now(
        self,
        table: Table,
        version: int,
        moved: Moved | None,
        only_records: bool,
        gathered: bool,
    ) -> None:
        wire = self._filed(table, version, moved, only_records)
        if gathered:
            broadcast.table_changed_soon(table.pk, version, wire)
        else:
            broadcast.table_changed(table.pk, version, wire)

    async def publish_on_loop(self, table: Table, moved: Moved, built: Built) -> None:
        """``publish`` of a move ``write_on_loop`` wrote (committed as it was written): the
        state it built is filed, and the news sent from the loop before this returns."""
        wire = self._filed(table, table.version, moved, moved.next_hand_in is None, built)
        await broadcast.table_changed_on_loop(table.pk, table.version, wire)

    def _filed(
        self,
        table: Table,
        version: int,
        moved: Moved | None,
        only_records: bool,
        built: Built | None = None,
    ) -> dict[str, Any] | None:
        """File what a committed change leaves for the sockets and the next move; the parts
        its broadcast carries where sockets may be in other processes."""
        if moved is None:
            # Built by reading the table back, once, before the sockets ask for it.
            self._snapshots.warm(table.pk)
            self._rows.drop(table.pk)
        else:
            # From the rows the move just wrote (the objects are not touched again): its
            # engine, its state, and its rows for the next move here.
            seats = list(moved.seats.values())
            self._engines.file(moved.hand, moved.engine)
            if built is None:
                self._snapshots.after_move(table, moved.hand, moved.engine, seats)
            else:
                self._snapshots.file(built)
            self._rows.file(table, seats, moved.hand)
        # Where sockets may be in other processes, the snapshot travels with the news, so
        # they need no query; a move that only added records travels too, so the next move
        # there needs none either.
        if not broadcast.carries_state():
            return None
        wire = self._snapshots.wire_if_cached(table.pk, table.created_at, version)
        if wire is not None and moved is not None and only_records:
            wire = {**wire, "move": move_news(table, moved.hand, list(moved.added))}
        return wire

    # ------------------------------------------------------------------ the sockets' reads

    def heard(self, table_id: int, created_at: Any, version: int, wire: dict[str, Any]) -> None:
        """A broadcast from another process carried ``wire``: keep its recent hands and chat,
        and follow the move it carried in the kept rows, for this process's next move."""
        fresh = self._snapshots.heard(table_id, created_at, version, wire)
        news = wire.get("move")
        if fresh and news is not None:
            self._rows.follow(news)

    def snapshot_text(self, table: Table | int, user: Any) -> tuple[int, str]:
        """The table's snapshot JSON text as ``user`` (None or anonymous: a spectator) may
        see it, and its version: built once per version, whoever asks."""
        return self._snapshots.text(table if isinstance(table, int) else table.pk, user)

    def snapshot(self, table: Table | int, user: Any) -> dict[str, Any]:
        """``snapshot_text``, JSON-ready (docs/protocol.md, "snapshot")."""
        return json.loads(self.snapshot_text(table, user)[1])  # type: ignore[no-any-return]

    def snapshot_text_if_cached(
        self, table_id: int, created_at: Any, version: int, user: Any
    ) -> str | None:
        """The snapshot text of that version if this process has it, without a query (so a
        socket may ask on its event loop)."""
        return self._snapshots.text_if_cached(table_id, created_at, version, user)

    def wire_if_cached(self, table_id: int, created_at: Any, version: int) -> dict[str, Any] | None:
        """The parts every viewer's snapshot text of that version is made of, if built here:
        what a broadcast of it carries (``tables.runtime.snapshots.snapshot_text_from_wire``)."""
        return self._snapshots.wire_if_cached(table_id, created_at, version)


# The one of this process.
STATE = TableState()


def table_snapshot(table: Table | int, user: Any) -> dict[str, Any]:
    """``STATE.snapshot``: the table as ``user`` may see it (docs/protocol.md)."""
    return STATE.snapshot(table, user)


def engine_of(hand: Hand) -> EngineHand:
    """``STATE.engine``: the engine of a stored hand, shared (read it, never act on it)."""
    return STATE.engine(hand)
