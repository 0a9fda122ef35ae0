"""Distributed mode: the Celery worker outlives a Redis restart, and the blind clock goes on.

Real processes, as in production: a private ``redis-server`` on a free port (never the
shared Redis the other tests use), ``celery -A config worker`` and ``celery -A config beat``
on it, two daphnes on it, and this test's PostgreSQL database. A clock's next level is pending in the worker as
a countdown task, as after a director starts the clock, when Redis stops and starts again on
the same port, empty (no persistence). The worker must still be running afterwards, the
heartbeat must come back, both daphnes must accept sockets and answer the health page, and
the level must change when its time is up: the task held
through the outage is gone with Redis, and the sweep on beat stores the change.

Celery 5.7.0 exited here with ``Unrecoverable error: AttributeError("'NoneType' object has
no attribute 'hostname'")`` (requirements.txt says why and what is pinned instead).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from celery import Celery
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

from series.models import WorkerHeartbeat
from tests.tables.servers import BASE_DIR, PYTHON, free_port, server_env, web_processes
from tests.tournaments.clock_helpers import ROW_LEVEL_1, ROW_LEVEL_2, reload
from tournaments.models import Tournament
from tournaments.services.clock.controls import clock_start

REDIS_SERVER = shutil.which("redis-server")

pytestmark = [
    pytest.mark.usefixtures("clock_tasks_off"),
    pytest.mark.distributed,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        REDIS_SERVER is None
        or not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
        reason="needs redis-server and a PostgreSQL DATABASE_URL (the worker's database)",
    ),
]

# Level 1 ends this long after the countdown task is sent: time for the outage, for the
# worker's reconnection (its retries wait 2 s, then 4 s) and for a slow shared machine.
LEVEL_ENDS_IN = 30.0


@dataclass
class PrivateRedis:
    port: int
    log: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert REDIS_SERVER is not None
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1"]
            + ["--save", "", "--appendonly", "no"],
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        wait_until(self.answers, 10, "redis-server did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def answers(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(port=self.port, socket_timeout=1).ping())
        except redis.RedisError:
            return False


def wait_until(condition: Callable[[], bool], seconds: float, failure: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(failure)
        time.sleep(0.2)


def start_celery(env: dict[str, str], log: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [PYTHON, "-m", "celery", "-A", "config", *args, "--loglevel", "INFO"],
        cwd=BASE_DIR,
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def end(process: subprocess.Popen[bytes]) -> None:
    """Warm shutdown, then SIGKILL to the process group (the worker's pool processes)."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(timeout=10)


@dataclass
class Celeries:
    redis: PrivateRedis
    worker: subprocess.Popen[bytes]
    beat: subprocess.Popen[bytes]
    worker_log: Path
    daphne_ports: list[int]

    def worker_said(self) -> str:
        return self.worker_log.read_text(errors="replace")[-6000:]


@pytest.fixture
def celery_on_private_redis(tmp_path: Path) -> Iterator[Celeries]:
    redis = PrivateRedis(port=free_port(), log=tmp_path / "redis.log")
    redis.start()
    db = connection.settings_dict
    database_url = (
        f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}"
        f":{db['PORT'] or 5432}/{db['NAME']}"
    )
    env = server_env(REDIS_URL=redis.url, DATABASE_URL=database_url)
    worker_log = tmp_path / "worker.log"
    worker = start_celery(env, worker_log, "worker", "--concurrency", "1")
    beat = start_celery(env, tmp_path / "beat.log", "beat", "-s", str(tmp_path / "schedule"))
    ports = [free_port(), free_port()]
    try:
        with web_processes(env, ports, tmp_path):
            yield Celeries(
                redis=redis, worker=worker, beat=beat, worker_log=worker_log, daphne_ports=ports
            )
    finally:
        for process in (beat, worker):
            end(process)
        redis.stop()


def daphne_serves(port: int) -> bool:
    """The daphne on ``port`` accepts a socket (its channel layer is on Redis), echoes on it,
    and answers the health page."""
    base = f"http://127.0.0.1:{port}"
    try:
        with connect(f"ws://127.0.0.1:{port}/ws/health/", origin=base, open_timeout=5) as ws:
            if json.loads(ws.recv(timeout=5))["type"] != "hello":
                return False
            ws.send(json.dumps({"type": "echo", "data": "after"}))
            if json.loads(ws.recv(timeout=5)) != {"type": "echo", "data": "after"}:
                return False
        with urllib.request.urlopen(f"{base}/health/", timeout=5) as response:
            return response.status == 200
    except (OSError, TimeoutError, ValueError, WebSocketException):
        return False


def heartbeat_after(moment: object) -> bool:
    return WorkerHeartbeat.objects.filter(seen_at__gt=moment).exists()


@pytest.mark.long
def test_the_worker_outlives_a_redis_restart_and_the_clock_goes_on(
    celery_on_private_redis: Celeries, clock_tournament: Tournament, director: User
) -> None:
    celeries = celery_on_private_redis
    started = timezone.now()
    wait_until(
        lambda: heartbeat_after(started),
        90,
        f"no heartbeat from the worker before the restart:\n{celeries.worker_said()}",
    )

    # Level 1 (20 minutes) ends LEVEL_ENDS_IN seconds from now; the countdown task for its
    # end goes to the worker as schedule_clock sends it, and the worker holds it unacked.
    ends_at = timezone.now() + timedelta(seconds=LEVEL_ENDS_IN)
    tournament = clock_start(clock_tournament.pk, by=director, now=ends_at - timedelta(minutes=20))
    # Not set as the current app: the tasks' proxies of later tests in this process must still
    # resolve to the site's app (and its broker).
    with Celery("probe", broker=celeries.redis.url, set_as_current=False) as probe:
        probe.send_task(
            "tournaments.tasks.clock_tick_task",
            args=(tournament.pk, ROW_LEVEL_1, tournament.clock_version),
            countdown=LEVEL_ENDS_IN,
        )
    time.sleep(2)  # the worker receives it and keeps it for its time

    celeries.redis.stop()
    time.sleep(2)
    celeries.redis.start()
    restarted = timezone.now()

    wait_until(
        lambda: heartbeat_after(restarted) or celeries.worker.poll() is not None,
        60,
        f"no heartbeat after the restart:\n{celeries.worker_said()}",
    )
    assert celeries.worker.poll() is None, f"the worker exited:\n{celeries.worker_said()}"
    for port in celeries.daphne_ports:
        wait_until(lambda port=port: daphne_serves(port), 30, f"daphne :{port} did not recover")

    if timezone.now() < ends_at:
        assert reload(tournament).level_index == ROW_LEVEL_1
    wait_until(
        lambda: reload(tournament).level_index == ROW_LEVEL_2,
        max(0.0, (ends_at - timezone.now()).total_seconds()) + 15,
        f"level 2 was not stored after its time:\n{celeries.worker_said()}",
    )
    assert reload(tournament).level_ends_at == ends_at + timedelta(minutes=20)
    assert celeries.worker.poll() is None and celeries.beat.poll() is None
