from typing import Any

from django.apps import AppConfig


class TablesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tables"
    verbose_name = "Live tables"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from tables.runtime import loop_db

        connection_created.connect(_database_started, dispatch_uid="tables-database-started")
        loop_db.database_restarted.connect(_forget, dispatch_uid="tables-forget")


def _database_started(sender: Any, connection: Any, **kwargs: Any) -> None:
    """Every new PostgreSQL connection of Django's reads when the server started
    (``loop_db.database_started``): after a restart, this process forgets what it keeps."""
    if connection.vendor != "postgresql":
        return
    from tables.runtime import loop_db

    with connection.cursor() as cursor:
        cursor.execute(loop_db.STARTED_SQL)
        loop_db.database_started(cursor.fetchone()[0])


def _forget(**kwargs: Any) -> None:
    """What a process keeps may be ahead of a database that restarted (``tables.runtime.loop_db``):
    the tables' kept rows, their hands' engines and their built states are dropped."""
    from tables.runtime.state import STATE

    STATE.forget()
