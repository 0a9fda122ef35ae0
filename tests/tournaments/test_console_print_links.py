"""The console's links to the printable sheets on a phone (390x844), in English and French:
every link whole on the screen, none cut at its edge. Screenshots in test-artifacts/
(console-print-*.png)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from tests.browser import ARTIFACTS, PHONE, console_page, needs_chromium, picture
from tests.tournaments.factories import make_user
from tournaments.models import Tournament
from tournaments.services.entries import entry_register
from tournaments.services.lifecycle import tournament_start

pytestmark = [*needs_chromium, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_print_link_is_whole_on_a_phone(
    tournament: Tournament,
    director: User,
    live_server,
    live_browser: Browser,
    language: str,
    settings,
) -> None:  # type: ignore[no-untyped-def]
    settings.TOURNAMENTS_SCHEDULE_TASKS = False
    ARTIFACTS.mkdir(exist_ok=True)
    for name in ("ann", "ben", "cal"):
        entry_register(tournament.pk, make_user(name))
    tournament_start(tournament.pk, by=director)
    page = console_page(live_browser, live_server.url, tournament.pk, PHONE)
    if language != "en":
        page.context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        page.reload()
    links = page.locator(".console-print a")
    expect(links).to_have_count(3)
    width = PHONE["width"]
    for link in links.all():
        expect(link).to_be_visible()
        box = link.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (
            link.inner_text(),
            box,
        )
        # Nothing of the link is hidden by a scrolling or clipping parent either.
        assert link.evaluate(
            "a => { const p = a.parentElement; return p.scrollWidth <= p.clientWidth; }"
        )
    picture(page, str(ARTIFACTS / f"console-print-{language}.png"))
    page.context.close()
