from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
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
    import stat

    settings.VAR_DIR = tmp_path
    output = load_demo()
    names = ["director", "ann", "ben", "cal", "dee", "eve", "fay"]
    passwords = {name: output.split(f"  {name:<8}  password: ")[1].split()[0] for name in names}
    assert len(set(passwords.values())) == len(names)
    for name, password in passwords.items():
        assert User.objects.get(username=name).check_password(password)
    kept = tmp_path / "demo-passwords.txt"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert all(f"password: {p}" in kept.read_text() for p in passwords.values())
