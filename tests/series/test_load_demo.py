import stat
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from core.permissions import is_director
from series.models import Event, Season

pytestmark = pytest.mark.django_db


def load_demo() -> str:
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def test_demo_data_fills_an_empty_database() -> None:
    output = load_demo()
    director = User.objects.get(username="director")
    assert is_director(director) and director.is_staff and not director.is_superuser
    password = output.split("director  password: ")[1].split()[0]
    assert director.check_password(password)
    assert User.objects.count() == 7
    season = Season.objects.get()
    assert season.events.count() == 6
    assert not Event.objects.filter(starts_at__lt=timezone.now()).exists()


def test_demo_data_is_not_loaded_twice_nor_over_real_data() -> None:
    load_demo()
    director_password = User.objects.get(username="director").password
    output = load_demo()
    assert "not loaded" in output
    assert "password" not in output
    assert User.objects.count() == 7
    assert Season.objects.count() == 1
    assert User.objects.get(username="director").password == director_password


def test_an_existing_account_keeps_the_demo_away() -> None:
    User.objects.create_user("host", password="x-long-password-1")
    assert "not loaded" in load_demo()
    assert not Season.objects.exists()


def test_every_demo_account_has_its_own_password_kept_in_a_private_file(settings, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # all demo players shared one password, so any of them could log in
    # as another and see their cards; the passwords scrolled away under the worker's logs.
    settings.VAR_DIR = tmp_path
    output = load_demo()
    names = ["director", "ann", "ben", "cal", "dee", "eve", "fay"]
    passwords = {name: output.split(f"  {name:<8}  password: ")[1].split()[0] for name in names}
    assert len(set(passwords.values())) == len(names)
    for name, password in passwords.items():
        assert User.objects.get(username=name).check_password(password)
    kept = passwords_file(output)
    assert kept.parent == tmp_path
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert all(f"password: {p}" in kept.read_text() for p in passwords.values())


def passwords_file(output: str) -> Path:
    return Path(output.split("They are also in ")[1].split(" (readable only by you)")[0])


def test_a_second_database_keeps_the_first_ones_passwords(
    settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The usual database, var/db.sqlite3, writes var/demo-passwords.txt (the README says so).
    # The files are named from the connection's settings, read as those of a SQLite site
    # whichever database the suite runs on.
    settings.VAR_DIR = tmp_path
    monkeypatch.setitem(connection.settings_dict, "ENGINE", "django.db.backends.sqlite3")
    monkeypatch.setitem(connection.settings_dict, "NAME", str(tmp_path / "db.sqlite3"))
    first = load_demo()
    assert passwords_file(first) == tmp_path / "demo-passwords.txt"
    kept = (tmp_path / "demo-passwords.txt").read_text()
    # Another database, empty, gets the demo too: its passwords go to a file of its own.
    User.objects.all().delete()
    Season.objects.all().delete()
    monkeypatch.setitem(connection.settings_dict, "NAME", str(tmp_path / "second.sqlite3"))
    second = load_demo()
    path = passwords_file(second)
    assert path.parent == tmp_path
    assert path.name.startswith("demo-passwords-second") and path.suffix == ".txt"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert (tmp_path / "demo-passwords.txt").read_text() == kept
    director = second.split("director  password: ")[1].split()[0]
    assert f"director  password: {director}" in path.read_text()
    assert f"director  password: {director}" not in kept


def test_databases_of_the_same_name_on_two_servers_get_two_files(
    settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from series.management.commands.load_demo import passwords_path

    settings.VAR_DIR = tmp_path
    one = {"ENGINE": "django.db.backends.postgresql", "NAME": "poker", "HOST": "db1", "PORT": ""}
    two = {**one, "HOST": "db2"}
    assert passwords_path(one) != passwords_path(two)
    assert passwords_path(one).name.startswith("demo-passwords-poker")
