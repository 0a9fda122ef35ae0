"""Level changes by time alone: duplicate, late and lost tasks, the sweep, a worker restart.

``clock_advance_due`` is one conditional UPDATE; these tests pass ``now`` (frozen time) and
check that whatever order and number of tasks arrive, each level change is stored exactly
once and on schedule.
"""

from __future__ import annotations

import functools
import time
import uuid
from datetime import timedelta
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone

from config.celery import app
from tests.tournaments.clock_helpers import (
    ROW_BREAK,
    ROW_LAST,
    ROW_LEVEL_1,
    ROW_LEVEL_2,
    ROW_LEVEL_3,
    ROW_LEVEL_4,
    T0,
    at,
    blind_structure_with,
    reload,
)
from tournaments import tasks
from tournaments.models import LevelKind, Tournament, TournamentState
from tournaments.services.clock import sweep
from tournaments.services.clock.controls import clock_adjust, clock_next, clock_pause, clock_start
from tournaments.services.clock.reads import clock_read, clock_rows_many
from tournaments.services.clock.sweep import clock_advance_due, clock_sweep, clocks_due

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock_tasks_off")]


def version(tournament: Tournament) -> int:
    return reload(tournament).clock_version


# ---------------------------------------------------------------------------- advance_due


def test_a_level_changes_once_its_time_is_up(running_clock: Tournament) -> None:
    assert not clock_advance_due(running_clock.pk, ROW_LEVEL_1, at(19, 59.9))
    assert clock_advance_due(running_clock.pk, ROW_LEVEL_1, at(20))
    tournament = reload(running_clock)
    assert (tournament.level_index, tournament.level_ends_at) == (ROW_LEVEL_2, at(40))


def test_a_duplicate_task_changes_nothing(running_clock: Tournament) -> None:
    assert clock_advance_due(running_clock.pk, ROW_LEVEL_1, at(20))
    before = version(running_clock)
    assert not clock_advance_due(running_clock.pk, ROW_LEVEL_1, at(20, 0.5))
    assert not clock_advance_due(running_clock.pk, ROW_LEVEL_1, at(21))
    tournament = reload(running_clock)
    assert tournament.level_index == ROW_LEVEL_2 and tournament.clock_version == before


def test_two_tasks_racing_store_the_change_once(running_clock: Tournament, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # The second task reads the clock, then the first one stores the change before the
    # second's UPDATE: its condition (same version) no longer holds and it touches nothing.
    real_rows = clock_rows_many
    raced = []

    def rows_then_race(blind_structure_ids: Any) -> Any:
        if not raced:
            raced.append(True)
            assert clock_advance_due(running_clock.pk, ROW_LEVEL_1, at(20))
        return real_rows(blind_structure_ids)

    start_version = version(running_clock)
    monkeypatch.setattr(sweep, "clock_rows_many", rows_then_race)
    assert not clock_advance_due(running_clock.pk, ROW_LEVEL_1, at(20, 0.1))
    tournament = reload(running_clock)
    assert tournament.level_index == ROW_LEVEL_2
    assert tournament.clock_version == start_version + 1  # applied once, not twice


def test_a_late_task_lands_on_the_schedule_not_on_its_own_time(running_clock: Tournament) -> None:
    # The worker was away for 31 minutes: level 1 ended at 20:00, level 2 at 40:00. The late
    # task puts the room on the break that started at 40:00, ending at 50:00.
    assert clock_advance_due(running_clock.pk, ROW_LEVEL_1, at(51 - 10))
    tournament = reload(running_clock)
    assert tournament.level_index == ROW_BREAK
    assert tournament.level_ends_at == at(50)
    assert tournament.state == TournamentState.ON_BREAK
    # The task that was due at 40:00 comes even later: nothing to do.
    assert not clock_advance_due(running_clock.pk, ROW_LEVEL_2, at(45))


def test_a_stale_task_for_an_earlier_level_changes_nothing(
    running_clock: Tournament, director: User
) -> None:
    clock_next(running_clock.pk, by=director, now=at(5))
    before = version(running_clock)
    assert not clock_advance_due(running_clock.pk, ROW_LEVEL_1, at(20))
    assert version(running_clock) == before


def test_a_paused_clock_never_advances(running_clock: Tournament, director: User) -> None:
    clock_pause(running_clock.pk, by=director, now=at(5))
    assert not clock_advance_due(running_clock.pk, ROW_LEVEL_1, at(500))
    assert clocks_due(at(500)) == []


def test_a_task_for_added_time_waits_for_the_new_end(
    running_clock: Tournament, director: User
) -> None:
    clock_adjust(running_clock.pk, 120, by=director, now=at(10))
    assert not clock_advance_due(running_clock.pk, ROW_LEVEL_1, at(20))
    assert clock_advance_due(running_clock.pk, ROW_LEVEL_1, at(22))


def test_after_the_last_level_the_clock_goes_on_to_doubled_levels(
    running_clock: Tournament,
) -> None:
    Tournament.objects.filter(pk=running_clock.pk).update(
        level_index=ROW_LAST, level_ends_at=at(20)
    )
    assert clocks_due(at(30)) == [(running_clock.pk, ROW_LAST)]
    assert clock_advance_due(running_clock.pk, ROW_LAST, at(30))
    tournament = reload(running_clock)
    # The last level (200/400, 20 minutes) is followed by 400/800 for 20 minutes.
    assert (tournament.level_index, tournament.level_ends_at) == (ROW_LAST + 1, at(40))
    assert tournament.state == TournamentState.RUNNING
    assert clocks_due(at(30, 1)) == []  # the sweep does not keep finding it
    assert clock_sweep(at(61)) == 1
    tournament = reload(running_clock)
    assert (tournament.level_index, tournament.level_ends_at) == (ROW_LAST + 3, at(80))
    state = clock_read(tournament, at(61))
    assert state.current is not None and state.current.big_blind == 8 * 400


def test_a_blind_structure_with_no_level_stays_on_its_last_row(running_clock: Tournament) -> None:
    breaks_only = blind_structure_with([(LevelKind.BREAK, 10, 0, 0, 0, [])], name="Breaks only")
    Tournament.objects.filter(pk=running_clock.pk).update(
        blind_structure=breaks_only, level_index=0, level_ends_at=at(10)
    )
    before = version(running_clock)
    assert not clock_advance_due(running_clock.pk, 0, at(30))
    assert clocks_due(at(30)) == []
    assert version(running_clock) == before


def test_a_finished_tournament_stops_its_clock(running_clock: Tournament) -> None:
    Tournament.objects.filter(pk=running_clock.pk).update(state=TournamentState.FINISHED)
    assert not clock_advance_due(running_clock.pk, ROW_LEVEL_1, at(25))
    assert clocks_due(at(25)) == []


def test_a_missing_tournament_is_not_an_error(db: None) -> None:
    assert not clock_advance_due(987_654, 0, at(1))


# ---------------------------------------------------------------------------- the sweep


def test_the_sweep_stores_what_lost_tasks_missed(running_clock: Tournament) -> None:
    # No task ever ran (all lost): the sweep, every two seconds, finds the clock due.
    assert clocks_due(at(19)) == []
    assert clocks_due(at(20, 1)) == [(running_clock.pk, ROW_LEVEL_1)]
    assert clock_sweep(at(20, 1)) == 1
    assert clock_sweep(at(20, 3)) == 0  # the next sweep: nothing due
    assert reload(running_clock).level_index == ROW_LEVEL_2


def test_a_worker_restart_loses_nothing(running_clock: Tournament) -> None:
    """Nothing lives in a worker's memory: a fresh worker's first sweep, an hour after the
    old one died with its scheduled tasks, puts the clock where the room's screens are."""
    Tournament.objects.filter(pk=running_clock.pk).update(level_ends_at=at(20))
    # The old worker's tasks are gone; the new one starts with the sweep alone.
    screens = clock_read(reload(running_clock), at(75))
    assert clock_sweep(at(75)) == 1
    tournament = reload(running_clock)
    assert (tournament.level_index, tournament.level_ends_at) == (screens.index, screens.ends_at)
    assert tournament.level_index == ROW_LEVEL_4  # 20 + 20 + 10 + 20 = 70 < 75 < 90
    # A task the old worker had scheduled for level 1, redelivered after the restart.
    assert not clock_advance_due(running_clock.pk, ROW_LEVEL_1, at(76))


def test_the_sweep_advances_each_due_clock(clock_event, clock_blind_structure, director) -> None:  # type: ignore[no-untyped-def]
    from series.models import Event

    ids = []
    for n in range(3):
        event = Event.objects.create(
            season=clock_event.season, name=f"Night {n}", starts_at=T0, buy_in=20
        )
        tournament = Tournament.objects.create(
            event=event, blind_structure=clock_blind_structure, state=TournamentState.RUNNING
        )
        clock_start(tournament.pk, by=director, now=at(n))
        ids.append(tournament.pk)
    assert clock_sweep(at(21, 30)) == 2  # started at 0 and 1 minute
    assert [Tournament.objects.get(pk=i).level_index for i in ids] == [1, 1, 0]


def test_the_sweep_is_on_beat_every_two_seconds() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["tournaments-clock-sweep"]
    assert entry == {"task": "tournaments.tasks.clock_sweep_task", "schedule": 2.0}
    app.loader.import_default_modules()
    assert "tournaments.tasks.clock_sweep_task" in app.tasks


# ---------------------------------------------------------------------------- scheduling


@pytest.fixture
def scheduled(settings, monkeypatch) -> list[tuple[tuple[Any, ...], float]]:  # type: ignore[no-untyped-def]
    """Tasks scheduled, as (args, countdown), instead of sent to a broker."""
    settings.TOURNAMENTS_SCHEDULE_TASKS = True
    sent: list[tuple[tuple[Any, ...], float]] = []

    def apply_async(args: tuple[Any, ...], countdown: float) -> None:
        sent.append((tuple(args), countdown))

    monkeypatch.setattr(tasks.clock_tick_task, "apply_async", apply_async)
    return sent


def test_a_change_schedules_the_next_task_after_commit_capped(
    clock_tournament: Tournament, director: User, scheduled, django_capture_on_commit_callbacks
) -> None:  # type: ignore[no-untyped-def]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        clock_start(clock_tournament.pk, by=director)
    assert scheduled == []  # nothing before commit
    for callback in callbacks:
        callback()
    tournament = reload(clock_tournament)
    [(args, countdown)] = scheduled
    assert args == (tournament.pk, ROW_LEVEL_1, tournament.clock_version)
    # Twenty minutes away: a 30-second countdown, then the task re-schedules itself.
    assert countdown == tasks.COUNTDOWN_CAP_SECONDS


def test_a_pause_schedules_nothing(
    running_clock: Tournament, director: User, scheduled, django_capture_on_commit_callbacks
) -> None:  # type: ignore[no-untyped-def]
    with django_capture_on_commit_callbacks(execute=True):
        clock_pause(running_clock.pk, by=director)
    assert scheduled == []


def test_an_early_task_waits_again_and_a_superseded_one_stops(
    clock_tournament: Tournament, director: User, scheduled
) -> None:  # type: ignore[no-untyped-def]
    clock_start(clock_tournament.pk, by=director)
    tournament = reload(clock_tournament)
    Tournament.objects.filter(pk=tournament.pk).update(
        level_ends_at=timezone.now() + timedelta(seconds=12)
    )
    tasks.clock_tick_task(tournament.pk, ROW_LEVEL_1, tournament.clock_version)
    [(args, countdown)] = scheduled
    assert args == (tournament.pk, ROW_LEVEL_1, tournament.clock_version)
    assert 10 < countdown <= 12
    # A director's change bumped the version and scheduled its own task: this one stops.
    tasks.clock_tick_task(tournament.pk, ROW_LEVEL_1, tournament.clock_version - 1)
    assert len(scheduled) == 1


def test_a_due_task_advances_and_schedules_the_next_level(
    clock_tournament: Tournament, director: User, scheduled, django_capture_on_commit_callbacks
) -> None:  # type: ignore[no-untyped-def]
    clock_start(clock_tournament.pk, by=director)
    tournament = reload(clock_tournament)
    Tournament.objects.filter(pk=tournament.pk).update(
        level_ends_at=timezone.now() - timedelta(milliseconds=5)
    )
    with django_capture_on_commit_callbacks(execute=True):
        tasks.clock_tick_task(tournament.pk, ROW_LEVEL_1, tournament.clock_version)
    tournament = reload(tournament)
    assert tournament.level_index == ROW_LEVEL_2
    assert scheduled[-1][0] == (tournament.pk, ROW_LEVEL_2, tournament.clock_version)


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_changes_the_level_on_time(
    clock_tournament: Tournament, director: User, settings, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """Through the configured broker to a worker: the level ends 1.5 s after the start and
    the worker's countdown task stores the change."""
    settings.TOURNAMENTS_SCHEDULE_TASKS = True
    # A queue of its own, so parallel test processes sharing one Redis never take its task.
    queue = f"test-{uuid.uuid4().hex}"
    monkeypatch.setattr(
        tasks.clock_tick_task,
        "apply_async",
        functools.partial(tasks.clock_tick_task.apply_async, queue=queue),
    )
    with start_worker(app, pool="solo", perform_ping_check=False, queues=[queue]):
        clock_start(clock_tournament.pk, by=director)
        ends_at = timezone.now() + timedelta(seconds=1.5)
        Tournament.objects.filter(pk=clock_tournament.pk).update(
            level_ends_at=ends_at, clock_version=10
        )
        # Outside a transaction: sent at once.
        tasks.schedule_clock(clock_tournament.pk, ROW_LEVEL_1, ends_at, 10)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and reload(clock_tournament).level_index == 0:
            time.sleep(0.05)
    tournament = reload(clock_tournament)
    assert tournament.level_index == ROW_LEVEL_2
    assert tournament.clock_version == 11  # once


def test_level_three_follows_the_break(running_clock: Tournament) -> None:
    assert clock_advance_due(running_clock.pk, ROW_LEVEL_1, at(20))
    assert clock_advance_due(running_clock.pk, ROW_LEVEL_2, at(40))
    assert clock_advance_due(running_clock.pk, ROW_BREAK, at(50))
    tournament = reload(running_clock)
    assert (tournament.level_index, tournament.state) == (ROW_LEVEL_3, TournamentState.RUNNING)


def test_the_first_task_of_clocks_ending_together_stores_them_all(
    clock_event, clock_blind_structure, director, scheduled
) -> None:  # type: ignore[no-untyped-def]
    """Tournaments started in the same second end their levels together: the first
    task to wake advances every one, and the other tasks find nothing left to do."""
    from series.models import Event

    ids = []
    for n in range(5):
        event = Event.objects.create(
            season=clock_event.season, name=f"N{n}", starts_at=T0, buy_in=5
        )
        tournament = Tournament.objects.create(
            event=event, blind_structure=clock_blind_structure, state=TournamentState.RUNNING
        )
        clock_start(tournament.pk, by=director)
        Tournament.objects.filter(pk=tournament.pk).update(
            level_ends_at=timezone.now() - timedelta(milliseconds=1)
        )
        ids.append(tournament.pk)
    versions = {pk: Tournament.objects.get(pk=pk).clock_version for pk in ids}
    tasks.clock_tick_task(ids[0], ROW_LEVEL_1, versions[ids[0]])
    assert [Tournament.objects.get(pk=pk).level_index for pk in ids] == [ROW_LEVEL_2] * 5
    for pk in ids[1:]:
        tasks.clock_tick_task(pk, ROW_LEVEL_1, versions[pk])
    assert all(Tournament.objects.get(pk=pk).clock_version == versions[pk] + 1 for pk in ids)
