"""Balancing, breaking and the final table as the director is told to do them, the button
asked rather than guessed, and moves confirmed (TDA 10, 11A, 32, RP-9)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from tests.tournaments.factories import late as late_entries
from tests.tournaments.factories import register, seat
from tests.tournaments.lookups import last_action, seats_of, where
from tournaments.errors import TournamentError
from tournaments.models import ActionKind, Entry, EntryState, Tournament, TournamentTable
from tournaments.services import undo
from tournaments.services.results import entry_eliminate
from tournaments.services.seating import (
    Instruction,
    MoveInstruction,
    seating_draw,
    seating_final_table,
    seating_late_seat,
    seating_move_confirm,
    seating_moves_needed,
    table_break,
    table_button_set,
)

pytestmark = pytest.mark.django_db


def full(table: str, seats: range) -> dict[int, str]:
    return {s: f"{table}{s}" for s in seats}


FOUR_TABLES = {
    1: full("A", range(1, 10)),
    2: full("B", range(1, 10)),
    3: full("C", range(1, 10)),
    4: full("D", range(1, 7)),
}


def kinds(instructions: list[Instruction]) -> list[tuple[str, int | None]]:
    return [(i.kind, i.table) for i in instructions]


def test_balancing_asks_where_the_button_is_at_the_tables_concerned(
    tournament_in_play: Tournament, director: User
) -> None:
    # 9 / 9 / 9 / 6: more than two apart, so table 1 (the lowest-numbered full one, a fixed
    # procedure, TDA 11A) gives a player to table 4. Who, and where, depends on the buttons.
    seat(tournament_in_play, FOUR_TABLES)

    assert kinds(seating_moves_needed(tournament_in_play)) == [("button", 1), ("button", 4)]


def test_the_player_due_for_the_big_blind_moves_to_the_worst_seat_of_the_short_table(
    tournament_in_play: Tournament, director: User
) -> None:
    # TDA 11A: "the player due for the big blind next at the long table moves to the worst
    # position at the short table". Table 1's next hand: button 5, small blind 6, big blind
    # 7, so A7 moves. Table 4 (seats 1-6 taken): button 2, small blind 3, big blind 4; the
    # first open seat after the small blind, 7, pays the big blind soonest.
    players = seat(tournament_in_play, FOUR_TABLES)
    table_button_set(tournament_in_play.pk, 1, 5, by=director)
    table_button_set(tournament_in_play.pk, 4, 2, by=director)

    (instruction,) = seating_moves_needed(tournament_in_play)

    assert instruction.kind == "move"
    assert instruction.move == MoveInstruction(
        entry_id=players["A7"].pk,
        name="A7",
        from_table=1,
        from_seat=7,
        to_table=4,
        to_seat=7,
        must_wait=False,
    )

    seating_move_confirm(tournament_in_play.pk, players["A7"].pk, 4, 7, by=director)

    assert where(players["A7"]) == (4, 7)
    # 8 / 9 / 9 / 7: within two, nothing more to do.
    assert seating_moves_needed(tournament_in_play) == []
    action = last_action(tournament_in_play)
    assert action.kind == ActionKind.MOVE
    assert action.summary == "A7: table 1 seat 7 → table 4 seat 7"


def test_a_button_told_too_long_ago_is_asked_again(
    tournament_in_play: Tournament, director: User
) -> None:
    seat(tournament_in_play, FOUR_TABLES)
    told = timezone.now() - timedelta(minutes=10)
    table_button_set(tournament_in_play.pk, 1, 5, by=director, now=told)
    table_button_set(tournament_in_play.pk, 4, 2, by=director)

    assert kinds(seating_moves_needed(tournament_in_play)) == [("button", 1)]
    assert kinds(seating_moves_needed(tournament_in_play, now=told + timedelta(minutes=1))) == [
        ("move", None)
    ]


def test_the_balance_tightens_to_one_player_near_the_end(tournament_in_play: Tournament) -> None:
    # "Within 2 players until a few tables remain, then within 1" (docs/rules.md, balancing).
    # 8 / 8 / 8 / 6: two apart is close enough with four tables (and table 4's six players
    # do not fit in the three open seats elsewhere).
    layout = {1: full("A", range(1, 9)), 2: full("B", range(1, 9)), 3: full("C", range(1, 9))}
    seat(tournament_in_play, {**layout, 4: full("D", range(1, 7))})
    assert seating_moves_needed(tournament_in_play) == []


def test_with_three_tables_left_two_apart_is_too_many(tournament_in_play: Tournament) -> None:
    seat(
        tournament_in_play,
        {1: full("A", range(1, 8)), 2: full("B", range(1, 8)), 3: full("C", range(1, 6))},
    )
    assert kinds(seating_moves_needed(tournament_in_play)) == [("button", 1), ("button", 3)]


def test_the_tournaments_own_threshold_is_used(tournament_in_play: Tournament) -> None:
    tournament_in_play.balance_threshold = 3
    tournament_in_play.save(update_fields=["balance_threshold"])
    seat(tournament_in_play, FOUR_TABLES)
    assert seating_moves_needed(tournament_in_play) == []


def test_a_table_whose_players_fit_elsewhere_is_broken_highest_number_first(
    tournament_in_play: Tournament, director: User
) -> None:
    players = seat(
        tournament_in_play,
        {1: full("A", range(1, 8)), 2: full("B", range(1, 8)), 3: full("C", range(1, 5))},
    )
    assert kinds(seating_moves_needed(tournament_in_play)) == [("break", 3)]

    moves = table_break(tournament_in_play.pk, 3, by=director, rng=random.Random(8))

    # TDA 10: each player of the broken table draws a new seat; the two tables end at 9-9.
    assert sorted(m.name for m in moves) == ["C1", "C2", "C3", "C4"]
    assert all(m.from_table == 3 and m.to_table in (1, 2) for m in moves)
    assert {n: len(s) for n, s in seats_of(tournament_in_play).items()} == {1: 9, 2: 9}
    for move in moves:
        assert where(players[move.name]) == (move.to_table, move.to_seat)
    table = TournamentTable.objects.get(tournament=tournament_in_play, number=3)
    assert table.broken_at is not None
    assert last_action(tournament_in_play).kind == ActionKind.BREAK_TABLE
    assert seating_moves_needed(tournament_in_play) == []


def test_a_table_that_does_not_fit_elsewhere_cannot_be_broken(
    tournament_in_play: Tournament, director: User
) -> None:
    seat(tournament_in_play, {1: full("A", range(1, 9)), 2: full("B", range(1, 9))})
    with pytest.raises(TournamentError, match="do not fit"):
        table_break(tournament_in_play.pk, 2, by=director)
    assert TournamentTable.objects.get(tournament=tournament_in_play, number=2).broken_at is None


def test_a_night_of_eliminations_balancing_breaking_and_the_final_table(
    tournament_in_play: Tournament, director: User
) -> None:
    """Eighteen players drawn at three tables of six, played down to the final table."""
    tournament_in_play.seats_per_table = 6
    tournament_in_play.save(update_fields=["seats_per_table"])
    register(tournament_in_play, [f"P{n:02d}" for n in range(1, 19)])
    seating_draw(tournament_in_play, by=director, rng=random.Random(11))
    assert sorted(len(s) for s in seats_of(tournament_in_play).values()) == [6, 6, 6]

    def out_at(table: int, count: int) -> None:
        for entry in Entry.objects.filter(
            tournament=tournament_in_play, state=EntryState.PLAYING, table_number=table
        ).order_by("seat_number")[:count]:
            entry_eliminate(tournament_in_play.pk, [entry.pk], by=director)

    # Two out at table 2: 6 / 4 / 6. The button is asked at tables 1 and 2 before anyone
    # moves; then table 1's player due for the big blind goes to table 2.
    out_at(2, 2)
    assert kinds(seating_moves_needed(tournament_in_play)) == [("button", 1), ("button", 2)]
    table_button_set(tournament_in_play.pk, 1, 1, by=director)
    table_button_set(tournament_in_play.pk, 2, 1, by=director)
    needed = seating_moves_needed(tournament_in_play)
    assert [i.kind for i in needed] == ["move"]
    move = needed[0].move
    assert move is not None and (move.from_table, move.to_table) == (1, 2)
    seating_move_confirm(
        tournament_in_play.pk, move.entry_id, move.to_table, move.to_seat, by=director
    )
    assert {n: len(s) for n, s in seats_of(tournament_in_play).items()} == {1: 5, 2: 5, 3: 6}
    assert seating_moves_needed(tournament_in_play) == []

    # Four out at table 3: 5 / 5 / 2, and table 3's two fit in the open seats elsewhere.
    out_at(3, 4)
    assert kinds(seating_moves_needed(tournament_in_play)) == [("break", 3)]
    table_break(tournament_in_play.pk, 3, by=director, rng=random.Random(12))
    assert {n: len(s) for n, s in seats_of(tournament_in_play).items()} == {1: 6, 2: 6}
    assert seating_moves_needed(tournament_in_play) == []

    # Down to seven: a six-handed event's final table seats seven (RP-9), redrawn.
    out_at(1, 2)
    out_at(2, 3)
    assert kinds(seating_moves_needed(tournament_in_play)) == [("final-table", None)]
    drawn = seating_final_table(tournament_in_play.pk, by=director, rng=random.Random(13))
    assert sorted(m.to_seat for m in drawn) == list(range(1, 8))
    assert list(seats_of(tournament_in_play)) == [1]
    final = TournamentTable.objects.get(tournament=tournament_in_play, number=1)
    assert (final.seats, final.button) == (7, None)  # its button is asked afresh
    assert (
        TournamentTable.objects.get(tournament=tournament_in_play, number=2).broken_at is not None
    )
    assert seating_moves_needed(tournament_in_play) == []


def test_an_eight_handed_event_plays_a_nine_handed_final_table(
    tournament_in_play: Tournament, director: User
) -> None:
    # docs/rules.md, TDA RP-9: "for 9- and 8-handed play, two tables of 5 combine into a
    # 9-handed final table".
    tournament_in_play.seats_per_table = 8
    tournament_in_play.save(update_fields=["seats_per_table"])
    seat(tournament_in_play, {1: full("A", range(1, 6)), 2: full("B", range(1, 5))})
    assert kinds(seating_moves_needed(tournament_in_play)) == [("final-table", None)]

    seating_final_table(tournament_in_play.pk, by=director, rng=random.Random(14))

    assert sorted(seats_of(tournament_in_play)[1]) == list(range(1, 10))
    assert TournamentTable.objects.get(tournament=tournament_in_play, number=1).seats == 9


def test_the_final_table_waits_until_the_players_fit(
    tournament_in_play: Tournament, director: User
) -> None:
    seat(tournament_in_play, {1: full("A", range(1, 7)), 2: full("B", range(1, 6))})
    with pytest.raises(TournamentError, match="11 players are left: the final table seats 9"):
        seating_final_table(tournament_in_play.pk, by=director)


@pytest.mark.parametrize(
    ("to_table", "to_seat", "message"),
    [
        (1, 2, "Table 1 seat 2 is taken by Ben."),
        (3, 1, "Table 3 is broken."),
        (4, 1, "There is no table 4."),
        (2, 10, "Table 2 has seats 1 to 9, not 10."),
        ("two", 1, "“two” is not a table number."),
        (1, 1, "Ann already sits at table 1 seat 1."),
    ],
)
def test_bad_moves_are_refused_and_change_nothing(
    tournament_in_play: Tournament, director: User, to_table: object, to_seat: int, message: str
) -> None:
    players = seat(tournament_in_play, {1: {1: "Ann", 2: "Ben"}, 2: {1: "Cal"}, 3: {}})
    TournamentTable.objects.filter(tournament=tournament_in_play, number=3).update(
        broken_at=timezone.now()
    )
    actions = tournament_in_play.actions.count()

    with pytest.raises(TournamentError) as refused:
        seating_move_confirm(
            tournament_in_play.pk, players["Ann"].pk, to_table, to_seat, by=director
        )

    assert str(refused.value) == message
    assert where(players["Ann"]) == (1, 1)
    assert tournament_in_play.actions.count() == actions


def test_a_player_out_cannot_be_moved(tournament_in_play: Tournament, director: User) -> None:
    players = seat(tournament_in_play, {1: {1: "Ann", 2: "Ben", 3: "Cal"}})
    entry_eliminate(tournament_in_play.pk, [players["Cal"].pk], by=director)
    with pytest.raises(TournamentError, match="Cal is not playing"):
        seating_move_confirm(tournament_in_play.pk, players["Cal"].pk, 1, 5, by=director)


def test_the_button_can_be_on_an_open_seat_but_not_off_the_table(
    tournament_in_play: Tournament, director: User
) -> None:
    # TDA 32, dead button: the button may stay on a seat whose player has gone.
    seat(tournament_in_play, {1: {1: "Ann", 2: "Ben"}})
    table = table_button_set(tournament_in_play.pk, 1, 7, by=director)
    assert (table.button, table.button_set_at is not None) == (7, True)
    assert last_action(tournament_in_play).summary == "Table 1: button at seat 7"
    with pytest.raises(TournamentError, match="seats 1 to 9, not 0"):
        table_button_set(tournament_in_play.pk, 1, 0, by=director)


def test_heads_up_the_button_is_the_small_blind(
    tournament_in_play: Tournament, director: User
) -> None:
    # TDA 34B: heads-up the button posts the small blind. With the button, and so the small
    # blind, at seat 1 and the big blind at seat 5, no seat lies between the small blind and
    # the button: a newcomer anywhere is dealt in.
    seat(tournament_in_play, {1: {1: "Ann", 5: "Ben"}})
    table_button_set(tournament_in_play.pk, 1, 1, by=director)
    (late,) = late_entries(tournament_in_play, ["Zed"])

    placed = seating_late_seat(late, by=director, rng=random.Random(2))

    assert placed.must_wait is False


def test_undo_of_a_move_a_button_a_break_and_the_final_table(
    tournament_in_play: Tournament, director: User
) -> None:
    players = seat(
        tournament_in_play,
        {1: full("A", range(1, 5)), 2: full("B", range(1, 4)), 3: full("C", range(1, 3))},
    )
    start = seats_of(tournament_in_play)
    table_button_set(tournament_in_play.pk, 1, 3, by=director)
    seating_move_confirm(tournament_in_play.pk, players["C1"].pk, 2, 7, by=director)
    table_break(tournament_in_play.pk, 3, by=director, rng=random.Random(20))
    seating_final_table(tournament_in_play.pk, by=director, rng=random.Random(21))
    assert list(seats_of(tournament_in_play)) == [1]

    for kind in (ActionKind.BREAK_TABLE, ActionKind.BREAK_TABLE, ActionKind.MOVE):
        assert undo.action_undo_last(tournament_in_play.pk, by=director).kind == kind
    assert seats_of(tournament_in_play) == start
    assert set(
        TournamentTable.objects.filter(
            tournament=tournament_in_play, broken_at__isnull=True
        ).values_list("number", flat=True)
    ) == {1, 2, 3}
    table = TournamentTable.objects.get(tournament=tournament_in_play, number=1)
    assert table.button == 3 and table.seats is None

    assert undo.action_undo_last(tournament_in_play.pk, by=director).kind == ActionKind.BUTTON
    table.refresh_from_db()
    assert (table.button, table.button_set_at) == (None, None)
