"""The clock's workflows (tournaments.services.clock) with frozen time: every call passes
``now``, so each test reads as a timeline of the evening."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied

from tests.tournaments.clock_helpers import (
    CLOCK_ROWS,
    ROW_BREAK,
    ROW_LAST,
    ROW_LEVEL_1,
    ROW_LEVEL_2,
    ROW_LEVEL_3,
    T0,
    at,
    blind_structure_with,
    reload,
    shown,
)
from tournaments.errors import TournamentError
from tournaments.models import (
    ActionKind,
    LevelKind,
    Tournament,
    TournamentAction,
    TournamentState,
)
from tournaments.services.clock.controls import (
    clock_adjust,
    clock_next,
    clock_pause,
    clock_previous,
    clock_resume,
    clock_start,
)
from tournaments.services.clock.levels import clock_break_now
from tournaments.services.clock.payload import clock_payload
from tournaments.services.clock.reads import clock_read
from tournaments.services.clock.store import clock_restore, clock_saved
from tournaments.services.undo import action_undo_last

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock_tasks_off")]


# ---------------------------------------------------------------------------- start


def test_start_puts_the_first_row_on_with_its_full_time(
    clock_tournament: Tournament, director: User
) -> None:
    tournament = clock_start(clock_tournament.pk, by=director, now=T0)
    assert (tournament.level_index, tournament.level_ends_at) == (ROW_LEVEL_1, at(20))
    assert tournament.paused_remaining is None
    assert tournament.state == TournamentState.RUNNING
    assert tournament.started_at == T0
    assert reload(tournament).clock_version == 2


def test_start_on_a_break_first_is_on_break(clock_event, director: User) -> None:  # type: ignore[no-untyped-def]
    blind_structure = blind_structure_with([(LevelKind.BREAK, 5, 0, 0, 0, []), *CLOCK_ROWS])
    tournament = Tournament.objects.create(
        event=clock_event, blind_structure=blind_structure, state=TournamentState.REGISTERING
    )
    clock_start(tournament.pk, by=director, now=T0)
    assert reload(tournament).state == TournamentState.ON_BREAK


def test_start_twice_is_refused(running_clock: Tournament, director: User) -> None:
    with pytest.raises(TournamentError, match="already started"):
        clock_start(running_clock.pk, by=director, now=at(1))
    assert reload(running_clock).level_ends_at == at(20)


def test_start_of_a_finished_tournament_is_refused(
    clock_tournament: Tournament, director: User
) -> None:
    Tournament.objects.filter(pk=clock_tournament.pk).update(state=TournamentState.FINISHED)
    with pytest.raises(TournamentError, match="over"):
        clock_start(clock_tournament.pk, by=director, now=T0)


def test_start_with_an_empty_blind_structure_is_refused(clock_event, director: User) -> None:  # type: ignore[no-untyped-def]
    tournament = Tournament.objects.create(
        event=clock_event, blind_structure=blind_structure_with([]), state=TournamentState.RUNNING
    )
    with pytest.raises(TournamentError, match="no levels"):
        clock_start(tournament.pk, by=director, now=T0)
    assert reload(tournament).level_ends_at is None


def test_a_player_cannot_run_the_clock(clock_tournament: Tournament, player: User) -> None:
    with pytest.raises(PermissionDenied):
        clock_start(clock_tournament.pk, by=player, now=T0)
    with pytest.raises(PermissionDenied):
        clock_pause(clock_tournament.pk, by=player, now=T0)
    assert reload(clock_tournament).level_ends_at is None


# ---------------------------------------------------------------------------- pause / resume


def test_pause_keeps_the_time_left_and_resume_runs_it_from_then(
    running_clock: Tournament, director: User
) -> None:
    clock_pause(running_clock.pk, by=director, now=at(5))
    paused = reload(running_clock)
    assert paused.paused_remaining == timedelta(minutes=15)
    assert paused.level_ends_at is None
    # An hour later the screens still show 15:00 left on level 1.
    assert shown(running_clock, at(65)).remaining == timedelta(minutes=15)
    clock_resume(running_clock.pk, by=director, now=at(65))
    resumed = reload(running_clock)
    assert resumed.level_ends_at == at(80)
    assert resumed.paused_remaining is None


def test_pause_after_a_level_ended_pauses_the_level_on_screen(
    running_clock: Tournament, director: User
) -> None:
    # The change to level 2 was due at 20:00 and no task stored it yet: the director pauses
    # what the room sees, level 2 with 18 minutes left.
    clock_pause(running_clock.pk, by=director, now=at(22))
    paused = reload(running_clock)
    assert (paused.level_index, paused.paused_remaining) == (ROW_LEVEL_2, timedelta(minutes=18))


def test_pause_twice_and_resume_running_are_refused(
    running_clock: Tournament, director: User
) -> None:
    with pytest.raises(TournamentError, match="not paused"):
        clock_resume(running_clock.pk, by=director, now=at(1))
    clock_pause(running_clock.pk, by=director, now=at(1))
    version = reload(running_clock).clock_version
    with pytest.raises(TournamentError, match="already paused"):
        clock_pause(running_clock.pk, by=director, now=at(2))
    assert reload(running_clock).clock_version == version


def test_controls_before_the_clock_starts_are_refused(
    clock_tournament: Tournament, director: User
) -> None:
    for control in (clock_pause, clock_next, clock_break_now):
        with pytest.raises(TournamentError, match="not started"):
            control(clock_tournament.pk, by=director, now=T0)
    with pytest.raises(TournamentError, match="not started"):
        clock_adjust(clock_tournament.pk, 60, by=director, now=T0)


# ---------------------------------------------------------------------------- adjust


def test_adding_and_removing_time(running_clock: Tournament, director: User) -> None:
    clock_adjust(running_clock.pk, 60, by=director, now=at(5))
    assert reload(running_clock).level_ends_at == at(21)
    clock_adjust(running_clock.pk, -120, by=director, now=at(6))
    assert reload(running_clock).level_ends_at == at(19)


def test_removing_more_than_is_left_advances_with_the_next_full_level(
    running_clock: Tournament, director: User
) -> None:
    # 30 seconds left; -60: never below zero, the next level starts now with its 20 minutes.
    clock_adjust(running_clock.pk, -60, by=director, now=at(19, 30))
    tournament = reload(running_clock)
    assert tournament.level_index == ROW_LEVEL_2
    assert tournament.level_ends_at == at(39, 30)


def test_adjusting_a_paused_clock_stays_paused(running_clock: Tournament, director: User) -> None:
    clock_pause(running_clock.pk, by=director, now=at(10))
    clock_adjust(running_clock.pk, 90, by=director, now=at(30))
    assert reload(running_clock).paused_remaining == timedelta(minutes=11, seconds=30)
    clock_adjust(running_clock.pk, -3600, by=director, now=at(31))
    tournament = reload(running_clock)
    assert tournament.level_index == ROW_LEVEL_2
    assert tournament.paused_remaining == timedelta(minutes=20)


def test_removing_the_last_levels_time_starts_the_next_doubled_level(
    running_clock: Tournament, director: User
) -> None:
    Tournament.objects.filter(pk=running_clock.pk).update(
        level_index=ROW_LAST, level_ends_at=at(20)
    )
    clock_adjust(running_clock.pk, -1800, by=director, now=at(10))
    tournament = reload(running_clock)
    assert tournament.level_index == ROW_LAST + 1 and tournament.level_ends_at == at(30)
    state = shown(running_clock, at(11))
    assert not state.overtime and state.remaining == timedelta(minutes=19)
    assert state.current is not None and (state.current.number, state.current.big_blind) == (
        6,
        800,
    )


@pytest.mark.parametrize("seconds", [0, 3601, -3601, "60", 1.5, True])
def test_bad_adjustments_are_refused(running_clock: Tournament, director: User, seconds) -> None:  # type: ignore[no-untyped-def]
    version = reload(running_clock).clock_version
    with pytest.raises(TournamentError):
        clock_adjust(running_clock.pk, seconds, by=director, now=at(1))
    assert reload(running_clock).clock_version == version


# ---------------------------------------------------------------------------- next / previous / break


def test_next_and_previous_start_the_row_with_its_full_time(
    running_clock: Tournament, director: User
) -> None:
    clock_next(running_clock.pk, by=director, now=at(5))
    assert (reload(running_clock).level_index, reload(running_clock).level_ends_at) == (
        ROW_LEVEL_2,
        at(25),
    )
    clock_previous(running_clock.pk, by=director, now=at(6))
    assert (reload(running_clock).level_index, reload(running_clock).level_ends_at) == (
        ROW_LEVEL_1,
        at(26),
    )


def test_next_into_a_break_puts_the_tournament_on_break(
    running_clock: Tournament, director: User
) -> None:
    clock_next(running_clock.pk, by=director, now=at(1))
    clock_next(running_clock.pk, by=director, now=at(2))
    tournament = reload(running_clock)
    assert tournament.level_index == ROW_BREAK
    assert tournament.state == TournamentState.ON_BREAK
    clock_next(running_clock.pk, by=director, now=at(3))
    assert reload(running_clock).state == TournamentState.RUNNING


def test_next_while_paused_stays_paused(running_clock: Tournament, director: User) -> None:
    clock_pause(running_clock.pk, by=director, now=at(5))
    clock_next(running_clock.pk, by=director, now=at(6))
    tournament = reload(running_clock)
    assert tournament.level_index == ROW_LEVEL_2
    assert tournament.paused_remaining == timedelta(minutes=20)


def test_no_previous_before_the_first_level(running_clock: Tournament, director: User) -> None:
    with pytest.raises(TournamentError, match="first level"):
        clock_previous(running_clock.pk, by=director, now=at(1))


def test_next_after_the_last_level_doubles_it_and_previous_comes_back(
    running_clock: Tournament, director: User
) -> None:
    Tournament.objects.filter(pk=running_clock.pk).update(
        level_index=ROW_LAST, level_ends_at=at(20)
    )
    clock_next(running_clock.pk, by=director, now=at(1))
    clock_next(running_clock.pk, by=director, now=at(2))
    tournament = reload(running_clock)
    assert (tournament.level_index, tournament.level_ends_at) == (ROW_LAST + 2, at(22))
    state = shown(running_clock, at(3))
    assert state.current is not None and state.level_number == 7
    assert (state.current.small_blind, state.current.big_blind, state.current.ante) == (
        800,
        1600,
        1600,
    )
    assert state.next is not None and state.next.big_blind == 3200 and not state.is_last
    clock_previous(running_clock.pk, by=director, now=at(4))
    assert reload(running_clock).level_index == ROW_LAST + 1


def test_break_now_inserts_a_break_running_after_the_level_in_play(
    running_clock: Tournament, director: User
) -> None:
    clock_pause(running_clock.pk, by=director, now=at(5))
    clock_break_now(running_clock.pk, by=director, now=at(6))
    tournament = reload(running_clock)
    # The break comes right after level 1 (level 2 follows it): tests/test_clock_break_now.py.
    assert tournament.level_index == ROW_LEVEL_1 + 1
    assert tournament.level_ends_at == at(16) and tournament.paused_remaining is None
    assert tournament.state == TournamentState.ON_BREAK
    with pytest.raises(TournamentError, match="already on"):
        clock_break_now(running_clock.pk, by=director, now=at(7))


def test_break_now_after_the_last_break_lasts_as_long_as_it(
    running_clock: Tournament, director: User
) -> None:
    Tournament.objects.filter(pk=running_clock.pk).update(
        level_index=ROW_LEVEL_3, level_ends_at=at(20)
    )
    clock_break_now(running_clock.pk, by=director, now=at(1))
    state = shown(running_clock, at(2))
    assert state.on_break and state.ends_at == at(11)
    assert state.next is not None and state.next.number == 4


# ---------------------------------------------------------------------------- the log and undo


def test_every_control_is_logged_with_who(running_clock: Tournament, director: User) -> None:
    clock_pause(running_clock.pk, by=director, now=at(1))
    clock_resume(running_clock.pk, by=director, now=at(2))
    clock_adjust(running_clock.pk, 60, by=director, now=at(3))
    clock_next(running_clock.pk, by=director, now=at(4))
    clock_previous(running_clock.pk, by=director, now=at(5))
    clock_break_now(running_clock.pk, by=director, now=at(6))
    actions = list(TournamentAction.objects.filter(tournament=running_clock).order_by("pk"))
    assert [a.undo["op"] for a in actions] == [
        "pause",
        "resume",
        "adjust",
        "next",
        "previous",
        "break",
    ]
    assert all(a.kind == ActionKind.CLOCK and a.by == director for a in actions)
    assert actions[0].summary == "Clock paused: level 1, 19:00 left"
    assert actions[2].summary == "Added 1:00 to the clock"


def test_undo_walks_every_control_back_in_order(running_clock: Tournament, director: User) -> None:
    snapshots = []

    def keep() -> None:
        t = reload(running_clock)
        snapshots.append((t.level_index, t.level_ends_at, t.paused_remaining, t.state))

    keep()
    clock_pause(running_clock.pk, by=director, now=at(1))
    keep()
    clock_resume(running_clock.pk, by=director, now=at(2))
    keep()
    clock_adjust(running_clock.pk, -90, by=director, now=at(3))
    keep()
    clock_next(running_clock.pk, by=director, now=at(4))
    keep()
    clock_break_now(running_clock.pk, by=director, now=at(5))
    keep()
    clock_previous(running_clock.pk, by=director, now=at(6))
    for expected in reversed(snapshots):
        action_undo_last(running_clock.pk, by=director)
        t = reload(running_clock)
        assert (t.level_index, t.level_ends_at, t.paused_remaining, t.state) == expected
    assert not TournamentAction.objects.filter(
        tournament=running_clock, undone_at__isnull=True
    ).exists()


def test_undo_of_added_time_much_later_keeps_the_schedule(
    running_clock: Tournament, director: User
) -> None:
    clock_adjust(running_clock.pk, 60, by=director, now=at(5))
    # Level 2 began at 20:21 (with the minute). Undone at 30:00: as if never added, the
    # room is on level 2 ending at 40:00, as the projection shows it.
    action_undo_last(running_clock.pk, by=director)
    state = shown(running_clock, at(30))
    assert (state.index, state.ends_at) == (ROW_LEVEL_2, at(40))


def test_undo_of_a_clock_action_after_the_tournament_finished_is_refused(
    running_clock: Tournament, director: User
) -> None:
    clock_pause(running_clock.pk, by=director, now=at(1))
    Tournament.objects.filter(pk=running_clock.pk).update(state=TournamentState.FINISHED)
    with pytest.raises(TournamentError, match="in play"):
        action_undo_last(running_clock.pk, by=director)
    assert reload(running_clock).paused_remaining is not None


def test_clock_restore_takes_the_clock_back_to_not_started(
    clock_tournament: Tournament, director: User
) -> None:
    saved = clock_saved(clock_tournament)
    clock_start(clock_tournament.pk, by=director, now=T0)
    tournament = Tournament.objects.get(pk=clock_tournament.pk)
    clock_restore(tournament, saved)
    tournament = reload(tournament)
    assert tournament.level_ends_at is None and tournament.paused_remaining is None
    assert not clock_read(tournament, at(5)).started


# ---------------------------------------------------------------------------- the screens' data


def test_payload_has_the_field_and_the_money(running_clock: Tournament) -> None:
    from series.models import Player
    from tournaments.models import Entry, EntryState

    players = [Player.objects.create(name=name) for name in ("Quinn", "Ruth", "Sol", "Tove")]
    for number, player in enumerate(players):
        Entry.objects.create(
            tournament=running_clock,
            player=player,
            state=EntryState.OUT if number == 0 else EntryState.PLAYING,
            rebuys=1 if number == 1 else 0,
            addon=number == 2,
        )
    Entry.objects.create(tournament=running_clock, player=players[0], number=2)  # a re-entry
    payload = clock_payload(running_clock.pk, now=at(1))
    assert payload is not None
    field = payload["field"]
    assert (field["entries"], field["players_left"]) == (5, 4)
    # 5 x 10000 + one rebuy of 10000 + one add-on of 15000, over four players.
    assert field["chips_in_play"] == 75000 and field["average_stack"] == 18750
    # 5 x 20 + 20 + 20 to the pool; fees stay out; 50/30/20 with the remainder to first.
    assert field["prize_pool"] == 140
    assert field["payouts"] == [
        {"place": 1, "prize": 70},
        {"place": 2, "prize": 42},
        {"place": 3, "prize": 28},
    ]
    assert payload["clock"]["remaining_ms"] == 19 * 60_000
    assert payload["tournament"]["name"] == "Thursday PLO8"
    assert not any(
        n in str(payload) for n in ("Quinn", "Ruth", "Sol", "Tove")
    )  # public: counts, never names


def test_payload_of_a_missing_tournament_is_none(db: None) -> None:
    assert clock_payload(999_999) is None
