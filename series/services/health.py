"""Is the site running? The heartbeat of beat and the worker, and the checks of ``/health/``.

Beat sends ``series.tasks.worker_heartbeat`` every 5 s (``CELERY_BEAT_SCHEDULE``): as it sends
it, beat stores the time (``beat_tick_record``, from Celery's ``after_task_publish`` signal
in the sending process), and the worker that runs it stores the time again
(``worker_heartbeat_record``). The blind clock's sweep, the tables' time-outs and the house
bots need the same beat and worker, so a time older than ``WORKER_SILENT_AFTER_SECONDS``
means they have stopped too: the health page says so, and which of the two it is; the
director's pages warn when no worker has run the heartbeat (a stopped beat soon shows there
too, as the worker only runs what beat sends).

``health_report`` runs one check per part the site needs, all at once, each with its own
time limit (``CHECK_TIMEOUT_SECONDS``), so the page answers within about two seconds even
when Redis or the database hangs instead of refusing:

- ``database``: a trivial query;
- ``channel_layer``: a message sent to a fresh channel and received back, through the layer's
  public API (channels-redis in distributed mode, the in-memory layer in embedded mode);
- ``broker``: a connection to Celery's broker (Redis, or Kombu's in-memory transport in
  embedded mode), opened the way Celery opens it;
- ``beat``: when beat last sent the heartbeat;
- ``worker``: when a worker last ran it.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from asgiref.sync import sync_to_async
from celery import current_app
from celery.signals import after_task_publish
from channels.layers import BaseChannelLayer, get_channel_layer
from django.conf import settings
from django.db import DatabaseError, connection
from django.utils import timezone
from django.utils.translation import gettext as _

from series.models import WorkerHeartbeat

logger = logging.getLogger(__name__)

# The heartbeat task's name, as beat's schedule (settings.CELERY_BEAT_SCHEDULE) sends it.
HEARTBEAT_TASK = "series.tasks.worker_heartbeat"

# The one row the heartbeat rewrites: "beat sent it, a worker ran it", whichever they were.
HEARTBEAT_ROW = 1

# Every check together must answer well inside a proxy's usual 2-5 s health-check timeout;
# the checks run side by side, so the page takes about one of these at worst.
CHECK_TIMEOUT_SECONDS = 1.5

# Two: a broker that hangs past the time limit holds one, and the next page still gets
# an answer from the other.
_BROKER_THREADS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="health-broker")

CHECKS = ("database", "channel_layer", "broker", "beat", "worker")


class HealthProblem(Exception):
    """A part that answered, but wrongly: ``text`` says what is wrong, ``facts`` what the
    check found."""

    def __init__(self, text: str, facts: dict[str, Any] | None = None) -> None:
        super().__init__(text)
        self.text = text
        self.facts = facts or {}


@dataclass(frozen=True)
class WorkerHealth:
    """When a worker last ran the heartbeat, and whether that is too long ago."""

    hostname: str | None
    seen_at: datetime | None
    seconds_ago: int | None
    silent: bool

    @property
    def text(self) -> str:
        if self.seconds_ago is None:
            return _("worker: never seen")
        return _("worker: last seen %(seconds)s s ago") % {"seconds": self.seconds_ago}


@dataclass(frozen=True)
class BeatHealth:
    """When beat last sent the heartbeat, and whether that is too long ago."""

    sent_at: datetime | None
    seconds_ago: int | None
    silent: bool

    @property
    def text(self) -> str:
        if self.seconds_ago is None:
            return _("beat: never seen")
        return _("beat: last tick %(seconds)s s ago") % {"seconds": self.seconds_ago}


@dataclass(frozen=True)
class Check:
    """One part's answer: ``ok``, how long it took, and what went wrong (or what it found)."""

    name: str
    ok: bool
    milliseconds: int
    error: str = ""
    facts: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class HealthReport:
    checks: dict[str, Check]

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks.values())

    @property
    def failing(self) -> list[str]:
        return [name for name, check in self.checks.items() if not check.ok]


def worker_heartbeat_record(hostname: str, now: datetime | None = None) -> None:
    """Store that the worker ``hostname`` ran the heartbeat at ``now``."""
    WorkerHeartbeat.objects.update_or_create(
        pk=HEARTBEAT_ROW, defaults={"hostname": hostname, "seen_at": now or timezone.now()}
    )


def beat_tick_record(now: datetime | None = None) -> None:
    """Store that beat sent the heartbeat at ``now``.

    Runs in beat's process, which has no request cycle to close its connection: a
    connection that failed is closed here, so the next tick opens a fresh one instead of
    failing on the broken one until beat restarts. A failure is logged, never raised: beat
    must go on sending the site's periodic work whether or not its tick is stored.
    """
    try:
        WorkerHeartbeat.objects.update_or_create(
            pk=HEARTBEAT_ROW, defaults={"beat_sent_at": now or timezone.now()}
        )
    except DatabaseError:
        logger.warning("Could not store beat's tick.", exc_info=True)
        connection.close()


@after_task_publish.connect(sender=HEARTBEAT_TASK, dispatch_uid="series.beat_tick")
def _beat_ticked(**kwargs: Any) -> None:
    """Beat has handed the heartbeat to the broker: store when. Celery runs this receiver
    in the process that sent the task, and only beat sends the heartbeat; connected here,
    beside the record it writes, because every Celery process imports this module (through
    ``series.tasks``), beat's included."""
    beat_tick_record()


def _silent_after() -> int:
    return int(settings.WORKER_SILENT_AFTER_SECONDS)


def _seconds_since(moment: datetime, now: datetime | None) -> int:
    return max(0, int(((now or timezone.now()) - moment).total_seconds()))


def worker_health(now: datetime | None = None) -> WorkerHealth:
    row = WorkerHeartbeat.objects.filter(pk=HEARTBEAT_ROW).first()
    if row is None or row.seen_at is None:
        return WorkerHealth(hostname=None, seen_at=None, seconds_ago=None, silent=True)
    seconds = _seconds_since(row.seen_at, now)
    return WorkerHealth(
        hostname=row.hostname,
        seen_at=row.seen_at,
        seconds_ago=seconds,
        silent=seconds > _silent_after(),
    )


def beat_health(now: datetime | None = None) -> BeatHealth:
    row = WorkerHeartbeat.objects.filter(pk=HEARTBEAT_ROW).first()
    if row is None or row.beat_sent_at is None:
        return BeatHealth(sent_at=None, seconds_ago=None, silent=True)
    seconds = _seconds_since(row.beat_sent_at, now)
    return BeatHealth(
        sent_at=row.beat_sent_at, seconds_ago=seconds, silent=seconds > _silent_after()
    )


def database_check() -> None:
    """The database answers a trivial query."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def worker_check(now: datetime | None = None) -> dict[str, Any]:
    worker = worker_health(now)
    facts = {
        "status": "never-seen" if worker.seen_at is None else "silent" if worker.silent else "ok",
        "hostname": worker.hostname,
        "last_seen": worker.seen_at.isoformat() if worker.seen_at else None,
        "seconds_ago": worker.seconds_ago,
        "text": worker.text,
    }
    if worker.silent:
        raise HealthProblem(worker.text, facts)
    return facts


def beat_check(now: datetime | None = None) -> dict[str, Any]:
    beat = beat_health(now)
    facts = {
        "status": "never-seen" if beat.sent_at is None else "silent" if beat.silent else "ok",
        "last_tick": beat.sent_at.isoformat() if beat.sent_at else None,
        "seconds_ago": beat.seconds_ago,
        "text": beat.text,
    }
    if beat.silent:
        raise HealthProblem(beat.text, facts)
    return facts


async def channel_layer_check() -> dict[str, Any]:
    """A message to a fresh channel of the configured layer comes back."""
    layer = get_channel_layer()
    if layer is None:
        raise HealthProblem(_("no channel layer is configured"))
    facts = {"backend": type(layer).__name__}
    channel = await layer.new_channel("health.")
    token = secrets.token_hex(8)
    receiving = asyncio.ensure_future(layer.receive(channel))
    try:
        # Sent again while nothing came back: channels-redis subscribes on one connection
        # and publishes on another, so the first probe can reach Redis before the
        # subscription does and be lost.
        while not receiving.done():
            await layer.send(channel, {"type": "health.probe", "token": token})
            await asyncio.wait({receiving}, timeout=0.2)
        if receiving.result().get("token") != token:
            raise HealthProblem(_("the channel layer returned another message"))
    finally:
        if not receiving.done():
            receiving.cancel()
            with suppress(asyncio.CancelledError):
                await receiving
        else:
            await _channel_let_go(layer, channel)
    return facts


async def _channel_let_go(layer: BaseChannelLayer, channel: str) -> None:
    """Forget ``channel``: the channel layer API has no call for it, and cancelling a
    receive is how both layers learn that its reader is gone (channels-redis unsubscribes,
    the in-memory layer drops the empty queue), as when a socket closes. A repeated probe
    that arrives meanwhile is read and dropped first."""
    for _attempt in range(3):
        waiting = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(0)
        if waiting.done():
            continue
        waiting.cancel()
        with suppress(asyncio.CancelledError):
            await waiting
        return


def broker_check() -> dict[str, Any]:
    """Celery's broker accepts a connection: one try, with short socket time limits, so a
    Redis that is down answers "no" at once instead of after Celery's usual retries."""
    limits = {"socket_connect_timeout": 1.0, "socket_timeout": 1.0}
    with current_app.connection_for_write(transport_options=limits) as broker:
        broker.ensure_connection(max_retries=1, interval_start=0, timeout=CHECK_TIMEOUT_SECONDS)
        return {"transport": broker.transport_cls}


def _checks_run(work: dict[str, Callable[[], dict[str, Any] | None]]) -> list[Check]:
    """Run synchronous checks one after the other; each one's error is that part failing."""
    checks = []
    for name, check in work.items():
        started = time.monotonic()
        try:
            facts = check() or {}
        except HealthProblem as problem:
            checks.append(_failed(name, started, problem.text, problem.facts))
        except Exception as error:  # noqa: BLE001 - any error of a part is that part failing
            checks.append(_failed(name, started, _error_text(error)))
        else:
            checks.append(Check(name, True, _ms(started), facts=facts))
    return checks


async def _channel_layer_checks() -> list[Check]:
    started = time.monotonic()
    try:
        facts = await channel_layer_check()
    except HealthProblem as problem:
        return [_failed("channel_layer", started, problem.text, problem.facts)]
    except Exception as error:  # noqa: BLE001 - any error of a part is that part failing
        return [_failed("channel_layer", started, _error_text(error))]
    return [Check("channel_layer", True, _ms(started), facts=facts)]


async def _broker_checks() -> list[Check]:
    """The broker's check on threads of its own: not on the thread the database's checks
    share, which a hung broker would hold, nor on the event loop's default executor, whose
    closing (a test's loop, a management command's) would wait for it."""
    context = contextvars.copy_context()  # the request's language, for the messages
    return await asyncio.get_running_loop().run_in_executor(
        _BROKER_THREADS, context.run, _checks_run, {"broker": broker_check}
    )


async def _in_time(names: list[str], checking: Awaitable[list[Check]]) -> list[Check]:
    """``checking``'s answers, or each of ``names`` failed when it takes too long."""
    started = time.monotonic()
    try:
        return await asyncio.wait_for(checking, CHECK_TIMEOUT_SECONDS)
    except TimeoutError:
        no_answer = _("no answer within %(seconds)s s") % {"seconds": CHECK_TIMEOUT_SECONDS}
        return [_failed(name, started, no_answer) for name in names]


def _failed(name: str, started: float, error: str, facts: dict[str, Any] | None = None) -> Check:
    return Check(name, False, _ms(started), error=error, facts=facts or {})


def _ms(started: float) -> int:
    return round((time.monotonic() - started) * 1000)


def _error_text(error: BaseException) -> str:
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


async def health_report(names: Iterable[str] = CHECKS, now: datetime | None = None) -> HealthReport:
    """Run the checks ``names`` (all of them by default) side by side; a part that does
    not answer within ``CHECK_TIMEOUT_SECONDS`` has failed."""
    wanted = set(names)
    unknown = wanted - set(CHECKS)
    if unknown:
        raise ValueError(f"unknown checks: {sorted(unknown)}")
    parts: list[Awaitable[list[Check]]] = []
    reads: dict[str, Callable[[], dict[str, Any] | None]] = {
        "database": database_check,
        "beat": lambda: beat_check(now),
        "worker": lambda: worker_check(now),
    }
    reads = {name: check for name, check in reads.items() if name in wanted}
    if reads:
        # The checks that read the database run one after the other on the thread
        # Django's database calls share, as every database call of an async view should.
        parts.append(_in_time(list(reads), sync_to_async(_checks_run)(reads)))
    if "channel_layer" in wanted:
        parts.append(_in_time(["channel_layer"], _channel_layer_checks()))
    if "broker" in wanted:
        parts.append(_in_time(["broker"], _broker_checks()))
    answers = await asyncio.gather(*parts)
    checks = {check.name: check for answer in answers for check in answer}
    return HealthReport(checks={name: checks[name] for name in CHECKS if name in checks})
