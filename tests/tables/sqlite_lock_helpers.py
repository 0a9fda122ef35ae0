"""Run in a subprocess on a file-backed SQLite database (the embedded run's own setup: WAL,
``BEGIN IMMEDIATE``): writers on several threads at once, as daphne's threads and the
embedded Celery worker are, and what each of them met.

python -m tests.tables.sqlite_lock_helpers -> {"tournament_then_table": [...], ...}

Each list holds the errors its writers met (empty: none). The busy timeout is cut to two
seconds here, so a wait that would last the site's thirty shows up quickly.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

import django

BUSY_TIMEOUT_SECONDS = 2
WAIT_SECONDS = 10


def _threads(*work: Callable[[], None]) -> list[str]:
    """Run each on its own thread, with its own connection; the errors they raised."""
    from django.db import connections

    errors: list[str] = []

    def run(call: Callable[[], None]) -> None:
        try:
            call()
        except Exception as exc:  # noqa: BLE001 - reported, the test asserts
            errors.append(f"{call.__name__}: {type(exc).__name__}: {exc}")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(call,)) for call in work]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT_SECONDS * 3)
    return errors


def tournament_then_table() -> list[str]:
    """A tournament's transaction (it holds SQLite's write lock) calls a table service,
    while a move's table service, on another thread, is waiting for that lock: the order
    ``online_tables_release`` (the clock, the sweep) and a bot's move take them in."""
    from django.db import connection, transaction

    from tables import services
    from tables.models import Table

    stakes = services.Stakes(small_blind=1, big_blind=2)
    first, second = (
        services.tournament_table_open(
            name=f"Locks {n}",
            game="omaha",
            structure="no-limit",
            seat_count=6,
            stakes=stakes,
            sitters={},
        ).pk
        for n in (1, 2)
    )
    holding = threading.Event()  # the tournament's transaction has SQLite's write lock
    begun = threading.Event()  # the move's BEGIN IMMEDIATE is waiting for it

    def tournament() -> None:
        with transaction.atomic():
            Table.objects.filter(pk=first).update(name="Locks 1, held")
            holding.set()
            begun.wait(WAIT_SECONDS)
            services.table_hold(first)

    def move() -> None:
        holding.wait(WAIT_SECONDS)
        connection.ensure_connection()
        # sqlite3's statement trace runs as a statement starts, before it waits for a lock.
        connection.connection.set_trace_callback(
            lambda sql: begun.set() if sql.upper().startswith("BEGIN") else None
        )
        services.table_hold(second)

    return _threads(tournament, move)


def read_then_write() -> list[str]:
    """Two transactions that each read, then write: the second begins while the first
    has read and not yet written. A deferred BEGIN would let both read, and the first to
    write after the other's commit fails at once, whatever the busy timeout."""
    from django.contrib.auth.models import Group
    from django.db import transaction

    read = threading.Event()

    def first() -> None:
        with transaction.atomic():
            count = Group.objects.count()
            read.set()
            time.sleep(0.3)
            Group.objects.create(name=f"first after {count}")

    def second() -> None:
        read.wait(WAIT_SECONDS)
        with transaction.atomic():
            count = Group.objects.count()
            Group.objects.create(name=f"second after {count}")

    return _threads(first, second)


def main() -> dict[str, Any]:
    from django.conf import settings

    # Before any connection opens: the connections read their options when they connect.
    settings.DATABASES["default"]["OPTIONS"]["timeout"] = BUSY_TIMEOUT_SECONDS
    settings.TABLES_SCHEDULE_TASKS = False
    started = time.monotonic()
    found = {
        "tournament_then_table": tournament_then_table(),
        "read_then_write": read_then_write(),
    }
    return {**found, "seconds": round(time.monotonic() - started, 2)}


if __name__ == "__main__":
    django.setup()
    print(json.dumps(main()))
