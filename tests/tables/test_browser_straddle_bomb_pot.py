"""The straddle and the bomb pot on a phone, in Debian's chromium: the straddler's tag on the
felt, "Straddle next hand" for the player in position, the bomb pot vote, and the bomb pot
on the felt.

The page is painted from the snapshot embedded in it (pytest-django's live_server speaks no
WebSocket); a stand-in socket keeps the frames the page sends and passes it the snapshots
the server would send. Screenshots land in test-artifacts/forced-bets/ and test-artifacts/.
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from series.services import director_grant
from tables import services
from tables.models import Hand, Seat, Table
from tables.runtime.state import table_snapshot
from tests.browser import ARTIFACTS, LAPTOP, PHONE, log_in, needs_chromium, picture
from tests.conftest import PASSWORD
from tests.tables.conftest import deal, make_players
from tests.tables.test_browser_preactions import FAKE_SOCKET

pytestmark = needs_chromium

SHOTS = ARTIFACTS / "forced-bets"


@pytest.fixture
def straddled(transactional_db: None) -> tuple[Table, User, User]:
    """Four players; seat 4 (dee), left of the big blind, straddled the first hand, and the
    button (ann, seat 1) is first to act."""
    director = director_grant(User.objects.create_user("dana", password=PASSWORD))
    table = services.table_create(
        created_by=director,
        name="Straddle night",
        big_blind=2,
        min_buy_in=40,
        max_buy_in=200,
        straddle="under-the-gun",
        bomb_pot_ante=2,
        bomb_pot_by_vote=True,
    )
    players = make_players("ann", "ben", "cal", "dee")
    for number, player in enumerate(players, start=1):
        services.seat_take(table.pk, player, number, 100)
    services.seat_straddle(table.pk, players[3], True)
    deal(table)
    return table, players[0], director


def _fold_to_the_end(table: Table) -> None:
    for _ in range(10):
        hand = Hand.objects.filter(table=table).order_by("-number").first()
        if hand.is_complete:
            return
        user = Seat.objects.get(table=table, number=hand.to_act).user
        legal = table_snapshot(table, user)["you"]["legal"]
        action = "check" if legal["check"] else "fold"
        services.table_act(table.pk, user, legal["hand"], legal["version"], action)


def test_the_straddle_and_the_bomb_pot_on_a_phone(
    straddled: tuple[Table, User, User], live_server: object, live_browser: Browser
) -> None:
    # docs/rules.md, Home-game options: "the player left of the big blind may post a live
    # straddle of exactly twice the big blind"; a bomb pot: "every player dealt in posts
    # the agreed ante (in big blinds); no blinds, no betting before the flop".
    table, ann, director = straddled
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = live_browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(FAKE_SOCKET)
    page = context.new_page()
    log_in(page, live_server.url, ann.username, then=f"/tables/{table.pk}/")  # type: ignore[attr-defined]
    expect(page.locator('.seat[data-seat="4"] .seat-straddle')).to_have_text("Straddle")
    expect(page.get_by_role("button", name="Call 4")).to_be_visible()
    # Next hand the button moves on: ann, seat 1, is left of the big blind.
    straddle = page.get_by_role("button", name="Straddle next hand")
    expect(straddle).to_have_attribute("aria-pressed", "false")
    vote = page.get_by_role("button", name="Bomb pot 0/4")
    expect(vote).to_be_visible()
    expect(page.locator(".forced-bets")).to_contain_text("all must vote")
    picture(page, str(SHOTS / "straddle-phone.png"))
    straddle.tap()
    vote.tap()
    sent = [{k: v for k, v in f.items() if k != "ref"} for f in page.evaluate("window.sent")]
    assert sent[-2:] == [{"type": "straddle", "on": True}, {"type": "bomb_pot_vote", "yes": True}]
    page.set_viewport_size(LAPTOP)
    picture(page, str(SHOTS / "straddle-laptop.png"))
    page.set_viewport_size(PHONE)

    _fold_to_the_end(table)
    services.bomb_pot_call(table.pk, director, True)
    page.evaluate(f"window.serverSays({json.dumps(table_snapshot(table, ann))})")
    expect(page.locator(".bomb-pot-next")).to_have_text("Bomb pot next hand")
    expect(page.locator(".forced-bets")).to_contain_text("Next hand: bomb pot")
    deal(table)
    page.evaluate(f"window.serverSays({json.dumps(table_snapshot(table, ann))})")
    expect(page.locator(".bomb-pot-tag")).to_have_text("Bomb pot")
    expect(page.locator(".seat-straddle")).to_have_count(0)
    expect(page.locator(".board .pc:not(.pc-slot)")).to_have_count(3)
    expect(page.locator(".seat-mine .seat-cards .pc:not(.pc-back)")).to_have_count(4)
    # The cards are dealt with a short animation: the picture waits for it to end.
    page.wait_for_function("document.getAnimations().every((a) => a.playState !== 'running')")
    picture(page, str(SHOTS / "bomb-pot-phone.png"))
    picture(page, str(ARTIFACTS / "bomb-pot-phone.png"))
    page.set_viewport_size(LAPTOP)
    picture(page, str(SHOTS / "bomb-pot-laptop.png"))
    context.close()
