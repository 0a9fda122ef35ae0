"""Small idempotent tasks: tick a table (time-outs, the next hand), move a house bot, sweep.

The services schedule them by name (``tables.scheduling``). Each task takes ids and calls a
service that re-reads the table under its lock, so running a task twice, late, or after a
restart changes nothing the second time. Countdowns are
short; the periodic ``tables_sweep`` (on beat every second) applies passed turn deadlines
(there is no timer task per turn) and catches whatever a lost task missed, from the
timestamps stored on the rows.
"""

from __future__ import annotations

import logging

from celery import shared_task

from core.tasks import RETRIED_ON_DATABASE_ERRORS
from tables.bots import bot_move
from tables.errors import TableError
from tables.services import (
    servers_forget_gone,
    table_tick,
    tables_due,
    tables_waiting_on_bots,
)
from tables.timing import bot_think_seconds

logger = logging.getLogger(__name__)


@shared_task(ignore_result=True, **RETRIED_ON_DATABASE_ERRORS)
def table_tick_task(table_id: int) -> None:
    try:
        table_tick(table_id)
    except TableError:
        logger.info("tick for table %s: no such table", table_id)


@shared_task(ignore_result=True, **RETRIED_ON_DATABASE_ERRORS)
def bot_move_task(table_id: int) -> None:
    bot_move(table_id)


@shared_task(ignore_result=True)
def tables_sweep() -> None:
    """Apply due time-outs and start due hands; nudge bots whose task was lost; forget the
    sockets of server processes that stopped without closing them."""
    for table_id in tables_due():
        try:
            table_tick(table_id)
        except TableError:
            continue
        except Exception:
            logger.exception("sweep: tick of table %s failed", table_id)
    for table_id in tables_waiting_on_bots(after_seconds=bot_think_seconds() + 2):
        try:
            bot_move(table_id)
        except Exception:
            logger.exception("sweep: bot move at table %s failed", table_id)
    try:
        servers_forget_gone()
    except Exception:
        logger.exception("sweep: forgetting the sockets of stopped servers failed")
