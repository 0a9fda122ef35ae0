"""The time bank's countdown on a phone, in Debian's chromium: once the turn's own 30 seconds
are out, the seat's bar and its seconds turn blue and count the player's bank down, the
banner says so, and the player sees what is left of their own bank.

docs/rules.md, Home-game options: "**Time bank**: extra seconds a player draws on automatically
when their turn's time runs out".

The page is painted from the snapshot embedded in it (pytest-django's live_server speaks no
WebSocket; a stand-in socket keeps the page from reconnecting). Screenshots land in
test-artifacts/time-bank/ and test-artifacts/.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, expect

from series.services import director_grant
from tables import services
from tables.models import Hand, Table
from tables.runtime.state import STATE
from tests.browser import ARTIFACTS, LAPTOP, PHONE, log_in, needs_chromium, picture
from tests.conftest import PASSWORD
from tests.tables.conftest import deal, make_players

pytestmark = needs_chromium

SHOTS = ARTIFACTS / "time-bank"

# The page's socket, standing in for the server's: it opens and says nothing more.
QUIET_SOCKET = """
class StandInSocket extends EventTarget {
  constructor() {
    super();
    this.readyState = 0;
    setTimeout(() => { this.readyState = 1; this.dispatchEvent(new Event("open")); }, 0);
  }
  send() {}
  close() {}
}
StandInSocket.CONNECTING = 0; StandInSocket.OPEN = 1; StandInSocket.CLOSING = 2; StandInSocket.CLOSED = 3;
window.WebSocket = StandInSocket;
"""


@pytest.fixture
def in_the_bank(transactional_db: None) -> tuple[Table, User]:
    """Three players with a 20-second bank; the player to act is 8 seconds into theirs."""
    director = director_grant(User.objects.create_user("dana", password=PASSWORD))
    table = services.table_create(
        created_by=director,
        name="Time bank",
        big_blind=2,
        min_buy_in=40,
        max_buy_in=200,
        time_bank_seconds=20,
        time_bank_refill_seconds=5,
        time_bank_cap_seconds=30,
    )
    for number, player in enumerate(make_players("ann", "ben", "cal"), start=1):
        services.seat_take(table.pk, player, number, 100)
    deal(table)
    # The turn began 38 seconds ago: its own 30 are out, 12 of the bank's 20 are left.
    began = timezone.now() - timedelta(seconds=38)
    Hand.objects.filter(table=table).update(
        turn_started_at=began, deadline=began + timedelta(seconds=30 + 20)
    )
    # Written behind the services' back: the snapshot kept of this version is out of date.
    STATE.forget()
    hand = Hand.objects.get(table=table)
    return table, table.seats.get(number=hand.to_act).user  # type: ignore[return-value]


def test_the_countdown_shows_the_bank_in_its_own_colour_on_a_phone(
    in_the_bank: tuple[Table, User], live_server: object, live_browser: Browser
) -> None:
    table, player = in_the_bank
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = live_browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(QUIET_SOCKET)
    page = context.new_page()
    log_in(page, live_server.url, player.username, then=f"/tables/{table.pk}/")  # type: ignore[attr-defined]

    seat = page.locator(".seat.seat-to-act")
    expect(seat).to_have_class(re.compile(r"\bin-bank\b"))
    timer = seat.locator(".seat-timer")
    expect(timer).to_be_visible()
    left = int(timer.get_attribute("data-left") or "0")
    assert 1 <= left <= 12
    # Blue, not the turn's gold: the bank is what is counting.
    colour = seat.locator(".seat-timer-bar").evaluate("(n) => getComputedStyle(n).backgroundColor")
    assert colour == "rgb(92, 200, 255)"
    # The banner counts the player's own bank (its own line gives way to it meanwhile).
    expect(page.locator(".turn-banner")).to_have_text(re.compile(r"^Your turn · time bank \d+s$"))
    expect(page.locator(".time-bank-left")).to_be_hidden()
    # The bank counts down as time passes.
    page.wait_for_function(
        "(before) => Number(document.querySelector('.seat-to-act .seat-timer').dataset.left)"
        " < before",
        arg=left,
        timeout=3000,
    )
    for where in (SHOTS, ARTIFACTS):
        picture(page, str(where / "time-bank-phone.png"))
    page.set_viewport_size(LAPTOP)
    page.wait_for_timeout(200)
    for where in (SHOTS, ARTIFACTS):
        picture(page, str(where / "time-bank-laptop.png"))
    context.close()

    # Another player, waiting: their own bank, whole; the bank counting on the seat to act.
    context = live_browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(QUIET_SOCKET)
    page = context.new_page()
    other = table.seats.exclude(user=player).filter(user__isnull=False).first().user
    log_in(page, live_server.url, other.username, then=f"/tables/{table.pk}/")  # type: ignore[attr-defined]
    expect(page.locator(".time-bank-left")).to_have_text("Time bank: 20s")
    expect(page.locator(".seat.seat-to-act")).to_have_class(re.compile(r"\bin-bank\b"))
    expect(page.locator(".turn-banner")).to_be_hidden()
    for where in (SHOTS, ARTIFACTS):
        picture(page, str(where / "time-bank-waiting-phone.png"))
    context.close()
