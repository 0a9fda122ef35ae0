"""PostgreSQL connections that belong to an event loop, for the moves a socket server makes
without leaving it (``services.table_act_on_loop``).

Django's connections are blocking and belong to a thread: a socket's database work is
handed to a thread, and the thread's result handed back, two waits for the interpreter lock
behind an event loop that serves hundreds of sockets. A move from the rows a process keeps
(``tables.runtime.kept_rows``) needs one statement and nothing else; it is sent here, on an
asynchronous psycopg connection of the socket's own loop (psycopg's public
``AsyncConnection``, autocommit), so the loop goes on serving while PostgreSQL answers.

Their parameters are bound by the server, not merged into the statement's text as Django's
backend does: a move's statement is then the same text every time, and psycopg prepares it
after its first few runs (``prepare_threshold``), so PostgreSQL parses and plans it once per
connection instead of on every move.

Each running loop has up to ``SIZE`` connections, opened on first use from the site's
``DATABASES["default"]``; a connection that fails is closed and replaced on the next use.

Their commits are asynchronous (PostgreSQL's ``synchronous_commit = off``) unless the site
sets ``TABLES_MOVES_SYNCHRONOUS_COMMIT = True``: a move is told to the table once
PostgreSQL has committed it, without waiting for its flush to disk, which under load was
most of a move's wait. The database stays consistent whatever happens; a crash of
PostgreSQL itself (or of its machine) can take back the moves of its last fraction of a
second (at most three ``wal_writer_delay``), as if they had not been made, and the hands
go on from before them.

A process must then forget what it keeps of the tables (their rows, engines and states
may be ahead of the database): every connection it opens, Django's or a loop's, reads
when the database server started (``database_started``), and a new start sends
``database_restarted``. And a table's version can then come round again for another
change: its ``nonce`` tells the two apart (``tables.runtime.rows``).
"""

from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.dispatch import Signal

if TYPE_CHECKING:
    import psycopg

SIZE = 2

# OPTIONS keys that are Django's own (its backend takes them out before connecting).
_DJANGO_OPTIONS = {"isolation_level", "server_side_binding", "assume_role", "pool"}


class _Pool:
    def __init__(self) -> None:
        self.free: asyncio.Queue[psycopg.AsyncConnection[Any] | None] = asyncio.Queue()
        for _ in range(SIZE):
            self.free.put_nowait(None)
        self.opened: list[psycopg.AsyncConnection[Any]] = []


_POOLS: dict[asyncio.AbstractEventLoop, _Pool] = {}

# Sent (no arguments) when a connection of this process finds that the database server
# started again since an earlier connection's; receivers forget what they keep.
database_restarted = Signal()
STARTED_SQL = "SELECT pg_postmaster_start_time()"
_STARTED: list[Any] = []
_STARTED_LOCK = threading.Lock()


def database_started(at: Any) -> None:
    """Note when the database server started, as a new connection read it (``STARTED_SQL``);
    ``database_restarted`` if a connection of this process had read another time before."""
    with _STARTED_LOCK:
        restarted = bool(_STARTED) and _STARTED[0] != at
        _STARTED[:] = [at]
    if restarted:
        database_restarted.send(sender=None)


def _connection_kwargs() -> dict[str, Any]:
    db = settings.DATABASES["default"]
    kwargs: dict[str, Any] = {
        k: v
        for k, v in (db.get("OPTIONS") or {}).items()
        if k not in _DJANGO_OPTIONS and v is not None
    }
    for key, name in (
        ("dbname", "NAME"),
        ("user", "USER"),
        ("password", "PASSWORD"),
        ("host", "HOST"),
        ("port", "PORT"),
    ):
        if db.get(name):
            kwargs[key] = str(db[name])
    return kwargs


def _pool() -> _Pool:
    loop = asyncio.get_running_loop()
    pool = _POOLS.get(loop)
    if pool is None:
        pool = _POOLS[loop] = _Pool()
    return pool


async def execute(sql: str, params: list[Any]) -> int:
    """Run one statement in autocommit on a connection of this loop; its row count."""
    return (await _run(sql, params, fetch=False))[0]


async def fetchall(sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    """Run one query in autocommit on a connection of this loop; its rows, with values as
    Django's PostgreSQL backend would give them (JSON as text, times in UTC)."""
    return (await _run(sql, params, fetch=True))[1]


async def _connect() -> psycopg.AsyncConnection[Any]:
    import psycopg  # noqa: PLC0415 - see _run
    from psycopg.types.string import TextLoader  # noqa: PLC0415

    kwargs = _connection_kwargs()
    # The session's times in UTC and JSON left as text: what Django's backend sets up on its
    # own connections, so a model's fields load these rows as they load its own.
    options = f"{kwargs.get('options', '')} -c TimeZone=UTC"
    if not getattr(settings, "TABLES_MOVES_SYNCHRONOUS_COMMIT", False):
        options += " -c synchronous_commit=off"
    kwargs["options"] = options.strip()
    conn = await psycopg.AsyncConnection.connect(autocommit=True, **kwargs)
    conn.adapters.register_loader("jsonb", TextLoader)
    async with conn.cursor() as cursor:
        await cursor.execute(STARTED_SQL)
        started = await cursor.fetchone()
    database_started(started[0] if started else None)
    return conn


async def _run(sql: str, params: list[Any], *, fetch: bool) -> tuple[int, list[Any]]:
    # Imported here, not at the top: every process imports this module, and one on SQLite
    # never connects (psycopg costs a twelfth of its start).
    import psycopg  # noqa: PLC0415

    pool = _pool()
    conn = await pool.free.get()
    try:
        if conn is None or conn.closed:
            conn = await _connect()
            pool.opened = [c for c in pool.opened if not c.closed] + [conn]
        async with conn.cursor() as cursor:
            await cursor.execute(sql, params)
            found = (cursor.rowcount, await cursor.fetchall() if fetch else [])
    except psycopg.Error:
        # A broken connection is closed: a fresh one is opened on the next use.
        pool.free.put_nowait(None if conn is None or conn.closed else conn)
        raise
    except BaseException:
        # Cancelled mid-statement: the connection's state is unknown, so it is not reused.
        if conn is not None:
            await asyncio.shield(conn.close())
        pool.free.put_nowait(None)
        raise
    pool.free.put_nowait(conn)
    return found


def loop_db_forget() -> None:
    """Close every loop's connections now (tests, whose event loops come and go, and whose
    database cannot be dropped while a connection to it is open)."""
    pools = list(_POOLS.values())
    _POOLS.clear()
    for pool in pools:
        for conn in pool.opened:
            if not conn.closed:
                # psycopg's documented handle on the libpq connection: closing it needs no
                # event loop (the connection's own may be closed by now).
                conn.pgconn.finish()
