"""A night's shared expenses: split to the cent, part of the balances, added and removed by
the director on the settle-up page; bad input changes nothing. (Amounts typed with cents,
and the night settled to the cent: ``test_money_cents``.) The night's money is in cents."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from series.models import Expense, ExpenseShare, Transfer
from series.services.expenses import (
    expense_add,
    expense_remove,
    expense_split,
    expense_split_by_shares,
)
from series.services.settle import SettleUpError, settle_up_balances, settle_up_compute
from tests.series.night import account, finished_event, guest, season

pytestmark = pytest.mark.django_db


@pytest.fixture
def night() -> dict[str, object]:
    """Ann won 50, Ben 30, Cal and Dee nothing; each paid 25 (20 + 5 fee)."""
    s = season()
    ann, ben, cal, dee = account("Ann"), account("Ben"), account("Cal"), guest("Dee")
    event = finished_event(
        s, [(ann, 1, 50, 25), (ben, 2, 30, 25), (cal, 3, 0, 25), (dee, 4, 0, 25)]
    )
    return {"event": event, "ann": ann, "ben": ben, "cal": cal, "dee": dee, "season": s}


def balances(event: object) -> dict[str, int]:
    return {b.player_name: b.balance for b in settle_up_balances(event)}  # type: ignore[arg-type]


def test_the_remainder_goes_one_cent_each_in_alphabetical_order() -> None:
    assert expense_split(10, 3) == [4, 3, 3]
    assert expense_split(11, 3) == [4, 4, 3]
    assert expense_split(2, 3) == [1, 1, 0]
    assert sum(expense_split(1_000_000, 7)) == 1_000_000


def test_an_expense_is_shared_by_everyone_who_played_by_default(
    night: dict[str, object], director: User
) -> None:
    # Dee paid 42.02 for the pizza: 4202 cents / 4 is 1050 each and 2 left over, to Ann and
    # Ben (A, B).
    expense_add(
        night["event"].pk,  # type: ignore[attr-defined]
        payer_id=night["dee"].pk,  # type: ignore[attr-defined]
        amount_cents=4202,
        description="Pizza",
        by=director,
    )
    shares = {s.player.name: s.amount_cents for s in ExpenseShare.objects.select_related("player")}
    assert shares == {"Ann": 1051, "Ben": 1051, "Cal": 1050, "Dee": 1050}
    # To settle 30, 10, -20, -20 (in cents); the expense: Dee +4202 - 1050.
    assert balances(night["event"]) == {"Ann": 1949, "Ben": -51, "Cal": -3050, "Dee": 1152}
    transfers = list(Transfer.objects.all())
    assert sum(t.amount_cents for t in transfers) == 3101
    left = balances(night["event"])
    for t in Transfer.objects.select_related("payer", "payee"):
        left[t.payer.name] += t.amount_cents
        left[t.payee.name] -= t.amount_cents
    assert set(left.values()) == {0}


def test_the_host_picks_the_sharers(night: dict[str, object], director: User) -> None:
    ann, cal = night["ann"], night["cal"]
    expense_add(
        night["event"].pk,  # type: ignore[attr-defined]
        payer_id=ann.pk,  # type: ignore[attr-defined]
        amount_cents=1501,
        description="The room",
        sharer_ids=[cal.pk, ann.pk],  # type: ignore[attr-defined]
        by=director,
    )
    assert balances(night["event"]) == {
        "Ann": 3000 + 1501 - 751,
        "Ben": 1000,
        "Cal": -2000 - 750,
        "Dee": -2000,
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"sharer_ids": []}, "at least one player"),
        ({"amount_cents": -5}, "positive amount, to the cent"),
        ({"amount_cents": 0}, "positive amount, to the cent"),
        ({"amount_cents": 100_000_001}, "at most 1,000,000"),
        ({"description": "   "}, "Say what the expense was for"),
    ],
)
def test_bad_expenses_are_refused_and_change_nothing(
    night: dict[str, object], director: User, change: dict[str, object], message: str
) -> None:
    values: dict[str, object] = {
        "payer_id": night["ann"].pk,  # type: ignore[attr-defined]
        "amount_cents": 1200,
        "description": "Pizza",
    } | change
    with pytest.raises(SettleUpError, match=message):
        expense_add(night["event"].pk, by=director, **values)  # type: ignore[arg-type, attr-defined]
    assert not Expense.objects.exists() and not ExpenseShare.objects.exists()


def test_a_player_of_another_night_can_neither_pay_nor_share(
    night: dict[str, object], director: User
) -> None:
    stranger = account("Zed")
    other = finished_event(season(description="Another season"), [(stranger, 1, 0, 0)], number=9)
    assert other.pk
    event_id = night["event"].pk  # type: ignore[attr-defined]
    with pytest.raises(SettleUpError, match="payer must be a player of this night"):
        expense_add(event_id, payer_id=stranger.pk, amount_cents=1000, description="x", by=director)
    with pytest.raises(SettleUpError, match="Only players of this night"):
        expense_add(
            event_id,
            payer_id=night["ann"].pk,  # type: ignore[attr-defined]
            amount_cents=1000,
            description="x",
            sharer_ids=[stranger.pk],
            by=director,
        )
    assert not Expense.objects.exists()


def test_removing_an_expense_brings_the_transfers_back(
    night: dict[str, object], director: User
) -> None:
    event_id = night["event"].pk  # type: ignore[attr-defined]
    before = {(t.payer_id, t.payee_id, t.amount_cents) for t in settle_up_compute(event_id)}
    expense = expense_add(
        event_id,
        payer_id=night["cal"].pk,
        amount_cents=4000,
        description="Pizza",
        by=director,  # type: ignore[attr-defined]
    )
    assert {(t.payer_id, t.payee_id, t.amount_cents) for t in Transfer.objects.all()} != before
    expense_remove(event_id, expense.pk, by=director)
    assert {(t.payer_id, t.payee_id, t.amount_cents) for t in Transfer.objects.all()} == before
    with pytest.raises(SettleUpError, match="no longer exists"):
        expense_remove(event_id, expense.pk, by=director)


def test_the_director_adds_and_removes_an_expense_on_the_page_with_htmx(
    director_client: Client, night: dict[str, object]
) -> None:
    url = reverse("series:settle_up", args=[night["event"].pk])  # type: ignore[attr-defined]
    page = director_client.get(url).content.decode()
    assert "Add an expense" in page and 'id="settle-up"' in page
    players = [night[k].pk for k in ("ann", "ben", "cal", "dee")]  # type: ignore[attr-defined]
    response = director_client.post(
        url,
        {
            "action": "expense_add",
            "description": "Pizza",
            "amount": "40",
            "payer": night["dee"].pk,  # type: ignore[attr-defined]
            "sharers": players,
        },
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="settle-up"') or 'id="settle-up"' in body[:400]
    assert "<html" not in body and "Expense added" in body and "Pizza" in body
    assert "Balances" in body
    expense = Expense.objects.get()
    response = director_client.post(
        url, {"action": "expense_remove", "expense": expense.pk}, HTTP_HX_REQUEST="true"
    )
    assert "Expense removed" in response.content.decode()
    assert not Expense.objects.exists()


def test_an_expense_form_with_nobody_ticked_or_a_tampered_player_says_why(
    director_client: Client, night: dict[str, object]
) -> None:
    url = reverse("series:settle_up", args=[night["event"].pk])  # type: ignore[attr-defined]
    base = {"action": "expense_add", "description": "Pizza", "amount": "40"}
    response = director_client.post(url, base | {"payer": night["ann"].pk})  # type: ignore[attr-defined]
    assert response.status_code == 400
    assert "Choose at least one player to share the expense." in response.content.decode()
    stranger = account("Zed")
    response = director_client.post(
        url,
        base | {"payer": stranger.pk, "sharers": [night["ann"].pk]},  # type: ignore[attr-defined]
    )
    assert response.status_code == 400 and "Select a valid choice" in response.content.decode()
    response = director_client.post(
        url,
        base | {"amount": "-3", "payer": night["ann"].pk, "sharers": [night["ann"].pk]},  # type: ignore[attr-defined]
    )
    assert response.status_code == 400
    assert not Expense.objects.exists()


def test_players_cannot_add_expenses(night: dict[str, object]) -> None:
    client = Client()
    client.force_login(night["cal"].user)  # type: ignore[attr-defined]
    url = reverse("series:settle_up", args=[night["event"].pk])  # type: ignore[attr-defined]
    assert "Add an expense" not in client.get(url).content.decode()
    response = client.post(
        url,
        {"action": "expense_add", "description": "x", "amount": "5", "payer": night["cal"].pk},  # type: ignore[attr-defined]
    )
    assert response.status_code == 403 and not Expense.objects.exists()


def test_a_sharer_id_beyond_any_column_is_a_wrong_choice(
    director_client: Client, night: dict[str, object]
) -> None:
    url = reverse("series:settle_up", args=[night["event"].pk])  # type: ignore[attr-defined]
    response = director_client.post(
        url,
        {
            "action": "expense_add",
            "description": "Pizza",
            "amount": "4",
            "payer": night["ann"].pk,  # type: ignore[attr-defined]
            "sharers": ["9" * 23],
        },
    )
    assert response.status_code == 400 and not Expense.objects.exists()


# -- split unevenly: by shares or by amounts


def test_shares_split_in_proportion_and_the_cents_left_go_to_the_largest_remainders() -> None:
    assert expense_split_by_shares(30, [2, 1]) == [20, 10]
    # 10 cents in 2:1:1 is 5, 2.5, 2.5: the cent left goes to the first of the tied
    # remainders.
    assert expense_split_by_shares(10, [2, 1, 1]) == [5, 3, 2]
    # 7 in 1:3 is 1.75 and 5.25: the larger remainder (0.75) gets the unit.
    assert expense_split_by_shares(7, [1, 3]) == [2, 5]
    assert expense_split_by_shares(1, [1, 1, 1]) == [1, 0, 0]
    for amount in (1, 99, 1_000_000):
        assert sum(expense_split_by_shares(amount, [3, 7, 1, 5])) == amount


def settles_to_zero(event: object) -> None:
    left = balances(event)
    assert sum(left.values()) == 0
    for t in Transfer.objects.select_related("payer", "payee"):
        left[t.payer.name] += t.amount_cents
        left[t.payee.name] -= t.amount_cents
    assert set(left.values()) == {0}


def shares_of() -> dict[str, int]:
    return {s.player.name: s.amount_cents for s in ExpenseShare.objects.select_related("player")}


def test_an_expense_split_by_shares(night: dict[str, object], director: User) -> None:
    # Ann came with her partner (two shares); Ben and Cal one each; Dee did not eat.
    ann, ben, cal = night["ann"], night["ben"], night["cal"]
    expense_add(
        night["event"].pk,  # type: ignore[attr-defined]
        payer_id=cal.pk,  # type: ignore[attr-defined]
        amount_cents=4101,
        description="Pizza",
        by_shares={ann.pk: 2, ben.pk: 1, cal.pk: 1},  # type: ignore[attr-defined]
        by=director,
    )
    # 4101 cents in 2:1:1 is 2050.5, 1025.25, 1025.25: Ann's half cent is the largest
    # remainder.
    assert shares_of() == {"Ann": 2051, "Ben": 1025, "Cal": 1025}
    settles_to_zero(night["event"])


def test_an_expense_split_by_amounts(night: dict[str, object], director: User) -> None:
    ann, dee = night["ann"], night["dee"]
    expense_add(
        night["event"].pk,  # type: ignore[attr-defined]
        payer_id=ann.pk,  # type: ignore[attr-defined]
        amount_cents=3000,
        description="Drinks",
        by_amounts={ann.pk: 1250, dee.pk: 1750},  # type: ignore[attr-defined]
        by=director,
    )
    assert shares_of() == {"Ann": 1250, "Dee": 1750}
    settles_to_zero(night["event"])


@pytest.mark.parametrize(
    ("split", "message"),
    [
        ({"by_amounts": {"ann": 1200, "dee": 1700}}, "The amounts add up to 29, not 30."),
        ({"by_amounts": {"ann": 2000, "dee": 1001}}, "The amounts add up to 30.01, not 30."),
        ({"by_amounts": {"ann": -1, "dee": 3001}}, "Each amount is between 0 and 30,"),
        ({"by_amounts": {"ann": 1500.0, "dee": 1500}}, "Each amount is between 0 and 30,"),
        ({"by_shares": {"ann": 0, "dee": 1}}, "Each share is a whole number from 1 to 100."),
        ({"by_shares": {"ann": 101}}, "Each share is a whole number from 1 to 100."),
        ({"by_shares": {}}, "at least one player"),
        ({"by_shares": {"ann": 1}, "by_amounts": {"ann": 3000}}, "either by shares or by amounts"),
    ],
)
def test_a_split_that_does_not_add_up_is_refused_and_changes_nothing(
    night: dict[str, object], director: User, split: dict[str, dict[str, int]], message: str
) -> None:
    named = {
        kind: {night[name].pk: value for name, value in values.items()}  # type: ignore[attr-defined]
        for kind, values in split.items()
    }
    with pytest.raises(SettleUpError) as refusal:
        expense_add(
            night["event"].pk,  # type: ignore[attr-defined]
            payer_id=night["ann"].pk,  # type: ignore[attr-defined]
            amount_cents=3000,
            description="Drinks",
            by=director,
            **named,  # type: ignore[arg-type]
        )
    assert message in str(refusal.value)
    assert not Expense.objects.exists() and not ExpenseShare.objects.exists()
    assert not Transfer.objects.filter(payer__name="Ann", amount_cents=3000).exists()


def post_expense(client: Client, night: dict[str, object], data: dict[str, object]) -> str:
    url = reverse("series:settle_up", args=[night["event"].pk])  # type: ignore[attr-defined]
    base = {"action": "expense_add", "description": "Pizza", "payer": night["ann"].pk}  # type: ignore[attr-defined]
    response = client.post(url, base | data, HTTP_HX_REQUEST="true")
    return f"{response.status_code} {response.content.decode()}"


def test_the_page_splits_by_shares_and_by_amounts(
    director_client: Client, night: dict[str, object]
) -> None:
    ann, ben, cal, dee = (night[k].pk for k in ("ann", "ben", "cal", "dee"))  # type: ignore[attr-defined]
    page = post_expense(
        director_client,
        night,
        {
            "amount": "40",
            "split": "shares",
            "sharers": [ann, ben],
            f"part_{ann}": "3",
            f"part_{ben}": "",
        },
    )
    assert page.startswith("200 ") and "Expense added" in page
    assert shares_of() == {"Ann": 3000, "Ben": 1000}  # an empty share counts as one
    page = post_expense(
        director_client,
        night,
        {
            "amount": "25",
            "split": "amounts",
            "sharers": [cal, dee],
            f"part_{cal}": "5",
            f"part_{dee}": "20",
            f"part_{ann}": "99",
        },
    )
    assert page.startswith("200 ") and "Expense added" in page
    assert Expense.objects.count() == 2
    settles_to_zero(night["event"])


def test_the_page_says_why_a_split_is_refused(
    director_client: Client, night: dict[str, object]
) -> None:
    ann, ben = (night[k].pk for k in ("ann", "ben"))  # type: ignore[attr-defined]
    page = post_expense(
        director_client,
        night,
        {
            "amount": "40",
            "split": "amounts",
            "sharers": [ann, ben],
            f"part_{ann}": "10",
            f"part_{ben}": "20",
        },
    )
    assert page.startswith("400 ") and "The amounts add up to 30, not 40." in page
    page = post_expense(
        director_client,
        night,
        {"amount": "40", "split": "amounts", "sharers": [ann, ben], f"part_{ann}": "40"},
    )
    assert page.startswith("400 ") and "Give the amount Ben pays." in page
    page = post_expense(
        director_client,
        night,
        {"amount": "40", "split": "shares", "sharers": [ann], f"part_{ann}": "two"},
    )
    assert page.startswith("400 ") and "Each share is a whole number from 1 to 100." in page
    page = post_expense(
        director_client, night, {"amount": "40", "split": "thirds", "sharers": [ann]}
    )
    assert page.startswith("400 ")
    assert not Expense.objects.exists()


def test_a_part_that_is_no_number_is_refused_whatever_the_split(
    director_client: Client, night: dict[str, object]
) -> None:
    ann, ben = (night[k].pk for k in ("ann", "ben"))  # type: ignore[attr-defined]
    for split in ("equal", "shares"):
        page = post_expense(
            director_client,
            night,
            {"amount": "40", "split": split, "sharers": [ann], f"part_{ben}": "1e400"},
        )
        assert page.startswith("400 ") and "Enter a number." in page
    assert not Expense.objects.exists()
