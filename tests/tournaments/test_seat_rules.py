"""Seat draws, late seats, balancing, breaking and the final table (2024 TDA rules).

Rule quotes are from docs/rules.md, "Tournaments". Chi-square tests use a seeded
generator and the critical value at p = 0.001, so each is a fixed computation that passes or
fails the same way every run.
"""

from __future__ import annotations

import copy
import doctest
import random
from collections import Counter
from collections.abc import Mapping
from typing import TypeVar

import pytest

from tournaments import seat_rules as seating_module
from tournaments.seat_rules import (
    LateSeat,
    Move,
    SeatAt,
    SeatingError,
    TableView,
    balance_moves,
    break_table,
    draw_late_seat,
    draw_seats,
    final_table_draw,
    final_table_due,
    final_table_size,
    should_break,
    table_sizes,
    tables_needed,
)

K = TypeVar("K")

# Upper 0.1% points of the chi-square distribution, by degrees of freedom.
CHI2_999 = {1: 10.828, 4: 18.467, 8: 26.124, 19: 43.820, 26: 54.052}


def chi_square(observed: Mapping[K, int], expected: Mapping[K, float]) -> float:
    return sum((observed.get(cell, 0) - e) ** 2 / e for cell, e in expected.items())


def table(
    number: int,
    players: Mapping[int, int],
    *,
    seats: int = 9,
    button: int | None = None,
    small_blind: int | None = None,
    big_blind_next: int | None = None,
) -> TableView:
    """A table of `seats` seats with `players` as {seat: player}, the rest open."""
    return TableView(
        number,
        {seat: players.get(seat) for seat in range(1, seats + 1)},
        button,
        small_blind,
        big_blind_next,
    )


def full(number: int, seats: int = 9, **positions: int) -> TableView:
    """A full table whose players are numbered table * 100 + seat."""
    return table(
        number, {s: number * 100 + s for s in range(1, seats + 1)}, seats=seats, **positions
    )


def seated(tables: list[TableView], moves: list[Move]) -> list[int]:
    """Players per table after carrying out `moves`."""
    counts = {t.number: t.players for t in tables}
    for move in moves:
        counts[move.from_table] -= 1
        counts[move.to_table] += 1
    return [counts[t.number] for t in tables]


def test_docstring_examples() -> None:
    result = doctest.testmod(seating_module)
    assert result.attempted > 0
    assert result.failed == 0


# ----------------------------------------------------------------------------- the draw


def test_tables_are_filled_as_evenly_as_possible() -> None:
    assert tables_needed(20, 9) == 3
    assert table_sizes(20, 9) == [7, 7, 6]
    assert table_sizes(19, 9) == [7, 6, 6]
    assert table_sizes(9, 9) == [9]
    assert table_sizes(10, 9) == [5, 5]
    assert table_sizes(0, 9) == []


def test_the_draw_seats_everyone_once_at_balanced_tables() -> None:
    players = list(range(1000, 1020))
    before = list(players)
    draw = draw_seats(players, seats_per_table=9, rng=random.Random(1))
    assert players == before
    assert set(draw) == set(players)
    assert len(set(draw.values())) == 20
    assert all(1 <= at.seat <= 9 for at in draw.values())
    assert sorted(Counter(at.table for at in draw.values()).items()) == [(1, 7), (2, 7), (3, 6)]


def test_every_seat_is_equally_likely_to_hold_each_player() -> None:
    # TDA 7 (docs/rules.md, Seating): "seats are drawn at random". For each of the 27 seats, which
    # of the 20 players sits there is uniform (19 degrees of freedom) ...
    rng = random.Random(20240607)
    players = list(range(20))
    trials = 12_000
    who: dict[SeatAt, Counter[int]] = {}
    where: Counter[SeatAt] = Counter()
    for _ in range(trials):
        for player, at in draw_seats(players, 9, rng).items():
            who.setdefault(at, Counter())[player] += 1
            if player == 0:
                where[at] += 1
    assert len(who) == 27
    for at, counts in who.items():
        occupied = sum(counts.values())
        assert chi_square(counts, {p: occupied / 20 for p in players}) < CHI2_999[19], at
    # ... and any one player lands in each seat as often as that seat's table size allows
    # (tables of 7, 7 and 6; 26 degrees of freedom).
    sizes = {1: 7, 2: 7, 3: 6}
    expected = {SeatAt(t, s): trials * sizes[t] / 20 / 9 for t in sizes for s in range(1, 10)}
    assert chi_square(where, expected) < CHI2_999[26]


def test_the_draw_refuses_a_player_twice_and_tiny_tables() -> None:
    with pytest.raises(SeatingError, match="player 7 is listed twice"):
        draw_seats([7, 8, 7], 9)
    with pytest.raises(SeatingError, match="at least 2 seats"):
        draw_seats([1, 2], 1)


def test_the_default_generator_is_the_system_csprng() -> None:
    draw = draw_seats(list(range(30)), 10)
    assert sorted(Counter(at.table for at in draw.values()).values()) == [10, 10, 10]


# ----------------------------------------------------------------------------- late seats


def test_late_entrants_draw_from_the_open_seats_of_the_shortest_tables() -> None:
    # TDA 8 (docs/rules.md, Seating): late entrants "draw table and seat from the same pool".
    t1 = table(1, {s: 100 + s for s in range(1, 9)})  # 8 players, seat 9 open
    t2 = table(2, {s: 200 + s for s in (1, 2, 4, 5, 6, 7, 8)})  # 7 players, seats 3, 9 open
    rng = random.Random(8)
    drawn = Counter(draw_late_seat([t1, t2], rng)[:2] for _ in range(4000))
    assert set(drawn) == {(2, 3), (2, 9)}
    assert chi_square(drawn, {(2, 3): 2000, (2, 9): 2000}) < CHI2_999[1]


def test_late_seats_are_uniform_over_tied_shortest_tables() -> None:
    t1 = table(1, {s: 100 + s for s in range(1, 8)})  # seats 8, 9 open
    t2 = table(2, {s: 200 + s for s in range(3, 10)})  # seats 1, 2 open
    t3 = full(3)
    rng = random.Random(9)
    drawn = Counter(draw_late_seat([t1, t2, t3], rng)[:2] for _ in range(8000))
    cells = [(1, 8), (1, 9), (2, 1), (2, 2)]
    assert set(drawn) == set(cells)
    assert chi_square(drawn, dict.fromkeys(cells, 2000)) < CHI2_999[8]


def test_a_late_seat_between_the_small_blind_and_the_button_waits() -> None:
    # TDA 8, 10 (docs/rules.md, Seating): newcomers "are dealt in anywhere except between the small
    # blind and the button". Next hand: button 5, small blind 7; seat 6 is open.
    t = table(1, {s: 100 + s for s in range(1, 10) if s != 6}, button=5, small_blind=7,
              big_blind_next=8)  # fmt: skip
    assert draw_late_seat([t], random.Random(1)) == LateSeat(1, 6, True)


def test_a_late_seat_elsewhere_is_dealt_in_at_once() -> None:
    t = table(1, {s: 100 + s for s in range(1, 10) if s != 2}, button=5, small_blind=7,
              big_blind_next=8)  # fmt: skip
    assert draw_late_seat([t], random.Random(1)) == LateSeat(1, 2, False)


def test_an_open_dead_button_seat_waits_too() -> None:
    # Dead button on open seat 5: sitting there would take the button without a blind.
    t = table(1, {s: 100 + s for s in range(1, 10) if s not in (5, 6, 9)}, button=5,
              small_blind=7, big_blind_next=8)  # fmt: skip
    assert t.must_wait(5) and t.must_wait(6) and not t.must_wait(9)


def test_with_a_dead_small_blind_the_wait_runs_to_the_big_blind() -> None:
    t = table(1, {1: 101, 4: 104, 7: 107}, button=1, small_blind=None, big_blind_next=4)
    assert [s for s in range(1, 10) if t.must_wait(s)] == [1, 2, 3]


def test_heads_up_nobody_sits_between_the_button_and_the_small_blind() -> None:
    # docs/rules.md, Button (34B): heads-up, "the small blind is the button".
    t = table(1, {1: 101, 4: 104}, button=1, small_blind=1, big_blind_next=4)
    assert not any(t.must_wait(s) for s in range(1, 10))


def test_before_the_first_hand_nobody_waits() -> None:
    t = table(1, {1: 101, 4: 104})
    assert not any(t.must_wait(s) for s in range(1, 10))


def test_no_open_seat_means_another_table() -> None:
    with pytest.raises(SeatingError, match="open another table"):
        draw_late_seat([full(1), full(2)], random.Random(1))


# ----------------------------------------------------------------------------- balancing


def test_the_player_due_the_big_blind_moves_to_the_short_tables_next_big_blind() -> None:
    # TDA 11A (docs/rules.md, Balancing): "the player due for the big blind next moves to the worst
    # position at the short table (the single big blind if there is one, even if that means
    # the big blind twice; never the small blind)".
    # 9/9/6 with "within 2": table 1 (the lowest-numbered of the longest) gives its player due
    # the big blind (seat 5) to table 3, whose small blind is seat 2 and whose next big blind
    # would be seat 4: open seat 3 comes first, so the mover pays the big blind there next.
    t1 = full(1, button=3, small_blind=4, big_blind_next=5)
    t2 = full(2, button=7, small_blind=8, big_blind_next=9)
    t3 = table(3, {1: 301, 2: 302, 4: 304, 5: 305, 7: 307, 8: 308}, button=1, small_blind=2,
               big_blind_next=4)  # fmt: skip
    moves = balance_moves([t1, t2, t3])
    assert moves == [Move(105, 1, 5, 3, 3, must_wait=False)]
    assert seated([t1, t2, t3], moves) == [8, 9, 7]


def test_tables_within_the_setting_are_left_alone() -> None:
    # docs/rules.md, Balancing: "within 2 players until a few tables remain, then within 1".
    t1 = table(1, {s: 100 + s for s in range(1, 9)}, button=1, small_blind=2, big_blind_next=3)
    t2 = table(2, {s: 200 + s for s in range(1, 7)}, button=1, small_blind=2, big_blind_next=3)
    assert balance_moves([t1, t2], threshold=2) == []
    # Near the end, "within 1": one player moves and the tables are 7 and 7.
    moves = balance_moves([t1, t2], threshold=1)
    assert moves == [Move(103, 1, 3, 2, 7, must_wait=False)]


def test_several_moves_from_one_table_take_the_big_blinds_in_turn() -> None:
    # 9 v 5 within 1: two moves. At table 1 the big blind is due at seat 9, then (wrapping)
    # seat 1. At table 2 (small blind 4, big blind due at 6) the first mover takes open seat 5
    # and the next big blind; the second the next open seat round, 9.
    t1 = full(1, button=7, small_blind=8, big_blind_next=9)
    t2 = table(2, {2: 202, 4: 204, 6: 206, 7: 207, 8: 208}, button=2, small_blind=4,
               big_blind_next=6)  # fmt: skip
    assert balance_moves([t1, t2], threshold=1) == [
        Move(109, 1, 9, 2, 5, must_wait=False),
        Move(101, 1, 1, 2, 9, must_wait=False),
    ]


def test_the_mover_never_takes_a_seat_that_would_wait_while_another_is_open() -> None:
    # Short table: button 2, open seat 3 (between the button and the small blind 4), open
    # seats 7-9 after the players due the big blind (5, 6). Seat 7 is the worst position.
    t1 = full(1, button=1, small_blind=2, big_blind_next=3)
    t2 = table(2, {1: 201, 2: 202, 4: 204, 5: 205, 6: 206}, button=2, small_blind=4,
               big_blind_next=5)  # fmt: skip
    assert balance_moves([t1, t2]) == [Move(103, 1, 3, 2, 7, must_wait=False)]


def test_when_only_a_waiting_seat_is_open_the_mover_is_told_to_wait() -> None:
    t1 = full(1, button=1, small_blind=2, big_blind_next=3)
    t2 = table(2, {1: 201, 2: 202, 4: 204, 5: 205, 6: 206}, seats=6, button=2, small_blind=4,
               big_blind_next=5)  # fmt: skip
    assert balance_moves([t1, t2]) == [Move(103, 1, 3, 2, 3, must_wait=True)]


def test_with_a_dead_small_blind_the_mover_sits_after_the_big_blind() -> None:
    # Seats 2 and 3 sit where the dead small blind would be, and would wait.
    t1 = full(1, button=1, small_blind=2, big_blind_next=3)
    t2 = table(2, {1: 201, 4: 204, 6: 206, 7: 207}, button=1, small_blind=None,
               big_blind_next=4)  # fmt: skip
    assert balance_moves([t1, t2], threshold=2) == [
        Move(103, 1, 3, 2, 5, must_wait=False),
        Move(104, 1, 4, 2, 8, must_wait=False),
    ]


def test_before_the_first_hand_moves_follow_seat_order() -> None:
    t1 = full(1)
    t2 = table(2, {2: 202, 5: 205, 6: 206, 9: 209})
    assert balance_moves([t1, t2], threshold=2) == [
        Move(101, 1, 1, 2, 1, must_wait=False),
        Move(102, 1, 2, 2, 3, must_wait=False),
    ]


def test_the_table_players_move_from_is_chosen_by_a_fixed_procedure() -> None:
    # TDA 11A (docs/rules.md, Balancing): "The table players move from is chosen by a fixed
    # procedure": the longest table, the lowest number among equals, to the shortest, the
    # lowest number among equals. 9/9/9/4 within 1 ends 8/8/8/7.
    tables = [
        full(1, button=1, small_blind=2, big_blind_next=3),
        full(2, button=1, small_blind=2, big_blind_next=3),
        full(3, button=1, small_blind=2, big_blind_next=3),
        table(4, {1: 401, 3: 403, 5: 405, 7: 407}, button=1, small_blind=3, big_blind_next=5),
    ]
    moves = balance_moves(tables, threshold=1)
    assert [(m.player, m.from_table, m.to_table, m.to_seat) for m in moves] == [
        (103, 1, 4, 4),
        (203, 2, 4, 6),
        (303, 3, 4, 8),
    ]
    assert seated(tables, moves) == [8, 8, 8, 7]


def test_balancing_leaves_its_input_alone() -> None:
    tables = [full(1, button=1, small_blind=2, big_blind_next=3), table(2, {1: 201})]
    before = copy.deepcopy(tables)
    balance_moves(tables, threshold=1)
    assert tables == before


def test_balancing_settings_below_one_are_refused() -> None:
    with pytest.raises(SeatingError, match="within 1 player or more"):
        balance_moves([full(1), table(2, {})], threshold=0)


def test_bad_tables_are_refused() -> None:
    with pytest.raises(SeatingError, match="player 101 is seated twice"):
        balance_moves([full(1), table(2, {1: 101})])
    with pytest.raises(SeatingError, match="table 1 is listed twice"):
        balance_moves([full(1), table(1, {})])
    with pytest.raises(SeatingError, match="no seat 10 for the button"):
        balance_moves([full(1, button=10)])


# ----------------------------------------------------------------------------- breaking


def test_a_broken_tables_players_fill_the_other_tables_evenly() -> None:
    # TDA 10 (docs/rules.md, Seating): "Players from a broken table draw new seats at random."
    t1 = table(1, {s: 100 + s for s in range(1, 8)}, button=1, small_blind=2, big_blind_next=3)
    t2 = table(2, {s: 200 + s for s in range(1, 7)}, button=1, small_blind=2, big_blind_next=3)
    t3 = table(3, {2: 302, 4: 304, 8: 308, 9: 309})
    moves = break_table([t1, t2, t3], 3, random.Random(4))
    assert [(m.player, m.from_table, m.from_seat) for m in moves] == [
        (302, 3, 2),
        (304, 3, 4),
        (308, 3, 8),
        (309, 3, 9),
    ]
    # 7 and 6 take 4, each arrival to the shorter table (table 1 of equals): 7/7, 8/7, 8/8, 9/8.
    assert seated([t1, t2, t3], moves) == [9, 8, 0]
    landing = [(m.to_table, m.to_seat) for m in moves]
    assert len(set(landing)) == 4
    assert all(t.seats[seat] is None for t in (t1, t2) for n, seat in landing if n == t.number)


def test_broken_table_players_may_get_any_blind_but_wait_between_small_blind_and_button() -> None:
    # TDA 10: they can get the big blind, small blind or button; not be dealt in between the
    # small blind and the button. Table 1's only open seats: 5 (after the big blind) and 3
    # (between button 2 and small blind 4).
    t1 = table(1, {1: 101, 2: 102, 4: 104, 6: 106, 7: 107, 8: 108, 9: 109}, button=2,
               small_blind=4, big_blind_next=6)  # fmt: skip
    t2 = table(2, {1: 201, 2: 202})
    moves = break_table([t1, t2], 2, random.Random(2))
    assert {(m.to_seat, m.must_wait) for m in moves} == {(3, True), (5, False)}


def test_a_broken_tables_players_draw_their_seats_at_random() -> None:
    # One player, table 1's five open seats: each equally likely (4 degrees of freedom).
    t1 = table(1, {1: 101, 3: 103, 5: 105, 7: 107})
    t2 = table(2, {4: 204})
    rng = random.Random(12)
    drawn = Counter(break_table([t1, t2], 2, rng)[0].to_seat for _ in range(5000))
    assert chi_square(drawn, dict.fromkeys((2, 4, 6, 8, 9), 1000)) < CHI2_999[4]
    # Two players, two open seats: who gets which is a coin toss.
    t1 = table(1, {s: 100 + s for s in range(1, 8)})
    t2 = table(2, {1: 201, 2: 202})
    first = Counter(break_table([t1, t2], 2, rng)[0].to_seat for _ in range(2000))
    assert chi_square(first, {8: 1000, 9: 1000}) < CHI2_999[1]


def test_a_table_that_does_not_fit_elsewhere_cannot_break() -> None:
    t1 = table(1, {s: 100 + s for s in range(1, 7)}, seats=8)
    t2 = table(2, {s: 200 + s for s in range(1, 7)}, seats=8)
    t3 = table(3, {s: 300 + s for s in range(1, 6)}, seats=8)
    with pytest.raises(SeatingError, match="table 3's 5 players do not fit in the 4 open seats"):
        break_table([t1, t2, t3], 3, random.Random(1))
    with pytest.raises(SeatingError, match="no table 4"):
        break_table([t1, t2, t3], 4, random.Random(1))


def test_breaking_leaves_its_input_alone() -> None:
    tables = [table(1, {1: 101}), table(2, {1: 201, 2: 202})]
    before = copy.deepcopy(tables)
    break_table(tables, 2, random.Random(1))
    assert tables == before


def test_the_highest_numbered_table_breaks_first_once_its_players_fit() -> None:
    # docs/rules.md, Balancing: "break a table when the empty seats elsewhere can hold its players";
    # the order is fixed in advance: the highest number first, even if another is shorter.
    t1 = table(1, {s: 100 + s for s in range(1, 4)})  # 3 players, 6 open
    t2 = table(2, {s: 200 + s for s in range(1, 8)})  # 7 players, 2 open
    t3 = table(3, {s: 300 + s for s in range(1, 9)})  # 8 players
    assert should_break([t1, t2, t3], 9) == 3
    t3 = table(3, {s: 300 + s for s in range(1, 10)})  # 9 players: 8 open seats elsewhere
    assert should_break([t1, t2, t3], 9) is None


def test_breaking_counts_only_the_seats_in_play() -> None:
    # Two ten-seat tables of 5: ten-handed, table 2 fits at table 1; played nine-handed, the
    # four seats table 1 has left in play do not hold table 2's five.
    t1 = table(1, {s: 100 + s for s in range(1, 6)}, seats=10)
    t2 = table(2, {s: 200 + s for s in range(1, 6)}, seats=10)
    assert should_break([t1, t2], 10) == 2
    assert should_break([t1, t2], 9) is None


def test_one_table_never_breaks() -> None:
    assert should_break([table(1, {1: 101})], 9) is None


# ----------------------------------------------------------------------------- final table


def test_final_table_sizes_follow_rp9() -> None:
    # RP-9 (docs/rules.md, Final table): "for 9- and 8-handed play, two tables of 5 combine into a
    # 9-handed final table; for 7- and 6-handed, two tables of 4 into a 7-handed one."
    assert [final_table_size(n) for n in (9, 8, 7, 6)] == [9, 9, 7, 7]
    assert [final_table_size(n) for n in (10, 5, 4)] == [10, 5, 4]


@pytest.mark.parametrize(
    ("seats_per_table", "left", "due"),
    [
        (9, 10, False),  # two tables of 5: still two tables
        (9, 9, True),
        (8, 10, False),
        (8, 9, True),  # two tables of 5 -> one of 4 and one of 5 -> nine-handed final table
        (7, 8, False),
        (7, 7, True),
        (6, 8, False),
        (6, 7, True),  # two tables of 4 -> a seven-handed final table
    ],
)
def test_the_final_table_forms_at_rp9_sizes(seats_per_table: int, left: int, due: bool) -> None:
    first = (left + 1) // 2
    t1 = table(1, {s: 100 + s for s in range(1, first + 1)}, seats=seats_per_table)
    t2 = table(2, {s: 200 + s for s in range(1, left - first + 1)}, seats=seats_per_table)
    assert final_table_due([t1, t2], seats_per_table) is due


def test_one_table_is_already_the_final_table() -> None:
    assert not final_table_due([table(1, {1: 101, 2: 102})], 9)


def test_the_final_table_is_redrawn_at_random() -> None:
    # RP-9 (docs/rules.md): "The final table is redrawn." Each seat is equally likely to hold each
    # of the nine players (8 degrees of freedom).
    rng = random.Random(99)
    players = list(range(900, 909))
    who: dict[int, Counter[int]] = {seat: Counter() for seat in range(1, 10)}
    for _ in range(4500):
        draw = final_table_draw(players, 9, rng)
        assert sorted(draw.values()) == list(range(1, 10))
        for player, seat in draw.items():
            who[seat][player] += 1
    for counts in who.values():
        assert chi_square(counts, dict.fromkeys(players, 500)) < CHI2_999[8]


def test_a_short_final_table_draws_its_open_seats_too() -> None:
    draw = final_table_draw([1, 2, 3, 4, 5, 6, 7], 10, random.Random(3))
    assert len(set(draw.values())) == 7
    assert all(1 <= seat <= 10 for seat in draw.values())


def test_a_final_table_too_small_for_the_field_is_refused() -> None:
    with pytest.raises(SeatingError, match="10 players do not fit at a final table of 9"):
        final_table_draw(list(range(10)), 9, random.Random(1))
