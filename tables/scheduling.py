"""Ask Celery, after the commit, to tick a table or move its house bot a little later.

The services call these; the tasks themselves live in ``tables.tasks``, above the services,
so they are sent by name (Celery's public ``send_task``) and this module imports neither.
Countdowns are short; the periodic sweep catches whatever a lost task missed.
"""

from __future__ import annotations

import logging
import os
import threading
from concurrent.futures import ThreadPoolExecutor

from celery import current_app
from django.conf import settings
from django.db import transaction

from tables.timing import bot_think_seconds

TICK_TASK = "tables.tasks.table_tick_task"
BOT_TASK = "tables.tasks.bot_move_task"

logger = logging.getLogger(__name__)


def _scheduling() -> bool:
    # Tests drive the clock by calling the services with an explicit `now`.
    return bool(getattr(settings, "TABLES_SCHEDULE_TASKS", True))


# The sends are handed to one thread of this process: a send is a round trip to the broker
# and the move that asked for it would otherwise wait for it before its own broadcast (the
# commit's callbacks run in order, and the move's news is the last of them).
# Made on first use in each process: a Celery worker forks its children after import.
_sender: tuple[int, ThreadPoolExecutor] | None = None
_sender_lock = threading.Lock()


def _sender_pool() -> ThreadPoolExecutor:
    global _sender
    with _sender_lock:
        if _sender is None or _sender[0] != os.getpid():
            _sender = (
                os.getpid(),
                ThreadPoolExecutor(max_workers=1, thread_name_prefix="tables-scheduler"),
            )
        return _sender[1]


def _send(name: str, table_id: int, countdown: float) -> None:
    try:
        # Nobody waits for these tasks' results (they are ``ignore_result``, which a send by
        # name does not know): without it, every send subscribes to a result that never comes.
        current_app.send_task(name, (table_id,), countdown=countdown, ignore_result=True)
    except Exception:  # noqa: BLE001 - the periodic sweep does what a lost task would have
        logger.exception("sending %s for table %s failed", name, table_id)


def _after_commit(name: str, table_id: int, countdown: float) -> None:
    transaction.on_commit(lambda: _sender_pool().submit(_send, name, table_id, countdown))


def schedule_tick(table_id: int, countdown: float) -> None:
    if _scheduling():
        _after_commit(TICK_TASK, table_id, countdown)


def schedule_bot(table_id: int) -> None:
    if _scheduling():
        _after_commit(BOT_TASK, table_id, bot_think_seconds())


def schedule_tick_now(table_id: int, countdown: float) -> None:
    """``schedule_tick`` for a change already written outside any transaction (on an event
    loop: see ``schedule_bot_now``)."""
    if _scheduling():
        _sender_pool().submit(_send, TICK_TASK, table_id, countdown)


def schedule_bot_now(table_id: int) -> None:
    """``schedule_bot`` for a move already written outside any transaction (on an event
    loop, where Django's ``on_commit`` may not be asked: it would touch the connection)."""
    if _scheduling():
        _sender_pool().submit(_send, BOT_TASK, table_id, bot_think_seconds())
