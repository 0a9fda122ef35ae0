"""Players register and unregister themselves; the capacity fills a waiting list."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User

from series.models import Player
from tests.tournaments.factories import make_user, start
from tests.tournaments.levels import BREAK_1, LEVEL_4, LEVEL_5
from tournaments.errors import TournamentError
from tournaments.models import Entry, EntryState, Tournament, TournamentState
from tournaments.services.entries import entry_register, entry_unregister

pytestmark = pytest.mark.django_db


def register_many(tournament: Tournament, *names: str) -> list[Entry]:
    return [entry_register(tournament.pk, make_user(name)) for name in names]


def states(entries: list[Entry]) -> list[str]:
    for entry in entries:
        entry.refresh_from_db()
    return [entry.state for entry in entries]


def test_a_player_registers_and_gets_a_series_player(tournament: Tournament, ann: User) -> None:
    entry = entry_register(tournament.pk, ann)
    assert entry.state == EntryState.REGISTERED and entry.number == 1
    assert entry.player == Player.objects.get(user=ann) and entry.player.name == "ann"
    # Registering a player is theirs, not a director's action: not in the console's log.
    assert not tournament.actions.exists()


def test_registration_over_capacity_goes_to_the_waiting_list_in_order(
    tournament: Tournament,
) -> None:
    entries = register_many(tournament, "a1", "a2", "a3", "a4", "a5", "a6", "w1", "w2")
    assert states(entries) == [EntryState.REGISTERED] * 6 + [EntryState.WAITING] * 2


def test_unregister_moves_the_first_on_the_waiting_list_up(tournament: Tournament) -> None:
    entries = register_many(tournament, "a1", "a2", "a3", "a4", "a5", "a6", "w1", "w2")
    entry_unregister(tournament.pk, entries[2].player.user)
    assert states(entries) == (
        [EntryState.REGISTERED] * 2
        + [EntryState.UNREGISTERED]
        + [EntryState.REGISTERED] * 4
        + [EntryState.WAITING]
    )


def test_leaving_the_waiting_list_moves_nobody_up(tournament: Tournament) -> None:
    entries = register_many(tournament, "a1", "a2", "a3", "a4", "a5", "a6", "w1", "w2")
    entry_unregister(tournament.pk, entries[6].player.user)
    assert states(entries)[6:] == [EntryState.UNREGISTERED, EntryState.WAITING]


def test_registering_twice_is_refused(tournament: Tournament, ann: User) -> None:
    entry_register(tournament.pk, ann)
    with pytest.raises(TournamentError, match="ann is already registered"):
        entry_register(tournament.pk, ann)
    assert tournament.entries.count() == 1


def test_coming_back_after_unregistering_joins_the_end_of_the_list(
    tournament: Tournament,
) -> None:
    entries = register_many(tournament, "a1", "a2", "a3", "a4", "a5", "a6", "w1")
    comeback = entries[0].player.user
    entry_unregister(tournament.pk, comeback)  # w1 moves up
    again = entry_register(tournament.pk, comeback)
    assert again.pk == entries[0].pk and again.number == 1
    assert again.state == EntryState.WAITING


def test_unregistering_without_a_registration_is_refused(tournament: Tournament, ann: User) -> None:
    with pytest.raises(TournamentError, match="not registered"):
        entry_unregister(tournament.pk, ann)


def test_a_playing_player_cannot_unregister(tournament: Tournament, ann: User) -> None:
    entry = entry_register(tournament.pk, ann)
    start(tournament)
    Entry.objects.filter(pk=entry.pk).update(state=EntryState.PLAYING)
    with pytest.raises(TournamentError, match="You are playing"):
        entry_unregister(tournament.pk, ann)


def test_anonymous_visitors_must_log_in(tournament: Tournament) -> None:
    with pytest.raises(TournamentError, match="Log in"):
        entry_register(tournament.pk, AnonymousUser())


def test_registration_stays_open_during_late_registration(
    tournament: Tournament, ann: User
) -> None:
    # Late registration until level 4: the break after level 3 and level 4 itself.
    start(tournament, BREAK_1)
    assert entry_register(tournament.pk, ann).state == EntryState.REGISTERED
    start(tournament, LEVEL_4)
    assert entry_register(tournament.pk, make_user("ben")).state == EntryState.REGISTERED


def test_registration_after_late_registration_closes_is_refused(
    tournament: Tournament, ann: User
) -> None:
    start(tournament, LEVEL_5)
    with pytest.raises(TournamentError, match="Late registration closed at the end of level 4"):
        entry_register(tournament.pk, ann)
    assert not tournament.entries.exists()


def test_no_late_registration_means_none_after_the_start(tournament: Tournament, ann: User) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(late_registration_until_level=None)
    start(tournament)
    with pytest.raises(TournamentError, match="takes no late registrations"):
        entry_register(tournament.pk, ann)


@pytest.mark.parametrize("state", [TournamentState.FINISHED, TournamentState.CANCELLED])
def test_registration_for_a_tournament_that_is_over_is_refused(
    tournament: Tournament, ann: User, state: str
) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(state=state)
    with pytest.raises(TournamentError, match="over"):
        entry_register(tournament.pk, ann)


def test_registration_for_no_tournament_is_refused(ann: User) -> None:
    with pytest.raises(TournamentError, match="does not exist"):
        entry_register(424242, ann)
