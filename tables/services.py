"""Workflows of the live tables: open a table, sit, act, time out, deal the next hand.

Every change runs in one transaction with the table row locked (``select_for_update``), so
two daphne processes, a Celery worker and the periodic sweep can all touch one table and
moves are applied one at a time in a single order. The database holds the truth: a hand is
its list of engine records, the turn clock is stored on the hand row. After commit a thin
``table.changed`` message goes to the table's group and every socket builds its own view.

No rule of poker lives here: who acts, what is legal, who wins all come from the engine.
The table only decides who is dealt in (seating, sitting out, missed blinds) and when.
"""

from __future__ import annotations

import functools
import logging
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, User
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from series.permissions import is_director
from tables import broadcast, rows
from tables.engine.config import Config, Game, Structure
from tables.engine.errors import RuleError
from tables.engine.records import (
    BlindPosted,
    PotAwarded,
    SeatSpec,
    record_from_json,
    record_to_json,
)
from tables.engine.state import Action, Street
from tables.engine.state import Hand as EngineHand
from tables.fairness import deal_new
from tables.models import (
    ChatMessage,
    Hand,
    HandPlayer,
    LedgerKind,
    Seat,
    SeatState,
    ServerProcess,
    Table,
    TableLedger,
)

logger = logging.getLogger(__name__)

# RULES.md "Time and disconnection": 10 seconds, then a visible 20-second countdown.
TURN_SECONDS = 30
COUNTDOWN_AFTER_SECONDS = 10
RECONNECT_BONUS_SECONDS = 20
# Each process serving sockets says it is alive this often; one silent for longer than
# SERVER_GONE_SECONDS was killed without closing its sockets, which are then forgotten.
SERVER_HEARTBEAT_SECONDS = 10
SERVER_GONE_SECONDS = 45
# This process, as the seats' socket counts name it.
SERVER_NAME = uuid.uuid4().hex
NEXT_HAND_DELAY_SECONDS = 3
# An all-in run-out is dealt street by street, this long apart, with the equity shown.
RUNOUT_STEP_SECONDS = 1.5
CHAT_MAX_LENGTH = 300

TIMED_OUT = "timed out"
NO_CHIPS = "no chips"


P = ParamSpec("P")
R = TypeVar("R")

# SQLite has one writer at a time. Its busy handler waits by sleeping (1, 2, 5 ... 100 ms),
# which under load turned a 2 ms move into a 50 ms one; threads of this process queue here
# instead and are woken the moment the writer before them commits. Other processes (a
# restarted server, a management command) still meet the busy timeout.
_SQLITE_WRITER = threading.RLock()


def table_write(func: Callable[P, R]) -> Callable[P, R]:
    """``transaction.atomic`` for the table services, one writer at a time on SQLite.

    On PostgreSQL the lean row writes are held back (``rows.writes_held``), so a move's
    UPDATEs and its COMMIT go in one round trip.
    """

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        if connection.vendor == "sqlite":
            with _SQLITE_WRITER, transaction.atomic():
                return func(*args, **kwargs)
        with transaction.atomic(), rows.writes_held():
            return func(*args, **kwargs)

    return wrapper


class TableError(Exception):
    """A request the table refuses; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# ----------------------------------------------------------------------------- helpers


def table_config(table: Table) -> Config:
    return Config(
        Game(table.game),
        Structure(table.structure),
        big_blind=table.big_blind,
        small_blind=table.small_blind,
        ante=table.ante,
        big_bet=table.big_bet,
        raise_cap=table.raise_cap if table.structure == Structure.LIMIT else None,
        all_in_on_timeout=table.all_in_on_disconnect,
    )


# Engines of hands in play, by (hand id, commitment), filed after each commit. Records only
# grow, so an engine with fewer records than the row is that hand earlier on (another process
# moved it since) and catches up by replaying only what it missed; the commitment tells apart
# two hands that got the same id (after a rollback in tests). A move pops its hand's engine
# (only the holder of the table lock moves it) instead of replaying every record.
_ENGINES: OrderedDict[tuple[int, str], EngineHand] = OrderedDict()
_ENGINES_SIZE = 1024
_ENGINES_LOCK = threading.Lock()


def hand_engine(hand: Hand) -> EngineHand:
    """The engine's hand for the stored records: this process's own copy after its last
    move, brought up to date, or rebuilt from the records (the engine checks every one)."""
    with _ENGINES_LOCK:
        engine = _ENGINES.pop((hand.pk, hand.commitment), None)
    stored = hand.records
    if engine is not None:
        mine = engine.records  # a copy: taken once
        known = len(mine)
        if 0 < known <= len(stored) and record_to_json(mine[-1]) == stored[known - 1]:
            if known == len(stored):
                return engine
            try:
                engine.catch_up([record_from_json(r) for r in stored[known:]])
            except RuleError:
                pass  # rebuilt below, where a broken record raises for good
            else:
                return engine
    return EngineHand.from_records([record_from_json(r) for r in stored])


def _file_engine(hand: Hand, engine: EngineHand) -> None:
    if hand.ended_at is not None:
        return
    with _ENGINES_LOCK:
        _ENGINES[(hand.pk, hand.commitment)] = engine
        _ENGINES.move_to_end((hand.pk, hand.commitment))
        while len(_ENGINES) > _ENGINES_SIZE:
            _ENGINES.popitem(last=False)


def _lock(table_id: int) -> Table:
    # The table row, its seats and its hand in play are read and written with the lean SQL
    # of tables.rows: every move goes through them (see that module for why).
    table = rows.table_locked(table_id)
    if table is None:
        raise TableError("not_found", f"there is no table {table_id}")
    return table


def _current_hand(table: Table) -> Hand | None:
    return rows.current_hand(table.pk)


@dataclass(frozen=True)
class _Moved:
    """What a move wrote, all of it current: the new state is built from it without a query."""

    hand: Hand
    engine: EngineHand
    seats: dict[int, Seat]


def _changed(table: Table, moved: _Moved | None = None) -> None:
    """Bump the version and broadcast it once the transaction has committed."""
    table.version += 1
    rows.save(table)
    version = table.version
    table_id = table.pk
    transaction.on_commit(lambda: _after_commit(table_id, version, table, moved))


def _after_commit(table_id: int, version: int, table: Table, moved: _Moved | None) -> None:
    from tables.selectors import table_state_after_move, table_state_warm, table_wire_if_cached

    # Build the shared part of the new snapshot here, once, before the sockets ask for it:
    # after a move from the rows this transaction just wrote (the objects are not touched
    # again), otherwise by reading the table back.
    if moved is None:
        table_state_warm(table_id)
    else:
        # The sockets read moved.engine from now on; the next move starts from a copy.
        _file_engine(moved.hand, moved.engine.copy())
        table_state_after_move(table, moved.hand, moved.engine, list(moved.seats.values()))
    # Where sockets may be in other processes, the snapshot travels with the news, so they
    # need no query.
    wire = (
        table_wire_if_cached(table_id, table.created_at, version)
        if broadcast.carries_state()
        else None
    )
    broadcast.table_changed(table_id, version, wire)


def _seat_of(table: Table, user: AbstractBaseUser) -> Seat:
    seat = table.seats.select_for_update().filter(user=user).first()
    if seat is None:
        raise TableError("not_seated", "you have no seat at this table")
    return seat


def _require_user(user: Any) -> None:
    if user is None or not user.is_authenticated:
        raise TableError("auth_required", "log in to sit or act at a table")


def next_hand_delay_seconds() -> float:
    return (
        int(getattr(settings, "TABLES_NEXT_HAND_DELAY_MS", NEXT_HAND_DELAY_SECONDS * 1000)) / 1000
    )


def _schedule_next_hand(table: Table, now: datetime) -> None:
    delay = next_hand_delay_seconds()
    table.next_hand_at = now + timedelta(seconds=delay)
    from tables import tasks

    tasks.schedule_tick(table.pk, delay)


# ----------------------------------------------------------------------------- tables


def players_may_open_tables() -> bool:
    return bool(getattr(settings, "TABLES_PLAYERS_MAY_OPEN", False))


def may_open_table(user: Any) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return is_director(user) or players_may_open_tables()


def default_buy_ins(structure: str, big_blind: int, big_bet: int | None) -> tuple[int, int]:
    """The card room's house minimum: five times the maximum bet; maximum 100 big blinds.

    In pot-limit and no-limit there is no maximum bet; the limit game's big bet (twice the
    big blind) stands in for it, which gives the usual 10-big-blind minimum.
    """
    top_bet = big_bet or 2 * big_blind
    minimum = 5 * top_bet
    return minimum, max(minimum, 100 * big_blind)


@table_write
def table_create(
    *,
    created_by: Any,
    name: str,
    game: str = Game.OMAHA_HI_LO.value,
    structure: str = Structure.POT_LIMIT.value,
    big_blind: int = 2,
    small_blind: int | None = None,
    big_bet: int | None = None,
    ante: int = 0,
    raise_cap: int | None = 4,
    seat_count: int = 6,
    min_buy_in: int | None = None,
    max_buy_in: int | None = None,
    all_in_on_disconnect: bool = False,
    check_permission: bool = True,
) -> Table:
    """Open a cash table with its empty seats. Tournaments call this with their own stakes."""
    if check_permission and not may_open_table(created_by):
        raise TableError("forbidden", "only directors may open tables here")
    if not 2 <= seat_count <= 10:
        raise TableError("bad_table", "a table has 2 to 10 seats")
    default_min, default_max = default_buy_ins(structure, big_blind, big_bet)
    min_buy_in = default_min if min_buy_in is None else min_buy_in
    max_buy_in = max(default_max, min_buy_in) if max_buy_in is None else max_buy_in
    if min_buy_in <= 0 or max_buy_in < min_buy_in:
        raise TableError("bad_table", "the maximum buy-in must be at least the minimum")
    table = Table(
        name=name,
        game=game,
        structure=structure,
        big_blind=big_blind,
        small_blind=small_blind,
        big_bet=big_bet,
        ante=ante,
        raise_cap=raise_cap,
        seat_count=seat_count,
        min_buy_in=min_buy_in,
        max_buy_in=max_buy_in,
        all_in_on_disconnect=all_in_on_disconnect,
        created_by=created_by if getattr(created_by, "is_authenticated", False) else None,
    )
    try:
        table_config(table)  # the engine validates the stakes
    except RuleError as exc:
        raise TableError("bad_table", str(exc)) from None
    table.save()
    Seat.objects.bulk_create(Seat(table=table, number=n) for n in range(1, seat_count + 1))
    return table


# ----------------------------------------------------------------------------- seating


@table_write
def seat_take(
    table_id: int,
    user: Any,
    seat_number: int,
    buy_in: int,
    wait_for_big_blind: bool = True,
    *,
    bot_style: str = "",
    now: datetime | None = None,
) -> Seat:
    """Sit ``user`` at an empty seat with a buy-in, recorded in the table's ledger."""
    _require_user(user)
    now = now or timezone.now()
    table = _lock(table_id)
    if not table.is_open:
        raise TableError("closed", "this table is closed")
    if table.seats.filter(user=user).exists():
        raise TableError("already_seated", "you already have a seat at this table")
    seat = table.seats.select_for_update().filter(number=seat_number).first()
    if seat is None:
        raise TableError("seat_taken", f"there is no seat {seat_number} at this table")
    if not seat.is_empty:
        raise TableError("seat_taken", f"seat {seat_number} is taken")
    if not table.min_buy_in <= buy_in <= table.max_buy_in:
        raise TableError(
            "bad_buy_in",
            f"the buy-in is between {table.min_buy_in} and {table.max_buy_in}, not {buy_in}",
        )
    seat.user = user
    seat.bot_style = bot_style
    seat.stack = buy_in
    seat.state = SeatState.WAITING
    seat.sat_out_reason = ""
    seat.is_new = True
    seat.wait_for_big_blind = wait_for_big_blind
    seat.owes_small = seat.owes_big = False
    seat.leaving = False
    seat.save()
    TableLedger.objects.create(
        table=table, user=user, seat=seat_number, kind=LedgerKind.BUY_IN, amount=buy_in
    )
    _maybe_schedule_hand(table, now)
    _changed(table)
    return seat


def _maybe_schedule_hand(table: Table, now: datetime) -> None:
    if table.next_hand_at is not None or _current_hand(table) is not None:
        return
    ready = table.seats.filter(
        user__isnull=False, stack__gt=0, state__in=[SeatState.PLAYING, SeatState.WAITING]
    ).count()
    if ready >= 2:
        _schedule_next_hand(table, now)


@table_write
def seat_sit_out(table_id: int, user: Any) -> Seat:
    """Sit out from the next hand on (the current hand, if dealt in, plays on)."""
    _require_user(user)
    table = _lock(table_id)
    seat = _seat_of(table, user)
    seat.state = SeatState.SITTING_OUT
    seat.sat_out_reason = "sat out"
    seat.save()
    _changed(table)
    return seat


@table_write
def seat_sit_in(
    table_id: int, user: Any, wait_for_big_blind: bool = True, *, now: datetime | None = None
) -> Seat:
    _require_user(user)
    now = now or timezone.now()
    table = _lock(table_id)
    seat = _seat_of(table, user)
    if seat.stack <= 0:
        raise TableError("bad_buy_in", "you have no chips: leave and buy in again")
    if seat.state == SeatState.SITTING_OUT:
        owes = seat.owes_small or seat.owes_big or seat.is_new
        seat.state = SeatState.WAITING if owes else SeatState.PLAYING
        seat.sat_out_reason = ""
        seat.wait_for_big_blind = wait_for_big_blind
        seat.save()
        _maybe_schedule_hand(table, now)
        _changed(table)
    return seat


@table_write
def seat_options(table_id: int, user: Any, *, muck_losing: bool) -> Seat:
    """A seated player's standing choices: show or muck a hand that cannot win."""
    _require_user(user)
    table = _lock(table_id)
    seat = _seat_of(table, user)
    if seat.muck_losing != muck_losing:
        seat.muck_losing = muck_losing
        seat.save(update_fields=["muck_losing"])
        _changed(table)
    return seat


def _in_current_hand(table: Table, seat: Seat) -> tuple[Hand | None, EngineHand | None]:
    hand = _current_hand(table)
    if hand is None:
        return None, None
    engine = hand_engine(hand)
    if seat.number not in engine.seats:
        return hand, None
    return hand, engine


@table_write
def seat_leave(table_id: int, user: Any, *, now: datetime | None = None) -> Seat:
    """Leave the table: the stack is cashed out now, or when the hand it is in ends."""
    _require_user(user)
    now = now or timezone.now()
    table = _lock(table_id)
    seat = _seat_of(table, user)
    hand, engine = _in_current_hand(table, seat)
    if engine is not None:
        seat.leaving = True
        seat.state = SeatState.SITTING_OUT
        seat.sat_out_reason = "leaving"
        seat.save()
        if engine.to_act == seat.number:
            assert hand is not None
            new = engine.act(seat.number, Action.FOLD)
            _changed(table, _after_moves(table, hand, engine, new, now))
            return seat
    else:
        _cash_out(table, seat)
    _changed(table)
    return seat


def _cash_out(table: Table, seat: Seat) -> None:
    if seat.user_id is not None and seat.stack > 0:
        TableLedger.objects.create(
            table=table,
            user_id=seat.user_id,
            seat=seat.number,
            kind=LedgerKind.CASH_OUT,
            amount=seat.stack,
        )
    seat.user = None
    seat.bot_style = ""
    seat.stack = 0
    seat.state = SeatState.EMPTY
    seat.sat_out_reason = ""
    seat.is_new = False
    seat.owes_small = seat.owes_big = seat.leaving = False
    seat.muck_losing = True
    seat.sockets = {}
    rows.save(seat)


@table_write
def seat_connection(
    table_id: int,
    user: Any,
    delta: int,
    *,
    server: str | None = None,
    now: datetime | None = None,
) -> None:
    """Count a player's sockets on this process (or ``server``). Reconnecting on one's own
    turn adds 20 seconds, once."""
    if user is None or not user.is_authenticated:
        return
    now = now or timezone.now()
    server = server or SERVER_NAME
    table = _lock(table_id)
    seat = table.seats.select_for_update().filter(user=user).first()
    if seat is None:
        return
    was_connected = bool(seat.sockets)
    count = max(0, seat.sockets.get(server, 0) + delta)
    sockets = {name: n for name, n in seat.sockets.items() if name != server}
    if count:
        sockets[server] = count
    seat.sockets = sockets
    seat.save(update_fields=["sockets"])
    if was_connected == bool(seat.sockets):
        return
    if delta > 0:
        hand = _current_hand(table)
        if (
            hand is not None
            and hand.to_act == seat.number
            and hand.deadline is not None
            and not hand.turn_extended
        ):
            # RULES.md: "A player who reconnects while their turn is still running gets 20
            # more seconds", on top of the time they had left.
            hand.deadline = max(hand.deadline, now) + timedelta(seconds=RECONNECT_BONUS_SECONDS)
            hand.turn_extended = True
            hand.save(update_fields=["deadline", "turn_extended"])
    _changed(table)


def server_heartbeat(server: str | None = None, now: datetime | None = None) -> None:
    """Say that this process (or ``server``) is alive and serving sockets."""
    ServerProcess.objects.update_or_create(
        name=server or SERVER_NAME, defaults={"seen_at": now or timezone.now()}
    )


def servers_forget_gone(now: datetime | None = None, *, all_but: str | None = None) -> int:
    """Forget the sockets counted by processes that stopped saying they are alive.

    A process killed outright (SIGKILL, a crash, a lost machine) never closes its sockets,
    so its players would look connected for ever, and the disconnection rules would never
    apply to them. ``all_but``: forget every other process at once (the embedded server
    starting: it is the only one). Returns how many seats changed.
    """
    now = now or timezone.now()
    gone = ServerProcess.objects.all()
    if all_but is not None:
        gone = gone.exclude(name=all_but)
    else:
        gone = gone.filter(seen_at__lt=now - timedelta(seconds=SERVER_GONE_SECONDS))
    names = set(gone.values_list("name", flat=True))
    if all_but is not None:
        # Counts under names no heartbeat ever recorded (a process killed before its first).
        names |= {
            name
            for sockets in Seat.objects.exclude(sockets={}).values_list("sockets", flat=True)
            for name in sockets
            if name != all_but
        }
    changed = 0
    for name in sorted(names):
        tables = set(Seat.objects.filter(sockets__has_key=name).values_list("table_id", flat=True))
        for table_id in sorted(tables):
            changed += _forget_server_at(table_id, name)
        ServerProcess.objects.filter(name=name).delete()
    return changed


@table_write
def _forget_server_at(table_id: int, name: str) -> int:
    table = _lock(table_id)
    changed = 0
    for seat in table.seats.select_for_update().filter(sockets__has_key=name):
        seat.sockets = {k: n for k, n in seat.sockets.items() if k != name}
        seat.save(update_fields=["sockets"])
        changed += not seat.sockets
    if changed:
        _changed(table)
    return changed


# ----------------------------------------------------------------------------- acting


@dataclass(frozen=True)
class ActResult:
    version: int
    records: int


@table_write
def table_act(
    table_id: int,
    user: Any,
    hand_id: int,
    version: int,
    action: str,
    amount: int | None = None,
    *,
    now: datetime | None = None,
) -> ActResult:
    """Apply one move for ``user``'s seat if ``hand_id``/``version`` are still current.

    The version check makes a double click or a replayed frame a no-op ("stale"); the
    engine decides whose turn it is and what is legal.
    """
    _require_user(user)
    now = now or timezone.now()
    # The table row (locked), its seats (locked) and its hand in play, in one round trip.
    table, seat_rows, hand = rows.move_rows(table_id)
    if table is None:
        raise TableError("not_found", f"there is no table {table_id}")
    seats = {s.number: s for s in seat_rows}
    seat = next((s for s in seats.values() if s.user_id == user.pk), None)
    if seat is None:
        raise TableError("not_seated", "you have no seat at this table")
    if hand is None or hand.pk != hand_id or table.version != version:
        raise TableError(
            "stale", f"that was for version {version}; the table is at version {table.version}"
        )
    engine = hand_engine(hand)
    if engine.to_act != seat.number:
        raise TableError("not_your_turn", "it is not your turn")
    try:
        new = engine.act(seat.number, action, amount)
    except RuleError as exc:
        raise TableError("illegal_action", str(exc)) from None
    if seat.state == SeatState.SITTING_OUT and seat.sat_out_reason == TIMED_OUT:
        # Acting again shows the player is back: they play the next hand too.
        seat.state = SeatState.PLAYING
        seat.sat_out_reason = ""
        rows.save(seat, ("state", "sat_out_reason"))
    _changed(table, _after_moves(table, hand, engine, new, now, seats))
    return ActResult(table.version, len(hand.records))


def _timeout_move(table: Table, engine: EngineHand, seat: Seat) -> list[Any]:
    """RULES.md: on time-out check if checking is free, else fold (or the house all-in)."""
    if table.all_in_on_disconnect and not seat.connected:
        try:
            return engine.declare_all_in(seat.number)
        except RuleError:
            pass
    legal = engine.legal_actions()
    if legal.seat is not None and engine.street == Street.SHOWDOWN:
        return engine.act(seat.number, Action.MUCK)
    if Action.CHECK in legal.actions:
        return engine.act(seat.number, Action.CHECK)
    return engine.act(seat.number, Action.FOLD)


def _seats_locked(table: Table) -> dict[int, Seat]:
    """The table's seats by number, with their players, locked with the table."""
    return {s.number: s for s in rows.seats_locked(table.pk)}


def _after_moves(
    table: Table,
    hand: Hand,
    engine: EngineHand,
    new: list[Any],
    now: datetime,
    seats: dict[int, Seat] | None = None,
) -> _Moved:
    """Store the new records, make the moves nobody has to wait for, and set the clock.

    ``seats`` (from ``_seats_locked``, saved since any change) saves reading them again.
    """
    new = list(new)
    if seats is None:
        seats = _seats_locked(table)
    while not engine.is_complete and engine.to_act is not None:
        seat = seats[engine.to_act]
        if engine.street == Street.SHOWDOWN:
            # Cards speak: a hand that could win something is shown; one that cannot is
            # mucked or shown as its player chose beforehand (Seat.muck_losing), so a
            # showdown never waits on anybody (the engine says which hands could win).
            show = engine.showing_could_win(seat.number) or not seat.muck_losing
            new += engine.act(seat.number, Action.SHOW if show else Action.MUCK)
        elif seat.leaving or (
            seat.state == SeatState.SITTING_OUT and seat.sat_out_reason == TIMED_OUT
        ):
            new += _timeout_move(table, engine, seat)
        else:
            break
    hand.records = hand.records + [record_to_json(r) for r in new]
    if engine.is_complete and engine.runout_from is not None and hand.board_shown is None:
        # The engine has run the board out; the table deals it street by street (ticks
        # move it on), and the chips move when the river is out.
        hand.board_shown = engine.runout_from
        _next_reveal(table, hand, now)
    elif engine.is_complete:
        _hand_finish(table, hand, engine, seats, now)
    else:
        if hand.to_act != engine.to_act or any(_is_move(r) for r in new):
            hand.to_act = engine.to_act
            hand.turn_started_at = now
            hand.deadline = now + timedelta(seconds=TURN_SECONDS)
            hand.turn_extended = False
            # No timer task per turn: the sweep (every second) applies a passed deadline, so
            # a move costs no scheduling and a restart forgets nothing.
            actor = seats.get(engine.to_act) if engine.to_act is not None else None
            if actor is not None and actor.is_bot:
                from tables import tasks

                tasks.schedule_bot(table.pk)
    rows.save(hand)
    return _Moved(hand, engine, seats)


def _next_reveal(table: Table, hand: Hand, now: datetime) -> None:
    from tables import tasks

    hand.to_act = None
    hand.deadline = None
    hand.turn_started_at = None
    hand.reveal_at = now + timedelta(seconds=RUNOUT_STEP_SECONDS)
    tasks.schedule_tick(table.pk, RUNOUT_STEP_SECONDS)


def _reveal_street(table: Table, hand: Hand, now: datetime) -> _Moved:
    """Deal the next street of a run-out to the table; with the river, settle the hand."""
    engine = hand_engine(hand)
    seats = _seats_locked(table)
    shown = hand.board_shown or 0
    hand.board_shown = 3 if shown < 3 else shown + 1
    if hand.board_shown >= len(engine.board):
        hand.reveal_at = None
        _hand_finish(table, hand, engine, seats, now)
    else:
        _next_reveal(table, hand, now)
    rows.save(hand)
    return _Moved(hand, engine, seats)


def _is_move(record: Any) -> bool:
    return type(record).__name__ in {
        "Folded",
        "Checked",
        "Called",
        "Bet",
        "Raised",
        "AllInDeclared",
        "Shown",
        "Mucked",
    }


def _hand_finish(
    table: Table, hand: Hand, engine: EngineHand, seats: dict[int, Seat], now: datetime
) -> None:
    final = engine.final_stacks or {}
    hand.ended_at = now
    hand.to_act = None
    hand.deadline = None
    hand.turn_started_at = None
    names = {n: _display_name(s) for n, s in seats.items()}
    hand.summary = hand_summary(engine.records, names)[:300]
    for number, stack in final.items():
        seat = seats[number]
        seat.stack = stack
        # Held with the move's other writes (tables.rows): no round trip per player.
        rows.update(HandPlayer, {"stack_after": stack}, hand=hand.pk, seat=number)
        if seat.leaving:
            _cash_out(table, seat)
            continue
        if stack <= 0:
            seat.state = SeatState.SITTING_OUT
            seat.sat_out_reason = NO_CHIPS
        rows.save(seat)
    _schedule_next_hand(table, now)


def _display_name(seat: Seat) -> str:
    if seat.user is None:
        return f"seat {seat.number}"
    return seat.user.get_username()


def hand_summary(records: Any, names: dict[int, str]) -> str:
    """ "ann wins 24 with a flush": who won what, from the PotAwarded records."""
    won: dict[tuple[int, str], int] = {}
    texts: dict[tuple[int, str], str] = {}
    for r in records:
        if isinstance(r, PotAwarded):
            key = (r.seat, str(r.half))
            won[key] = won.get(key, 0) + r.amount
            texts[key] = r.hand
    parts = []
    for (seat, half), amount in won.items():
        text = f"{names.get(seat, f'seat {seat}')} wins {amount}"
        if half != "whole":
            text += f" ({half})"
        if texts[(seat, half)]:
            text += f" with {texts[(seat, half)]}"
        parts.append(text)
    return "; ".join(parts) or "no award"


# ----------------------------------------------------------------------------- the clock


def table_tick(table_id: int, now: datetime | None = None) -> bool:
    """Apply what is due at ``now``: a time-out, or the next hand. Idempotent.

    Everything is derived from stored timestamps, so running it twice, late, or after a
    restart does the right thing once; it returns whether it changed the table. Most ticks
    find nothing due (a move came first), and say so from a plain read, without the lock.
    """
    now = now or timezone.now()
    if not _tick_may_be_due(table_id, now):
        return False
    return _table_tick(table_id, now)


def _tick_may_be_due(table_id: int, now: datetime) -> bool:
    # Stored deadlines and next-hand times are only ever set in the future, so "not due"
    # read without the lock stays true until the next read.
    row = (
        Hand.objects.filter(table_id=table_id, ended_at__isnull=True)
        .values_list("deadline", "to_act", "reveal_at")
        .first()
    )
    if row is not None:
        deadline, to_act, reveal_at = row
        if reveal_at is not None:
            return bool(reveal_at <= now)
        return deadline is not None and deadline <= now and to_act is not None
    table = Table.objects.filter(pk=table_id).values_list("next_hand_at", "closed_at").first()
    if table is None:
        return True  # the locked read says "no such table"
    next_hand_at, closed_at = table
    return next_hand_at is not None and next_hand_at <= now and closed_at is None


@table_write
def _table_tick(table_id: int, now: datetime) -> bool:
    table = _lock(table_id)
    hand = _current_hand(table)
    if hand is not None and hand.reveal_at is not None:
        if hand.reveal_at > now:
            return False
        _changed(table, _reveal_street(table, hand, now))
        return True
    if hand is not None:
        if hand.deadline is None or hand.deadline > now or hand.to_act is None:
            return False
        engine = hand_engine(hand)
        seat = table.seats.select_for_update().get(number=hand.to_act)
        new = _timeout_move(table, engine, seat)
        seat.state = SeatState.SITTING_OUT
        seat.sat_out_reason = TIMED_OUT
        seat.save()
        _changed(table, _after_moves(table, hand, engine, new, now))
        return True
    if table.next_hand_at is None or table.next_hand_at > now or not table.is_open:
        return False
    moved = _hand_start(table, now)
    if moved is None:
        # Not enough players any more; the next sit or sit-in schedules a hand again.
        table.next_hand_at = None
        _changed(table)
        return False
    _changed(table, moved)
    return True


def _clockwise(after: int, seats: list[int]) -> list[int]:
    """``seats`` in dealing order, starting with the first seat after ``after``."""
    ordered = sorted(seats)
    first = next((k for k, s in enumerate(ordered) if s > after), 0)
    return ordered[first:] + ordered[:first]


def _blind_positions(button: int, dealt: list[int]) -> tuple[int, int]:
    """(small blind seat, big blind seat) the engine will use for these seats."""
    order = _clockwise(button, dealt)
    if len(order) == 2:
        return order[1], order[0]
    return order[0], order[1]


def _between(start: int, end: int, seat: int) -> bool:
    """Whether ``seat`` lies clockwise after ``start`` up to and including ``end``."""
    if start < end:
        return start < seat <= end
    return seat > start or seat <= end


def _hand_start(table: Table, now: datetime) -> _Moved | None:
    """Decide who is dealt in, post what is owed, shuffle, commit and deal."""
    seats = list(table.seats.select_for_update(of=("self",)).select_related("user"))
    candidates = [
        s
        for s in seats
        if s.user_id is not None
        and s.stack > 0
        and not s.leaving
        and s.state in (SeatState.PLAYING, SeatState.WAITING)
    ]
    if len(candidates) < 2:
        return None
    established = [s for s in candidates if not (s.is_new or s.owes_small or s.owes_big)]
    if len(established) < 2:
        # A fresh game: nobody has a blind to catch up on, everyone is dealt in free.
        established = candidates
    button = _clockwise(table.button, [s.number for s in established])[0]
    dealt = {s.number: SeatSpec(s.number, s.stack) for s in established}
    for s in candidates:
        if s.number in dealt:
            continue
        trial = [*dealt, s.number]
        small, big = _blind_positions(button, trial)
        if s.number == big:
            dealt[s.number] = SeatSpec(s.number, s.stack)  # the big blind reached them
        elif s.number == small or s.number == button or s.wait_for_big_blind:
            continue  # waits: nobody is dealt in between the button and the big blind
        else:
            owes_small = s.owes_small and not s.is_new
            dealt[s.number] = SeatSpec(
                s.number,
                s.stack,
                live_post=table_config(table).big_blind,
                dead_post=(table_config(table).small_blind or 0) if owes_small else 0,
            )
    if len(dealt) < 2:
        return None
    small, big = _blind_positions(button, list(dealt))
    # Missed blinds: a seated player sitting out whom the big blind passed owes both blinds.
    if table.last_big_blind:
        for s in seats:
            if (
                s.user_id is not None
                and s.number not in dealt
                and s.state == SeatState.SITTING_OUT
                and _between(table.last_big_blind, big, s.number)
                and not s.is_new
            ):
                s.owes_small = s.owes_big = True
                s.save(update_fields=["owes_small", "owes_big"])
    deal = deal_new()
    try:
        engine = EngineHand.start(table_config(table), list(dealt.values()), button, deal.deck)
    except RuleError:
        logger.exception("table %s: the engine refused to start a hand", table.pk)
        return None
    table.hand_count += 1
    table.button = button
    table.last_big_blind = next(
        (r.seat for r in engine.records if isinstance(r, BlindPosted) and r.blind == "big"), big
    )
    table.next_hand_at = None
    hand = Hand.objects.create(
        table=table,
        number=table.hand_count,
        records=[],
        button=button,
        deck=deal.deck_text,
        secret=deal.secret,
        commitment=deal.commitment,
        started_at=now,
    )
    by_number = {s.number: s for s in seats}
    HandPlayer.objects.bulk_create(
        HandPlayer(
            hand=hand, user_id=by_number[number].user_id, seat=number, stack_before=spec.stack
        )
        for number, spec in dealt.items()
    )
    for number in dealt:
        s = by_number[number]
        s.is_new = False
        s.owes_small = s.owes_big = False
        s.state = SeatState.PLAYING
        rows.save(s, ("is_new", "owes_small", "owes_big", "state"))
    for s in candidates:
        if s.number not in dealt and s.state != SeatState.WAITING:
            s.state = SeatState.WAITING
            rows.save(s, ("state",))
    return _after_moves(table, hand, engine, list(engine.records), now)


# ----------------------------------------------------------------------------- chat


@table_write
def chat_post(table_id: int, user: Any, text: str) -> dict[str, Any]:
    _require_user(user)
    text = text.strip()[:CHAT_MAX_LENGTH]
    if not text:
        raise TableError("malformed", "say something")
    table = _lock(table_id)
    message = ChatMessage.objects.create(table_id=table_id, user=user, text=text)
    frame = {
        "type": "chat",
        "name": user.get_username(),
        "text": text,
        "at": int(message.created_at.timestamp() * 1000),
    }
    transaction.on_commit(lambda: broadcast.table_chat(table_id, frame))
    # The snapshot carries the last lines too, for sockets that join later.
    _changed(table)
    return frame


# ----------------------------------------------------------------------------- bots


BOT_NAMES = ("Chipper", "Rivera", "Nutsy", "Blinds", "Muckler", "Tilt", "Quads", "Stacks", "Ace")


def bot_user(table_id: int, seat_number: int) -> User:
    """The house bot's account for one seat: it logs in like anyone, with no password."""
    name = f"bot-{table_id}-{seat_number}"
    user, created = User.objects.get_or_create(
        username=name, defaults={"first_name": BOT_NAMES[seat_number % len(BOT_NAMES)]}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def table_add_bots(
    table_id: int, user: Any, count: int | None = None, style: str | None = None
) -> list[Seat]:
    """A director fills empty seats with house bots, each buying in for the maximum."""
    from tables.bots import STYLES

    if user is not None and not is_director(user):
        raise TableError("forbidden", "only directors may add bots")
    table = Table.objects.get(pk=table_id)
    empty = list(table.seats.filter(user__isnull=True).order_by("number"))
    if count is not None:
        empty = empty[:count]
    added = []
    for k, seat in enumerate(empty):
        bot_style = style or STYLES[(seat.number + k) % len(STYLES)]
        added.append(
            seat_take(
                table_id,
                bot_user(table_id, seat.number),
                seat.number,
                table.max_buy_in,
                wait_for_big_blind=False,
                bot_style=bot_style,
            )
        )
    return added


def tables_due(now: datetime | None = None) -> list[int]:
    """Tables with a time-out or a next hand due: what the periodic sweep ticks."""
    now = now or timezone.now()
    timed_out = Hand.objects.filter(
        Q(deadline__lte=now) | Q(reveal_at__lte=now), ended_at__isnull=True
    ).values_list("table_id", flat=True)
    due = Table.objects.filter(
        Q(next_hand_at__lte=now, closed_at__isnull=True) | Q(pk__in=timed_out)
    ).values_list("pk", flat=True)
    return list(due)


def tables_waiting_on_bots(now: datetime | None = None, after_seconds: float = 1.0) -> list[int]:
    """Tables where a bot has been to act longer than its thinking time (a lost task)."""
    now = now or timezone.now()
    hands = Hand.objects.filter(
        ended_at__isnull=True,
        turn_started_at__lte=now - timedelta(seconds=after_seconds),
        to_act__isnull=False,
    ).values_list("table_id", "to_act")
    out = []
    for table_id, number in hands:
        if Seat.objects.filter(table_id=table_id, number=number).exclude(bot_style="").exists():
            out.append(table_id)
    return out
