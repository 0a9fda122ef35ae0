"""Run it twice on a phone, in Debian's chromium: the question with Yes and No for a player
asked, "waiting" for a spectator, then both boards dealt and each run's winners; the hand's
replay shows the two boards too.

The page is painted from the snapshot embedded in it (pytest-django's live_server speaks no
WebSocket); a stand-in socket keeps the frames the page sends and passes it the snapshots
the server would. Screenshots land in test-artifacts/run-twice/ and test-artifacts/.
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
from tables.services import dealing
from tests.browser import ARTIFACTS, LAPTOP, PHONE, log_in, needs_chromium, picture
from tests.conftest import PASSWORD
from tests.tables.conftest import deal, make_players
from tests.tables.sessions import seeded_deal_new
from tests.tables.test_browser_preactions import FAKE_SOCKET

pytestmark = needs_chromium

SHOTS = ARTIFACTS / "run-twice"


@pytest.fixture
def asked(transactional_db: None, monkeypatch: pytest.MonkeyPatch) -> tuple[Table, list[User]]:
    """Omaha Hi/Lo, 40 / 200 / 200, everyone all in before the flop: the players are asked
    whether to run it twice."""
    monkeypatch.setattr(dealing, "deal_new", seeded_deal_new(7))
    director = director_grant(User.objects.create_user("dana", password=PASSWORD))
    table = services.table_create(
        created_by=director,
        name="Twice",
        structure="no-limit",
        big_blind=2,
        max_buy_in=200,
        run_it_twice=True,
    )
    players = make_players("ann", "ben", "cal")
    for number, (player, chips) in enumerate(zip(players, (40, 200, 200), strict=True), 1):
        services.seat_take(table.pk, player, number, chips)
    now = deal(table)
    hand = Hand.objects.get(table=table)
    while hand.to_act is not None:
        user = Seat.objects.get(table=table, number=hand.to_act).user
        legal = table_snapshot(table, user)["you"]["legal"]
        action, amount = ("raise", legal["raise"]["max"]) if legal["raise"] else ("call", None)
        services.table_act(table.pk, user, legal["hand"], legal["version"], action, amount, now=now)
        hand.refresh_from_db()
    assert hand.vote_until is not None
    return table, players


def test_the_players_agree_to_run_it_twice_and_see_both_boards(
    asked: tuple[Table, list[User]], live_server: object, live_browser: Browser
) -> None:
    table, (ann, ben, cal) = asked
    hand = Hand.objects.get(table=table)
    SHOTS.mkdir(parents=True, exist_ok=True)
    base = live_server.url  # type: ignore[attr-defined]
    context = live_browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, reduced_motion="reduce"
    )
    context.add_init_script(FAKE_SOCKET)
    page = context.new_page()
    log_in(page, base, ann.username, then=f"/tables/{table.pk}/")

    # Asked: the question, the seconds left, Yes and No big enough for a thumb.
    ask = page.get_by_role("group", name="Run it twice?")
    expect(ask).to_contain_text("no answer is no")
    expect(ask.locator(".run-twice-left")).to_contain_text("s left")
    expect(page.locator(".run-twice-note")).to_have_text("Run it twice? 0 of 3 agreed")
    yes = ask.get_by_role("button", name="Yes")
    expect(ask.get_by_role("button", name="No")).to_be_visible()
    box = yes.bounding_box()
    assert box is not None and box["height"] >= 40
    picture(page, str(SHOTS / "question-phone.png"))
    page.set_viewport_size(LAPTOP)
    picture(page, str(SHOTS / "question-laptop.png"))
    page.set_viewport_size(PHONE)
    yes.tap()
    sent = page.evaluate("window.sent")[-1]
    assert sent | {"ref": None} == {
        "type": "run_twice",
        "hand": hand.pk,
        "agree": True,
        "ref": None,
    }
    expect(yes).to_be_disabled()
    # The server takes the answer and says so.
    services.run_twice_vote(table.pk, ann, hand.pk, True)
    page.evaluate(f"window.serverSays({json.dumps(table_snapshot(table, ann))})")
    expect(page.locator(".run-twice-question")).to_contain_text("You agreed to run it twice")
    expect(page.locator(".run-twice-note")).to_have_text("Run it twice? 1 of 3 agreed")

    # A spectator is told the players are voting, with no buttons.
    watcher = live_browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, reduced_motion="reduce"
    )
    watcher.add_init_script(FAKE_SOCKET)
    spectator = watcher.new_page()
    spectator.goto(f"{base}/tables/{table.pk}/")
    expect(spectator.locator(".run-twice-question")).to_contain_text(
        "Waiting for the players' votes"
    )
    expect(spectator.locator("[data-run-twice]")).to_have_count(0)
    picture(spectator, str(SHOTS / "waiting-spectator-phone.png"))

    # Everyone agrees: both runs are dealt street by street, side by side.
    services.run_twice_vote(table.pk, ben, hand.pk, True)
    services.run_twice_vote(table.pk, cal, hand.pk, True)
    hand.refresh_from_db()
    assert services.table_tick(table.pk, now=hand.reveal_at)
    page.evaluate(f"window.serverSays({json.dumps(table_snapshot(table, ann))})")
    runs = page.locator(".board-run")
    expect(runs).to_have_count(2)
    expect(runs.nth(0).locator(".pc:not(.pc-slot)")).to_have_count(3)
    expect(runs.nth(1).locator(".pc:not(.pc-slot)")).to_have_count(3)
    expect(page.get_by_role("group", name="Run it twice?")).to_have_count(0)
    picture(page, str(SHOTS / "flop-twice-phone.png"))
    hand.refresh_from_db()
    while hand.reveal_at is not None:
        assert services.table_tick(table.pk, now=hand.reveal_at)
        hand.refresh_from_db()
    page.evaluate(f"window.serverSays({json.dumps(table_snapshot(table, ann))})")
    expect(runs.nth(1).locator(".pc:not(.pc-slot)")).to_have_count(5)
    # The spectator sees each run's board and its winners.
    spectator.evaluate(f"window.serverSays({json.dumps(table_snapshot(table, None))})")
    runs = spectator.locator(".board-run")
    expect(runs.nth(0).locator(".pc:not(.pc-slot)")).to_have_count(5)
    expect(runs.nth(1).locator(".pc:not(.pc-slot)")).to_have_count(5)
    expect(runs.nth(0).locator(".board-run-label")).to_have_text("Run 1")
    # A phone: one line a run, its winners; a laptop: each winner's line, with the hand.
    short = spectator.locator(".results li:visible")
    expect(short).to_have_count(2)
    expect(short.first).to_contain_text("Run 1: ")
    expect(short.last).to_contain_text("Run 2: ")
    picture(spectator, str(SHOTS / "two-boards-phone.png"))
    picture(spectator, str(ARTIFACTS / "run-twice-phone.png"))
    spectator.set_viewport_size(LAPTOP)
    expect(runs).to_have_count(2)
    expect(spectator.locator(".results li:visible").first).to_contain_text(" with ")
    picture(spectator, str(SHOTS / "two-boards-laptop.png"))

    # The hand's replay deals both boards too.
    page.goto(f"{base}/tables/hands/{hand.pk}/")
    page.get_by_role("button", name="Last step").click()
    expect(page.locator("#replayer .board-run")).to_have_count(2)
    expect(page.locator(".replay-log")).to_contain_text("ann agrees to run it twice")
    picture(page, str(SHOTS / "replay-phone.png"))
    page.set_viewport_size(LAPTOP)
    picture(page, str(SHOTS / "replay-laptop.png"))
