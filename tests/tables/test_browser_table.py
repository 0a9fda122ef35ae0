"""Two players play a hand to showdown in Debian's chromium, against a real server.

pytest-django's live_server speaks no WebSocket, so this starts ``manage.py serve`` (daphne
plus the embedded Celery that deals the next hand) on a free port with its own SQLite file,
logs each player in through the login form in a browser context of their own, and plays:
take a seat, then check or call until the showdown. Screenshots of both players' views at a
laptop and a phone size land in test-artifacts/. Deselect with ``-m "not browser"``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import ARTIFACTS, needs_chromium, picture
from tests.conftest import PASSWORD
from tests.tables.servers import served_table

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

pytestmark = needs_chromium

SETUP = f"""
from django.contrib.auth.models import User
from tables import services
director = User.objects.create_superuser("dana", password="{PASSWORD}")
for name in ("ann", "bob"):
    User.objects.create_user(name, password="{PASSWORD}")
table = services.table_create(created_by=director, name="Browser PLO8", big_blind=2)
print(table.pk)
"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, int]]:
    """A served site with a table, and the table's id."""
    with served_table(tmp_path, SETUP) as served:
        yield served


@pytest.fixture
def browser(chromium: Browser) -> Browser:
    # A loaded machine (make test runs two workers) can take a few seconds to deal.
    expect.set_options(timeout=10_000)
    return chromium


def log_in_at_table(browser: Browser, base: str, table_id: int, username: str) -> Page:
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{base}/accounts/login/?next=/tables/{table_id}/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".conn-status")).to_have_attribute("data-kind", "ok")
    return page


def take_seat(page: Page, seat: int) -> None:
    page.get_by_role("button", name=f"Sit in seat {seat}").click()
    dialog = page.locator("#sit-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Post now").check()
    dialog.get_by_role("button", name="Sit down").click()
    expect(page.locator(f'.seat-mine[data-seat="{seat}"]')).to_be_visible()


def passive_move(page: Page) -> bool:
    """Check, call or show if it is this player's turn; whether a move was made."""
    bar = page.locator(".action-bar")
    for action in ("check", "call", "show"):
        button = bar.locator(f'button[data-action="{action}"]:enabled')
        if button.count():
            version = page.locator("#poker").get_attribute("data-version")
            button.first.click()
            # Wait for the snapshot that answers the move before looking again.
            expect(page.locator("#poker")).not_to_have_attribute("data-version", version or "")
            return True
    return False


def shoot(pages: dict[str, Page], label: str, size: dict[str, int]) -> None:
    for name, page in pages.items():
        page.set_viewport_size(size)
        picture(page, str(ARTIFACTS / f"table-{label}-{name}.png"), settle=150)


@pytest.mark.long(25)
def test_two_players_play_a_hand_to_showdown(browser: Browser, server: tuple[str, int]) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    base, table_id = server
    ann = log_in_at_table(browser, base, table_id, "ann")
    bob = log_in_at_table(browser, base, table_id, "bob")
    pages = {"ann": ann, "bob": bob}

    take_seat(ann, 1)
    take_seat(bob, 4)
    # Each sees the other seated, from their own side of the table.
    expect(ann.locator('.seat[data-seat="4"] .seat-name')).to_have_text("bob")
    expect(bob.locator('.seat[data-seat="1"] .seat-name')).to_have_text("ann")

    # Chat reaches the other player.
    ann.get_by_label("Chat message").fill("good luck bob")
    ann.get_by_role("button", name="Send").click()
    expect(bob.locator(".chat-list")).to_contain_text("ann: good luck bob")

    # The next hand is dealt a few seconds later: each sees four cards of their own.
    for page in pages.values():
        expect(page.locator(".seat-mine .seat-cards .pc:not(.pc-back)")).to_have_count(
            4, timeout=15_000
        )
        expect(page.locator(".side .fairness .commitment")).to_be_visible()
    # The other player's cards are backs until the showdown.
    expect(ann.locator('.seat[data-seat="4"] .pc-back')).to_have_count(4)

    # Bob sits out from the next hand on, so the showdown stays on screen to be looked at.
    version = bob.locator("#poker").get_attribute("data-version") or ""
    bob.get_by_role("button", name="Sit out").click()
    expect(bob.locator("#poker")).not_to_have_attribute("data-version", version)

    shot_flop = False
    deadline = time.monotonic() + 40
    while not ann.locator(".felt-center .results").count():
        assert time.monotonic() < deadline, "the hand did not reach the showdown"
        moved = passive_move(ann) or passive_move(bob)
        if not shot_flop and ann.locator(".board .pc:not(.pc-slot)").count() >= 3:
            shoot(pages, "flop-laptop", LAPTOP)
            shoot(pages, "flop-phone", PHONE)
            shot_flop = True
        if not moved:
            ann.wait_for_timeout(100)

    for page in pages.values():
        page.set_viewport_size(LAPTOP)
        expect(page.locator(".felt-center .results")).to_be_visible()
        expect(page.locator(".board .pc:not(.pc-slot)")).to_have_count(5)
        # At the showdown the winning hand is face up for both players; a hand that could
        # win nothing may be mucked (cards speak), so which seats show depends on the deal.
        expect(
            page.locator(
                '.seat[data-seat="1"] .pc:not(.pc-back), .seat[data-seat="4"] .pc:not(.pc-back)'
            )
        ).not_to_have_count(0)
        shown = [page.locator(f'.seat[data-seat="{n}"] .pc:not(.pc-back)').count() for n in (1, 4)]
        assert 4 in shown and set(shown) <= {0, 4}, shown
        expect(page.locator(".side .verify-link")).to_be_visible()
    shoot(pages, "showdown-laptop", LAPTOP)
    shoot(pages, "showdown-phone", PHONE)
    # Once the hand is over bob's seat shows him sitting out, and offers to sit back in.
    expect(bob.get_by_role("button", name="Sit in")).to_be_visible()
    # On the phone the side panels fold away, but the deal can still be verified.
    expect(bob.locator(".fairness-top .verify-link")).to_be_visible()

    # The hand is in the table's recall and its verify page checks out.
    ann.set_viewport_size(LAPTOP)
    expect(ann.locator(".recent-list a")).to_have_count(1)
    ann.locator(".side .verify-link").click()
    expect(ann.get_by_text("The commitment matches")).to_be_visible()
    picture(ann, str(ARTIFACTS / "verify-laptop-ann.png"), full_page=True)
    ann.go_back()
    ann.locator(".recent-list a").first.click()
    expect(ann.locator(".replay-controls")).to_be_visible()
    ann.get_by_role("button", name="Last step").click()
    expect(ann.locator(".replay-step")).to_contain_text("wins")
    picture(ann, str(ARTIFACTS / "replay-laptop-ann.png"), full_page=True)
    ann.set_viewport_size(PHONE)
    ann.get_by_role("button", name="First step").click()
    expect(ann.locator(".replay-step")).to_have_text("Blinds posted, cards dealt")
    picture(ann, str(ARTIFACTS / "replay-phone-ann.png"), full_page=True)
    ann.goto(f"{base}/tables/hands/")
    expect(ann.get_by_role("link", name="#1")).to_be_visible()
    picture(ann, str(ARTIFACTS / "hands-phone-ann.png"), full_page=True)


def test_the_director_opens_a_table_seats_bots_and_raises(
    browser: Browser, server: tuple[str, int]
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    base, _ = server
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{base}/accounts/login/?next=/tables/")
    page.locator("#id_username").fill("dana")
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Live tables")).to_be_visible()
    expect(page.get_by_role("link", name="Browser PLO8")).to_be_visible()
    picture(page, str(ARTIFACTS / "lobby-laptop-director.png"), full_page=True)
    page.set_viewport_size(PHONE)
    picture(page, str(ARTIFACTS / "lobby-phone-director.png"), full_page=True)

    form = page.locator("#create-form")
    form.get_by_label("Name").fill("No-limit night")
    form.get_by_label("Structure").select_option("no-limit")
    form.get_by_label("Game").select_option("omaha")
    form.get_by_label("Seats:", exact=True).select_option("4")
    form.get_by_role("button", name="Open the table").click()
    expect(page.get_by_role("heading", name="No-limit night")).to_be_visible()
    expect(page.locator(".table-stakes")).to_have_text("No-Limit Omaha High · 1/2")
    expect(page.locator(".conn-status")).to_have_attribute("data-kind", "ok")
    page.set_viewport_size(LAPTOP)

    side = page.locator(".side")
    side.get_by_text("Director: add bots").click()
    side.get_by_label("Count").fill("2")
    side.get_by_role("button", name="Seat bots").click()
    # Said beside the form, the page kept as it is (a reload would close a "Sit" dialog).
    expect(side.locator(".bots-said")).to_have_text("2 bots sat down.")
    expect(page.locator(".seat-name .badge", has_text="bot")).to_have_count(2)
    empty = page.locator(".sit-button").first
    empty.click()
    # A buy-in below the minimum, past the browser's own check, is the server's to refuse:
    # its error frame shows as a toast and the director stays unseated.
    buy_in = page.locator("#sit-buy-in")
    buy_in.evaluate("input => input.removeAttribute('min')")
    buy_in.fill("1")
    page.locator("#sit-dialog").get_by_role("button", name="Sit down").click()
    expect(page.locator(".toast-error")).to_contain_text("the buy-in is between")
    expect(page.locator(".seat-mine")).to_have_count(0)
    page.locator(".sit-button").first.click()
    page.locator("#sit-dialog").get_by_label("Post now").check()
    page.locator("#sit-dialog").get_by_role("button", name="Sit down").click()

    # Play until the director may bet or raise, then size it with the presets and the box.
    deadline = time.monotonic() + 40
    sizing = page.locator(".action-bar .sizing")
    while not sizing.count():
        assert time.monotonic() < deadline, "the director never got to bet or raise"
        if not passive_move(page):
            page.wait_for_timeout(100)
    amount = page.locator(".action-bar .amount")
    low, high = int(amount.get_attribute("min") or 0), int(amount.get_attribute("max") or 0)
    page.locator('.preset[data-preset="max"]').click()
    expect(amount).to_have_value(str(high))
    amount.fill(str(high + 1000))  # typing past the maximum is held to it
    expect(page.locator("button.act-raise")).to_contain_text(f"{high:,}")
    page.locator(".preset", has_text="Min").click()
    expect(amount).to_have_value(str(low))
    picture(page, str(ARTIFACTS / "table-my-turn-laptop-director.png"))
    page.set_viewport_size(PHONE)
    picture(page, str(ARTIFACTS / "table-my-turn-phone-director.png"))
    version = page.locator("#poker").get_attribute("data-version") or ""
    page.locator("button.act-raise").click()
    expect(page.locator("#poker")).not_to_have_attribute("data-version", version)
    expect(page.locator(".toast-error", has_text="raise")).to_have_count(0)
