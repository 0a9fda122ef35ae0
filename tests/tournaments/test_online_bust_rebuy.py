"""A player who busts at an online rebuy tournament while they may still rebuy is offered
the rebuy with their seat kept, for the time the director set (60 seconds unless changed,
never past the rebuy period), as card rooms and online sites do; only then are they out.
House bots follow the same rule: they take the rebuy at once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import timezone

from tables import services as tables
from tables.models import Seat
from tables.models import Table as LiveTable
from tests.tournaments.factories import start
from tests.tournaments.levels import BREAK_1, LEVEL_4
from tests.tournaments.online_tables import chips_of, clock_running, seat_online
from tournaments import player_panel
from tournaments.models import Entry, EntryState, Tournament, TournamentState, TournamentTable
from tournaments.services import online, purchases

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

# Ann busts to Ben at table 1; Cal and Dee play on at table 2.
LAYOUT = {1: {1: ("ann", 6000), 3: ("ben", 14000)}, 2: {2: ("cal", 9000), 5: ("dee", 11000)}}


@pytest.fixture
def started(tournament: Tournament, settings: Any) -> Tournament:
    """The night's tournament (two rebuys to level 3) online at level 1, the clock running
    with 20 minutes left, no task scheduled (the tests play what the tasks would)."""
    settings.TABLES_SCHEDULE_TASKS = False
    settings.TOURNAMENTS_SCHEDULE_TASKS = False
    tournament.online = True
    tournament.save(update_fields=["online"])
    start(tournament)
    clock_running(tournament)
    return tournament


@pytest.fixture
def night(started: Tournament) -> dict[str, Entry]:
    return seat_online(started, LAYOUT)


def live(entry: Entry) -> LiveTable:
    return TournamentTable.objects.get(
        tournament_id=entry.tournament_id, number=entry.table_number
    ).live_table


def hand_busts(loser: Entry, winner: Entry) -> None:
    """A hand at their table where ``winner`` takes every chip of ``loser``, ended as a
    tournament table ends it (held, ``hand_ended`` said)."""
    table = live(loser)
    seats = {s.number: s for s in table.seats.filter(user__isnull=False)}
    lost, won = seats[loser.seat_number], seats[winner.seat_number]
    report = [
        {"seat": lost.number, "user_id": lost.user_id, "before": lost.stack, "after": 0},
        {
            "seat": won.number,
            "user_id": won.user_id,
            "before": won.stack,
            "after": won.stack + lost.stack,
        },
    ]
    Seat.objects.filter(pk=won.pk).update(stack=won.stack + lost.stack)
    Seat.objects.filter(pk=lost.pk).update(stack=0)
    table.hand_count += 1
    table.held = True
    table.next_hand_at = None
    table.save(update_fields=["hand_count", "held", "next_hand_at"])
    online.online_hand_ended(
        table.pk,
        table.hand_count,
        seats=report,
        pots=[{"pot": 0, "winners": [won.number]}],
        eliminated_in={lost.number: 0},
    )


def ann_user() -> User:
    return User.objects.get(username="ann")


def test_a_bust_with_a_rebuy_left_keeps_the_seat_and_offers_the_rebuy_for_a_minute(
    night: dict[str, Entry],
) -> None:
    ann = night["ann"]
    before = timezone.now()
    hand_busts(ann, night["ben"])
    ann.refresh_from_db()
    assert ann.state == EntryState.PLAYING
    assert ann.rebuy_offer_until is not None
    assert (
        before + timedelta(seconds=59)
        <= ann.rebuy_offer_until
        <= timezone.now() + timedelta(seconds=60)
    )
    seat = Seat.objects.get(table=live(ann), number=ann.seat_number)
    assert (seat.user_id, seat.stack) == (ann_user().pk, 0)
    assert [p.kind for p in purchases.purchases_for(ann.tournament, ann_user())] == ["rebuy"]


def test_the_rebuy_taken_in_time_plays_on_from_the_next_hand(night: dict[str, Entry]) -> None:
    ann = night["ann"]
    hand_busts(ann, night["ben"])
    purchases.purchase_take(ann.pk, ann_user(), "rebuy", seen=0)
    ann.refresh_from_db()
    assert (ann.state, ann.rebuys, ann.rebuy_offer_until) == (EntryState.PLAYING, 1, None)
    assert chips_of(ann) == 10000
    # Long after the minute, nothing puts her out.
    assert online.online_rebuy_offers_lapse(now=timezone.now() + timedelta(minutes=5)) == 0
    ann.refresh_from_db()
    assert ann.state == EntryState.PLAYING
    # Her table deals again with both players.
    table = live(ann)
    assert not table.held and table.next_hand_at is not None


def test_the_offer_lapses_and_only_then_the_player_is_out(night: dict[str, Entry]) -> None:
    ann, ben = night["ann"], night["ben"]
    hand_busts(ann, ben)
    assert online.online_rebuy_offers_lapse(now=timezone.now() + timedelta(seconds=30)) == 0
    ann.refresh_from_db()
    assert ann.state == EntryState.PLAYING
    assert online.online_rebuy_offers_lapse(now=timezone.now() + timedelta(seconds=61)) == 1
    ann.refresh_from_db()
    assert (ann.state, ann.place, ann.eliminated_by_id) == (EntryState.OUT, 4, ben.pk)
    assert ann.stack_at_hand_start == 6000
    assert ann.rebuy_offer_until is None
    assert not Seat.objects.filter(table=live(ann), user=ann_user()).exists()
    # Out: what she may take now is the re-entry, not the rebuy.
    assert [p.kind for p in purchases.purchases_for(ann.tournament, ann_user())] == ["reentry"]
    # A second sweep changes nothing.
    assert online.online_rebuy_offers_lapse(now=timezone.now() + timedelta(seconds=90)) == 0


def test_the_director_sets_the_time_to_rebuy(night: dict[str, Entry]) -> None:
    ann = night["ann"]
    Tournament.objects.filter(pk=ann.tournament_id).update(rebuy_after_bust_seconds=20)
    hand_busts(ann, night["ben"])
    ann.refresh_from_db()
    assert ann.rebuy_offer_until is not None
    assert ann.rebuy_offer_until <= timezone.now() + timedelta(seconds=20)


def test_the_offer_never_runs_past_the_rebuy_period(night: dict[str, Entry]) -> None:
    ann = night["ann"]
    tournament = Tournament.objects.get(pk=ann.tournament_id)
    # The break after level 3 (a rule "until level 3" holds through it) ends in 30 seconds:
    # level 4 has no rebuys.
    start(tournament, BREAK_1)
    Tournament.objects.filter(pk=tournament.pk).update(
        state=TournamentState.ON_BREAK, level_ends_at=timezone.now() + timedelta(seconds=30)
    )
    hand_busts(ann, night["ben"])
    ann.refresh_from_db()
    closes = timezone.now() + timedelta(seconds=30)
    assert ann.rebuy_offer_until is not None
    assert closes - timedelta(seconds=5) <= ann.rebuy_offer_until <= closes


def test_the_end_of_the_rebuy_period_ends_the_offer(night: dict[str, Entry]) -> None:
    ann = night["ann"]
    hand_busts(ann, night["ben"])
    # The clock moves on to level 4: no more rebuys, so she is out at once.
    tournament = Tournament.objects.get(pk=ann.tournament_id)
    start(tournament, LEVEL_4)
    assert online.online_rebuy_offers_lapse() == 1
    ann.refresh_from_db()
    assert ann.state == EntryState.OUT


def test_a_player_with_no_rebuy_left_is_out_at_once(night: dict[str, Entry]) -> None:
    ann = night["ann"]
    Entry.objects.filter(pk=ann.pk).update(rebuys=2)
    hand_busts(ann, night["ben"])
    ann.refresh_from_db()
    assert (ann.state, ann.rebuy_offer_until) == (EntryState.OUT, None)


def test_a_house_bot_takes_its_rebuy_at_once(started: Tournament) -> None:
    tournament = started
    bot = tables.house_bot_user(f"t{tournament.pk}", 0)
    entries = seat_online(
        tournament, {1: {1: (bot.username, 6000), 3: ("ben", 14000), 5: ("cal", 9000)}}
    )
    robot = entries[bot.username]
    hand_busts(robot, entries["ben"])
    robot.refresh_from_db()
    assert (robot.state, robot.rebuys, robot.rebuy_offer_until) == (EntryState.PLAYING, 1, None)
    assert chips_of(robot) == 10000


def test_the_table_panel_says_how_long_the_seat_is_kept(night: dict[str, Entry]) -> None:
    ann = night["ann"]
    hand_busts(ann, night["ben"])
    ann.refresh_from_db()
    request = RequestFactory().get("/")
    request.user = ann_user()
    panel = player_panel.panel_context(ann.tournament, request, table=live(ann))
    assert panel["rebuy_offer_until"] == ann.rebuy_offer_until
    assert 55 <= panel["rebuy_seconds_left"] <= 60
    html = render_to_string("tournaments/_my_panel.html", {"panel": panel}, request=request)
    assert "No chips left" in html
    assert "seconds (until" in html and "or you are out" in html
    assert "Rebuy: 10,000 chips for" in html


def test_a_house_bot_rebuys_once_then_waits_out_the_offer(started: Tournament) -> None:
    tournament = started
    bot = tables.house_bot_user(f"t{tournament.pk}", 0)
    entries = seat_online(
        tournament, {1: {1: (bot.username, 6000), 3: ("ben", 14000), 5: ("cal", 9000)}}
    )
    robot = entries[bot.username]
    Entry.objects.filter(pk=robot.pk).update(rebuys=1)
    hand_busts(robot, entries["ben"])
    robot.refresh_from_db()
    assert (robot.state, robot.rebuys) == (EntryState.PLAYING, 1)
    assert robot.rebuy_offer_until is not None
    assert online.online_rebuy_offers_lapse(now=timezone.now() + timedelta(seconds=61)) == 1
    robot.refresh_from_db()
    assert robot.state == EntryState.OUT


def test_a_rebuy_taken_while_the_others_play_a_hand_is_on_the_seat_at_once(
    started: Tournament,
) -> None:
    """Ann busts; Ben and Cal are dealt the next hand without her. The rebuy she takes
    during it is not in that hand, so its chips are on her seat at once and she is dealt
    the hand after. (Held back for the hand's end, as chips bought in a hand are, they were
    never added: the hand's end adds chips to its own players only, and a table where
    everyone else went out waited for ever.)"""
    tournament = started
    entries = seat_online(tournament, {1: {1: ("ann", 6000), 3: ("ben", 14000), 5: ("cal", 9000)}})
    ann = entries["ann"]
    hand_busts(ann, entries["ben"])
    table = live(ann)
    assert tables.table_tick(table.pk, now=timezone.now() + timedelta(seconds=30))
    hand = table.hands.get(ended_at__isnull=True)
    assert sorted(hand.handplayer_set.values_list("seat", flat=True)) == [3, 5]

    purchases.purchase_take(ann.pk, ann_user(), "rebuy", seen=0)

    seat = Seat.objects.get(table=table, number=1)
    assert (seat.stack, seat.adding) == (10000, 0)
