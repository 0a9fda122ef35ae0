"""Showing cards after the hand, on a phone in Debian's chromium: the player who folded picks
two of their cards with a thumb and shows them; the table sees them on that seat, marked
"shown"; the hand's page replays the show.

The page is painted from the snapshot embedded in it (pytest-django's live_server speaks no
WebSocket); a stand-in socket keeps the frames the page sends, and passes it the snapshot
the server would. Screenshots land in test-artifacts/show-cards/ and test-artifacts/.
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from series.services import director_grant
from tables import services
from tables.engine.cards import card_str
from tables.engine.records import HoleDealt, record_from_json
from tables.models import Hand, Seat, Table
from tables.runtime.state import table_snapshot
from tests.browser import ARTIFACTS, LAPTOP, PHONE, log_in, needs_chromium, picture
from tests.conftest import PASSWORD
from tests.tables.conftest import deal, make_players
from tests.tables.test_browser_preactions import FAKE_SOCKET

pytestmark = needs_chromium

SHOTS = ARTIFACTS / "show-cards"


@pytest.fixture
def folded_hand(transactional_db: None) -> tuple[Table, Hand, User, list[str]]:
    """Three players; the first two to act fold, the third wins. Returns the table, the
    finished hand, the first to fold and their cards."""
    director = director_grant(User.objects.create_user("dana", password=PASSWORD))
    table = services.table_create(
        created_by=director, name="Show me", big_blind=2, min_buy_in=40, max_buy_in=200
    )
    for number, player in enumerate(make_players("ann", "ben", "cal"), start=1):
        services.seat_take(table.pk, player, number, 100)
    now = deal(table)
    hand = Hand.objects.get(table=table)
    folded = []
    while not hand.is_complete:
        seat = Seat.objects.get(table=table, number=hand.to_act)
        table.refresh_from_db()
        services.table_act(table.pk, seat.user, hand.pk, table.version, "fold", now=now)
        folded.append(seat)
        hand.refresh_from_db()
    first = folded[0]
    dealt = next(
        r
        for r in map(record_from_json, hand.records)
        if isinstance(r, HoleDealt) and r.seat == first.number
    )
    return table, hand, first.user, [card_str(c) for c in dealt.cards]  # type: ignore[return-value]


def test_a_folded_player_shows_two_cards_from_a_phone(
    folded_hand: tuple[Table, Hand, User, list[str]], live_server: object, live_browser: Browser
) -> None:
    table, hand, player, cards = folded_hand
    SHOTS.mkdir(parents=True, exist_ok=True)
    base = live_server.url  # type: ignore[attr-defined]
    context = live_browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(FAKE_SOCKET)
    page = context.new_page()
    log_in(page, base, player.username, then=f"/tables/{table.pk}/")
    panel = page.get_by_role("group", name="Show your cards")
    expect(panel).to_contain_text("until the next hand starts")
    picks = panel.locator(".show-card")
    expect(picks).to_have_count(4)
    show = panel.locator(".show-picked")
    expect(show).to_be_disabled()
    picture(page, str(SHOTS / "show-panel-phone.png"))
    # Two cards tapped, the last first: they go in the order dealt.
    picks.nth(3).tap()
    picks.nth(1).tap()
    expect(picks.nth(1)).to_have_attribute("aria-pressed", "true")
    expect(show).to_have_text("Show 2 cards")
    box = show.bounding_box()
    assert box is not None and box["height"] >= 44  # a thumb's
    show.tap()
    sent = page.evaluate("window.sent")[-1]
    assert sent | {"ref": None} == {
        "type": "show_cards",
        "hand": hand.pk,
        "cards": [cards[1], cards[3]],
        "ref": None,
    }
    # The server shows them and sends the new snapshot: face up on the seat, marked.
    services.cards_show(table.pk, player, hand.pk, sent["cards"])
    page.evaluate(f"window.serverSays({json.dumps(table_snapshot(table, player))})")
    mine = page.locator(".seat-mine")
    expect(mine.locator(".shown-label")).to_have_text("shown")
    expect(mine.locator(".pc-shown")).to_have_count(2)
    expect(picks).to_have_count(2)  # the two still face down may be shown too
    picture(page, str(SHOTS / "shown-own-seat-phone.png"))
    picture(page, str(ARTIFACTS / "show-cards-phone.png"))
    page.set_viewport_size(LAPTOP)
    expect(picks).to_have_count(2)
    picture(page, str(SHOTS / "shown-own-seat-laptop.png"))

    # Everyone at the table sees exactly those two on that seat.
    watcher = live_browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    watcher.add_init_script(FAKE_SOCKET)
    spectator = watcher.new_page()
    spectator.goto(f"{base}/tables/{table.pk}/")
    seat = spectator.locator(".seat.seat-showed")
    expect(seat.locator(".shown-label")).to_have_text("shown")
    expect(seat.locator(".pc-shown")).to_have_count(2)
    titles = seat.locator(".pc-shown").evaluate_all("cards => cards.map((c) => c.title)")
    assert titles == [cards[1], cards[3]]
    expect(spectator.get_by_role("group", name="Show your cards")).to_have_count(0)
    picture(spectator, str(SHOTS / "shown-spectator-phone.png"))
    spectator.set_viewport_size(LAPTOP)
    picture(spectator, str(SHOTS / "shown-spectator-laptop.png"))

    # The hand's page replays the show as its last step.
    spectator.set_viewport_size(PHONE)
    spectator.goto(f"{base}/tables/hands/{hand.pk}/")
    step = spectator.get_by_role("button", name=f"shows {cards[1]} {cards[3]} after the hand")
    step.click()
    expect(spectator.locator(".replayer .seat-showed .pc-shown")).to_have_count(2)
    picture(spectator, str(SHOTS / "replay-show-phone.png"))
    watcher.close()
    context.close()
