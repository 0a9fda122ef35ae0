"""The structure generator (`tournaments.blind_structures.generate`): blinds the chip set can make,
antes never above the small blind, about 1.25-1.5x a level, and a finish near the target."""

from __future__ import annotations

import math

import pytest

from tables.engine.config import AnteKind
from tournaments.blind_structures import (
    FINISH_AT_BIG_BLINDS,
    RUN_ON_TO_BIG_BLINDS,
    BlindStructureError,
    Row,
    check_rows,
    chips_in_play,
    generate,
    next_level,
    round_big_blind,
)

HOME_CHIPS = (25, 100, 500, 1000, 5000)

SETTINGS = [
    # players, stack, hours, chips, level minutes, break every, break minutes
    (10, 10_000, 4, HOME_CHIPS, 20, 4, 10),
    (20, 10_000, 5, HOME_CHIPS, 20, 4, 10),
    (6, 10_000, 3, HOME_CHIPS, 20, 4, 10),
    (30, 10_000, 6, HOME_CHIPS, 20, 4, 15),
    (8, 10_000, 2, HOME_CHIPS, 10, 6, 5),
    (9, 5_000, 4, (25, 100, 500, 1000), 25, 3, 10),
    (12, 1_500, 3, (5, 25, 100, 500), 15, 4, 10),
    (40, 20_000, 8, (100, 500, 1000, 5000, 25000), 30, 3, 15),
]


def proposals(ante_kind: AnteKind = AnteKind.NONE, for_limit: bool = False):  # type: ignore[no-untyped-def]
    for players, stack, hours, chips, minutes, every, pause in SETTINGS:
        yield (
            (players, stack, hours, chips, minutes, every, pause),
            generate(
                starting_stack=stack,
                players=players,
                hours=hours,
                chip_set=chips,
                level_minutes=minutes,
                break_every=every,
                break_minutes=pause,
                ante_kind=ante_kind,
                for_limit=for_limit,
            ),
        )


@pytest.mark.parametrize("ante_kind", list(AnteKind))
@pytest.mark.parametrize("for_limit", [False, True])
def test_every_amount_is_made_with_the_chips_in_play(ante_kind: AnteKind, for_limit: bool) -> None:
    for (_p, _s, _h, chips, *_), proposal in proposals(ante_kind, for_limit):
        rows = list(proposal.rows)
        check_rows(rows, for_limit=for_limit, chip_set=chips)
        for row, in_play in zip(rows, chips_in_play(rows, chips), strict=True):
            if row.is_break:
                continue
            for amount in row.amounts().values():
                assert amount % in_play[0] == 0, (row, in_play)
            # the small blind is half the big blind, so both are made with the same chips
            assert row.small_blind * 2 == row.big_blind


@pytest.mark.parametrize("ante_kind", [AnteKind.EACH, AnteKind.BIG_BLIND])
def test_antes_are_never_above_the_small_blind(ante_kind: AnteKind) -> None:
    for _, proposal in proposals(ante_kind):
        levels = [row for row in proposal.rows if not row.is_break]
        assert all(row.ante <= row.small_blind for row in levels)
        with_antes = [row for row in levels if row.ante]
        assert with_antes and all(row.ante_kind == ante_kind for row in with_antes)


def test_antes_start_after_the_first_break() -> None:
    proposal = generate(
        starting_stack=10_000, players=10, hours=4, chip_set=HOME_CHIPS, ante_kind=AnteKind.EACH
    )
    first_break = next(i for i, row in enumerate(proposal.rows) if row.is_break)
    assert all(row.ante == 0 for row in proposal.rows[:first_break])
    assert all(row.ante > 0 for row in proposal.rows[first_break + 1 :] if not row.is_break)


def test_no_antes_unless_asked() -> None:
    for _, proposal in proposals():
        assert all(row.ante == 0 and row.ante_kind == AnteKind.NONE for row in proposal.rows)


def test_the_expected_finish_is_near_the_target_length() -> None:
    for (players, stack, hours, _c, minutes, _e, pause), proposal in proposals():
        assert proposal.target_minutes == round(hours * 60)
        assert proposal.expected_minutes is not None
        tolerance = max(minutes + pause, 0.1 * proposal.target_minutes)
        assert abs(proposal.expected_minutes - proposal.target_minutes) <= tolerance, (
            players,
            stack,
            hours,
            proposal.expected_minutes,
        )


def test_the_blinds_grow_about_one_and_a_quarter_to_one_and_a_half_a_level() -> None:
    for settings, proposal in proposals():
        blinds = [row.big_blind for row in proposal.rows if not row.is_break]
        steps = [b / a for a, b in zip(blinds, blinds[1:], strict=False)]
        assert all(1.2 <= step <= 2.0 for step in steps), (settings, blinds)
        mean = math.exp(sum(math.log(step) for step in steps) / len(steps))
        assert 1.25 <= mean <= 1.6, (settings, blinds)


def test_levels_go_on_past_the_expected_finish() -> None:
    for (players, stack, *_), proposal in proposals():
        total = players * stack
        levels = [row for row in proposal.rows if not row.is_break]
        assert levels[-1].big_blind * RUN_ON_TO_BIG_BLINDS >= total
        assert any(row.big_blind * FINISH_AT_BIG_BLINDS >= total for row in levels[:-1])


def test_breaks_come_every_n_levels_and_colour_up_the_chips_no_longer_needed() -> None:
    proposal = generate(starting_stack=10_000, players=10, hours=4, chip_set=HOME_CHIPS)
    rows = proposal.rows
    kinds = "".join("B" if row.is_break else "L" for row in rows)
    assert kinds.startswith("LLLLBLLLLBLLLLB")
    assert "BB" not in kinds and not kinds.endswith("B")
    gone = [chip for row in rows if row.is_break for chip in row.colour_up]
    assert gone == sorted(gone)  # the smallest go first
    assert gone[:2] == [25, 100]
    assert set(HOME_CHIPS) - set(gone)  # a chip always stays


def test_no_breaks_no_colour_ups() -> None:
    proposal = generate(
        starting_stack=10_000, players=10, hours=4, chip_set=HOME_CHIPS, break_every=0
    )
    assert not any(row.is_break for row in proposal.rows)


def test_limit_levels_have_small_bet_equal_to_the_big_blind_and_big_bet_twice_it() -> None:
    for _, proposal in proposals(for_limit=True):
        for row in proposal.rows:
            if not row.is_break:
                assert row.small_bet == row.big_blind
                assert row.big_bet == 2 * row.big_blind


def test_pot_limit_levels_have_no_bets() -> None:
    for _, proposal in proposals():
        assert all(row.small_bet is None and row.big_bet is None for row in proposal.rows)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"chip_set": []}, "Give the chip set"),
        ({"chip_set": [25, 25]}, "Each chip value may appear only once."),
        (
            {"starting_stack": 10_010},
            "The starting stack 10010 cannot be made with these chips: it is not a multiple "
            "of 25, the smallest chip.",
        ),
        ({"starting_stack": 500}, "at least 40 of the smallest chip (1000)"),
        ({"players": 1}, "Expect between 2 and 1000 players."),
        ({"hours": 0.2}, "Aim for between half an hour and 24 hours."),
        ({"level_minutes": 0}, "Levels last between 1 and 240 minutes."),
        ({"break_minutes": 0}, "Breaks last between 1 and 240 minutes."),
    ],
)
def test_bad_generator_settings_are_refused(settings: dict[str, object], message: str) -> None:
    base: dict[str, object] = {
        "starting_stack": 10_000,
        "players": 10,
        "hours": 4,
        "chip_set": HOME_CHIPS,
    }
    with pytest.raises(BlindStructureError) as caught:
        generate(**{**base, **settings})  # type: ignore[arg-type]
    assert message in str(caught.value)


def test_big_blinds_round_to_what_the_chips_make() -> None:
    assert round_big_blind(100, step=50) == 100
    assert round_big_blind(219, step=50, previous=150) == 200
    assert round_big_blind(1555, step=200, previous=1000) == 1600
    # 25 chips cannot make 35/70: the next big blind they make is 100
    assert round_big_blind(70, step=50, previous=50) == 100
    # with only 1,000 chips in play, 12,000 follows 10,000
    assert round_big_blind(12_500, step=2000, previous=10_000) == 12_000


def test_the_proposed_next_level_grows_and_keeps_the_ante_and_bets_in_proportion() -> None:
    rows = [
        Row.level(100, 200, 15, ante=25, ante_kind=AnteKind.EACH, small_bet=200, big_bet=400),
        Row.pause(10, colour_up=[25]),
    ]
    proposed = next_level(rows, for_limit=True, chip_set=(25, 100, 500))
    # With the 25s gone, 150/300 cannot be made: 200/400 is the next the 100s make.
    assert (proposed.small_blind, proposed.big_blind) == (200, 400)
    assert proposed.minutes == 15
    assert (proposed.ante_kind, proposed.ante) == (AnteKind.EACH, 100)
    assert (proposed.small_bet, proposed.big_bet) == (400, 800)
    check_rows([*rows, proposed], for_limit=True, chip_set=(25, 100, 500))


def test_the_proposed_next_level_grows_by_about_half() -> None:
    proposed = next_level([Row.level(100, 200, 15)], for_limit=False, chip_set=(25, 100))
    assert (proposed.small_blind, proposed.big_blind, proposed.minutes) == (150, 300, 15)


def test_the_first_level_of_a_blank_blind_structure_uses_the_smallest_chip() -> None:
    proposed = next_level([], for_limit=False, chip_set=(25, 100))
    assert (proposed.small_blind, proposed.big_blind) == (25, 50)
