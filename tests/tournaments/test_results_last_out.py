"""The end of the night on the console: the last elimination ends the tournament (or, while
a player out may still re-enter, asks on the same screen), and once it is over the console
and the payouts sheet show what was paid, a deal included, and no next level."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import seat, start
from tests.tournaments.levels import LEVEL_2, LEVEL_5
from tournaments.models import Entry, Tournament, TournamentState
from tournaments.services.results import deal_record, entry_eliminate

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def no_tasks(settings) -> None:  # type: ignore[no-untyped-def]
    settings.TOURNAMENTS_SCHEDULE_TASKS = False


def three_in(tournament: Tournament, level: int) -> dict[str, Entry]:
    players = seat(tournament, {1: ["Ann", "Ben", "Cal"]})
    start(tournament, level)
    return players


def out(client: Client, tournament: Tournament, entry: Entry) -> object:
    url = reverse("tournaments:results_eliminate", args=[tournament.pk])
    return client.post(url, {"out": str(entry.pk)}, **HTMX)


def console(client: Client, tournament: Tournament) -> str:
    return client.get(reverse("tournaments:console", args=[tournament.pk])).content.decode()


def test_the_last_elimination_ends_the_tournament_when_nobody_can_re_enter(
    tournament: Tournament, director_client: Client
) -> None:
    players = three_in(tournament, LEVEL_5)  # re-entries ended with level 4
    out(director_client, tournament, players["Cal"])
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.RUNNING
    response = out(director_client, tournament, players["Ben"])
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED
    assert response["HX-Redirect"] == reverse("tournaments:console", args=[tournament.pk])
    page = console(director_client, tournament)
    assert "The tournament is over: Ann wins." in page
    assert "The tournament is finished: Ann wins." in page


def test_while_re_entries_are_open_the_console_asks_to_end_it(
    tournament: Tournament, director_client: Client
) -> None:
    players = three_in(tournament, LEVEL_2)
    out(director_client, tournament, players["Cal"])
    out(director_client, tournament, players["Ben"])
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.RUNNING
    page = console(director_client, tournament)
    entries = page[page.index('id="console-entries"') : page.index('id="console-players"')]
    assert reverse("tournaments:results_finish", args=[tournament.pk]) in entries
    assert "End the tournament: Ann wins" in entries
    assert "Re-entries are still open" in entries


def test_after_a_deal_the_console_shows_what_was_paid_and_no_next_level(
    tournament: Tournament, director: User, director_client: Client
) -> None:
    players = three_in(tournament, LEVEL_5)
    entry_eliminate(tournament.pk, [players["Cal"].pk], by=director)
    # Three entries of 20: a pool of 60, all of it left for the two in the deal.
    deal_record(tournament.pk, {players["Ann"].pk: 35, players["Ben"].pk: 25}, by=director)
    page = console(director_client, tournament)
    assert "Next:" not in page
    results = page[page.index('id="console-results"') :]
    results = results[: results.index("</section>")]
    # The schedule no longer: the amounts paid, the deal named.
    assert "Ended with a deal" in results and '<td class="num">35</td>' in results
    assert "ops-payouts" not in results
    sheet = director_client.get(reverse("tournaments:sheet_payouts", args=[tournament.pk]))
    sheet = sheet.content.decode()
    assert "Ann" in sheet and "Ben" in sheet and "35" in sheet and "25" in sheet
    assert "deal" in sheet.lower()
    assert "still change these amounts" not in sheet
