"""Small things a night trips on: "You are registered." said once after registering, seat
cards that name the player (not "Ben #2" for a re-entry), and players who tie listed in one
order on the TV and in the lobby."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import make_player, start
from tournaments.models import Entry, EntryState, Tournament, TournamentState
from tournaments.services import tv
from tournaments.views.lobby import lobby_public_context

pytestmark = pytest.mark.django_db


def test_you_are_registered_is_said_once(
    tournament: Tournament, player: User, player_client: Client
) -> None:
    url = reverse("tournaments:register", args=[tournament.pk])
    page = player_client.post(url, follow=True).content.decode()
    assert page.count("You are registered") == 1
    block = player_client.post(
        reverse("tournaments:unregister", args=[tournament.pk]), HTTP_HX_REQUEST="true"
    )
    block = player_client.post(url, HTTP_HX_REQUEST="true").content.decode()
    assert block.count("You are registered") == 1


def test_a_seat_card_names_the_player_alone(
    tournament: Tournament, director_client: Client
) -> None:
    ben = make_player("Ben")
    Entry.objects.create(tournament=tournament, player=ben, state=EntryState.OUT, number=1)
    Entry.objects.create(
        tournament=tournament,
        player=ben,
        state=EntryState.PLAYING,
        number=2,
        table_number=1,
        seat_number=3,
    )
    start(tournament)
    sheet = director_client.get(reverse("tournaments:sheet_seats", args=[tournament.pk]))
    page = sheet.content.decode()
    assert '<p class="seat-card-name">Ben</p>' in page
    assert "#2" not in page


def test_tied_players_are_in_one_order_on_the_tv_and_in_the_lobby(
    tournament: Tournament,
) -> None:
    for name, place in (("Ann", 1), ("Fay", 2), ("Émile", 2), ("zed", 4)):
        Entry.objects.create(
            tournament=tournament,
            player=make_player(name),
            state=EntryState.OUT if place > 1 else EntryState.PLAYING,
            place=place,
        )
    tournament.state = TournamentState.FINISHED
    tournament.online = True
    tournament.save(update_fields=["state", "online"])
    on_tv = [p["name"] for p in tv._results([tournament])[tournament.pk]["places"]]
    in_lobby = [row["entry"].player.name for row in lobby_public_context(tournament)["out_rows"]]
    assert on_tv == in_lobby == ["Ann", "Émile", "Fay", "zed"]
