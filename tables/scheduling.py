"""Ask Celery, after the commit, to tick a table or move its house bot a little later.

The services call these; the tasks themselves live in ``tables.tasks``, above the services,
so they are sent by name (Celery's public ``send_task``) and this module imports neither.
Countdowns are short; the periodic sweep catches whatever a lost task missed.
"""

from __future__ import annotations

from celery import current_app
from django.conf import settings
from django.db import transaction

from tables.timing import bot_think_seconds

TICK_TASK = "tables.tasks.table_tick_task"
BOT_TASK = "tables.tasks.bot_move_task"


def _scheduling() -> bool:
    # Tests drive the clock by calling the services with an explicit `now`.
    return bool(getattr(settings, "TABLES_SCHEDULE_TASKS", True))


def schedule_tick(table_id: int, countdown: float) -> None:
    if _scheduling():
        transaction.on_commit(
            lambda: current_app.send_task(TICK_TASK, (table_id,), countdown=countdown)
        )


def schedule_bot(table_id: int) -> None:
    if _scheduling():
        transaction.on_commit(
            lambda: current_app.send_task(BOT_TASK, (table_id,), countdown=bot_think_seconds())
        )
