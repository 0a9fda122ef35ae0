"""Online tournaments: live tables dealt at the level in force, eliminations and
places from each hand's end, balancing between hands, hand-for-hand, pause, a whole
tournament of bots, and its hand histories."""

from __future__ import annotations

import io
import json
import random
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import override_settings

from series.models import Player
from tables.engine.phh import read_hands, replay_entry
from tables.models import Hand, Seat, SeatState
from tables.models import Table as LiveTable
from tables.services import hand_ended
from tournaments import seat_rules as rules
from tournaments.models import Entry, EntryState, Tournament, TournamentState, TournamentTable
from tournaments.services import lifecycle, online
from tournaments.services.clock.controls import clock_next
from tournaments.services.clock.sweep import clock_sweep
from tournaments.services.seating import balance_threshold
from tournaments.services.simulate import Simulation, director_user, tournament_simulate
from tournaments.services.simulate import blind_structure_for as sim_blind_structure

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

FAST = {
    "TABLES_SCHEDULE_TASKS": False,
    "TOURNAMENTS_SCHEDULE_TASKS": False,
    "TABLES_NEXT_HAND_DELAY_MS": 0,
    "TABLES_RUNOUT_STEP_MS": 0,
}


def _tournament(players: int, seats_per_table: int, **settings: Any) -> Tournament:
    """An online tournament of house bots, started: its live tables open, none dealt yet
    (no Celery in tests: nothing ticks them)."""
    from datetime import timedelta

    from django.utils import timezone

    from series.models import Event, Season

    today = timezone.localdate()
    season = Season.objects.create(
        name="Online", starts_on=today - timedelta(days=1), ends_on=today + timedelta(days=9)
    )
    event = Event.objects.create(
        season=season,
        name="Online PLO8",
        starts_at=timezone.now(),
        buy_in=20,
        starting_stack=1000,
    )
    director = director_user()
    tournament = Tournament.objects.create(
        event=event,
        blind_structure=sim_blind_structure(1000, limit=False),
        online=True,
        seats_per_table=seats_per_table,
        **settings,
    )
    online.online_bots_fill(tournament.pk, players, by=director)
    lifecycle.tournament_start(tournament.pk, by=director, now=timezone.now())
    return Tournament.objects.get(pk=tournament.pk)


def _live(tournament: Tournament) -> dict[int, LiveTable]:
    return {
        tt.number: tt.live_table
        for tt in TournamentTable.objects.select_related("live_table").filter(
            tournament=tournament, broken_at__isnull=True
        )
    }


def _fake_hand(table: LiveTable, changes: dict[int, int], winner: int) -> dict[str, Any]:
    """Play a hand by hand: seat -> chips after (the winner takes what the others lost); the
    table ends the hand held, as a tournament table does, and says what hand_ended says."""
    seats = {s.number: s for s in table.seats.filter(user__isnull=False)}
    report = []
    lost = 0
    for number, after in changes.items():
        seat = seats[number]
        lost += seat.stack - after
        report.append(
            {"seat": number, "user_id": seat.user_id, "before": seat.stack, "after": after}
        )
        seat.stack = after
        seat.save(update_fields=["stack"])
    win = seats[winner]
    report.append(
        {"seat": winner, "user_id": win.user_id, "before": win.stack, "after": win.stack + lost}
    )
    win.stack += lost
    win.save(update_fields=["stack"])
    table.hand_count += 1
    table.held = True
    table.next_hand_at = None
    table.save(update_fields=["hand_count", "held", "next_hand_at"])
    return {
        "seats": report,
        "pots": [{"pot": 0, "winners": [winner]}],
        "eliminated_in": {n: 0 for n, after in changes.items() if after == 0},
    }


@pytest.fixture
def unthrottled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests that drive the bots themselves do so with no thinking time: a pot-limit
    raising war between two bots would pass the flood limit meant for players' sockets
    (20 frames in 2 s), and the hand would stall."""
    monkeypatch.setattr("tables.protocol.frame_allowed", lambda user: True)


def _entry_at(table: LiveTable, seat: int) -> Entry:
    user_id = table.seats.get(number=seat).user_id
    return Entry.objects.get(player__user_id=user_id, state=EntryState.PLAYING)


# ------------------------------------------------------------------------- live tables


def test_start_opens_a_live_table_per_drawn_table_with_the_starting_stacks(db: None) -> None:
    tournament = _tournament(10, 6)
    live = _live(tournament)
    assert len(live) == 2
    for number, table in live.items():
        seats = list(table.seats.filter(user__isnull=False))
        assert {s.stack for s in seats} == {1000}
        assert table.is_tournament and not table.held and table.next_hand_at is not None
        assert (table.small_blind, table.big_blind) == (5, 10)
        # Entry.table_number / seat_number name the live seat.
        for seat in seats:
            entry = Entry.objects.get(player__user_id=seat.user_id)
            assert (entry.table_number, entry.seat_number) == (number, seat.number)


def test_a_new_level_applies_from_the_next_hand(transactional_db: None) -> None:
    # TDA 23: "the new level applies to the next hand"; a hand in play keeps its blinds.
    with override_settings(**FAST):
        tournament = _tournament(4, 6)
        (table,) = _live(tournament).values()
        from django.utils import timezone

        from tables.services import table_tick

        assert table_tick(table.pk, timezone.now())
        hand = Hand.objects.get(table=table)
        clock_next(tournament.pk, by=None)
        table.refresh_from_db()
        assert table.big_blind == 15  # set for the next hand
        from tables.runtime.state import engine_of

        assert engine_of(hand).config.big_blind == 10  # the hand in play keeps its level


def test_cash_table_services_are_refused_at_a_tournament_table(db: None) -> None:
    from tables.services import TableError, seat_leave

    tournament = _tournament(4, 6)
    (table,) = _live(tournament).values()
    user = table.seats.filter(user__isnull=False).first().user
    with pytest.raises(TableError) as error:
        seat_leave(table.pk, user)
    assert error.value.code == "tournament"


def test_an_away_player_is_dealt_in_and_blinded_away(transactional_db: None) -> None:
    from django.utils import timezone

    from tables.services import table_tick

    with override_settings(**FAST):
        tournament = _tournament(3, 6)
        (table,) = _live(tournament).values()
        Seat.objects.filter(table=table, user__isnull=False).update(
            bot_style="", state=SeatState.SITTING_OUT, sat_out_reason="timed out"
        )
        assert table_tick(table.pk, timezone.now())
        hand = Hand.objects.get(table=table)
        # Everyone away: each posts, is checked or folded at once; the hand ends by itself.
        assert hand.ended_at is not None
        assert Seat.objects.filter(table=table, user__isnull=False).count() == 3


def test_house_bots_that_timed_out_sit_back_in_and_play_their_own_hands(
    transactional_db: None, unthrottled: None
) -> None:
    # Seen live: two house bots "timed out" and sat out, and from then on the time-out rule
    # played every hand for them. A bot never stays away: it is back for the next hand.
    from django.utils import timezone

    from tables.bots import bot_move
    from tables.services import table_tick

    with override_settings(**FAST):
        tournament = _tournament(2, 6)
        (table,) = _live(tournament).values()
        Seat.objects.filter(table=table, user__isnull=False).update(
            state=SeatState.SITTING_OUT, sat_out_reason="timed out"
        )
        assert table_tick(table.pk, timezone.now())
        hand = Hand.objects.get(table=table)
        seats = Seat.objects.filter(table=table, user__isnull=False)
        assert {(s.state, s.sat_out_reason) for s in seats} == {(SeatState.PLAYING, "")}
        assert hand.ended_at is None and hand.to_act is not None  # waiting on the bot
        assert bot_move(table.pk)


def _last_level_second(tournament: Tournament) -> None:
    """Cut the structure to its first two levels (5/10, then 7/15, a minute each) and put
    the clock on the second, the last, with its minute running."""
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.models import BlindLevel

    levels = BlindLevel.objects.filter(blind_structure=tournament.blind_structure)
    levels.filter(position__gte=2).delete()
    assert list(levels.order_by("position").values_list("small_blind", "big_blind")) == [
        (5, 10),
        (7, 15),
    ]
    Tournament.objects.filter(pk=tournament.pk).update(
        level_index=1, level_ends_at=timezone.now() + timedelta(minutes=1)
    )


def _a_minute_passes(tournament: Tournament) -> None:
    """The level in play ends: the clock's sweep stores the next one, as on beat."""
    from datetime import timedelta

    from django.utils import timezone

    Tournament.objects.filter(pk=tournament.pk).update(
        level_ends_at=timezone.now() - timedelta(seconds=1)
    )
    assert clock_sweep() == 1


def test_past_the_last_level_the_live_table_deals_doubled_blinds_at_the_next_hand(
    transactional_db: None,
) -> None:
    from django.utils import timezone

    from tables.runtime.state import engine_of
    from tables.services import table_tick

    with override_settings(**FAST):
        tournament = _tournament(4, 6)
        _last_level_second(tournament)
        (table,) = _live(tournament).values()
        _a_minute_passes(tournament)  # the last level (7/15) is over: 14/30 follows
        table.refresh_from_db()
        assert (table.small_blind, table.big_blind) == (14, 30)
        assert table_tick(table.pk, timezone.now())
        hand = Hand.objects.get(table=table)
        assert (engine_of(hand).config.small_blind, engine_of(hand).config.big_blind) == (14, 30)
        _a_minute_passes(tournament)
        table.refresh_from_db()
        assert table.big_blind == 60  # for the next hand; the hand in play keeps 30
        assert engine_of(Hand.objects.get(pk=hand.pk)).config.big_blind == 30


def test_two_away_players_heads_up_after_the_last_level_end_with_one_busted(
    transactional_db: None,
) -> None:
    # Seen live: two players timed out, heads-up at the structure's last level; every hand
    # the small blind folded (check if free, else fold) and the stacks swapped back and
    # forth for ever. Each hand is played at once (nobody is waited for), and the levels
    # after the last double the blinds until the stacks must go in.
    from django.utils import timezone

    from tables.services import table_tick

    with override_settings(**FAST):
        tournament = _tournament(2, 6)
        _last_level_second(tournament)
        (table,) = _live(tournament).values()
        Seat.objects.filter(table=table, user__isnull=False).update(
            bot_style="", state=SeatState.SITTING_OUT, sat_out_reason="timed out"
        )
        for _hand in range(40):
            assert table_tick(table.pk, timezone.now())
            hand = Hand.objects.filter(table=table).order_by("-number").first()
            for _street in range(5):
                if hand.ended_at is not None:
                    break
                # All in: the board is dealt street by street; no turn waits on anybody.
                assert hand.to_act is None and hand.reveal_at is not None
                assert table_tick(table.pk, hand.reveal_at)
                hand.refresh_from_db()
            assert hand.ended_at is not None
            tournament.refresh_from_db()
            if tournament.state == TournamentState.FINISHED:
                break
            _a_minute_passes(tournament)
        tournament.refresh_from_db()
        assert tournament.state == TournamentState.FINISHED, f"{hand.number} hands, no winner"
        assert sorted(e.place for e in Entry.objects.filter(tournament=tournament)) == [1, 2]


# ------------------------------------------------------------------------- eliminations


def test_two_out_on_one_hand_are_ranked_by_their_starting_stacks(db: None) -> None:
    # docs/rules.md "Eliminations": "two or more out on the same hand: the one who started the
    # hand with more chips finishes higher; equal stacks share the places and their prizes".
    tournament = _tournament(5, 6, bounty=5)
    (table,) = _live(tournament).values()
    seats = sorted(table.seats.filter(user__isnull=False), key=lambda s: s.number)
    Seat.objects.filter(pk=seats[0].pk).update(stack=600)
    Seat.objects.filter(pk=seats[1].pk).update(stack=1400)
    first, second, third = (_entry_at(table, s.number) for s in seats[:3])
    table.refresh_from_db()
    report = _fake_hand(table, {seats[0].number: 0, seats[1].number: 0}, seats[2].number)
    assert online.online_hand_ended(table.pk, table.hand_count, **report)
    first.refresh_from_db()
    second.refresh_from_db()
    third.refresh_from_db()
    assert (second.place, first.place) == (4, 5)
    assert first.state == second.state == EntryState.OUT
    # The pot's winner knocked both out and takes both bounties.
    assert first.eliminated_by == third and third.bounties == 10 and third.knockouts_count == 2
    assert not Seat.objects.filter(table=table, user_id=first.player.user_id).exists()
    # A repeated "hand ended" changes nothing.
    assert not online.online_hand_ended(table.pk, table.hand_count, **report)


def test_equal_stacks_out_on_one_hand_share_the_places(db: None) -> None:
    tournament = _tournament(4, 6)
    (table,) = _live(tournament).values()
    seats = sorted(table.seats.filter(user__isnull=False), key=lambda s: s.number)
    a, b = _entry_at(table, seats[0].number), _entry_at(table, seats[1].number)
    report = _fake_hand(table, {seats[0].number: 0, seats[1].number: 0}, seats[2].number)
    online.online_hand_ended(table.pk, table.hand_count, **report)
    a.refresh_from_db()
    b.refresh_from_db()
    assert a.place == b.place == 3


def test_a_split_pot_splits_the_bounty(db: None) -> None:
    # The house rule: "bounties go to whoever won the pot that eliminated the player (a split pot
    # splits the bounty)".
    tournament = _tournament(4, 6, bounty=6)
    (table,) = _live(tournament).values()
    seats = sorted(table.seats.filter(user__isnull=False), key=lambda s: s.number)
    report = _fake_hand(table, {seats[0].number: 0, seats[2].number: 1000}, seats[1].number)
    report["pots"] = [{"pot": 0, "winners": [seats[1].number, seats[2].number]}]
    high, low = _entry_at(table, seats[1].number), _entry_at(table, seats[2].number)
    online.online_hand_ended(table.pk, table.hand_count, **report)
    high.refresh_from_db()
    low.refresh_from_db()
    assert (high.bounties, low.bounties) == (3, 3)


# ------------------------------------------------------------------------- hand-for-hand


def test_hand_for_hand_waits_for_every_table_and_players_out_share_the_places(
    db: None,
) -> None:
    # docs/rules.md "Hand-for-hand (RP-8)": "every table plays one hand, then waits for all;
    # players out on the same hand-for-hand hand share the place(s) paid; the clock loses at
    # most 3 minutes per hand".
    tournament = _tournament(
        10, 5, payout_basis_points=[3000, 2500, 2000, 1500, 600, 400], hand_for_hand_minutes=2
    )
    live = _live(tournament)
    assert len(live) == 2
    one, two = live.values()

    def bust(table: LiveTable, count: int) -> None:
        table.refresh_from_db()
        seats = sorted(table.seats.filter(user__isnull=False), key=lambda s: s.number)
        changes = {s.number: 0 for s in seats[:count]}
        report = _fake_hand(table, changes, seats[-1].number)
        online.online_hand_ended(table.pk, table.hand_count, **report)

    bust(one, 1)
    bust(two, 2)  # 7 left, 6 paid: the bubble
    tournament.refresh_from_db()
    assert tournament.hand_for_hand and tournament.paused_remaining is not None
    remaining = tournament.paused_remaining
    one.refresh_from_db()
    two.refresh_from_db()
    assert not one.held and not two.held  # the first hand-for-hand hand, dealt everywhere

    tables_now = _live(tournament)
    a, b = tables_now.values()
    a_out = _entry_at(a, sorted(s.number for s in a.seats.filter(user__isnull=False))[0])
    b_out = _entry_at(b, sorted(s.number for s in b.seats.filter(user__isnull=False))[0])
    bust(a, 1)
    a.refresh_from_db()
    b.refresh_from_db()
    assert a.held and not b.held  # table a waits for table b's hand
    bust(b, 1)
    a_out.refresh_from_db()
    b_out.refresh_from_db()
    assert a_out.place == b_out.place == 6
    # Places 6 and 7 shared: the 6th prize (4% of 200) split, place 7 pays nothing.
    assert a_out.prize == b_out.prize == 4
    tournament.refresh_from_db()
    assert not tournament.hand_for_hand  # the bubble has burst
    assert tournament.paused_remaining is None  # the clock runs again
    assert remaining is not None


# ------------------------------------------------------------------------- pause


def test_pause_holds_every_table_and_resume_deals_again(db: None) -> None:
    tournament = _tournament(10, 6)
    director = director_user()
    online.online_pause(tournament.pk, by=director)
    for table in _live(tournament).values():
        assert table.held and table.next_hand_at is None
    tournament.refresh_from_db()
    assert tournament.paused_remaining is not None
    online.online_resume(tournament.pk, by=director)
    for table in _live(tournament).values():
        assert not table.held and table.next_hand_at is not None
    tournament.refresh_from_db()
    assert tournament.paused_remaining is None


def test_a_pause_mid_hand_lets_each_hand_finish_and_no_table_deals_until_resumed(
    transactional_db: None, unthrottled: None
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from tables.bots import bot_move
    from tables.services import table_tick

    with override_settings(**FAST):
        tournament = _tournament(10, 6)
        live = _live(tournament)
        assert len(live) == 2
        for table in live.values():
            assert table_tick(table.pk, timezone.now())
        assert Hand.objects.filter(table__in=live.values(), ended_at__isnull=True).count() == 2
        director = director_user()
        online.online_pause(tournament.pk, by=director)
        # The hands in play go on to their ends: the house bots keep acting.
        for table in live.values():
            for _ in range(200):
                if not Hand.objects.filter(table=table, ended_at__isnull=True).exists():
                    break
                bot_move(table.pk) or table_tick(table.pk, timezone.now())
            assert not Hand.objects.filter(table=table, ended_at__isnull=True).exists()
        # Whatever runs meanwhile (the tables' ticks, the sweeps, a clock change), no table
        # deals again while the tournament is paused.
        # (A hand's end may have broken a table and opened another: count the hands.)
        dealt_before = Hand.objects.filter(table__tournament_table__tournament=tournament).count()
        much_later = timezone.now() + timedelta(hours=1)
        for table in live.values():
            table_tick(table.pk, much_later)
        online.online_sweep()
        online.online_tables_release(tournament.pk)
        clock_sweep(much_later)
        for table in _live(tournament).values():
            table_tick(table.pk, much_later)
            table.refresh_from_db()
            assert table.held and table.next_hand_at is None
        assert (
            Hand.objects.filter(table__tournament_table__tournament=tournament).count()
            == dealt_before
        )
        assert not Hand.objects.filter(table__in=live.values(), ended_at__isnull=True).exists()
        online.online_resume(tournament.pk, by=director)
        dealt = [
            table_tick(table.pk, much_later)
            for table in _live(tournament).values()
            if table.seats.filter(user__isnull=False, stack__gt=0).count() >= 2
        ]
        assert dealt and all(dealt)
        assert Hand.objects.filter(
            table__tournament_table__tournament=tournament, ended_at__isnull=True
        ).exists()


def test_chips_added_mid_hand_play_from_the_next_hand(transactional_db: None) -> None:
    from django.utils import timezone

    from tables.services import table_tick

    with override_settings(**FAST):
        tournament = _tournament(3, 6)
        (table,) = _live(tournament).values()
        assert table_tick(table.pk, timezone.now())
        seat = table.seats.filter(user__isnull=False).first()
        entry = Entry.objects.get(player__user_id=seat.user_id)
        before = seat.stack
        online.online_chips_add(entry.pk, 500)
        seat.refresh_from_db()
        assert seat.adding == 500 and seat.stack == before


# ------------------------------------------------------------------------- a whole tournament


def _chips_in_play(tournament: Tournament) -> int:
    """Every chip of the tournament: the stacks at its open live tables, counting a hand in
    play at the stacks it started with (its pot is those chips)."""
    total = 0
    live_ids = list(
        TournamentTable.objects.filter(
            tournament=tournament, live_table__closed_at__isnull=True
        ).values_list("live_table_id", flat=True)
    )
    in_hand: dict[int, dict[int, int]] = {}
    for hand in Hand.objects.filter(table_id__in=live_ids, ended_at__isnull=True):
        in_hand[hand.table_id] = {hp.seat: hp.stack_before for hp in hand.handplayer_set.all()}
    for seat in Seat.objects.filter(table_id__in=live_ids, user__isnull=False):
        dealt = in_hand.get(seat.table_id, {})
        total += dealt.get(seat.number, seat.stack) + seat.adding
    return total


@pytest.mark.long
def test_thirty_bots_play_five_tables_to_one_winner(transactional_db: None) -> None:
    checks = Counter()
    thresholds_broken: list[str] = []

    def after_hand(sender: Any, table_id: int, **kwargs: Any) -> None:
        # Runs after the tournament's own receiver: the hand is dealt with, moves made.
        tt = (
            TournamentTable.objects.filter(live_table_id=table_id)
            .select_related("tournament")
            .first()
        )
        if tt is None:
            return
        checks["hand_for_hand"] += tt.tournament.hand_for_hand
        if tt.broken_at is not None or tt.tournament.state != "running":
            return
        counts = {
            t.number: Seat.objects.filter(table_id=t.live_table_id, user__isnull=False).count()
            for t in TournamentTable.objects.filter(
                tournament=tt.tournament, broken_at__isnull=True
            )
        }
        if len(counts) < 2:
            return
        limit = balance_threshold(tt.tournament, len(counts))
        views = [
            rules.TableView(n, {s: (n * 100 + s if s <= c else None) for s in range(1, 7)})
            for n, c in counts.items()
        ]
        if rules.should_break(views, 6) is not None or rules.final_table_due(views, 6):
            return  # a table breaks (or the final table is drawn) when its hand ends
        # TDA 11A: players move from the fullest table (a fixed procedure); the table whose
        # hand just ended, between hands, has made every move it owes.
        if any(m.from_table == tt.number for m in rules.balance_moves(views, limit)):
            thresholds_broken.append(f"table {tt.number}: {counts}")
        checks["balance"] += 1

    def step(sim: Simulation) -> None:
        t = Tournament.objects.get(pk=sim.tournament.pk)
        if t.state != TournamentState.RUNNING:
            return
        assert _chips_in_play(t) == 30 * 1000
        seated = list(
            Seat.objects.filter(
                table__tournament_table__tournament=t,
                table__closed_at__isnull=True,
                user__isnull=False,
            ).values_list("user_id", "table__tournament_table__number", "number", "stack")
        )
        users = Counter(user for user, _, _, _ in seated)
        assert max(users.values()) == 1  # nobody in two seats
        playing = Entry.objects.filter(tournament=t, state=EntryState.PLAYING).select_related(
            "player"
        )
        where = {user: (table, seat) for user, table, seat, _ in seated}
        for entry in playing:
            # Nobody in none either, and the entry names the live seat.
            assert where[entry.player.user_id] == (entry.table_number, entry.seat_number)
        checks["steps"] += 1

    hand_ended.connect(after_hand)
    try:
        with override_settings(**FAST):
            sim = tournament_simulate(
                players=30,
                seats_per_table=6,
                seed=13,
                level_seconds=1.0,
                starting_stack=1000,
                bounty=5,
                # Nine places paid: the bubble (10 left) comes with two tables or more.
                payout_basis_points=[2800, 1500, 1200, 1000, 900, 800, 700, 600, 500],
                on_step=step,
            )
    finally:
        hand_ended.disconnect(after_hand)
    assert not thresholds_broken
    tournament = sim.tournament
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED
    entries_all = list(Entry.objects.filter(tournament=tournament))
    assert len(entries_all) == 30
    places = sorted(e.place for e in entries_all)
    assert places[0] == 1 and places.count(1) == 1
    # Tied places share: every place k is taken by as many players as the places it spans.
    ranked = Counter(places)
    for place, count in ranked.items():
        assert all(p not in ranked for p in range(place + 1, place + count))
    summary = sim.summary()
    assert sum(p["prize"] for p in summary["places"]) == summary["prize_pool"] == 30 * 15
    # Every bounty went to someone: 29 knocked out, the winner keeps their own.
    assert sum(e.bounties for e in entries_all) == 30 * 5
    assert not LiveTable.objects.filter(
        tournament_table__tournament=tournament, closed_at__isnull=True
    ).exists()
    assert checks["steps"] > 0 and checks["balance"] > 0
    # The money bubble: hand-for-hand was played there (ten left, nine paid), unless one
    # hand jumped over it (players out together from more than ten to fewer).
    paid = 9
    groups: dict[int, list[int]] = {}
    for e in entries_all:
        if e.out_hand is not None:
            groups.setdefault(e.out_hand, []).append(e.place)
    jumped = any(min(g) + len(g) - 1 > paid + 1 and min(g) - 1 < paid + 1 for g in groups.values())
    assert checks["hand_for_hand"] > 0 or jumped
    assert not tournament.hand_for_hand

    # The hand histories: one .phhs, every hand in the order dealt, each replayable.
    out = io.StringIO()
    call_command("export_phh", tournament=tournament.pk, stdout=out)
    hands = read_hands("t.phhs", out.getvalue())
    assert len(hands) == summary["hands"]
    first = hands[0]
    assert {"players", "table", "starting_stacks", "finishing_stacks", "level"} <= set(
        first.data or {}
    )
    for entry in hands[:20]:
        assert "error" not in replay_entry(entry), replay_entry(entry)
    json.dumps(summary)


def test_bots_fill_refuses_a_tournament_not_online(db: None) -> None:
    from tournaments.errors import TournamentError

    tournament = _tournament(2, 6)
    Tournament.objects.filter(pk=tournament.pk).update(online=False)
    with pytest.raises(TournamentError):
        online.online_bots_fill(tournament.pk, 2, by=director_user())


def test_bot_players_are_series_players_linked_to_bot_accounts(db: None) -> None:
    tournament = _tournament(3, 6)
    players = Player.objects.filter(entries__tournament=tournament)
    assert players.count() == 3
    for player in players:
        assert isinstance(player.user, User) and player.user.username.startswith("bot-")
    assert random  # the module's seedable draw is used by the simulation


def test_the_console_pauses_and_resumes_an_online_tournament(db: None) -> None:
    from django.test import Client
    from django.urls import reverse

    tournament = _tournament(10, 6)
    client = Client()
    client.force_login(director_user())
    page = client.get(reverse("tournaments:console", args=[tournament.pk]))
    assert "Pause the tournament" in page.content.decode()
    client.post(reverse("tournaments:console_online_pause", args=[tournament.pk]))
    tournament.refresh_from_db()
    assert tournament.online_paused
    assert all(t.held for t in _live(tournament).values())
    page = client.get(reverse("tournaments:console", args=[tournament.pk]))
    assert "Resume the tournament" in page.content.decode()
    client.post(reverse("tournaments:console_online_resume", args=[tournament.pk]))
    tournament.refresh_from_db()
    assert not tournament.online_paused


def test_a_player_cannot_pause_the_tournament(db: None, player_client: Any) -> None:
    from django.urls import reverse

    tournament = _tournament(4, 6)
    response = player_client.post(reverse("tournaments:console_online_pause", args=[tournament.pk]))
    assert response.status_code == 403
    tournament.refresh_from_db()
    assert not tournament.online_paused


def test_a_lost_hand_end_is_dealt_with_by_the_sweep(
    transactional_db: None, unthrottled: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.utils import timezone

    from tables.bots import bot_move
    from tables.services import table_tick

    def died(*args: Any, **kwargs: Any) -> bool:
        raise RuntimeError("the process died before the tournament dealt with the hand")

    with override_settings(**FAST):
        tournament = _tournament(3, 6)
        (table,) = _live(tournament).values()
        # The tournament heard of the hand's end, but its work on it never finished: the
        # table stays held, and the hand unseen.
        with monkeypatch.context() as patched:
            patched.setattr(online, "online_hand_ended", died)
            assert table_tick(table.pk, timezone.now())
            for _ in range(200):
                if not Hand.objects.filter(table=table, ended_at__isnull=True).exists():
                    break
                bot_move(table.pk) or table_tick(table.pk, timezone.now())
        table.refresh_from_db()
        tt = TournamentTable.objects.get(live_table=table)
        assert table.held and tt.hand_seen == 0
        assert online.online_sweep() == 1
        tt.refresh_from_db()
        table.refresh_from_db()
        assert tt.hand_seen == 1
        assert (
            not table.held
            or not Entry.objects.filter(tournament=tournament, state=EntryState.PLAYING).count() > 1
        )


def test_a_directors_seat_change_or_elimination_is_refused_online(db: None) -> None:
    from tournaments.errors import TournamentError
    from tournaments.services import results, seating, undo

    tournament = _tournament(10, 6)
    director = director_user()
    entry = Entry.objects.filter(tournament=tournament, state=EntryState.PLAYING).first()
    with pytest.raises(TournamentError):
        seating.seating_move_confirm(tournament.pk, entry.pk, 2, 6, by=director)
    with pytest.raises(TournamentError):
        results.entry_eliminate(tournament.pk, [entry.pk], by=director)
    with pytest.raises(TournamentError):
        undo.action_undo_last(tournament.pk, by=director)  # the start: the tables deal
    assert _live(tournament)


def test_a_break_holds_the_tables_and_the_next_level_deals_again(db: None) -> None:
    from tournaments.models import BlindLevel, LevelKind

    tournament = _tournament(10, 6)
    BlindLevel.objects.filter(blind_structure=tournament.blind_structure, position=1).update(
        kind=LevelKind.BREAK, small_blind=0, big_blind=0
    )
    clock_next(tournament.pk, by=None)  # the break
    online.online_tables_release(tournament.pk)
    assert all(t.held and t.next_hand_at is None for t in _live(tournament).values())
    clock_next(tournament.pk, by=None)  # level 2
    online.online_tables_release(tournament.pk)
    tables_now = _live(tournament).values()
    assert all(not t.held and t.next_hand_at is not None for t in tables_now)
    assert {t.big_blind for t in tables_now} == {20}


def test_busted_players_are_never_moved_while_their_hand_end_waits(db: None) -> None:
    # Two processes: table one's hand ended (three out) but the tournament has not heard yet
    # when table two's hand end comes. Nothing is redrawn and table one is not released
    # until its news arrives; then the final table seats only players with chips.
    tournament = _tournament(10, 6)
    one, two = _live(tournament).values()
    seats_one = sorted(one.seats.filter(user__isnull=False), key=lambda s: s.number)
    seats_two = sorted(two.seats.filter(user__isnull=False), key=lambda s: s.number)
    late = _fake_hand(one, {s.number: 0 for s in seats_one[:3]}, seats_one[-1].number)
    report = _fake_hand(two, {seats_two[0].number: 0}, seats_two[-1].number)
    online.online_hand_ended(two.pk, two.hand_count, **report)
    assert set(_live(tournament).values()) == {one, two}
    one.refresh_from_db()
    assert one.held and one.closed_at is None
    assert one.seats.filter(user__isnull=False).count() == 5  # the three out still sit there
    online.online_hand_ended(one.pk, one.hand_count, **late)
    (final,) = _live(tournament).values()
    seated = list(final.seats.filter(user__isnull=False))
    assert len(seated) == 6 and all(s.stack > 0 for s in seated)
    one.refresh_from_db()
    assert one.closed_at is not None
    playing = Entry.objects.filter(tournament=tournament, state=EntryState.PLAYING)
    assert playing.count() == 6
    for entry in playing:
        seat = final.seats.get(user_id=entry.player.user_id)
        assert (entry.seat_number, entry.table_number) == (seat.number, 3)
    out = Entry.objects.filter(tournament=tournament, state=EntryState.OUT)
    assert sorted(e.place for e in out) == [7, 7, 7, 10]


def test_no_one_is_moved_to_a_seat_a_player_out_still_holds(db: None) -> None:
    # Found by the two-process benchmark ("seat 6 of table 5 is taken"): table three's hand
    # ended with two players out, and table one's hand end, in the other process, balanced
    # before table three's news arrived, taking their seats for open ones. Now table three's
    # own hand end balances, with its seats as they are.
    tournament = _tournament(18, 6)
    one, two, three = _live(tournament).values()
    seats_one = sorted(one.seats.filter(user__isnull=False), key=lambda s: s.number)
    seats_three = sorted(three.seats.filter(user__isnull=False), key=lambda s: s.number)
    out = {s.number: s.user_id for s in seats_three[-2:]}
    late = _fake_hand(three, dict.fromkeys(out, 0), seats_three[0].number)
    report = _fake_hand(one, {seats_one[-1].number: 0}, seats_one[0].number)
    online.online_hand_ended(one.pk, one.hand_count, **report)  # one 5, two 6, three 4
    three.refresh_from_db()
    assert three.held
    assert {s.number: s.user_id for s in three.seats.filter(number__in=out)} == out
    assert two.seats.filter(user__isnull=False).count() == 6  # no one moved yet
    online.online_hand_ended(three.pk, three.hand_count, **late)
    live = _live(tournament)
    counts = {n: t.seats.filter(user__isnull=False).count() for n, t in live.items()}
    assert counts == {1: 5, 2: 5, 3: 5}
    for entry in Entry.objects.filter(tournament=tournament, state=EntryState.PLAYING):
        seat = Seat.objects.get(user_id=entry.player.user_id, table__in=live.values())
        assert seat.stack > 0
        assert (entry.table_number, entry.seat_number) == (
            TournamentTable.objects.get(live_table=seat.table).number,
            seat.number,
        )


def test_the_table_shows_a_hands_end_before_the_tournament_deals_with_it(
    transactional_db: None, monkeypatch: pytest.MonkeyPatch, unthrottled: None
) -> None:
    # The players see the last move of a hand at once; the eliminations and moves the
    # tournament decides (hand_ended) come after the table's news, not before it.
    from django.utils import timezone

    from tables.bots import bot_move
    from tables.runtime import broadcast
    from tables.services import table_tick

    events: list[tuple[str, int]] = []
    send = broadcast.table_changed

    def recorded(table_id: int, version: int, wire: Any = None) -> None:
        events.append(("news", version))
        send(table_id, version, wire)

    def heard(table_id: int, hand_number: int, **kwargs: Any) -> None:
        events.append(("hand_ended", LiveTable.objects.get(pk=table_id).version))

    monkeypatch.setattr(broadcast, "table_changed", recorded)
    # The tournament hears the hand's end here, and only records it: its own work would
    # release the table (a new version).
    monkeypatch.setattr(online, "online_hand_ended", heard)
    with override_settings(**FAST):
        tournament = _tournament(3, 6)
        (table,) = _live(tournament).values()
        assert table_tick(table.pk, timezone.now())
        for _ in range(200):
            if any(kind == "hand_ended" for kind, _ in events):
                break
            bot_move(table.pk) or table_tick(table.pk, timezone.now())
    ended = next(k for k, (kind, _) in enumerate(events) if kind == "hand_ended")
    assert ("news", events[ended][1]) in events[:ended]
