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


def test_on_the_last_row_the_next_level_doubles_it(rows: tuple[clock.ClockRow, ...]) -> None:
    state = clock_state(fields(5, at(30)), rows, at(10))
    assert not state.is_last and not state.overtime
    assert state.next is not None
    assert (state.next.number, state.next.small_blind, state.next.big_blind) == (5, 300, 600)
    assert state.next_break is None
    assert state.finishes_at == at(30)


def test_after_the_last_row_the_levels_go_on_doubling(rows: tuple[clock.ClockRow, ...]) -> None:
    # Level 4 (150/300, 30 minutes) ended at 19:30: level 5 is 300/600 until 20:00, level 6
    # 600/1200 until 20:30, each as long as the last level.
    stored = fields(5, at(30))
    state = clock_state(stored, rows, at(45))
    assert not state.overtime and not state.is_last
    assert state.current is not None and state.current.number == 5
    assert (state.current.small_blind, state.current.big_blind) == (300, 600)
    assert state.level_number == 5 and state.index == 6 and state.stored_index == 5
    assert state.remaining == timedelta(minutes=15) and state.ends_at == at(60)
    assert state.next is not None and (state.next.number, state.next.big_blind) == (6, 1200)
    state = clock_state(stored, rows, at(60))
    assert state.current is not None and state.current.big_blind == 1200
    assert state.remaining == timedelta(minutes=30)
    # Projected from long before, the structure's rows then the extra levels.
    assert position(fields(0, at(20)), rows, at(104)).index == 5
    assert position(fields(0, at(20)), rows, at(105)).index == 6
    assert position(fields(0, at(20)), rows, at(135)).index == 7
    assert current_level_number(fields(0, at(20)), rows, at(200)) == 4 + 4


def test_a_clock_read_days_after_the_end_is_on_the_right_extra_level(
    rows: tuple[clock.ClockRow, ...],
) -> None:
    later = position(fields(5, at(30)), rows, at(30 + 30 * 1000 + 5))
    assert later.index == 5 + 1001 and later.ends_at == at(30 + 30 * 1001)
    row = clock.row_at(rows, later.index)
    assert row is not None and row.number == 4 + 1001
    # The amounts stop doubling before they pass what the tables can hold.
    assert 0 < row.big_blind <= clock.MOST_CHIPS < 2 * row.big_blind


def test_the_extra_levels_double_the_ante_and_the_limit_bets() -> None:
    rows = rows_from(
        [level(100, 200, minutes=12, ante=25, ante_kind="each", small_bet=200, big_bet=400)]
    )
    extra = clock.row_at(rows, 2)
    assert extra is not None
    assert (extra.small_blind, extra.big_blind, extra.ante, extra.ante_kind) == (
        400,
        800,
        100,
        "each",
    )
    assert (extra.small_bet, extra.big_bet, extra.minutes) == (800, 1600, 12)
    assert not extra.is_break and extra.colour_up == ()


def test_a_blind_structure_ending_on_a_break_goes_on_from_its_last_level() -> None:
    rows = rows_from([level(25, 50), brk(10, colour_up=[25])])
    state = clock_state(fields(1, at(30)), rows, at(35))
    assert state.current is not None and state.current.number == 2
    assert (state.current.small_blind, state.current.big_blind) == (50, 100)
    assert state.current.minutes == 20 and state.chip_race == ()


def test_a_blind_structure_with_no_level_stays_on_its_last_row() -> None:
    rows = rows_from([brk(10)])
    state = clock_state(fields(0, at(10)), rows, at(15))
    assert state.is_last and state.overtime and state.remaining == timedelta(0)
    assert state.next is None and state.index == 0


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


def test_a_stored_index_past_the_rows_is_an_extra_level(
    rows: tuple[clock.ClockRow, ...],
) -> None:
    state = clock_state(fields(7, None, timedelta(minutes=3)), rows, at())
    assert state.index == 7 and state.stored_index == 7
    assert state.current is not None and state.current.number == 6
    assert state.current.big_blind == 4 * 300
    # With no level to double, an index past the rows is the last row.
    assert clock_state(fields(40), rows_from([brk(5)]), at()).index == 0


def test_as_dict_carries_instants_in_milliseconds(rows: tuple[clock.ClockRow, ...]) -> None:
    data = clock_state(fields(0, at(20)), rows, at(1)).as_dict()
    assert data["now_ms"] == int(at(1).timestamp() * 1000)
    assert data["ends_at_ms"] == int(at(20).timestamp() * 1000)
    assert data["remaining_ms"] == 19 * 60_000
    assert data["current"]["number"] == 1 and data["next"]["ante_kind"] == "big-blind"
    extra = clock_state(fields(5, at(30)), rows, at(31)).as_dict()
    assert extra["current"]["number"] == 5 and extra["current"]["big_blind"] == 600
    assert extra["next"]["number"] == 6 and extra["next"]["big_blind"] == 1200
    assert [row["number"] for row in extra["coming"]] == [6, 7, 8]
    paused = clock_state(fields(0, None, timedelta(seconds=90)), rows, at()).as_dict()
    assert paused["ends_at_ms"] is None and paused["remaining_ms"] == 90_000


def test_limit_rows_carry_their_bets() -> None:
    rows = rows_from([level(0, 0, small_bet=40, big_bet=80)])
    assert (rows[0].small_bet, rows[0].big_bet) == (40, 80)


def test_no_rows_gives_an_empty_clock() -> None:
    state = clock_state(fields(), (), at())
    assert state.current is None and state.next is None and state.remaining == timedelta(0)


def test_the_rows_ahead_are_what_the_clock_plays_from_each_start(
    rows: tuple[clock.ClockRow, ...],
) -> None:
    """A screen without its server moves through ``ahead``: each row, read at its start,
    is what the server's own projection says then (row, chip race, whether one follows)."""
    running = fields(0, at(20))
    found = clock.ahead(running, rows, at(1))
    assert [a.row.index for a in found[:6]] == [1, 2, 3, 4, 5, 6]
    assert found[0].starts_at == at(20)
    for row in found:
        state = clock_state(running, rows, row.starts_at)
        assert (state.index, state.current) == (row.row.index, row.row)
        assert (state.chip_race, state.is_last) == (row.chip_race, row.is_last)
    # Up to AHEAD from now (the first row past it included), never more than AHEAD_ROWS.
    assert found[-2].starts_at - at(1) <= clock.AHEAD < found[-1].starts_at - at(1)
    assert len(found) <= clock.AHEAD_ROWS
    as_dict = found[1].as_dict()
    assert as_dict["starts_at_ms"] == int(at(40).timestamp() * 1000)
    assert as_dict["chip_race"] == [25] and as_dict["is_last"] is False
    # Paused or not started: nothing moves on by itself.
    assert clock.ahead(fields(0, None, timedelta(minutes=3)), rows, at()) == ()
    assert clock.ahead(fields(0), rows, at()) == ()
    # With no level to double, the last row is the last.
    only_breaks = rows_from([brk(5), brk(10)])
    assert [(a.row.index, a.is_last) for a in clock.ahead(fields(0, at(5)), only_breaks, at())] == [
        (1, True)
    ]
