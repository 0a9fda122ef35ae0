"""Hosting as pages: a private table and its invite link, the host's page and
its controls, the ledger page and its CSV (and who gets 403)."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tables import services
from tables.models import Seat, SeatRequest, Table
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_table(director: User) -> Table:
    return services.table_create(
        created_by=director,
        name="Kitchen game",
        big_blind=2,
        min_buy_in=40,
        max_buy_in=200,
        private=True,
    )


@pytest.fixture
def open_table(director: User) -> Table:
    return services.table_create(created_by=director, name="Open game", big_blind=2)


def login(name: str) -> tuple[User, Client]:
    user = User.objects.create_user(name, password=PASSWORD)
    client = Client()
    client.force_login(user)
    return user, client


def test_a_private_table_is_not_listed_and_its_page_says_it_is_private(
    private_table: Table, open_table: Table, player_client: Client, director_client: Client
) -> None:
    lobby = player_client.get(reverse("tables:lobby")).content.decode()
    assert "Open game" in lobby and "Kitchen game" not in lobby
    assert "Kitchen game" in director_client.get(reverse("tables:lobby")).content.decode()
    page = player_client.get(reverse("tables:table", args=[private_table.pk]))
    assert page.status_code == 403
    assert "This table is private" in page.content.decode()
    assert private_table.invite_token not in page.content.decode()
    assert player_client.get(reverse("tables:table_me", args=[private_table.pk])).status_code == 403
    assert Client().get(reverse("tables:table", args=[private_table.pk])).status_code == 403


def test_the_invite_link_opens_the_table_and_a_wrong_one_does_not(
    private_table: Table, player_client: Client
) -> None:
    wrong = reverse("tables:table_invite", args=[private_table.pk, "x" * 32])
    assert player_client.get(wrong).status_code == 404
    link = reverse("tables:table_invite", args=[private_table.pk, private_table.invite_token])
    response = player_client.get(link)
    assert response.status_code == 302
    assert response["Location"] == reverse("tables:table", args=[private_table.pk])
    assert player_client.get(response["Location"]).status_code == 200
    me = player_client.get(reverse("tables:table_me", args=[private_table.pk])).json()
    assert me["invite"] == private_table.invite_token and not me["host"]
    assert me["host_url"] is None and me["ledger_url"] is None


def test_the_host_page_is_the_hosts_and_its_controls_work(
    private_table: Table, director: User, director_client: Client, player_client: Client
) -> None:
    url = reverse("tables:table_host", args=[private_table.pk])
    assert player_client.get(url).status_code == 403
    assert Client().get(url).status_code == 302  # to log in
    page = director_client.get(url).content.decode()
    assert private_table.invite_token in page  # the invite link, for the host to send
    do = reverse("tables:table_host_action", args=[private_table.pk])
    assert player_client.post(do, {"action": "pause"}).status_code == 403
    director_client.post(do, {"action": "pause"})
    assert Table.objects.get(pk=private_table.pk).paused
    director_client.post(do, {"action": "resume"})
    assert not Table.objects.get(pk=private_table.pk).paused
    ann, _client = login("ann")
    request = services.seat_request(
        private_table.pk, ann, 3, 100, invite=private_table.invite_token
    )
    assert "ann" in director_client.get(url).content.decode()
    me = director_client.get(reverse("tables:table_me", args=[private_table.pk])).json()
    assert me["host"] and me["requests"] == 1
    director_client.post(do, {"action": "approve", "request": request.pk})
    assert Seat.objects.get(table=private_table, number=3).user == ann
    director_client.post(do, {"action": "remove", "seat": 3})
    assert Seat.objects.get(table=private_table, number=3).user is None
    response = director_client.post(do, {"action": "remove", "seat": 3}, follow=True)
    assert "seat 3 is empty" in response.content.decode()
    director_client.post(do, {"action": "close"})
    assert not Table.objects.get(pk=private_table.pk).is_open
    assert SeatRequest.objects.get().status == "approved"


def test_the_ledger_is_for_the_tables_players_and_downloads_as_csv(open_table: Table) -> None:
    ann, ann_client = login("ann")
    ben, _ben_client = login("=cmd")
    _olga, olga_client = login("olga")
    services.seat_take(open_table.pk, ann, 1, open_table.max_buy_in - 10)
    services.seat_rebuy(open_table.pk, ann, 10)
    services.seat_take(open_table.pk, ben, 2, open_table.max_buy_in)
    services.seat_leave(open_table.pk, ben)
    url = reverse("tables:table_ledger", args=[open_table.pk])
    csv_url = reverse("tables:table_ledger_csv", args=[open_table.pk])
    assert olga_client.get(url).status_code == 403
    assert olga_client.get(csv_url).status_code == 403
    assert Client().get(url).status_code == 302
    page = ann_client.get(url).content.decode()
    assert "Rebuy or add-on" in page and "Download CSV" in page
    me = ann_client.get(reverse("tables:table_me", args=[open_table.pk])).json()
    assert me["ledger_url"] == url
    response = ann_client.get(csv_url)
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["Player", "Bought in", "Rebuys", "Cashed out", "Stack", "Net"]
    by_name = {r[0]: r for r in rows[1:3]}
    assert by_name["ann"][1:] == [
        str(open_table.max_buy_in - 10),
        "10",
        "0",
        str(open_table.max_buy_in),
        "0",
    ]
    # A name that a spreadsheet would run as a formula is written as text.
    assert "'=cmd" in by_name
    assert ["Time", "Player", "Seat", "Kind", "Amount"] in rows
