"""Expenses to the cent, as Splitwise users type them: "23.50", "23.5", and "23,50" on a
French page. The night's money (balances, transfers, carried debts, each player's ledger)
is kept in cents, so nothing loses or duplicates a cent; amounts with cents read with two
decimals, whole amounts as before."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse
from django.utils import translation

from core import amounts
from series.ledgers import ledger_balances, player_ledger
from series.models import CarriedDebt, Expense, ExpenseShare, Transfer
from series.services.expenses import expense_add, expense_split, expense_split_by_shares
from series.services.settle import (
    SettleUpError,
    night_close,
    settle_up_balances,
    settle_up_compute,
    transfer_mark_paid,
)
from tests.series.night import account, finished_event, season

pytestmark = pytest.mark.django_db

FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr"}


@pytest.fixture
def night() -> dict[str, object]:
    """Ann, Ben and Cal paid 25 each (20 + 5 fee); Ann won 40, Ben 20, Cal nothing.

    To settle, fees apart: Ann +20, Ben 0, Cal -20 (in cents: 2000, 0, -2000).
    """
    s = season()
    ann, ben, cal = account("Ann"), account("Ben"), account("Cal")
    event = finished_event(s, [(ann, 1, 40, 25), (ben, 2, 20, 25), (cal, 3, 0, 25)])
    return {"event": event, "ann": ann, "ben": ben, "cal": cal, "season": s}


def cents_of(event: object) -> dict[str, int]:
    return {b.player_name: b.balance for b in settle_up_balances(event)}  # type: ignore[arg-type]


def shares() -> dict[str, int]:
    return {s.player.name: s.amount_cents for s in ExpenseShare.objects.select_related("player")}


def left_after_transfers(event: object) -> dict[str, int]:
    left = cents_of(event)
    for t in Transfer.objects.filter(event=event).select_related("payer", "payee"):
        left[t.payer.name] += t.amount_cents
        left[t.payee.name] -= t.amount_cents
    return left


# -- the split


def test_the_odd_cents_go_one_each_to_the_first_sharers_in_alphabetical_order() -> None:
    assert expense_split(1000, 3) == [334, 333, 333]
    assert expense_split(2350, 3) == [784, 783, 783]
    assert expense_split(1001, 3) == [334, 334, 333]
    assert expense_split_by_shares(1000, [1, 1, 1]) == [334, 333, 333]
    assert expense_split_by_shares(2350, [2, 1, 1]) == [1175, 588, 587]
    for total in (1, 99, 2350, 100_000_000):
        assert sum(expense_split(total, 7)) == total
        assert sum(expense_split_by_shares(total, [3, 7, 1, 5])) == total


# -- a night settled to the cent


def test_a_night_with_a_23_50_expense_split_three_ways_settles_to_zero_exactly(
    night: dict[str, object], director: User
) -> None:
    event = night["event"]
    expense_add(
        event.pk,  # type: ignore[attr-defined]
        payer_id=night["ben"].pk,  # type: ignore[attr-defined]
        amount_cents=2350,
        description="Pizza",
        by=director,
    )
    assert Expense.objects.get().amount_cents == 2350
    assert shares() == {"Ann": 784, "Ben": 783, "Cal": 783}
    assert sum(shares().values()) == 2350
    balances = cents_of(event)
    assert balances == {"Ann": 2000 - 784, "Ben": 2350 - 783, "Cal": -2000 - 783}
    assert sum(balances.values()) == 0
    transfers = settle_up_compute(event.pk)  # type: ignore[attr-defined]
    assert {(t.payer.name, t.payee.name, t.amount_cents) for t in transfers} == {
        ("Cal", "Ben", 1567),
        ("Cal", "Ann", 1216),
    }
    assert set(left_after_transfers(event).values()) == {0}


def test_an_unpaid_transfer_with_cents_is_carried_and_settled_to_the_cent(
    night: dict[str, object], director: User
) -> None:
    first = night["event"]
    ann, ben, cal = night["ann"], night["ben"], night["cal"]
    expense_add(first.pk, payer_id=ben.pk, amount_cents=2350, description="Pizza", by=director)  # type: ignore[attr-defined]
    for transfer in settle_up_compute(first.pk):  # type: ignore[attr-defined]
        if transfer.payee_id == ann.pk:  # type: ignore[attr-defined]
            transfer_mark_paid(transfer.pk, by=director)
    night_close(first.pk, by=director)  # type: ignore[attr-defined]
    debt = CarriedDebt.objects.select_related("payer", "payee").get()
    assert (debt.payer.name, debt.payee.name, debt.amount_cents) == ("Cal", "Ben", 1567)
    # The next night: Ann and Ben play, Ann wins 10 (+5.00 each way in cents: 500).
    second = finished_event(
        night["season"],  # type: ignore[arg-type]
        [(ann, 1, 30, 25), (ben, 2, 10, 25)],  # type: ignore[list-item]
        number=2,
    )
    transfers = settle_up_compute(second.pk)
    assert cents_of(second) == {"Ann": 1000, "Ben": -1000 + 1567, "Cal": -1567}
    assert set(left_after_transfers(second).values()) == {0}
    for transfer in transfers:
        transfer_mark_paid(transfer.pk, by=director)
    # Every payment made: everyone's season is square to the cent.
    for player in (ann, ben, cal):
        assert player_ledger(player, night["season"]).balance == 0  # type: ignore[arg-type]
        assert ledger_balances(player) == [(night["season"], 0)]  # type: ignore[arg-type]


def test_the_ledger_counts_in_cents(night: dict[str, object], director: User) -> None:
    event, ben = night["event"], night["ben"]
    expense_add(event.pk, payer_id=ben.pk, amount_cents=2350, description="Pizza", by=director)  # type: ignore[attr-defined]
    ledger = player_ledger(night["cal"], night["season"])  # type: ignore[arg-type]
    assert [e.amount for e in ledger.entries] == [-2000, -783]
    assert ledger.balance == -2783
    ledger = player_ledger(ben, night["season"])  # type: ignore[arg-type]
    assert [e.amount for e in ledger.entries] == [0, 2350, -783]
    assert ledger_balances(ben) == [(night["season"], 1567)]  # type: ignore[arg-type]


@pytest.mark.parametrize("amount_cents", [0, -1, 100_000_001, Decimal("23.5"), 23.5, True, "2350"])
def test_the_service_takes_a_positive_whole_number_of_cents(
    night: dict[str, object], director: User, amount_cents: object
) -> None:
    with pytest.raises(SettleUpError):
        expense_add(
            night["event"].pk,  # type: ignore[attr-defined]
            payer_id=night["ann"].pk,  # type: ignore[attr-defined]
            amount_cents=amount_cents,  # type: ignore[arg-type]
            description="Pizza",
            by=director,
        )
    assert not Expense.objects.exists() and not ExpenseShare.objects.exists()


# -- the form: typed with cents, the reader's way


def post_expense(
    client: Client, night: dict[str, object], data: dict[str, object], **headers: str
) -> str:
    url = reverse("series:settle_up", args=[night["event"].pk])  # type: ignore[attr-defined]
    players = [night[k].pk for k in ("ann", "ben", "cal")]  # type: ignore[attr-defined]
    base = {
        "action": "expense_add",
        "description": "Pizza",
        "payer": night["ben"].pk,  # type: ignore[attr-defined]
        "sharers": players,
    }
    response = client.post(url, base | data, HTTP_HX_REQUEST="true", **headers)
    return f"{response.status_code} {response.content.decode()}"


@pytest.mark.parametrize(
    ("typed", "headers"),
    [("23.50", {}), ("23.5", {}), (" 23.50 ", {}), ("23,50", FRENCH), ("23.50", FRENCH)],
)
def test_an_amount_with_cents_is_typed_the_readers_way(
    director_client: Client, night: dict[str, object], typed: str, headers: dict[str, str]
) -> None:
    page = post_expense(director_client, night, {"amount": typed}, **headers)
    assert page.startswith("200 "), page[:2000]
    assert Expense.objects.get().amount_cents == 2350
    assert shares() == {"Ann": 784, "Ben": 783, "Cal": 783}


BAD_AMOUNTS = [
    ("23.505", "at most 2 decimal places"),
    ("-1", "at least 0.01"),
    ("0", "at least 0.01"),
    ("0.00", "at least 0.01"),
    ("0.001", "at most 2 decimal places"),
    ("1000000.01", "at most 1,000,000"),
    ("1e3", "Enter a number"),
    ("1E3", "Enter a number"),
    ("NaN", "Enter a number"),
    ("Infinity", "Enter a number"),
    ("pizza", "Enter a number"),
    # A comma is no decimal separator in English (and thousands are typed ungrouped).
    ("23,50", "Enter a number"),
    ("9" * 40, "at most 1,000,000"),
]


@pytest.mark.parametrize(("typed", "message"), BAD_AMOUNTS)
def test_a_bad_amount_is_refused_with_a_message_and_nothing_is_saved(
    director_client: Client, night: dict[str, object], typed: str, message: str
) -> None:
    page = post_expense(director_client, night, {"amount": typed})
    assert page.startswith("400 ") and message in page, page[:3000]
    assert not Expense.objects.exists() and not Transfer.objects.filter(amount_cents=0).exists()


def test_a_bad_amount_is_refused_in_french_too(
    director_client: Client, night: dict[str, object]
) -> None:
    for typed in ("23,505", "1e3", "0", "-23,50", "vingt"):
        page = post_expense(director_client, night, {"amount": typed}, **FRENCH)
        assert page.startswith("400 "), (typed, page[:2000])
    assert not Expense.objects.exists()


def test_parts_by_amounts_take_cents_and_must_add_up_to_the_cent(
    director_client: Client, night: dict[str, object]
) -> None:
    ann, ben, cal = (night[k].pk for k in ("ann", "ben", "cal"))  # type: ignore[attr-defined]
    page = post_expense(
        director_client,
        night,
        {"amount": "23.50", "split": "amounts"}
        | {f"part_{ann}": "10.50", f"part_{ben}": "5", f"part_{cal}": "7.99"},
    )
    assert page.startswith("400 ") and "The amounts add up to 23.49, not 23.50." in page
    assert not Expense.objects.exists()
    page = post_expense(
        director_client,
        night,
        {"amount": "23,50", "split": "amounts"}
        | {f"part_{ann}": "10,50", f"part_{ben}": "5", f"part_{cal}": "8"},
        **FRENCH,
    )
    assert page.startswith("200 "), page[:2000]
    assert shares() == {"Ann": 1050, "Ben": 500, "Cal": 800}


@pytest.mark.parametrize("typed", ["1.005", "1e2", "NaN", "-1", "deux"])
def test_a_bad_part_is_refused_whatever_the_split(
    director_client: Client, night: dict[str, object], typed: str
) -> None:
    ann, ben = (night[k].pk for k in ("ann", "ben"))  # type: ignore[attr-defined]
    for split in ("equal", "amounts"):
        page = post_expense(
            director_client,
            night,
            {"amount": "2", "split": split, "sharers": [ann, ben], f"part_{ann}": typed}
            | {f"part_{ben}": "1"},
        )
        assert page.startswith("400 "), (split, typed)
    assert not Expense.objects.exists()


# -- shown with two decimals, whole amounts as before


def test_money_cents_reads_as_the_language_writes_it() -> None:
    with translation.override("en"):
        assert amounts.money_cents(2350) == "23.50"
        assert amounts.money_cents(5) == "0.05"
        assert amounts.money_cents(-2350) == "-23.50"
        assert amounts.money_cents(250_000) == "2,500"
        assert amounts.money_cents(-1500) == "-15"
        assert amounts.money_cents(0) == "0"
    with translation.override("fr"):
        assert amounts.money_cents(2350) == "23,50"
        assert amounts.money_cents(250_000) == "2\u00a0500"
        assert amounts.money_cents(123_456_78) == "123\u00a0456,78"


def test_the_settle_up_shows_cents_in_english_and_french(
    director_client: Client, night: dict[str, object], director: User
) -> None:
    event, ben = night["event"], night["ben"]
    expense_add(event.pk, payer_id=ben.pk, amount_cents=2350, description="Pizza", by=director)  # type: ignore[attr-defined]
    url = reverse("series:settle_up", args=[event.pk])  # type: ignore[attr-defined]
    english = director_client.get(url).content.decode()
    for shown in ("23.50", "Ann 7.84", "Ben 7.83", "Cal 7.83", "15.67", "12.16", "27.83"):
        assert shown in english, shown
    assert "2350" not in english and "1567" not in english
    french = director_client.get(url, **FRENCH).content.decode()
    for shown in ("23,50", "Ann 7,84", "Ben 7,83", "15,67", "12,16", "27,83"):
        assert shown in french, shown
    # Whole amounts read as they always did: the night's results, the prize pool.
    assert ">40<" in english and ">+20<" in english


def test_the_ledger_and_profile_show_cents(night: dict[str, object], director: User) -> None:
    event, ben, cal = night["event"], night["ben"], night["cal"]
    expense_add(event.pk, payer_id=ben.pk, amount_cents=2350, description="Pizza", by=director)  # type: ignore[attr-defined]
    settle_up_compute(event.pk)  # type: ignore[attr-defined]
    client = Client()
    client.force_login(cal.user)  # type: ignore[attr-defined]
    ledger = client.get(
        reverse("series:player_ledger", args=[night["season"].pk, cal.pk])  # type: ignore[attr-defined]
    ).content.decode()
    for shown in ("-7.83", "-27.83", "15.67", "12.16"):
        assert shown in ledger, shown
    profile = client.get(reverse("series:player", args=[cal.pk])).content.decode()  # type: ignore[attr-defined]
    assert "-27.83" in profile
    french = client.get(
        reverse("series:player_ledger", args=[night["season"].pk, cal.pk]),
        **FRENCH,  # type: ignore[attr-defined]
    ).content.decode()
    assert "-27,83" in french


def test_a_transfer_marked_paid_says_its_amount_with_cents(
    director_client: Client, night: dict[str, object], director: User
) -> None:
    event, ben = night["event"], night["ben"]
    expense_add(event.pk, payer_id=ben.pk, amount_cents=2350, description="Pizza", by=director)  # type: ignore[attr-defined]
    transfer = next(t for t in settle_up_compute(event.pk) if t.payee_id == ben.pk)  # type: ignore[attr-defined]
    url = reverse("series:settle_up", args=[event.pk])  # type: ignore[attr-defined]
    body = director_client.post(
        url, {"transfer": transfer.pk, "paid": "1"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "Marked paid: Cal → Ben: 15.67." in body


# -- the night's money already stored moves to cents, and back


BEFORE_CENTS = [("series", "0021_event_game_name")]
IN_CENTS = [("series", "0024_night_money_positive")]


def migrated(target: list[tuple[str, str]] | None = None) -> Any:
    """The database migrated to ``target`` (None: the latest migrations, as the other tests
    expect it left), and the models as they are there."""
    executor = MigrationExecutor(connection)
    target = target or executor.loader.graph.leaf_nodes()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def season_events(apps: Any, season: str, *events: str) -> tuple[Any, ...]:
    """A season named ``season`` and its ``events`` (one row each), in the models ``apps``."""
    Season, Event = apps.get_model("series", "Season"), apps.get_model("series", "Event")
    s = Season.objects.create(name=season, starts_on="2026-01-01", ends_on="2026-12-31")
    return tuple(
        Event.objects.create(
            season=s, name=name, starts_at=f"2026-{month:02d}-01T20:00Z", buy_in=20
        )
        for month, name in enumerate(events, start=2)
    )


@pytest.mark.django_db(transaction=True)
def test_the_migration_multiplies_the_nights_money_by_100_and_back() -> None:
    old = migrated(BEFORE_CENTS)
    first, second = season_events(old, "Old", "One", "Two")
    Player = old.get_model("series", "Player")
    ann, ben = Player.objects.create(name="Ann"), Player.objects.create(name="Ben")
    expense = old.get_model("series", "Expense").objects.create(
        event=first, payer=ann, description="Pizza", amount=43
    )
    old.get_model("series", "ExpenseShare").objects.create(expense=expense, player=ann, amount=22)
    old.get_model("series", "ExpenseShare").objects.create(expense=expense, player=ben, amount=21)
    old.get_model("series", "Transfer").objects.create(event=first, payer=ben, payee=ann, amount=30)
    old.get_model("series", "CarriedDebt").objects.create(
        origin=first, settled_in=second, payer=ben, payee=ann, amount=30
    )

    new = migrated(IN_CENTS)
    assert new.get_model("series", "Expense").objects.get().amount_cents == 4300
    assert sorted(
        new.get_model("series", "ExpenseShare").objects.values_list("amount_cents", flat=True)
    ) == [2100, 2200]
    assert new.get_model("series", "Transfer").objects.get().amount_cents == 3000
    assert new.get_model("series", "CarriedDebt").objects.get().amount_cents == 3000
    # A debt beyond a 32-bit integer of cents fits: the most a settle-up may move.
    debt = new.get_model("series", "CarriedDebt").objects.get()
    debt.amount_cents = amounts.PRIZE_MAX * 100
    debt.save()
    debt.amount_cents = 3000
    debt.save()

    old = migrated(BEFORE_CENTS)
    assert old.get_model("series", "Expense").objects.get().amount == 43
    assert sorted(
        old.get_model("series", "ExpenseShare").objects.values_list("amount", flat=True)
    ) == [21, 22]
    assert old.get_model("series", "Transfer").objects.get().amount == 30
    assert old.get_model("series", "CarriedDebt").objects.get().amount == 30

    migrated()


@pytest.mark.django_db(transaction=True)
def test_the_migration_back_refuses_to_round_away_cents() -> None:
    new = migrated(IN_CENTS)
    (event,) = season_events(new, "Now", "One")
    ann = new.get_model("series", "Player").objects.create(name="Ann")
    new.get_model("series", "Expense").objects.create(
        event=event, payer=ann, description="Pizza", amount_cents=2350
    )
    with pytest.raises(Exception, match="cents"):
        migrated(BEFORE_CENTS)
    new.get_model("series", "Expense").objects.all().delete()
    migrated()
