"""Hand-for-hand in the room (TDA RP-8), run from the console or the dealers' phones.

The director turns it on at the bubble: the clock stops. Each table reports "hand done"
(its dealer from a page of its own, or the director from the console); when every table
has, the next hand is dealt everywhere and the clock loses the tournament's minutes per
hand-for-hand hand (none for the hands already in play when it was announced). The TV
shows it and the tables still playing. Turning it off, or the end of the hand the bubble
burst on, ends it and the clock runs again. Every step is logged and undone.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.clock_helpers import ROW_LEVEL_1, ROW_LEVEL_2, at, hand_for_hand, reload
from tests.tournaments.factories import seat
from tournaments.errors import TournamentError
from tournaments.models import (
    Entry,
    EntryState,
    Tournament,
    TournamentAction,
)
from tournaments.services.clock.controls import clock_resume
from tournaments.services.clock.hand_for_hand import (
    clock_hand_done,
    clock_hand_for_hand_start,
    clock_hand_for_hand_stop,
)
from tournaments.services.clock.levels import clock_break_now
from tournaments.services.clock.reads import clock_dealer_key
from tournaments.services.clock.sweep import clock_sweep
from tournaments.services.results import entry_eliminate
from tournaments.services.undo import action_undo_last

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock_tasks_off")]

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def players(running_clock: Tournament) -> dict[str, Entry]:
    """Five players at two tables; three places paid (50/30/20 of 100)."""
    return seat(running_clock, {1: ["Ann", "Bob", "Cal"], 2: ["Dee", "Eve"]})


@pytest.fixture
def on_bubble(running_clock: Tournament, players: dict[str, Entry], director: User) -> Tournament:
    """Eve is out in fifth: four left, three paid, hand-for-hand is due (frozen time)."""
    entry_eliminate(running_clock.pk, [players["Eve"].pk], by=director)
    return reload(running_clock)


@pytest.fixture
def on_bubble_now(running_now: Tournament, director: User) -> Tournament:
    """The same bubble on a clock started just now (for pages, which read real time)."""
    entries = seat(running_now, {1: ["Ann", "Bob", "Cal"], 2: ["Dee", "Eve"]})
    entry_eliminate(running_now.pk, [entries["Eve"].pk], by=director)
    return reload(running_now)


def last_summary(tournament: Tournament) -> str:
    return TournamentAction.objects.filter(tournament=tournament).latest("pk").summary


# ---------------------------------------------------------------------------- the rounds


def test_the_clock_stops_and_each_hand_waits_for_every_table(
    on_bubble: Tournament, director: User
) -> None:
    clock_hand_for_hand_start(on_bubble.pk, by=director, now=at(5))
    tournament = reload(on_bubble)
    assert tournament.hand_for_hand and tournament.paused_remaining == timedelta(minutes=15)
    assert last_summary(tournament) == "Hand-for-hand started: the clock stops"
    assert hand_for_hand(tournament) == {
        "on": True,
        "hand": 0,
        "tables": [1, 2],
        "playing": [1, 2],
        "done": [],
        "burst": False,
    }
    # The hands in play when it was announced: finished, and no time off for them.
    clock_hand_done(on_bubble.pk, 1, hand=0, by=director, now=at(6))
    assert hand_for_hand(on_bubble)["playing"] == [2]
    assert last_summary(on_bubble) == "Hand-for-hand: table 1 is done"
    clock_hand_done(on_bubble.pk, 2, hand=0, by=director, now=at(7))
    tournament = reload(on_bubble)
    assert hand_for_hand(tournament) | {"tables": None} == {
        "on": True,
        "hand": 1,
        "tables": None,
        "playing": [1, 2],
        "done": [],
        "burst": False,
    }
    assert tournament.paused_remaining == timedelta(minutes=15)
    assert last_summary(tournament) == "Hand-for-hand: table 2 is done, hand 1 starts"
    # Hand 1, played hand-for-hand: two minutes off the clock once both tables are done.
    clock_hand_done(on_bubble.pk, 2, hand=1, by=director, now=at(8))
    assert reload(on_bubble).paused_remaining == timedelta(minutes=15)
    clock_hand_done(on_bubble.pk, 1, hand=1, by=director, now=at(9))
    tournament = reload(on_bubble)
    assert tournament.paused_remaining == timedelta(minutes=13)
    assert hand_for_hand(tournament)["hand"] == 2
    # A level change task finds nothing to do while it lasts.
    assert clock_sweep(at(200)) == 0


def test_a_table_reports_once_per_hand(on_bubble: Tournament, director: User) -> None:
    clock_hand_for_hand_start(on_bubble.pk, by=director, now=at(5))
    clock_hand_done(on_bubble.pk, 1, hand=0, by=director, now=at(6))
    with pytest.raises(TournamentError, match="already"):
        clock_hand_done(on_bubble.pk, 1, hand=0, by=director, now=at(6))
    with pytest.raises(TournamentError, match="hand 0"):
        clock_hand_done(on_bubble.pk, 2, hand=3, by=director, now=at(6))
    with pytest.raises(TournamentError, match="table 7"):
        clock_hand_done(on_bubble.pk, 7, hand=0, by=director, now=at(6))
    assert hand_for_hand(on_bubble)["playing"] == [2]


def test_the_director_may_call_every_table_done(on_bubble: Tournament, director: User) -> None:
    clock_hand_for_hand_start(on_bubble.pk, by=director, now=at(5))
    clock_hand_done(on_bubble.pk, None, hand=0, by=director, now=at(6))
    assert hand_for_hand(on_bubble)["hand"] == 1
    assert last_summary(on_bubble) == "Hand-for-hand: every table is done, hand 1 starts"


def test_time_running_out_goes_to_the_next_level_still_stopped(
    on_bubble: Tournament, director: User
) -> None:
    Tournament.objects.filter(pk=on_bubble.pk).update(hand_for_hand_minutes=3)
    clock_hand_for_hand_start(on_bubble.pk, by=director, now=at(18))
    clock_hand_done(on_bubble.pk, None, hand=0, by=director, now=at(18))
    clock_hand_done(on_bubble.pk, None, hand=1, by=director, now=at(19))
    tournament = reload(on_bubble)
    assert tournament.level_index == ROW_LEVEL_2
    assert tournament.paused_remaining == timedelta(minutes=20)
    assert tournament.hand_for_hand


def test_the_clock_cannot_run_during_hand_for_hand(on_bubble: Tournament, director: User) -> None:
    clock_hand_for_hand_start(on_bubble.pk, by=director, now=at(5))
    with pytest.raises(TournamentError, match="hand-for-hand"):
        clock_resume(on_bubble.pk, by=director, now=at(6))
    with pytest.raises(TournamentError, match="hand-for-hand"):
        clock_break_now(on_bubble.pk, by=director, now=at(6))
    with pytest.raises(TournamentError, match="already"):
        clock_hand_for_hand_start(on_bubble.pk, by=director, now=at(6))


def test_turning_it_off_runs_the_clock_again(on_bubble: Tournament, director: User) -> None:
    clock_hand_for_hand_start(on_bubble.pk, by=director, now=at(5))
    clock_hand_for_hand_stop(on_bubble.pk, by=director, now=at(30))
    tournament = reload(on_bubble)
    assert not tournament.hand_for_hand
    assert (tournament.level_index, tournament.level_ends_at) == (ROW_LEVEL_1, at(45))
    assert last_summary(tournament) == "Hand-for-hand ended: the clock runs again"
    assert hand_for_hand(tournament)["on"] is False
    with pytest.raises(TournamentError, match="not on"):
        clock_hand_for_hand_stop(on_bubble.pk, by=director, now=at(31))


def test_every_step_is_undone_in_order(on_bubble: Tournament, director: User) -> None:
    snapshots = []

    def keep() -> None:
        t = reload(on_bubble)
        snapshots.append((t.hand_for_hand, hand_for_hand(t), t.level_ends_at, t.paused_remaining))

    keep()
    clock_hand_for_hand_start(on_bubble.pk, by=director, now=at(5))
    keep()
    clock_hand_done(on_bubble.pk, None, hand=0, by=director, now=at(6))
    keep()
    clock_hand_done(on_bubble.pk, 1, hand=1, by=director, now=at(7))
    keep()
    clock_hand_done(on_bubble.pk, 2, hand=1, by=director, now=at(8))
    keep()
    clock_hand_for_hand_stop(on_bubble.pk, by=director, now=at(9))
    for expected in reversed(snapshots):
        action_undo_last(on_bubble.pk, by=director)
        t = reload(on_bubble)
        assert (t.hand_for_hand, hand_for_hand(t), t.level_ends_at, t.paused_remaining) == (
            expected
        )


# ---------------------------------------------------------------------------- the bubble


def test_the_bubble_bursting_ends_it_after_its_hand_and_undo_brings_it_back(
    on_bubble: Tournament,
    players: dict[str, Entry],
    director: User,
    django_capture_on_commit_callbacks,
) -> None:  # type: ignore[no-untyped-def]
    clock_hand_for_hand_start(on_bubble.pk, by=director, now=at(5))
    clock_hand_done(on_bubble.pk, None, hand=0, by=director, now=at(6))
    with django_capture_on_commit_callbacks(execute=True):
        entry_eliminate(on_bubble.pk, [players["Dee"].pk], by=director)
    # It lasts until the hand the bubble burst on is done at every table (TDA RP-8).
    assert reload(on_bubble).hand_for_hand and hand_for_hand(on_bubble)["burst"]
    clock_hand_done(on_bubble.pk, None, hand=1, by=director)
    tournament = reload(on_bubble)
    assert not tournament.hand_for_hand
    # Hand 1 was played hand-for-hand: its two minutes come off, then the clock runs.
    assert tournament.paused_remaining is None
    left = tournament.level_ends_at - timezone.now()
    assert timedelta(minutes=12, seconds=50) < left <= timedelta(minutes=13)
    assert last_summary(tournament) == (
        "Hand-for-hand: every table is done, the bubble has burst: "
        "hand-for-hand ended, the clock runs again"
    )
    action_undo_last(on_bubble.pk, by=director)
    tournament = reload(on_bubble)
    assert tournament.hand_for_hand and tournament.paused_remaining == timedelta(minutes=15)
    assert hand_for_hand(tournament)["hand"] == 1
    action_undo_last(on_bubble.pk, by=director)
    assert reload(players["Dee"]).state == EntryState.PLAYING


def test_an_elimination_before_the_bubble_keeps_it_on(
    running_clock: Tournament,
    players: dict[str, Entry],
    director: User,
    django_capture_on_commit_callbacks,
) -> None:  # type: ignore[no-untyped-def]
    clock_hand_for_hand_start(running_clock.pk, by=director, now=at(5))
    with django_capture_on_commit_callbacks(execute=True):
        entry_eliminate(running_clock.pk, [players["Eve"].pk], by=director)
    assert reload(running_clock).hand_for_hand
    assert last_summary(running_clock).startswith("Out: Eve")


@pytest.mark.parametrize(
    ("situation", "message"),
    [
        ("one table", "one table"),
        ("not started", "has not started"),
        ("on a break", "break"),
        ("in the money", "in the money"),
        ("online", "Online"),
    ],
)
def test_hand_for_hand_is_refused_when_it_makes_no_sense(
    running_clock: Tournament,
    players: dict[str, Entry],
    director: User,
    situation: str,
    message: str,
) -> None:
    if situation == "one table":
        for seat_number, name in enumerate(["Dee", "Eve"], start=4):
            Entry.objects.filter(pk=players[name].pk).update(
                table_number=1, seat_number=seat_number
            )
    elif situation == "not started":
        Tournament.objects.filter(pk=running_clock.pk).update(level_ends_at=None)
    elif situation == "on a break":
        clock_break_now(running_clock.pk, by=director, now=at(2))
    elif situation == "in the money":
        for name in ("Eve", "Cal"):
            entry_eliminate(running_clock.pk, [players[name].pk], by=director)
    else:
        Tournament.objects.filter(pk=running_clock.pk).update(online=True)
    version = reload(running_clock).clock_version
    with pytest.raises(TournamentError, match=message):
        clock_hand_for_hand_start(running_clock.pk, by=director, now=at(5))
    assert not reload(running_clock).hand_for_hand
    assert reload(running_clock).clock_version == version


# ---------------------------------------------------------------------------- the screens


def test_the_tv_shows_hand_for_hand_and_the_tables_still_playing(
    client: Client, on_bubble_now: Tournament, director: User
) -> None:
    clock_hand_for_hand_start(on_bubble_now.pk, by=director)
    clock_hand_done(on_bubble_now.pk, None, hand=0, by=director)
    clock_hand_done(on_bubble_now.pk, 1, hand=1, by=director)
    page = client.get(reverse("tournaments:tv_clock", args=[on_bubble_now.tv_token])).content
    text = page.decode()
    assert "Hand-for-hand" in text
    assert "Hand 1 · Still playing: table 2" in text
    data = client.get(reverse("tournaments:tv_clock_json", args=[on_bubble_now.tv_token])).json()
    assert data["hand_for_hand"]["playing"] == [2]


def test_the_console_has_a_button_per_table_and_the_dealers_links(
    director_client: Client, on_bubble_now: Tournament, director: User
) -> None:
    url = reverse("tournaments:clock_hand_for_hand_start", args=[on_bubble_now.pk])
    response = director_client.post(url, **HTMX)
    assert response.status_code == 200 and response["HX-Trigger"] == "tournament-changed"
    page = response.content.decode()
    done_url = reverse("tournaments:clock_hand_done", args=[on_bubble_now.pk])
    assert page.count(f'action="{done_url}"') == 3  # table 1, table 2, every table
    for table in (1, 2):
        key = clock_dealer_key(reload(on_bubble_now), table)
        assert reverse("tournaments:clock_dealer", args=[on_bubble_now.pk, table, key]) in page
    response = director_client.post(done_url, {"table": "2", "hand": "0"}, **HTMX)
    assert response.status_code == 200
    assert hand_for_hand(on_bubble_now)["playing"] == [1]
    response = director_client.post(done_url, {"table": "2", "hand": "0"}, **HTMX)
    # Refusals come back in the clock section (200: htmx swaps no 4xx answer).
    assert response.status_code == 200 and "already" in response.content.decode()
    response = director_client.post(done_url, {"table": "x", "hand": "0"}, **HTMX)
    assert response.status_code == 200 and 'role="alert"' in response.content.decode()
    stop = reverse("tournaments:clock_hand_for_hand_stop", args=[on_bubble_now.pk])
    assert director_client.post(stop, **HTMX).status_code == 200
    assert not reload(on_bubble_now).hand_for_hand


def test_the_dealer_page_reports_its_table_without_a_login(
    client: Client, on_bubble_now: Tournament, director: User
) -> None:
    clock_hand_for_hand_start(on_bubble_now.pk, by=director)
    key = clock_dealer_key(reload(on_bubble_now), 2)
    url = reverse("tournaments:clock_dealer", args=[on_bubble_now.pk, 2, key])
    page = client.get(url).content.decode()
    assert "Table 2" in page and "Hand done" in page
    response = client.post(url, {"hand": "0"})
    assert response.status_code == 302
    assert hand_for_hand(on_bubble_now)["done"] == [2]
    action = TournamentAction.objects.filter(tournament=on_bubble_now).latest("pk")
    assert action.summary == "Hand-for-hand: table 2 is done" and action.by is None
    page = client.get(url).content.decode()
    assert "Still playing: table 1" in page
    # A stale page (hand 0 already reported) is refused with its reason.
    response = client.post(url, {"hand": "0"}, follow=True)
    assert "already" in response.content.decode()


def test_a_dealer_link_works_for_its_own_table_only(
    client: Client, on_bubble_now: Tournament
) -> None:
    key = clock_dealer_key(on_bubble_now, 2)
    assert (
        client.get(reverse("tournaments:clock_dealer", args=[on_bubble_now.pk, 1, key])).status_code
        == 404
    )
    bad = reverse("tournaments:clock_dealer", args=[on_bubble_now.pk, 2, "0" * len(key)])
    assert client.get(bad).status_code == 404
    assert client.post(bad, {"hand": "0"}).status_code == 404
