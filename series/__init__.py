"""The site package and the series app: seasons, events, results, standings, players."""

# Load the Celery app whenever Django starts so that @shared_task binds to it.
from series.celery import app as celery_app

__all__ = ["celery_app"]
