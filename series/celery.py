"""The Celery application.

Distributed mode: ``celery -A series worker`` and one ``celery -A series beat`` use the Redis
broker from ``REDIS_URL``. Embedded mode (no ``REDIS_URL``): the broker is in memory and
``series.embedded`` runs the worker and beat as threads inside the web process.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "series.settings")

app = Celery("series")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
