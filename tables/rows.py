"""Lean SQL for the few rows every move reads and writes: the table, its seats, its hand.

A move locks the table row, reads its seats and current hand, and writes the hand and the
table's version back. Through the ORM each of those statements is compiled anew (0.3 to 0.7
ms apiece, most of a move's time in the load test); here each is written once per model from
the model's own fields, and values go through Django's own converters and adapters, so the
objects are the ones the ORM would build and the rows the ones it would write.

On PostgreSQL the table services also hold these writes back (``writes_held``): the
UPDATEs go out with the next statement, or at the end in one round trip with the COMMIT,
instead of one round trip each. Every statement still runs in the order the code wrote it.

Everything else (seating, ledgers, histories, the admin) stays on the ORM.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist
from django.db import DEFAULT_DB_ALIAS, DataError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model
from psycopg import errors as pg_errors

from tables.models import Hand, Seat, Table

M = TypeVar("M", bound=Model)

_USER_FIELDS = ("id", "username", "first_name")


def _db() -> BaseDatabaseWrapper:
    # Looked up once per call: every attribute read through django.db.connection is a
    # thread-local lookup, and converters read several per value.
    return connections[DEFAULT_DB_ALIAS]


def _quote(name: str) -> str:
    return str(_db().ops.quote_name(name))


@cache
def _columns(model: type[Model], alias: str) -> str:
    return ", ".join(f"{alias}.{_quote(f.column)}" for f in model._meta.concrete_fields)


def _converters(
    connection: BaseDatabaseWrapper, model: type[Model], names: tuple[str, ...] | None = None
) -> list[list[Any]]:
    """Per column, what the ORM would apply to a value read from this database."""
    key = (connection.vendor, model, names)
    found = _CONVERTERS.get(key)
    if found is None:
        fields = (
            model._meta.concrete_fields
            if names is None
            else [model._meta.get_field(n) for n in names]
        )
        found = []
        for field in fields:
            col = field.get_col(model._meta.db_table)  # type: ignore[union-attr]
            found.append(
                [
                    (conv, col)
                    for conv in connection.ops.get_db_converters(col)
                    + col.get_db_converters(connection)
                ]
            )
        _CONVERTERS[key] = found
    return found


_CONVERTERS: dict[Any, list[list[Any]]] = {}


def _build(
    connection: BaseDatabaseWrapper,
    model: type[M],
    row: Any,
    start: int = 0,
    names: tuple[str, ...] | None = None,
) -> M:
    converters = _converters(connection, model, names)
    values = list(row[start : start + len(converters)])
    for k, convs in enumerate(converters):
        value = values[k]
        for conv, col in convs:
            value = conv(value, col, connection)
        values[k] = value
    attnames = names or tuple(f.attname for f in model._meta.concrete_fields)
    return model.from_db(connection.alias, list(attnames), values)  # type: ignore[return-value]


def _for_update(connection: BaseDatabaseWrapper, alias: str) -> str:
    if not connection.features.has_select_for_update:
        return ""
    if alias and connection.features.has_select_for_update_of:
        return f" FOR UPDATE OF {alias}"
    return " FOR UPDATE"


# The statements are written once per database vendor (with its quoting and locking).


def _table_sql(connection: BaseDatabaseWrapper) -> str:
    return _table_sql_for(connection.vendor, _for_update(connection, ""))


@cache
def _table_sql_for(vendor: str, for_update: str) -> str:
    return (
        f"SELECT {_columns(Table, 't')} FROM {_quote(Table._meta.db_table)} t "
        f"WHERE t.{_quote('id')} = %s{for_update}"
    )


def _seats_sql(connection: BaseDatabaseWrapper) -> str:
    return _seats_sql_for(connection.vendor, _for_update(connection, "s"))


@cache
def _seats_sql_for(vendor: str, for_update: str) -> str:
    user_cols = ", ".join(f"u.{_quote(n)}" for n in _USER_FIELDS)
    return (
        f"SELECT {_columns(Seat, 's')}, {user_cols} FROM {_quote(Seat._meta.db_table)} s "
        f"LEFT JOIN {_quote(get_user_model()._meta.db_table)} u ON u.{_quote('id')} = s."
        f"{_quote('user_id')} WHERE s.{_quote('table_id')} = %s "
        f"ORDER BY s.{_quote('number')}{for_update}"
    )


def _hand_sql() -> str:
    return _hand_sql_for(_db().vendor)


@cache
def _hand_sql_for(vendor: str) -> str:
    return (
        f"SELECT {_columns(Hand, 'h')} FROM {_quote(Hand._meta.db_table)} h "
        f"WHERE h.{_quote('table_id')} = %s AND h.{_quote('ended_at')} IS NULL "
        f"ORDER BY h.{_quote('number')} DESC LIMIT 1"
    )


def table_locked(table_id: int) -> Table | None:
    """``Table.objects.select_for_update().filter(pk=...).first()``."""
    connection = _db()
    with connection.cursor() as cursor:
        cursor.execute(_table_sql(connection), [table_id])
        row = cursor.fetchone()
    return None if row is None else _build(connection, Table, row)


def seats_locked(table_id: int) -> list[Seat]:
    """The table's seats by number, locked, each with its player's id and names loaded."""
    connection = _db()
    with connection.cursor() as cursor:
        cursor.execute(_seats_sql(connection), [table_id])
        rows = cursor.fetchall()
    return _seats(connection, rows)


def _seats(connection: BaseDatabaseWrapper, rows: list[Any]) -> list[Seat]:
    user_model = get_user_model()
    width = len(Seat._meta.concrete_fields)
    user_field = Seat._meta.get_field("user")
    seats = []
    for row in rows:
        seat = _build(connection, Seat, row)
        user = (
            None if row[width] is None else _build(connection, user_model, row, width, _USER_FIELDS)
        )
        user_field.set_cached_value(seat, user)  # type: ignore[union-attr]
        seats.append(seat)
    return seats


def current_hand(table_id: int) -> Hand | None:
    """The table's hand in play (not ended), if any."""
    connection = _db()
    with connection.cursor() as cursor:
        cursor.execute(_hand_sql(), [table_id])
        row = cursor.fetchone()
    return None if row is None else _build(connection, Hand, row)


def move_rows(table_id: int) -> tuple[Table | None, list[Seat], Hand | None]:
    """``table_locked``, ``seats_locked`` and ``current_hand`` at once, for a move.

    On PostgreSQL the three statements go in one pipeline (psycopg's pipeline mode): one
    round trip instead of four with the BEGIN. Each wait on the server is a wait for the
    GIL afterwards too, which under load cost more than the round trip itself. The table
    row is locked first either way: PostgreSQL runs a pipeline's statements in order.
    """
    connection = _db()
    if connection.vendor != "postgresql":
        table = table_locked(table_id)
        if table is None:
            return None, [], None
        return table, seats_locked(table_id), current_hand(table_id)
    connection.ensure_connection()
    _send_held(connection)
    raw = connection.connection
    with connection.wrap_database_errors:
        with raw.pipeline():
            cursors = [raw.cursor() for _ in range(3)]
            cursors[0].execute(_table_sql(connection), [table_id])
            cursors[1].execute(_seats_sql(connection), [table_id])
            cursors[2].execute(_hand_sql(), [table_id])
        table_row, seat_rows, hand_row = (
            cursors[0].fetchone(),
            cursors[1].fetchall(),
            cursors[2].fetchone(),
        )
        for cursor in cursors:
            cursor.close()
    if table_row is None:
        return None, [], None
    return (
        _build(connection, Table, table_row),
        _seats(connection, seat_rows),
        None if hand_row is None else _build(connection, Hand, hand_row),
    )


def save(obj: Model, names: tuple[str, ...] | None = None) -> None:
    """``obj.save(update_fields=names)`` for a row that exists (every field when None).

    Inside ``writes_held`` the UPDATE waits for the next statement or the COMMIT.
    """
    connection = _db()
    model = type(obj)
    fields: list[Field[Any, Any]] = [
        f  # type: ignore[misc]
        for f in model._meta.concrete_fields
        if not f.primary_key and (names is None or f.name in names or f.attname in names)
    ]
    params = [
        *(f.get_db_prep_save(f.pre_save(obj, False), connection) for f in fields),
        obj.pk,
    ]
    columns = tuple(f.column for f in fields)
    sql = _update_sql(model, columns, (model._meta.pk.column,))  # type: ignore[union-attr]
    _write(connection, sql, params, obj)


def update(model: type[Model], values: dict[str, Any], **where: Any) -> None:
    """``model.objects.filter(**where).update(**values)`` for plain field equalities.

    Any number of rows may match (none included); inside ``writes_held`` it is held too.
    """
    connection = _db()
    meta = model._meta
    set_fields: list[Any] = [meta.get_field(name) for name in values]
    where_fields: list[Any] = [meta.get_field(name) for name in where]
    params = [
        *(
            f.get_db_prep_save(v, connection)
            for f, v in zip(set_fields, values.values(), strict=True)
        ),
        *(
            f.get_db_prep_value(v, connection)
            for f, v in zip(where_fields, where.values(), strict=True)
        ),
    ]
    sql = _update_sql(
        model, tuple(f.column for f in set_fields), tuple(f.column for f in where_fields)
    )
    _write(connection, sql, params, None)


@cache
def _update_sql(model: type[Model], columns: tuple[str, ...], where: tuple[str, ...]) -> str:
    sets = ", ".join(f"{_quote(c)} = %s" for c in columns)
    conditions = " AND ".join(f"{_quote(c)} = %s" for c in where)
    return f"UPDATE {_quote(model._meta.db_table)} SET {sets} WHERE {conditions}"


@cache
def _checked(sql: str) -> str:
    # A held UPDATE may go out with the COMMIT, when its row count comes back too late to
    # stop anything: a row that is gone fails the statement itself (division by zero),
    # which aborts the transaction before the COMMIT.
    return f"WITH updated AS ({sql} RETURNING 1) SELECT 1 / COUNT(*) FROM updated"


def _write(connection: BaseDatabaseWrapper, sql: str, params: list[Any], row: Model | None) -> None:
    """Run an UPDATE now, or hold it inside ``writes_held``. With ``row``, exactly that
    one row must be updated, or it raises its model's ``DoesNotExist``."""
    held = getattr(connection, _HELD, None)
    if held is not None:
        held.append((sql if row is None else _checked(sql), params, row))
        return
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if row is not None and cursor.rowcount != 1:
            raise type(row).DoesNotExist(f"{type(row).__name__} {row.pk} is gone")


# --------------------------------------------------------------------------- held writes

_HELD = "_tables_rows_held"


@contextmanager
def writes_held() -> Iterator[None]:
    """Hold ``save``'s UPDATEs back until the next statement, or the end of the block.

    For the table services, entered right inside their ``transaction.atomic``: a move's
    writes (its hand, the table's version) and the COMMIT then cost one round trip to
    PostgreSQL instead of three, and each round trip is also a wait for the GIL. Any other
    statement on the connection (an ORM query, a savepoint, a rollback to one) first sends
    what is held, so the order of statements is the code's. At the end of an outermost
    transaction the held UPDATEs and the COMMIT go in one pipeline; nested in another
    transaction, the UPDATEs go, and the outer block commits. On an exception nothing
    held is sent (the transaction is rolled back). Other databases write at once.
    """
    connection = _db()
    if connection.vendor != "postgresql" or getattr(connection, _HELD, None) is not None:
        yield
        return
    held: list[tuple[str, list[Any], Model | None]] = []
    setattr(connection, _HELD, held)
    try:
        with connection.execute_wrapper(_send_held_first):
            yield
        commit = (
            len(connection.atomic_blocks) == 1
            and not connection.savepoint_ids
            and not connection.needs_rollback
        )
        _send_held(connection, commit=commit)
    finally:
        held.clear()
        delattr(connection, _HELD)


def _send_held_first(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
) -> Any:
    _send_held(context["connection"])
    return execute(sql, params, many, context)


def _send_held(connection: BaseDatabaseWrapper, *, commit: bool = False) -> None:
    """Send the held UPDATEs (and with ``commit``, the COMMIT) in one pipeline."""
    held = getattr(connection, _HELD, None)
    if not held:
        return  # nothing held: the atomic block commits as usual
    writes = list(held)
    held.clear()
    connection.ensure_connection()
    raw = connection.connection
    try:
        with connection.wrap_database_errors:
            with raw.pipeline():
                for sql, params, _obj in writes:
                    raw.cursor().execute(sql, params)
                if commit:
                    # psycopg sends the COMMIT and the sync with the UPDATEs; the atomic
                    # block's own commit then finds the transaction closed and does nothing.
                    raw.commit()
    except DataError as exc:
        if isinstance(exc.__cause__, pg_errors.DivisionByZero):
            gone = ", ".join(
                f"{type(obj).__name__} {obj.pk}" for _sql, _params, obj in writes if obj is not None
            )
            raise ObjectDoesNotExist(f"a row to update is gone (one of {gone})") from exc
        raise
