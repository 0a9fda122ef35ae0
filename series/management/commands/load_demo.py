"""Fill an empty database with demo data; leave any other database alone."""

import os
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from series.services import demo_load

PASSWORDS_FILE = "demo-passwords.txt"


class Command(BaseCommand):
    help = "Create a director, six players and a season of events if the database is empty."

    def handle(self, *args: Any, **options: Any) -> None:
        accounts = demo_load()
        if accounts is None:
            self.stdout.write(_("The database already has users or seasons: demo data not loaded."))
            return
        lines = [
            f"  {name:<8}  password: {password}" for name, password in accounts.passwords.items()
        ]
        path = _write_private(Path(settings.VAR_DIR) / PASSWORDS_FILE, "\n".join(lines) + "\n")
        self.stdout.write(
            self.style.SUCCESS(_("Demo data loaded. Each account has its own password:"))
        )
        for line in lines:
            self.stdout.write(line)
        self.stdout.write(_("They are also in %(path)s (readable only by you).") % {"path": path})
        self.stdout.write(
            _("Change them at /accounts/password/ or run: manage.py changepassword director")
        )


def _write_private(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` readable and writable by its owner only (mode 600)."""
    path.parent.mkdir(exist_ok=True)
    path.unlink(missing_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as out:
        out.write(text)
    return path
