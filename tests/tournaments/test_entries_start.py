"""The start (seat draw and clock in one transaction), and late seats for newcomers."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied

from tests.tournaments.factories import make_player, make_user
from tournaments.errors import TournamentError
from tournaments.models import ActionKind, Entry, EntryState, Tournament, TournamentState
from tournaments.services.entries import (
    entry_add_walk_in,
    entry_late,
    entry_reentry,
    entry_register,
)
from tournaments.services.lifecycle import tournament_start
from tournaments.services.undo import action_undo_last

pytestmark = pytest.mark.django_db


def register(tournament: Tournament, *names: str) -> list[Entry]:
    return [entry_register(tournament.pk, make_user(name)) for name in names]


def fresh(entry: Entry) -> Entry:
    entry.refresh_from_db()
    return entry


def test_the_start_draws_seats_and_starts_the_clock(tournament: Tournament, director: User) -> None:
    entries = register(tournament, "ann", "ben", "cal", "dee", "eve", "fay", "gus")
    started = tournament_start(tournament.pk, by=director)
    assert started.state == TournamentState.RUNNING and started.started_at is not None
    assert started.level_index == 0 and started.level_ends_at is not None
    players = [fresh(e) for e in entries[:6]]
    assert all(e.state == EntryState.PLAYING and e.seat_number for e in players)
    assert len({(e.table_number, e.seat_number) for e in players}) == 6
    # The seventh is on the waiting list: an alternate, not seated.
    assert fresh(entries[6]).state == EntryState.WAITING and entries[6].table_number is None
    start = tournament.actions.order_by("-pk").first()
    assert (start.kind, start.summary) == (ActionKind.START, "Started with 6 players")


def test_one_undo_takes_the_start_back_to_registration(
    tournament: Tournament, director: User
) -> None:
    entries = register(tournament, "ann", "ben", "cal")
    tournament_start(tournament.pk, by=director)
    undone = action_undo_last(tournament.pk, by=director)
    assert undone.kind == ActionKind.START
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.REGISTERING and tournament.started_at is None
    assert tournament.level_ends_at is None and tournament.paused_remaining is None
    assert all(
        (fresh(e).state, e.table_number, e.seat_number) == (EntryState.REGISTERED, None, None)
        for e in entries
    )
    assert not tournament.tables.exists()
    assert not tournament.actions.filter(undone_at__isnull=True).exists()
    # And it can start again.
    assert tournament_start(tournament.pk, by=director).state == TournamentState.RUNNING


def test_a_start_with_fewer_than_two_players_is_refused(
    tournament: Tournament, director: User
) -> None:
    register(tournament, "ann")
    with pytest.raises(TournamentError, match="At least two players"):
        tournament_start(tournament.pk, by=director)
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.REGISTERING and not tournament.actions.exists()


def test_a_second_start_is_refused(tournament: Tournament, director: User) -> None:
    register(tournament, "ann", "ben")
    tournament_start(tournament.pk, by=director)
    with pytest.raises(TournamentError, match="already started"):
        tournament_start(tournament.pk, by=director)


def test_players_cannot_start(tournament: Tournament, player: User) -> None:
    register(tournament, "ann", "ben")
    with pytest.raises(PermissionDenied):
        tournament_start(tournament.pk, by=player)


def test_a_late_entry_draws_a_seat_and_one_undo_takes_both_back(
    tournament: Tournament, director: User
) -> None:
    register(tournament, "ann", "ben", "cal")
    tournament_start(tournament.pk, by=director)
    dee = make_player("dee")
    entry = entry_late(tournament.pk, dee.pk, by=director)
    entry = fresh(entry)
    assert entry.state == EntryState.PLAYING and entry.table_number and entry.seat_number
    kinds = list(tournament.actions.order_by("pk").values_list("kind", flat=True))
    assert kinds[-2:] == [ActionKind.SEAT, ActionKind.LATE_ENTRY]

    assert action_undo_last(tournament.pk, by=director).kind == ActionKind.LATE_ENTRY
    assert not Entry.objects.filter(pk=entry.pk).exists()
    assert tournament.actions.filter(undone_at__isnull=True).count() == 2  # the start and draw


def test_a_late_walk_in_and_a_re_entry_draw_seats(tournament: Tournament, director: User) -> None:
    ann, _ben, _cal = register(tournament, "ann", "ben", "cal")
    tournament_start(tournament.pk, by=director)
    gus = fresh(entry_add_walk_in(tournament.pk, "Gus", by=director))
    assert gus.table_number and gus.seat_number

    Entry.objects.filter(pk=ann.pk).update(
        state=EntryState.OUT, table_number=None, seat_number=None
    )
    again = fresh(entry_reentry(ann.pk, by=director))
    assert (again.number, again.state) == (2, EntryState.PLAYING) and again.seat_number
    seats = set(
        tournament.entries.filter(state=EntryState.PLAYING).values_list(
            "table_number", "seat_number"
        )
    )
    assert len(seats) == 4

    action_undo_last(tournament.pk, by=director)
    assert not Entry.objects.filter(pk=again.pk).exists()
    action_undo_last(tournament.pk, by=director)
    assert not Entry.objects.filter(pk=gus.pk).exists()
