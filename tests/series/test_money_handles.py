"""A player's payment handle: set on their own page, shown only to a player who owes them
(on the settle-up's transfers they pay and on their ledger), never to anyone else."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from series.models import PaymentHandle
from series.services.settle import night_close, settle_up_compute
from tests.series.night import account, finished_event, season

pytestmark = pytest.mark.django_db

HANDLE = "PayPal: ann@example.com"


@pytest.fixture
def night() -> dict[str, object]:
    """Ann won 60; Ben and Cal nothing: Ben and Cal each pay Ann 20; Dee came out square."""
    s = season()
    ann, ben, cal, dee = account("Ann"), account("Ben"), account("Cal"), account("Dee")
    event = finished_event(
        s, [(ann, 1, 60, 25), (dee, 2, 20, 25), (ben, 3, 0, 25), (cal, 4, 0, 25)]
    )
    settle_up_compute(event.pk)
    return {"season": s, "event": event, "ann": ann, "ben": ben, "cal": cal, "dee": dee}


def client_of(player: object) -> Client:
    client = Client()
    client.force_login(player.user)  # type: ignore[attr-defined]
    return client


def test_a_player_sets_their_handle_on_their_own_page(night: dict[str, object]) -> None:
    ann = client_of(night["ann"])
    page = ann.get(reverse("series:player", args=[night["ann"].pk])).content.decode()  # type: ignore[attr-defined]
    assert "How to pay you" in page
    response = ann.post(reverse("series:payment_handle"), {"text": f"  {HANDLE} "}, follow=True)
    assert "Your payment handle is saved." in response.content.decode()
    assert PaymentHandle.objects.get().text == HANDLE
    ann.post(reverse("series:payment_handle"), {"text": "x" * 201})
    assert PaymentHandle.objects.get().text == HANDLE
    ann.post(reverse("series:payment_handle"), {"text": ""})
    assert not PaymentHandle.objects.exists()


def test_an_account_that_never_played_is_told_why(player_client: Client) -> None:
    response = player_client.post(reverse("series:payment_handle"), {"text": HANDLE}, follow=True)
    assert "once you have played" in response.content.decode()
    assert not PaymentHandle.objects.exists()


def test_only_a_player_who_owes_reads_the_handle(
    night: dict[str, object], director_client: Client
) -> None:
    PaymentHandle.objects.create(player=night["ann"], text=HANDLE)  # type: ignore[misc]
    url = reverse("series:settle_up", args=[night["event"].pk])  # type: ignore[attr-defined]
    assert HANDLE in client_of(night["ben"]).get(url).content.decode()
    assert HANDLE in client_of(night["cal"]).get(url).content.decode()
    # Dee owes nobody, Ann is the payee, the director pays nothing.
    for reader in (client_of(night["dee"]), client_of(night["ann"]), director_client):
        assert HANDLE not in reader.get(url).content.decode()
    # The profile never shows it to others.
    profile = reverse("series:player", args=[night["ann"].pk])  # type: ignore[attr-defined]
    assert HANDLE not in client_of(night["ben"]).get(profile).content.decode()
    assert HANDLE not in Client().get(profile).content.decode()


def test_the_ledger_shows_the_handle_to_the_debtor_only(
    night: dict[str, object], director: User, director_client: Client
) -> None:
    PaymentHandle.objects.create(player=night["ann"], text=HANDLE)  # type: ignore[misc]
    night_close(night["event"].pk, by=director)  # type: ignore[attr-defined]
    season_id = night["season"].pk  # type: ignore[attr-defined]
    ben_ledger = reverse("series:player_ledger", args=[season_id, night["ben"].pk])  # type: ignore[attr-defined]
    body = client_of(night["ben"]).get(ben_ledger).content.decode()
    assert HANDLE in body and "You owe" in body
    assert HANDLE not in director_client.get(ben_ledger).content.decode()
    ann_ledger = reverse("series:player_ledger", args=[season_id, night["ann"].pk])  # type: ignore[attr-defined]
    assert HANDLE not in client_of(night["ann"]).get(ann_ledger).content.decode()
    assert client_of(night["ben"]).get(ann_ledger).status_code == 403
