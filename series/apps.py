from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class SeriesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "series"
    verbose_name = _("Series")

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from core.names import sqlite_collation_register

        # Lists of players sort by name as a reader expects on SQLite too (core.names).
        connection_created.connect(sqlite_collation_register, dispatch_uid="series-names")
        # Permissions are created by post_migrate too, so the Directors group is filled in
        # after them rather than in a data migration, where they may not exist yet.
        post_migrate.connect(_ensure_directors_group, sender=self)
        # The player's language, remembered at login.
        from series import receivers  # noqa: F401


def _ensure_directors_group(sender: AppConfig, using: str = "default", **kwargs: object) -> None:
    from series.services import directors_group_ensure

    directors_group_ensure(using=using)
