"""Hand-for-hand on the console: a player out is accepted with the reason that decides their
place. On the hand already in play when hand-for-hand began (hand 0, not dealt
hand-for-hand) they take their own place; on a hand dealt hand-for-hand they tie with anyone
out on it at another table ("places 3-4 shared" says so once they do)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.clock_helpers import reload
from tournaments.models import Entry, EntryState, Tournament
from tournaments.services.clock.hand_for_hand import clock_hand_done, clock_hand_for_hand_start

from .test_hand_for_hand_room import on_bubble_now as on_bubble_now

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock_tasks_off")]


def out(client: Client, tournament: Tournament, name: str) -> str:
    entry = Entry.objects.get(tournament=tournament, player__name=name)
    client.post(
        reverse("tournaments:results_eliminate", args=[tournament.pk]), {"out": str(entry.pk)}
    )
    entry.refresh_from_db()
    assert entry.state == EntryState.OUT
    return director_page(client, tournament)


def director_page(client: Client, tournament: Tournament) -> str:
    return client.get(reverse("tournaments:console", args=[tournament.pk])).content.decode()


def test_out_on_the_hand_in_play_when_it_began_is_accepted_untied_and_says_why(
    on_bubble_now: Tournament, director: User, director_client: Client
) -> None:
    clock_hand_for_hand_start(on_bubble_now.pk, by=director)
    page = out(director_client, on_bubble_now, "Dee")
    assert "on the hand in play when hand-for-hand began: not dealt hand-for-hand" in page


def test_out_on_a_hand_dealt_hand_for_hand_is_not_said_to_be_untied(
    on_bubble_now: Tournament, director: User, director_client: Client
) -> None:
    clock_hand_for_hand_start(on_bubble_now.pk, by=director)
    clock_hand_done(reload(on_bubble_now).pk, None, hand=0, by=director)
    page = out(director_client, on_bubble_now, "Dee")
    assert "when hand-for-hand began" not in page
