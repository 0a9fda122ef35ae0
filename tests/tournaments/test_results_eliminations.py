"""Eliminations: places from the players still in, simultaneous busts ranked by stacks,
equal stacks sharing places and prizes, bounties, bad input refused, undo."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied

from tests.tournaments.factories import seat
from tests.tournaments.lookups import last_action
from tournaments.errors import TournamentError
from tournaments.models import ActionKind, Entry, EntryState, Tournament, TournamentState
from tournaments.services import undo
from tournaments.services.results import deal_record, entry_eliminate, tournament_finish

pytestmark = pytest.mark.django_db

EIGHT = {1: {1: "Ann", 2: "Ben", 3: "Cal", 4: "Dee"}, 2: {1: "Eve", 2: "Fay", 3: "Gus", 4: "Hal"}}


def state(entry: Entry) -> tuple[str, int | None, int]:
    entry.refresh_from_db()
    return entry.state, entry.place, entry.prize


def test_one_player_out_takes_the_last_place_of_those_still_in(
    tournament_in_play: Tournament, director: User
) -> None:
    players = seat(tournament_in_play, EIGHT)

    entry_eliminate(tournament_in_play.pk, [players["Hal"].pk], by=director)

    assert state(players["Hal"]) == (EntryState.OUT, 8, 0)
    entry_eliminate(tournament_in_play.pk, [players["Gus"].pk], by=director)
    assert state(players["Gus"]) == (EntryState.OUT, 7, 0)
    players["Hal"].refresh_from_db()
    players["Gus"].refresh_from_db()
    assert players["Gus"].out_hand == players["Hal"].out_hand + 1
    action = last_action(tournament_in_play)
    assert action.kind == ActionKind.ELIMINATE
    assert "Gus" in action.summary and action.by == director


def test_two_out_on_one_hand_the_bigger_starting_stack_finishes_higher(
    tournament_in_play: Tournament, director: User
) -> None:
    # docs/rules.md, Eliminations (TDA): "two or more out on the same hand: the one who started
    # the hand with more chips finishes higher".
    players = seat(tournament_in_play, EIGHT)
    ben, cal = players["Ben"], players["Cal"]

    placed = entry_eliminate(
        tournament_in_play.pk,
        [ben.pk, cal.pk],
        by=director,
        eliminated_by=players["Ann"].pk,
        stacks_at_hand_start={str(ben.pk): "2500", str(cal.pk): "7000"},
    )

    assert [e.player.name for e in placed] == ["Cal", "Ben"]
    assert state(cal)[:2] == (EntryState.OUT, 7)
    assert state(ben)[:2] == (EntryState.OUT, 8)
    assert (ben.stack_at_hand_start, cal.stack_at_hand_start) == (2500, 7000)
    assert ben.out_hand == cal.out_hand
    assert ben.eliminated_by_id == players["Ann"].pk


def test_three_out_on_one_hand_equal_stacks_share_the_places(
    tournament_in_play: Tournament, director: User
) -> None:
    # TDA: "equal stacks share the places and their prizes".
    players = seat(tournament_in_play, EIGHT)
    big, small_1, small_2 = players["Eve"], players["Fay"], players["Gus"]

    entry_eliminate(
        tournament_in_play.pk,
        [small_1.pk, big.pk, small_2.pk],
        by=director,
        stacks_at_hand_start={big.pk: 5000, small_1.pk: 2000, small_2.pk: 2000},
    )

    # Eight in: the three take places 6, 7 and 8; the two short stacks share 7th-8th.
    assert state(big)[:2] == (EntryState.OUT, 6)
    assert state(small_1)[:2] == (EntryState.OUT, 7)
    assert state(small_2)[:2] == (EntryState.OUT, 7)
    assert "places 7-8 shared" in last_action(tournament_in_play).summary


def test_equal_stacks_in_the_money_share_the_prizes_worked_example(
    tournament_in_play: Tournament, director: User
) -> None:
    """Eight entries at 20 (+5 fee): a pool of 160, paid 50/30/20 in units of 5.

    80 / 48 / 32 round down to the unit as 45 for second and 30 for third; the 5 left goes
    to first, 85. Two players out together with equal stacks with four left share 3rd and
    4th: (30 + 0) / 2 = 15 each.
    """
    tournament_in_play.money_unit = 5
    tournament_in_play.save(update_fields=["money_unit"])
    players = seat(tournament_in_play, EIGHT)
    for name in ("Hal", "Gus", "Fay", "Eve"):
        entry_eliminate(tournament_in_play.pk, [players[name].pk], by=director)
    cal, dee = players["Cal"], players["Dee"]

    entry_eliminate(
        tournament_in_play.pk,
        [cal.pk, dee.pk],
        by=director,
        stacks_at_hand_start={cal.pk: 3000, dee.pk: 3000},
    )

    assert state(cal) == (EntryState.OUT, 3, 15)
    assert state(dee) == (EntryState.OUT, 3, 15)
    entry_eliminate(tournament_in_play.pk, [players["Ben"].pk], by=director)
    assert state(players["Ben"]) == (EntryState.OUT, 2, 45)


def test_the_eliminator_takes_the_fixed_bounty_of_each_player_knocked_out(
    tournament_in_play: Tournament, director: User
) -> None:
    tournament_in_play.bounty = 5
    tournament_in_play.save(update_fields=["bounty"])
    players = seat(tournament_in_play, EIGHT)
    ann = players["Ann"]

    entry_eliminate(tournament_in_play.pk, [players["Hal"].pk], by=director, eliminated_by=ann.pk)
    entry_eliminate(
        tournament_in_play.pk,
        [players["Gus"].pk, players["Fay"].pk],
        by=director,
        eliminated_by=ann.pk,
        stacks_at_hand_start={players["Gus"].pk: 100, players["Fay"].pk: 900},
    )

    ann.refresh_from_db()
    assert (ann.bounties, ann.knockouts_count) == (15, 3)


@pytest.mark.parametrize(
    "problem",
    ["already-out", "nobody", "twice", "everyone", "self", "no-stacks", "stranger", "bad-stack"],
)
def test_bad_eliminations_are_refused_and_change_nothing(
    tournament_in_play: Tournament, director: User, problem: str
) -> None:
    players = seat(tournament_in_play, {1: {1: "Ann", 2: "Ben", 3: "Cal", 4: "Dee"}})
    ann, ben, cal = players["Ann"], players["Ben"], players["Cal"]
    entry_eliminate(tournament_in_play.pk, [cal.pk], by=director)
    actions = tournament_in_play.actions.count()
    calls = {
        "already-out": lambda: entry_eliminate(tournament_in_play.pk, [cal.pk], by=director),
        "nobody": lambda: entry_eliminate(tournament_in_play.pk, [], by=director),
        "twice": lambda: entry_eliminate(tournament_in_play.pk, [ben.pk, ben.pk], by=director),
        "everyone": lambda: entry_eliminate(
            tournament_in_play.pk,
            [ann.pk, ben.pk, players["Dee"].pk],
            by=director,
            stacks_at_hand_start={ann.pk: 1, ben.pk: 2, players["Dee"].pk: 3},
        ),
        "self": lambda: entry_eliminate(
            tournament_in_play.pk, [ben.pk], by=director, eliminated_by=ben.pk
        ),
        "no-stacks": lambda: entry_eliminate(tournament_in_play.pk, [ben.pk, ann.pk], by=director),
        "stranger": lambda: entry_eliminate(
            tournament_in_play.pk, [ben.pk], by=director, eliminated_by=cal.pk
        ),
        "bad-stack": lambda: entry_eliminate(
            tournament_in_play.pk, [ben.pk], by=director, stacks_at_hand_start={ben.pk: "lots"}
        ),
    }
    messages = {
        "already-out": re.escape("Cal is already out (place 4)."),
        "nobody": "Choose who is out.",
        "twice": "listed twice",
        "everyone": "at least one player stays in",
        "self": "cannot knock themselves out",
        "no-stacks": "enter the stack of",
        "stranger": "Cal is not playing",
        "bad-stack": "is not a number of chips",
    }

    with pytest.raises(TournamentError, match=messages[problem]):
        calls[problem]()

    assert tournament_in_play.actions.count() == actions
    assert [state(e) for e in (ann, ben)] == [(EntryState.PLAYING, None, 0)] * 2


def test_no_elimination_before_the_start_or_after_the_end(
    tournament: Tournament, director: User
) -> None:
    players = seat(tournament, {1: {1: "Ann", 2: "Ben", 3: "Cal"}})
    for blocked, message in (
        (TournamentState.REGISTERING, "not running"),
        (TournamentState.FINISHED, "already finished"),
    ):
        tournament.state = blocked
        tournament.save(update_fields=["state"])
        with pytest.raises(TournamentError, match=message):
            entry_eliminate(tournament.pk, [players["Ann"].pk], by=director)


def test_undo_brings_the_players_back_and_takes_the_bounty_back(
    tournament_in_play: Tournament, director: User
) -> None:
    tournament_in_play.bounty = 5
    tournament_in_play.save(update_fields=["bounty"])
    players = seat(tournament_in_play, EIGHT)
    ann, ben, cal = players["Ann"], players["Ben"], players["Cal"]
    entry_eliminate(
        tournament_in_play.pk,
        [ben.pk, cal.pk],
        by=director,
        eliminated_by=ann.pk,
        stacks_at_hand_start={ben.pk: 10, cal.pk: 20},
    )

    undone = undo.action_undo_last(tournament_in_play.pk, by=director)

    assert undone.kind == ActionKind.ELIMINATE
    for entry in (ben, cal):
        entry.refresh_from_db()
        assert (entry.state, entry.place, entry.out_hand, entry.eliminated_by_id) == (
            EntryState.PLAYING,
            None,
            None,
            None,
        )
    assert (ben.table_number, ben.seat_number) == (1, 2)
    ann.refresh_from_db()
    assert (ann.bounties, ann.knockouts_count) == (0, 0)
    # And the same players can be recorded out again.
    entry_eliminate(tournament_in_play.pk, [cal.pk], by=director)
    assert state(cal)[:2] == (EntryState.OUT, 8)


def test_only_directors_record_results(tournament_in_play: Tournament, player: User) -> None:
    players = seat(tournament_in_play, {1: {1: "Ann", 2: "Ben"}})
    with pytest.raises(PermissionDenied):
        entry_eliminate(tournament_in_play.pk, [players["Ben"].pk], by=player)
    with pytest.raises(PermissionDenied):
        tournament_finish(tournament_in_play.pk, by=player)
    with pytest.raises(PermissionDenied):
        deal_record(tournament_in_play.pk, {}, by=player)
    assert state(players["Ben"]) == (EntryState.PLAYING, None, 0)
