"""What every table service shares: the transaction, the lock, the error, the broadcast.

Every change runs in one transaction with the table row locked (``select_for_update``), so
two daphne processes, a Celery worker and the periodic sweep can all touch one table and
moves are applied one at a time in a single order. The database holds the truth: a hand is
its list of engine records, the turn clock is stored on the hand row. After commit the new
state is filed in the live read model and a thin ``table.changed`` message goes to the
table's group (``changed``).
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, ParamSpec, TypeVar

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from core.permissions import is_director
from tables import broadcast, kept_rows, live, rows
from tables.engine.deal_in import rebuy_amount
from tables.engine.errors import RuleError
from tables.engine.state import Hand as EngineHand
from tables.engines import engine_file
from tables.i18n import render, rule_message
from tables.models import Hand, LedgerKind, Seat, SeatState, Table, TableLedger
from tables.scheduling import schedule_bot, schedule_bot_now, schedule_tick, schedule_tick_now
from tables.signals import hand_ended
from tables.timing import next_hand_delay_seconds

TIMED_OUT = "timed out"
NO_CHIPS = "no chips"

P = ParamSpec("P")
R = TypeVar("R")

# SQLite has one writer at a time. Its busy handler waits by sleeping (1, 2, 5 ... 100 ms),
# which under load turned a 2 ms move into a 50 ms one; threads of this process queue here
# instead and are woken the moment the writer before them commits. Other processes (a
# restarted server, a management command) still meet the busy timeout.
#
# Only a thread outside any transaction queues here. One already inside one (a tournament's
# workflow holding or releasing its tables, the clock setting their stakes) holds SQLite's
# write lock since its BEGIN IMMEDIATE; queueing then would take the two locks in the other
# order from a move, which holds this one while its BEGIN waits for SQLite's: each waited for
# the other until the move's busy timeout (30 s) failed it with "database is locked", and
# every other writer waiting meanwhile (logins, sessions, ticks) failed with it.
_SQLITE_WRITER = threading.RLock()


def table_write(func: Callable[P, R]) -> Callable[P, R]:
    """``transaction.atomic`` for the table services, one writer at a time on SQLite."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        if connection.vendor == "sqlite" and transaction.get_autocommit():
            with _SQLITE_WRITER, transaction.atomic():
                return func(*args, **kwargs)
        with transaction.atomic():
            return func(*args, **kwargs)

    return wrapper


class TableError(Exception):
    """A request the table refuses; ``code`` is the protocol's error code.

    The message is lazy (``gettext_lazy``) with its named parameters apart, so it is worded
    in the language of whoever reads it, not of whoever caused it: ``message`` renders it in
    the active language (the socket's, ``tables.consumers``).
    """

    def __init__(
        self, code: str, message: str | Promise, params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(code)
        self.code = code
        self.text = message
        self.params = dict(params or {})

    @classmethod
    def from_rule(cls, code: str, exc: RuleError) -> TableError:
        """The engine's refusal ``exc``, worded by its rule code (``tables.i18n``)."""
        message, params = rule_message(exc)
        return cls(code, message, params)

    @property
    def message(self) -> str:
        return render(self.text, self.params)

    def __str__(self) -> str:
        return self.message


def rule_words(exc: RuleError) -> str:
    """The engine's refusal ``exc`` in the active language, worded by its rule code
    (``tables.i18n``): for a setting the engine checks outside any table (a time bank)."""
    message, params = rule_message(exc)
    return render(message, params)


def lock(table_id: int) -> Table:
    # The table row, its seats and its hand in play are read and written with the lean SQL
    # of tables.rows: every move goes through them (see that module for why).
    table = rows.table_locked(table_id)
    if table is None:
        raise TableError("not_found", _("there is no table %(table)s"), {"table": table_id})
    return table


def cash_only(table: Table) -> None:
    """Buy-ins, cash-outs and the host's controls are a cash table's: a tournament runs its
    own tables (``tables.services.tournament``)."""
    if table.is_tournament:
        raise TableError("tournament", _("this table belongs to a tournament"))


def current_hand(table: Table) -> Hand | None:
    return rows.current_hand(table.pk)


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
    # A cash hand's end written with the move in one statement (``changed_on_loop``): the
    # dealt seats, as they are after the hand, and when the next hand is dealt (a tick).
    ended_seats: tuple[Seat, ...] = ()
    next_hand_in: float | None = None


def changed(
    table: Table,
    moved: Moved | None = None,
    *,
    table_columns: tuple[str, ...] | None = None,
    gathered: bool = False,
) -> None:
    """Bump the version and broadcast it once the transaction has committed (at once for a
    move made outside a transaction, ``table_columns=()``: see ``play.table_act``).

    ``gathered``: news that comes in bursts (sockets opening) goes out with the others of
    its burst (``broadcast.table_changed_soon``)."""
    table.version += 1
    try:
        if moved is None:
            rows.table_bump(table)
        else:
            # The hand's new records and the version in one statement (one round trip).
            rows.move_write(table, moved.hand, list(moved.added), table_columns=table_columns)
    except rows.Stale:
        # Only reachable if something wrote the table without its lock: refuse the change.
        raise _changed_meanwhile() from None
    version = table.version
    table_id = table.pk
    # A move written with no table column (play.table_act's unlocked path) only added its
    # records: other processes can follow it from the news alone (kept_rows.move_news).
    only_records = table_columns == ()
    transaction.on_commit(
        lambda: _after_commit(table_id, version, table, moved, only_records, gathered)
    )
    if moved is not None and moved.wake_bot:
        schedule_bot(table_id)


class _Soon:
    """``call(*args)`` on the event loop's next turn, or when its result is asked for first,
    whichever comes first; its result (or its error) is kept for ``result``."""

    def __init__(self, call: Callable[..., Any], *args: Any) -> None:
        self._call = functools.partial(call, *args)
        self._outcome: tuple[bool, Any] | None = None
        self._turn = asyncio.get_running_loop().call_soon(self._run)

    def _run(self) -> None:
        if self._outcome is None:
            try:
                self._outcome = (True, self._call())
            except Exception as exc:  # noqa: BLE001 - raised again by result()
                self._outcome = (False, exc)

    def cancel(self) -> None:
        self._turn.cancel()

    def result(self) -> Any:
        self._turn.cancel()
        self._run()
        assert self._outcome is not None
        done, value = self._outcome
        if not done:
            raise value
        return value


def _changed_meanwhile() -> TableError:
    return TableError("stale", _("the table moved on meanwhile; try again"))


async def changed_on_loop(table: Table, moved: Moved) -> None:
    """``changed`` for a move made on an event loop (``play.table_act_on_loop``): it only
    added records, or ended a cash hand simply (``Moved.next_hand_in``), so its one
    conditional statement goes out on the loop's own connection (``rows.move_write_on_loop``,
    ``rows.hand_end_write_on_loop``). While PostgreSQL writes it, the new state is built;
    once it is written, the state is filed and broadcast from the loop, as ``changed``'s
    after-commit work does on a thread (a cash hand has no ``hand_ended``).

    ``rows.LoopUnavailable`` (the connection failed: written or not, unknown) drops the kept
    rows, so the caller's retry reads the table afresh."""
    table.version += 1
    if moved.next_hand_in is None:
        write = rows.move_write_on_loop(table, moved.hand, list(moved.added))
    else:
        write = rows.hand_end_write_on_loop(
            table, moved.hand, list(moved.added), list(moved.ended_seats)
        )
    # Awaiting the write sends its statement at once (its first step, with no hop through a
    # task that other sockets' work queued before would delay); the new state is built on
    # the loop's next turn, while PostgreSQL writes, or once written if that turn is late.
    state = _Soon(
        live.table_state_built, table, moved.hand, moved.engine, list(moved.seats.values())
    )
    try:
        await write
    except rows.Stale:
        raise _changed_meanwhile() from None
    except rows.LoopUnavailable:
        kept_rows.rows_drop(table.pk)
        raise
    finally:
        state.cancel()  # not built if nothing was written; else built below if not yet
    built = state.result()
    if moved.wake_bot:
        schedule_bot_now(table.pk)
    if moved.next_hand_in is not None:
        schedule_tick_now(table.pk, moved.next_hand_in)
    wire = _filed(table.pk, table.version, table, moved, moved.next_hand_in is None, built)
    # Sent from here, not handed to a task: the news leaves as soon as it is filed.
    await broadcast.table_changed_on_loop(table.pk, table.version, wire)


def _after_commit(
    table_id: int,
    version: int,
    table: Table,
    moved: Moved | None,
    only_records: bool = False,
    gathered: bool = False,
) -> None:
    wire = _filed(table_id, version, table, moved, only_records)
    if gathered:
        broadcast.table_changed_soon(table_id, version, wire)
    else:
        broadcast.table_changed(table_id, version, wire)
    if moved is not None and moved.hand_ended is not None:
        hand_ended.send(sender=Table, table_id=table_id, **moved.hand_ended)


def _filed(
    table_id: int,
    version: int,
    table: Table,
    moved: Moved | None,
    only_records: bool = False,
    built: live.Built | None = None,
) -> dict[str, Any] | None:
    """File what a committed change leaves for the sockets and the next move; the parts
    its broadcast carries (``live._wire``), where sockets may be in other processes."""
    # Build the shared part of the new snapshot here, once, before the sockets ask for it:
    # after a move from the rows this transaction just wrote (the objects are not touched
    # again), otherwise by reading the table back.
    if moved is None:
        live.table_state_warm(table_id)
        kept_rows.rows_drop(table_id)
    else:
        # The move's engine is filed: the sockets and the next move read it from now on.
        engine_file(moved.hand, moved.engine)
        if built is None:
            live.table_state_after_move(table, moved.hand, moved.engine, list(moved.seats.values()))
        else:
            live.table_state_file(built)
        # And its rows, for the next move here (kept_rows).
        kept_rows.rows_file(table, list(moved.seats.values()), moved.hand)
    # Where sockets may be in other processes, the snapshot travels with the news, so they
    # need no query; a move that only added records travels too, so the next move there
    # needs none either.
    wire = (
        live.table_wire_if_cached(table_id, table.created_at, version)
        if broadcast.carries_state()
        else None
    )
    if wire is not None and moved is not None and only_records:
        wire = {**wire, "move": kept_rows.move_news(table, moved.hand, list(moved.added))}
    return wire


def seat_of(table: Table, user: AbstractBaseUser) -> Seat:
    seat = table.seats.select_for_update().filter(user=user).first()
    if seat is None:
        raise TableError("not_seated", _("you have no seat at this table"))
    return seat


def require_user(user: Any) -> None:
    if user is None or not user.is_authenticated:
        raise TableError("auth_required", _("log in to sit or act at a table"))


def schedule_next_hand(table: Table, now: datetime) -> None:
    schedule_tick(table.pk, next_hand_time(table, now))


def next_hand_time(table: Table, now: datetime) -> float:
    """Set when the table deals its next hand; the delay, in seconds, for its tick."""
    delay = next_hand_delay_seconds()
    table.next_hand_at = now + timedelta(seconds=delay)
    return delay


def maybe_schedule_hand(table: Table, now: datetime) -> None:
    if table.next_hand_at is not None or current_hand(table) is not None:
        return
    if table.paused or table.closing or not table.is_open:
        return
    ready = table.seats.filter(
        user__isnull=False, stack__gt=0, state__in=[SeatState.PLAYING, SeatState.WAITING]
    ).count()
    if ready >= 2:
        schedule_next_hand(table, now)


def cash_out(table: Table, seat: Seat) -> None:
    if seat.user_id is not None and seat.stack > 0:
        TableLedger.objects.create(
            table=table,
            user_id=seat.user_id,
            seat=seat.number,
            kind=LedgerKind.CASH_OUT,
            amount=seat.stack,
        )
    seat_clear(seat)


def seat_clear(seat: Seat) -> None:
    """Empty ``seat`` and write it: no player, no chips, every flag back to its default."""
    seat.user = None
    seat.bot_style = ""
    seat.stack = 0
    seat.state = SeatState.EMPTY
    seat.sat_out_reason = ""
    seat.is_new = False
    seat.owes_small = seat.owes_big = seat.leaving = False
    seat.muck_losing = True
    seat.adding = 0
    seat.removing = False
    seat.straddle_next = seat.votes_bomb_pot = False
    seat.sockets = {}
    seat.time_bank_ms = seat.time_bank_level = 0
    seat.pre_action_clear()
    rows.save(seat)


def may_host(table: Table, user: Any) -> bool:
    """The table's host is its creator; directors may host every table."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return bool(table.created_by_id == user.pk or is_director(user))


def require_host(table: Table, user: Any) -> None:
    require_user(user)
    if not may_host(table, user):
        raise TableError("forbidden", _("only the table's host or a director may do that"))


def apply_adding(table: Table, seat: Seat) -> None:
    """Put the chips a player bought during a hand on their stack, in the ledger."""
    if seat.adding <= 0 or seat.user_id is None:
        return
    if table.is_tournament:
        # Tournament chips (a rebuy, an add-on) have no ledger and no table maximum.
        seat.stack += seat.adding
        seat.adding = 0
        return
    # Winnings during the hand may have brought the stack near the maximum: the engine
    # says how much of the rebuy still fits.
    amount = rebuy_amount(seat.adding, seat.stack, table.max_buy_in)
    seat.adding = 0
    if amount == 0:
        return
    TableLedger.objects.create(
        table=table, user_id=seat.user_id, seat=seat.number, kind=LedgerKind.REBUY, amount=amount
    )
    seat.stack += amount
    if seat.state == SeatState.SITTING_OUT and seat.sat_out_reason == NO_CHIPS:
        owes = seat.owes_small or seat.owes_big
        seat.state = SeatState.WAITING if owes else SeatState.PLAYING
        seat.sat_out_reason = ""
        if owes:
            # Back with missed blinds: nothing is posted unless the player asks (the page
            # offers "Post and play", a ``sit_in`` frame); until then the big blind brings
            # them in, whatever they chose when they first sat down.
            seat.wait_for_big_blind = True


def table_close_now(table: Table, seats: list[Seat], now: datetime) -> None:
    """Cash out every seat and close the table (no hand may be in play)."""
    for seat in seats:
        if seat.user_id is not None:
            apply_adding(table, seat)
            cash_out(table, seat)
    table.closed_at = now
    table.closing = False
    table.next_hand_at = None


def display_name(seat: Seat) -> str:
    """The name the felt shows: a house bot's given name ("Rivera"), else the username."""
    if seat.user is None:
        return f"seat {seat.number}"
    if seat.is_bot and seat.user.first_name:
        return seat.user.first_name
    return seat.user.get_username()
