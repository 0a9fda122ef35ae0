"""Chip counts on a phone (390x844) and a laptop (1280x800) in Debian's chromium.

The director opens the count page from the console, counts table 1 and then table 2, and
the console shows the chip leader and how the counts compare with the chips in play; the
TV shows the leader. Screenshots land in test-artifacts/ (chip-count-form-phone.png,
chip-count-form-laptop.png, console-chips-section-phone.png, tv-chips-laptop.png).
Deselect with ``-m "not browser"``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import ARTIFACTS, LAPTOP, PHONE, log_in, needs_chromium, picture
from tests.tournaments.factories import seat
from tournaments.models import ChipCount, Entry, Tournament

pytestmark = needs_chromium

# Ten players at two tables; ten entries of 10,000 and Ann's rebuy of 10,000: 110,000.
LAYOUT = {
    1: ["Ann", "Ben", "Cal", "Dee", "Eve"],
    2: ["Fay", "Gus", "Hal", "Ivy", "Jonathan Alexander-Smythe"],
}


@pytest.fixture
def night(tournament_in_play: Tournament) -> Tournament:
    seat(tournament_in_play, LAYOUT)
    Entry.objects.filter(tournament=tournament_in_play, player__name="Ann").update(rebuys=1)
    return tournament_in_play


def fill(page: Page, stacks: dict[str, str]) -> None:
    for name, chips in stacks.items():
        page.locator(".chips-rows li", has_text=name).locator("input").fill(chips)


def test_a_count_by_table_from_a_phone(
    night: Tournament, live_server, live_browser: Browser
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    base = live_server.url
    page = live_browser.new_page(viewport=PHONE)
    log_in(page, base)
    page.goto(f"{base}/tournaments/{night.pk}/console/")
    section = page.locator("#console-chips")
    expect(section).to_contain_text("No chips counted yet.")
    section.get_by_role("link", name="Count chips").click()

    # Table 1 at the break.
    fill(page, {"Ann": "31000", "Ben": "8000", "Cal": "12500", "Dee": "9000", "Eve": "4500"})
    picture(page, str(ARTIFACTS / "chip-count-form-phone.png"), full_page=True)
    page.get_by_role("button", name="Save the counts").click()
    section = page.locator("#console-chips")
    expect(section).to_contain_text("5 of 10 players counted: 65,000.")
    expect(section).to_contain_text("31,000")

    # Table 2, miscounted by 5,000: kept, and the difference said.
    section.get_by_role("link", name="Count chips").click()
    expect(page.locator(".chips-rows li", has_text="Ann")).to_contain_text("last 31,000")
    fill(
        page,
        {"Fay": "10000", "Gus": "15000", "Hal": "7000", "Ivy": "9000", "Jonathan": "9000"},
    )
    page.get_by_role("button", name="Save the counts").click()
    section = page.locator("#console-chips")
    expect(section).to_contain_text(
        "The stacks add up to 115,000, 5,000 more than the 110,000 in play."
    )
    picture(section, str(ARTIFACTS / "console-chips-section-phone.png"))
    assert ChipCount.objects.filter(tournament=night).count() == 10

    # A value that is no number of chips is refused with what was typed kept.
    page.goto(f"{base}/tournaments/{night.pk}/console/chips/")
    fill(page, {"Ben": "9500", "Cal": "-3"})
    page.locator("form.chips-form").evaluate("form => form.noValidate = true")
    page.get_by_role("button", name="Save the counts").click()
    expect(page.get_by_role("alert")).to_contain_text("Cal: a stack must be more than 0 chips")
    expect(page.locator(".chips-rows li", has_text="Ben").locator("input")).to_have_value("9500")
    assert ChipCount.objects.filter(tournament=night).count() == 10
    page.close()

    laptop = live_browser.new_page(viewport=LAPTOP)
    log_in(laptop, base)
    laptop.goto(f"{base}/tournaments/{night.pk}/console/chips/")
    picture(laptop, str(ARTIFACTS / "chip-count-form-laptop.png"), full_page=True)
    laptop.goto(f"{base}/tournaments/tv/{night.tv_token}/")
    # The TV shows its chips part while its "show the chip counts" option is on (the default).
    expect(laptop.locator('[data-clock="chip-leader"]').first).to_have_text("Ann")
    expect(laptop.locator('[data-clock="chip-leader-chips"]').first).to_have_text("31,000")
    picture(laptop, str(ARTIFACTS / "tv-chips-laptop.png"))
    laptop.close()
