"""The season calendar and an event page on a phone (390x844), for a season of 20 events
and 40 players, in Debian's chromium. Screenshots land in test-artifacts/, to be
looked at. Deselect with ``-m "not browser"``."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from series.models import Event, Season
from series.services.standings import standings_recompute
from tests.browser import ARTIFACTS, LAPTOP, PHONE, log_in, needs_chromium, picture
from tests.series.season_fixture import build_season

pytestmark = needs_chromium


@pytest.fixture
def big_season(transactional_db: None) -> Season:
    season = build_season(events=20, players=40, seed=0)
    # The standings task runs after commit in production; here, once, so points show.
    standings_recompute(season.pk)
    return season


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways ({width}px)"


def test_calendar_and_event_pages_on_a_phone(
    big_season: Season, live_server, live_browser: Browser
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    base = live_server.url
    page = live_browser.new_page(viewport=PHONE)
    user = User.objects.filter(series_player__isnull=False).order_by("pk").first()
    assert user is not None
    log_in(page, base, user.get_username())

    page.goto(f"{base}/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Calendar").click()
    page.get_by_role("link", name=big_season.name).click()
    expect(page.get_by_role("heading", name=big_season.name, level=1)).to_be_visible()
    expect(page.locator(".calendar-event")).to_have_count(20)
    no_sideways_scroll(page)
    picture(page, str(ARTIFACTS / "series-calendar-phone.png"), full_page=True)
    page.locator(".calendar-event.is-next").scroll_into_view_if_needed()
    picture(page, str(ARTIFACTS / "series-calendar-next-phone.png"))

    upcoming = Event.objects.get(season=big_season, number=13)  # the next one: full
    page.goto(f"{base}/series/events/{upcoming.pk}/")
    expect(page.get_by_role("heading", name="Blind structure")).to_be_visible()
    expect(page.get_by_role("heading", name="Waiting list")).to_be_visible()
    no_sideways_scroll(page)
    picture(page, str(ARTIFACTS / "series-event-upcoming-phone.png"), full_page=True)
    page.get_by_role("button", name="Join the waiting list").click()
    expect(page.get_by_text("You are number 3 on the waiting list.")).to_be_visible()

    finished = Event.objects.get(season=big_season, number=2)
    page.goto(f"{base}/series/events/{finished.pk}/")
    expect(page.get_by_role("heading", name="Results")).to_be_visible()
    no_sideways_scroll(page)
    picture(page, str(ARTIFACTS / "series-event-finished-phone.png"), full_page=True)
    # The notes link the structure used last time: its event page, with its table.
    first = Event.objects.get(season=big_season, number=1)
    page.get_by_role("link", name=f"/series/events/{first.pk}/").click()
    expect(page.get_by_role("heading", name=first.name, level=1)).to_be_visible()
    expect(page.get_by_role("heading", name="Blind structure")).to_be_visible()


def test_calendar_and_event_pages_on_a_laptop(
    big_season: Season, live_server, live_browser: Browser
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    base = live_server.url
    page = live_browser.new_page(viewport=LAPTOP)
    page.goto(f"{base}/series/seasons/{big_season.pk}/")
    expect(page.locator(".calendar-event")).to_have_count(20)
    picture(page, str(ARTIFACTS / "series-calendar-laptop.png"))
    finished = Event.objects.get(season=big_season, number=1)
    page.goto(f"{base}/series/events/{finished.pk}/")
    expect(page.get_by_role("heading", name="Results")).to_be_visible()
    picture(page, str(ARTIFACTS / "series-event-finished-laptop.png"), full_page=True)
