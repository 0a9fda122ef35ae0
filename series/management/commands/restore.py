"""Restore the database from a backup: ``python manage.py restore FILE``.

Stop the site first: a restore refuses while ``manage.py serve`` runs on this database (and,
on PostgreSQL, while any other client is connected). The file is checked before anything is
replaced; the current database is kept aside in ``BACKUP_DIR`` as ``before-restore-...``;
the site's secret key the backup carries is put back in ``var/secret_key``; then
``migrate`` moves an older backup forward to this code.
"""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from series.services.backups import BackupError, backup_file_check, database_restore, serving_check


class Command(BaseCommand):
    help = "Replace the database with a backup (the site must be stopped)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The backup file (from manage.py backup).")
        parser.add_argument("--yes", action="store_true", help="Do not ask for confirmation.")

    def handle(self, *args: Any, file: str, yes: bool, **options: Any) -> None:
        path = Path(file)
        try:
            # Checked before asking, so nobody confirms a restore that cannot happen.
            backup_file_check(path)
            serving_check()
        except BackupError as error:
            raise CommandError(str(error)) from None
        if not yes and not self._confirmed(path):
            raise CommandError(_("Restore cancelled: nothing was changed."))
        try:
            restored = database_restore(path, stdout=self.stdout)
        except BackupError as error:
            raise CommandError(str(error)) from None
        if restored.kept is not None:
            self.stdout.write(
                _("The database as it was is kept in %(path)s.") % {"path": restored.kept.path}
            )
        key = restored.key
        if key is not None:
            self.stdout.write(
                _(
                    "The site's secret key was restored to %(path)s: links already sent by "
                    "e-mail and the PINs on printed seat cards keep working."
                )
                % {"path": key.path}
            )
            if key.aside is not None:
                self.stdout.write(
                    _("The key that was there is kept in %(path)s.") % {"path": key.aside}
                )
            if key.overridden:
                self.stdout.write(
                    self.style.WARNING(
                        _(
                            "This site's SECRET_KEY is set in its environment and wins over "
                            "that file: set it to the key in %(path)s for the old links to work."
                        )
                        % {"path": key.path}
                    )
                )
        self.stdout.write(self.style.SUCCESS(_("Restored from %(path)s.") % {"path": path}))

    def _confirmed(self, path: Path) -> bool:
        prompt = _(
            "This replaces the whole database with %(path)s (the current one is kept aside). "
            'Type "yes" to go on: '
        ) % {"path": path}
        try:
            answer = input(prompt)
        except EOFError:
            return False
        return answer.strip().lower() in {"yes", pgettext("the word typed to confirm", "yes")}
