"""The hand the bubble bursts on, in the room (TDA RP-8).

docs/rules.md "Hand-for-hand (RP-8)": "players out on the same hand-for-hand hand share the
place(s) paid". Hand-for-hand lasts until the hand on which the bubble burst is complete at
every table: the first player out on it bursts the bubble, and a player out at another
table on that same hand, recorded after, still ties with them. So the elimination that
brings the players left to the places paid keeps hand-for-hand on ("Bubble burst: finishing
this hand at every table" on the console, the TV and the dealers' pages); it ends, and the
clock runs again, when every table has said that hand is done (or the director says every
table is, or turns it off). Each step is logged and undone in order.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.clock_helpers import ROW_LEVEL_1, at, hand_for_hand, placed, reload
from tests.tournaments.factories import seat
from tournaments.errors import TournamentError
from tournaments.models import Entry, Tournament, TournamentAction
from tournaments.services.clock.controls import clock_resume
from tournaments.services.clock.hand_for_hand import (
    clock_hand_done,
    clock_hand_for_hand_start,
    clock_hand_for_hand_stop,
)
from tournaments.services.clock.reads import clock_dealer_key
from tournaments.services.results import entry_eliminate
from tournaments.services.undo import action_undo_last

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock_tasks_off")]

HTMX = {"HTTP_HX_REQUEST": "true"}
BURST = "Bubble burst: finishing this hand at every table"


def on_the_bubble(tournament: Tournament, director: User) -> dict[str, Entry]:
    """Six at 20 (a pool of 120) paid 60 / 36 / 24. Bob and Fay are out before the bubble,
    so four are left, two at each table, with three paid."""
    players = seat(tournament, {1: ["Ann", "Bob", "Cal"], 2: ["Dee", "Eve", "Fay"]})
    for name in ("Fay", "Bob"):
        entry_eliminate(tournament.pk, [players[name].pk], by=director)
    return players


@pytest.fixture
def players(running_clock: Tournament, director: User) -> dict[str, Entry]:
    return on_the_bubble(running_clock, director)


@pytest.fixture
def bubble_hand(running_clock: Tournament, players: dict[str, Entry], director: User) -> Tournament:
    """Hand-for-hand from 19:05 (the clock stops with 15 minutes left); the hands in play
    then are done at 19:06, so hand 1, the first dealt hand-for-hand, is in play."""
    clock_hand_for_hand_start(running_clock.pk, by=director, now=at(5))
    clock_hand_done(running_clock.pk, None, hand=0, by=director, now=at(6))
    return reload(running_clock)


@pytest.fixture
def out(django_capture_on_commit_callbacks, director: User):  # type: ignore[no-untyped-def]
    """Record one player out from the console, with what follows its commit (the clock's
    look at the bubble) run as on a real night."""

    def record(tournament: Tournament, entry: Entry) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            entry_eliminate(tournament.pk, [entry.pk], by=director)

    return record


def last_summary(tournament: Tournament) -> str:
    return TournamentAction.objects.filter(tournament=tournament).latest("pk").summary_text


# ---------------------------------------------------------------------------- who ties


def test_two_out_at_two_tables_on_the_bubble_hand_recorded_one_at_a_time_tie_and_split(
    bubble_hand: Tournament, players: dict[str, Entry], out, director: User
) -> None:  # type: ignore[no-untyped-def]
    cal, dee = players["Cal"], players["Dee"]

    out(bubble_hand, cal)

    # Three left, three paid: the bubble has burst, but table 2 is still playing the hand.
    tournament = reload(bubble_hand)
    assert tournament.hand_for_hand
    assert hand_for_hand(tournament) == {
        "on": True,
        "hand": 1,
        "tables": [1, 2],
        "playing": [1, 2],
        "done": [],
        "burst": True,
    }
    assert placed(cal) == [("Cal", 4, 0)]

    out(bubble_hand, dee)

    # 3rd and 4th pay 24 + 0: they split it.
    assert placed(cal, dee) == [("Cal", 3, 12), ("Dee", 3, 12)]
    assert reload(cal).out_hand == reload(dee).out_hand
    assert last_summary(bubble_hand) == "Out: Dee (places 3-4 shared)"


def test_out_on_the_bubble_hand_after_every_table_said_it_was_done_does_not_tie(
    bubble_hand: Tournament, players: dict[str, Entry], out, director: User
) -> None:  # type: ignore[no-untyped-def]
    out(bubble_hand, players["Cal"])
    clock_hand_done(bubble_hand.pk, None, hand=1, by=director, now=at(8))
    out(bubble_hand, players["Dee"])

    assert placed(players["Dee"], players["Cal"]) == [("Dee", 3, 24), ("Cal", 4, 0)]


# ---------------------------------------------------------------------------- when it ends


def test_hand_for_hand_ends_when_every_table_has_finished_the_bubble_hand_then_the_clock_runs(
    bubble_hand: Tournament, players: dict[str, Entry], out, director: User
) -> None:  # type: ignore[no-untyped-def]
    out(bubble_hand, players["Cal"])

    clock_hand_done(bubble_hand.pk, 2, hand=1, by=director, now=at(8))

    tournament = reload(bubble_hand)
    assert tournament.hand_for_hand and tournament.paused_remaining == timedelta(minutes=15)
    assert hand_for_hand(tournament) | {"tables": None} == {
        "on": True,
        "hand": 1,
        "tables": None,
        "playing": [1],
        "done": [2],
        "burst": True,
    }
    assert last_summary(tournament) == "Hand-for-hand: table 2 is done"
    # The clock stays stopped until the hand is over everywhere.
    with pytest.raises(TournamentError, match="hand-for-hand"):
        clock_resume(bubble_hand.pk, by=director, now=at(8))

    clock_hand_done(bubble_hand.pk, 1, hand=1, by=director, now=at(9))

    tournament = reload(bubble_hand)
    assert not tournament.hand_for_hand
    # Hand 1 was played hand-for-hand: its two minutes come off, then the clock runs.
    assert tournament.paused_remaining is None
    assert (tournament.level_index, tournament.level_ends_at) == (ROW_LEVEL_1, at(9 + 13))
    assert hand_for_hand(tournament)["on"] is False
    assert last_summary(tournament) == (
        "Hand-for-hand: table 1 is done, the bubble has burst: "
        "hand-for-hand ended, the clock runs again"
    )
    with pytest.raises(TournamentError, match="not on"):
        clock_hand_done(bubble_hand.pk, 1, hand=1, by=director, now=at(10))


def test_every_table_is_done_ends_it_on_the_bubble_hand(
    bubble_hand: Tournament, players: dict[str, Entry], out, director: User
) -> None:  # type: ignore[no-untyped-def]
    out(bubble_hand, players["Cal"])

    clock_hand_done(bubble_hand.pk, None, hand=1, by=director, now=at(9))

    tournament = reload(bubble_hand)
    assert not tournament.hand_for_hand
    assert tournament.level_ends_at == at(9 + 13)
    assert last_summary(tournament) == (
        "Hand-for-hand: every table is done, the bubble has burst: "
        "hand-for-hand ended, the clock runs again"
    )


def test_turning_it_off_on_the_bubble_hand_runs_the_clock(
    bubble_hand: Tournament, players: dict[str, Entry], out, director: User
) -> None:  # type: ignore[no-untyped-def]
    out(bubble_hand, players["Cal"])

    clock_hand_for_hand_stop(bubble_hand.pk, by=director, now=at(9))

    tournament = reload(bubble_hand)
    assert not tournament.hand_for_hand
    assert tournament.level_ends_at == at(9 + 15)


def test_the_bubble_bursting_on_the_hands_in_play_when_it_was_announced_ends_it_at_once(
    running_clock: Tournament, players: dict[str, Entry], out, director: User
) -> None:  # type: ignore[no-untyped-def]
    # Hand 0 was not dealt hand-for-hand: nobody out on it ties, so there is nothing to wait
    # for (docs/rules.md "Hand-for-hand (RP-8)").
    clock_hand_for_hand_start(running_clock.pk, by=director, now=at(5))

    out(running_clock, players["Cal"])

    tournament = reload(running_clock)
    assert not tournament.hand_for_hand and tournament.paused_remaining is None
    assert last_summary(tournament) == (
        "The bubble burst: hand-for-hand ended, the clock runs again"
    )


# ---------------------------------------------------------------------------- undo


def test_every_step_of_the_bubble_hand_is_undone_in_order(
    bubble_hand: Tournament, players: dict[str, Entry], out, director: User
) -> None:  # type: ignore[no-untyped-def]
    cal, dee = players["Cal"], players["Dee"]
    snapshots = []

    def keep() -> None:
        t = reload(bubble_hand)
        snapshots.append(
            (
                hand_for_hand(t),
                t.level_ends_at,
                t.paused_remaining,
                tuple(placed(cal, dee)),
            )
        )

    keep()
    out(bubble_hand, cal)
    keep()
    out(bubble_hand, dee)
    keep()
    clock_hand_done(bubble_hand.pk, 1, hand=1, by=director, now=at(8))
    keep()
    clock_hand_done(bubble_hand.pk, 2, hand=1, by=director, now=at(9))
    assert not reload(bubble_hand).hand_for_hand

    for expected in reversed(snapshots):
        action_undo_last(bubble_hand.pk, by=director)
        t = reload(bubble_hand)
        assert (
            hand_for_hand(t),
            t.level_ends_at,
            t.paused_remaining,
            tuple(placed(cal, dee)),
        ) == expected
    assert hand_for_hand(bubble_hand)["burst"] is False
    # Redone the same way, they tie again.
    out(bubble_hand, dee)
    out(bubble_hand, cal)
    assert placed(cal, dee) == [("Cal", 3, 12), ("Dee", 3, 12)]


# ---------------------------------------------------------------------------- the screens


@pytest.fixture
def burst_now(running_now: Tournament, director: User, out) -> Tournament:  # type: ignore[no-untyped-def]
    """The bubble hand on a clock started just now (pages read real time): Cal is out on
    it at table 1, table 2 is still playing it."""
    players = on_the_bubble(running_now, director)
    clock_hand_for_hand_start(running_now.pk, by=director)
    clock_hand_done(running_now.pk, None, hand=0, by=director)
    out(running_now, players["Cal"])
    clock_hand_done(running_now.pk, 1, hand=1, by=director)
    return reload(running_now)


def test_the_tv_says_the_bubble_burst_and_which_tables_finish_the_hand(
    client: Client, burst_now: Tournament
) -> None:
    page = client.get(reverse("tournaments:tv_clock", args=[burst_now.tv_token])).content
    assert f"Hand 1 · {BURST} · Still playing: table 2" in page.decode()
    data = client.get(reverse("tournaments:tv_clock_json", args=[burst_now.tv_token])).json()
    assert data["hand_for_hand"]["burst"] is True


def test_the_console_says_the_bubble_burst_and_the_last_table_ends_it(
    director_client: Client, burst_now: Tournament
) -> None:
    page = director_client.get(
        reverse("tournaments:clock_panel", args=[burst_now.pk]), **HTMX
    ).content.decode()
    assert BURST in page
    assert "Every table is done: end hand-for-hand" in page
    done_url = reverse("tournaments:clock_hand_done", args=[burst_now.pk])
    response = director_client.post(done_url, {"table": "2", "hand": "1"}, **HTMX)
    assert response.status_code == 200
    assert not reload(burst_now).hand_for_hand
    assert reload(burst_now).paused_remaining is None
    assert BURST not in response.content.decode()


def test_the_dealer_page_says_the_bubble_burst(client: Client, burst_now: Tournament) -> None:
    key = clock_dealer_key(burst_now, 2)
    url = reverse("tournaments:clock_dealer", args=[burst_now.pk, 2, key])
    page = client.get(url).content.decode()
    assert BURST in page and "Hand done" in page
    client.post(url, {"hand": "1"})
    assert "Hand-for-hand is off: deal as usual." in client.get(url).content.decode()
