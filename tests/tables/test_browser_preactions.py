"""The pre-action bar on a phone, in Debian's chromium: the moves a player may choose before
their turn, chosen with a thumb, the choice lit, and the word when it is dropped.

The page is painted from the snapshot embedded in it (pytest-django's live_server speaks no
WebSocket); a stand-in socket keeps the frames the page sends, and passes it the frames the
server would (the new snapshot, an alert). Screenshots land in test-artifacts/pre-actions/ and test-artifacts/.
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from series.services import director_grant
from tables import services
from tables.alerts import PRE_ACTION_CLEARED, alert_frame
from tables.models import Hand, Seat, Table
from tables.runtime.state import table_snapshot
from tests.browser import ARTIFACTS, LAPTOP, PHONE, log_in, needs_chromium, picture
from tests.conftest import PASSWORD
from tests.tables.conftest import deal, make_players

pytestmark = needs_chromium

SHOTS = ARTIFACTS / "pre-actions"

# The page's socket, standing in for the server's: frames sent are kept in window.sent, and
# window.serverSays(frame) delivers a frame as the server would.
FAKE_SOCKET = """
window.sent = [];
class StandInSocket extends EventTarget {
  constructor() {
    super();
    this.readyState = 0;
    window.standIn = this;
    setTimeout(() => { this.readyState = 1; this.dispatchEvent(new Event("open")); }, 0);
  }
  send(text) { window.sent.push(JSON.parse(text)); }
  close() {}
}
StandInSocket.CONNECTING = 0; StandInSocket.OPEN = 1; StandInSocket.CLOSING = 2; StandInSocket.CLOSED = 3;
window.WebSocket = StandInSocket;
window.serverSays = (frame) =>
  window.standIn.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(frame) }));
"""


@pytest.fixture
def small_blind_waiting(transactional_db: None) -> tuple[Table, User]:
    """Three players dealt in; the button to act, the small blind (ben) waiting his turn."""
    director = director_grant(User.objects.create_user("dana", password=PASSWORD))
    table = services.table_create(
        created_by=director, name="Pre-actions", big_blind=2, min_buy_in=40, max_buy_in=200
    )
    for number, player in enumerate(make_players("ann", "ben", "cal"), start=1):
        services.seat_take(table.pk, player, number, 100)
    deal(table)
    hand = Hand.objects.get(table=table)
    seats = list(Seat.objects.filter(table=table).order_by("number"))
    small_blind = next(
        s for s in seats if s.number != hand.to_act and s.number == (hand.to_act % 3) + 1
    )
    return table, small_blind.user  # type: ignore[return-value]


def test_a_player_chooses_a_move_before_their_turn_on_a_phone(
    small_blind_waiting: tuple[Table, User], live_server: object, live_browser: Browser
) -> None:
    table, player = small_blind_waiting
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = live_browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(FAKE_SOCKET)
    page = context.new_page()
    base = live_server.url  # type: ignore[attr-defined]
    log_in(page, base, player.username, then=f"/tables/{table.pk}/")
    bar = page.locator(".pre-actions")
    expect(bar).to_be_visible()
    buttons = bar.get_by_role("button")
    # Facing the big blind's 1 more: fold, call 1, call any; none chosen yet.
    expect(buttons).to_have_text(["Fold", "Call 1", "Call any"])
    for k in range(3):
        expect(buttons.nth(k)).to_have_attribute("aria-pressed", "false")
        box = buttons.nth(k).bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 88  # a thumb's
    page.get_by_role("button", name="Call 1").tap()
    sent = page.evaluate("window.sent")
    hand = Hand.objects.get(table=table)
    assert sent[-1] | {"ref": None} == {
        "type": "pre_action",
        "hand": hand.pk,
        "kind": "call",
        "amount": 1,
        "ref": None,
    }
    expect(page.get_by_role("button", name="Call 1")).to_have_attribute("aria-pressed", "true")
    # The server keeps the choice and sends the new snapshot: the choice stays lit.
    services.pre_action_set(table.pk, player, hand.pk, "call", 1)
    page.evaluate(f"window.serverSays({json.dumps(table_snapshot(table, player))})")
    expect(page.get_by_role("button", name="Call 1")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("button", name="Fold")).to_have_attribute("aria-pressed", "false")
    picture(page, str(SHOTS / "pre-action-bar-phone.png"))
    picture(page, str(ARTIFACTS / "pre-action-bar-phone.png"))
    # Tapped again, it is cleared.
    page.get_by_role("button", name="Call 1").tap()
    assert page.evaluate("window.sent")[-1]["kind"] is None
    expect(page.get_by_role("button", name="Call 1")).to_have_attribute("aria-pressed", "false")
    # A raise dropped it: the player reads why.
    alert = {"code": PRE_ACTION_CLEARED, "params": {"kind": "call", "amount": 1, "bet": 7}}
    page.evaluate(f"window.serverSays({json.dumps(alert_frame(alert))})")
    expect(page.get_by_role("alert")).to_contain_text("Your call 1 was cleared: the bet is now 7.")
    picture(page, str(SHOTS / "pre-action-cleared-phone.png"))
    page.set_viewport_size(LAPTOP)
    page.evaluate(f"window.serverSays({json.dumps(table_snapshot(table, player))})")
    expect(bar).to_be_visible()
    picture(page, str(SHOTS / "pre-action-bar-laptop.png"))
    context.close()
