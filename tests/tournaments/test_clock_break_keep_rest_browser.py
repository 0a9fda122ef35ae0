"""The console's "Break now" on a director's phone (390x844): both choices on screen, the
first one (the tap a director makes) keeping the rest of the level for after the break.
Screenshots land in test-artifacts/ (console-break-now-*.png). Deselect with
``-m "not browser"``."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, expect

from series.models import Event, Season
from series.services import director_grant
from tests.browser import ARTIFACTS, PHONE, console_page, needs_chromium, picture
from tests.conftest import PASSWORD
from tests.tournaments.clock_helpers import CLOCK_ROWS, blind_structure_with
from tournaments.models import Tournament, TournamentState
from tournaments.services.clock.controls import clock_start

pytestmark = needs_chromium


@pytest.fixture
def night(transactional_db: None, settings) -> Tournament:  # type: ignore[no-untyped-def]
    settings.TOURNAMENTS_SCHEDULE_TASKS = False
    director = director_grant(User.objects.create_user("dana", password=PASSWORD))
    today = timezone.localdate()
    season = Season.objects.create(name="Spring", starts_on=today, ends_on=today + timedelta(60))
    event = Event.objects.create(
        season=season, name="Thursday PLO8", starts_at=timezone.now(), buy_in=20
    )
    tournament = Tournament.objects.create(
        event=event, blind_structure=blind_structure_with(CLOCK_ROWS), state=TournamentState.RUNNING
    )
    # Level 1 has been running for five minutes: 15 minutes left in it.
    return clock_start(tournament.pk, by=director, now=timezone.now() - timedelta(minutes=5))


def test_break_now_keeping_the_rest_on_a_phone(
    night: Tournament, live_server, live_browser: Browser
) -> None:  # type: ignore[no-untyped-def]
    ARTIFACTS.mkdir(exist_ok=True)
    page = console_page(live_browser, live_server.url, night.pk, PHONE)
    clock = page.locator("#console-clock")
    keep = clock.get_by_role("button", name="Break now, then the rest of this level")
    skip = clock.get_by_role("button", name="Break now, skip the rest of this level")
    keep.scroll_into_view_if_needed()
    expect(keep).to_be_visible()
    expect(skip).to_be_visible()
    # Each a full-width button a thumb finds, the usual choice first.
    keep_box, skip_box = keep.bounding_box(), skip.bounding_box()
    assert keep_box is not None and skip_box is not None
    assert keep_box["y"] < skip_box["y"]
    assert keep_box["width"] > PHONE["width"] / 2 and keep_box["height"] >= 44
    assert skip_box["x"] + skip_box["width"] <= PHONE["width"]
    picture(page, str(ARTIFACTS / "console-break-now-choice-390.png"))

    keep.click()
    expect(clock.locator("[data-clock=level]")).to_have_text("Break")
    expect(clock.locator('[data-clock="next"]')).to_have_text("Level 1: 25 / 50")
    expect(page.locator("#console-players .undo-what")).to_contain_text(
        re.compile(r"Break now: 10 min, then the rest of level 1 \(1[45]:\d\d\)")
    )
    night.refresh_from_db()
    assert night.state == TournamentState.ON_BREAK and night.resume_index == 1
    page.locator("#console-clock").scroll_into_view_if_needed()
    picture(page, str(ARTIFACTS / "console-break-now-on-break-390.png"))
