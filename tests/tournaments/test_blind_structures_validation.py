"""The rules of a blind structure (`tournaments.blind_structures`): each bad row is refused with a
message that names the row, and level numbers never count breaks."""

from __future__ import annotations

import doctest

import pytest

from tables.engine.config import AnteKind
from tournaments import blind_structures
from tournaments.blind_structures import (
    BlindStructureError,
    Row,
    check_rows,
    chips_in_play,
    level_numbers,
    parse_chip_set,
    row_label,
    row_problems,
)

CHIPS = (25, 100, 500, 1000)


def messages(rows: list[Row], *, for_limit: bool = False, chips: tuple[int, ...] = ()) -> list[str]:
    return [p.message for p in row_problems(rows, for_limit=for_limit, chip_set=chips)]


def test_the_module_examples_hold() -> None:
    result = doctest.testmod(blind_structures)
    assert result.attempted > 0
    assert result.failed == 0


def test_a_valid_blind_structure_has_no_problems() -> None:
    rows = [
        Row.level(25, 50),
        Row.level(50, 100, ante=25, ante_kind=AnteKind.EACH),
        Row.pause(10, colour_up=[25]),
        Row.level(100, 200, ante=100, ante_kind=AnteKind.BIG_BLIND),
    ]
    assert messages(rows, chips=CHIPS) == []
    check_rows(rows, for_limit=False, chip_set=CHIPS)


def test_a_level_of_zero_minutes_is_refused() -> None:
    rows = [Row.level(25, 50), Row.level(50, 100, minutes=0)]
    assert messages(rows) == ["Level 2: it lasts 0 minutes; give it at least one minute."]


def test_a_break_of_zero_minutes_is_refused() -> None:
    rows = [Row.level(25, 50), Row.pause(0)]
    assert messages(rows) == [
        "Break after level 1: it lasts 0 minutes; give it at least one minute."
    ]


def test_a_level_longer_than_four_hours_is_a_typo() -> None:
    assert messages([Row.level(25, 50, minutes=2000)]) == [
        "Level 1: it lasts 2000 minutes; at most 240 are allowed."
    ]


def test_a_big_blind_below_the_small_blind_is_refused() -> None:
    rows = [Row.level(25, 50), Row.pause(10), Row.level(100, 75)]
    assert messages(rows) == ["Level 2: the big blind 75 is below the small blind 100."]


def test_a_level_without_blinds_is_refused() -> None:
    assert messages([Row.level(0, 0)]) == [
        "Level 1: it has no small blind.",
        "Level 1: it has no big blind.",
    ]


def test_an_ante_above_the_small_blind_is_refused() -> None:
    rows = [Row.level(25, 50, ante=50, ante_kind=AnteKind.EACH)]
    assert messages(rows) == ["Level 1: the ante 50 is above the small blind 25."]


def test_a_big_blind_ante_may_be_the_big_blind_itself() -> None:
    # The big-blind ante as card rooms play it since 2018: the big blind posts one ante for
    # the table, as much as the big blind.
    assert messages([Row.level(50, 100, ante=100, ante_kind=AnteKind.BIG_BLIND)]) == []


def test_a_big_blind_ante_above_the_big_blind_is_refused() -> None:
    rows = [Row.level(50, 100, ante=150, ante_kind=AnteKind.BIG_BLIND)]
    assert messages(rows) == ["Level 1: the big-blind ante 150 is above the big blind 100."]


def test_an_ante_needs_its_kind_and_its_amount() -> None:
    rows = [Row.level(50, 100, ante=10), Row.level(50, 100, ante_kind=AnteKind.EACH)]
    assert messages(rows) == [
        "Level 1: it has an ante of 10 but no ante kind.",
        "Level 2: it has an ante kind but no ante amount.",
    ]


def test_blinds_the_chips_cannot_make_are_refused() -> None:
    rows = [Row.level(10, 20)]
    assert messages(rows, chips=CHIPS) == [
        "Level 1: the small blind 10 cannot be made with the chips in play: it is not a "
        "multiple of 25, the smallest chip left.",
        "Level 1: the big blind 20 cannot be made with the chips in play: it is not a "
        "multiple of 25, the smallest chip left.",
    ]


def test_after_a_colour_up_the_blinds_need_the_chips_still_in_play() -> None:
    # 150/300 is fine with 25s; once the 25s and 100s are raced off, 500 is the smallest.
    rows = [
        Row.level(150, 300),
        Row.pause(10, colour_up=[25, 100]),
        Row.level(750, 1500, ante=250, ante_kind=AnteKind.EACH),
    ]
    assert messages(rows, chips=CHIPS) == [
        "Level 2: the small blind 750 cannot be made with the chips in play: it is not a "
        "multiple of 500, the smallest chip left.",
        "Level 2: the ante 250 cannot be made with the chips in play: it is not a "
        "multiple of 500, the smallest chip left.",
    ]


def test_a_blind_structure_without_a_chip_set_checks_no_chips() -> None:
    assert messages([Row.level(10, 20)]) == []


def test_limit_levels_need_both_bets() -> None:
    rows = [
        Row.level(25, 50, small_bet=50, big_bet=100),
        Row.level(50, 100),
        Row.level(50, 100, small_bet=100),
    ]
    assert messages(rows, for_limit=True) == [
        "Level 2: a limit level needs the small bet and the big bet.",
        "Level 3: a limit level needs the small bet and the big bet.",
    ]


def test_a_big_bet_below_the_small_bet_is_refused() -> None:
    rows = [Row.level(25, 50, small_bet=100, big_bet=50)]
    assert messages(rows, for_limit=True) == ["Level 1: the big bet 50 is below the small bet 100."]


def test_limit_bets_the_chips_cannot_make_are_refused() -> None:
    rows = [Row.level(25, 50, small_bet=50, big_bet=110)]
    assert messages(rows, for_limit=True, chips=CHIPS) == [
        "Level 1: the big bet 110 cannot be made with the chips in play: it is not a "
        "multiple of 25, the smallest chip left."
    ]


def test_a_break_with_blinds_is_refused() -> None:
    rows = [Row.level(25, 50), Row(kind="break", minutes=10, small_blind=25, big_blind=50)]
    assert messages(rows) == ["Break after level 1: a break has no blinds, ante or bets."]


def test_only_a_break_colours_up() -> None:
    rows = [Row(kind="level", minutes=20, small_blind=100, big_blind=200, colour_up=(25,))]
    assert messages(rows, chips=CHIPS) == [
        "Level 1: chips are coloured up at a break, not during a level."
    ]


def test_a_colour_up_removes_chips_of_the_set_still_in_play() -> None:
    rows = [
        Row.level(100, 200),
        Row.pause(10, colour_up=[5]),
        Row.level(200, 400),
        Row.pause(10, colour_up=[25]),
        Row.level(300, 600),
        Row.pause(10, colour_up=[25]),
    ]
    assert messages(rows, chips=CHIPS) == [
        "Break after level 1: the 5 chip is not in the chip set.",
        "Break after level 3: the 25 chips were already coloured up at an earlier break.",
    ]


def test_a_colour_up_takes_the_smallest_chips_first() -> None:
    # TDA 24: the chip race removes the smallest denomination.
    rows = [Row.level(100, 200), Row.pause(10, colour_up=[100]), Row.level(200, 400)]
    assert messages(rows, chips=CHIPS) == [
        "Break after level 1: colour up the smallest chips first: the 25 chip is still in play."
    ]


def test_a_colour_up_leaves_a_chip_in_play() -> None:
    rows = [Row.level(500, 1000), Row.pause(10, colour_up=list(CHIPS))]
    assert messages(rows, chips=CHIPS) == [
        "Break after level 1: a colour-up must leave at least one chip in play."
    ]


def test_check_rows_raises_every_problem_with_its_row() -> None:
    rows = [Row.level(25, 50, minutes=0), Row.pause(10), Row.level(100, 50)]
    with pytest.raises(BlindStructureError) as caught:
        check_rows(rows, for_limit=False)
    assert [(p.index, p.field) for p in caught.value.problems] == [
        (0, "minutes"),
        (2, "big_blind"),
    ]
    assert "Level 2: the big blind 50 is below the small blind 100." in str(caught.value)


def test_level_numbers_never_count_breaks() -> None:
    rows = [
        Row.pause(5),
        Row.level(25, 50),
        Row.level(50, 100),
        Row.pause(10),
        Row.pause(5),
        Row.level(75, 150),
    ]
    assert level_numbers(rows) == [None, 1, 2, None, None, 3]
    assert [row_label(rows, i) for i in range(len(rows))] == [
        "Break before level 1",
        "Level 1",
        "Level 2",
        "Break after level 2",
        "Break after level 2",
        "Level 3",
    ]


def test_chips_in_play_change_after_each_colour_up() -> None:
    rows = [Row.level(25, 50), Row.pause(10, colour_up=[25]), Row.level(100, 200)]
    assert chips_in_play(rows, CHIPS) == [
        (25, 100, 500, 1000),
        (25, 100, 500, 1000),
        (100, 500, 1000),
    ]


def test_a_chip_set_is_read_from_what_a_director_types() -> None:
    assert parse_chip_set(" 1000, 25,100 500 ") == (25, 100, 500, 1000)
    assert parse_chip_set("") == ()
    with pytest.raises(BlindStructureError, match="abc is not a chip value"):
        parse_chip_set("25, abc")
    with pytest.raises(BlindStructureError, match="only once"):
        parse_chip_set("25, 25")
    with pytest.raises(BlindStructureError, match="above 0"):
        parse_chip_set("0, 25")
