"""The Celery application.

Distributed mode: ``celery -A config worker`` and one ``celery -A config beat`` use the Redis
broker from ``REDIS_URL``. Embedded mode (no ``REDIS_URL``): the broker is in memory and
``config.embedded`` runs the worker and beat as threads inside the web process.
"""

import os

from celery import Celery
from celery.signals import task_postrun, worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def _keep_database_connections(**kwargs: object) -> None:
    """A worker's threads keep their database connections between tasks.

    They run many small tasks (a hand's start, a time-out, the sweep every second); with the
    site's CONN_MAX_AGE=0 (right for HTTP under ASGI), and Celery's Django fix-up closing
    every connection after every task, each task opened a PostgreSQL connection of its own,
    a new server process each time. Here a connection lives ten minutes, and one that saw an
    error or fails its health check is dropped after its task (``_drop_broken``); the fix-up
    only recycles connections every CELERY_DB_REUSE_MAX tasks (settings.py). Embedded mode
    shares its process with daphne and keeps the site's setting.
    """
    from django.conf import settings
    from django.db import connections

    if settings.EMBEDDED:
        return
    for alias in connections:
        connections.settings[alias]["CONN_MAX_AGE"] = 600
        connections.settings[alias]["CONN_HEALTH_CHECKS"] = True
    task_postrun.connect(_drop_broken, weak=False)


def _drop_broken(**kwargs: object) -> None:
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        connection.close_if_unusable_or_obsolete()
