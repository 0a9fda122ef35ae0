"""Tasks of the series app."""

from celery import Task, shared_task

from series.models import Season
from series.services.backups import database_backup_if_due
from series.services.health import worker_heartbeat_record
from series.services.mailings import mailings_run as mailings_run_now
from series.services.standings import standings_recompute


@shared_task
def ping(token: str) -> str:
    """Answer ``pong:<token>``; proves a worker is consuming from the broker."""
    return f"pong:{token}"


@shared_task(name="series.tasks.standings_recompute_task", ignore_result=True)
def standings_recompute_task(season_id: int) -> int:
    """Recompute a season's standings from its results; running it twice changes nothing.

    Returns the number of standing lines (0 for a season deleted since it was scheduled).
    """
    try:
        return len(standings_recompute(season_id).lines)
    except Season.DoesNotExist:
        return 0


@shared_task(name="series.tasks.worker_heartbeat", ignore_result=True, bind=True)
def worker_heartbeat(self: Task) -> None:
    """Beat sends this every few seconds; the time it ran tells the health page that the
    worker (and beat) are running the site's periodic work."""
    worker_heartbeat_record(self.request.hostname or "")


@shared_task(name="series.tasks.database_backup", ignore_result=True)
def database_backup() -> str:
    """Beat asks every few minutes (BACKUP_DAILY); a backup is taken when the newest is a day
    old, so running it twice in a row takes one. Returns the new backup's path, or ""."""
    backup = database_backup_if_due()
    return "" if backup is None else str(backup.path)


@shared_task(name="series.tasks.mailings_run", ignore_result=True)
def mailings_run() -> int:
    """Beat sends this every minute: record the e-mail notices now due and send the pending
    ones, each exactly once (``series.services.mailings``). A duplicated run records and
    sends nothing twice; a lost one leaves its work to the next minute's. Returns how many
    messages went out."""
    return mailings_run_now()
