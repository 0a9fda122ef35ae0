"""The director's entry actions: walk-ins, late entries, rebuys, re-entries, add-ons."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied

from series.models import Player
from tests.tournaments.factories import make_player, make_user, start
from tests.tournaments.levels import BREAK_1, BREAK_2, LEVEL_1, LEVEL_3, LEVEL_4, LEVEL_5
from tournaments.errors import NameInUse, TournamentError
from tournaments.models import ActionKind, Entry, EntryState, Tournament, TournamentState
from tournaments.services.entries import (
    entry_add_player,
    entry_add_walk_in,
    entry_addon,
    entry_late,
    entry_rebuy,
    entry_reentry,
    entry_register,
    entry_remove,
)

pytestmark = pytest.mark.django_db


def playing(tournament: Tournament, name: str) -> Entry:
    return Entry.objects.create(
        tournament=tournament, player=make_player(name), state=EntryState.PLAYING
    )


def bust(entry: Entry) -> Entry:
    Entry.objects.filter(pk=entry.pk).update(state=EntryState.OUT)
    entry.refresh_from_db()
    return entry


# -- walk-ins ---------------------------------------------------------------------------


def test_a_walk_in_is_a_guest_registered_by_name(tournament: Tournament, director: User) -> None:
    entry = entry_add_walk_in(tournament.pk, "  Bob   Smith ", by=director)
    assert entry.state == EntryState.REGISTERED
    assert entry.player.name == "Bob Smith" and entry.player.is_guest
    action = tournament.actions.get()
    assert (action.kind, action.summary, action.by) == (
        ActionKind.REGISTER,
        "Walk-in: Bob Smith",
        director,
    )


def test_a_walk_in_named_like_the_series_guest_asks_which_one(
    tournament: Tournament, director: User
) -> None:
    guest = Player.objects.create(name="Bob")
    with pytest.raises(NameInUse) as refused:
        entry_add_walk_in(tournament.pk, "bob", by=director)
    assert refused.value.players == [guest] and not tournament.entries.exists()
    entry = entry_add_player(tournament.pk, guest.pk, by=director)
    assert entry.player == guest and Player.objects.filter(name__iexact="bob").count() == 1


def test_a_walk_in_never_takes_an_account_of_the_same_name(
    tournament: Tournament, director: User
) -> None:
    account = make_player("bob")
    entry = entry_add_walk_in(tournament.pk, "bob", by=director, new_guest=True)
    assert entry.player != account and entry.player.is_guest


def test_a_walk_in_with_no_name_is_refused(tournament: Tournament, director: User) -> None:
    with pytest.raises(TournamentError, match="Enter the player's name"):
        entry_add_walk_in(tournament.pk, "   ", by=director)
    with pytest.raises(TournamentError, match="at most 100 characters"):
        entry_add_walk_in(tournament.pk, "x" * 101, by=director)
    assert not tournament.entries.exists() and not tournament.actions.exists()


def test_the_same_walk_in_twice_is_refused(tournament: Tournament, director: User) -> None:
    bob = entry_add_walk_in(tournament.pk, "Bob", by=director)
    with pytest.raises(NameInUse, match="There is already a player named Bob"):
        entry_add_walk_in(tournament.pk, "BOB", by=director)
    with pytest.raises(TournamentError, match="Bob is already registered"):
        entry_add_player(tournament.pk, bob.player_id, by=director)
    assert tournament.entries.count() == 1 and tournament.actions.count() == 1


def test_a_walk_in_over_capacity_waits(tournament: Tournament, director: User) -> None:
    for name in ("a1", "a2", "a3", "a4", "a5", "a6"):
        entry_register(tournament.pk, make_user(name))
    entry = entry_add_walk_in(tournament.pk, "Bob", by=director)
    assert entry.state == EntryState.WAITING
    assert tournament.actions.get().summary == "Walk-in, waiting list: Bob"


def test_a_walk_in_after_the_start_is_a_late_entry(tournament: Tournament, director: User) -> None:
    start(tournament, LEVEL_3)
    entry = entry_add_walk_in(tournament.pk, "Bob", by=director)
    assert entry.state == EntryState.PLAYING
    assert tournament.actions.get().kind == ActionKind.LATE_ENTRY


def test_a_walk_in_after_late_registration_is_refused(
    tournament: Tournament, director: User
) -> None:
    start(tournament, LEVEL_5)
    with pytest.raises(TournamentError, match="Late registration closed at the end of level 4"):
        entry_add_walk_in(tournament.pk, "Bob", by=director)
    assert not Player.objects.filter(name="Bob").exists()


def test_players_cannot_add_walk_ins(tournament: Tournament, player: User) -> None:
    with pytest.raises(PermissionDenied):
        entry_add_walk_in(tournament.pk, "Bob", by=player)


# -- late entries -----------------------------------------------------------------------


def test_a_late_entry_plays_the_registered_entry(tournament: Tournament, director: User) -> None:
    registered = entry_register(tournament.pk, make_user("ann"))
    start(tournament, LEVEL_4)
    entry = entry_late(tournament.pk, registered.player_id, by=director)
    assert entry.pk == registered.pk and entry.state == EntryState.PLAYING
    action = tournament.actions.get()
    assert (action.kind, action.summary) == (ActionKind.LATE_ENTRY, "Late entry: ann")


def test_a_late_entry_without_registration_gets_a_new_entry(
    tournament: Tournament, director: User
) -> None:
    ann = make_player("ann")
    start(tournament, BREAK_1)
    entry = entry_late(tournament.pk, ann.pk, by=director)
    assert (entry.player, entry.number, entry.state) == (ann, 1, EntryState.PLAYING)


def test_a_late_entry_before_the_start_is_refused(tournament: Tournament, director: User) -> None:
    with pytest.raises(TournamentError, match="has not started"):
        entry_late(tournament.pk, make_player("ann").pk, by=director)


def test_a_late_entry_after_late_registration_is_refused(
    tournament: Tournament, director: User
) -> None:
    start(tournament, LEVEL_5)
    with pytest.raises(TournamentError, match="closed at the end of level 4"):
        entry_late(tournament.pk, make_player("ann").pk, by=director)
    assert not tournament.entries.exists()


def test_a_late_entry_for_a_full_tournament_is_refused(
    tournament: Tournament, director: User
) -> None:
    for name in ("a1", "a2", "a3", "a4", "a5", "a6"):
        playing(tournament, name)
    waiting = Entry.objects.create(
        tournament=tournament, player=make_player("w1"), state=EntryState.WAITING
    )
    start(tournament)
    with pytest.raises(TournamentError, match="full \\(6 players\\)"):
        entry_late(tournament.pk, waiting.player_id, by=director)
    waiting.refresh_from_db()
    assert waiting.state == EntryState.WAITING


def test_a_late_entry_for_someone_playing_or_out_is_refused(
    tournament: Tournament, director: User
) -> None:
    ann = playing(tournament, "ann")
    start(tournament)
    with pytest.raises(TournamentError, match="ann is already playing"):
        entry_late(tournament.pk, ann.player_id, by=director)
    bust(ann)
    with pytest.raises(TournamentError, match="only a re-entry"):
        entry_late(tournament.pk, ann.player_id, by=director)


def test_a_late_entry_for_no_player_is_refused(tournament: Tournament, director: User) -> None:
    start(tournament)
    with pytest.raises(TournamentError, match="player does not exist"):
        entry_late(tournament.pk, 424242, by=director)


# -- rebuys -----------------------------------------------------------------------------


def test_a_rebuy_at_or_below_the_starting_stack(tournament: Tournament, director: User) -> None:
    ann = playing(tournament, "ann")
    start(tournament, LEVEL_3)
    assert entry_rebuy(ann.pk, by=director, stack=10000).rebuys == 1
    assert entry_rebuy(ann.pk, by=director, stack=0).rebuys == 2
    assert [a.summary for a in tournament.actions.order_by("pk")] == [
        "Rebuy: ann (1 of 2, had 10,000 chips)",
        "Rebuy: ann (2 of 2, had 0 chips)",
    ]


def test_a_rebuy_above_the_stack_limit_is_refused(tournament: Tournament, director: User) -> None:
    ann = playing(tournament, "ann")
    start(tournament)
    with pytest.raises(
        TournamentError, match="only allowed at or below 10,000 chips; ann has 10,001 chips"
    ):
        entry_rebuy(ann.pk, by=director, stack=10001)
    ann.refresh_from_db()
    assert ann.rebuys == 0 and not tournament.actions.exists()


def test_the_rebuy_limit_can_be_set_apart_from_the_starting_stack(
    tournament: Tournament, director: User
) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(rebuy_max_stack=5000)
    ann = playing(tournament, "ann")
    start(tournament)
    with pytest.raises(TournamentError, match="at or below 5,000 chips"):
        entry_rebuy(ann.pk, by=director, stack=6000)


def test_a_rebuy_in_the_break_after_the_last_rebuy_level(
    tournament: Tournament, director: User
) -> None:
    ann = playing(tournament, "ann")
    start(tournament, BREAK_1)
    assert entry_rebuy(ann.pk, by=director, stack=500).rebuys == 1


def test_a_rebuy_after_its_level_is_refused(tournament: Tournament, director: User) -> None:
    ann = playing(tournament, "ann")
    start(tournament, LEVEL_4)
    with pytest.raises(TournamentError, match="Rebuys ended with level 3"):
        entry_rebuy(ann.pk, by=director, stack=500)
    ann.refresh_from_db()
    assert ann.rebuys == 0


def test_rebuys_run_out(tournament: Tournament, director: User) -> None:
    ann = playing(tournament, "ann")
    start(tournament)
    entry_rebuy(ann.pk, by=director, stack=0)
    entry_rebuy(ann.pk, by=director, stack=0)
    with pytest.raises(TournamentError, match="ann has used all 2 rebuys"):
        entry_rebuy(ann.pk, by=director, stack=0)


@pytest.mark.parametrize("stack", [-1, None, "500", True])
def test_a_rebuy_needs_a_stack_in_chips(
    tournament: Tournament, director: User, stack: object
) -> None:
    ann = playing(tournament, "ann")
    start(tournament)
    with pytest.raises(TournamentError, match="Enter the player's stack"):
        entry_rebuy(ann.pk, by=director, stack=stack)  # type: ignore[arg-type]


def test_rebuys_need_the_tournament_to_allow_them(tournament: Tournament, director: User) -> None:
    ann = playing(tournament, "ann")
    Tournament.objects.filter(pk=tournament.pk).update(rebuys_allowed=0)
    start(tournament)
    with pytest.raises(TournamentError, match="no rebuys"):
        entry_rebuy(ann.pk, by=director, stack=0)


def test_rebuys_are_for_players_still_playing(tournament: Tournament, director: User) -> None:
    ann = bust(playing(tournament, "ann"))
    start(tournament)
    with pytest.raises(TournamentError, match="ann is out; only a re-entry"):
        entry_rebuy(ann.pk, by=director, stack=0)


def test_a_rebuy_before_the_start_is_refused(tournament: Tournament, director: User) -> None:
    ann = entry_register(tournament.pk, make_user("ann"))
    with pytest.raises(TournamentError, match="start with the tournament"):
        entry_rebuy(ann.pk, by=director, stack=0)


def test_a_rebuy_of_no_entry_is_refused(director: User, db: None) -> None:
    with pytest.raises(TournamentError, match="entry does not exist"):
        entry_rebuy(424242, by=director, stack=0)


# -- re-entries -------------------------------------------------------------------------


def test_a_busted_player_re_enters_with_a_new_entry(tournament: Tournament, director: User) -> None:
    ann = bust(playing(tournament, "ann"))
    start(tournament, LEVEL_4)
    new = entry_reentry(ann.pk, by=director)
    assert (new.player, new.number, new.state) == (ann.player, 2, EntryState.PLAYING)
    assert tournament.actions.get().summary == "Re-entry: ann (entry 2)"


def test_re_entries_run_out(tournament: Tournament, director: User) -> None:
    ann = bust(playing(tournament, "ann"))
    start(tournament)
    second = bust(entry_reentry(ann.pk, by=director))
    with pytest.raises(TournamentError, match="ann has used all 1 re-entries"):
        entry_reentry(second.pk, by=director)


def test_a_re_entry_after_its_level_is_refused(tournament: Tournament, director: User) -> None:
    ann = bust(playing(tournament, "ann"))
    start(tournament, LEVEL_5)
    with pytest.raises(TournamentError, match="Re-entry closed at the end of level 4"):
        entry_reentry(ann.pk, by=director)
    assert tournament.entries.count() == 1


def test_only_a_busted_player_re_enters(tournament: Tournament, director: User) -> None:
    ann = playing(tournament, "ann")
    start(tournament)
    with pytest.raises(TournamentError, match="ann is not out"):
        entry_reentry(ann.pk, by=director)


def test_a_re_entry_into_a_full_tournament_is_refused(
    tournament: Tournament, director: User
) -> None:
    ann = bust(playing(tournament, "ann"))
    for name in ("a1", "a2", "a3", "a4", "a5", "a6"):
        playing(tournament, name)
    start(tournament)
    with pytest.raises(TournamentError, match="full"):
        entry_reentry(ann.pk, by=director)


# -- add-ons ----------------------------------------------------------------------------


def test_an_add_on_at_the_add_on_break(tournament: Tournament, director: User) -> None:
    ann = playing(tournament, "ann")
    start(tournament, BREAK_1)
    assert entry_addon(ann.pk, by=director).addon
    assert tournament.actions.get().summary == "Add-on: ann"


def test_an_add_on_twice_is_refused(tournament: Tournament, director: User) -> None:
    ann = playing(tournament, "ann")
    start(tournament, BREAK_1)
    entry_addon(ann.pk, by=director)
    with pytest.raises(TournamentError, match="ann has already taken the add-on"):
        entry_addon(ann.pk, by=director)
    assert tournament.actions.count() == 1


@pytest.mark.parametrize("index", [LEVEL_1, LEVEL_3, LEVEL_4, BREAK_2])
def test_an_add_on_away_from_its_break_is_refused(
    tournament: Tournament, director: User, index: int
) -> None:
    ann = playing(tournament, "ann")
    start(tournament, index)
    with pytest.raises(TournamentError, match="taken at the break after level 3"):
        entry_addon(ann.pk, by=director)


def test_an_add_on_needs_the_tournament_to_offer_one(
    tournament: Tournament, director: User
) -> None:
    ann = playing(tournament, "ann")
    Tournament.objects.filter(pk=tournament.pk).update(addon_at_break=None)
    start(tournament, BREAK_1)
    with pytest.raises(TournamentError, match="no add-on"):
        entry_addon(ann.pk, by=director)


def test_an_add_on_is_for_players_still_playing(tournament: Tournament, director: User) -> None:
    ann = bust(playing(tournament, "ann"))
    start(tournament, BREAK_1)
    with pytest.raises(TournamentError, match="ann is out"):
        entry_addon(ann.pk, by=director)


# -- no-shows, and the end ---------------------------------------------------------------


def test_the_director_takes_off_a_no_show_and_the_list_moves_up(
    tournament: Tournament, director: User
) -> None:
    entries = [
        entry_register(tournament.pk, make_user(n))
        for n in ("a1", "a2", "a3", "a4", "a5", "a6", "w1")
    ]
    entry_remove(entries[0].pk, by=director)
    entries[0].refresh_from_db()
    entries[6].refresh_from_db()
    assert (entries[0].state, entries[6].state) == (EntryState.UNREGISTERED, EntryState.REGISTERED)
    assert tournament.actions.get().summary == "Unregistered: a1"


def test_a_playing_entry_cannot_be_taken_off(tournament: Tournament, director: User) -> None:
    ann = playing(tournament, "ann")
    with pytest.raises(TournamentError, match="nothing to take off"):
        entry_remove(ann.pk, by=director)


@pytest.mark.parametrize("state", [TournamentState.FINISHED, TournamentState.CANCELLED])
def test_nothing_is_taken_once_the_tournament_is_over(
    tournament: Tournament, director: User, state: str
) -> None:
    ann = playing(tournament, "ann")
    start(tournament, BREAK_1)
    Tournament.objects.filter(pk=tournament.pk).update(state=state)
    for action in (
        lambda: entry_rebuy(ann.pk, by=director, stack=0),
        lambda: entry_addon(ann.pk, by=director),
        lambda: entry_add_walk_in(tournament.pk, "Bob", by=director),
        lambda: entry_late(tournament.pk, make_player("cal").pk, by=director),
    ):
        with pytest.raises(TournamentError, match="over"):
            action()
    assert not tournament.actions.exists()


def test_players_are_refused_every_director_action(tournament: Tournament, player: User) -> None:
    ann = playing(tournament, "ann")
    start(tournament, BREAK_1)
    for action in (
        lambda: entry_rebuy(ann.pk, by=player, stack=0),
        lambda: entry_addon(ann.pk, by=player),
        lambda: entry_reentry(ann.pk, by=player),
        lambda: entry_late(tournament.pk, ann.player_id, by=player),
        lambda: entry_remove(ann.pk, by=player),
    ):
        with pytest.raises(PermissionDenied):
            action()
