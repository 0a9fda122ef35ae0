"""The director's console on a phone (390x844) in Debian's chromium, and the public page.

Screenshots land in test-artifacts/ (console-phone.png, tournament-phone.png). Deselect with
``-m "not browser"``.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connections
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect, sync_playwright

from series.models import Event, Season
from series.services import director_grant
from tests.browser import ARTIFACTS, launch_chromium, needs_chromium
from tests.conftest import PASSWORD
from tournaments.models import (
    BlindStructure,
    Entry,
    EntryState,
    StructureLevel,
    Tournament,
    TournamentState,
)
from tournaments.services.entries import (
    entry_add_walk_in,
    entry_rebuy,
    entry_register,
    tournament_start,
)

from .conftest_t1 import BREAK_1, ROWS, make_user

pytestmark = needs_chromium

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def night(transactional_db: None) -> tuple[Tournament, User]:
    """A tournament at its add-on break: players in, one out, one registered late, a guest
    walked in late, and a few actions in the log."""
    director = director_grant(User.objects.create_user("dana", password=PASSWORD))
    today = timezone.localdate()
    season = Season.objects.create(
        name="Spring", starts_on=today, ends_on=today + timedelta(days=60)
    )
    event = Event.objects.create(
        season=season, name="Thursday PLO8", starts_at=timezone.now(), buy_in=20, fee=5
    )
    structure = BlindStructure.objects.create(name="Home PLO8")
    StructureLevel.objects.bulk_create(
        StructureLevel(
            structure=structure,
            position=position,
            kind=kind,
            minutes=minutes,
            small_blind=small,
            big_blind=big,
        )
        for position, (kind, minutes, small, big) in enumerate(ROWS)
    )
    tournament = Tournament.objects.create(
        event=event,
        blind_structure=structure,
        capacity=7,
        late_registration_until_level=4,
        rebuys_allowed=2,
        rebuy_until_level=3,
        rebuy_chips=10000,
        rebuy_price=20,
        addon_at_break=BREAK_1,
        addon_chips=15000,
        addon_price=20,
        reentries_allowed=1,
        reentry_until_level=4,
    )
    for name in ("Ann", "Ben", "Cal", "Dee", "Eve"):
        entry_register(tournament.pk, make_user(name))
    tournament_start(tournament.pk, by=director)
    ann = tournament.entries.get(player__name="Ann")
    entry_rebuy(ann.pk, by=director, stack=1200)
    Entry.objects.filter(player__name="Eve").update(
        state=EntryState.OUT, table_number=None, seat_number=None
    )
    entry_register(tournament.pk, make_user("Fay"))
    entry_add_walk_in(tournament.pk, "Gus from next door", by=director)
    # The clock at the add-on break, ten minutes left.
    Tournament.objects.filter(pk=tournament.pk).update(
        level_index=BREAK_1,
        state=TournamentState.ON_BREAK,
        level_ends_at=timezone.now() + timedelta(minutes=10),
    )
    return tournament, director


@pytest.fixture
def browser(live_server: object, monkeypatch: pytest.MonkeyPatch) -> Iterator[Browser]:
    # As in tests/series/test_browser.py: the browser closes before the live server, and
    # the ORM calls made while Playwright's loop runs close their connections at the end.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        yield browser
        browser.close()
        connections.close_all()


def log_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def test_the_console_on_a_phone(
    night: tuple[Tournament, User], live_server, browser: Browser
) -> None:
    tournament, _director = night
    ARTIFACTS.mkdir(exist_ok=True)
    base = live_server.url
    page = browser.new_page(viewport=PHONE)
    log_in(page, base, "dana")
    page.goto(f"{base}/tournaments/{tournament.pk}/console/")
    expect(page.get_by_role("heading", name="Thursday PLO8")).to_be_visible()

    # A one-tap add-on through htmx: the entries section is swapped in place.
    ben = page.locator("li.entry", has_text="Ben")
    ben.get_by_role("button", name="Add-on").click()
    expect(page.get_by_text("Add-on for Ben.")).to_be_visible()
    expect(
        page.locator("li.entry", has_text="Ben").get_by_role("button", name="Add-on")
    ).to_have_count(0)

    page.locator("#walk-in-name").fill("Hal")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.get_by_text("Hal is in.")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "console-phone.png"), full_page=True)

    # Undo repaints the whole console and says what it undid.
    page.get_by_role("button", name="Undo").click()
    expect(page.get_by_text("Undone: Walk-in, late entry: Hal")).to_be_visible()
    assert not tournament.entries.filter(player__name="Hal").exists()
    page.screenshot(path=str(ARTIFACTS / "console-phone-after-undo.png"), full_page=True)
    page.close()


def test_the_public_page_on_a_phone(
    night: tuple[Tournament, User], live_server, browser: Browser
) -> None:
    tournament, _director = night
    ARTIFACTS.mkdir(exist_ok=True)
    make_user("rosa")  # registers during late registration
    page = browser.new_page(viewport=PHONE)
    log_in(page, live_server.url, "rosa")
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    page.get_by_role("button", name="Register").click()
    expect(page.get_by_text("You are registered. See you at the table!")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "tournament-phone.png"), full_page=True)
    page.close()
