"""The site package: settings, URLs, the ASGI application, the Celery app and the embedded
runner. It imports every app; no app imports it."""

# Load the Celery app whenever Django starts so that @shared_task binds to it.
from config.celery import app as celery_app

__all__ = ["celery_app"]
