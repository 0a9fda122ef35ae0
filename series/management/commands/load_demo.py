"""Fill an empty database with demo data; leave any other database alone.

The demo accounts' passwords are printed once and kept in a file under ``var/`` readable by
its owner only: ``var/demo-passwords.txt`` for the usual database (``var/db.sqlite3``), and
one named after the database for any other (``var/demo-passwords-second-1a2b3c4d.txt``), so
a test or second site on a database of its own never overwrites the first one's passwords.
"""

import hashlib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connection
from django.utils.text import slugify
from django.utils.translation import gettext as _

from series.services import demo_load

PASSWORDS_FILE = "demo-passwords.txt"
USUAL_DATABASE = "db.sqlite3"


def passwords_path(database: Mapping[str, Any]) -> Path:
    """Where the demo passwords of ``database`` (a ``DATABASES`` entry) are kept."""
    var = Path(settings.VAR_DIR)
    name = str(database.get("NAME") or "")
    sqlite = database.get("ENGINE") == "django.db.backends.sqlite3"
    if sqlite and name and Path(name).resolve() == (var / USUAL_DATABASE).resolve():
        return var / PASSWORDS_FILE
    # The name people know it by, and a short digest of where it is: two databases of one
    # name (on two servers, in two folders) still get a file each.
    shown = slugify(Path(name).stem if sqlite else name)[:40] or "database"
    where = "|".join(str(database.get(key) or "") for key in ("ENGINE", "HOST", "PORT", "NAME"))
    digest = hashlib.sha256(where.encode()).hexdigest()[:8]
    return var / f"demo-passwords-{shown}-{digest}.txt"


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
        path = _write_private(passwords_path(connection.settings_dict), "\n".join(lines) + "\n")
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
