"""The console's parts follow what is done in another part.

A walk-in, a late entry, a rebuy, an add-on or a re-entry answers with the players section
alone; the seating (the players to seat, the "Draw the seats for 12 players" button), the
results (the prize pool, who re-entered) and the chips in play change too, and went on
showing the night as it was before the tap: found on a phone, where the draw button still
said 10 players after two walk-ins. And after the finish the console's header went on
saying the tournament was running, without its final results to print.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import make_player, start
from tests.tournaments.levels import BREAK_1
from tournaments.models import Entry, EntryState, Tournament
from tournaments.services.results import entry_eliminate

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
EVENT = "entries-changed"


def test_a_walk_in_tells_the_other_sections(
    tournament: Tournament, director_client: Client
) -> None:
    url = reverse("tournaments:console_walk_in", args=[tournament.pk])

    response = director_client.post(url, {"name": "Bob"}, **HTMX)

    assert response.status_code == 200 and response["HX-Trigger"] == EVENT


def test_a_rebuy_tells_the_other_sections(tournament: Tournament, director_client: Client) -> None:
    ann = Entry.objects.create(
        tournament=tournament,
        player=make_player("ann"),
        state=EntryState.PLAYING,
        table_number=1,
        seat_number=1,
    )
    start(tournament)
    url = reverse("tournaments:console_rebuy", args=[tournament.pk, ann.pk])

    response = director_client.post(url, {"stack": "0"}, **HTMX)

    assert response["HX-Trigger"] == EVENT
    ann.refresh_from_db()
    assert ann.rebuys == 1


def test_a_refused_action_tells_them_too_which_is_harmless(
    tournament: Tournament, director_client: Client
) -> None:
    url = reverse("tournaments:console_walk_in", args=[tournament.pk])

    response = director_client.post(url, {"name": ""}, **HTMX)

    assert response["HX-Trigger"] == EVENT and not tournament.entries.exists()


def test_without_htmx_the_console_is_sent_whole(
    tournament: Tournament, director_client: Client
) -> None:
    url = reverse("tournaments:console_walk_in", args=[tournament.pk])

    response = director_client.post(url, {"name": "Bob"})

    assert response.status_code == 302 and "HX-Trigger" not in response


def test_the_seating_results_and_chips_sections_listen(
    tournament: Tournament, director_client: Client
) -> None:
    Entry.objects.create(tournament=tournament, player=make_player("ann"), state="playing")
    start(tournament, BREAK_1)

    page = director_client.get(reverse("tournaments:console", args=[tournament.pk]))

    html = page.content.decode()
    for section in ("console-seating", "console-results", "console-chips"):
        opening = re.search(rf'<section id="{section}"[^>]*>', html)
        assert opening is not None, section
        trigger = re.search(r'hx-trigger="([^"]*)"', opening.group(0))
        assert trigger is not None and f"{EVENT} from:body" in trigger.group(1), section


def test_the_finish_sends_the_whole_console_again(
    tournament: Tournament, director: User, director_client: Client
) -> None:
    """The finish changes every part of the console, its header too (the state, the final
    results to print): as after the start, the whole console comes again, saying so."""
    ann, ben = (
        Entry.objects.create(
            tournament=tournament,
            player=make_player(name),
            state=EntryState.PLAYING,
            table_number=1,
            seat_number=seat,
        )
        for seat, name in ((1, "Ann"), (2, "Ben"))
    )
    start(tournament)
    entry_eliminate(tournament.pk, [ben.pk], by=director, eliminated_by=ann.pk)
    console = reverse("tournaments:console", args=[tournament.pk])

    response = director_client.post(
        reverse("tournaments:results_finish", args=[tournament.pk]), **HTMX
    )

    assert response.status_code == 204 and response["HX-Redirect"] == console
    page = director_client.get(console).content.decode()
    assert "The tournament is over: Ann wins." in page
    assert reverse("tournaments:sheet_results", args=[tournament.pk]) in page
