""" "Start the break now": a break is inserted where the clock is, and play goes on with the
level after the one interrupted (The Tournament Director's "break now"), instead of jumping
to the structure's next break and skipping the levels before it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.tournaments.clock_helpers import (
    CLOCK_ROWS,
    KINDS_BREAK_AFTER_LEVEL_1,
    ROW_BREAK,
    ROW_LEVEL_1,
    ROW_LEVEL_2,
    at,
    blind_structure_with,
    break_from_console,
    kinds_of_blind_structure,
    last_summary,
    refused,
    reload,
    rows_of_blind_structure,
    shown,
)
from tournaments import tasks
from tournaments.models import (
    BlindStructure,
    LevelKind,
    Tournament,
    TournamentState,
)
from tournaments.services.clock.controls import clock_pause, clock_start
from tournaments.services.clock.levels import clock_break_now
from tournaments.services.clock.reads import clock_read
from tournaments.services.clock.sweep import clock_advance_due, clock_sweep
from tournaments.services.undo import action_undo_last

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock_tasks_off")]


def test_break_now_in_level_1_goes_on_with_level_2_after_the_break(
    running_clock: Tournament, director: User
) -> None:
    clock_break_now(running_clock.pk, by=director, now=at(6))
    state = shown(running_clock, at(7))
    assert state.on_break and state.level_number == 1  # the break after level 1
    # As long as the structure's own next break (10 minutes), running from now.
    assert state.ends_at == at(16)
    assert reload(running_clock).state == TournamentState.ON_BREAK
    # Then level 2, not level 3: nothing was skipped.
    assert state.next is not None and (state.next.number, state.next.big_blind) == (2, 100)
    after = shown(running_clock, at(17))
    assert after.current is not None and after.current.number == 2
    assert (after.current.small_blind, after.current.big_blind) == (50, 100)
    assert after.ends_at == at(36)
    # The structure's break after level 2 is still to come.
    assert after.next is not None and after.next.is_break and after.next.levels_before == 2


def test_break_now_leaves_the_shared_blind_structure_alone(
    running_clock: Tournament, director: User, clock_blind_structure: BlindStructure, clock_event
) -> None:  # type: ignore[no-untyped-def]
    from series.models import Event

    other_event = Event.objects.create(
        season=clock_event.season, name="Next Thursday", starts_at=at(60 * 24 * 7), buy_in=20
    )
    other = Tournament.objects.create(
        event=other_event, blind_structure=clock_blind_structure, state=TournamentState.REGISTERING
    )
    before = rows_of_blind_structure(clock_blind_structure.pk)
    clock_break_now(running_clock.pk, by=director, now=at(6))
    tournament = reload(running_clock)
    assert tournament.blind_structure_id != clock_blind_structure.pk
    assert rows_of_blind_structure(clock_blind_structure.pk) == before
    assert reload(other).blind_structure_id == clock_blind_structure.pk
    # The tournament's own copy has the break inserted after level 1.
    assert kinds_of_blind_structure(tournament.blind_structure_id) == KINDS_BREAK_AFTER_LEVEL_1
    # A second break now, later, changes the same copy: one copy per tournament.
    copy = tournament.blind_structure_id
    clock_break_now(running_clock.pk, by=director, now=at(50))
    assert reload(running_clock).blind_structure_id == copy
    assert BlindStructure.objects.filter(is_template=False).count() == 2


def test_break_now_just_before_a_break_starts_that_break(
    in_level_2: Tournament, director: User, clock_blind_structure: BlindStructure
) -> None:
    clock_break_now(in_level_2.pk, by=director, now=at(5))  # a break follows level 2
    tournament = reload(in_level_2)
    # The structure's own break, with its colour-up; nothing inserted, nothing copied.
    assert tournament.level_index == ROW_BREAK
    assert tournament.blind_structure_id == clock_blind_structure.pk
    assert shown(in_level_2, at(6)).chip_race == (25,)
    assert tournament.level_ends_at == at(15)


def test_break_now_with_no_break_in_the_blind_structure_lasts_ten_minutes(
    clock_event, director: User
) -> None:  # type: ignore[no-untyped-def]
    blind_structure = blind_structure_with([row for row in CLOCK_ROWS if row[0] == LevelKind.LEVEL])
    tournament = Tournament.objects.create(
        event=clock_event, blind_structure=blind_structure, state=TournamentState.RUNNING
    )
    clock_start(tournament.pk, by=director, now=at(0))
    clock_break_now(tournament.pk, by=director, now=at(3))
    state = shown(tournament, at(4))
    assert state.on_break and state.ends_at == at(13)
    assert state.next is not None and state.next.number == 2


def test_break_now_while_paused_runs_the_break(running_clock: Tournament, director: User) -> None:
    clock_pause(running_clock.pk, by=director, now=at(5))
    clock_break_now(running_clock.pk, by=director, now=at(8))
    tournament = reload(running_clock)
    assert tournament.paused_remaining is None and tournament.level_ends_at == at(18)
    assert tournament.state == TournamentState.ON_BREAK


def test_break_now_on_a_break_is_refused(running_clock: Tournament, director: User) -> None:
    clock_break_now(running_clock.pk, by=director, now=at(6))
    with refused(running_clock, "already on"):
        clock_break_now(running_clock.pk, by=director, now=at(7))


def test_break_now_is_logged_and_undone_whole(
    running_clock: Tournament, director: User, clock_blind_structure: BlindStructure
) -> None:
    clock_break_now(running_clock.pk, by=director, now=at(6))
    assert last_summary(running_clock) == "Break now: 10 min, then level 2"
    action_undo_last(running_clock.pk, by=director)
    tournament = reload(running_clock)
    # Back on level 1 of the shared structure, on its old schedule; the copy is gone.
    assert tournament.blind_structure_id == clock_blind_structure.pk
    assert (tournament.level_index, tournament.level_ends_at) == (ROW_LEVEL_1, at(20))
    assert tournament.state == TournamentState.RUNNING
    assert BlindStructure.objects.filter(is_template=False).count() == 1


def test_a_level_change_scheduled_before_the_break_does_not_fire_after_it(
    running_clock: Tournament, director: User
) -> None:
    """The task for the end of level 1 (at 20:00) was scheduled before the break: when it
    wakes, level 2 must not start in the middle of the break (15:00 to 25:00)."""
    old = reload(running_clock)
    clock_break_now(running_clock.pk, by=director, now=at(15))
    assert not clock_advance_due(running_clock.pk, old.level_index, at(20))
    assert clock_sweep(at(20)) == 0
    tournament = reload(running_clock)
    assert (tournament.level_index, tournament.level_ends_at) == (ROW_LEVEL_2, at(25))
    assert tournament.state == TournamentState.ON_BREAK
    # The break ends on time, and level 2 follows.
    assert clock_advance_due(running_clock.pk, ROW_LEVEL_2, at(25))
    state = shown(running_clock, at(26))
    assert state.current is not None and state.current.number == 2
    assert state.ends_at == at(45)


def test_the_stale_task_itself_stops_after_the_break_now(
    running_now: Tournament, director: User
) -> None:
    old = reload(running_now)
    clock_break_now(running_now.pk, by=director)
    tasks.clock_tick_task(running_now.pk, old.level_index, old.clock_version)
    tournament = reload(running_now)
    assert tournament.level_index == ROW_LEVEL_2 and tournament.state == TournamentState.ON_BREAK


def test_the_console_offers_break_now_without_a_break_ahead(
    director_client: Client, running_now: Tournament
) -> None:
    tournament = break_from_console(director_client, running_now)
    assert tournament.level_index == ROW_LEVEL_2 and tournament.state == TournamentState.ON_BREAK
    state = clock_read(tournament)
    assert state.next is not None and state.next.number == 2
