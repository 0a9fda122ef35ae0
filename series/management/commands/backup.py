"""Back up the database while the site runs: ``python manage.py backup``.

SQLite through its online backup API, PostgreSQL with ``pg_dump`` (see
``series.services.backups``). The file goes to ``BACKUP_DIR`` (``var/backups``), named for
the moment it was taken; the newest ``BACKUP_KEEP`` (14) backups are kept.
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _

from series.services.backups import BackupError, backups_prune, database_backup_create


class Command(BaseCommand):
    help = "Back up the database (safe while the site runs); keep the newest BACKUP_KEEP."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--keep", type=int, default=None, help="How many backups to keep (BACKUP_KEEP)."
        )

    def handle(self, *args: Any, keep: int | None, **options: Any) -> None:
        if keep is not None and keep < 1:
            raise CommandError(_("--keep must be at least 1."))
        try:
            backup = database_backup_create()
        except BackupError as error:
            raise CommandError(str(error)) from None
        gone = backups_prune(keep)
        self.stdout.write(
            self.style.SUCCESS(
                _("Backup written: %(path)s (%(size)s)")
                % {"path": backup.path, "size": filesizeformat(backup.size)}
            )
        )
        for path in gone:
            self.stdout.write(_("Old backup removed: %(path)s") % {"path": path})
