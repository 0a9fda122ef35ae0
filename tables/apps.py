from typing import Any

from django.apps import AppConfig


class TablesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tables"
    verbose_name = "Live tables"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from tables.runtime import loop_db, rows

        connection_created.connect(rows.connection_created, dispatch_uid="tables-database-started")
        loop_db.database_restarted.connect(_forget, dispatch_uid="tables-forget")


def _forget(**kwargs: Any) -> None:
    """What a process keeps may be ahead of a database that restarted (``tables.runtime.loop_db``):
    the tables' kept rows, their hands' engines and their built states are dropped."""
    from tables.runtime.state import STATE

    STATE.forget()
