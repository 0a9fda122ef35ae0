"""A player's night page in Debian's chromium against a real server (daphne and the embedded
Celery): the director confirms a move in the console and the player's phone shows
"table X seat Y → table Z seat W" within a second, in English and in French; a rebuy asked
from the phone and approved with one tap in the console.

Screenshots (phone 390x844, and a laptop) land in test-artifacts/night/.
"""

from __future__ import annotations

import re
import time
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
    log_in,
    needs_chromium,
    picture,
    served_night,
)

pytestmark = needs_chromium

SHOTS = ARTIFACTS / "night"

SETUP = """
from tournaments.models import BlindLevel, BlindStructure, Entry, EntryState, Tournament, TournamentTable
from tournaments.services.clock.controls import clock_start
from tests.conftest import PASSWORD

event = Event.objects.create(season=season, name="Thursday Night PLO8", starts_at=timezone.now(),
    venue="Ann's kitchen", game="omaha-hi-lo", structure="pot-limit", buy_in=20, fee=5,
    starting_stack=10000)
blind_structure = BlindStructure.objects.create(name="Home PLO8", chip_set=[25, 100, 500, 1000])
rows = [("level", 20, 25, 50), ("level", 20, 50, 100), ("break", 10, 0, 0), ("level", 20, 100, 200)]
for position, (kind, minutes, small, big) in enumerate(rows):
    BlindLevel.objects.create(blind_structure=blind_structure, position=position, kind=kind,
        minutes=minutes, small_blind=small, big_blind=big)
tournament = Tournament.objects.create(
    event=event, blind_structure=blind_structure, state="running",
    rebuys_allowed=2, rebuy_until_level=2, rebuy_chips=10000, rebuy_price=20,
    addon_at_break=2, addon_chips=10000, addon_price=10)
for number in (1, 2):
    TournamentTable.objects.create(tournament=tournament, number=number)
people = {"Ann": (2, 5, "en"), "Ben": (1, 3, "fr")}
for name, (table, seat, language) in people.items():
    user = User.objects.create_user(name.lower(), password=PASSWORD)
    player = Player.objects.create(user=user, name=name, language=language)
    Entry.objects.create(tournament=tournament, player=player, state=EntryState.PLAYING,
        table_number=table, seat_number=seat)
for n, (table, seat) in enumerate([(1, 1), (1, 2), (1, 4), (2, 1), (2, 2), (2, 3)]):
    Entry.objects.create(tournament=tournament, player=Player.objects.create(name=f"Guest {n}"),
        state=EntryState.PLAYING, table_number=table, seat_number=seat)
clock_start(tournament.pk, by=director)
"""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[dict[str, Any]]:
    with served_night(tmp_path, SETUP) as night:
        yield night


def night_page(browser: Browser, served: dict[str, Any], username: str, **context: Any) -> Page:
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, **context).new_page()
    log_in(page, served["base"], username, then=f"/tournaments/{served['id']}/night/")
    expect(page.locator("[data-night-link]")).to_have_attribute("data-night-link", "live")
    expect(page.locator('[data-clock="link"]')).to_have_attribute("data-state", "live")
    return page


def move_in_console(console: Page, name: str, table: int, seat: int) -> float:
    """Confirm ``name``'s move in the console; the time of the tap."""
    console.get_by_role("button", name=f"Actions for {name}").click()
    move = console.locator(".sheet:popover-open .sheet-move")
    move.get_by_label("Table").fill(str(table))
    move.get_by_label("Seat").fill(str(seat))
    tapped = time.monotonic()
    move.get_by_role("button", name="Move").click()
    return tapped


@pytest.mark.long
def test_a_move_reaches_the_players_phone_within_a_second(
    chromium: Browser, served: dict[str, Any]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    ann = night_page(chromium, served, "ann")
    expect(ann.locator("[data-night-seat]")).to_have_attribute("data-night-seat", "2-5")
    picture(ann, str(SHOTS / "night-phone-en.png"), full_page=True)
    # Ben chose French: his page is French, and so is what his socket renders.
    ben = night_page(chromium, served, "ben")
    assert ben.locator("html").get_attribute("lang") == "fr"
    expect(ben.locator(".night-seat-word").first).to_have_text("Table")
    picture(ben, str(SHOTS / "night-phone-fr.png"), full_page=True)

    console = console_page(chromium, served["base"], served["id"], is_mobile=True, has_touch=True)

    tapped = move_in_console(console, "Ann", 1, 5)
    notice = ann.locator("[data-night-notice='moved']")
    notice.wait_for(timeout=5000)
    took = time.monotonic() - tapped
    expect(notice).to_have_text(re.compile(r"Table 2 seat 5 → table 1 seat 5"))
    print(f"the move reached the phone {took:.2f} s after the tap")
    expect(ann.locator("[data-night-seat]")).to_have_attribute("data-night-seat", "1-5")
    picture(ann, str(SHOTS / "night-phone-en-moved.png"), full_page=True)
    # Nothing was said to Ben.
    assert ben.locator("[data-night-notice]").count() == 0

    tapped = move_in_console(console, "Ben", 2, 6)
    notice = ben.locator("[data-night-notice='moved']")
    notice.wait_for(timeout=5000)
    took = time.monotonic() - tapped
    # "Table 1 siège 3 → table 2 siège 6" once the French catalogue has the message.
    expect(notice).to_have_text(re.compile(r"Table 1 \S+ 3 → table 2 \S+ 6"))
    print(f"the move reached the phone {took:.2f} s after the tap")
    picture(ben, str(SHOTS / "night-phone-fr-moved.png"), full_page=True)

    # Dismissed, it stays gone after a reload; kept until then.
    ann.reload()
    expect(ann.locator("[data-night-notice='moved']")).to_be_visible()
    ann.get_by_role("button", name="Dismiss").click()
    expect(ann.locator("[data-night-notice]")).to_have_count(0)
    ann.reload()
    expect(ann.locator("[data-night-link]")).to_have_attribute("data-night-link", "live")
    expect(ann.locator("[data-night-notice]")).to_have_count(0)


def test_a_rebuy_asked_from_the_phone_and_approved_in_one_tap(
    chromium: Browser, served: dict[str, Any]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    ann = night_page(chromium, served, "ann")
    ann.get_by_label("Your chips now").fill("1500")
    ann.get_by_role("button", name="Ask for a rebuy").click()
    expect(ann.get_by_text("Rebuy asked — waiting for the director.")).to_be_visible()
    picture(ann, str(SHOTS / "night-phone-en-asked.png"), full_page=True)

    console = console_page(chromium, served["base"], served["id"], is_mobile=True, has_touch=True)
    requests = console.locator("#console-requests")
    expect(requests).to_contain_text("Ann")
    expect(requests).to_contain_text("asks for a rebuy (has 1,500 chips)")
    picture(console, str(SHOTS / "console-requests-phone.png"))
    requests.get_by_role("button", name="Approve").click()
    expect(console.locator("#console-requests")).to_be_hidden()

    expect(ann.locator("[data-night-notice='decided']")).to_contain_text("Rebuy approved")
    expect(ann.locator(".night-facts")).to_contain_text("1 rebuy")
    picture(ann, str(SHOTS / "night-phone-en-approved.png"), full_page=True)

    laptop = chromium.new_context(viewport=LAPTOP).new_page()
    log_in(laptop, served["base"], "ann", then=f"/tournaments/{served['id']}/night/")
    expect(laptop.locator("[data-night-link]")).to_have_attribute("data-night-link", "live")
    picture(laptop, str(SHOTS / "night-laptop-en.png"), full_page=True)
