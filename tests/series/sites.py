"""Migrated PostgreSQL databases for the tests that run ``manage.py`` in subprocesses.

``manage.py migrate`` into an empty PostgreSQL database took 17 s of the suite's two cores
for each such test; a copy of a database migrated once (``CREATE DATABASE ... TEMPLATE``)
takes under a second. The migrated database is kept on the server under a name made from
the migrations, so the suite's workers, and the next runs, build it once between them
(``tests.tables.servers`` does the same for SQLite with a file).
"""

from __future__ import annotations

import fcntl
import tempfile
import uuid
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import psycopg

from tests.tables.servers import manage, migrations_key, server_env


def database_url(url: str, name: str) -> str:
    return urlunparse(urlparse(url)._replace(path=f"/{name}"))


def postgres_database_migrated(url: str, prefix: str) -> tuple[str, str]:
    """A new PostgreSQL database holding a freshly migrated site, on the server of ``url``: its
    URL and its name (drop it with ``postgres_database_drop``)."""
    template = f"poker_migrated_{migrations_key()}"
    lock = Path(tempfile.gettempdir()) / f"{template}.lock"
    # The first worker to come builds the template, the others wait; copies wait for no one
    # connected to the template, so they are made under the lock as well.
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        with psycopg.connect(url, autocommit=True) as admin:
            found = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (template,))
            if found.fetchone() is None:
                # Built under another name and renamed when whole: a run killed halfway leaves
                # no template that looks finished.
                building = f"{template}_building"
                admin.execute(f'DROP DATABASE IF EXISTS "{building}" WITH (FORCE)')
                admin.execute(f'CREATE DATABASE "{building}"')
                env = server_env(DATABASE_URL=database_url(url, building))
                manage(env, "migrate", "--noinput", "-v", "0")
                admin.execute(f'ALTER DATABASE "{building}" RENAME TO "{template}"')
            name = f"{prefix}_{uuid.uuid4().hex[:8]}"
            admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    return database_url(url, name), name
