"""A deal made in person is refused when the counted stacks do not add up to the chips in
play (the starting stacks of every entry and re-entry, the rebuys and the add-ons), with the
difference said; a colour-up's chip race may move the total by at most one chip of the
smallest colour left per player (docs/rules.md, "Chip race (24)")."""

from __future__ import annotations

import doctest

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import seat
from tests.tournaments.levels import BREAK_1, LEVEL_4
from tests.tournaments.lookups import last_action
from tournaments.errors import TournamentError
from tournaments.models import (
    ActionKind,
    BlindLevel,
    Entry,
    EntryState,
    Tournament,
    TournamentState,
)
from tournaments.services import chips
from tournaments.services.results import deal_propose, deal_record, entry_eliminate

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
TEN = {
    1: {1: "Ann", 2: "Ben", 3: "Cal", 4: "Dee", 5: "Eve"},
    2: {1: "Fay", 2: "Gus", 3: "Hal", 4: "Ivy", 5: "Jon"},
}


def night(tournament_in_play: Tournament, director: User) -> dict[str, Entry]:
    """Ten entries of 10,000, two rebuys of 10,000 and six add-ons of 15,000: 210,000 in
    play, with Ann, Ben and Cal left."""
    players = seat(tournament_in_play, TEN)
    Entry.objects.filter(pk__in=[players["Ann"].pk, players["Dee"].pk]).update(rebuys=1)
    Entry.objects.filter(
        pk__in=[players[n].pk for n in ("Ann", "Ben", "Cal", "Eve", "Fay", "Gus")]
    ).update(addon=True)
    for name in ("Jon", "Ivy", "Hal", "Gus", "Fay", "Eve", "Dee"):
        entry_eliminate(tournament_in_play.pk, [players[name].pk], by=director)
    return players


def stacks(players: dict[str, Entry], ann: int, ben: int, cal: int) -> dict[int, int]:
    return {players["Ann"].pk: ann, players["Ben"].pk: ben, players["Cal"].pk: cal}


def test_the_modules_example_holds() -> None:
    result = doctest.testmod(chips)
    assert result.attempted > 0 and result.failed == 0


def test_chips_in_play_are_entries_rebuys_and_add_ons(
    tournament_in_play: Tournament, director: User
) -> None:
    night(tournament_in_play, director)

    assert chips.chips_in_play(tournament_in_play) == 10 * 10000 + 2 * 10000 + 6 * 15000 == 210000


def test_a_re_entry_brings_a_starting_stack_more(
    tournament_in_play: Tournament, director: User
) -> None:
    players = night(tournament_in_play, director)
    Entry.objects.create(
        tournament=tournament_in_play,
        player=players["Jon"].player,
        number=2,
        state=EntryState.PLAYING,
        table_number=1,
        seat_number=6,
    )

    assert chips.chips_in_play(tournament_in_play) == 220000


def test_stacks_over_the_chips_in_play_are_refused_with_the_difference(
    tournament_in_play: Tournament, director: User
) -> None:
    players = night(tournament_in_play, director)

    with pytest.raises(TournamentError) as refused:
        deal_propose(
            tournament_in_play.pk, method="icm", stacks=stacks(players, 120000, 90000, 50000)
        )

    assert (
        "The stacks add up to 260,000, 50,000 more than the 210,000 in play."
        in refused.value.message
    )


def test_stacks_under_the_chips_in_play_are_refused_with_the_difference(
    tournament_in_play: Tournament, director: User
) -> None:
    players = night(tournament_in_play, director)

    with pytest.raises(TournamentError) as refused:
        deal_propose(
            tournament_in_play.pk, method="chip-chop", stacks=stacks(players, 100000, 60000, 40000)
        )

    assert (
        "The stacks add up to 200,000, 10,000 less than the 210,000 in play."
        in refused.value.message
    )


def test_stacks_that_add_up_make_a_deal(tournament_in_play: Tournament, director: User) -> None:
    players = night(tournament_in_play, director)

    proposal = deal_propose(
        tournament_in_play.pk, method="icm", stacks=stacks(players, 110000, 60000, 40000)
    )

    assert sum(line.stack for line in proposal.lines) == 210000
    assert proposal.total == sum(line.prize for line in proposal.lines)


def test_recording_a_deal_with_stacks_that_do_not_add_up_changes_nothing(
    tournament_in_play: Tournament, director: User
) -> None:
    players = night(tournament_in_play, director)
    prizes = {players["Ann"].pk: 150, players["Ben"].pk: 100, players["Cal"].pk: 70}
    before = last_action(tournament_in_play).pk

    with pytest.raises(TournamentError, match="260,000, 50,000 more than the 210,000"):
        deal_record(
            tournament_in_play.pk, prizes, by=director, stacks=stacks(players, 120000, 90000, 50000)
        )

    tournament_in_play.refresh_from_db()
    assert tournament_in_play.state == TournamentState.RUNNING
    assert last_action(tournament_in_play).pk == before
    assert (
        Entry.objects.filter(tournament=tournament_in_play, state=EntryState.PLAYING).count() == 3
    )


def test_recording_a_deal_with_stacks_that_add_up_ends_the_tournament(
    tournament_in_play: Tournament, director: User
) -> None:
    players = night(tournament_in_play, director)
    left = deal_propose(tournament_in_play.pk, stacks=stacks(players, 110000, 60000, 40000))

    deal_record(
        tournament_in_play.pk,
        {line.entry_id: line.prize for line in left.lines},
        by=director,
        stacks=stacks(players, 110000, 60000, 40000),
    )

    tournament_in_play.refresh_from_db()
    assert tournament_in_play.state == TournamentState.FINISHED
    assert last_action(tournament_in_play).kind == ActionKind.DEAL


def colour_up_25s(tournament_in_play: Tournament) -> None:
    """The first break colours up the 25s (the chip set is 25, 100, 500, 1000) and the
    clock is past it: the smallest chip left is the 100."""
    BlindLevel.objects.filter(
        blind_structure=tournament_in_play.blind_structure, position=BREAK_1
    ).update(colour_up=[25])
    tournament_in_play.level_index = LEVEL_4
    tournament_in_play.save(update_fields=["level_index"])


def test_after_a_colour_up_the_chip_race_may_move_the_total_by_a_chip_a_player(
    tournament_in_play: Tournament, director: User
) -> None:
    players = night(tournament_in_play, director)
    colour_up_25s(tournament_in_play)

    # Ten entries could each have won or lost one 100 in the race: up to 1,000 either way.
    assert chips.stacks_check(tournament_in_play, [110000, 60000, 40900]).matches
    proposal = deal_propose(tournament_in_play.pk, stacks=stacks(players, 110000, 60000, 40900))
    assert sum(line.stack for line in proposal.lines) == 210900

    with pytest.raises(TournamentError, match="211,100, 1,100 more than the 210,000 in play"):
        deal_propose(tournament_in_play.pk, stacks=stacks(players, 110000, 60000, 41100))


def test_before_the_colour_up_break_nothing_may_be_off(
    tournament_in_play: Tournament, director: User
) -> None:
    players = night(tournament_in_play, director)
    colour_up_25s(tournament_in_play)
    tournament_in_play.level_index = BREAK_1 - 1
    tournament_in_play.save(update_fields=["level_index"])

    with pytest.raises(TournamentError, match="210,100, 100 more than the 210,000 in play"):
        deal_propose(tournament_in_play.pk, stacks=stacks(players, 110000, 60000, 40100))


def test_the_console_shows_the_refusal_and_keeps_the_stacks_typed(
    tournament_in_play: Tournament, director: User, director_client: Client
) -> None:
    players = night(tournament_in_play, director)
    ann, ben, cal = players["Ann"], players["Ben"], players["Cal"]

    response = director_client.post(
        reverse("tournaments:results_deal_propose", args=[tournament_in_play.pk]),
        {
            "method": "icm",
            f"stack_{ann.pk}": "120000",
            f"stack_{ben.pk}": "90000",
            f"stack_{cal.pk}": "50000",
        },
        **HTMX,
    )

    page = response.content.decode()
    assert "The stacks add up to 260,000, 50,000 more than the 210,000 in play." in page
    assert f'name="stack_{ann.pk}" value="120000"' in page
    assert "ICM proposal" not in page
