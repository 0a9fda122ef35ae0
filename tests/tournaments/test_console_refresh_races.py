"""The console's sections stay current when actions come quickly, and keep what the
director is filling in.

Each section fetches itself again on the events a console action answers with. Two quick
taps of "Next level" used to leave the players section as it was after the first (its
second fetch, asked for while the first was on its way, went nowhere once the first
replaced the section), so the add-on break showed no Add-on buttons. And an action
answering while the director was ticking a player in "Record an elimination" wiped the
tick, and the elimination was then refused ("Choose who is out."). And news that came
in the few milliseconds between a section's fetch being drawn and htmx listening on the
new section reached no one: on a busy host, the second "Next level" answered just then and
the players section stayed on the level before the break.

The sections' fetches are slowed in the page (a GET's answer is held 700 ms, or until the
test lets it go), so the races happen every time, not only on a slow phone.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, Locator, Page, expect

from series.models import Event, Season
from series.services import director_grant
from series.services.health import worker_heartbeat_record
from tests.browser import ARTIFACTS, LAPTOP, PHONE, console_page, needs_chromium, picture
from tests.conftest import PASSWORD
from tests.tournaments.factories import make_user
from tests.tournaments.levels import BREAK_1, ROWS
from tournaments.models import (
    BlindLevel,
    BlindStructure,
    Entry,
    EntryState,
    Tournament,
    TournamentState,
)
from tournaments.services.clock.controls import clock_next
from tournaments.services.entries import entry_register
from tournaments.services.lifecycle import tournament_start

pytestmark = needs_chromium

NAMES = ["Ann", "Ben", "Cal", "Dee"]

# Every GET the page sends (the sections' own fetches) is answered 700 ms late: its answer,
# read at once, is held back before htmx sees it, as on a slow phone line.
SLOW_FETCHES = """
(() => {
  const open = XMLHttpRequest.prototype.open;
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    this.slow = String(method).toUpperCase() === "GET";
    this.players = new URL(url, location.href).pathname.endsWith("/console/");
    return open.call(this, method, url, ...rest);
  };
  XMLHttpRequest.prototype.send = function (body) {
    const loaded = this.onload;
    if (this.slow && loaded) {
      this.onload = (event) => {
        const draw = () => loaded.call(this, event);
        // A test may hold the players section's answer until it lets it go.
        if (window.heldAnswers && this.players) window.heldAnswers.push(draw);
        else setTimeout(draw, 700);
      };
    }
    return send.call(this, body);
  };
})();
"""


@pytest.fixture
def night(transactional_db: None, settings) -> Tournament:  # type: ignore[no-untyped-def]
    """Four players at level 2, the clock running; the add-on at the first break, two
    levels on."""
    settings.TOURNAMENTS_SCHEDULE_TASKS = False
    director = director_grant(User.objects.create_user("dana", password=PASSWORD))
    today = timezone.localdate()
    season = Season.objects.create(
        name="Spring", starts_on=today, ends_on=today + timedelta(days=60)
    )
    event = Event.objects.create(
        season=season, name="Thursday PLO8", starts_at=timezone.now(), buy_in=20, fee=5
    )
    blind_structure = BlindStructure.objects.create(name="Home PLO8")
    BlindLevel.objects.bulk_create(
        BlindLevel(
            blind_structure=blind_structure,
            position=p,
            kind=k,
            minutes=m,
            small_blind=s,
            big_blind=b,
        )
        for p, (k, m, s, b) in enumerate(ROWS)
    )
    tournament = Tournament.objects.create(
        event=event,
        blind_structure=blind_structure,
        seats_per_table=6,
        addon_at_break=BREAK_1,
        addon_chips=15000,
        addon_price=20,
    )
    for name in NAMES:
        entry_register(tournament.pk, make_user(name))
    tournament_start(tournament.pk, by=director)
    clock_next(tournament.pk, by=director)
    worker_heartbeat_record("worker@night")
    return tournament


def _slow_console(
    night: Tournament, live_server: Any, live_browser: Browser
) -> tuple[Page, Locator]:
    """The console on a laptop, its fetches slowed, at level 2: the page and its players'
    Add-on buttons (none yet)."""
    page = console_page(live_browser, live_server.url, night.pk, LAPTOP)
    page.add_init_script(SLOW_FETCHES)
    page.reload()
    players = page.locator("#console-players")
    addons = players.get_by_role("button", name="Add-on")
    expect(players.get_by_role("button", name="Actions for Ann")).to_be_visible()
    expect(addons).to_have_count(0)
    return page, addons


def test_two_quick_next_levels_leave_the_players_section_current(
    night: Tournament, live_server, live_browser: Browser
) -> None:
    page, addons = _slow_console(night, live_server, live_browser)

    clock = page.locator("#console-clock")
    clock.get_by_role("button", name="Next level").click()
    # The first tap answered: the players section is fetching itself again.
    expect(page.locator("#console-entries.htmx-request")).to_have_count(1)
    clock.get_by_role("button", name="Next level").click()
    expect(clock.get_by_role("button", name="Break now")).to_have_count(0)

    night.refresh_from_db()
    assert night.level_index == BREAK_1 and night.state == TournamentState.ON_BREAK
    expect(addons).to_have_count(len(NAMES))
    ARTIFACTS.mkdir(exist_ok=True)
    picture(page, str(ARTIFACTS / "console-races-addon-1280.png"))


# The moment a section's own fetch is drawn, the page is told the tournament changed again
# (as when a second tap's answer lands just then): htmx listens on a new section only once
# it has settled, a few milliseconds after it is drawn, so the news reaches no one there.
NEWS_AS_THE_PLAYERS_ARE_DRAWN = """
document.addEventListener("htmx:afterSwap", (event) => {
  if (event.detail.elt.id !== "console-entries" || window.newsSent) return;
  window.newsSent = true;
  document.body.dispatchEvent(new CustomEvent("tournament-changed", { bubbles: true }));
});
"""


def test_news_that_comes_as_a_section_is_drawn_is_not_lost(
    night: Tournament, live_server, live_browser: Browser
) -> None:
    page, addons = _slow_console(night, live_server, live_browser)
    page.evaluate(NEWS_AS_THE_PLAYERS_ARE_DRAWN)

    # The players section fetches itself; its answer (level 2, no add-on yet) is held in
    # the page while the clock goes on to the add-on break, then drawn. (Held for a fixed
    # 700 ms, the answer was drawn, and the news sent, before the break was in the database
    # when the two steps of the clock took longer than that on a busy host: the news then
    # truly had nothing new to tell.)
    page.evaluate("window.heldAnswers = []")
    page.evaluate(
        "document.body.dispatchEvent(new CustomEvent('tournament-changed', {bubbles: true}))"
    )
    page.wait_for_function("window.heldAnswers.length === 1")
    director = User.objects.get(username="dana")
    clock_next(night.pk, by=director)
    clock_next(night.pk, by=director)
    night.refresh_from_db()
    assert night.level_index == BREAK_1 and night.state == TournamentState.ON_BREAK
    page.evaluate(
        "() => { const held = window.heldAnswers; window.heldAnswers = null;"
        " held.forEach((draw) => draw()); }"
    )

    expect(addons).to_have_count(len(NAMES))
    assert page.evaluate("window.newsSent") is True


def test_a_tick_in_the_elimination_form_survives_another_action(
    night: Tournament, live_server, live_browser: Browser
) -> None:
    page = console_page(live_browser, live_server.url, night.pk, PHONE)
    page.on("dialog", lambda dialog: dialog.accept())
    page.add_init_script(SLOW_FETCHES)
    page.reload()
    results = page.locator("#console-results")
    form = results.locator("form", has_text="Tick who is out")
    ben = Entry.objects.get(tournament=night, player__name="Ben")
    tick = form.locator(f'input[name="out"][value="{ben.pk}"]')
    expect(tick).to_be_visible()

    # Pause in the bar; while its answer (and the results' fetch it asks for) is on its
    # way, the director ticks Ben.
    page.locator("#console-bar").get_by_role("button", name="Pause").click()
    tick.check()
    expect(page.locator("#console-bar").get_by_role("button", name="Resume")).to_be_visible()
    # Long enough for the results' slowed fetch to have come back, had it been sent.
    page.wait_for_timeout(1500)
    expect(tick).to_be_checked()

    form.get_by_role("button", name="Record the elimination").click()
    expect(results.locator(".ops-out")).to_contain_text("Ben")
    ben.refresh_from_db()
    assert ben.state == EntryState.OUT
    picture(page, str(ARTIFACTS / "console-races-out-390.png"), full_page=True)
