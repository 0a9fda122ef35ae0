"""A player replays an all-in hand in Debian's chromium, step by step, on the table's felt.

The hand is played with the services before the browser opens (the replayer is a plain page,
so pytest-django's live_server serves it). Screenshots at a laptop and a phone size land in
test-artifacts/. Deselect with ``-m "not browser"``.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from series.services import director_grant
from tables import services
from tables.models import Hand
from tables.runtime.state import table_snapshot
from tables.services import dealing
from tests.browser import ARTIFACTS, needs_chromium, picture
from tests.conftest import PASSWORD
from tests.tables.conftest import later, make_players
from tests.tables.sessions import play_out, seeded_deal_new

pytestmark = needs_chromium

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def all_in_hand(transactional_db: None, monkeypatch: pytest.MonkeyPatch) -> Hand:
    """Heads-up no-limit: the first to act moves all in before the flop and is called."""
    monkeypatch.setattr(dealing, "deal_new", seeded_deal_new(7))
    director = director_grant(User.objects.create_user("dana", password=PASSWORD))
    table = services.table_create(
        created_by=director, name="Shove night", game="omaha", structure="no-limit", big_blind=2
    )
    ann, ben = make_players("ann", "ben")
    services.seat_take(table.pk, ann, 1, 100, False)
    services.seat_take(table.pk, ben, 4, 100, False)
    table.refresh_from_db()
    assert services.table_tick(table.pk, now=table.next_hand_at)
    hand = Hand.objects.get(table=table)

    def shove_or_call(seat: object) -> dict[str, object]:
        snapshot = table_snapshot(table, seat.user)  # type: ignore[attr-defined]
        legal = snapshot["you"]["legal"]
        frame = {"type": "act", "hand": legal["hand"], "version": legal["version"]}
        if legal["raise"]:
            return {**frame, "action": "raise", "amount": legal["raise"]["max"]}
        return {**frame, "action": "call"}

    play_out(hand, later(5), shove_or_call)
    hand.refresh_from_db()
    return hand


@pytest.fixture
def browser(live_browser: Browser) -> Browser:
    expect.set_options(timeout=10_000)
    return live_browser


def step_text(page: Page) -> str:
    return page.locator(".replay-step").inner_text()


def test_a_player_steps_through_an_all_in_hand(
    all_in_hand: Hand, live_server: object, browser: Browser
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    base = live_server.url  # type: ignore[attr-defined]
    page = browser.new_context(viewport=LAPTOP).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(f"{base}/accounts/login/?next=/tables/hands/{all_in_hand.pk}/")
    page.locator("#id_username").fill("ann")
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    # The deal: ann's own four cards face up at the bottom, ben's face down.
    expect(page.locator(".replay-controls")).to_be_visible()
    expect(page.locator(".replay-step")).to_have_text("Blinds posted, cards dealt")
    expect(page.locator('.seat-mine[data-seat="1"] .pc:not(.pc-back)')).to_have_count(4)
    expect(page.locator('.seat[data-seat="4"] .pc-back')).to_have_count(4)
    expect(page.locator(".board .pc:not(.pc-slot)")).to_have_count(0)
    expect(page.locator(".replay-log li.current")).to_have_count(1)
    total = page.locator(".replay-log li").count()
    expect(page.locator(".replay-counter")).to_have_text(f"1 / {total}")

    # The moves, then the hands turned up with each one's share of the pot.
    next_step = page.get_by_role("button", name="Next step")
    next_step.click()
    expect(page.locator(".replay-step")).to_contain_text("all-in")
    while "calls" not in step_text(page):
        next_step.click()
    expect(page.locator('.seat[data-seat="4"] .pc:not(.pc-back)')).to_have_count(4)
    expect(page.locator(".seat-equity")).to_have_count(2)
    expect(page.locator(".felt-center .results")).to_have_count(0)

    # The board comes a street at a time, each with its line.
    for street, cards in (("Flop", 3), ("Turn", 4), ("River", 5)):
        next_step.click()
        expect(page.locator(".replay-step")).to_contain_text(f"{street}: ")
        expect(page.locator(".board .pc:not(.pc-slot)")).to_have_count(cards)
        expect(page.locator(".hand-info")).to_contain_text(street)
        if street == "Turn":
            picture(page, str(ARTIFACTS / "replay-runout-laptop-ann.png"), full_page=True)
            page.set_viewport_size(PHONE)
            picture(page, str(ARTIFACTS / "replay-runout-phone-ann.png"), full_page=True)
            page.set_viewport_size(LAPTOP)

    # The end: the awards on the felt and in the step line.
    next_step.click()
    expect(page.locator(".replay-step")).to_contain_text("wins")
    expect(page.locator(".felt-center .results")).to_be_visible()
    expect(page.locator(".seat-won")).not_to_have_count(0)
    expect(page.locator(".replay-counter")).to_have_text(f"{total} / {total}")
    picture(page, str(ARTIFACTS / "replay-result-laptop-ann.png"), full_page=True)

    # Back with the keyboard, or straight to a line of the log.
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".replay-step")).to_contain_text("River: ")
    page.locator(".replay-log li").first.get_by_role("button").click()
    expect(page.locator(".replay-step")).to_have_text("Blinds posted, cards dealt")
    page.get_by_role("button", name="Last step").click()
    expect(page.locator(".felt-center .results")).to_be_visible()
    page.set_viewport_size(PHONE)
    picture(page, str(ARTIFACTS / "replay-result-phone-ann.png"), full_page=True)
    assert not problems, problems


def test_a_spectator_sees_only_the_hands_turned_up(
    all_in_hand: Hand, live_server: object, browser: Browser
) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{live_server.url}/tables/hands/{all_in_hand.pk}/")  # type: ignore[attr-defined]
    expect(page.locator(".replay-step")).to_have_text("Blinds posted, cards dealt")
    expect(page.locator(".seat .pc-back")).to_have_count(8)
    expect(page.locator(".seat-mine")).to_have_count(0)
    page.get_by_role("button", name="Last step").click()
    expect(page.locator(".seat .pc:not(.pc-back)")).to_have_count(8)
