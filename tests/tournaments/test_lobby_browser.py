"""The lobby and a deal accepted by two players, in Debian's chromium.

A spectator and a player open the lobby on a phone (390x844) and a laptop (1280x800); the
director offers a deal from the console; one player accepts it on their live table's page
(phone), the other in the lobby (laptop), and the tournament ends with those prizes.
Screenshots land in test-artifacts/ (lobby-*.png, deal-*.png). Deselect with
``-m "not browser"``.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from playwright.sync_api import Browser, Page, expect

from tests.browser import ARTIFACTS, LAPTOP, PHONE, log_in, needs_chromium, picture
from tests.conftest import PASSWORD
from tests.tournaments.factories import start
from tests.tournaments.online_tables import clock_running, seat_online
from tournaments.models import DealOffer, DealState, Tournament, TournamentState, TournamentTable

pytestmark = needs_chromium


@pytest.fixture
def final_table(transactional_db: None, online_tournament: Tournament) -> Tournament:
    """Ann and Ben heads-up online at table 1; Cal and Dee out in 4th and 3rd."""
    start(online_tournament)
    clock_running(online_tournament)
    seat_online(online_tournament, {1: {2: ("ann", 30000), 5: ("ben", 10000)}})
    out = seat_online(online_tournament, {2: {1: ("cal", 0), 2: ("dee", 0)}})
    for place, name in ((4, "cal"), (3, "dee")):
        entry = out[name]
        entry.state, entry.place, entry.table_number, entry.seat_number = "out", place, None, None
        entry.save()
    TournamentTable.objects.filter(tournament=online_tournament, number=2).update(
        broken_at=online_tournament.started_at
    )
    cache.clear()
    return online_tournament


def logged_in(browser: Browser, base: str, name: str, viewport: dict[str, int]) -> Page:
    page = browser.new_page(viewport=viewport)
    log_in(page, base, name)
    expect(page.locator(".nav-account > summary")).to_have_text(name)
    return page


def watcher(browser: Browser, base: str, viewport: dict[str, int]) -> Page:
    """A member who does not play: the lobby names who plays, so it is for members."""
    if not User.objects.filter(username="watcher").exists():
        User.objects.create_user("watcher", password=PASSWORD)
    return logged_in(browser, base, "watcher", viewport)


def test_lobby_and_a_deal_accepted_by_two_players(
    final_table: Tournament, live_server, live_browser: Browser
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    base = live_server.url
    lobby = f"{base}/tournaments/{final_table.pk}/lobby/"

    # A spectator on a phone: tables with stacks, a watch link, who is out, the clock.
    spectator = watcher(live_browser, base, PHONE)
    spectator.goto(lobby)
    expect(spectator.locator("#lobby-table-1")).to_contain_text("Ann")
    expect(spectator.locator("#lobby-table-1")).to_contain_text("30,000")
    expect(spectator.locator(".lobby-out")).to_contain_text("Dee")
    picture(spectator, str(ARTIFACTS / "lobby-phone.png"), full_page=True)
    spectator.locator("#lobby-table-1").get_by_role("link", name="Watch").click()
    expect(spectator.locator("#poker")).to_be_visible()
    expect(spectator.locator("#table-panels")).to_contain_text("Tournament lobby")
    # A visitor watches: nobody picks a seat at a tournament table.
    expect(spectator.locator(".seat-controls")).to_contain_text("Watching this tournament table")
    expect(spectator.get_by_role("button", name="Sit", exact=True)).to_have_count(0)
    picture(spectator, str(ARTIFACTS / "lobby-watch-phone.png"), full_page=True)
    spectator.close()

    ben = logged_in(live_browser, base, "ben", LAPTOP)
    ben.goto(lobby)
    expect(ben.get_by_role("link", name="Go to my table")).to_be_visible()
    picture(ben, str(ARTIFACTS / "lobby-laptop.png"), full_page=True)

    # The director offers an ICM deal from the console.
    dana = User.objects.create_user("dana2", password=PASSWORD)
    from series.services import director_grant

    director_grant(dana)
    director = logged_in(live_browser, base, "dana2", PHONE)
    director.goto(f"{base}/tournaments/{final_table.pk}/console/")
    online = director.locator("#console-online")
    online.get_by_label("Method").select_option("icm")
    online.get_by_role("button", name="Offer a deal").click()
    expect(director.locator("#console-online")).to_contain_text("Waiting for the players")
    picture(director.locator("#console-online"), str(ARTIFACTS / "deal-console-phone.png"))
    offer = DealOffer.objects.get()
    amounts = offer.amounts

    # Ann, at her table on her phone, sees her share and accepts.
    ann = logged_in(live_browser, base, "ann", PHONE)
    table_id = TournamentTable.objects.get(tournament=final_table, number=1).live_table_id
    ann.goto(f"{base}/tables/{table_id}/")
    panel = ann.locator("#table-panels")
    expect(panel).to_contain_text("Deal offered: ICM")
    picture(ann, str(ARTIFACTS / "deal-table-phone.png"), full_page=True)
    panel.get_by_role("button", name="Accept the deal").click()
    expect(ann.locator("#table-panels")).to_contain_text("waiting for the others")
    assert DealOffer.objects.get().state == DealState.OPEN

    # Ben, in the lobby on his laptop, sees it at the next refresh and accepts: it is over.
    ben.reload()
    mine = ben.locator("#lobby-mine")
    expect(mine).to_contain_text("Your share")
    expect(mine.locator("tr.mine")).to_contain_text(
        str(amounts[str(offer.answers.get(entry__player__name="Ben").entry_id)])
    )
    picture(ben, str(ARTIFACTS / "deal-lobby-laptop.png"), full_page=True)
    mine.get_by_role("button", name="Accept the deal").click()
    expect(ben.locator("#lobby-mine")).to_contain_text("the deal is recorded")
    final_table.refresh_from_db()
    assert final_table.state == TournamentState.FINISHED
    assert DealOffer.objects.get().state == DealState.ACCEPTED
    cache.clear()
    ben.reload()
    expect(ben.locator(".lobby-out")).to_contain_text("Final results")
    expect(ben.locator("#lobby-mine")).to_contain_text("you finished in place 2")
    expect(ben.get_by_role("link", name="Go to my table")).to_have_count(0)
    picture(ben, str(ARTIFACTS / "lobby-finished-laptop.png"), full_page=True)


@pytest.fixture
def registering(transactional_db: None, online_tournament: Tournament) -> Tournament:
    online_tournament.capacity = None
    online_tournament.save(update_fields=["capacity"])
    return online_tournament


def test_the_director_fills_with_bots_and_starts_online(
    registering: Tournament, live_server, live_browser: Browser, settings
) -> None:
    settings.TOURNAMENTS_SCHEDULE_TASKS = False
    ARTIFACTS.mkdir(exist_ok=True)
    base = live_server.url
    from series.services import director_grant

    director_grant(User.objects.create_user("dana2", password=PASSWORD))
    director = logged_in(live_browser, base, "dana2", PHONE)
    director.goto(f"{base}/tournaments/{registering.pk}/console/")
    # A form answered with its own section, drawn after the change, owes it no second fetch
    # (a second swap of the same state, which replaced the section under the screenshot).
    fetched_again: list[str] = []
    director.on(
        "request",
        lambda request: (
            fetched_again.append(request.url)
            if request.method == "GET" and request.url.endswith("/console/online/")
            else None
        ),
    )
    online = director.locator("#console-online")
    online.get_by_label("House bots").fill("5")
    online.get_by_role("button", name="Fill with bots").click()
    expect(director.locator("#console-online")).to_contain_text("Start online")
    director.on("dialog", lambda dialog: dialog.accept())
    director.locator("#console-online").get_by_role("button", name="Start online").click()
    expect(director.locator("#console-online")).to_contain_text("1 live table")
    # The fetch owed, if any, is sent on the page's next turn after the answer: past it.
    director.evaluate("() => new Promise((done) => setTimeout(done, 200))")
    assert fetched_again == []
    picture(director.locator("#console-online"), str(ARTIFACTS / "console-online-phone.png"))
    registering.refresh_from_db()
    assert registering.state == TournamentState.RUNNING
    cache.clear()
    laptop = watcher(live_browser, base, LAPTOP)
    laptop.goto(f"{base}/tournaments/{registering.pk}/lobby/")
    expect(laptop.locator("#lobby-table-1 .lobby-seats li")).to_have_count(5)
    picture(laptop, str(ARTIFACTS / "lobby-bots-laptop.png"), full_page=True)


def test_the_lobby_follows_the_tournament_without_a_reload(
    final_table: Tournament, live_server, live_browser: Browser
) -> None:
    from tournaments.models import Entry

    page = watcher(live_browser, live_server.url, PHONE)
    page.goto(f"{live_server.url}/tournaments/{final_table.pk}/lobby/")
    expect(page.locator("#lobby-table-1")).to_contain_text("10,000")
    from tables.models import Seat

    # Ben wins a pot at the live table: the lobby's next refresh shows the new stacks.
    seat = Seat.objects.get(table__tournament_table__tournament=final_table, user__username="ben")
    seat.stack = 25000
    seat.save(update_fields=["stack"])
    expect(page.locator("#lobby-table-1")).to_contain_text("25,000", timeout=20000)
    assert Entry.objects.filter(tournament=final_table).count() == 4
