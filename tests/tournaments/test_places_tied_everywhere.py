"""A place players share reads "3 (tied)" on every screen that names a place, as on the
console's results: the console's list of players, a player's own panel, and the series'
page of the event once the tournament is over. The tie is a real one of the room: Cal and
Dee out at two tables on one hand-for-hand hand (docs/rules.md "Hand-for-hand (RP-8)")."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, expect

from series.models import Player
from tests.browser import ARTIFACTS, LAPTOP, PHONE, log_in, needs_chromium, picture
from tournaments.models import Entry, Tournament
from tournaments.services.results import tournament_finish

# The night with a tie on the bubble, and its fixtures.
from .test_hand_for_hand_ties import bubble as bubble
from .test_hand_for_hand_ties import out
from .test_hand_for_hand_ties import tied_on_the_bubble as tied_on_the_bubble

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock_tasks_off")]

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_the_consoles_list_of_players_shows_the_shared_place(
    running_clock: Tournament, tied_on_the_bubble: dict[str, Entry], director_client: Client
) -> None:
    entries = director_client.get(
        reverse("tournaments:console", args=[running_clock.pk]), **HTMX
    ).content.decode()
    assert entries.count("place 3 (tied)") == 2
    # Eve's 5th is hers alone.
    assert "place 5<" in entries and "place 5 (tied)" not in entries


def test_a_players_panel_shows_the_place_they_share(
    running_clock: Tournament,
    tied_on_the_bubble: dict[str, Entry],
    player: User,
    player_client: Client,
) -> None:
    Player.objects.filter(pk=tied_on_the_bubble["Cal"].player_id).update(user=player)
    panel = player_client.get(
        reverse("tournaments:lobby_mine", args=[running_clock.pk])
    ).content.decode()
    assert "you finished in place 3 (tied)" in panel


def test_a_player_out_alone_reads_a_bare_place(
    running_clock: Tournament,
    tied_on_the_bubble: dict[str, Entry],
    player: User,
    player_client: Client,
) -> None:
    Player.objects.filter(pk=tied_on_the_bubble["Eve"].player_id).update(user=player)
    panel = player_client.get(
        reverse("tournaments:lobby_mine", args=[running_clock.pk])
    ).content.decode()
    assert "you finished in place 5<" in panel.replace("</span>", "<")


def test_the_series_page_of_the_event_shows_the_shared_place(
    player_client: Client,
    running_clock: Tournament,
    tied_on_the_bubble: dict[str, Entry],
    director: User,
    django_capture_on_commit_callbacks,
) -> None:  # type: ignore[no-untyped-def]
    out(running_clock, tied_on_the_bubble["Bob"], director=director)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_finish(running_clock.pk, by=director)

    # The results are the members' (a visitor sees that there are some).
    page = player_client.get(reverse("series:event", args=[running_clock.event_id]))
    page = page.content.decode()
    assert page.count("3 (tied)") == 2
    assert (
        '<td class="num stack-lead">1</td>' in page and '<td class="num stack-lead">5</td>' in page
    )


@needs_chromium[0]
@needs_chromium[1]
def test_the_shared_place_on_a_phone_and_a_laptop(
    running_clock: Tournament,
    tied_on_the_bubble: dict[str, Entry],
    director: User,
    player: User,
    live_server,
    live_browser: Browser,
) -> None:
    """Screenshots of the console's players out, a player's panel and the event's results
    in test-artifacts/ (places-tied-*.png)."""
    ARTIFACTS.mkdir(exist_ok=True)
    base = live_server.url
    Player.objects.filter(pk=tied_on_the_bubble["Cal"].player_id).update(user=player)
    console = live_browser.new_page(viewport=PHONE)
    log_in(console, base, then=f"/tournaments/{running_clock.pk}/console/")
    console.locator("details.entries-out").evaluate("details => { details.open = true; }")
    dee = console.locator("#console-entries li.entry", has_text="Dee")
    expect(dee).to_contain_text("place 3 (tied)")
    picture(dee, str(ARTIFACTS / "places-tied-console-390.png"))
    panel = live_browser.new_page(viewport=PHONE)
    log_in(panel, base, player.get_username(), then=f"/tournaments/{running_clock.pk}/lobby/")
    expect(panel.locator(".my-panel")).to_contain_text("you finished in place 3 (tied)")
    picture(panel.locator(".my-panel"), str(ARTIFACTS / "places-tied-panel-390.png"))

    out(running_clock, tied_on_the_bubble["Bob"], director=director)
    tournament_finish(running_clock.pk, by=director)
    for viewport in (PHONE, LAPTOP):
        page = live_browser.new_page(viewport=viewport)
        log_in(page, base, player.get_username(), then=f"/series/events/{running_clock.event_id}/")
        results = page.locator("table.results-table")
        expect(results.locator("tbody tr").nth(2)).to_contain_text("3 (tied)")
        picture(results, str(ARTIFACTS / f"places-tied-event-{viewport['width']}.png"))
