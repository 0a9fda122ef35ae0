"""Is the site's background work running? The worker's heartbeat and the health report.

Beat sends ``series.tasks.worker_heartbeat`` every ``WORKER_HEARTBEAT_SECONDS`` and the
worker that runs it stores the time. The blind clock's sweep, the tables' time-outs and the
house bots need the same beat and worker, so a heartbeat older than
``WORKER_SILENT_AFTER_SECONDS`` means they have stopped too: the health page and the
director's pages say so, where before a dead worker left the clock standing without a word.

Redis is checked through the cache, which shares ``REDIS_URL`` with the channel layer and
the broker: while it is away live updates pause, and pages carry on without them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import gettext as _
from redis.exceptions import RedisError

from series.models import WorkerHeartbeat

# The one row the heartbeat rewrites: "a worker ran a task", whichever worker it was.
HEARTBEAT_ROW = 1


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
class HealthReport:
    worker: WorkerHealth
    # None in embedded mode, where nothing uses Redis.
    redis_up: bool | None

    @property
    def degraded(self) -> bool:
        return self.worker.silent or self.redis_up is False


def worker_heartbeat_record(hostname: str, now: datetime | None = None) -> None:
    """Store that the worker ``hostname`` ran a task at ``now``."""
    WorkerHeartbeat.objects.update_or_create(
        pk=HEARTBEAT_ROW, defaults={"hostname": hostname, "seen_at": now or timezone.now()}
    )


def worker_health(now: datetime | None = None) -> WorkerHealth:
    row = WorkerHeartbeat.objects.filter(pk=HEARTBEAT_ROW).first()
    if row is None:
        return WorkerHealth(hostname=None, seen_at=None, seconds_ago=None, silent=True)
    seconds = max(0, int(((now or timezone.now()) - row.seen_at).total_seconds()))
    return WorkerHealth(
        hostname=row.hostname,
        seen_at=row.seen_at,
        seconds_ago=seconds,
        silent=seconds > settings.WORKER_SILENT_AFTER_SECONDS,
    )


def redis_is_up() -> bool | None:
    """Whether Redis answers (None in embedded mode, which has no Redis)."""
    if settings.EMBEDDED:
        return None
    try:
        cache.get("series:health:probe")
    except RedisError:
        return False
    return True


def health_report(now: datetime | None = None) -> HealthReport:
    return HealthReport(worker=worker_health(now), redis_up=redis_is_up())
