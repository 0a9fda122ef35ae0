"""The embedded run's SQLite under writers on several threads: none fails with "database is
locked", and a table task that meets it anyway is retried, not dropped.

The lock tests run in a subprocess on a file-backed copy of the test database (the suite's
own SQLite database lives in memory, with other locking rules); PostgreSQL has no such
locks, so they are skipped there.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
from typing import Any

import pytest
from django.db import OperationalError, connection

from tables import tasks
from tests.tables.servers import BASE_DIR, PYTHON, server_env

# Also how pytest-django knows this module needs the test database set up.
pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def sqlite_run(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """What the writers of ``tests.tables.sqlite_lock_helpers`` met, on a file copy of the
    test database (its schema, without running the migrations again)."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's locks: the embedded run's database")
    path = tmp_path_factory.mktemp("sqlite-locks") / "locks.sqlite3"
    # Copied outside any test's transaction: a backup waits while its source is written.
    with django_db_blocker.unblock():
        connection.ensure_connection()
        copy = sqlite3.connect(path)
        try:
            connection.connection.backup(copy)
        finally:
            copy.close()
    env = server_env(DATABASE_URL=f"sqlite:///{path}")
    env.pop("REDIS_URL", None)
    result = subprocess.run(
        [PYTHON, "-m", "tests.tables.sqlite_lock_helpers"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_a_tournament_transaction_and_a_move_never_wait_on_each_other(
    sqlite_run: dict[str, Any],
) -> None:
    # The move held the process's table-writer lock and waited for SQLite's; the
    # tournament held SQLite's and waited for the table-writer lock: the move failed after
    # the busy timeout, and so did every writer waiting behind them.
    assert sqlite_run["tournament_then_table"] == []


def test_transactions_that_read_then_write_wait_for_each_other(
    sqlite_run: dict[str, Any],
) -> None:
    # settings.py: "transaction_mode": "IMMEDIATE". A deferred BEGIN fails the second
    # writer at once (its snapshot is stale), whatever the busy timeout.
    assert sqlite_run["read_then_write"] == []


def locked_once(calls: list[Any]) -> Any:
    def service(*args: Any) -> bool:
        calls.append(args)
        if len(calls) == 1:
            raise OperationalError("database is locked")
        return True

    return service


@pytest.mark.parametrize(
    ("task", "service"),
    [(tasks.table_tick_task, "table_tick"), (tasks.bot_move_task, "bot_move")],
)
def test_a_table_task_that_meets_a_locked_database_is_retried(
    task: Any, service: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[Any] = []
    monkeypatch.setattr(tasks, service, locked_once(calls))
    result = task.apply((7,))  # eager: the retry runs at once, in place
    assert calls == [(7,), (7,)]
    assert result.successful()
