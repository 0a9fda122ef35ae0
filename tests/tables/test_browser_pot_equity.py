"""All-in equity pot by pot on the felt, in Debian's chromium: a short stack all in for the
main pot, two bigger stacks with a side pot of their own; and the way back in after a bust.

The hands are played with the services before the browser opens; the pages are painted
from the snapshot embedded in them (pytest-django's live_server speaks no WebSocket).
Screenshots at a laptop and a phone size land in test-artifacts/. Deselect with
``-m "not browser"``.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from series.services import director_grant
from tables import services
from tables.models import Hand, Seat, SeatState, Table
from tables.runtime.state import table_snapshot
from tables.services import dealing
from tests.browser import ARTIFACTS, needs_chromium, picture
from tests.conftest import PASSWORD
from tests.tables.conftest import later, make_players
from tests.tables.sessions import seeded_deal_new

pytestmark = needs_chromium

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def side_pot_table(transactional_db: None, monkeypatch: pytest.MonkeyPatch) -> Table:
    """No-limit Omaha, 40 / 200 / 200: everyone all in before the flop, the run-out next."""
    monkeypatch.setattr(dealing, "deal_new", seeded_deal_new(11))
    director = director_grant(User.objects.create_user("dana", password=PASSWORD))
    table = services.table_create(
        created_by=director, name="Side pots", game="omaha", structure="no-limit", big_blind=2
    )
    for number, (player, chips) in enumerate(
        zip(make_players("ann", "ben", "cal"), (40, 200, 200), strict=True), start=1
    ):
        services.seat_take(table.pk, player, number, chips, False)
    table.refresh_from_db()
    now = later(5, table.next_hand_at)
    assert services.table_tick(table.pk, now=table.next_hand_at)
    hand = Hand.objects.get(table=table)
    while hand.to_act is not None:
        user = Seat.objects.get(table=table, number=hand.to_act).user
        legal = table_snapshot(table, user)["you"]["legal"]
        action, amount = ("raise", legal["raise"]["max"]) if legal["raise"] else ("call", None)
        services.table_act(table.pk, user, legal["hand"], legal["version"], action, amount, now=now)
        hand.refresh_from_db()
    return table


@pytest.fixture
def browser(live_browser: Browser) -> Browser:
    expect.set_options(timeout=10_000)
    return live_browser


def log_in(page: Page, base: str, name: str, next_url: str) -> None:
    page.goto(f"{base}/accounts/login/?next={next_url}")
    page.locator("#id_username").fill(name)
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def test_each_seat_shows_its_share_of_every_pot_it_can_win(
    side_pot_table: Table, live_server: object, browser: Browser
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    base = live_server.url  # type: ignore[attr-defined]
    shown = table_snapshot(side_pot_table, None)["hand"]
    main, side = shown["pot_equity"]
    page = browser.new_context(viewport=LAPTOP).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    log_in(page, base, "ann", f"/tables/{side_pot_table.pk}/")

    # The short stack plays for the main pot only; the others for both pots.
    short = page.locator('.seat[data-seat="1"] .seat-equity .equity-pot')
    expect(short).to_have_count(1)
    expect(short).to_have_text(f"Main pot {round(main['shares']['1'] * 100)}%")
    for number in ("2", "3"):
        lines = page.locator(f'.seat[data-seat="{number}"] .seat-equity .equity-pot')
        expect(lines).to_have_text(
            [
                f"Main pot {round(main['shares'][number] * 100)}%",
                f"Side pot {round(side['shares'][number] * 100)}%",
            ]
        )
        title = page.locator(f'.seat[data-seat="{number}"] .seat-equity').get_attribute("title")
        assert title == (
            f"All-in equity: {round(shown['equity'][number] * 100)}% of all the chips in the pots"
        )
    picture(page, str(ARTIFACTS / "pot-equity-laptop-ann.png"), full_page=True)
    page.set_viewport_size(PHONE)
    picture(page, str(ARTIFACTS / "pot-equity-phone-ann.png"), full_page=True)
    assert problems == []


@pytest.fixture
def back_from_a_bust(transactional_db: None) -> Table:
    """Ann busted, missed the blinds, and bought chips again: she waits for the big blind."""
    director = director_grant(User.objects.create_user("dana", password=PASSWORD))
    table = services.table_create(created_by=director, name="Rebuys", big_blind=2)
    ann, ben, cal = make_players("ann", "ben", "cal")
    for number, player in enumerate((ann, ben, cal), start=1):
        services.seat_take(table.pk, player, number, 100)
    Seat.objects.filter(table=table, number=1).update(
        stack=0,
        state=SeatState.SITTING_OUT,
        sat_out_reason="no chips",
        is_new=False,
        owes_small=True,
        owes_big=True,
    )
    services.seat_rebuy(table.pk, ann, 100)
    return table


def test_a_player_back_from_a_bust_is_offered_both_ways_in(
    back_from_a_bust: Table, live_server: object, browser: Browser
) -> None:
    base = live_server.url  # type: ignore[attr-defined]
    page = browser.new_context(viewport=LAPTOP).new_page()
    log_in(page, base, "ann", f"/tables/{back_from_a_bust.pk}/")
    controls = page.locator(".seat-controls")
    expect(controls.locator(".owes")).to_contain_text("post the small (dead) and big blind")
    expect(controls.get_by_role("button", name="Post and play")).to_have_attribute(
        "aria-pressed", "false"
    )
    expect(controls.get_by_role("button", name="Wait for the big blind")).to_have_attribute(
        "aria-pressed", "true"
    )
    picture(page, str(ARTIFACTS / "back-from-a-bust-laptop-ann.png"), full_page=True)
