"""Undo of every entries action the console offers, and refusals when undo no longer fits."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from series.models import Player
from tests.tournaments.factories import make_player, make_user, start
from tests.tournaments.levels import BREAK_1, LEVEL_2
from tournaments.errors import TournamentError
from tournaments.models import Entry, EntryState, Tournament
from tournaments.services.entries import (
    entry_add_player,
    entry_add_walk_in,
    entry_addon,
    entry_late,
    entry_rebuy,
    entry_reentry,
    entry_register,
    entry_remove,
    entry_unregister,
)
from tournaments.services.undo import action_undo_last

pytestmark = pytest.mark.django_db


def fill(tournament: Tournament, count: int) -> list[Entry]:
    return [entry_register(tournament.pk, make_user(f"p{i}")) for i in range(count)]


def state_of(entry: Entry) -> str:
    entry.refresh_from_db()
    return entry.state


def test_undo_a_walk_in_removes_the_entry_and_the_new_guest(
    tournament: Tournament, director: User
) -> None:
    entry_add_walk_in(tournament.pk, "Bob", by=director)
    action_undo_last(tournament.pk, by=director)
    assert not tournament.entries.exists() and not Player.objects.filter(name="Bob").exists()


def test_undo_a_walk_in_keeps_a_guest_the_series_already_had(
    tournament: Tournament, director: User
) -> None:
    guest = Player.objects.create(name="Bob")
    entry_add_player(tournament.pk, guest.pk, by=director)
    action_undo_last(tournament.pk, by=director)
    assert not tournament.entries.exists() and Player.objects.filter(pk=guest.pk).exists()


def test_undo_a_walk_in_moves_the_waiting_list_up(tournament: Tournament, director: User) -> None:
    fill(tournament, 5)
    entry_add_walk_in(tournament.pk, "Bob", by=director)
    waiting = entry_register(tournament.pk, make_user("wendy"))
    assert waiting.state == EntryState.WAITING
    action_undo_last(tournament.pk, by=director)
    assert state_of(waiting) == EntryState.REGISTERED


def test_undo_a_walk_in_who_came_back_restores_the_unregistered_entry(
    tournament: Tournament, director: User
) -> None:
    entry = entry_add_walk_in(tournament.pk, "Bob", by=director)
    entry_remove(entry.pk, by=director)
    again = entry_add_player(tournament.pk, entry.player_id, by=director)
    assert again.pk == entry.pk
    action_undo_last(tournament.pk, by=director)
    assert state_of(entry) == EntryState.UNREGISTERED


def test_undo_a_late_entry_of_a_registered_player_puts_them_back_registered(
    tournament: Tournament, director: User
) -> None:
    ann = entry_register(tournament.pk, make_user("ann"))
    start(tournament, LEVEL_2)
    entry_late(tournament.pk, ann.player_id, by=director)
    action_undo_last(tournament.pk, by=director)
    assert state_of(ann) == EntryState.REGISTERED


def test_undo_a_new_late_entry_deletes_it(tournament: Tournament, director: User) -> None:
    ann = make_player("ann")
    start(tournament, LEVEL_2)
    entry_late(tournament.pk, ann.pk, by=director)
    action_undo_last(tournament.pk, by=director)
    assert not tournament.entries.exists() and Player.objects.filter(pk=ann.pk).exists()


def test_undo_a_late_walk_in(tournament: Tournament, director: User) -> None:
    start(tournament, LEVEL_2)
    entry_add_walk_in(tournament.pk, "Bob", by=director)
    action_undo_last(tournament.pk, by=director)
    assert not tournament.entries.exists() and not Player.objects.filter(name="Bob").exists()


def test_undo_a_rebuy(tournament: Tournament, director: User) -> None:
    ann = Entry.objects.create(
        tournament=tournament, player=make_player("ann"), state=EntryState.PLAYING
    )
    start(tournament)
    entry_rebuy(ann.pk, by=director, stack=100)
    entry_rebuy(ann.pk, by=director, stack=200)
    action_undo_last(tournament.pk, by=director)
    ann.refresh_from_db()
    assert ann.rebuys == 1
    action_undo_last(tournament.pk, by=director)
    ann.refresh_from_db()
    assert ann.rebuys == 0


def test_undo_a_re_entry_deletes_the_new_entry(tournament: Tournament, director: User) -> None:
    ann = Entry.objects.create(
        tournament=tournament, player=make_player("ann"), state=EntryState.OUT
    )
    start(tournament)
    new = entry_reentry(ann.pk, by=director)
    action_undo_last(tournament.pk, by=director)
    assert not Entry.objects.filter(pk=new.pk).exists() and state_of(ann) == EntryState.OUT


def test_undo_an_add_on(tournament: Tournament, director: User) -> None:
    ann = Entry.objects.create(
        tournament=tournament, player=make_player("ann"), state=EntryState.PLAYING
    )
    start(tournament, BREAK_1)
    entry_addon(ann.pk, by=director)
    action_undo_last(tournament.pk, by=director)
    ann.refresh_from_db()
    assert not ann.addon
    # And it can be taken again, since it was never taken.
    assert entry_addon(ann.pk, by=director).addon


def test_undo_taking_off_a_no_show_puts_the_waiting_player_back(
    tournament: Tournament, director: User
) -> None:
    entries = fill(tournament, 7)
    entry_remove(entries[0].pk, by=director)
    action_undo_last(tournament.pk, by=director)
    assert state_of(entries[0]) == EntryState.REGISTERED
    assert state_of(entries[6]) == EntryState.WAITING


def test_undo_a_removal_when_the_place_went_elsewhere_puts_them_on_the_list(
    tournament: Tournament, director: User
) -> None:
    entries = fill(tournament, 8)
    entry_remove(entries[0].pk, by=director)  # p6 moves up
    # p6 leaves on their own (not a director action): p7 moves up into the free place.
    entry_unregister(tournament.pk, entries[6].player.user)
    action_undo_last(tournament.pk, by=director)
    assert state_of(entries[7]) == EntryState.REGISTERED
    assert state_of(entries[0]) == EntryState.WAITING


def test_undo_walks_back_several_actions_in_order(tournament: Tournament, director: User) -> None:
    ann = Entry.objects.create(
        tournament=tournament, player=make_player("ann"), state=EntryState.PLAYING
    )
    start(tournament, BREAK_1)
    entry_rebuy(ann.pk, by=director, stack=0)
    entry_addon(ann.pk, by=director)
    bob = entry_add_walk_in(tournament.pk, "Bob", by=director)
    summaries = [action_undo_last(tournament.pk, by=director).summary for _ in range(3)]
    assert summaries == [
        "Walk-in, late entry: Bob",
        "Add-on: ann",
        "Rebuy: ann (1 of 2, had 0 chips)",
    ]
    ann.refresh_from_db()
    assert (ann.rebuys, ann.addon) == (0, False)
    assert not Entry.objects.filter(pk=bob.pk).exists()
    with pytest.raises(TournamentError, match="nothing to undo"):
        action_undo_last(tournament.pk, by=director)


def test_undo_of_a_late_entry_that_has_since_changed_is_refused(
    tournament: Tournament, director: User
) -> None:
    ann = make_player("ann")
    start(tournament, LEVEL_2)
    entry = entry_late(tournament.pk, ann.pk, by=director)
    # Out without a logged action (as a result recorded outside the console would be).
    Entry.objects.filter(pk=entry.pk).update(state=EntryState.OUT)
    with pytest.raises(TournamentError, match="has changed since"):
        action_undo_last(tournament.pk, by=director)
    assert state_of(entry) == EntryState.OUT


def test_undo_of_a_rebuy_whose_entry_changed_is_refused(
    tournament: Tournament, director: User
) -> None:
    ann = Entry.objects.create(
        tournament=tournament, player=make_player("ann"), state=EntryState.PLAYING
    )
    start(tournament)
    entry_rebuy(ann.pk, by=director, stack=0)
    Entry.objects.filter(pk=ann.pk).update(rebuys=0)
    with pytest.raises(TournamentError, match="has changed since"):
        action_undo_last(tournament.pk, by=director)
