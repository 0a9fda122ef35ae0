"""Places during the night are the final ones: a busted entry that re-enters gives its place
back, a late entry pushes everyone already out one place down, no two players show one
place unless they share it, and a player's several entries are told apart ("Eve #2")."""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from series.models import Player
from tournaments.models import Entry, EntryState, Tournament
from tournaments.services import undo
from tournaments.services.entries import entry_late, entry_reentry
from tournaments.services.results import entry_eliminate, tournament_finish
from tournaments.views.lobby import lobby_public_context

from .conftest_t5 import *  # noqa: F403 (the fixtures)
from .conftest_t5 import last_action, seat

pytestmark = pytest.mark.django_db

SIX = {1: {1: "Ann", 2: "Ben", 3: "Cal", 4: "Dee", 5: "Eve", 6: "Gus"}}


def out(tournament: Tournament, entry: Entry, director: User, by: Entry | None = None) -> Entry:
    (placed,) = entry_eliminate(
        tournament.pk, [entry.pk], by=director, eliminated_by=by.pk if by else None
    )
    return placed


def places_shown(tournament: Tournament) -> list[tuple[int | None, str]]:
    """The lobby's "Out so far": (place, name #entry) per row."""
    rows = lobby_public_context(tournament)["out_rows"]
    return [(row["place"], str(row["entry"])) for row in rows]


def test_a_re_entered_entry_gives_its_place_back_and_the_next_out_takes_it(
    running: Tournament, director: User
) -> None:
    players = seat(running, SIX)
    out(running, players["Dee"], director)
    eve = out(running, players["Eve"], director)
    assert eve.place == 5

    eve_2 = entry_reentry(eve.pk, by=director)
    gus = out(running, players["Gus"], director)

    eve.refresh_from_db()
    assert (eve.place, eve.prize) == (None, 0)
    assert gus.place == 5
    shown = places_shown(running)
    assert shown == [(5, "Gus #1"), (6, "Dee #1"), (None, "Eve #1")]
    assert eve_2.state == EntryState.PLAYING


def test_undoing_the_re_entry_gives_the_busted_entry_its_place_again(
    running: Tournament, director: User
) -> None:
    players = seat(running, SIX)
    eve = out(running, players["Eve"], director)
    entry_reentry(eve.pk, by=director)
    eve.refresh_from_db()
    assert eve.place is None

    undo.action_undo_last(running.pk, by=director)

    eve.refresh_from_db()
    assert (eve.state, eve.place) == (EntryState.OUT, 6)


def test_a_new_players_late_entry_moves_everyone_out_one_place_down(
    running: Tournament, director: User
) -> None:
    players = seat(running, SIX)
    dee = out(running, players["Dee"], director)
    assert dee.place == 6

    entry_late(running.pk, Player.objects.create(name="Hal").pk, by=director)
    dee.refresh_from_db()
    assert dee.place == 7
    assert out(running, players["Cal"], director).place == 6

    # Undone, the field is six again: Dee is the last of six, Cal fifth.
    undo.action_undo_last(running.pk, by=director)  # Cal's elimination
    undo.action_undo_last(running.pk, by=director)  # Hal's late entry
    dee.refresh_from_db()
    assert dee.place == 6


def test_the_places_shown_during_the_night_are_the_final_results(
    running: Tournament, director: User
) -> None:
    players = seat(running, SIX)
    out(running, players["Dee"], director)
    hal = entry_late(running.pk, Player.objects.create(name="Hal").pk, by=director)
    eve = out(running, players["Eve"], director, by=players["Ann"])
    eve_2 = entry_reentry(eve.pk, by=director)
    out(running, players["Gus"], director, by=eve_2)
    out(running, players["Cal"], director)
    out(running, eve_2, director)
    out(running, players["Ben"], director)
    out(running, hal, director)

    night = {
        e.player.name: e.place
        for e in Entry.objects.select_related("player").filter(
            tournament=running, state=EntryState.OUT, place__isnull=False
        )
    }
    # No two players show one place during the night.
    assert not [place for place, n in Counter(night.values()).items() if n > 1]
    results = tournament_finish(running.pk, by=director)

    final = {r["player_name"]: r["place"] for r in results}
    assert final == {**night, "Ann": 1}
    assert final == {"Ann": 1, "Hal": 2, "Ben": 3, "Eve": 4, "Cal": 5, "Gus": 6, "Dee": 7}


def test_the_console_names_the_entry_that_knocked_a_player_out(
    running: Tournament, director: User, director_client: Client
) -> None:
    players = seat(running, SIX)
    eve = out(running, players["Eve"], director)
    eve_2 = entry_reentry(eve.pk, by=director)

    page = director_client.get(
        reverse("tournaments:console_results", args=[running.pk])
    ).content.decode()
    assert f'<option value="{eve_2.pk}">Eve #2</option>' in page
    assert f'<option value="{players["Ann"].pk}">Ann</option>' in page

    out(running, players["Gus"], director, by=eve_2)

    assert last_action(running).summary == "Out: Gus (place 6), by Eve #2"
    section = director_client.get(
        reverse("tournaments:console_results", args=[running.pk])
    ).content.decode()
    assert "by Eve #2" in section
    assert "re-entered" in section
