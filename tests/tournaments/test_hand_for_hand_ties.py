"""Players out on one hand-for-hand hand in the room (TDA RP-8).

docs/rules.md "Hand-for-hand (RP-8)": "players out on the same hand-for-hand hand share the
place(s) paid": busted at different tables during one hand played hand-for-hand, they tie
and split the prizes of the places they cover (the odd unit to the first, as every shared
prize). docs/rules.md "Eliminations" (TDA 20): at one table "the one who started the hand with
more chips finishes higher". The hand is the room's own count (``clock_hand_done``); the
hands already in play when hand-for-hand was announced (hand 0) are not played
hand-for-hand. Every screen shows the shared place, and Undo takes it all back.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.clock_helpers import at, placed, reload
from tests.tournaments.factories import seat
from tournaments.errors import TournamentError
from tournaments.models import Entry, EntryState, Tournament, TournamentAction
from tournaments.services.clock.hand_for_hand import clock_hand_done, clock_hand_for_hand_start
from tournaments.services.results import entry_eliminate, tournament_finish
from tournaments.services.undo import action_undo_last
from tournaments.views.lobby import lobby_public_context

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock_tasks_off")]

HTMX = {"HTTP_HX_REQUEST": "true"}


def out(tournament: Tournament, *entries: Entry, director: User, **stacks: int) -> None:
    entry_eliminate(
        tournament.pk,
        [e.pk for e in entries],
        by=director,
        stacks_at_hand_start={e.pk: stacks[e.player.name] for e in entries if stacks},
    )


def hand_for_hand_at(tournament: Tournament, hand: int, director: User) -> None:
    """Hand-for-hand on, and every table done until ``hand`` is the one in play."""
    clock_hand_for_hand_start(tournament.pk, by=director, now=at(5))
    for done in range(hand):
        clock_hand_done(tournament.pk, None, hand=done, by=director, now=at(6 + done))
    assert reload(tournament).hand_for_hand_hand == hand


def next_hand(tournament: Tournament, director: User) -> None:
    hand = reload(tournament).hand_for_hand_hand
    clock_hand_done(tournament.pk, None, hand=hand, by=director, now=at(6 + hand))


@pytest.fixture
def bubble(running_clock: Tournament, director: User) -> dict[str, Entry]:
    """Five at 20 (a pool of 100) paid 50 / 29 / 21; Eve is out in fifth, so four are left
    at two tables with three paid: the bubble."""
    Tournament.objects.filter(pk=running_clock.pk).update(payout_basis_points=[5000, 2900, 2100])
    players = seat(running_clock, {1: ["Ann", "Bob", "Cal"], 2: ["Dee", "Eve"]})
    out(running_clock, players["Eve"], director=director)
    return players


@pytest.fixture
def six(running_clock: Tournament) -> dict[str, Entry]:
    """Six at two tables, three paid: hand-for-hand may start before anyone is out."""
    return seat(running_clock, {1: ["Ann", "Bob", "Cal"], 2: ["Dee", "Eve", "Fay"]})


# ---------------------------------------------------------------------------- who ties


def test_out_at_two_tables_on_one_hand_for_hand_hand_they_share_the_place_and_its_prize(
    running_clock: Tournament,
    bubble: dict[str, Entry],
    director: User,
    django_capture_on_commit_callbacks,
) -> None:  # type: ignore[no-untyped-def]
    hand_for_hand_at(running_clock, 1, director)
    cal, dee = bubble["Cal"], bubble["Dee"]

    # Both ticked at once; at different tables their stacks do not rank them.
    with django_capture_on_commit_callbacks(execute=True):
        out(running_clock, cal, dee, director=director)

    # 3rd and 4th pay 21 + 0: 10.50 each is 11 and 10 in whole units, the odd one to the
    # first, as every shared prize is rounded.
    assert placed(cal, dee) == [("Cal", 3, 11), ("Dee", 3, 10)]
    assert reload(cal).out_hand_for_hand and reload(cal).out_hand == reload(dee).out_hand
    summary = TournamentAction.objects.filter(kind="eliminate").latest("pk").summary_text
    assert summary == "Out: Cal (places 3-4 shared), Dee (places 3-4 shared)"

    next_hand(running_clock, director)  # the bubble hand is over: hand-for-hand ends
    out(running_clock, bubble["Bob"], director=director)
    results = tournament_finish(running_clock.pk, by=director)

    assert [(r["player_name"], r["place"], r["prize"]) for r in results] == [
        ("Ann", 1, 50),
        ("Bob", 2, 29),
        ("Cal", 3, 11),
        ("Dee", 3, 10),
        ("Eve", 5, 0),
    ]
    assert sum(r["prize"] for r in results) == 100


def test_out_one_by_one_at_two_tables_on_one_hand_they_tie_as_the_second_is_recorded(
    running_clock: Tournament, six: dict[str, Entry], director: User
) -> None:
    hand_for_hand_at(running_clock, 1, director)

    out(running_clock, six["Cal"], director=director)
    assert placed(six["Cal"]) == [("Cal", 6, 0)]
    out(running_clock, six["Fay"], director=director)

    assert placed(six["Cal"], six["Fay"]) == [("Cal", 5, 0), ("Fay", 5, 0)]
    summary = TournamentAction.objects.filter(kind="eliminate").latest("pk").summary_text
    assert summary == "Out: Fay (places 5-6 shared)"


def test_out_at_one_table_on_one_hand_the_bigger_starting_stack_finishes_higher(
    running_clock: Tournament, bubble: dict[str, Entry], director: User
) -> None:
    hand_for_hand_at(running_clock, 1, director)
    bob, cal = bubble["Bob"], bubble["Cal"]

    out(running_clock, bob, cal, director=director, Bob=3000, Cal=5000)

    assert placed(cal, bob) == [("Cal", 3, 21), ("Bob", 4, 0)]


def test_out_at_one_table_and_another_on_one_hand_only_the_other_table_ties(
    running_clock: Tournament, six: dict[str, Entry], director: User
) -> None:
    hand_for_hand_at(running_clock, 1, director)
    bob, cal, fay = six["Bob"], six["Cal"], six["Fay"]

    out(running_clock, bob, cal, fay, director=director, Bob=3000, Cal=5000, Fay=100)

    # Each table's best finish ties with the other's: Cal with Fay, then Bob below them.
    assert placed(cal, fay, bob) == [("Cal", 4, 0), ("Fay", 4, 0), ("Bob", 6, 0)]


def test_a_second_player_out_at_the_same_table_on_the_hand_must_come_with_the_first(
    running_clock: Tournament, six: dict[str, Entry], director: User
) -> None:
    hand_for_hand_at(running_clock, 1, director)
    out(running_clock, six["Cal"], director=director)

    with pytest.raises(TournamentError, match="Cal is already out on this hand at table 1"):
        out(running_clock, six["Bob"], director=director)

    assert reload(six["Bob"]).state == EntryState.PLAYING
    assert placed(six["Cal"]) == [("Cal", 6, 0)]


def test_out_on_hand_1_and_on_hand_2_do_not_tie(
    running_clock: Tournament, six: dict[str, Entry], director: User
) -> None:
    hand_for_hand_at(running_clock, 1, director)
    out(running_clock, six["Cal"], director=director)
    next_hand(running_clock, director)
    out(running_clock, six["Fay"], director=director)

    assert placed(six["Fay"], six["Cal"]) == [("Fay", 5, 0), ("Cal", 6, 0)]
    assert reload(six["Cal"]).out_hand != reload(six["Fay"]).out_hand


def test_the_hands_in_play_when_it_was_announced_are_not_played_hand_for_hand(
    running_clock: Tournament, six: dict[str, Entry], director: User
) -> None:
    hand_for_hand_at(running_clock, 0, director)

    out(running_clock, six["Cal"], director=director)
    out(running_clock, six["Fay"], director=director)

    assert placed(six["Fay"], six["Cal"]) == [("Fay", 5, 0), ("Cal", 6, 0)]
    assert not reload(six["Cal"]).out_hand_for_hand


# ---------------------------------------------------------------------------- undo


def test_undo_takes_the_tie_back_and_a_new_elimination_on_the_hand_ties_again(
    running_clock: Tournament, six: dict[str, Entry], director: User
) -> None:
    hand_for_hand_at(running_clock, 1, director)
    out(running_clock, six["Cal"], director=director)
    shared = reload(running_clock).hand_for_hand_out_hand
    assert shared == reload(six["Cal"]).out_hand
    out(running_clock, six["Fay"], director=director)

    action_undo_last(running_clock.pk, by=director)

    fay = reload(six["Fay"])
    assert (fay.state, fay.place, fay.out_hand, fay.out_hand_for_hand) == (
        EntryState.PLAYING,
        None,
        None,
        False,
    )
    assert placed(six["Cal"]) == [("Cal", 6, 0)]
    assert reload(running_clock).hand_for_hand_out_hand == shared

    action_undo_last(running_clock.pk, by=director)

    cal = reload(six["Cal"])
    assert (cal.state, cal.out_hand, cal.out_hand_for_hand) == (EntryState.PLAYING, None, False)
    assert reload(running_clock).hand_for_hand_out_hand is None

    out(running_clock, six["Fay"], director=director)
    out(running_clock, six["Cal"], director=director)
    assert placed(six["Cal"], six["Fay"]) == [("Cal", 5, 0), ("Fay", 5, 0)]


# ---------------------------------------------------------------------------- the screens


@pytest.fixture
def tied_on_the_bubble(
    running_clock: Tournament,
    bubble: dict[str, Entry],
    director: User,
    django_capture_on_commit_callbacks,
) -> dict[str, Entry]:  # type: ignore[no-untyped-def]
    """Cal and Dee out at two tables on the bubble hand: they share 3rd; the bubble bursts,
    and hand-for-hand ends when every table is done with that hand."""
    hand_for_hand_at(running_clock, 1, director)
    with django_capture_on_commit_callbacks(execute=True):
        out(running_clock, bubble["Cal"], bubble["Dee"], director=director)
    assert reload(running_clock).hand_for_hand
    next_hand(running_clock, director)
    assert not reload(running_clock).hand_for_hand
    return bubble


def test_the_console_and_the_lobby_show_the_shared_place(
    running_clock: Tournament, tied_on_the_bubble: dict[str, Entry], director_client: Client
) -> None:
    section = director_client.get(
        reverse("tournaments:console_results", args=[running_clock.pk]), **HTMX
    ).content.decode()
    assert section.count("3 (tied)") == 2

    rows = lobby_public_context(running_clock)["out_rows"]
    assert [(r["entry"].player.name, r["place"], r["tied"], r["prize"]) for r in rows] == [
        ("Cal", 3, True, 11),
        ("Dee", 3, True, 10),
        ("Eve", 5, False, 0),
    ]
    lobby = director_client.get(
        reverse("tournaments:lobby", args=[running_clock.pk])
    ).content.decode()
    assert lobby.count("3 (tied)") == 2


def test_the_final_results_and_the_tv_show_the_shared_place(
    client: Client,
    running_clock: Tournament,
    tied_on_the_bubble: dict[str, Entry],
    director: User,
    director_client: Client,
) -> None:
    out(running_clock, tied_on_the_bubble["Bob"], director=director)
    tournament_finish(running_clock.pk, by=director)

    section = director_client.get(
        reverse("tournaments:console_results", args=[running_clock.pk]), **HTMX
    ).content.decode()
    assert section.count("3 (tied)") == 2
    sheet = director_client.get(
        reverse("tournaments:sheet_results", args=[running_clock.pk])
    ).content.decode()
    assert sheet.count("3 (tied)") == 2

    token = reload(running_clock).tv_token
    results = client.get(reverse("tournaments:tv_clock_json", args=[token])).json()["tv"]["results"]
    assert results["tied_places"] == [3]
    tv = client.get(reverse("tournaments:tv_clock", args=[token])).content.decode()
    assert tv.count('class="tv-tied"') == 2
