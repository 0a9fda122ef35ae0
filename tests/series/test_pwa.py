"""The installable site: the manifest and the service worker served at the root, and the
links every page carries to them."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from series import views_pwa
from series.models import Event
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_the_manifest_is_a_manifest_for_the_whole_site(client: Client) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Home Game Omaha: poker series"
    assert manifest["short_name"] == "Home Game"
    assert manifest["start_url"] == "/"
    assert manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["lang"] == "en"
    # The colours of static/css/site.css.
    assert manifest["theme_color"] == "#0f5132"
    assert manifest["background_color"] == "#f6f4ef"
    colours = (settings.BASE_DIR / "static" / "css" / "site.css").read_text(encoding="utf-8")
    assert "--felt: #0f5132" in colours and "--paper: #f6f4ef" in colours


def test_the_manifest_icons_are_there(client: Client) -> None:
    icons = json.loads(client.get("/manifest.webmanifest").content)["icons"]
    assert {(icon["sizes"], icon["purpose"]) for icon in icons} == {
        ("192x192", "any"),
        ("512x512", "any"),
        ("512x512", "maskable"),
    }
    for icon in icons:
        assert icon["type"] == "image/png"
        image = b"".join(client.get(icon["src"]).streaming_content)  # type: ignore[attr-defined]
        assert image[:8] == b"\x89PNG\r\n\x1a\n"
        width = int.from_bytes(image[16:20], "big")
        assert f"{width}x{width}" == icon["sizes"]


def test_the_manifest_is_in_the_visitors_language(client: Client) -> None:
    manifest = json.loads(client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="fr").content)
    assert manifest["lang"] == "fr"
    # The French catalog's words (the English ones until the catalog has them).
    with translation.override("fr"):
        assert manifest["name"] == translation.gettext("Home Game Omaha: poker series")
        assert manifest["short_name"] == translation.gettext("Home Game")
    response = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="fr")
    assert "Accept-Language" in response["Vary"]


def test_the_manifest_takes_only_get(client: Client) -> None:
    assert client.post("/manifest.webmanifest").status_code == 405


def test_the_service_worker_is_javascript_at_the_root_never_kept_long(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    source = response.content.decode()
    assert f'"cache": "hgo-v{views_pwa.CACHE_VERSION}"' in source
    # The rules are JSON the worker reads (no template text left in it).
    assert "{{" not in source and "{%" not in source
    assert "self.clients.claim()" in source and "caches.delete" in source


def test_the_kept_pages_are_the_clock_and_the_night_pages(tournament: Tournament) -> None:
    def kept(path: str) -> bool:
        return any(re.search(pattern, path) for pattern in views_pwa.kept_pages())

    token = tournament.tv_token
    assert kept(reverse("tournaments:tv_clock", args=[token]))
    assert kept(reverse("tournaments:tv_clock_json", args=[token]))
    assert kept(f"/tournaments/{tournament.pk}/night/")
    for path in (
        reverse("tournaments:console", args=[tournament.pk]),
        reverse("home"),
        reverse("admin:index"),
        reverse("login"),
        "/ws/tournaments/x/clock/",
    ):
        assert not kept(path), path


def test_the_night_page_pattern_matches_its_url(tournament: Tournament) -> None:
    path = reverse("tournaments:night", args=[tournament.pk])
    assert any(re.search(pattern, path) for pattern in views_pwa.kept_pages())
    # A night is one person's: forgotten when another signs in. The TV clock is not.
    assert any(re.search(pattern, path) for pattern in views_pwa.personal_pages())
    tv = reverse("tournaments:tv_clock", args=[tournament.tv_token])
    assert not any(re.search(pattern, tv) for pattern in views_pwa.personal_pages())
    assert set(views_pwa.personal_pages()) <= set(views_pwa.kept_pages())


def test_every_page_links_the_manifest_and_the_worker(client: Client, event: Event) -> None:
    for path in (reverse("home"), reverse("series:event", args=[event.pk]), reverse("login")):
        page = client.get(path).content.decode()
        assert '<link rel="manifest" href="/manifest.webmanifest">' in page
        assert '<meta name="theme-color" content="#0f5132">' in page
        assert 'rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png"' in page
        assert 'src="/static/js/pwa.js" data-worker="/sw.js"' in page


def test_the_tv_clock_links_the_manifest_and_keeps_its_own_colour(
    client: Client, tournament: Tournament
) -> None:
    page = client.get(reverse("tournaments:tv_clock", args=[tournament.tv_token])).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'data-worker="/sw.js"' in page
    # The first theme colour in the page is the one a browser uses: the TV's own.
    colours = re.findall(r'<meta name="theme-color" content="([^"]+)">', page)
    assert colours[0] == "#05080a"


def viewer_of(page: str) -> str:
    found = re.search(r'data-viewer="([0-9a-f]{16})"', page)
    assert found, "the page does not say who it was made for"
    return found[1]


def test_each_page_says_who_it_was_made_for_and_logging_in_forgets_the_kept_pages(
    client: Client, player_client: Client, director_client: Client
) -> None:
    # The worker forgets what it kept when the mark changes (static/js/pwa.js), and on the
    # posts that change whose pages are whose.
    home = "/"
    visitor = viewer_of(client.get(home).content.decode())
    player = viewer_of(player_client.get(home).content.decode())
    director = viewer_of(director_client.get(home).content.decode())
    assert len({visitor, player, director}) == 3
    assert viewer_of(player_client.get(home).content.decode()) == player
    for path in ("/accounts/login/", "/accounts/logout/", "/accounts/signup/", "/admin/login/"):
        assert any(re.match(pattern, path) for pattern in views_pwa.forget_on()), path
    pin = reverse("tournaments:night_pin", args=[7])
    assert any(re.match(pattern, pin) for pattern in views_pwa.forget_on())
