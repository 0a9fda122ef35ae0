"""The time bank of an online tournament: each player starts with the director's seconds,
the bank refills once per level (not per hand) up to its cap, and it follows a player moved
to another table.

docs/rules.md, Home-game options: "**Time bank**: extra seconds a player draws on automatically
when their turn's time runs out; it refills by a set amount per hand played (cash) or per
level (tournaments), up to a cap."
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from series.models import Event, Season
from tables import services as tables
from tables.models import Hand, Seat
from tables.models import Table as LiveTable
from tournaments.errors import TournamentError
from tournaments.forms import TournamentForm
from tournaments.models import Tournament, TournamentTable
from tournaments.services import entries, lifecycle, online
from tournaments.services.clock.controls import clock_next
from tournaments.services.simulate import blind_structure_for as sim_blind_structure
from tournaments.services.simulate import director_user

pytestmark = pytest.mark.django_db

START, REFILL, CAP = 20, 10, 40


@pytest.fixture(autouse=True)
def no_tasks(settings: Any) -> None:
    settings.TABLES_SCHEDULE_TASKS = False
    settings.TOURNAMENTS_SCHEDULE_TASKS = False
    settings.TABLES_NEXT_HAND_DELAY_MS = 0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def night(players: int, seats_per_table: int, **settings: Any) -> Tournament:
    """An online tournament of ``players`` people with a time bank, started: its live tables
    open, none dealt yet (nothing ticks them in tests)."""
    today = timezone.localdate()
    season = Season.objects.create(
        name="Online", starts_on=today - timedelta(days=1), ends_on=today + timedelta(days=9)
    )
    event = Event.objects.create(
        season=season, name="Online PLO", starts_at=timezone.now(), buy_in=20, starting_stack=1000
    )
    director = director_user()
    tournament = lifecycle.tournament_create(
        event,
        by=director,
        blind_structure=sim_blind_structure(1000, limit=False),
        online=True,
        seats_per_table=seats_per_table,
        time_bank_seconds=START,
        time_bank_refill_seconds=REFILL,
        time_bank_cap_seconds=CAP,
        **settings,
    )
    for k in range(players):
        entries.entry_register(tournament.pk, User.objects.create_user(f"p{k}", password="x"))
    lifecycle.tournament_start(tournament.pk, by=director, now=timezone.now())
    return Tournament.objects.get(pk=tournament.pk)


def live_tables(tournament: Tournament) -> list[LiveTable]:
    return [
        tt.live_table
        for tt in TournamentTable.objects.select_related("live_table")
        .filter(tournament=tournament, broken_at__isnull=True)
        .order_by("number")
    ]


def banks(table: LiveTable) -> dict[int, tuple[int, int]]:
    """Seat -> (bank in ms, the level it was last refilled for), for the seated."""
    return {
        s.number: (s.time_bank_ms, s.time_bank_level)
        for s in Seat.objects.filter(table=table, user__isnull=False)
    }


def deal(table: LiveTable) -> tuple[Hand, datetime]:
    table.refresh_from_db()
    now = max(table.next_hand_at or timezone.now(), timezone.now())
    assert tables.table_tick(table.pk, now=now)
    return Hand.objects.get(table=table, ended_at__isnull=True), now


def fold_at(table: LiveTable, hand: Hand, now: datetime) -> int:
    """The player to act folds at ``now`` (heads-up, the hand ends); their seat."""
    table.refresh_from_db()
    seat = table.seats.get(number=hand.to_act)
    tables.table_act(table.pk, seat.user, hand.pk, table.version, "fold", now=now)
    return seat.number


def next_level(tournament: Tournament) -> None:
    """The clock moves on and the tournament deals with the hand that ended (as its
    after-commit news and sweep do)."""
    clock_next(tournament.pk, by=None)
    online.online_sweep()
    online.online_tables_release(tournament.pk)


def test_the_bank_refills_once_per_level_up_to_its_cap(db: None) -> None:
    tournament = night(2, 9)
    (table,) = live_tables(tournament)
    assert table.time_bank.on and table.time_bank_level == 1
    # Everyone starts with the director's starting seconds.
    assert set(banks(table).values()) == {(START * 1000, 1)}

    hand, now = deal(table)
    # The deadline the players see includes the bank.
    assert hand.deadline == now + timedelta(seconds=30 + START)
    slow = fold_at(table, hand, now + timedelta(seconds=30 + 15))  # 15 s into the bank
    other = next(n for n in banks(table) if n != slow)
    assert banks(table) == {slow: (5_000, 1), other: (20_000, 1)}

    # Another hand of the same level: no refill (not per hand, as at a cash table).
    online.online_sweep()
    hand, now = deal(table)
    assert banks(table) == {slow: (5_000, 1), other: (20_000, 1)}
    fold_at(table, hand, now)

    # Level 2: each bank gains the refill at the level's first hand.
    next_level(tournament)
    table.refresh_from_db()
    assert table.time_bank_level == 2
    hand, now = deal(table)
    assert banks(table) == {slow: (15_000, 2), other: (30_000, 2)}
    fold_at(table, hand, now)

    # Level 3, then 4: never above the cap.
    next_level(tournament)
    hand, now = deal(table)
    assert banks(table) == {slow: (25_000, 3), other: (40_000, 3)}
    fold_at(table, hand, now)
    next_level(tournament)
    deal(table)
    assert banks(table) == {slow: (35_000, 4), other: (40_000, 4)}


def test_the_bank_follows_a_player_moved_to_another_table(db: None) -> None:
    tournament = night(4, 3)
    one, two = live_tables(tournament)
    hand, now = deal(one)
    slow = fold_at(one, hand, now + timedelta(seconds=30 + 12))  # 12 s into the bank
    mover = one.seats.get(number=slow).user_id
    assert banks(one)[slow] == (8_000, 1)
    empty = two.seats.filter(user__isnull=True).first().number

    tables.seat_move(one.pk, slow, two.pk, empty)

    moved = Seat.objects.get(table=two, user_id=mover)
    assert (moved.time_bank_ms, moved.time_bank_level) == (8_000, 1)
    assert Seat.objects.get(table=one, number=slow).time_bank_ms == 0  # the old seat, emptied
    # The new table's next level refills the moved player's bank once, like everyone's.
    clock_next(tournament.pk, by=None)
    online.online_tables_release(tournament.pk)
    deal(two)
    assert banks(two)[moved.number] == (18_000, 2)
    assert {bank for number, bank in banks(two).items() if number != moved.number} == {(30_000, 2)}


def test_bad_bank_settings_are_refused_with_the_setting_named(db: None) -> None:
    tournament = night(2, 9)
    director = director_user()
    with pytest.raises(TournamentError) as refused:
        lifecycle.tournament_update(tournament.pk, by=director, time_bank_seconds=-5)
    assert refused.value.field == "time_bank_seconds"
    # Once the tables are open with it, the bank is as they were opened.
    with pytest.raises(TournamentError) as refused:
        lifecycle.tournament_update(tournament.pk, by=director, time_bank_cap_seconds=60)
    assert "can no longer change" in str(refused.value.message)
    tournament.refresh_from_db()
    assert (tournament.time_bank_seconds, tournament.time_bank_cap_seconds) == (START, CAP)


def test_the_settings_form_checks_the_bank_against_its_cap(db: None) -> None:
    tournament = night(2, 9)
    Tournament.objects.filter(pk=tournament.pk).update(state="registering")
    tournament.refresh_from_db()
    form = TournamentForm(
        {
            **{name: "" for name in ("capacity", "payouts")},
            "game": "omaha-hi-lo",
            "structure": "pot-limit",
            "buy_in": "20",
            "fee": "0",
            "starting_stack": "1000",
            "blind_structure": str(tournament.blind_structure_id),
            "raise_cap": "4",
            "seats_per_table": "9",
            "money_unit": "1",
            "bounty": "0",
            "rebuys_allowed": "0",
            "rebuy_chips": "0",
            "rebuy_price": "0",
            "addon_chips": "0",
            "addon_price": "0",
            "reentries_allowed": "0",
            "balance_threshold": "2",
            "time_bank_seconds": "-1",
            "time_bank_refill_seconds": "5",
            "time_bank_cap_seconds": "30",
        },
        instance=tournament,
        event=tournament.event,
    )
    assert not form.is_valid()
    assert form.errors["time_bank_seconds"]
    assert "Time bank (online)" in [legend for legend, _fields in form.sections()]
