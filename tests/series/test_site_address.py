"""The address in e-mails and on the TV's QR code is one phones can open: ``make run``
(``manage.py serve``) derives it from the address it serves on unless SITE_URL says it, and
on a loopback address the TV says how to serve on the Wi-Fi."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client, RequestFactory
from django.urls import reverse

from config.management.commands import serve
from core.site_address import WIFI_COMMAND, is_loopback, site_url_for
from series.services.mailing_messages import absolute
from tournaments.models import Tournament
from tournaments.views.clock import _night_address


def test_the_address_of_a_host_and_port() -> None:
    assert site_url_for("127.0.0.1", 8603) == "http://127.0.0.1:8603"
    assert site_url_for("192.168.1.20", 8000) == "http://192.168.1.20:8000"
    assert site_url_for("::1", 8000) == "http://[::1]:8000"
    every = site_url_for("0.0.0.0", 8603)
    assert every.endswith(":8603") and "0.0.0.0" not in every
    assert is_loopback("localhost") and is_loopback("[::1]") and not is_loopback("10.0.0.2")


class _NoDaphne:
    def run(self, argv: list[str]) -> None:
        self.argv = argv


@pytest.fixture
def quiet_serve(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve, "CommandLineInterface", _NoDaphne)
    monkeypatch.setattr(serve, "embedded_celery_start", lambda: None)
    monkeypatch.setattr(serve, "servers_forget_gone", lambda **kwargs: None)
    # The lock file sits beside the database: none for the test's in-memory one.
    monkeypatch.setattr(serve, "serve_lock", contextlib.nullcontext)
    # The command ends its process when the server stops: not this one.
    monkeypatch.setattr(serve, "process_end", lambda: None)
    monkeypatch.setattr(settings, "SITE_URL", settings.SITE_URL)


def test_serve_puts_its_own_address_in_the_mail_links(
    quiet_serve: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SITE_URL", raising=False)
    call_command("serve", host="127.0.0.1", port=8603)
    assert settings.SITE_URL == "http://127.0.0.1:8603"
    assert absolute("/series/") == "http://127.0.0.1:8603/series/"


def test_site_url_overrides_the_served_address(
    quiet_serve: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SITE_URL", "https://poker.example.org")
    monkeypatch.setattr(settings, "SITE_URL", "https://poker.example.org")
    call_command("serve", host="0.0.0.0", port=8603)
    assert settings.SITE_URL == "https://poker.example.org"


def test_the_tv_on_loopback_says_how_to_serve_on_the_wifi(
    client: Client, tournament: Tournament, settings: Any
) -> None:
    settings.SITE_URL = "http://127.0.0.1:8000"
    settings.ALLOWED_HOSTS = ["127.0.0.1", "192.168.1.20"]
    url = reverse("tournaments:tv_clock", args=[tournament.tv_token])
    page = client.get(url, HTTP_HOST="127.0.0.1:8000").content.decode()
    assert "Phones cannot open 127.0.0.1" in page and WIFI_COMMAND in page
    # Served on the network: the code carries that address, and nothing to say.
    response = client.get(url, HTTP_HOST="192.168.1.20:8000")
    assert response.status_code == 200 and "Phones cannot open" not in response.content.decode()


def test_the_tv_opened_on_loopback_codes_the_served_address(
    tournament: Tournament, settings: Any
) -> None:
    settings.SITE_URL = "http://192.168.1.20:8000"
    settings.ALLOWED_HOSTS = ["127.0.0.1", "poker.example.org"]
    request = RequestFactory().get("/", HTTP_HOST="127.0.0.1:8000")
    night = reverse("tournaments:night", args=[tournament.pk])
    assert _night_address(request, tournament.pk) == "http://192.168.1.20:8000" + night
    request = RequestFactory().get("/", HTTP_HOST="poker.example.org")
    assert _night_address(request, tournament.pk) == "http://poker.example.org" + night
