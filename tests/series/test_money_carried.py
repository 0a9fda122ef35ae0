"""Closing a night: the balance check, read-only closed nights, unpaid transfers carried to
the season's next night and settled with its balances, reopening without carrying twice,
and each player's ledger."""

from __future__ import annotations

from datetime import date, datetime

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from series.ledgers import ledger_balances, player_ledger
from series.models import CarriedDebt, NightClose, Player, Result, Season, Transfer
from series.services.expenses import expense_add
from series.services.settle import (
    SettleUpError,
    night_close,
    night_reopen,
    settle_up_balances,
    settle_up_compute,
    transfer_mark_paid,
)
from tests.series.night import account, finished_event, season

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_nights() -> dict[str, object]:
    """Night 1: Ann won 40, Ben nothing (to settle: Ann +20, Ben -20). Night 2: Ben won
    40, Cal nothing, Ann did not play (Ben +20, Cal -20)."""
    s = season()
    ann, ben, cal = account("Ann"), account("Ben"), account("Cal")
    first = finished_event(s, [(ann, 1, 40, 25), (ben, 2, 0, 25)], number=1)
    second = finished_event(s, [(ben, 1, 40, 25), (cal, 2, 0, 25)], number=2)
    return {"season": s, "first": first, "second": second, "ann": ann, "ben": ben, "cal": cal}


def as_tuples(transfers: list[Transfer]) -> set[tuple[str, str, int]]:
    """Who pays whom how much, in cents (the night's money is counted in cents)."""
    return {(t.payer.name, t.payee.name, t.amount_cents) for t in transfers}


def test_an_unpaid_transfer_is_carried_and_settled_with_the_next_night(
    two_nights: dict[str, object], director: User
) -> None:
    first, second = two_nights["first"], two_nights["second"]
    assert as_tuples(settle_up_compute(first.pk)) == {("Ben", "Ann", 2000)}  # type: ignore[attr-defined]
    night_close(first.pk, by=director)  # type: ignore[attr-defined]
    debt = CarriedDebt.objects.get()
    assert (debt.payer.name, debt.payee.name, debt.amount_cents, debt.settled_in) == (
        "Ben",
        "Ann",
        2000,
        None,
    )
    # Night 2 alone: Cal pays Ben 20. With Ben's debt to Ann: Ben is square, Cal pays Ann.
    transfers = settle_up_compute(second.pk)  # type: ignore[attr-defined]
    assert as_tuples(transfers) == {("Cal", "Ann", 2000)}
    debt.refresh_from_db()
    assert debt.settled_in == second
    balances = {
        b.player_name: (b.to_settle, b.carried, b.balance) for b in settle_up_balances(second)
    }  # type: ignore[arg-type]
    assert balances == {
        "Ben": (2000, -2000, 0),
        "Cal": (-2000, 0, -2000),
        "Ann": (0, 2000, 2000),
    }


def test_paid_transfers_are_not_carried(two_nights: dict[str, object], director: User) -> None:
    first = two_nights["first"]
    transfer = settle_up_compute(first.pk)[0]  # type: ignore[attr-defined]
    transfer_mark_paid(transfer.pk, by=director)
    night_close(first.pk, by=director)  # type: ignore[attr-defined]
    assert not CarriedDebt.objects.exists()


def test_a_closed_night_is_read_only(two_nights: dict[str, object], director: User) -> None:
    first = two_nights["first"]
    transfer = settle_up_compute(first.pk)[0]  # type: ignore[attr-defined]
    night_close(first.pk, by=director)  # type: ignore[attr-defined]
    with pytest.raises(SettleUpError, match="closed"):
        transfer_mark_paid(transfer.pk, by=director)
    with pytest.raises(SettleUpError, match="closed"):
        expense_add(
            first.pk, payer_id=two_nights["ann"].pk, amount_cents=400, description="x", by=director
        )  # type: ignore[attr-defined]
    with pytest.raises(SettleUpError, match="closed already"):
        night_close(first.pk, by=director)  # type: ignore[attr-defined]
    # A later correction does not rewrite a closed night's transfers.
    Result.objects.filter(event=first, player=two_nights["ann"]).update(prize=30)
    Result.objects.filter(event=first, player=two_nights["ben"]).update(prize=10)
    assert [t.pk for t in settle_up_compute(first.pk)] == [transfer.pk]  # type: ignore[attr-defined]


def test_closing_an_unbalanced_night_is_refused(
    two_nights: dict[str, object], director: User
) -> None:
    first = two_nights["first"]
    settle_up_compute(first.pk)  # type: ignore[attr-defined]
    Result.objects.filter(event=first, player=two_nights["ann"]).update(prize=60)
    with pytest.raises(SettleUpError, match="cannot be closed: The results do not balance"):
        night_close(first.pk, by=director)  # type: ignore[attr-defined]
    assert not NightClose.objects.exists() and not CarriedDebt.objects.exists()


def test_closing_is_refused_when_the_transfers_do_not_match_the_balances(
    two_nights: dict[str, object], director: User
) -> None:
    first = two_nights["first"]
    settle_up_compute(first.pk)  # type: ignore[attr-defined]
    # Balanced results, but not the ones the stored transfers settle.
    Result.objects.filter(event=first, player=two_nights["ann"]).update(prize=30)
    Result.objects.filter(event=first, player=two_nights["ben"]).update(prize=10)
    with pytest.raises(SettleUpError, match="payments do not match the balances \\(Ann, Ben\\)"):
        night_close(first.pk, by=director)  # type: ignore[attr-defined]
    assert not NightClose.objects.exists()


def test_reopening_takes_the_carried_debts_back_and_closing_again_carries_once(
    two_nights: dict[str, object], director: User
) -> None:
    first, second = two_nights["first"], two_nights["second"]
    settle_up_compute(first.pk)  # type: ignore[attr-defined]
    night_close(first.pk, by=director)  # type: ignore[attr-defined]
    assert as_tuples(settle_up_compute(second.pk)) == {("Cal", "Ann", 2000)}  # type: ignore[attr-defined]
    night_reopen(first.pk, by=director)  # type: ignore[attr-defined]
    assert not CarriedDebt.objects.exists()
    # The second night no longer settles the debt.
    assert as_tuples(list(Transfer.objects.filter(event=second))) == {("Cal", "Ben", 2000)}
    night_close(first.pk, by=director)  # type: ignore[attr-defined]
    settle_up_compute(second.pk)  # type: ignore[attr-defined]
    assert CarriedDebt.objects.count() == 1
    assert as_tuples(list(Transfer.objects.filter(event=second))) == {("Cal", "Ann", 2000)}


def test_reopening_is_refused_when_the_next_night_is_closed_too(
    two_nights: dict[str, object], director: User
) -> None:
    first, second = two_nights["first"], two_nights["second"]
    settle_up_compute(first.pk)  # type: ignore[attr-defined]
    night_close(first.pk, by=director)  # type: ignore[attr-defined]
    settle_up_compute(second.pk)  # type: ignore[attr-defined]
    night_close(second.pk, by=director)  # type: ignore[attr-defined]
    with pytest.raises(SettleUpError, match="carried into Event 2, which is closed"):
        night_reopen(first.pk, by=director)  # type: ignore[attr-defined]
    assert NightClose.objects.count() == 2
    night_reopen(second.pk, by=director)  # type: ignore[attr-defined]
    night_reopen(first.pk, by=director)  # type: ignore[attr-defined]
    assert not NightClose.objects.exists()
    # Night 2 carried its own unpaid transfer and took it back: nothing is left carried.
    assert not CarriedDebt.objects.exists()


def test_the_ledger_counts_results_expenses_and_payments_not_carried_debts(
    two_nights: dict[str, object], director: User
) -> None:
    first, second = two_nights["first"], two_nights["second"]
    ann, ben, cal = two_nights["ann"], two_nights["ben"], two_nights["cal"]
    expense_add(first.pk, payer_id=ann.pk, amount_cents=1000, description="Pizza", by=director)  # type: ignore[attr-defined]
    # Night 1: Ann +20 + 10 - 5 = +25, Ben -20 - 5 = -25; Ben pays Ann 25, not paid.
    night_close(first.pk, by=director)  # type: ignore[attr-defined]
    ledger = player_ledger(ben, two_nights["season"])  # type: ignore[arg-type]
    # Night 1's result, share and carried debt (shown, not counted), then night 2's result.
    # In cents, as the night's money.
    assert [(e.event, e.amount, e.counts) for e in ledger.entries] == [
        (first, -2000, True),
        (first, -500, True),
        (first, -2500, False),
        (second, 2000, True),
    ]
    assert [e.balance for e in ledger.entries] == [-2000, -2500, -2500, -500]
    assert [(d.other.name, d.amount, d.carried) for d in ledger.owes] == [("Ann", 2500, True)]
    # Night 2 settles it: Ben +20 - 25 = -5, Cal -20, Ann +25.
    transfers = settle_up_compute(second.pk)  # type: ignore[attr-defined]
    for transfer in transfers:
        transfer_mark_paid(transfer.pk, by=director)
    for player in (ann, ben, cal):
        assert player_ledger(player, two_nights["season"]).balance == 0  # type: ignore[arg-type]
    ledger = player_ledger(ben, two_nights["season"])  # type: ignore[arg-type]
    assert ledger.owes == [] and ledger.entries[-1].text.startswith("Paid Ann")
    assert ledger_balances(ben) == [(two_nights["season"], 0)]


def test_the_director_closes_and_reopens_from_the_page(
    director_client: Client, two_nights: dict[str, object]
) -> None:
    url = reverse("series:settle_up", args=[two_nights["first"].pk])  # type: ignore[attr-defined]
    assert "Close the night" in director_client.get(url).content.decode()
    body = director_client.post(url, {"action": "close"}, HTTP_HX_REQUEST="true").content.decode()
    assert "The night is closed" in body and "Reopen the night" in body
    assert "Mark paid" not in body and "Add an expense" not in body
    body = director_client.post(url, {"action": "close"}, follow=True).content.decode()
    assert "closed already" in body
    body = director_client.post(url, {"action": "reopen"}, follow=True).content.decode()
    assert "open again" in body and "Close the night" in body


def test_the_ledger_page_is_for_the_player_and_the_directors(
    director_client: Client, two_nights: dict[str, object]
) -> None:
    ben, cal = two_nights["ben"], two_nights["cal"]
    url = reverse("series:player_ledger", args=[two_nights["season"].pk, ben.pk])  # type: ignore[attr-defined]
    assert director_client.get(url).status_code == 200
    own = Client()
    own.force_login(ben.user)  # type: ignore[attr-defined]
    assert "Result of the night" in own.get(url).content.decode()
    other = Client()
    other.force_login(cal.user)  # type: ignore[attr-defined]
    assert other.get(url).status_code == 403
    assert Client().get(url).status_code == 302
    # The profile shows the balance to the player, not to others.
    profile = reverse("series:player", args=[ben.pk])  # type: ignore[attr-defined]
    assert "Ledger of Omaha 2026" in own.get(profile).content.decode()
    assert "Ledger of" not in other.get(profile).content.decode()


def test_the_profiles_balances_are_the_ledgers_in_a_fixed_number_of_queries(
    client: Client, two_nights: dict[str, object], director: User
) -> None:
    first, second = two_nights["first"], two_nights["second"]
    ann: Player = two_nights["ann"]  # type: ignore[assignment]
    ben: Player = two_nights["ben"]  # type: ignore[assignment]
    expense_add(first.pk, payer_id=ann.pk, amount_cents=1000, description="Pizza", by=director)  # type: ignore[attr-defined]
    night_close(first.pk, by=director)  # type: ignore[attr-defined]
    for transfer in settle_up_compute(second.pk):  # type: ignore[attr-defined]
        if transfer.payer_id == ben.pk:
            transfer_mark_paid(transfer.pk, by=director)
    client.force_login(ben.user)  # type: ignore[arg-type]
    url = reverse("series:player", args=[ben.pk])

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured.captured_queries)

    one_season = queries()
    # Two earlier seasons: Ben shares the room he paid for; in 2024 he pays what he owes.
    for year in (2024, 2025):
        earlier = Season.objects.create(
            name=f"Omaha {year}", starts_on=date(year, 1, 1), ends_on=date(year, 12, 31)
        )
        night = finished_event(
            earlier,
            [(ann, 1, 40, 25), (ben, 2, 0, 25)],
            starts_at=timezone.make_aware(datetime(year, 3, 1, 19, 30)),
        )
        expense_add(night.pk, payer_id=ben.pk, amount_cents=700, description="Room", by=director)
        transfers = settle_up_compute(night.pk)
        if year == 2024:
            transfer_mark_paid(transfers[0].pk, by=director)
    assert queries() == one_season
    for player in (ann, ben, two_nights["cal"]):
        played = Season.objects.filter(events__results__player=player).distinct()
        ledgers = [(s, player_ledger(player, s).balance) for s in played.order_by("-starts_on")]  # type: ignore[arg-type]
        assert ledger_balances(player) == ledgers  # type: ignore[arg-type]
    assert [balance for _season, balance in ledger_balances(ann)] == [2000, 1650, 0]
