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
from tests.tournaments.factories import seat
from tests.tournaments.lookups import last_action
from tournaments.models import Entry, EntryState, Tournament
from tournaments.services import undo
from tournaments.services.entries import entry_late, entry_reentry
from tournaments.services.results import entry_eliminate, tournament_finish
from tournaments.views.lobby import lobby_public_context

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
    tournament_in_play: Tournament, director: User
) -> None:
    players = seat(tournament_in_play, SIX)
    out(tournament_in_play, players["Dee"], director)
    eve = out(tournament_in_play, players["Eve"], director)
    assert eve.place == 5

    eve_2 = entry_reentry(eve.pk, by=director)
    gus = out(tournament_in_play, players["Gus"], director)

    eve.refresh_from_db()
    assert (eve.place, eve.prize) == (None, 0)
    assert gus.place == 5
    shown = places_shown(tournament_in_play)
    assert shown == [(5, "Gus #1"), (6, "Dee #1"), (None, "Eve #1")]
    assert eve_2.state == EntryState.PLAYING


def test_undoing_the_re_entry_gives_the_busted_entry_its_place_again(
    tournament_in_play: Tournament, director: User
) -> None:
    players = seat(tournament_in_play, SIX)
    eve = out(tournament_in_play, players["Eve"], director)
    entry_reentry(eve.pk, by=director)
    eve.refresh_from_db()
    assert eve.place is None

    undo.action_undo_last(tournament_in_play.pk, by=director)

    eve.refresh_from_db()
    assert (eve.state, eve.place) == (EntryState.OUT, 6)


def test_a_new_players_late_entry_moves_everyone_out_one_place_down(
    tournament_in_play: Tournament, director: User
) -> None:
    players = seat(tournament_in_play, SIX)
    dee = out(tournament_in_play, players["Dee"], director)
    assert dee.place == 6

    entry_late(tournament_in_play.pk, Player.objects.create(name="Hal").pk, by=director)
    dee.refresh_from_db()
    assert dee.place == 7
    assert out(tournament_in_play, players["Cal"], director).place == 6

    # Undone, the field is six again: Dee is the last of six, Cal fifth.
    undo.action_undo_last(tournament_in_play.pk, by=director)  # Cal's elimination
    undo.action_undo_last(tournament_in_play.pk, by=director)  # Hal's late entry
    dee.refresh_from_db()
    assert dee.place == 6


def test_the_places_shown_during_the_night_are_the_final_results(
    tournament_in_play: Tournament, director: User
) -> None:
    players = seat(tournament_in_play, SIX)
    out(tournament_in_play, players["Dee"], director)
    hal = entry_late(tournament_in_play.pk, Player.objects.create(name="Hal").pk, by=director)
    eve = out(tournament_in_play, players["Eve"], director, by=players["Ann"])
    eve_2 = entry_reentry(eve.pk, by=director)
    out(tournament_in_play, players["Gus"], director, by=eve_2)
    out(tournament_in_play, players["Cal"], director)
    out(tournament_in_play, eve_2, director)
    out(tournament_in_play, players["Ben"], director)
    out(tournament_in_play, hal, director)

    night = {
        e.player.name: e.place
        for e in Entry.objects.select_related("player").filter(
            tournament=tournament_in_play, state=EntryState.OUT, place__isnull=False
        )
    }
    # No two players show one place during the night.
    assert not [place for place, n in Counter(night.values()).items() if n > 1]
    results = tournament_finish(tournament_in_play.pk, by=director)

    final = {r["player_name"]: r["place"] for r in results}
    assert final == {**night, "Ann": 1}
    assert final == {"Ann": 1, "Hal": 2, "Ben": 3, "Eve": 4, "Cal": 5, "Gus": 6, "Dee": 7}


def test_the_console_names_the_entry_that_knocked_a_player_out(
    tournament_in_play: Tournament, director: User, director_client: Client
) -> None:
    players = seat(tournament_in_play, SIX)
    eve = out(tournament_in_play, players["Eve"], director)
    eve_2 = entry_reentry(eve.pk, by=director)

    page = director_client.get(
        reverse("tournaments:console_results", args=[tournament_in_play.pk])
    ).content.decode()
    assert f'<option value="{eve_2.pk}">Eve #2</option>' in page
    assert f'<option value="{players["Ann"].pk}">Ann</option>' in page

    out(tournament_in_play, players["Gus"], director, by=eve_2)

    assert last_action(tournament_in_play).summary == "Out: Gus (place 6), by Eve #2"
    section = director_client.get(
        reverse("tournaments:console_results", args=[tournament_in_play.pk])
    ).content.decode()
    assert "by Eve #2" in section
    assert "re-entered" in section
