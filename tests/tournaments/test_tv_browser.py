"""The TV clock in Debian's chromium against a real server: its Live light goes out when the
link dies without a word (the server frozen, as behind a dropped Wi-Fi) and comes back on
when the link does; the director's layout, theme and the finish reach the screen without a
reload. Screenshots land in test-artifacts/. Deselect with ``-m "not browser"``.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import ARTIFACTS, TV, console_page, needs_chromium, picture, served_night
from tests.tables.servers import manage

pytestmark = needs_chromium

SETUP = """
from tournaments.models import BlindStructure, Entry, EntryState, BlindLevel, Tournament
from tournaments.services.clock.controls import clock_start

event = Event.objects.create(season=season, name="Friday Limit O8", starts_at=timezone.now(),
    venue="Ann's kitchen", game="omaha-hi-lo", structure="limit", buy_in=20, fee=5,
    starting_stack=10000)
blind_structure = BlindStructure.objects.create(
    name="Limit", for_limit=True, chip_set=[25, 100, 500])
rows = [("level", 20, 25, 50, 50, 100), ("level", 20, 50, 100, 100, 200), ("break", 10, 0, 0, None, None),
        ("level", 20, 100, 200, 200, 400)]
for position, (kind, minutes, small, big, small_bet, big_bet) in enumerate(rows):
    BlindLevel.objects.create(blind_structure=blind_structure, position=position, kind=kind,
        minutes=minutes, small_blind=small, big_blind=big, small_bet=small_bet, big_bet=big_bet)
tournament = Tournament.objects.create(
    event=event, blind_structure=blind_structure, state="running",
    addon_at_break=2, addon_chips=10000, addon_price=10)
for n, name in enumerate(["Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal"]):
    Entry.objects.create(tournament=tournament, player=Player.objects.create(name=name),
        state=EntryState.PLAYING, table_number=1, seat_number=n + 1)
clock_start(tournament.pk, by=director)
"""

# Seven players out (in a shell: the screens hear of it at the next change).
OUT = """
from django.contrib.auth.models import User
from tournaments.models import Entry
from tournaments.services.results import entry_eliminate
dana = User.objects.get(username="dana")
for name in ["Hal", "Gus", "Fay", "Eve", "Dee", "Cal", "Ben"]:
    entry = Entry.objects.get(tournament_id={id}, player__name=name)
    entry_eliminate({id}, [entry.pk], by=dana)
"""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[dict[str, Any]]:
    with served_night(tmp_path, SETUP) as night:
        try:
            yield night
        finally:
            # A test that froze the server lets it go before it is stopped.
            os.killpg(night["process"].pid, signal.SIGCONT)


def log_in_to_console(browser: Browser, served: dict[str, Any]) -> Page:
    page = console_page(browser, served["base"], served["id"], is_mobile=True)
    expect(page.locator("#console-tv")).to_be_visible()
    return page


def open_tv(browser: Browser, served: dict[str, Any]) -> Page:
    page = browser.new_context(viewport=TV).new_page()
    page.goto(f"{served['base']}/tournaments/tv/{served['token']}/")
    expect(page.locator('.tv [data-clock="link"]')).to_have_attribute("data-state", "live")
    return page


@pytest.mark.long(25, waits=True)
def test_the_live_light_goes_out_when_the_link_dies_silently_and_comes_back(
    chromium: Browser, served: dict[str, Any]
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    tv = open_tv(chromium, served)
    link = tv.locator('.tv [data-clock="link"]')
    process = served["process"]
    # Frozen, the server keeps its sockets open and says nothing: no close ever comes.
    os.killpg(process.pid, signal.SIGSTOP)
    expect(link).to_have_attribute("data-state", "lost", timeout=25_000)
    expect(link).to_have_text("Reconnecting…")
    picture(tv.locator(".tv-top"), str(ARTIFACTS / "tv-link-lost-header.png"))
    os.killpg(process.pid, signal.SIGCONT)
    expect(link).to_have_attribute("data-state", "live", timeout=30_000)
    expect(link).to_have_text("Live")


def test_the_tv_follows_the_layout_and_the_finish_without_a_reload(
    chromium: Browser, served: dict[str, Any]
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    tv = open_tv(chromium, served)
    root = tv.locator(".tv")
    expect(tv.locator('.tv [data-clock="bets"]')).to_have_text("50 / 100")
    expect(tv.locator('.tv [data-clock="blinds"]')).to_have_text("Blinds 25 / 50")
    expect(tv.locator('.tv [data-clock="coming"] li').nth(1)).to_contain_text("Add-on break")
    tv.evaluate("window.loadedOnce = true")

    # The director picks the green felt and no payouts on the console.
    manage(served["env"], "shell", "-c", OUT.format(id=served["id"]))
    console = log_in_to_console(chromium, served)
    section = console.locator("#console-tv")
    section.locator("summary").click()
    section.get_by_label("Theme").select_option("felt")
    section.get_by_label("Payouts").uncheck()
    section.get_by_role("button", name="Show this on the TV").click()
    expect(section.get_by_role("status")).to_have_text("The TV shows the new layout.")
    expect(root).to_have_attribute("data-theme", "felt")
    expect(tv.locator('.tv [data-tv="payouts"]')).to_be_hidden()

    console.once("dialog", lambda dialog: dialog.accept())
    console.get_by_role("button", name="End the tournament: Ann wins").click()
    expect(tv.locator('.tv [data-tv="winner"]')).to_have_text("Ann")
    expect(tv.locator('.tv [data-clock="time"]')).to_be_hidden()
    expect(tv.locator('.tv [data-clock="next-break"]')).to_be_hidden()
    expect(tv.locator('.tv [data-tv="places"] li').first).to_contain_text("Ann")
    expect(tv.locator('.tv [data-tv="places"] li')).to_have_count(8)
    assert tv.evaluate("window.loadedOnce") is True, "the page was reloaded"
    picture(tv, str(ARTIFACTS / "tv-finished-felt-1920x1080.png"))
