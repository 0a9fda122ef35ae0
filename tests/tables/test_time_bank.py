"""The time bank at a cash table: drawn on when the turn's own time runs out, spent exactly,
refilled after each hand played up to its cap, a time-out once it is spent; off by default.

docs/rules.md, Home-game options: "**Time bank**: extra seconds a player draws on automatically
when their turn's time runs out; it refills by a set amount per hand played (cash) or per
level (tournaments), up to a cap." docs/rules.md, Time and disconnection: "About 30 seconds to
act: 10 seconds, then a visible 20-second countdown. On time-out a player checks if checking
is free, else folds, and is then sat out."
"""

from __future__ import annotations

import asyncio
import doctest
from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.forms import ChoiceField
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tables import services
from tables.engine import timebank
from tables.engine.errors import RuleError
from tables.engine.timebank import TimeBank, bank_left
from tables.forms import TableCreateForm
from tables.i18n import rule_message
from tables.models import Hand, Seat, SeatState, Table
from tables.runtime.state import STATE, table_snapshot
from tests.tables.conftest import deal, later, make_players

START, REFILL, CAP = 20, 5, 30


def ms(value: datetime) -> int:
    return int(value.timestamp() * 1000)


def current(table: Table) -> Hand:
    return Hand.objects.filter(table=table).order_by("-number").first()


def bank_of(table: Table, number: int) -> int:
    return Seat.objects.get(table=table, number=number).time_bank_ms


def act(table: Table, hand: Hand, action: str, now: datetime) -> None:
    """The player to act makes ``action`` at ``now``."""
    table.refresh_from_db()
    user = table.seats.get(number=hand.to_act).user
    services.table_act(table.pk, user, hand.pk, table.version, action, now=now)


# ------------------------------------------------------------------------- the engine


def test_the_engines_examples_hold() -> None:
    assert doctest.testmod(timebank).failed == 0


def test_a_bank_is_spent_to_the_millisecond_and_never_below_zero() -> None:
    # docs/rules.md, Home-game options: "extra seconds a player draws on automatically when their
    # turn's time runs out" -- the deadline includes the bank, so what it still holds is
    # the time to the deadline, never more than the bank, never less than nothing.
    assert bank_left(20_000, until_deadline_ms=25_000) == 20_000  # in the turn's own time
    assert bank_left(20_000, until_deadline_ms=7_750) == 7_750  # 12.25 s into the bank
    assert bank_left(20_000, until_deadline_ms=0) == 0
    assert bank_left(20_000, until_deadline_ms=-900) == 0  # a late move: the bank is spent


def test_the_bank_refills_up_to_its_cap() -> None:
    # docs/rules.md, Home-game options: "it refills by a set amount per hand played (cash) or
    # per level (tournaments), up to a cap."
    bank = TimeBank(start=START, refill=REFILL, cap=CAP)
    assert bank.refilled(20_000) == 25_000
    assert bank.refilled(27_500) == 30_000
    assert bank.refilled(30_000) == 30_000
    assert bank.refilled(0, times=3) == 15_000
    assert bank.refilled(12_000, times=0) == 12_000


@pytest.mark.parametrize(
    ("values", "code"),
    [
        ({"start": -5, "cap": 30}, "time_bank_negative"),
        ({"refill": -1, "cap": 30}, "time_bank_negative"),
        ({"cap": -30}, "time_bank_negative"),
        ({"start": 40, "cap": 30}, "time_bank_above_cap"),
        ({"refill": 31, "cap": 30}, "time_bank_above_cap"),
        ({"start": 20}, "time_bank_needs_cap"),
        ({"cap": 601}, "time_bank_too_big"),
        ({"start": 2.5, "cap": 30}, "time_bank_not_seconds"),
    ],
)
def test_settings_the_engine_refuses_name_their_rule(values: dict, code: str) -> None:
    with pytest.raises(RuleError) as refused:
        TimeBank(**values)
    assert refused.value.code == code
    message, _params = rule_message(refused.value)
    assert "time bank" in str(message)


# ------------------------------------------------------------------------ at the table

uses_db = pytest.mark.django_db


@pytest.fixture
def bank_table(director: User) -> Table:
    table = services.table_create(
        created_by=director,
        name="Bank PLO",
        big_blind=2,
        min_buy_in=40,
        max_buy_in=200,
        time_bank_seconds=START,
        time_bank_refill_seconds=REFILL,
        time_bank_cap_seconds=CAP,
    )
    ann, ben = make_players("ann", "ben")
    services.seat_take(table.pk, ann, 1, 100)
    services.seat_take(table.pk, ben, 2, 100)
    return table


@uses_db
def test_each_player_sits_with_the_starting_bank_and_sees_their_own(bank_table: Table) -> None:
    assert [bank_of(bank_table, n) for n in (1, 2)] == [START * 1000, START * 1000]
    now = deal(bank_table)
    hand = current(bank_table)
    # The deadline the clients see includes the bank of the player to act; the bank starts
    # counting where the turn's own 30 seconds end.
    assert hand.deadline == now + timedelta(seconds=30 + START)
    ann = bank_table.seats.get(number=1).user
    mine = table_snapshot(bank_table, ann)
    assert mine["hand"]["deadline"] == ms(hand.deadline)
    assert mine["hand"]["bank_from"] == ms(now + timedelta(seconds=30))
    assert mine["table"]["time_bank"] == {"start": START, "refill": REFILL, "cap": CAP}
    assert mine["you"]["time_bank"] == START * 1000
    # A spectator sees the countdown, not anybody's bank.
    assert "time_bank" not in table_snapshot(bank_table, None)["you"]


@uses_db
def test_the_bank_is_drawn_on_when_the_turn_runs_out_and_the_time_out_comes_after_it(
    bank_table: Table,
) -> None:
    start = deal(bank_table)
    hand = current(bank_table)
    act(bank_table, hand, "call", start)
    hand.refresh_from_db()
    idle, now = hand.to_act, hand.turn_started_at
    # The turn's own time is out: no time-out, the bank is counting.
    assert not services.table_tick(bank_table.pk, now=now + timedelta(seconds=30))
    assert not services.table_tick(bank_table.pk, now=now + timedelta(seconds=30 + START - 0.1))
    assert services.table_tick(bank_table.pk, now=now + timedelta(seconds=30 + START))
    # The big blind checks (it is free) and is sat out; the hand goes on, the bank spent.
    hand.refresh_from_db()
    assert {"kind": "Checked", "seat": idle} in hand.records and not hand.is_complete
    seat = Seat.objects.get(table=bank_table, number=idle)
    assert seat.time_bank_ms == 0
    assert seat.state == SeatState.SITTING_OUT and seat.sat_out_reason == "timed out"
    # The time-out is applied once: a second tick (a late task, the sweep) changes nothing.
    hand.refresh_from_db()
    records = list(hand.records)
    bank_table.refresh_from_db()
    version = bank_table.version
    assert not services.table_tick(bank_table.pk, now=now + timedelta(seconds=30 + START))
    hand.refresh_from_db()
    bank_table.refresh_from_db()
    assert hand.records == records and bank_table.version == version


@uses_db
def test_a_player_who_acts_within_the_bank_keeps_the_rest(bank_table: Table) -> None:
    now = deal(bank_table)
    hand = current(bank_table)
    first = hand.to_act
    # 12.25 s past the turn's own 30 seconds: exactly that comes off the bank.
    acted = now + timedelta(seconds=30 + 12.25)
    act(bank_table, hand, "call", acted)
    assert bank_of(bank_table, first) == START * 1000 - 12_250
    hand.refresh_from_db()
    other = hand.to_act
    assert other != first
    # The other player's turn: their own full bank is in its deadline.
    assert hand.deadline == acted + timedelta(seconds=30 + START)
    # They act in their own time, twice (heads-up they are first after the flop): their
    # bank is untouched.
    act(bank_table, hand, "check", acted + timedelta(seconds=29))
    hand.refresh_from_db()
    act(bank_table, hand, "check", acted + timedelta(seconds=40))
    assert bank_of(bank_table, other) == START * 1000
    hand.refresh_from_db()
    assert hand.to_act == first
    # The first player's next turn has what is left of their bank, no more.
    assert hand.deadline == acted + timedelta(seconds=40 + 30 + START - 12.25)


@uses_db
def test_the_time_out_comes_once_what_is_left_of_the_bank_is_spent(bank_table: Table) -> None:
    now = deal(bank_table)
    hand = current(bank_table)
    first = hand.to_act
    acted = now + timedelta(seconds=30 + START - 4)  # 4 seconds left in the bank
    act(bank_table, hand, "call", acted)
    assert bank_of(bank_table, first) == 4_000
    hand.refresh_from_db()
    act(bank_table, hand, "check", acted + timedelta(seconds=1))  # the flop comes
    hand.refresh_from_db()
    act(bank_table, hand, "check", acted + timedelta(seconds=2))
    hand.refresh_from_db()
    assert hand.to_act == first
    turn = acted + timedelta(seconds=2)
    assert hand.deadline == turn + timedelta(seconds=34)
    assert not services.table_tick(bank_table.pk, now=turn + timedelta(seconds=33.9))
    assert services.table_tick(bank_table.pk, now=turn + timedelta(seconds=34))
    seat = Seat.objects.get(table=bank_table, number=first)
    assert seat.time_bank_ms == 0 and seat.sat_out_reason == "timed out"


@uses_db
def test_the_bank_refills_after_each_hand_played_up_to_the_cap(bank_table: Table) -> None:
    # The first to act in the first hand folds 12 s into the bank; every hand played then
    # adds 5 s to each player's bank, up to 30.
    now = later(10)
    slow = None
    seen = []
    for number in range(4):
        now = deal(bank_table, now + timedelta(seconds=5))
        hand = current(bank_table)
        if slow is None:
            slow = hand.to_act
        late = 30 + 12 if number == 0 else 1
        act(bank_table, hand, "fold", now + timedelta(seconds=late))
        hand.refresh_from_db()
        assert hand.is_complete
        seen.append((bank_of(bank_table, slow), bank_of(bank_table, 3 - slow)))
        now += timedelta(seconds=late)
    assert seen == [(13_000, 25_000), (18_000, 30_000), (23_000, 30_000), (28_000, 30_000)]


@uses_db
def test_a_player_sitting_out_is_not_refilled(bank_table: Table) -> None:
    cal = make_players("cal")[0]
    services.seat_take(bank_table.pk, cal, 3, 100)
    services.seat_sit_out(bank_table.pk, cal)
    now = deal(bank_table)
    hand = current(bank_table)
    while not hand.is_complete:
        act(bank_table, hand, "fold", now)
        hand.refresh_from_db()
    assert bank_of(bank_table, 3) == START * 1000
    assert {bank_of(bank_table, 1), bank_of(bank_table, 2)} == {(START + REFILL) * 1000}


@uses_db
def test_a_house_bot_never_draws_on_a_bank(bank_table: Table, director: User) -> None:
    (bot,) = services.table_add_bots(bank_table.pk, director, count=1)
    assert bot.time_bank_ms == 0
    bank_table.refresh_from_db()
    assert bank_table.turn_bank_ms(bot) == 0
    now = deal(bank_table)
    hand = current(bank_table)
    # Whoever is first, a bot's turn has the plain 30 seconds; a person's has their bank.
    seat = Seat.objects.get(table=bank_table, number=hand.to_act)
    extra = 0 if seat.is_bot else START
    assert hand.deadline == now + timedelta(seconds=30 + extra)


@uses_db
def test_off_by_default_the_turn_clock_is_as_it_was(seated_table: Table) -> None:
    # docs/rules.md, Home-game options: "each a table setting, off by default".
    assert seated_table.time_bank_cap_seconds == 0 and not seated_table.time_bank.on
    assert set(seated_table.seats.values_list("time_bank_ms", flat=True)) == {0}
    now = deal(seated_table)
    hand = current(seated_table)
    assert hand.deadline == now + timedelta(seconds=30)
    user = seated_table.seats.get(number=hand.to_act).user
    snapshot = table_snapshot(seated_table, user)
    assert snapshot["hand"]["bank_from"] is None
    assert snapshot["table"]["time_bank"] is None
    assert "time_bank" not in snapshot["you"]
    act(seated_table, hand, "call", now + timedelta(seconds=29.5))
    assert not services.table_tick(seated_table.pk, now=now + timedelta(seconds=29.9))
    hand.refresh_from_db()
    assert services.table_tick(seated_table.pk, now=hand.deadline)
    while not current(seated_table).is_complete:
        hand = current(seated_table)
        act(seated_table, hand, "fold", hand.turn_started_at)
    assert set(seated_table.seats.values_list("time_bank_ms", flat=True)) == {0}


# ----------------------------------------------------------------------- the host's form


def filled_in(**values: str) -> dict[str, str]:
    """The create-table form as a browser sends it untouched (each field's initial value,
    a list's first choice), with ``values``."""
    form = TableCreateForm()
    data = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if value is None and isinstance(field, ChoiceField):
            value = next(iter(field.choices))[0]
        if value not in (None, False):
            data[name] = "on" if value is True else str(value)
    return {**data, **values}


GOOD_FORM = filled_in(
    name="Bank night",
    time_bank_seconds="20",
    time_bank_refill_seconds="5",
    time_bank_cap_seconds="30",
)


@uses_db
def test_the_host_sets_the_bank_when_opening_the_table(director_client: Client) -> None:
    response = director_client.post(reverse("tables:table_new"), GOOD_FORM)
    assert response.status_code == 302
    table = Table.objects.get()
    assert (
        table.time_bank_seconds,
        table.time_bank_refill_seconds,
        table.time_bank_cap_seconds,
    ) == (20, 5, 30)
    page = director_client.get(reverse("tables:table_new")).content.decode()
    assert 'name="time_bank_cap_seconds"' in page


@uses_db
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("time_bank_seconds", "-5"),
        ("time_bank_refill_seconds", "-1"),
        ("time_bank_cap_seconds", "-30"),
        ("time_bank_cap_seconds", "601"),
        ("time_bank_seconds", "ten"),
    ],
)
def test_bad_bank_settings_on_the_host_form_are_refused(
    director_client: Client, field: str, value: str
) -> None:
    response = director_client.post(reverse("tables:table_new"), {**GOOD_FORM, field: value})
    assert response.status_code == 400
    assert response.context["form"].errors[field]
    assert not Table.objects.exists()


@uses_db
def test_a_bank_above_its_cap_is_refused_with_the_rule(director_client: Client) -> None:
    form = {**GOOD_FORM, "time_bank_seconds": "40"}
    response = director_client.post(reverse("tables:table_new"), form)
    assert response.status_code == 400
    assert "a time bank of 40 s is above its cap of 30 s" in response.content.decode()
    assert response.context["form"].errors["time_bank_seconds"]  # on the field at fault
    form = {**GOOD_FORM, "time_bank_cap_seconds": "0"}
    response = director_client.post(reverse("tables:table_new"), form)
    assert response.status_code == 400
    assert "a time bank needs a cap above 0" in response.content.decode()
    assert response.context["form"].errors["time_bank_cap_seconds"]
    assert not Table.objects.exists()


# ------------------------------------------------------- PostgreSQL's unlocked moves


@pytest.mark.django_db(transaction=True)
@pytest.mark.django_db(transaction=True)
def test_a_move_in_the_bank_spends_it_and_one_in_time_does_not(bank_table: Table) -> None:
    """Outside a transaction, as a socket's thread makes it: a move in the turn's own time
    writes only its records, one into the bank writes the seat's bank too."""
    now = deal(bank_table)
    hand = current(bank_table)
    first = hand.to_act
    act(bank_table, hand, "call", now + timedelta(seconds=10))
    hand.refresh_from_db()
    second = hand.to_act
    act(bank_table, hand, "check", now + timedelta(seconds=10 + 30 + 3))
    assert bank_of(bank_table, first) == START * 1000
    assert bank_of(bank_table, second) == START * 1000 - 3_000


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="loop moves are PostgreSQL's")
def test_on_the_loop_a_move_in_the_bank_is_handed_on_and_a_hand_end_refills(
    bank_table: Table,
) -> None:
    def on_loop(hand: Hand) -> object:
        bank_table.refresh_from_db()
        user = bank_table.seats.get(number=hand.to_act).user
        return asyncio.run(
            services.table_act_on_loop(bank_table.pk, user, hand.pk, bank_table.version, "fold")
        )

    bank_table.refresh_from_db()
    deal(bank_table, bank_table.next_hand_at)
    STATE.snapshot(bank_table, None)
    hand = current(bank_table)
    # The hand's end on the loop writes the seats' refilled banks with it.
    assert on_loop(hand) is not None
    hand.refresh_from_db()
    assert hand.is_complete
    assert [bank_of(bank_table, n) for n in (1, 2)] == [(START + REFILL) * 1000] * 2

    bank_table.refresh_from_db()
    deal(bank_table, bank_table.next_hand_at)
    began = timezone.now() - timedelta(seconds=33)  # 3 s into the bank
    Hand.objects.filter(pk=current(bank_table).pk).update(
        turn_started_at=began, deadline=began + timedelta(seconds=30 + START + REFILL)
    )
    STATE.forget()
    hand = current(bank_table)
    # Into the bank: the seat is written too, which the loop leaves to a thread.
    assert on_loop(hand) is None
    assert not current(bank_table).is_complete
