"""The clock's arithmetic (``tournaments.clock``): pure, with plain rows and a frozen now."""

from __future__ import annotations

import doctest
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest

from tournaments import clock
from tournaments.clock import clock_state, current_level_number, position, rows_from

T0 = datetime(2026, 5, 1, 19, 0, tzinfo=UTC)


def at(minutes: float = 0, seconds: float = 0) -> datetime:
    return T0 + timedelta(minutes=minutes, seconds=seconds)


def level(sb: int, bb: int, minutes: int = 20, **extra: object) -> SimpleNamespace:
    return SimpleNamespace(kind="level", minutes=minutes, small_blind=sb, big_blind=bb, **extra)


def brk(minutes: int = 10, colour_up: list[int] | None = None) -> SimpleNamespace:
    return SimpleNamespace(kind="break", minutes=minutes, colour_up=colour_up or [])


def fields(
    index: int = 0, ends_at: datetime | None = None, paused: timedelta | None = None
) -> SimpleNamespace:
    return SimpleNamespace(level_index=index, level_ends_at=ends_at, paused_remaining=paused)


@pytest.fixture
def rows() -> tuple[clock.ClockRow, ...]:
    # Level 1, level 2, a colour-up break, level 3, a break, level 4 (the last row).
    return rows_from(
        [
            level(25, 50),
            level(50, 100, ante=100, ante_kind="big-blind"),
            brk(10, colour_up=[25]),
            level(100, 200),
            brk(5),
            level(150, 300, minutes=30),
        ]
    )


def test_doctest_in_module_passes() -> None:
    assert doctest.testmod(clock).failed == 0


def test_level_numbers_never_count_breaks(rows: tuple[clock.ClockRow, ...]) -> None:
    assert [r.number for r in rows] == [1, 2, None, 3, None, 4]
    assert [r.levels_before for r in rows] == [0, 1, 2, 2, 3, 3]


def test_not_started_shows_first_row_with_full_time(rows: tuple[clock.ClockRow, ...]) -> None:
    state = clock_state(fields(), rows, at())
    assert not state.started and not state.paused
    assert state.current is not None and state.current.number == 1
    assert state.remaining == timedelta(minutes=20)
    assert state.ends_at is None
    assert state.next_break_in == timedelta(minutes=40)
    assert state.time_to_end == timedelta(minutes=20 + 20 + 10 + 20 + 5 + 30)


def test_running_counts_down_from_the_stored_end(rows: tuple[clock.ClockRow, ...]) -> None:
    state = clock_state(fields(0, at(20)), rows, at(5, 30))
    assert state.started and not state.paused
    assert state.remaining == timedelta(minutes=14, seconds=30)
    assert state.ends_at == at(20)
    assert state.level_number == 1
    assert state.next is not None and (state.next.small_blind, state.next.big_blind) == (50, 100)
    assert state.next_break is not None and state.next_break.index == 2
    assert state.next_break_in == timedelta(minutes=34, seconds=30)
    assert state.finishes_at == at(105)


def test_an_ended_level_is_projected_onto_the_following_rows(
    rows: tuple[clock.ClockRow, ...],
) -> None:
    # The task storing the change is late: screens already show level 2, then the break.
    stored = fields(0, at(20))
    state = clock_state(stored, rows, at(20))
    assert (state.index, state.stored_index, state.level_number) == (1, 0, 2)
    assert state.remaining == timedelta(minutes=20)
    state = clock_state(stored, rows, at(47))
    assert state.on_break and state.index == 2
    assert state.remaining == timedelta(minutes=3)
    assert state.level_number == 2


def test_paused_clock_keeps_its_time_left_whatever_now(rows: tuple[clock.ClockRow, ...]) -> None:
    stored = fields(1, None, timedelta(minutes=7))
    for now in (at(0), at(300)):
        state = clock_state(stored, rows, now)
        assert state.paused and state.index == 1
        assert state.remaining == timedelta(minutes=7)
        assert state.ends_at is None
        assert state.finishes_at == now + timedelta(minutes=7 + 10 + 20 + 5 + 30)


def test_after_the_last_row_the_clock_stays_on_the_last_level(
    rows: tuple[clock.ClockRow, ...],
) -> None:
    stored = fields(5, at(30))
    state = clock_state(stored, rows, at(45))
    assert state.is_last and state.overtime
    assert state.current is not None and state.current.number == 4
    assert state.remaining == timedelta(0)
    assert state.next is None and state.next_break is None
    assert state.finishes_at == at(30)
    # From long before, projection also stops on the last row.
    assert position(fields(0, at(20)), rows, at(1000)).index == 5


def test_on_a_break_the_next_break_is_the_one_after(rows: tuple[clock.ClockRow, ...]) -> None:
    state = clock_state(fields(2, at(10)), rows, at(4))
    assert state.on_break
    assert state.chip_race == (25,)
    assert state.next_break is not None and state.next_break.index == 4
    assert state.next_break_in == timedelta(minutes=6 + 20)


def test_chip_race_is_announced_during_the_level_before_the_colour_up(
    rows: tuple[clock.ClockRow, ...],
) -> None:
    assert clock_state(fields(1, at(20)), rows, at(1)).chip_race == (25,)
    assert clock_state(fields(0, at(20)), rows, at(1)).chip_race == ()
    assert clock_state(fields(3, at(20)), rows, at(1)).chip_race == ()  # the next break: none


def test_current_level_number_counts_a_break_as_the_level_it_follows(
    rows: tuple[clock.ClockRow, ...],
) -> None:
    assert current_level_number(fields(0), rows, at()) == 1
    assert current_level_number(fields(2, at(10)), rows, at()) == 2
    assert current_level_number(fields(3, at(10)), rows, at()) == 3
    # Projected: level 1 ended 41 minutes ago, so we are on the break after level 2.
    assert current_level_number(fields(0, at(20)), rows, at(41)) == 2
    assert current_level_number(fields(0), (), at()) == 0


def test_a_break_first_is_level_zero() -> None:
    rows = rows_from([brk(5), level(25, 50)])
    assert current_level_number(fields(0, at(5)), rows, at(1)) == 0
    assert current_level_number(fields(0, at(5)), rows, at(6)) == 1


def test_stored_index_beyond_an_edited_structure_is_clamped(
    rows: tuple[clock.ClockRow, ...],
) -> None:
    state = clock_state(fields(40, None, timedelta(minutes=3)), rows, at())
    assert state.index == 5 and state.stored_index == 5


def test_as_dict_carries_instants_in_milliseconds(rows: tuple[clock.ClockRow, ...]) -> None:
    data = clock_state(fields(0, at(20)), rows, at(1)).as_dict()
    assert data["now_ms"] == int(at(1).timestamp() * 1000)
    assert data["ends_at_ms"] == int(at(20).timestamp() * 1000)
    assert data["remaining_ms"] == 19 * 60_000
    assert data["current"]["number"] == 1 and data["next"]["ante_kind"] == "big-blind"
    assert len(data["rows"]) == 6
    paused = clock_state(fields(0, None, timedelta(seconds=90)), rows, at()).as_dict()
    assert paused["ends_at_ms"] is None and paused["remaining_ms"] == 90_000


def test_limit_rows_carry_their_bets() -> None:
    rows = rows_from([level(0, 0, small_bet=40, big_bet=80)])
    assert (rows[0].small_bet, rows[0].big_bet) == (40, 80)


def test_no_rows_gives_an_empty_clock() -> None:
    state = clock_state(fields(), (), at())
    assert state.current is None and state.next is None and state.remaining == timedelta(0)
