"""Tasks go through the configured broker to a real worker.

With REDIS_URL set that is the Redis broker (what `celery -A config worker` uses); without
it, the in-memory broker of embedded mode, with the worker and beat that `manage.py serve`
starts in its own process.
"""

import logging
import uuid
from collections.abc import Iterator

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.db import connection, connections

from config.celery import app
from series.tasks import ping

# Tasks that exist for these tests only: registered in this process, and run by the workers
# started here on queues of their own.


@app.task(name="tests.series.test_tasks.database_backend")
def database_backend() -> int:
    """The PostgreSQL server process behind the worker's connection."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


@app.task(name="tests.series.test_tasks.database_backend_terminate")
def database_backend_terminate() -> None:
    """The connection's server process ends under the task, as in a PostgreSQL restart."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")


@app.task(name="tests.series.test_tasks.database_connection_close")
def database_connection_close() -> None:
    connection.close()


@pytest.fixture(autouse=True)
def site_connection_lifetime() -> Iterator[None]:
    """A worker started here sets its process up as a worker's (``worker_init``); the tests
    that follow in this process go on with the site's connection lifetime."""
    keys = ("CONN_MAX_AGE", "CONN_HEALTH_CHECKS")
    before = {
        alias: {key: connections.settings[alias][key] for key in keys} for alias in connections
    }
    yield
    for alias, values in before.items():
        connections.settings[alias].update(values)


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

    site_lifetime = connection.settings_dict["CONN_MAX_AGE"]
    # A worker takes the root logger over as it starts (Celery's hijack, as in a served site):
    # its handler would print every later warning of this test process to the terminal.
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    embedded = embedded_celery_start()
    try:
        assert embedded.worker_thread.is_alive() and embedded.beat.is_alive()
        # The worker shares its process with daphne: connections keep the site's lifetime.
        assert connection.settings_dict["CONN_MAX_AGE"] == site_lifetime
        token = uuid.uuid4().hex
        # A worker in the process marks it as "inside a worker", where Celery forbids
        # waiting on results; the test waits anyway, knowing the task runs on another thread.
        result = ping.delay(token).get(timeout=20, disable_sync_subtasks=False)
        assert result == f"pong:{token}"
    finally:
        embedded.stop()
        root.handlers[:] = handlers
        root.setLevel(level)
    assert not embedded.worker_thread.is_alive()


@pytest.mark.distributed
@pytest.mark.skipif(
    settings.EMBEDDED or connection.vendor != "postgresql",
    reason="distributed mode only: needs REDIS_URL and a PostgreSQL DATABASE_URL",
)
@pytest.mark.django_db(transaction=True)
def test_a_distributed_worker_keeps_its_database_connection_and_replaces_a_broken_one() -> None:
    """Each task opening a PostgreSQL connection of its own cost a server process per task;
    a connection kept between tasks must not outlive its server process either."""
    queue = f"test-{uuid.uuid4().hex}"
    with start_worker(app, pool="solo", perform_ping_check=False, queues=[queue]):
        try:
            first = database_backend.apply_async(queue=queue).get(timeout=20)
            assert database_backend.apply_async(queue=queue).get(timeout=20) == first
            terminated = database_backend_terminate.apply_async(queue=queue)
            terminated.get(timeout=20, propagate=False)
            assert terminated.failed()  # the task saw its connection die
            replaced = database_backend.apply_async(queue=queue).get(timeout=20)
            assert replaced != first
            assert database_backend.apply_async(queue=queue).get(timeout=20) == replaced
        finally:
            database_connection_close.apply_async(queue=queue).get(timeout=20)
