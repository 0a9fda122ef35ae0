"""A table everyone can play, and pages every player can read, in Debian's chromium.

At a table with two house bots, a player uses the keyboard alone and listens to the page's
live regions as a screen reader would: "your turn" (assertive), their cards read out with
H, a move made with a key, and what the bots did (polite). The felt's accessibility tree
names the cards in words. axe-core finds no serious or critical violation on the table, the
cash-table lobby, a tournament's lobby, the director's console and the TV clock.
Screenshots of the keyboard help land in test-artifacts/a11y/ and test-artifacts/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from tests.browser import ARTIFACTS, LAPTOP, PHONE, log_in, needs_chromium, picture
from tests.conftest import PASSWORD
from tests.tables.servers import served_table
from tests.tournaments.online_tables import bust, cash_table, online_night_open
from tournaments.models import Entry, Tournament, TournamentTable

pytestmark = needs_chromium

SHOTS = ARTIFACTS / "a11y"
CARD = re.compile(r"(Ace|King|Queen|Jack|10|[2-9]) of (spades|hearts|diamonds|clubs)")
# A bot's move as the log words it (the player's own are "You call 2", "You check").
BOT_MOVE = re.compile(
    r"(Chipper|Rivera|Nutsy|Blinds|Muckler|Tilt|Quads|Stacks|Ace) "
    r"(folds|checks|calls \d|bets \d|raises to \d)"
)

# Pat at seat 1 of a three-seat no-limit table, two calling house bots beside them.
SETUP = f"""
from django.contrib.auth.models import User
from series.services import director_grant
from tables import services
director = director_grant(User.objects.create_user("dana", password="{PASSWORD}"))
pat = User.objects.create_user("pat", password="{PASSWORD}")
table = services.table_create(created_by=director, name="Everyone's table", structure="no-limit",
    big_blind=2, seat_count=3)
services.seat_take(table.pk, pat, 1, table.max_buy_in, wait_for_big_blind=False)
services.table_add_bots(table.pk, director, count=2, style="station")
print(table.pk)
"""


def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical violations on ``page``, one line each."""
    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + "; ".join(", ".join(node["target"]) for node in v["nodes"][:5])
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def shoot(page: Page, name: str) -> None:
    for folder in (SHOTS, ARTIFACTS):
        folder.mkdir(parents=True, exist_ok=True)
        picture(page, str(folder / name))


@pytest.fixture
def online_night(tournament: Tournament) -> dict[str, Entry]:
    """The lobby tests' online night (``tests/tournaments/conftest.py``): four players at
    two live tables, level 1, the clock running."""
    return online_night_open(tournament)


@pytest.fixture
def table_served(tmp_path: Path) -> Iterator[tuple[str, int]]:
    """``manage.py serve`` (daphne and the embedded Celery that deals and moves the bots)
    with the table set up; its address and the table's id. Quick bots, a short pause
    between hands."""
    with served_table(
        tmp_path, SETUP, TABLES_BOT_THINK_MS="300", TABLES_NEXT_HAND_DELAY_MS="1000"
    ) as served:
        yield served


def test_a_player_hears_the_table_and_plays_with_the_keyboard_alone(
    chromium: Browser, table_served: tuple[str, int]
) -> None:
    base, table_id = table_served
    page = chromium.new_context(viewport=PHONE).new_page()
    log_in(page, base, "pat", then=f"/tables/{table_id}/")
    expect(page.locator(".conn-status")).to_have_attribute("data-kind", "ok")
    turn = page.locator("[data-a11y=turn]")
    said = page.locator("[data-a11y=said]")
    log = page.locator("[data-a11y=log]")
    expect(turn).to_have_attribute("aria-live", "assertive")
    expect(log).to_have_attribute("aria-live", "polite")

    # The bots post and act; then the player's turn is said at once.
    expect(turn).to_contain_text("Your turn", timeout=30_000)
    page.keyboard.press("h")
    expect(said).to_contain_text("Your cards:")
    expect(said).to_have_text(CARD)
    page.keyboard.press("p")
    expect(said).to_contain_text("Pot")
    page.keyboard.press("w")
    expect(said).to_have_text(re.compile(r"^Your turn\."))

    # The felt's tree: a list of seats, the player's cards as images named in words.
    expect(page.get_by_role("list", name="Seats")).to_be_visible()
    mine = page.locator(".seat-mine").aria_snapshot()
    assert len(CARD.findall(mine)) == 4, mine
    assert "Seat 1" in mine, mine
    assert not serious_violations(page)

    # B goes to the amount box; a key typed there is the box's, not a move; Escape leaves.
    page.keyboard.press("b")
    amount = page.locator(".action-bar input.amount")
    expect(amount).to_be_focused()
    version = page.locator("#poker").get_attribute("data-version")
    page.keyboard.press("c")
    page.wait_for_timeout(300)
    expect(page.locator("#poker")).to_have_attribute("data-version", version or "")
    expect(page.locator(".action-bar button[data-action]:enabled").first).to_be_visible()
    page.keyboard.press("Escape")
    expect(amount).not_to_be_focused()

    # C checks or calls; the log says so, then what the bots did.
    page.keyboard.press("c")
    expect(log).to_contain_text(re.compile(r"You (check|call \d)"))
    expect(log).to_contain_text(BOT_MOVE, timeout=20_000)

    # "?" opens the list of keys, Escape closes it; the same from the "Keyboard" button.
    help_dialog = page.get_by_role("dialog", name="Keyboard shortcuts")
    page.keyboard.press("?")
    expect(help_dialog).to_be_visible()
    tree = help_dialog.aria_snapshot()
    for words in ("your hand", "whose turn it is", "check or call"):
        assert words in tree, tree
    shoot(page, "keys-help-phone.png")
    assert not serious_violations(page)
    page.keyboard.press("Escape")
    expect(help_dialog).to_be_hidden()

    page.set_viewport_size(LAPTOP)
    keyboard = page.get_by_role("button", name="Keyboard")
    keyboard.focus()
    page.keyboard.press("Enter")
    expect(help_dialog).to_be_visible()
    shoot(page, "keys-help-laptop.png")
    page.keyboard.press("Escape")
    expect(help_dialog).to_be_hidden()
    expect(keyboard).to_be_focused()

    # Typing in the chat is typing: "h" says nothing there.
    page.keyboard.press("s")
    expect(said).to_contain_text("Your stack:")
    page.get_by_label("Chat message").focus()
    page.keyboard.type("hi")
    page.wait_for_timeout(200)
    expect(said).to_contain_text("Your stack:")


def test_lobbies_console_and_tv_have_no_serious_violation(
    online_night: dict[str, Entry], live_server: Any, live_browser: Browser
) -> None:
    tournament = online_night["ann"].tournament
    cash = cash_table(1)
    bust(online_night["dee"], 4)
    table_id = TournamentTable.objects.get(tournament=tournament, number=1).live_table_id
    base = live_server.url
    pages = {
        "ann": {
            "tournament lobby": f"/tournaments/{tournament.pk}/lobby/",
            "tournament table": f"/tables/{table_id}/",
            "cash table": f"/tables/{cash.pk}/",
        },
        "dana": {
            "cash lobby": "/tables/",
            "console": f"/tournaments/{tournament.pk}/console/",
            "tv": f"/tournaments/tv/{tournament.tv_token}/",
        },
    }
    problems = {}
    for who, paths in pages.items():
        page = live_browser.new_page(viewport=PHONE)
        log_in(page, base, who)
        for name, path in paths.items():
            page.goto(base + path)
            for size, viewport in (("phone", PHONE), ("laptop", LAPTOP)):
                page.set_viewport_size(viewport)
                problems[f"{name} ({size})"] = serious_violations(page)
            if name == "tournament table":
                # The tournament's panel, refreshed unchanged, is not swapped in again: a
                # screen reader does not read it anew, a focused button keeps the focus.
                panel = page.locator("#table-panels")
                expect(panel).to_contain_text("Tournament lobby")
                for _ in range(2):
                    panel.evaluate("node => { node.firstElementChild.kept = 'yes'; }")
                    with page.expect_response(lambda r: "/panels/" in r.url):
                        page.evaluate("document.dispatchEvent(new CustomEvent('table-hand-ended'))")
                    page.wait_for_timeout(100)
                # (The first refresh differs from the page: its forms' "next" is the panel's.)
                assert panel.evaluate("node => node.firstElementChild.kept") == "yes"
        page.close()
    assert not any(problems.values()), problems
