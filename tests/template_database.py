"""Each test worker's database, copied from one migrated once instead of migrated anew.

pytest-django makes a worker's test database by running every migration into it, tens of
seconds of a shared core per worker on PostgreSQL and several on SQLite. The suite's workers
and the servers its tests start already copy a database migrated once for the current
migrations (``tests.tables.servers.migrated_sqlite``, ``tests.series.sites``); the test
databases are made the same way: a copy under the name the test settings give, which
Django then opens as a kept database (its ``migrate`` finds nothing left to do), and which
is dropped when the worker ends.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from tests.series.sites import postgres_database_migrated
from tests.tables.servers import migrated_sqlite, postgres_database_drop, server_env

# A RAM-backed folder where there is one: a test database's writes need no disk.
RAM = Path("/dev/shm")


def test_database_copy(settings_dict: dict[str, Any], worker: str) -> str:
    """Copy the migrated template into this worker's test database; return its name, which
    the caller puts in ``settings_dict["TEST"]["NAME"]``."""
    url = os.environ.get("DATABASE_URL", "")
    if settings_dict["ENGINE"] == "django.db.backends.postgresql":
        _url, name = postgres_database_migrated(url, f"test_{settings_dict['NAME']}_{worker}")
        return name
    folder = RAM if RAM.is_dir() and os.access(RAM, os.W_OK) else Path(tempfile.gettempdir())
    path = folder / f"poker-test-{worker}-{os.getpid()}.sqlite3"
    shutil.copyfile(migrated_sqlite(server_env()), path)
    return str(path)


def test_database_drop(settings_dict: dict[str, Any], name: str) -> None:
    if settings_dict["ENGINE"] == "django.db.backends.postgresql":
        postgres_database_drop(os.environ["DATABASE_URL"], name)
        return
    for suffix in ("", "-wal", "-shm"):
        Path(f"{name}{suffix}").unlink(missing_ok=True)
