"""The settle-up of a night: stored transfers, paid marks, and its page."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from series.models import CarriedDebt, Event, Player, Result, Transfer
from series.services.expenses import expense_add
from series.services.settle import (
    SettleUpError,
    settle_up_compute,
    settle_up_lines,
    transfer_mark_paid,
)
from tests.series.night import account, finished_event, guest, season

pytestmark = pytest.mark.django_db


@pytest.fixture
def night() -> dict[str, object]:
    """Four players paid 25 each (20 + 5 fee): Ann won 50, Ben 30; Cal and Dee nothing.

    To settle, fees apart: Ann +30, Ben +10, Cal -20, Dee -20. The fewest payments: three.
    """
    s = season()
    ann, ben, cal, dee = account("Ann"), account("Ben"), account("Cal"), guest("Dee")
    event = finished_event(
        s, [(ann, 1, 50, 25), (ben, 2, 30, 25), (cal, 3, 0, 25), (dee, 4, 0, 25)]
    )
    return {"event": event, "ann": ann, "ben": ben, "cal": cal, "dee": dee, "season": s}


def as_tuples(transfers: list[Transfer]) -> set[tuple[str, str, int]]:
    """Who pays whom how much, in cents (the night's money is counted in cents)."""
    return {(t.payer.name, t.payee.name, t.amount_cents) for t in transfers}


def test_the_transfers_settle_the_prize_pool_fees_apart_and_net_counts_the_fees(
    night: dict[str, object],
) -> None:
    lines = settle_up_lines(night["event"])  # type: ignore[arg-type]
    assert [(line.player_name, line.fees, line.to_settle, line.net) for line in lines] == [
        ("Ann", 5, 30, 25),
        ("Ben", 5, 10, 5),
        ("Cal", 5, -20, -25),
        ("Dee", 5, -20, -25),
    ]


def test_compute_stores_the_fewest_transfers(night: dict[str, object]) -> None:
    transfers = settle_up_compute(night["event"].pk)  # type: ignore[attr-defined]
    assert len(transfers) == 3
    assert sum(t.amount_cents for t in transfers) == 4000
    assert Transfer.objects.count() == 3
    # Running it again changes nothing.
    ids = sorted(t.pk for t in transfers)
    assert sorted(t.pk for t in settle_up_compute(night["event"].pk)) == ids  # type: ignore[attr-defined]


def test_recompute_keeps_the_paid_marks_of_identical_transfers(
    night: dict[str, object], director: User
) -> None:
    event = night["event"]
    transfers = settle_up_compute(event.pk)  # type: ignore[attr-defined]
    cal_pays = next(t for t in transfers if t.payer.name == "Cal")
    dee_pays = next(t for t in transfers if t.payer.name == "Dee")
    transfer_mark_paid(cal_pays.pk, by=director)
    transfer_mark_paid(dee_pays.pk, by=director)
    # A correction: Dee actually won 10 of Ann's prize; Cal's payment is unchanged only if
    # the computation repeats it.
    Result.objects.filter(event=event, player=night["dee"]).update(prize=10)
    Result.objects.filter(event=event, player=night["ann"]).update(prize=40)
    after = settle_up_compute(event.pk)  # type: ignore[attr-defined]
    assert sum(t.amount_cents for t in after if t.payer.name in ("Cal", "Dee")) == 3000
    for transfer in after:
        before = cal_pays if transfer.payer.name == "Cal" else dee_pays
        same = (transfer.payer_id, transfer.payee_id, transfer.amount_cents) == (
            before.payer_id,
            before.payee_id,
            before.amount_cents,
        )
        assert (transfer.paid_at is not None) == same


def test_results_that_do_not_balance_are_refused(night: dict[str, object]) -> None:
    Result.objects.filter(player=night["ann"]).update(prize=60)
    with pytest.raises(SettleUpError, match="do not balance: prizes and bounties come to 90"):
        settle_up_compute(night["event"].pk)  # type: ignore[attr-defined]
    assert not Transfer.objects.exists()


def test_mark_paid_and_unpaid(night: dict[str, object], director: User) -> None:
    transfer = settle_up_compute(night["event"].pk)[0]  # type: ignore[attr-defined]
    assert transfer_mark_paid(transfer.pk, by=director).paid_at is not None
    unpaid = transfer_mark_paid(transfer.pk, by=director, paid=False)
    assert unpaid.paid_at is None and unpaid.marked_by == director
    with pytest.raises(SettleUpError, match="no longer exists"):
        transfer_mark_paid(10_000, by=director)


def test_the_page_asks_anonymous_visitors_to_log_in(
    client: Client, night: dict[str, object]
) -> None:
    url = reverse("series:settle_up", args=[night["event"].pk])  # type: ignore[attr-defined]
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_players_who_were_not_there_are_refused(
    player_client: Client, night: dict[str, object]
) -> None:
    url = reverse("series:settle_up", args=[night["event"].pk])  # type: ignore[attr-defined]
    assert player_client.get(url).status_code == 403


def test_a_player_of_the_night_reads_it_but_cannot_mark(night: dict[str, object]) -> None:
    client = Client()
    cal: Player = night["cal"]  # type: ignore[assignment]
    client.force_login(cal.user)  # type: ignore[arg-type]
    url = reverse("series:settle_up", args=[night["event"].pk])  # type: ignore[attr-defined]
    response = client.get(url)
    assert response.status_code == 200
    body = response.content.decode()
    assert "3 payments" in body and "Mark paid" not in body
    assert "you pay" in body and "you receive" not in body
    assert "Each player pays the fee (5 per entry, 20 in all) to the host" in body
    transfer = Transfer.objects.first()
    assert client.post(url, {"transfer": transfer.pk, "paid": "1"}).status_code == 403
    assert Transfer.objects.get(pk=transfer.pk).paid_at is None


def test_the_director_marks_a_transfer_paid_from_the_page(
    director_client: Client, night: dict[str, object]
) -> None:
    url = reverse("series:settle_up", args=[night["event"].pk])  # type: ignore[attr-defined]
    assert "Mark paid" in director_client.get(url).content.decode()
    transfer = Transfer.objects.order_by("pk").first()
    response = director_client.post(url, {"transfer": transfer.pk, "paid": "1"}, follow=True)
    assert "Marked paid" in response.content.decode()
    assert Transfer.objects.get(pk=transfer.pk).paid_at is not None
    director_client.post(url, {"transfer": transfer.pk, "paid": "0"})
    assert Transfer.objects.get(pk=transfer.pk).paid_at is None
    response = director_client.post(url, {"transfer": "9999", "paid": "1"}, follow=True)
    assert "no longer exists" in response.content.decode()


def test_the_page_shows_the_season_pot_line(director_client: Client) -> None:
    s = season(season_pot_per_entry=2)
    ann, ben = account("Ann"), account("Ben")
    event = finished_event(s, [(ann, 1, 40, 25), (ben, 2, 0, 25)])
    body = director_client.get(reverse("series:settle_up", args=[event.pk])).content.decode()
    assert "Of it, 2 per entry (4 in all) goes to the season pot." in body
    assert "1 payment" in body


def test_the_page_says_why_there_are_no_transfers(
    director_client: Client, night: dict[str, object]
) -> None:
    Result.objects.filter(player=night["ann"]).update(prize=60)
    body = director_client.get(
        reverse("series:settle_up", args=[night["event"].pk])  # type: ignore[attr-defined]
    ).content.decode()
    assert "The results do not balance" in body


def test_the_page_reads_each_part_of_the_night_once(
    director_client: Client,
    night: dict[str, object],
    director: User,
    django_assert_max_num_queries: Any,
) -> None:
    # Every part of the page: results, an expense, a debt carried in from an earlier night,
    # the transfers; once they are stored, opening the page again changes none of them.
    event: Event = night["event"]  # type: ignore[assignment]
    earlier = finished_event(
        night["season"],  # type: ignore[arg-type]
        [(night["cal"], 1, 0, 0), (night["ann"], 2, 0, 0)],  # type: ignore[list-item]
        number=0,
    )
    CarriedDebt.objects.create(
        origin=earlier, payer=night["cal"], payee=night["ann"], amount_cents=1000, settled_in=event
    )
    expense_add(
        event.pk, payer_id=night["dee"].pk, amount_cents=800, description="Pizza", by=director
    )  # type: ignore[attr-defined]
    url = reverse("series:settle_up", args=[event.pk])
    director_client.get(url)
    # The settle-up's own part is 9 of them (the close, the lock, the transfers, the closed
    # check, the results, taking debts in, the expenses with their shares, the carried debts);
    # it was 30 in all when each part was read two or three times.
    with django_assert_max_num_queries(21):
        body = director_client.get(url).content.decode()
    assert "Pizza" in body and "Event 0" in body and "Mark paid" in body
