"""What the apps' Celery tasks share.

A task takes ids and re-reads its rows in one transaction, so running it again after a
failure is safe; what to do when the database refused it for a while is one policy here.
"""

from __future__ import annotations

from typing import Any

from django.db import OperationalError

# The scheduled tasks' answer to a database that refused them for a while (SQLite's
# "database is locked" after its busy timeout, a PostgreSQL connection lost): run again
# 1, 2, 4 ... 30 s later (jittered), for some ten minutes, rather than leave a table's tick
# or a bot's move to the sweep, or a clock's level change to the next one. A failed run's
# transaction rolled back and every task re-reads its rows, so running again is safe.
# (``shared_task(**RETRIED_ON_DATABASE_ERRORS)``; the periodic sweeps have none: beat sends
# the next one within seconds.)
RETRIED_ON_DATABASE_ERRORS: dict[str, Any] = {
    "autoretry_for": (OperationalError,),
    "retry_backoff": 1,
    "retry_backoff_max": 30,
    "retry_jitter": True,
    "max_retries": 20,
}
