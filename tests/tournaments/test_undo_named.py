"""Undo names the action it reverses: taken once, and only while that action is the newest.

Two directors (or one double tap) both seeing "Undo: Rebuy bob" must undo bob's rebuy once,
never ann's older one that nobody chose.
"""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import User
from django.db import close_old_connections, connection
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import make_player, sample_tournament, start
from tournaments.errors import TournamentError
from tournaments.models import Entry, EntryState, Tournament, TournamentAction
from tournaments.services import undo
from tournaments.services.entries import entry_rebuy

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def playing(tournament: Tournament, name: str) -> Entry:
    return Entry.objects.create(
        tournament=tournament, player=make_player(name), state=EntryState.PLAYING
    )


def two_rebuys(tournament: Tournament, director: User) -> tuple[Entry, Entry]:
    """Ann rebuys, then Bob: Bob's rebuy is the newest action."""
    ann, bob = playing(tournament, "ann"), playing(tournament, "bob")
    start(tournament)
    entry_rebuy(ann.pk, by=director, stack=0)
    entry_rebuy(bob.pk, by=director, stack=0)
    return ann, bob


def rebuys(*entries: Entry) -> list[int]:
    for entry in entries:
        entry.refresh_from_db()
    return [entry.rebuys for entry in entries]


def undo_url(tournament: Tournament) -> str:
    return reverse("tournaments:console_undo", args=[tournament.pk])


def test_the_undo_form_names_the_newest_action(
    tournament: Tournament, director: User, director_client: Client
) -> None:
    two_rebuys(tournament, director)
    newest = tournament.actions.order_by("-pk").first()
    page = director_client.get(reverse("tournaments:console", args=[tournament.pk])).content
    assert f'name="action" value="{newest.pk}"'.encode() in page


def test_two_undos_naming_the_same_action_undo_it_once(
    tournament: Tournament, director: User, director_client: Client
) -> None:
    ann, bob = two_rebuys(tournament, director)
    bobs = tournament.actions.order_by("-pk").first()

    first = director_client.post(undo_url(tournament), {"action": bobs.pk})
    second = director_client.post(undo_url(tournament), {"action": bobs.pk}, follow=True)

    assert first.status_code == 302
    assert rebuys(ann, bob) == [1, 0]
    assert "is already undone" in second.content.decode()
    assert tournament.actions.filter(undone_at__isnull=True).count() == 1


def test_two_undos_with_htmx_undo_once_and_say_why(
    tournament: Tournament, director: User, director_client: Client
) -> None:
    ann, bob = two_rebuys(tournament, director)
    bobs = tournament.actions.order_by("-pk").first()

    first = director_client.post(undo_url(tournament), {"action": bobs.pk}, **HTMX)
    second = director_client.post(undo_url(tournament), {"action": bobs.pk}, **HTMX)

    assert first.status_code == 204 and first["HX-Redirect"]
    assert second.status_code == 200
    assert "is already undone" in second.content.decode()
    assert rebuys(ann, bob) == [1, 0]


def test_undo_naming_an_older_action_is_refused(
    tournament: Tournament, director: User, director_client: Client
) -> None:
    ann, bob = two_rebuys(tournament, director)
    anns = tournament.actions.order_by("pk").first()

    page = director_client.post(undo_url(tournament), {"action": anns.pk}, **HTMX).content.decode()

    assert "a newer action came first" in page
    assert rebuys(ann, bob) == [1, 1]
    assert not tournament.actions.filter(undone_at__isnull=False).exists()


@pytest.mark.parametrize("raw", ["", "abc", "²", "-1", "1.5", "9" * 40])
def test_undo_without_a_usable_action_id_is_refused(
    tournament: Tournament, director: User, director_client: Client, raw: str
) -> None:
    ann, bob = two_rebuys(tournament, director)
    data = {"action": raw} if raw else {}
    response = director_client.post(undo_url(tournament), data, follow=True)
    assert response.status_code == 200
    assert "reload the console" in response.content.decode()
    assert rebuys(ann, bob) == [1, 1]


def test_undo_naming_another_tournaments_action_is_refused(
    tournament: Tournament, director: User, director_client: Client
) -> None:
    ann, bob = two_rebuys(tournament, director)
    other = sample_tournament()
    foreign = undo.action_record(other, "register", "Walk-in: zed", by=director, undo={})
    response = director_client.post(undo_url(tournament), {"action": foreign.pk}, follow=True)
    assert "This action does not exist." in response.content.decode()
    assert rebuys(ann, bob) == [1, 1]
    foreign.refresh_from_db()
    assert foreign.undone_at is None


def test_the_service_undoes_the_named_action_and_refuses_it_twice(
    tournament: Tournament, director: User
) -> None:
    ann, bob = two_rebuys(tournament, director)
    anns, bobs = tournament.actions.order_by("pk")

    with pytest.raises(TournamentError, match="a newer action came first"):
        undo.action_undo(tournament.pk, anns.pk, by=director)
    assert undo.action_undo(tournament.pk, str(bobs.pk), by=director).pk == bobs.pk
    with pytest.raises(TournamentError, match="already undone"):
        undo.action_undo(tournament.pk, bobs.pk, by=director)
    assert rebuys(ann, bob) == [1, 0]
    # Now Ann's is the newest, and can be named.
    undo.action_undo(tournament.pk, anns.pk, by=director)
    assert rebuys(ann, bob) == [0, 0]


@pytest.mark.django_db(transaction=True)
def test_two_directors_undoing_at_once_undo_the_named_action_once(
    tournament: Tournament, director: User
) -> None:
    if connection.vendor == "sqlite":
        pytest.skip("SQLite serialises writers on its own; the race needs row locks (PostgreSQL)")
    ann, bob = two_rebuys(tournament, director)
    bobs = TournamentAction.objects.filter(tournament=tournament).order_by("-pk").first()
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def tap() -> None:
        try:
            barrier.wait()
            undo.action_undo(tournament.pk, bobs.pk, by=director)
            outcomes.append("undone")
        except TournamentError as error:
            outcomes.append(error.message)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=tap) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(outcomes) == 2 and outcomes.count("undone") == 1
    assert rebuys(ann, bob) == [1, 0]
