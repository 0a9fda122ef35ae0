"""Backups of the site's database while it runs, and restoring one when it does not.

SQLite: sqlite3's online backup API, on a connection of its own to the database file (the
file's name is in the public settings), copies a consistent snapshot while tables keep
writing: in WAL mode a reader never waits for a writer, and the copy is of one moment. The
copy is switched to a rollback journal, so a backup is one self-contained file.
PostgreSQL: ``pg_dump --format=custom`` and ``pg_restore``, their arguments made from the
settings' database dictionary, the password passed in ``PGPASSWORD``.

Backups are named for the moment they were taken (``homegame-2026-11-26T031205Z.sqlite3``)
in ``BACKUP_DIR``; pruning keeps the newest ``BACKUP_KEEP`` of those and never touches
another file there (the copies a restore keeps aside are named ``before-restore-...``).

A backup is readable by its owner only (mode 600): it holds every account, and the site's
secret key. That key signs the links already sent by e-mail (unsubscribe) and the guests'
PINs on printed seat cards, so a site restored on a new machine needs it: when the site
keeps its own key (``SECRET_KEY_FILE``, ``var/secret_key``, SECRET_KEY unset), a SQLite
backup carries it in a table of its own, and a restore puts it back in that file (the key
there before kept aside as ``secret_key.before-restore-...``) and drops the table. A key set
in the environment is the operator's to keep, as is the key of a PostgreSQL site (its
``pg_dump`` file holds the database only).

A restore refuses while the site serves: ``manage.py serve`` holds a shared ``flock`` on
the database's serve lock for its whole life (the kernel drops it when the process ends,
however it ends), and a restore takes the same lock exclusively, without waiting, for its
whole run, so neither can start while the other runs. On PostgreSQL, where other machines
may serve, a restore also refuses while any other client is connected to the database.
"""

from __future__ import annotations

import fcntl
import hashlib
import io
import os
import re
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.core.management import call_command
from django.db import connection, connections
from django.db.migrations.loader import MigrationLoader
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from series.models import Event, Player, Result, Season

PREFIX = "homegame"
BEFORE_RESTORE_PREFIX = "before-restore"
# The daily backup: beat asks often (a laptop that hosts one evening must get its backup
# that evening, and a non-persistent beat forgets when it last asked), the files say whether
# one is due.
DAILY = timedelta(days=1)
_STAMP = "%Y-%m-%dT%H%M%SZ"
_NAMED = re.compile(
    rf"^{PREFIX}-(?P<stamp>\d{{4}}-\d\d-\d\dT\d{{6}}Z)(?:-(?P<n>\d+))?\.(?:sqlite3|pgdump)$"
)
# The table of a SQLite backup that carries the site's kept secret key.
KEY_TABLE = "homegame_backup_secret_key"
# Tables a database of this site has had since its first migrations: a file without them is
# another application's database, whatever it is.
_SITE_MODELS = (Season, Event, Player, Result)


class BackupError(Exception):
    """A backup or restore cannot go on; the message says why, for the person running it."""


@dataclass(frozen=True)
class Backup:
    path: Path
    size: int


def _database() -> dict[str, Any]:
    return dict(settings.DATABASES["default"])


def _is_sqlite() -> bool:
    return str(_database()["ENGINE"]).endswith("sqlite3")


def _is_postgres() -> bool:
    return "postgresql" in str(_database()["ENGINE"])


def backup_dir() -> Path:
    return Path(settings.BACKUP_DIR)


def _suffix() -> str:
    return ".sqlite3" if _is_sqlite() else ".pgdump"


def _free_name(folder: Path, prefix: str, now: datetime) -> Path:
    """``<prefix>-<UTC time><suffix>`` in ``folder``, with ``-2``, ``-3``... when a backup of
    the same second is already there."""
    stamp = now.astimezone(UTC).strftime(_STAMP)
    path = folder / f"{prefix}-{stamp}{_suffix()}"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"{prefix}-{stamp}-{n}{_suffix()}"
    return path


# -- taking a backup


def database_backup_create(
    *, now: datetime | None = None, prefix: str = PREFIX, folder: Path | None = None
) -> Backup:
    """A consistent copy of the site's database, taken while it runs, in ``BACKUP_DIR``."""
    folder = folder or backup_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = _free_name(folder, prefix, now or timezone.now())
    # Written under another name and renamed when whole: a backup cut short (a full disk, a
    # killed process) never looks like a backup, nor counts as one when pruning.
    partial = path.with_name(path.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        # Readable by its owner only from its first byte: it holds every account, and the
        # secret key.
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        if _is_sqlite():
            _sqlite_copy(Path(_database()["NAME"]), partial)
            _secret_key_keep(partial)
            backup_file_check(partial)
        elif _is_postgres():
            _pg_dump(partial)
            partial.chmod(0o600)
        else:
            raise BackupError(
                _("Backups support SQLite and PostgreSQL; this site uses %(engine)s.")
                % {"engine": _database()["ENGINE"]}
            )
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)
    return Backup(path=path, size=path.stat().st_size)


def _sqlite_copy(source: Path, target: Path) -> None:
    if not source.is_file():
        raise BackupError(_("There is no database file at %(path)s.") % {"path": source})
    with (
        closing(sqlite3.connect(source, timeout=30)) as src,
        closing(sqlite3.connect(target)) as dst,
    ):
        # All pages in one step: the copy is one moment of the database, and in WAL mode the
        # site's writers carry on meanwhile.
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")


def _secret_key_keep(backup: Path) -> None:
    """Write the site's kept secret key into the SQLite ``backup`` (nothing when the key
    is set in the environment: that one is the operator's to keep)."""
    if not settings.SECRET_KEY_KEPT:
        return
    with closing(sqlite3.connect(backup)) as db, db:
        db.execute(f"CREATE TABLE {KEY_TABLE} (key TEXT NOT NULL)")
        db.execute(f"INSERT INTO {KEY_TABLE} (key) VALUES (?)", (settings.SECRET_KEY,))


def _secret_key_take(database: Path) -> str | None:
    """The secret key a restored SQLite ``database`` carries, dropped from it (the live
    database never holds the key); None when the backup carried none."""
    with closing(sqlite3.connect(database, timeout=30)) as db, db:
        found = db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (KEY_TABLE,)
        ).fetchone()
        if found is None:
            return None
        row = db.execute(f"SELECT key FROM {KEY_TABLE}").fetchone()
        db.execute(f"DROP TABLE {KEY_TABLE}")
    return str(row[0]).strip() if row and row[0] else None


@dataclass(frozen=True)
class KeyRestored:
    """What a restore did with the secret key its backup carried."""

    path: Path
    # The key file as it was, kept aside (None: there was none, or it held the same key).
    aside: Path | None
    # Whether the site's key is set in the environment, so the file is not what it uses.
    overridden: bool


def _secret_key_restore(key: str, now: datetime) -> KeyRestored:
    """Put the backup's ``key`` in ``SECRET_KEY_FILE`` (mode 600), the key there before
    kept aside beside it."""
    path = Path(settings.SECRET_KEY_FILE)
    path.parent.mkdir(parents=True, exist_ok=True)
    aside = None
    try:
        before = path.read_text().strip()
    except FileNotFoundError:
        before = None
    if before != key:
        if before is not None:
            stamp = now.astimezone(UTC).strftime(_STAMP)
            aside = path.with_name(f"{path.name}.{BEFORE_RESTORE_PREFIX}-{stamp}")
            path.replace(aside)
        partial = path.with_name(path.name + ".partial")
        partial.unlink(missing_ok=True)
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as out:
            out.write(key + "\n")
        partial.replace(path)
    return KeyRestored(path=path, aside=aside, overridden=not settings.SECRET_KEY_KEPT)


def backups_prune(keep: int | None = None, folder: Path | None = None) -> list[Path]:
    """Delete all but the newest ``keep`` (``BACKUP_KEEP``) backups; the deleted paths.

    Only files named as this site names its backups are counted or deleted."""
    keep = settings.BACKUP_KEEP if keep is None else keep
    folder = folder or backup_dir()
    if not folder.is_dir():
        return []
    named = sorted(_named_backups(folder), reverse=True)
    gone = []
    for _key, path in named[max(keep, 0) :]:
        path.unlink(missing_ok=True)
        gone.append(path)
    return gone


def _named_backups(folder: Path) -> Iterator[tuple[tuple[str, int], Path]]:
    for path in folder.iterdir():
        match = _NAMED.match(path.name)
        if match and path.is_file():
            yield (match["stamp"], int(match["n"] or 1)), path


def database_backup_if_due(now: datetime | None = None) -> Backup | None:
    """The daily backup: taken (and old ones pruned) when the newest backup in
    ``BACKUP_DIR`` is a day old or there is none; None when one is not due."""
    now = now or timezone.now()
    folder = backup_dir()
    newest = max(_named_backups(folder), default=None) if folder.is_dir() else None
    if newest is not None:
        taken = datetime.strptime(newest[0][0], _STAMP).replace(tzinfo=UTC)
        if now - taken < DAILY:
            return None
    backup = database_backup_create(now=now)
    backups_prune()
    return backup


# -- checking a file


def backup_file_check(path: Path) -> None:
    """Raise ``BackupError`` unless ``path`` is a whole backup of this site's database, of
    migrations this code knows (an older one is fine: ``migrate`` moves it forward)."""
    if not path.is_file():
        raise BackupError(_("There is no file at %(path)s.") % {"path": path})
    if _is_sqlite():
        applied = _sqlite_file_check(path)
    elif _is_postgres():
        applied = _pg_file_check(path)
    else:
        raise BackupError(
            _("Backups support SQLite and PostgreSQL; this site uses %(engine)s.")
            % {"engine": _database()["ENGINE"]}
        )
    _migrations_check(path, applied)


def _sqlite_file_check(path: Path) -> set[tuple[str, str]]:
    not_ours = _("%(path)s is not a backup of this site's database.") % {"path": path}
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
            problems = [row[0] for row in db.execute("PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise BackupError(
                    _("%(path)s is damaged: %(problem)s") % {"path": path, "problem": problems[0]}
                )
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
            if not _site_tables() | {"django_migrations"} <= tables:
                raise BackupError(not_ours)
            rows = db.execute("SELECT app, name FROM django_migrations").fetchall()
    except sqlite3.DatabaseError as error:
        raise BackupError(
            _("%(path)s is not a SQLite database this site can read (%(error)s).")
            % {"path": path, "error": error}
        ) from None
    return {(str(app), str(name)) for app, name in rows}


def _site_tables() -> set[str]:
    return {model._meta.db_table for model in _SITE_MODELS}


def _migrations_check(path: Path, applied: set[tuple[str, str]]) -> None:
    loader = MigrationLoader(None, ignore_no_migrations=True)
    unknown = sorted(
        f"{app}.{name}"
        for app, name in applied
        if app in loader.migrated_apps and (app, name) not in loader.disk_migrations
    )
    if unknown:
        raise BackupError(
            _(
                "%(path)s was made by a newer version of this site (migration %(migration)s is "
                "unknown here): update the code first."
            )
            % {"path": path, "migration": unknown[0]}
        )


# -- restoring


@dataclass(frozen=True)
class Restored:
    """A restore done: the database as it was, kept aside (None when there was none), and
    the secret key the backup carried, put back (None when it carried none)."""

    kept: Backup | None
    key: KeyRestored | None


def database_restore(
    path: Path, *, now: datetime | None = None, stdout: IO[str] | None = None
) -> Restored:
    """Replace the site's database with the backup at ``path``, then ``migrate`` it.

    Checks the file first and refuses while the site serves (``BackupError``; nothing is
    changed then); keeps the current database aside in ``BACKUP_DIR``, and puts back the
    secret key the backup carries (see the module's notes). ``migrate``'s output goes to
    ``stdout``."""
    now = now or timezone.now()
    key = None
    backup_file_check(path)
    with restore_lock():
        if _is_postgres():
            _pg_serving_check()
        kept = None
        if _is_sqlite():
            target = Path(_database()["NAME"])
            if target.is_file() and target.stat().st_size:
                kept = database_backup_create(now=now, prefix=BEFORE_RESTORE_PREFIX)
            connections.close_all()
            target.parent.mkdir(parents=True, exist_ok=True)
            with (
                closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as src,
                closing(sqlite3.connect(target, timeout=30)) as dst,
            ):
                # Through SQLite, not a file copy: the database keeps its WAL mode, and a
                # write log left beside it can never be replayed over the restored pages.
                src.backup(dst)
            carried = _secret_key_take(target)
            if carried:
                key = _secret_key_restore(carried, now)
        else:
            if _pg_tables():
                kept = database_backup_create(now=now, prefix=BEFORE_RESTORE_PREFIX)
            _pg_tables_drop()
            _pg_run(
                "pg_restore",
                "--clean",
                "--if-exists",
                "--no-owner",
                "--single-transaction",
                str(path),
            )
        # An older backup moves forward to this code's migrations.
        call_command("migrate", interactive=False, verbosity=1, stdout=stdout or io.StringIO())
    return Restored(kept=kept, key=key)


def serve_lock_path() -> Path:
    """The lock ``manage.py serve`` holds while it serves this database: beside a SQLite
    file (a test's server on a file of its own locks only that file), else in ``var/``."""
    db = _database()
    if _is_sqlite():
        name = Path(db["NAME"])
        return name.with_name(name.name + ".serve.lock")
    where = f"{db.get('HOST')}:{db.get('PORT')}/{db.get('NAME')}"
    digest = hashlib.sha256(where.encode()).hexdigest()[:16]
    return Path(settings.VAR_DIR) / f"serve-{digest}.lock"


@contextmanager
def serve_lock() -> Iterator[None]:
    """Held by ``manage.py serve`` for its life: shared, so several may serve; refused
    (``BackupError``) while a restore runs."""
    with _lock(fcntl.LOCK_SH, _("A restore of the database is running: wait for it to end.")):
        yield


@contextmanager
def restore_lock() -> Iterator[None]:
    """Held by a restore from its checks to its ``migrate``; refused (``BackupError``) while
    the site serves."""
    with _lock(fcntl.LOCK_EX, _serving_message()):
        yield


def _serving_message() -> str:
    return _("The site is running: stop it (Ctrl-C in its window) before restoring.")


@contextmanager
def _lock(kind: int, refused: str) -> Iterator[None]:
    path = serve_lock_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    handle: IO[str] = open(path, "a")  # noqa: SIM115 - held for the block, closed below
    try:
        try:
            fcntl.flock(handle, kind | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BackupError(refused) from None
        yield
    finally:
        handle.close()  # closing the file releases the lock


def serving_check() -> None:
    """Raise ``BackupError`` if the site serves this database: a ``manage.py serve`` holds
    its lock, or (PostgreSQL) another client is connected."""
    with restore_lock():
        if _is_postgres():
            _pg_serving_check()


def _pg_serving_check() -> None:
    others = _pg_other_clients()
    if others:
        raise BackupError(
            ngettext(
                "%(count)s other client is connected to the database (%(names)s): stop the "
                "site, its workers and beat before restoring.",
                "%(count)s other clients are connected to the database (%(names)s): stop the "
                "site, its workers and beat before restoring.",
                len(others),
            )
            % {"count": len(others), "names": ", ".join(sorted(set(others)))}
        )


# -- PostgreSQL


def _pg_env() -> dict[str, str]:
    db = _database()
    env = dict(os.environ)
    for key, name in (("PASSWORD", "PGPASSWORD"), ("HOST", "PGHOST"), ("PORT", "PGPORT")):
        if db.get(key):
            env[name] = str(db[key])
    if db.get("USER"):
        env["PGUSER"] = str(db["USER"])
    sslmode = (db.get("OPTIONS") or {}).get("sslmode")
    if sslmode:
        env["PGSSLMODE"] = str(sslmode)
    return env


def _pg_run(program: str, *args: str, dbname: bool = True) -> str:
    binary = shutil.which(program)
    if binary is None:
        raise BackupError(
            _(
                "%(program)s is not installed (on Debian or Ubuntu: apt install "
                "postgresql-client); the PostgreSQL database cannot be backed up or restored "
                "without it."
            )
            % {"program": program}
        )
    command = [binary, "--no-password", *args]
    if dbname:
        command += ["--dbname", str(_database()["NAME"])]
    result = subprocess.run(command, env=_pg_env(), capture_output=True, text=True)
    if result.returncode:
        raise BackupError(
            _("%(program)s failed: %(error)s")
            % {"program": program, "error": result.stderr.strip() or result.returncode}
        )
    return result.stdout


def _pg_dump(target: Path) -> None:
    _pg_run("pg_dump", "--format=custom", "--file", str(target))


def _pg_file_check(path: Path) -> set[tuple[str, str]]:
    not_ours = _("%(path)s is not a backup of this site's database.") % {"path": path}
    try:
        listing = _pg_run("pg_restore", "--list", str(path), dbname=False)
    except BackupError as error:
        raise BackupError(
            _("%(path)s is not a PostgreSQL backup this site can read (%(error)s).")
            % {"path": path, "error": error}
        ) from None
    tables = set(re.findall(r" TABLE \S+ (\S+) ", listing))
    if not _site_tables() | {"django_migrations"} <= tables:
        raise BackupError(not_ours)
    # The migrations table's rows as COPY text, read from the file without restoring it.
    data = _pg_run(
        "pg_restore",
        "--data-only",
        "--table=django_migrations",
        "--file=-",
        str(path),
        dbname=False,
    )
    rows = set()
    copying = False
    for line in data.splitlines():
        if line.startswith("COPY ") and "django_migrations" in line:
            copying = True
        elif line == "\\.":
            copying = False
        elif copying:
            fields = line.split("\t")
            if len(fields) >= 3:
                rows.add((fields[1], fields[2]))
    return rows


def _pg_other_clients() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT coalesce(nullif(application_name, ''), usename, 'client') "
            "FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        names = [str(row[0]) for row in cursor.fetchall()]
    connection.close()
    return names


def _pg_tables() -> list[str]:
    with connection.cursor() as cursor:
        return list(connection.introspection.table_names(cursor))


def _pg_tables_drop() -> None:
    """Drop every table of the current database before ``pg_restore``: its ``--clean`` only
    drops what the backup has, and a table a later migration added would stay, so the
    ``migrate`` that follows could not create it again. The current database was dumped
    just before (``before-restore-...``)."""
    with connection.cursor() as cursor:
        for table in _pg_tables():
            cursor.execute(f"DROP TABLE IF EXISTS {connection.ops.quote_name(table)} CASCADE")
    connection.close()
