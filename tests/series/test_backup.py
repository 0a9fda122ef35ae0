"""Backups taken while the site runs restore to the same site; bad restores change nothing.

Each site here is a real database in a subprocess, as ``manage.py backup`` and ``restore``
run: a SQLite file in the test's folder (from the migrated template of
``tests.tables.servers``), or, when DATABASE_URL is PostgreSQL, a fresh database of its own
on that server (from the migrated template of ``tests.series.sites``), dropped afterwards.
What only needs making once (a site holding a row, a backup of it) is made once per run and
copied: each ``manage.py`` started costs seconds of a shared core.
"""

from __future__ import annotations

import asyncio
import fcntl
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.test import override_settings

from series.services import backups
from tests.series.sites import postgres_database_migrated
from tests.tables.servers import (
    BASE_DIR,
    PYTHON,
    Player,
    free_port,
    kill,
    manage,
    migrate,
    postgres_database_drop,
    postgres_database_new,
    server_env,
    start_serve,
    stop,
)

POSTGRES_URL = os.environ.get("DATABASE_URL", "")
ON_POSTGRES = POSTGRES_URL.startswith(("postgres://", "postgresql://"))
needs_postgres = pytest.mark.skipif(not ON_POSTGRES, reason="DATABASE_URL is not PostgreSQL")


def site_env(tmp_path: Path, database_url: str) -> dict[str, str]:
    env = server_env(
        DATABASE_URL=database_url,
        BACKUP_DIR=str(tmp_path / "backups"),
        BACKUP_DAILY="0",
        TABLES_NEXT_HAND_DELAY_MS="300",
    )
    env.pop("REDIS_URL", None)  # embedded mode: serve runs its own worker and beat
    return env


def run_manage(
    env: dict[str, str], *args: str, answer: str = ""
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "manage.py", *args],
        cwd=BASE_DIR,
        env=env,
        input=answer,
        capture_output=True,
        text=True,
        timeout=120,
    )


def helper(env: dict[str, str], module: str, *args: str) -> object:
    result = subprocess.run(
        [PYTHON, "-m", module, *args],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=180,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def backup_taken(env: dict[str, str]) -> Path:
    """``manage.py backup``: the file it says it wrote, which must be in BACKUP_DIR."""
    out = manage(env, "backup")
    assert out.startswith("Backup written: "), out
    path = Path(out.removeprefix("Backup written: ").rsplit(" (", 1)[0])
    assert path.parent == Path(env["BACKUP_DIR"]) and path.is_file()
    assert path.name.startswith("homegame-")
    return path


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def database_file(env: dict[str, str]) -> Path:
    return Path(env["DATABASE_URL"].removeprefix("sqlite:///"))


def player_names(database: Path) -> list[str]:
    """The players' names in a SQLite site's file, read as the site reads them (its write
    log too)."""
    with closing(sqlite3.connect(database)) as db:
        return sorted(name for (name,) in db.execute("SELECT name FROM series_player"))


@pytest.fixture(scope="session")
def zoe_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The database of a migrated SQLite site holding one row of its own, to see whether a
    restore replaced it: made once, copied for each test."""
    folder = tmp_path_factory.mktemp("zoe-site")
    env = site_env(folder, f"sqlite:///{folder / 'site.sqlite3'}")
    migrate(env)
    manage(
        env, "shell", "-c", "from series.models import Player; Player.objects.create(name='Zoé')"
    )
    # Everything in the one file (no write-ahead log beside it), so a copy is whole.
    with closing(sqlite3.connect(database_file(env))) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return database_file(env)


@pytest.fixture(scope="session")
def zoe_backup(zoe_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``manage.py backup`` of that site, taken once: a restore only reads it. It is outside
    every test's BACKUP_DIR, which so starts empty."""
    folder = tmp_path_factory.mktemp("zoe-backup")
    env = site_env(folder, f"sqlite:///{folder / 'site.sqlite3'}")
    shutil.copyfile(zoe_site, database_file(env))
    return backup_taken(env)


@pytest.fixture
def sqlite_site(zoe_site: Path, tmp_path: Path) -> dict[str, str]:
    """A migrated SQLite site holding one row of its own: Zoé."""
    env = site_env(tmp_path, f"sqlite:///{tmp_path / 'site.sqlite3'}")
    shutil.copyfile(zoe_site, database_file(env))
    return env


# -- the round trip


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=needs_postgres)])
def two_sites(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[dict, dict]]:
    """A migrated site to back up and an empty database to restore it into."""
    if request.param == "sqlite":
        source = site_env(tmp_path, f"sqlite:///{tmp_path / 'source.sqlite3'}")
        migrate(source)
        yield source, site_env(tmp_path, f"sqlite:///{tmp_path / 'restored.sqlite3'}")
        return
    made = [postgres_database_migrated(POSTGRES_URL, "backup_source")]
    made.append(postgres_database_new(POSTGRES_URL, "backup_restored"))
    try:
        source = site_env(tmp_path, made[0][0])
        yield source, site_env(tmp_path, made[1][0])
    finally:
        for _url, name in made:
            postgres_database_drop(POSTGRES_URL, name)


@pytest.mark.long
def test_a_season_restored_into_an_empty_database_reads_the_same_bytes(
    two_sites: tuple[dict[str, str], dict[str, str]],
) -> None:
    source, restored = two_sites
    built = helper(source, "tests.series.backup_pages", "build")
    assert built["hands"] >= 1 and built["transfers"] >= 1  # type: ignore[index]
    before = helper(source, "tests.series.backup_pages", "pages")
    backup = backup_taken(source)

    out = manage(restored, "restore", str(backup), "--yes")

    assert f"Restored from {backup}." in out
    after = helper(restored, "tests.series.backup_pages", "pages")
    assert list(after) == list(before)  # type: ignore[arg-type]
    for url, page in before.items():  # type: ignore[attr-defined]
        assert page.startswith("200 "), url
        assert after[url] == page, url  # type: ignore[index]
    # The expense with cents comes back to the cent: its shares and the balances with it.
    settle_up = next(page for url, page in before.items() if "settle" in url)  # type: ignore[attr-defined]
    assert "23.50" in settle_up and "7.84" in settle_up and "7.83" in settle_up
    # The database restored into was empty: nothing to keep aside.
    assert not list(Path(restored["BACKUP_DIR"]).glob("before-restore-*"))


@pytest.mark.long
def test_a_backup_taken_while_hands_are_played_restores_hands_that_replay(
    tmp_path: Path,
) -> None:
    env = site_env(tmp_path, f"sqlite:///{tmp_path / 'live.sqlite3'}")
    migrate(env)
    setup = helper(env, "tests.tables.restart_helpers", "setup")
    table_id = int(setup["table"])  # type: ignore[index]
    port = free_port()
    players = [
        Player(f"p{k}", port, table_id, cookie, seed=k)
        for k, cookie in enumerate(setup["cookies"])  # type: ignore[index]
    ]
    taken: list[Path] = []

    async def play_and_back_up() -> None:
        halt = asyncio.Event()
        tasks = [asyncio.create_task(p.run(halt)) for p in players]
        # The first hands are dealt and played: the players are acting in a third.
        deadline = asyncio.get_running_loop().time() + 60
        while len({move["hand"] for p in players for move in p.sent}) < 3:
            assert asyncio.get_running_loop().time() < deadline, "no third hand was dealt"
            await asyncio.sleep(0.05)
        taken.append(await asyncio.to_thread(backup_taken, env))
        await asyncio.sleep(1)
        halt.set()
        await asyncio.gather(*tasks)

    process = start_serve(env, port, log=tmp_path / "serve.log")
    try:
        asyncio.run(play_and_back_up())
    finally:
        # Its database is never read again (the restore reads the backup): ended as in a
        # crash, not waited on through a shutdown (seconds, ten when a socket's last move is
        # still being written).
        kill(process)
    moves_sent = sum(len(p.sent) for p in players)
    assert moves_sent > 0, "nobody played"

    restored = site_env(tmp_path, f"sqlite:///{tmp_path / 'restored.sqlite3'}")
    manage(restored, "restore", str(taken[0]), "--yes")
    result = helper(restored, "tests.tables.restart_helpers", "check", str(table_id))

    assert not result["problems"], result["problems"]  # type: ignore[index]
    assert result["hands"] >= 1  # type: ignore[index]
    assert result["replayed"] == result["hands"]  # type: ignore[index]
    chips = result["chips"]  # type: ignore[index]
    assert chips["bought_in"] - chips["cashed_out"] == chips["seated"] == 300


# -- refusals: each leaves the database as it was


@pytest.mark.long
def test_restore_refuses_while_the_site_serves(
    sqlite_site: dict[str, str], zoe_backup: Path, tmp_path: Path
) -> None:
    backup = zoe_backup
    process = start_serve(sqlite_site, free_port(), log=tmp_path / "serve.log")
    try:
        refused = run_manage(sqlite_site, "restore", str(backup), "--yes")
    finally:
        stop(process)

    assert refused.returncode == 1
    assert "The site is running: stop it" in refused.stderr
    assert not list(Path(sqlite_site["BACKUP_DIR"]).glob("before-restore-*"))
    # Once it stopped, the same restore goes through.
    done = run_manage(sqlite_site, "restore", str(backup), "--yes")
    assert done.returncode == 0, done.stderr
    assert len(list(Path(sqlite_site["BACKUP_DIR"]).glob("before-restore-*.sqlite3"))) == 1


def test_serve_refuses_to_start_while_a_restore_runs(sqlite_site: dict[str, str]) -> None:
    # The lock a restore holds, beside the database file (series.services.backups).
    lock = database_file(sqlite_site).with_name("site.sqlite3.serve.lock")
    with open(lock, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        refused = run_manage(sqlite_site, "serve", "--port", str(free_port()))
    assert refused.returncode == 1
    assert "A restore of the database is running" in refused.stderr


def refused_restore(env: dict[str, str], path: Path) -> str:
    """Restore ``path``: it must fail and leave the database and backups untouched."""
    before = sha256(database_file(env))
    result = run_manage(env, "restore", str(path), "--yes")
    assert result.returncode == 1, result.stdout
    assert "Traceback" not in result.stderr
    assert sha256(database_file(env)) == before
    assert not Path(env["BACKUP_DIR"]).exists() or not any(Path(env["BACKUP_DIR"]).iterdir())
    return result.stderr


def test_a_text_file_is_refused(sqlite_site: dict[str, str], tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("Bring snacks; the host has drinks.\n" * 200)
    assert "is not a SQLite database this site can read" in refused_restore(sqlite_site, notes)


def test_another_applications_database_is_refused(
    sqlite_site: dict[str, str], tmp_path: Path
) -> None:
    other = tmp_path / "recipes.sqlite3"
    with closing(sqlite3.connect(other)) as db:
        db.execute("CREATE TABLE recipe (name TEXT)")
        db.execute("CREATE TABLE django_migrations (id INTEGER, app TEXT, name TEXT)")
        db.commit()
    assert "is not a backup of this site's database" in refused_restore(sqlite_site, other)


def test_a_damaged_backup_is_refused(
    sqlite_site: dict[str, str], zoe_backup: Path, tmp_path: Path
) -> None:
    damaged = tmp_path / "damaged.sqlite3"
    data = bytearray(zoe_backup.read_bytes())
    # Past the header and the schema's first page: the tables are there, their pages are not.
    for offset in range(8192, len(data) - 4096, 4096):
        data[offset + 16 : offset + 400] = b"\xa5" * 384
    damaged.write_bytes(bytes(data))
    stderr = refused_restore(sqlite_site, damaged)
    assert "is damaged" in stderr or "is not a SQLite database" in stderr


def test_a_backup_of_newer_code_is_refused(sqlite_site: dict[str, str], tmp_path: Path) -> None:
    newer = tmp_path / "newer.sqlite3"
    with closing(sqlite3.connect(database_file(sqlite_site))) as db:
        db.execute("VACUUM INTO ?", (str(newer),))
    with closing(sqlite3.connect(newer)) as db:
        db.execute(
            "INSERT INTO django_migrations (app, name, applied) "
            "VALUES ('series', '9999_from_the_future', '2030-01-01')"
        )
        db.commit()
    stderr = refused_restore(sqlite_site, newer)
    assert "made by a newer version of this site" in stderr
    assert "series.9999_from_the_future" in stderr


def test_restore_asks_first_and_no_changes_nothing(
    sqlite_site: dict[str, str], zoe_backup: Path
) -> None:
    backup = zoe_backup
    manage(
        sqlite_site,
        "shell",
        "-c",
        "from series.models import Player; Player.objects.create(name='Ann')",
    )
    before = sha256(database_file(sqlite_site))

    result = run_manage(sqlite_site, "restore", str(backup), answer="no\n")

    assert result.returncode == 1
    assert 'Type "yes" to go on' in result.stdout
    assert "Restore cancelled: nothing was changed." in result.stderr
    assert sha256(database_file(sqlite_site)) == before

    result = run_manage(sqlite_site, "restore", str(backup), answer="yes\n")
    assert result.returncode == 0, result.stderr
    assert player_names(database_file(sqlite_site)) == ["Zoé"]  # Ann came after the backup
    kept = list(Path(sqlite_site["BACKUP_DIR"]).glob("before-restore-*.sqlite3"))
    assert len(kept) == 1
    assert player_names(kept[0]) == ["Ann", "Zoé"]


@needs_postgres
def test_backup_without_pg_dump_says_so(tmp_path: Path) -> None:
    url, name = postgres_database_new(POSTGRES_URL, "backup_no_pg_dump")
    try:
        env = site_env(tmp_path, url)
        env["PATH"] = str(tmp_path)  # nothing there: no pg_dump
        result = run_manage(env, "backup")
    finally:
        postgres_database_drop(POSTGRES_URL, name)
    assert result.returncode == 1
    assert "pg_dump is not installed" in result.stderr


@needs_postgres
def test_restore_refuses_while_another_client_is_connected(tmp_path: Path) -> None:
    import psycopg

    url, name = postgres_database_migrated(POSTGRES_URL, "backup_busy")
    try:
        env = site_env(tmp_path, url)
        backup = backup_taken(env)
        with psycopg.connect(url, application_name="another-daphne"):
            refused = run_manage(env, "restore", str(backup), "--yes")
    finally:
        postgres_database_drop(POSTGRES_URL, name)
    assert refused.returncode == 1
    assert "another-daphne" in refused.stderr
    assert not list(Path(env["BACKUP_DIR"]).glob("before-restore-*"))


# -- keeping the newest N, and the daily backup


def named(folder: Path, moment: datetime, suffix: str = ".sqlite3") -> Path:
    path = folder / f"homegame-{moment:%Y-%m-%dT%H%M%SZ}{suffix}"
    path.write_bytes(b"backup")
    return path


def test_backups_beyond_the_newest_n_are_deleted_and_nothing_else(tmp_path: Path) -> None:
    start = datetime(2026, 11, 1, 3, 12, tzinfo=UTC)
    made = [named(tmp_path, start + timedelta(days=day)) for day in range(5)]
    # Two in the same second: the second is named "-2" and is the newer.
    same_second = tmp_path / f"homegame-{start + timedelta(days=4):%Y-%m-%dT%H%M%SZ}-2.sqlite3"
    same_second.write_bytes(b"backup")
    kept_aside = tmp_path / "before-restore-2026-10-01T000000Z.sqlite3"
    notes = tmp_path / "notes.txt"
    for other in (kept_aside, notes):
        other.write_text("not a backup")

    gone = backups.backups_prune(keep=3, folder=tmp_path)

    assert sorted(gone) == made[:3]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [made[3].name, made[4].name, same_second.name, kept_aside.name, notes.name]
    )


def test_backup_keeps_the_newest_backup_keep(sqlite_site: dict[str, str]) -> None:
    env = {**sqlite_site, "BACKUP_KEEP": "2"}
    first = backup_taken(env)
    second = backup_taken(env)
    third = backup_taken(env)
    assert sorted(Path(env["BACKUP_DIR"]).iterdir()) == sorted([second, third])
    assert not first.exists()
    with closing(sqlite3.connect(f"{third.as_uri()}?mode=ro", uri=True)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one whole file
        assert db.execute("SELECT name FROM series_player").fetchall() == [("Zoé",)]


def test_the_daily_backup_is_taken_only_when_the_newest_is_a_day_old(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = datetime(2026, 11, 26, 21, 0, tzinfo=UTC)
    taken: list[datetime] = []

    def create(*, now: datetime) -> backups.Backup:
        taken.append(now)
        return backups.Backup(path=named(tmp_path, now), size=6)

    monkeypatch.setattr(backups, "database_backup_create", create)
    with override_settings(BACKUP_DIR=tmp_path, BACKUP_KEEP=14):
        assert backups.database_backup_if_due(now) is not None  # none yet
        assert backups.database_backup_if_due(now + timedelta(hours=23)) is None
        assert backups.database_backup_if_due(now + timedelta(hours=24)) is not None
    assert taken == [now, now + timedelta(hours=24)]


def test_beat_asks_for_the_daily_backup_in_embedded_mode_only() -> None:
    code = (
        "from django.conf import settings; "
        "print(settings.BACKUP_DAILY, 'database-backup' in settings.CELERY_BEAT_SCHEDULE)"
    )
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "BACKUP_DAILY"}}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"

    def loaded(**extra: str) -> str:
        return subprocess.run(
            [PYTHON, "-c", code],
            cwd=BASE_DIR,
            env={**env, **extra},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()

    assert loaded() == "True True"
    assert loaded(REDIS_URL="redis://127.0.0.1:6379/0") == "False False"
    assert loaded(REDIS_URL="redis://127.0.0.1:6379/0", BACKUP_DAILY="1") == "True True"
    assert loaded(BACKUP_DAILY="0") == "False False"


# -- the secret key travels with the backup


OLD_KEY = "the-old-machine-s-key-" + "k" * 40


def last_line(out: str) -> str:
    return out.strip().splitlines()[-1]


def keyed_env(env: dict[str, str], key_file: Path) -> dict[str, str]:
    """``env`` with the site's kept secret key in ``key_file`` (SECRET_KEY unset)."""
    env = {**env, "SECRET_KEY_FILE": str(key_file)}
    env.pop("SECRET_KEY", None)
    return env


def test_a_backup_carries_the_secret_key_and_only_its_owner_reads_it(
    sqlite_site: dict[str, str], tmp_path: Path
) -> None:
    key_file = tmp_path / "old-machine" / "secret_key"
    key_file.parent.mkdir()
    key_file.write_text(OLD_KEY + "\n")
    backup = backup_taken(keyed_env(sqlite_site, key_file))
    assert backup.stat().st_mode & 0o777 == 0o600
    with closing(sqlite3.connect(backup)) as db:
        assert db.execute(f"SELECT key FROM {backups.KEY_TABLE}").fetchall() == [(OLD_KEY,)]


def test_a_backup_restored_on_a_new_machine_brings_the_secret_key_back(
    sqlite_site: dict[str, str], tmp_path: Path
) -> None:
    old = keyed_env(sqlite_site, tmp_path / "old-machine" / "secret_key")
    Path(old["SECRET_KEY_FILE"]).parent.mkdir()
    Path(old["SECRET_KEY_FILE"]).write_text(OLD_KEY + "\n")
    backup = backup_taken(old)
    # The new machine: an empty database, and a key of its own made on its first run.
    new_folder = tmp_path / "new-machine"
    new_folder.mkdir()
    new = keyed_env(
        site_env(new_folder, f"sqlite:///{new_folder / 'site.sqlite3'}"),
        new_folder / "var" / "secret_key",
    )
    migrate(new)
    unsubscribe = (
        "from series.services.mailing_messages import unsubscribe_token, unsubscribe_user_id; "
    )
    token = last_line(
        manage(old, "shell", "-c", unsubscribe + "print(unsubscribe_token(7, 'results'))")
    )
    check = unsubscribe + f"print(unsubscribe_user_id('results', {token!r}))"
    assert last_line(manage(new, "shell", "-c", check)) == "None"  # another key: a dead link
    new_key = Path(new["SECRET_KEY_FILE"]).read_text()

    out = manage(new, "restore", str(backup), "--yes")

    key_file = Path(new["SECRET_KEY_FILE"])
    assert key_file.read_text().strip() == OLD_KEY
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert f"The site's secret key was restored to {key_file}" in out
    aside = list(key_file.parent.glob("secret_key.before-restore-*"))
    assert [path.read_text() for path in aside] == [new_key]
    assert aside[0].stat().st_mode & 0o777 == 0o600
    # The old e-mails' unsubscribe links work again; the database itself keeps no key.
    assert last_line(manage(new, "shell", "-c", check)) == "7"
    with closing(sqlite3.connect(database_file(new))) as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
    assert backups.KEY_TABLE not in tables
    assert player_names(database_file(new)) == ["Zoé"]
