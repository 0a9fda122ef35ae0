"""The TV clock in Debian's chromium against a real server: counting down, following the
director's pause, counting on while its server is away (into the next rows, those its page
was sent) and resyncing when it returns.

``manage.py serve`` (daphne and the embedded Celery) runs on a free port with its own SQLite
file; a tournament of 27 entries is mid-evening on level 4. Screenshots of the TV at
1920x1080 and on a phone (390x844), and of the console's clock on a phone, land in
test-artifacts/. Deselect with ``-m "not browser"``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import ARTIFACTS, PHONE, TV, console_page, needs_chromium, picture, served_night
from tests.tables.servers import manage, start_serve, stop

pytestmark = needs_chromium

SETUP = """
from tournaments.models import BlindStructure, Entry, EntryState, BlindLevel, Tournament
from tournaments.services.clock.controls import clock_next, clock_start

event = Event.objects.create(season=season, name="Thursday Night PLO8", starts_at=timezone.now(),
    venue="Ann's kitchen", game="omaha-hi-lo", structure="pot-limit", buy_in=20, fee=5,
    starting_stack=10000)
blind_structure = BlindStructure.objects.create(name="Home PLO8", chip_set=[25, 100, 500, 1000])
rows = [("level", 20, 25, 50, 0), ("level", 20, 50, 100, 0), ("level", 20, 75, 150, 0),
        ("level", 20, 100, 200, 0), ("break", 15, 0, 0, 0), ("level", 20, 150, 300, 300),
        ("level", 20, 200, 400, 400), ("break", 10, 0, 0, 0), ("level", 20, 300, 600, 600),
        ("level", 20, 400, 800, 800)]
for position, (kind, minutes, small, big, ante) in enumerate(rows):
    BlindLevel.objects.create(blind_structure=blind_structure, position=position, kind=kind,
        minutes=minutes, small_blind=small, big_blind=big, ante=ante,
        ante_kind="big-blind" if ante else "none", colour_up=[25] if position == 4 else [])
tournament = Tournament.objects.create(
    event=event, blind_structure=blind_structure, state="running",
    rebuys_allowed=1, rebuy_chips=10000, rebuy_price=20, addon_chips=10000, addon_price=10)
for n in range(27):
    player = Player.objects.create(name=f"Player {n}")
    Entry.objects.create(tournament=tournament, player=player,
        state=EntryState.OUT if n < 9 else EntryState.PLAYING, rebuys=1 if n % 4 == 0 else 0,
        addon=n % 3 == 0)
clock_start(tournament.pk, by=director)
for _ in range(3):
    clock_next(tournament.pk, by=director)
"""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[dict[str, Any]]:
    with served_night(tmp_path, SETUP) as night:
        yield night


def seconds_shown(page: Page) -> int:
    minutes, seconds = page.locator('.tv [data-clock="time"]').inner_text().split(":")
    return int(minutes) * 60 + int(seconds)


def director_shell(served: dict[str, Any], code: str) -> None:
    manage(served["env"], "shell", "-c", code)


@pytest.mark.long(40, waits=True)
def test_the_tv_clock_counts_follows_and_survives_its_server(
    chromium: Browser, served: dict[str, Any]
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    url = f"{served['base']}/tournaments/tv/{served['token']}/"
    tv = chromium.new_context(viewport=TV).new_page()
    tv.goto(url)
    link = tv.locator('.tv [data-clock="link"]')
    expect(link).to_have_attribute("data-state", "live")
    expect(tv.locator('.tv [data-clock="level"]')).to_have_text("Level 4")
    expect(tv.locator('.tv [data-clock="bets"]')).to_have_text("100 / 200")
    expect(tv.locator('.tv [data-clock="players"]')).to_have_text("18 of 27")
    expect(tv.locator('.tv [data-clock="chip-race"]')).to_contain_text("25")
    first, since = seconds_shown(tv), time.monotonic()
    tv.wait_for_timeout(2100)
    # As many seconds as went by (a busy machine may give the page more than 2.1 s).
    counted, went_by = first - seconds_shown(tv), time.monotonic() - since
    assert 1 <= counted <= went_by + 1, f"the clock counted {counted} s in {went_by:.1f} s"
    picture(tv, str(ARTIFACTS / "tv-clock-1920x1080.png"))

    phone = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(url)
    expect(phone.locator('.tv [data-clock="link"]')).to_have_attribute("data-state", "live")
    picture(phone, str(ARTIFACTS / "tv-clock-phone-390x844.png"), full_page=True)

    # A director pauses on the console: both screens follow over their sockets.
    console = log_in_to_console(chromium, served)
    console.locator("#console-clock").get_by_role("button", name="Pause").click()
    for page in (tv, phone):
        expect(page.locator('.tv [data-clock="status"]')).to_have_text("Paused")
    paused_at = seconds_shown(tv)
    tv.wait_for_timeout(1500)
    assert seconds_shown(tv) == paused_at
    picture(tv, str(ARTIFACTS / "tv-clock-paused-1920x1080.png"))
    console.locator("#console-clock").get_by_role("button", name="Resume").click()
    expect(tv.locator('.tv [data-clock="status"]')).to_be_hidden()

    # The server goes away: the screen says so and keeps counting from the stored end.
    stop(served["process"])
    expect(link).to_have_attribute("data-state", "lost")
    before, since = seconds_shown(tv), time.monotonic()
    tv.wait_for_timeout(2100)
    counted, went_by = before - seconds_shown(tv), time.monotonic() - since
    assert 1 <= counted <= went_by + 1, f"without its socket: {counted} s in {went_by:.1f} s"
    # Meanwhile a minute is added (the database is the truth, the server still away).
    director_shell(
        served,
        "from django.contrib.auth.models import User\n"
        "from tournaments.services.clock.controls import clock_adjust\n"
        f"clock_adjust({served['id']}, 60, by=User.objects.get(username='dana'))",
    )
    shown_before = seconds_shown(tv)
    served["process"] = start_serve(served["env"], served["port"], log=served["log"])
    # It comes back on its own (backoff) and resyncs: the added minute shows.
    expect(link).to_have_attribute("data-state", "live", timeout=20_000)
    deadline = time.monotonic() + 5
    while seconds_shown(tv) < shown_before + 30 and time.monotonic() < deadline:
        tv.wait_for_timeout(100)
    assert seconds_shown(tv) >= shown_before + 30, "the screen did not resync the added minute"


def log_in_to_console(browser: Browser, served: dict[str, Any]) -> Page:
    page = console_page(browser, served["base"], served["id"], is_mobile=True, has_touch=True)
    expect(page.locator('#console-clock [data-clock="link"]')).to_have_attribute(
        "data-state", "live"
    )
    return page


def test_the_console_clock_on_a_phone(chromium: Browser, served: dict[str, Any]) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page = log_in_to_console(chromium, served)
    panel = page.locator("#console-clock")
    expect(panel.locator('[data-clock="level"]')).to_have_text("Level 4")
    panel.get_by_role("button", name="Pause").click()
    expect(panel.locator('[data-clock="status"]')).to_have_text("Paused")
    minutes, seconds = panel.locator('[data-clock="time"]').inner_text().split(":")
    paused_at = int(minutes) * 60 + int(seconds)
    panel.get_by_role("button", name="Add one minute").click()
    # The panel comes back from the server with the minute added (and stays paused).
    added = f"{(paused_at + 60) // 60}:{(paused_at + 60) % 60:02d}"
    expect(panel.locator('[data-clock="time"]')).to_have_text(added)
    expect(panel.get_by_role("button", name="Resume")).to_be_visible()
    picture(panel, str(ARTIFACTS / "console-clock-phone.png"), settle=300)
    panel.get_by_role("button", name="Resume").click()
    expect(panel.locator('[data-clock="status"]')).to_be_hidden()
    picture(page, str(ARTIFACTS / "console-phone-with-clock.png"), full_page=True)


@pytest.mark.long(40, waits=True)
def test_the_tv_moves_on_to_the_break_while_its_server_is_away(
    chromium: Browser, served: dict[str, Any]
) -> None:
    """Level 4 ends while the server is down: the screen counts down to 0:00 from the end
    time it was sent, then shows the break, counting down from its full length (the rows
    ahead its page was sent); when the server is back, the state it sends agrees."""
    director_shell(
        served,
        "from datetime import timedelta\n"
        "from django.utils import timezone\n"
        "from tournaments.models import Tournament\n"
        f"Tournament.objects.filter(pk={served['id']}).update("
        "level_ends_at=timezone.now() + timedelta(seconds=20))",
    )
    tv = chromium.new_context(viewport=TV).new_page()
    tv.goto(f"{served['base']}/tournaments/tv/{served['token']}/")
    expect(tv.locator('.tv [data-clock="link"]')).to_have_attribute("data-state", "live")
    expect(tv.locator('.tv [data-clock="level"]')).to_have_text("Level 4")
    assert seconds_shown(tv) > 4, "level 4 ended before the page had loaded"
    # The next break and the rows coming up count down to the instants they were sent.
    coming = tv.locator('.tv [data-clock="coming"] li')
    expect(coming.nth(0)).to_contain_text("Break")
    first, since = seconds_shown(tv), time.monotonic()
    tv.wait_for_timeout(2100)
    # As many seconds as went by (a busy machine may give the page more than 2.1 s).
    counted, went_by = first - seconds_shown(tv), time.monotonic() - since
    assert 1 <= counted <= went_by + 1, f"the clock counted {counted} s in {went_by:.1f} s"
    stop(served["process"])
    expect(tv.locator('.tv [data-clock="link"]')).to_have_attribute("data-state", "lost")
    expect(tv.locator('.tv [data-clock="level"]')).to_have_text("Break", timeout=30_000)
    assert 14 * 60 < seconds_shown(tv) <= 15 * 60
    expect(tv.locator('.tv [data-clock="next"]')).to_have_text(
        "Level 5: 150 / 300 · Big-blind ante 300"
    )
    expect(tv.locator('.tv [data-clock="bets-line"]')).to_be_hidden()
    expect(coming.nth(0)).to_contain_text("Level 5")
    expect(tv.locator('.tv [data-clock="status"]')).to_be_hidden()
    picture(tv, str(ARTIFACTS / "tv-clock-break-server-away-1920x1080.png"))

    served["process"] = start_serve(served["env"], served["port"], log=served["log"])
    expect(tv.locator('.tv [data-clock="link"]')).to_have_attribute(
        "data-state", "live", timeout=20_000
    )
    expect(tv.locator('.tv [data-clock="level"]')).to_have_text("Break")
    assert 14 * 60 < seconds_shown(tv) <= 15 * 60
    expect(tv.locator('.tv [data-clock="next"]')).to_have_text(
        "Level 5: 150 / 300 · Big-blind ante 300"
    )


def test_past_the_last_level_the_server_sends_the_doubled_levels(
    chromium: Browser, served: dict[str, Any]
) -> None:
    # The last level (400/800, big-blind ante 800), with time left for the page to load and
    # show it however busy the machine; then its end is moved to now, as a level that ran out.
    def last_level_ends_in(seconds: int) -> None:
        director_shell(
            served,
            "from datetime import timedelta\n"
            "from django.utils import timezone\n"
            "from tournaments.models import Tournament\n"
            f"Tournament.objects.filter(pk={served['id']}).update(level_index=9,"
            f" level_ends_at=timezone.now() + timedelta(seconds={seconds}))",
        )

    last_level_ends_in(600)
    tv = chromium.new_context(viewport=TV).new_page()
    tv.goto(f"{served['base']}/tournaments/tv/{served['token']}/")
    expect(tv.locator('.tv [data-clock="link"]')).to_have_attribute("data-state", "live")
    expect(tv.locator('.tv [data-clock="level"]')).to_have_text("Level 8")
    expect(tv.locator('.tv [data-clock="next"]')).to_have_text(
        "Level 9: 800 / 1,600 · Big-blind ante 1,600"
    )
    last_level_ends_in(0)
    # The server's sweep stores the next level and sends it: the doubled one.
    expect(tv.locator('.tv [data-clock="level"]')).to_have_text("Level 9", timeout=15_000)
    expect(tv.locator('.tv [data-clock="bets"]')).to_have_text("800 / 1,600")
    expect(tv.locator('.tv [data-clock="ante"]')).to_have_text("Big-blind ante 1,600")
    expect(tv.locator('.tv [data-clock="next"]')).to_have_text(
        "Level 10: 1,600 / 3,200 · Big-blind ante 3,200"
    )
    expect(tv.locator('.tv [data-clock="status"]')).to_be_hidden()
    assert 19 * 60 <= seconds_shown(tv) <= 20 * 60  # as long as the last level
