"""Tasks of the series app."""

from celery import shared_task


@shared_task
def ping(token: str) -> str:
    """Answer ``pong:<token>``; proves a worker is consuming from the broker."""
    return f"pong:{token}"
