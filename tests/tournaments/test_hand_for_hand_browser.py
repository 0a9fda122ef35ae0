"""Hand-for-hand in the room, in Debian's chromium against a real server: the director turns
it on from the console on a phone, a dealer taps "hand done" on the table's own page on
another phone, and the TV and the console follow over their sockets. The quick changes to
the levels open on the console. Screenshots land in test-artifacts/ (phone 390x844 and
desktop 1280x800). Deselect with ``-m "not browser"``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import (
    ARTIFACTS,
    LAPTOP,
    PHONE,
    console_page,
    needs_chromium,
    picture,
    served_night,
)

pytestmark = needs_chromium

SETUP = """
from tournaments.models import (BlindStructure, Entry, EntryState, BlindLevel, Tournament,
    TournamentTable)
from tournaments.services.clock.controls import clock_start

event = Event.objects.create(season=season, name="Thursday Night PLO8", starts_at=timezone.now(),
    venue="Ann's kitchen", game="omaha-hi-lo", structure="pot-limit", buy_in=20, fee=5,
    starting_stack=10000)
blind_structure = BlindStructure.objects.create(name="Home PLO8", chip_set=[25, 100, 500, 1000])
rows = [("level", 20, 25, 50), ("level", 20, 50, 100), ("break", 10, 0, 0),
        ("level", 20, 100, 200), ("level", 20, 200, 400)]
for position, (kind, minutes, small, big) in enumerate(rows):
    BlindLevel.objects.create(blind_structure=blind_structure, position=position, kind=kind,
        minutes=minutes, small_blind=small, big_blind=big)
tournament = Tournament.objects.create(
    event=event, blind_structure=blind_structure, state="running",
    payout_basis_points=[5000, 3000, 2000])
seats = {1: ["Ann", "Bob", "Cal"], 2: ["Dee", "Eve"]}
for number, names in seats.items():
    TournamentTable.objects.create(tournament=tournament, number=number)
    for seat, name in enumerate(names, start=1):
        Entry.objects.create(tournament=tournament, player=Player.objects.create(name=name),
            state=EntryState.PLAYING, table_number=number, seat_number=seat)
Entry.objects.create(tournament=tournament, player=Player.objects.create(name="Fay"),
    state=EntryState.OUT, place=6)
clock_start(tournament.pk, by=director)
"""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[dict[str, Any]]:
    with served_night(tmp_path, SETUP) as night:
        yield night


def live_console(browser: Browser, served: dict[str, Any], viewport: dict[str, int]) -> Page:
    """The console, logged in, once its clock is live."""
    page = console_page(browser, served["base"], served["id"], viewport)
    expect(page.locator('#console-clock [data-clock="link"]')).to_have_attribute(
        "data-state", "live"
    )
    return page


@pytest.mark.long(30)
def test_a_dealer_taps_hand_done_and_every_screen_follows(
    chromium: Browser, served: dict[str, Any]
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    clock = live_console(chromium, served, PHONE).locator("#console-clock")
    clock.get_by_text("Hand-for-hand", exact=True).click()
    clock.get_by_role("button", name="Start hand-for-hand").click()
    expect(clock.locator('[data-clock="status"]')).to_have_text("Hand-for-hand")
    expect(clock.locator(".cc-tables li")).to_have_count(2)

    tv_url = f"{served['base']}/tournaments/tv/{served['token']}/"
    tv = chromium.new_context(viewport=LAPTOP).new_page()
    tv.goto(tv_url)
    line = tv.locator('.tv [data-clock="hand-for-hand"]')
    expect(line).to_have_text("Finishing the hands in play · Still playing: tables 1, 2")
    expect(tv.locator('.tv [data-clock="status"]')).to_have_text("Hand-for-hand")

    # The dealer of table 2, on a phone with no login, from the link on the console.
    dealer_url = clock.locator(".cc-tables li").nth(1).locator("a.cc-dealer").get_attribute("href")
    dealer = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    dealer.goto(f"{served['base']}{dealer_url}")
    expect(dealer.locator("h1")).to_have_text("Table 2")
    picture(dealer, str(ARTIFACTS / "hand-for-hand-dealer-390x844.png"), full_page=True)
    dealer.get_by_role("button", name="Hand done").click()
    expect(dealer.get_by_text("Done. Wait for the other tables")).to_be_visible()
    expect(dealer.get_by_text("Still playing: table 1")).to_be_visible()

    # The TV and the console follow over their sockets.
    expect(line).to_have_text("Finishing the hands in play · Still playing: table 1")
    expect(clock.locator(".cc-tables li").nth(1).locator(".cc-done")).to_have_text("done")
    picture(tv, str(ARTIFACTS / "hand-for-hand-tv-1280x800.png"))
    phone_tv = chromium.new_context(viewport=PHONE, is_mobile=True).new_page()
    phone_tv.goto(tv_url)
    expect(phone_tv.locator('.tv [data-clock="hand-for-hand"]')).to_be_visible()
    picture(phone_tv, str(ARTIFACTS / "hand-for-hand-tv-390x844.png"), full_page=True)
    picture(clock, str(ARTIFACTS / "hand-for-hand-console-390x844.png"))

    # The director says table 1 is done: hand 1 starts everywhere.
    clock.locator(".cc-tables li").first.get_by_role("button", name="Hand done").click()
    expect(line).to_have_text("Hand 1 · Still playing: tables 1, 2")
    expect(dealer.locator("form.dealer-done")).to_be_visible(timeout=15_000)

    # The quick changes to the levels, on a desktop console.
    desk = live_console(chromium, served, LAPTOP)
    desk_clock = desk.locator("#console-clock")
    desk_clock.get_by_text("Change the levels").click()
    expect(desk_clock.get_by_role("button", name="Add the level")).to_be_visible()
    picture(desk_clock, str(ARTIFACTS / "clock-levels-console-1280x800.png"))
    clock.get_by_text("Change the levels").click()
    picture(clock, str(ARTIFACTS / "clock-levels-console-390x844.png"))
    clock.get_by_role("button", name="Add the level").click()
    expect(clock.locator(".cc-levels")).to_have_attribute("open", "")
    expect(clock.locator('[data-clock="next"]')).to_have_text("Level 2: 25 / 50")
