"""The clock preview: each row's start from the start time, and the expected finish."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from tournaments.blind_structures import Row, finish_index, preview, row_offsets

PARIS = ZoneInfo("Europe/Paris")


def rows() -> list[Row]:
    return [
        Row.level(25, 50, 20),
        Row.level(50, 100, 20),
        Row.pause(15, colour_up=[25]),
        Row.level(100, 200, 30),
        Row.level(200, 400, 30),
        Row.pause(10),
        Row.level(300, 600, 30),
    ]


def test_each_row_starts_when_the_one_before_ends() -> None:
    start = datetime(2007, 4, 10, 19, 30, tzinfo=PARIS)
    timed = preview(rows(), start).rows
    assert [
        (t.number, t.starts_at.strftime("%H:%M"), t.ends_at.strftime("%H:%M")) for t in timed
    ] == [
        (1, "19:30", "19:50"),
        (2, "19:50", "20:10"),
        (None, "20:10", "20:25"),
        (3, "20:25", "20:55"),
        (4, "20:55", "21:25"),
        (None, "21:25", "21:35"),
        (5, "21:35", "22:05"),
    ]


def test_the_last_level_ends_after_every_row() -> None:
    start = datetime(2007, 4, 10, 19, 30, tzinfo=PARIS)
    assert preview(rows(), start).ends_at == start + timedelta(minutes=155)
    assert row_offsets(rows())[-1] == (125, 155)


def test_the_expected_finish_is_the_end_of_the_level_whose_big_blind_is_a_twentieth_of_the_chips() -> (
    None
):
    start = datetime(2007, 4, 10, 19, 30, tzinfo=PARIS)
    # 8 players x 500 chips = 4,000 in play: the big blind reaches 200 in level 3.
    result = preview(rows(), start, chips_total=8 * 500)
    assert finish_index(rows(), 4_000) == 3
    assert result.finish_index == 3
    assert result.expected_finish == datetime(2007, 4, 10, 20, 55, tzinfo=PARIS)


def test_no_expected_finish_when_the_blind_structure_runs_out_first() -> None:
    start = datetime(2007, 4, 10, 19, 30, tzinfo=PARIS)
    result = preview(rows(), start, chips_total=10 * 10_000)
    assert result.finish_index is None
    assert result.expected_finish is None


def test_the_preview_crosses_midnight_and_daylight_saving_in_the_start_time_zone() -> None:
    # Europe/Paris leaves summer time at 03:00 on 25 October 2026: wall-clock arithmetic
    # on the aware start keeps each row the length it says.
    start = datetime(2026, 10, 24, 23, 30, tzinfo=PARIS)
    last = preview(rows(), start).rows[-1]
    assert last.starts_at.strftime("%d %H:%M") == "25 01:35"


def test_an_empty_blind_structure_ends_when_it_starts() -> None:
    start = datetime(2007, 4, 10, 19, 30, tzinfo=PARIS)
    result = preview([], start, chips_total=1000)
    assert result.rows == () and result.ends_at == start and result.expected_finish is None
