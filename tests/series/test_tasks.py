"""Tasks go through the configured broker to a real worker.

With REDIS_URL set that is the Redis broker (what `celery -A config worker` uses); without
it, the in-memory broker of embedded mode, with the worker and beat that `manage.py serve`
starts in its own process.
"""

import uuid

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings

from config.celery import app
from series.tasks import ping


def test_a_task_runs_on_a_worker_through_the_configured_broker() -> None:
    # A queue of its own, so parallel test processes sharing one Redis never take its task.
    queue = f"test-{uuid.uuid4().hex}"
    with start_worker(app, pool="solo", perform_ping_check=False, queues=[queue]):
        token = uuid.uuid4().hex
        result = ping.apply_async(args=[token], queue=queue)
        assert result.get(timeout=20) == f"pong:{token}"
    expected = settings.REDIS_URL or "memory://localhost/"
    assert app.conf.broker_url == expected


@pytest.mark.skipif(not settings.EMBEDDED, reason="embedded mode only (REDIS_URL is set)")
def test_embedded_mode_runs_worker_and_beat_inside_the_process() -> None:
    from config.embedded import embedded_celery_start

    embedded = embedded_celery_start()
    try:
        assert embedded.worker_thread.is_alive() and embedded.beat.is_alive()
        token = uuid.uuid4().hex
        # A worker in the process marks it as "inside a worker", where Celery forbids
        # waiting on results; the test waits anyway, knowing the task runs on another thread.
        result = ping.delay(token).get(timeout=20, disable_sync_subtasks=False)
        assert result == f"pong:{token}"
    finally:
        embedded.stop()
    assert not embedded.worker_thread.is_alive()


def test_a_distributed_worker_keeps_its_database_connections_between_tasks(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Each task opening a PostgreSQL connection of its own cost a server process per task."""
    from celery.signals import task_postrun
    from django.db import connections

    from config import celery as series_celery

    before = {k: connections.settings["default"][k] for k in ("CONN_MAX_AGE", "CONN_HEALTH_CHECKS")}
    monkeypatch.setattr(settings, "EMBEDDED", True)
    series_celery._keep_database_connections()
    assert connections.settings["default"]["CONN_MAX_AGE"] == before["CONN_MAX_AGE"]
    monkeypatch.setattr(settings, "EMBEDDED", False)
    try:
        series_celery._keep_database_connections()
        assert connections.settings["default"]["CONN_MAX_AGE"] == 600
        assert connections.settings["default"]["CONN_HEALTH_CHECKS"] is True
    finally:
        connections.settings["default"].update(before)
        task_postrun.disconnect(series_celery._drop_broken)
