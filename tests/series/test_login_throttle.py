"""Failed logins are limited per account and per address."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def _attempt(client: Client, username: str, password: str, address: str = "10.0.0.1"):  # type: ignore[no-untyped-def]
    return client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_an_account_is_paused_after_five_wrong_passwords_with_a_clear_message(
    player: User,
) -> None:
    client = Client()
    for _ in range(4):
        assert _attempt(client, player.username, "wrong").status_code == 200
    locked = _attempt(client, player.username, "wrong")
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    assert "15 minutes" in locked.content.decode()
    # Even the right password, from another address, waits: the account is paused.
    assert _attempt(Client(), player.username, PASSWORD, "10.0.0.2").status_code == 429


def test_one_address_guessing_many_accounts_is_paused(player: User) -> None:
    client = Client()
    for k in range(5):
        _attempt(client, f"nobody{k}", "wrong", "10.0.0.9")
    assert _attempt(client, player.username, PASSWORD, "10.0.0.9").status_code == 429
    # Another address logs in as usual.
    ok = _attempt(Client(), player.username, PASSWORD, "10.0.0.3")
    assert ok.status_code == 302


def test_a_good_login_resets_the_count(player: User) -> None:
    client = Client()
    for _ in range(4):
        _attempt(client, player.username, "wrong")
    assert _attempt(client, player.username, PASSWORD).status_code == 302
    for _ in range(4):
        assert _attempt(Client(), player.username, "wrong").status_code == 200


@pytest.mark.django_db
def test_a_username_longer_than_any_account_is_refused_before_authenticating() -> None:
    # django-axes stores a failed attempt's username in 255 characters: PostgreSQL refused
    # a 100 kB one with an error, a 500.
    from axes.models import AccessAttempt

    response = Client().post(reverse("login"), {"username": "x" * 100_000, "password": "pw"})
    assert response.status_code == 200
    assert "Use at most 150 characters." in response.content.decode()
    assert not AccessAttempt.objects.exists()
