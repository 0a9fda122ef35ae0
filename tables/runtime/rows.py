"""Lean SQL for the few rows every move reads and writes: the table, its seats, its hand.

A move locks the table row, reads its seats and current hand, appends its records to the
hand and bumps the table's version. Through the ORM each of those statements is compiled
anew (0.3 to 0.7 ms apiece, most of a move's time in the load test), so on PostgreSQL each
is written here once per model from the model's fields (the documented ``Model._meta``
API), run on a plain cursor, and turned into model instances with ``Model.from_db`` and the
fields' own ``from_db_value`` (PostgreSQL's driver already returns Python's types for the
rest). SQLite, the embedded mode of a home game, uses the ORM for the same reads: there a
move's speed is not what limits anything. The two are ``_PostgreSQL`` and ``_SQLite``, at the
end of this module, chosen in one place (``_dialect``).

Writes go out one statement each, inside the service's ``transaction.atomic``:
- ``hand_append`` adds only the move's records to the hand (``records || new`` on
  PostgreSQL) instead of writing the whole list again;
- ``table_bump`` is a conditional write (``WHERE id = %s AND version = %s AND nonce = %s``):
  0 rows means the table moved on since it was read, and the caller's transaction is rolled
  back. Each write gives the table a new random ``nonce``: a version number can come round
  again after a database crash took back a move written with asynchronous commit
  (``tables.runtime.loop_db``), the nonce does not.

A move made on a socket's event loop (``tables.runtime.state``) sends the same read and write
on the loop's own connections (``move_rows_on_loop``, ``move_write_on_loop``,
``hand_end_write_on_loop``: ``tables.runtime.loop_db``), outside any transaction.

So are the reads of every tick of the Celery worker (a deal, a run-out's street): its first
unlocked look at what may be due (``tick_times``), and the recent hands and chat its new
state is filed with (``recent_hands``, ``chat_lines``): through the ORM those three cost
1.3 ms of CPU a deal, here 0.35 ms (measured in process, on PostgreSQL).

Everything else (seating, ledgers, histories, the admin) stays on the ORM.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from functools import cache
from typing import Any, NamedTuple, TypeVar

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.models import Field, Model

from tables.errors import Stale
from tables.models import ChatMessage, Hand, HandPlayer, Seat, Table
from tables.runtime import loop_db

M = TypeVar("M", bound=Model)

_USER_FIELDS = ("id", "username", "first_name")


class LoopUnavailable(Exception):
    """The event loop's connection failed (``move_write_on_loop``): whether the statement
    was applied is unknown, and only a fresh read can tell."""


def has_loop_connections() -> bool:
    """Whether an event loop can read and write the tables on connections of its own
    (``tables.runtime.loop_db``): PostgreSQL's asynchronous driver; SQLite's connection
    belongs to a thread."""
    return _dialect().loop_connections


# SQLite has one writer at a time. Its busy handler waits by sleeping (1, 2, 5 ... 100 ms),
# which under load turned a 2 ms move into a 50 ms one; threads of this process queue here
# instead and are woken the moment the writer before them commits. Other processes (a
# restarted server, a management command) still meet the busy timeout. Only a thread outside
# any transaction queues here: one already inside one (a tournament's workflow, the clock
# setting stakes) holds SQLite's write lock since its BEGIN IMMEDIATE, and queueing then
# would take the two locks in the other order from a move (each waited for the other until
# the busy timeout failed both).
_SQLITE_WRITER = threading.RLock()


@contextmanager
def writing() -> Iterator[None]:
    """A transaction for a change to the tables (``transaction.atomic``); on SQLite, outside
    any transaction, one writer of this process at a time (``_SQLITE_WRITER``)."""
    if _dialect().queues_writers and transaction.get_autocommit():
        with _SQLITE_WRITER, transaction.atomic():
            yield
        return
    with transaction.atomic():
        yield


@contextmanager
def written_alone() -> Iterator[None]:
    """Around a conditional write made outside any transaction (a move read unlocked), so
    that it is atomic on its own: one statement on PostgreSQL, nothing to add; on SQLite,
    where a move's write is two statements, a short transaction of this process's one writer
    at a time."""
    if not _dialect().queues_writers or not transaction.get_autocommit():
        yield
        return
    with _SQLITE_WRITER, transaction.atomic():
        yield


def connection_created(sender: Any, connection: Any, **kwargs: Any) -> None:
    """Django's ``connection_created``: every new PostgreSQL connection reads when the
    server started (``loop_db.database_started``), so that after a restart this process
    forgets what it keeps."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(loop_db.STARTED_SQL)
        loop_db.database_started(cursor.fetchone()[0])


def _quote(name: str) -> str:
    return str(connection.ops.quote_name(name))


def _concrete(model: type[Model]) -> list[Field[Any, Any]]:
    return list(model._meta.concrete_fields)  # type: ignore[arg-type]


@cache
def _columns(model: type[Model], alias: str = "", names: tuple[str, ...] | None = None) -> str:
    """The columns of ``names`` (every concrete field when None), quoted, after ``alias.``."""
    if names is None:
        names = tuple(f.name for f in _concrete(model))
    return ", ".join(_column(model, n, alias) for n in names)


def _column(model: type[Model], name: str, alias: str = "") -> str:
    """A field's column, quoted (after ``alias.`` when given)."""
    column = _quote(model._meta.get_field(name).column)  # type: ignore[union-attr]
    return f"{alias}.{column}" if alias else column


@cache
def _loaders(model: type[Model], names: tuple[str, ...] | None) -> tuple[Any, ...]:
    """Per column, the field's ``from_db_value`` (JSON fields), or None: taken as it comes."""
    fields = _concrete(model) if names is None else [model._meta.get_field(n) for n in names]
    return tuple(getattr(f, "from_db_value", None) for f in fields)


def _build(model: type[M], row: Any, start: int = 0, names: tuple[str, ...] | None = None) -> M:
    loaders = _loaders(model, names)
    values = list(row[start : start + len(loaders)])
    for k, load in enumerate(loaders):
        if load is not None:
            values[k] = load(values[k], None, connection)
    attnames = names or tuple(f.attname for f in _concrete(model))
    return model.from_db(connection.alias, list(attnames), values)  # type: ignore[return-value]


@cache
def _table_sql() -> str:
    return (
        f"SELECT {_columns(Table, 't')} FROM {_quote(Table._meta.db_table)} t "
        f"WHERE t.{_quote('id')} = %s FOR UPDATE"
    )


@cache
def _seats_sql() -> str:
    user_cols = ", ".join(f"u.{_quote(n)}" for n in _USER_FIELDS)
    return (
        f"SELECT {_columns(Seat, 's')}, {user_cols} FROM {_quote(Seat._meta.db_table)} s "
        f"LEFT JOIN {_quote(get_user_model()._meta.db_table)} u ON u.{_quote('id')} = s."
        f"{_quote('user_id')} WHERE s.{_quote('table_id')} = %s "
        f"ORDER BY s.{_quote('number')} FOR UPDATE OF s"
    )


@cache
def _hand_sql() -> str:
    return (
        f"SELECT {_columns(Hand, 'h')} FROM {_quote(Hand._meta.db_table)} h "
        f"WHERE h.{_quote('table_id')} = %s AND h.{_quote('ended_at')} IS NULL "
        f"ORDER BY h.{_quote('number')} DESC LIMIT 1"
    )


def table_locked(table_id: int) -> Table | None:
    """``Table.objects.select_for_update().filter(pk=...).first()``."""
    return _dialect().table_locked(table_id)


def seats_locked(table_id: int) -> list[Seat]:
    """The table's seats by number, locked, each with its player's id and names loaded."""
    return _dialect().seats_locked(table_id)


def _seats_from(found: list[Any]) -> list[Seat]:
    """Seats (with their players) from rows that start with the seat's and user's columns."""
    user_model = get_user_model()
    width = len(_concrete(Seat))
    seats = []
    for row in found:
        seat = _build(Seat, row)
        user = None if row[width] is None else _build(user_model, row, width, _USER_FIELDS)
        if user is not None:
            # Assigning the related object (the public descriptor) fills the relation's
            # cache, so ``seat.user`` needs no query.
            seat.user = user
        seats.append(seat)
    return seats


def current_hand(table_id: int) -> Hand | None:
    """The table's hand in play (not ended), if any."""
    return _dialect().current_hand(table_id)


def move_rows(table_id: int, *, lock: bool = True) -> tuple[Table | None, list[Seat], Hand | None]:
    """``table_locked``, ``seats_locked`` and ``current_hand`` for a move.

    On PostgreSQL one statement reads and locks them all (one round trip instead of
    three): a row per seat with its player, the table's and the hand's columns beside it;
    the hand's record list travels once, on seat 1's row (every table has a seat 1).
    ``lock=False`` reads the same rows without locking them, for a move made outside a
    transaction and written with ``move_write(..., table_columns=())``, whose version
    condition refuses it if anything changed the table since this read. (On SQLite, three
    reads: whatever is written between them bumps the version after the one read first.)
    """
    return _dialect().move_rows(table_id, lock)


async def move_rows_on_loop(table_id: int) -> tuple[Table | None, list[Seat], Hand | None]:
    """``move_rows(table_id, lock=False)`` on the caller's event loop, on one of its own
    connections (``tables.runtime.loop_db``). ``LoopUnavailable`` if that connection fails."""
    import psycopg  # noqa: PLC0415 - loaded by the loop's connections; not on SQLite

    try:
        found = await loop_db.fetchall(_move_sql(False), [table_id])
    except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
        raise LoopUnavailable(str(exc)) from exc
    return _move_rows_from(found)


def _move_rows_from(found: list[Any]) -> tuple[Table | None, list[Seat], Hand | None]:
    if not found:
        return None, [], None
    seat_width = len(_concrete(Seat)) + len(_USER_FIELDS)
    table_width = len(_concrete(Table))
    table = _build(Table, found[0], seat_width)
    seats = _seats_from(found)
    first = found[0]
    start = seat_width + table_width
    if first[start] is None:  # the hand's id: no hand in play
        return table, seats, None
    return table, seats, _build(Hand, first, start)


@cache
def _move_sql(lock: bool = True) -> str:
    user_cols = ", ".join(f"u.{_quote(n)}" for n in _USER_FIELDS)
    records = Hand._meta.get_field("records").column
    hand_cols = ", ".join(
        f"CASE WHEN s.{_quote('number')} = 1 THEN h.{_quote(f.column)} END"
        if f.column == records
        else f"h.{_quote(f.column)}"
        for f in _concrete(Hand)
    )
    hand = _quote(Hand._meta.db_table)
    return (
        f"SELECT {_columns(Seat, 's')}, {user_cols}, {_columns(Table, 't')}, {hand_cols} "
        f"FROM {_quote(Table._meta.db_table)} t "
        f"JOIN {_quote(Seat._meta.db_table)} s ON s.{_quote('table_id')} = t.{_quote('id')} "
        f"LEFT JOIN {_quote(get_user_model()._meta.db_table)} u "
        f"ON u.{_quote('id')} = s.{_quote('user_id')} "
        f"LEFT JOIN LATERAL (SELECT * FROM {hand} h2 WHERE h2.{_quote('table_id')} = t.{_quote('id')} "
        f"AND h2.{_quote('ended_at')} IS NULL ORDER BY h2.{_quote('number')} DESC LIMIT 1) h ON TRUE "
        f"WHERE t.{_quote('id')} = %s ORDER BY s.{_quote('number')}"
        + (" FOR UPDATE OF t, s" if lock else "")
    )


# ------------------------------------------------------------------------------ writes


def save(obj: Model, names: tuple[str, ...] | None = None) -> None:
    """``obj.save(update_fields=names)`` for a row that exists (every field when None);
    raises the model's ``DoesNotExist`` if the row is gone."""
    model = type(obj)
    fields = [
        f
        for f in _concrete(model)
        if not f.primary_key and (names is None or f.name in names or f.attname in names)
    ]
    params = [
        *(f.get_db_prep_save(f.pre_save(obj, False), connection) for f in fields),
        obj.pk,
    ]
    sql = _update_sql(model, tuple(f.column for f in fields), (model._meta.pk.column,))  # type: ignore[union-attr]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount != 1:
            raise model.DoesNotExist(f"{model.__name__} {obj.pk} is gone")  # type: ignore[attr-defined]


def save_many(objs: list[Any]) -> None:
    """``save`` of several rows of one model, every field, in one statement on PostgreSQL
    (one round trip for a hand's six seats instead of six); raises the model's
    ``DoesNotExist`` if a row is gone."""
    _dialect().save_many(objs)


class TickTimes(NamedTuple):
    """What tells whether a table's tick may have something to do: the table's times and,
    when a hand is in play, its turn's."""

    next_hand_at: datetime | None
    closed_at: datetime | None
    bomb_pot_vote_until: datetime | None
    in_hand: bool
    deadline: datetime | None
    to_act: int | None
    reveal_at: datetime | None
    vote_until: datetime | None


def tick_times(table_id: int) -> TickTimes | None:
    """The table's and its hand in play's times a tick looks at, unlocked (None: no such
    table); one statement on PostgreSQL."""
    return _dialect().tick_times(table_id)


def recent_hands(table_id: int, count: int) -> list[Hand]:
    """The table's last ``count`` finished hands, the newest first: only their id, number,
    summary and awards."""
    return _dialect().recent_hands(table_id, count)


def chat_lines(table_id: int, count: int) -> list[tuple[str, str, datetime]]:
    """The table's last ``count`` chat lines, the newest first: (the writer's user name,
    the text, when)."""
    return _dialect().chat_lines(table_id, count)


_TICK_TABLE = ("next_hand_at", "closed_at", "bomb_pot_vote_until")
_TICK_HAND = ("deadline", "to_act", "reveal_at", "vote_until")
_RECENT = ("id", "number", "summary", "awards")


@cache
def _tick_times_sql() -> str:
    return (
        f"SELECT {_columns(Table, 't', _TICK_TABLE)}, {_column(Hand, 'id', 'h')}, "
        f"{_columns(Hand, 'h', _TICK_HAND)} FROM {_quote(Table._meta.db_table)} t "
        f"LEFT JOIN {_quote(Hand._meta.db_table)} h "
        f"ON {_column(Hand, 'table', 'h')} = {_column(Table, 'id', 't')} "
        f"AND {_column(Hand, 'ended_at', 'h')} IS NULL "
        f"WHERE {_column(Table, 'id', 't')} = %s ORDER BY {_column(Hand, 'id', 'h')} LIMIT 1"
    )


@cache
def _recent_sql() -> str:
    return (
        f"SELECT {_columns(Hand, '', _RECENT)} FROM {_quote(Hand._meta.db_table)} "
        f"WHERE {_column(Hand, 'table')} = %s AND {_column(Hand, 'ended_at')} IS NOT NULL "
        f"ORDER BY {_column(Hand, 'number')} DESC LIMIT %s"
    )


@cache
def _chat_sql() -> str:
    user = get_user_model()
    # In ChatMessage's own order (its Meta's): the newest first.
    order = ", ".join(
        _column(ChatMessage, name.removeprefix("-"), "m") + (" DESC" if name[0] == "-" else "")
        for name in ChatMessage._meta.ordering
    )
    return (
        f"SELECT {_column(user, user.USERNAME_FIELD, 'u')}, "
        f"{_columns(ChatMessage, 'm', ('text', 'created_at'))} "
        f"FROM {_quote(ChatMessage._meta.db_table)} m JOIN {_quote(user._meta.db_table)} u "
        f"ON {_column(user, 'id', 'u')} = {_column(ChatMessage, 'user', 'm')} "
        f"WHERE {_column(ChatMessage, 'table', 'm')} = %s ORDER BY {order} LIMIT %s"
    )


@cache
def _update_many_sql(model: type[Model]) -> str:
    """One UPDATE of any number of rows: each column's values as one array parameter,
    ``unnest`` side by side into rows joined on the primary key. The statement is the same
    for any count of rows, and at a parameter a column it stays within what psycopg caches
    the parse of (4 KB, 50 parameters): a ``CASE`` per column, with a pair of parameters per
    row and column, had 306 for a deal's six seats, which psycopg split and quoted again on
    every deal (0.96 ms of CPU a deal's seats, 0.48 ms this way, measured in process)."""
    pk = _quote(model._meta.pk.column)  # type: ignore[union-attr]
    table = _quote(model._meta.db_table)
    fields = _concrete(model)
    arrays = ", ".join(f"%s::{f.cast_db_type(connection)}[]" for f in fields)
    names = ", ".join(_quote(f.column) for f in fields)
    sets = ", ".join(
        f"{_quote(f.column)} = given.{_quote(f.column)}" for f in fields if not f.primary_key
    )
    return (
        f"UPDATE {table} SET {sets} FROM unnest({arrays}) AS given({names}) "
        f"WHERE {table}.{pk} = given.{pk}"
    )


@cache
def _update_sql(model: type[Model], columns: tuple[str, ...], where: tuple[str, ...]) -> str:
    sets = ", ".join(f"{_quote(c)} = %s" for c in columns)
    conditions = " AND ".join(f"{_quote(c)} = %s" for c in where)
    return f"UPDATE {_quote(model._meta.db_table)} SET {sets} WHERE {conditions}"


# The hand's fields a move may change besides its records.
HAND_STATE = (
    "to_act",
    "turn_started_at",
    "deadline",
    "turn_extended",
    "board_shown",
    "reveal_at",
    "vote_until",
    "ended_at",
    "summary",
    "awards",
)


def hand_append(hand: Hand, added: list[dict[str, Any]]) -> None:
    """Append ``added`` (records as JSON) to the stored hand and write its state fields.

    ``hand.records`` must already end with ``added``. On PostgreSQL only the new records
    travel (``records || %s::jsonb``); elsewhere the list is written whole.
    """
    _dialect().hand_append(hand, added)


@cache
def _append_sql() -> str:
    records = _column(Hand, "records")
    sets = ", ".join(f"{_column(Hand, name)} = %s" for name in HAND_STATE)
    return (
        f"UPDATE {_quote(Hand._meta.db_table)} SET {records} = {records} || %s::jsonb, "
        f"{sets} WHERE {_quote('id')} = %s"
    )


def move_write(
    table: Table,
    hand: Hand,
    added: list[dict[str, Any]],
    *,
    table_columns: tuple[str, ...] | None = None,
) -> None:
    """``hand_append`` and ``table_bump`` of a move, in one statement on PostgreSQL: the
    hand is written only if the version bump went through; ``Stale`` (nothing written)
    otherwise. ``table_columns`` names the table's fields to write besides the version (all
    of them when None; ``()`` for a move that changed none, whose row was read unlocked)."""
    _dialect().move_write(table, hand, added, table_columns)


def _move_write_statement(
    table: Table,
    hand: Hand,
    added: list[dict[str, Any]],
    table_columns: tuple[str, ...] | None,
    also: tuple[tuple[str, list[Any]], ...] = (),
) -> tuple[str, list[Any], int]:
    """The move's one statement, its parameters and the table's nonce once it is written;
    ``also`` are more ``UPDATE`` statements (and their parameters) made in it, each only if
    the version bump went through."""
    table_fields = [f for f in _bumped_fields() if table_columns is None or f.name in table_columns]
    hand_fields = _hand_state_fields()
    nonce = _nonce()
    params = _bump_params(table, table_fields, nonce)
    sql = _move_write_sql(tuple(f.column for f in table_fields))
    if also:
        head, append = sql.split(" RETURNING 1) ", 1)
        more = "".join(
            f", also{k} AS ({update} AND EXISTS (SELECT 1 FROM bumped) RETURNING 1)"
            for k, (update, _) in enumerate(also)
        )
        sql = f"{head} RETURNING 1){more} {append}"
        for _, more_params in also:
            params += more_params
    # The connection itself, not the proxy: each field's preparation reads several of its
    # attributes, and every read through the proxy looks the connection up again.
    db = connections[DEFAULT_DB_ALIAS]
    params += [
        json.dumps(added),
        *(f.get_db_prep_save(f.pre_save(hand, False), db) for f in hand_fields),  # type: ignore[union-attr]
        hand.pk,
    ]
    return sql, params, nonce


def _cases(
    model: type[Model], key: str, names: tuple[str, ...], rows: list[tuple[Any, Model]]
) -> tuple[str, list[Any]]:
    """``UPDATE`` of the ``names`` fields of several rows of ``model``, each to its object's
    value, by the ``key`` column's value (the caller adds more conditions with AND)."""
    column = _quote(key)
    sets = []
    params: list[Any] = []
    for name in names:
        f = model._meta.get_field(name)
        cast = f.cast_db_type(connection)  # type: ignore[union-attr]
        sets.append(
            f"{_quote(f.column)} = CASE {column} "  # type: ignore[union-attr]
            + " ".join([f"WHEN %s THEN CAST(%s AS {cast})"] * len(rows))
            + " END"
        )
        for value, obj in rows:
            params += [value, f.get_db_prep_save(f.pre_save(obj, False), connection)]  # type: ignore[union-attr]
    keys = ", ".join(["%s"] * len(rows))
    params += [value for value, _ in rows]
    sql = f"UPDATE {_quote(model._meta.db_table)} SET {', '.join(sets)} WHERE {column} IN ({keys})"
    return sql, params


# What a hand's end writes besides the hand (``hand_end_write_on_loop``): the table's next
# hand, each seat's chips, state and time bank (refilled per hand), each player's finishing
# stack.
HAND_END_TABLE = ("next_hand_at",)
HAND_END_SEAT = ("stack", "state", "sat_out_reason", "time_bank_ms")


async def hand_end_write_on_loop(
    table: Table, hand: Hand, added: list[dict[str, Any]], seats: list[Seat]
) -> None:
    """``move_write`` of a move that ended the hand, with the hand's end in the same
    statement, on the caller's event loop: the table's next hand time (``HAND_END_TABLE``),
    the dealt seats' chips and state (``HAND_END_SEAT``) and their players' finishing stacks
    (``HandPlayer.stack_after``). All of it or nothing: every part is conditional on the
    version bump, as a move's records are. ``Stale`` if the table moved on."""
    if not seats:
        raise ValueError("a hand's end has dealt seats")
    seats_sql, seats_params = _cases(Seat, "id", HAND_END_SEAT, [(s.pk, s) for s in seats])
    players = [
        (s.number, HandPlayer(hand_id=hand.pk, seat=s.number, stack_after=s.stack)) for s in seats
    ]
    players_sql, players_params = _cases(HandPlayer, "seat", ("stack_after",), players)
    players_sql += f" AND {_quote('hand_id')} = %s"
    sql, params, nonce = _move_write_statement(
        table,
        hand,
        added,
        HAND_END_TABLE,
        ((seats_sql, seats_params), (players_sql, [*players_params, hand.pk])),
    )
    await _write_on_loop(table, sql, params, nonce)


async def move_write_on_loop(table: Table, hand: Hand, added: list[dict[str, Any]]) -> None:
    """``move_write`` of a move that changed no table column (``table_columns=()``), on the
    caller's event loop: the same statement, on one of this loop's own connections
    (``tables.runtime.loop_db``), so the loop waits for PostgreSQL without blocking and no thread
    is involved. ``Stale`` (nothing written) if the table moved on."""
    sql, params, nonce = _move_write_statement(table, hand, added, ())
    await _write_on_loop(table, sql, params, nonce)


async def _write_on_loop(table: Table, sql: str, params: list[Any], nonce: int) -> None:
    import psycopg  # noqa: PLC0415 - as in move_rows_on_loop

    try:
        count = await loop_db.execute(sql, params)
    except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
        raise LoopUnavailable(str(exc)) from exc
    _bumped(table, count, nonce)


@cache
def _move_write_sql(columns: tuple[str, ...]) -> str:
    bump = _bump_sql(columns)
    append = _append_sql()
    return f"WITH bumped AS ({bump} RETURNING 1) {append} AND EXISTS (SELECT 1 FROM bumped)"


def table_bump(table: Table) -> None:
    """Write the table's fields with its version one higher, if it is still at
    ``table.version - 1`` and its ``nonce``; raise ``Stale`` (nothing written) if another
    change came first."""
    fields = _bumped_fields()
    nonce = _nonce()
    with connection.cursor() as cursor:
        cursor.execute(
            _bump_sql(tuple(f.column for f in fields)), _bump_params(table, fields, nonce)
        )
        _bumped(table, cursor.rowcount, nonce)


def _bumped(table: Table, count: int, nonce: int) -> None:
    """After a conditional write of ``count`` rows: ``Stale`` if it found the table no longer
    at the version and nonce read (or the hand gone), else the table carries its new nonce."""
    if count != 1:
        raise Stale(f"table {table.pk} is no longer at version {table.version - 1} as read")
    table.nonce = nonce


def _nonce() -> int:
    # Not a secret: only unlikely to come round again (a process's generator is seeded from
    # the system's randomness).
    return random.getrandbits(62)


@cache
def _bumped_fields() -> tuple[Field[Any, Any], ...]:
    """The table's fields a bump may write besides its version and nonce."""
    return tuple(
        f for f in _concrete(Table) if not f.primary_key and f.name not in ("version", "nonce")
    )


@cache
def _hand_state_fields() -> tuple[Any, ...]:
    return tuple(Hand._meta.get_field(name) for name in HAND_STATE)


def _bump_params(table: Table, fields: Sequence[Field[Any, Any]], nonce: int) -> list[Any]:
    """``_bump_sql``'s parameters: the new nonce, ``fields``' values, then the row as read."""
    db = connections[DEFAULT_DB_ALIAS]  # as in _move_write_statement
    return [
        nonce,
        *(f.get_db_prep_save(f.pre_save(table, False), db) for f in fields),
        table.pk,
        table.version - 1,
        table.nonce,
    ]


@cache
def _bump_sql(columns: tuple[str, ...]) -> str:
    version, nonce = _quote("version"), _quote("nonce")
    sets = "".join(f", {_quote(c)} = %s" for c in columns)
    return (
        f"UPDATE {_quote(Table._meta.db_table)} SET {version} = {version} + 1, "
        f"{nonce} = %s{sets} WHERE {_quote('id')} = %s AND {version} = %s AND {nonce} = %s"
    )


# ------------------------------------------------------------------------------ the dialects


class _SQLite:
    """The embedded mode of a home game: the ORM's statements, several where PostgreSQL
    has one, and one writer of this process at a time (``_SQLITE_WRITER``)."""

    queues_writers = True
    loop_connections = False

    def table_locked(self, table_id: int) -> Table | None:
        return Table.objects.select_for_update().filter(pk=table_id).first()

    def seats_locked(self, table_id: int) -> list[Seat]:
        return list(
            Seat.objects.select_for_update(of=("self",))
            .filter(table_id=table_id)
            .select_related("user")
            .order_by("number")
        )

    def current_hand(self, table_id: int) -> Hand | None:
        return (
            Hand.objects.filter(table_id=table_id, ended_at__isnull=True)
            .order_by("-number")
            .first()
        )

    def move_rows(self, table_id: int, lock: bool) -> tuple[Table | None, list[Seat], Hand | None]:
        if lock:
            table = self.table_locked(table_id)
        else:
            table = Table.objects.filter(pk=table_id).first()
        if table is None:
            return None, [], None
        if lock:
            return table, self.seats_locked(table_id), self.current_hand(table_id)
        seats = list(
            Seat.objects.filter(table_id=table_id).select_related("user").order_by("number")
        )
        return table, seats, self.current_hand(table_id)

    def tick_times(self, table_id: int) -> TickTimes | None:
        hand = (
            Hand.objects.filter(table_id=table_id, ended_at__isnull=True)
            .order_by("pk")
            .values_list(*_TICK_HAND)
            .first()
        )
        table = Table.objects.filter(pk=table_id).values_list(*_TICK_TABLE).first()
        if table is None:
            return None
        return TickTimes(*table, hand is not None, *(hand or (None,) * len(_TICK_HAND)))

    def recent_hands(self, table_id: int, count: int) -> list[Hand]:
        return list(
            Hand.objects.filter(table_id=table_id, ended_at__isnull=False)
            .order_by("-number")
            .only(*_RECENT)[:count]
        )

    def chat_lines(self, table_id: int, count: int) -> list[tuple[str, str, datetime]]:
        return [
            (m.user.get_username(), m.text, m.created_at)
            for m in ChatMessage.objects.filter(table_id=table_id).select_related("user")[:count]
        ]

    def save_many(self, objs: list[Any]) -> None:
        for obj in objs:
            save(obj)

    def hand_append(self, hand: Hand, added: list[dict[str, Any]]) -> None:
        save(hand, ("records", *HAND_STATE))

    def move_write(
        self,
        table: Table,
        hand: Hand,
        added: list[dict[str, Any]],
        table_columns: tuple[str, ...] | None,
    ) -> None:
        self.hand_append(hand, added)
        table_bump(table)


class _PostgreSQL:
    """The lean SQL above, one round trip per read and per write, and an event loop's own
    connections (``tables.runtime.loop_db``)."""

    queues_writers = False
    loop_connections = True

    def table_locked(self, table_id: int) -> Table | None:
        with connection.cursor() as cursor:
            cursor.execute(_table_sql(), [table_id])
            row = cursor.fetchone()
        return None if row is None else _build(Table, row)

    def seats_locked(self, table_id: int) -> list[Seat]:
        with connection.cursor() as cursor:
            cursor.execute(_seats_sql(), [table_id])
            found = cursor.fetchall()
        return _seats_from(found)

    def current_hand(self, table_id: int) -> Hand | None:
        with connection.cursor() as cursor:
            cursor.execute(_hand_sql(), [table_id])
            row = cursor.fetchone()
        return None if row is None else _build(Hand, row)

    def move_rows(self, table_id: int, lock: bool) -> tuple[Table | None, list[Seat], Hand | None]:
        with connection.cursor() as cursor:
            cursor.execute(_move_sql(lock), [table_id])
            found = cursor.fetchall()
        return _move_rows_from(found)

    def tick_times(self, table_id: int) -> TickTimes | None:
        with connection.cursor() as cursor:
            cursor.execute(_tick_times_sql(), [table_id])
            row = cursor.fetchone()
        if row is None:
            return None
        width = len(_TICK_TABLE)
        return TickTimes(*row[:width], row[width] is not None, *row[width + 1 :])

    def recent_hands(self, table_id: int, count: int) -> list[Hand]:
        with connection.cursor() as cursor:
            cursor.execute(_recent_sql(), [table_id, count])
            found = cursor.fetchall()
        return [_build(Hand, row, 0, _RECENT) for row in found]

    def chat_lines(self, table_id: int, count: int) -> list[tuple[str, str, datetime]]:
        with connection.cursor() as cursor:
            cursor.execute(_chat_sql(), [table_id, count])
            return cursor.fetchall()

    def save_many(self, objs: list[Any]) -> None:
        if len(objs) < 2:
            for obj in objs:
                save(obj)
            return
        model = type(objs[0])
        params = [
            [f.get_db_prep_save(f.pre_save(obj, False), connection) for obj in objs]
            for f in _concrete(model)
        ]
        with connection.cursor() as cursor:
            cursor.execute(_update_many_sql(model), params)
            if cursor.rowcount != len(objs):
                raise model.DoesNotExist(
                    f"some of {model.__name__} {[o.pk for o in objs]} are gone"
                )  # type: ignore[attr-defined]

    def hand_append(self, hand: Hand, added: list[dict[str, Any]]) -> None:
        fields = [Hand._meta.get_field(name) for name in HAND_STATE]
        params = [
            json.dumps(added),
            *(f.get_db_prep_save(f.pre_save(hand, False), connection) for f in fields),
            hand.pk,
        ]
        with connection.cursor() as cursor:
            cursor.execute(_append_sql(), params)
            if cursor.rowcount != 1:
                raise Hand.DoesNotExist(f"Hand {hand.pk} is gone")

    def move_write(
        self,
        table: Table,
        hand: Hand,
        added: list[dict[str, Any]],
        table_columns: tuple[str, ...] | None,
    ) -> None:
        sql, params, nonce = _move_write_statement(table, hand, added, table_columns)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            _bumped(table, cursor.rowcount, nonce)


_SQLITE_ROWS = _SQLite()
_POSTGRESQL_ROWS = _PostgreSQL()


def _dialect() -> _SQLite | _PostgreSQL:
    """The database's dialect: the one place it is chosen."""
    return _POSTGRESQL_ROWS if connection.vendor == "postgresql" else _SQLITE_ROWS
