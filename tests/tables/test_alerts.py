"""Words for one player alone: removed by the host, a seat request refused. Kept until one
of the player's pages has shown them, sent at once to the pages they have open."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from config.asgi import application
from tables import services
from tables.alerts import alert_frame, alerts_take
from tables.models import Seat, Table
from tests.tables.conftest import deal, make_players
from tests.tables.test_consumers import Viewer, open_socket
from tests.tables.test_services import play_out


def _messages(table: Table, user: User) -> list[str]:
    return [alert_frame(n)["message"] for n in alerts_take(table.pk, user.pk)]


@pytest.fixture
def private_table(director: User) -> Table:
    return services.table_create(
        created_by=director, name="Home game", big_blind=2, max_buy_in=200, private=True
    )


# ----------------------------------------------------------------------------- the services


@pytest.mark.django_db(transaction=True)
def test_a_player_removed_between_hands_is_told_why_once(
    seated_table: Table, director: User
) -> None:
    ann = Seat.objects.get(table=seated_table, number=1).user
    services.seat_remove(seated_table.pk, director, 1)
    assert _messages(seated_table, ann) == [
        "The host removed you from this table. Your 100 chips were cashed out."
    ]
    assert _messages(seated_table, ann) == []  # shown once
    ben = Seat.objects.get(table=seated_table, number=2).user
    assert alerts_take(seated_table.pk, ben.pk) == []


@pytest.mark.django_db(transaction=True)
def test_a_player_removed_during_a_hand_is_told_when_it_ends(
    seated_table: Table, director: User
) -> None:
    ann = Seat.objects.get(table=seated_table, number=1).user
    now = deal(seated_table)
    services.seat_remove(seated_table.pk, director, 1)
    # Meanwhile the snapshot says so (seats[].removing): the page shows it.
    assert alerts_take(seated_table.pk, ann.pk) == []
    play_out(seated_table, now)
    stack = [n["params"]["chips"] for n in alerts_take(seated_table.pk, ann.pk)]
    assert len(stack) == 1 and stack[0] > 0
    assert Seat.objects.get(table=seated_table, number=1).user is None


@pytest.mark.django_db(transaction=True)
def test_a_house_bot_removed_is_told_nothing(seated_table: Table, director: User) -> None:
    (bot_seat,) = services.table_add_bots(seated_table.pk, director, 1)
    bot = bot_seat.user
    services.seat_remove(seated_table.pk, director, bot_seat.number)
    assert alerts_take(seated_table.pk, bot.pk) == []


@pytest.mark.django_db(transaction=True)
def test_a_refused_seat_request_is_told_to_the_player(private_table: Table, director: User) -> None:
    ann = make_players("ann")[0]
    request = services.seat_request(
        private_table.pk, ann, 3, 100, invite=private_table.invite_token
    )
    services.seat_request_decide(private_table.pk, director, request.pk, False)
    assert _messages(private_table, ann) == ["The host refused your request for seat 3."]


@pytest.mark.django_db
def test_nothing_is_told_when_the_change_is_rolled_back(seated_table: Table) -> None:
    from django.db import transaction

    from tables.alerts import alert_add

    ann = Seat.objects.get(table=seated_table, number=1).user
    with pytest.raises(RuntimeError), transaction.atomic():
        alert_add(seated_table.pk, ann.pk, "removed", {"chips": 100})
        raise RuntimeError("the change failed")
    assert alerts_take(seated_table.pk, ann.pk) == []


# ----------------------------------------------------------------------------- the sockets


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_removed_player_s_page_says_why_at_once(
    seated_table: Table, players: list[User], director: User
) -> None:
    ann = await open_socket(seated_table, players[0], "ann")
    ben = await open_socket(seated_table, players[1], "ben")
    host = await open_socket(seated_table, director, "host")
    await host.send({"type": "remove", "seat": 1})
    told = await ann.reply()
    assert told == {
        "type": "alert",
        "code": "removed",
        "message": "The host removed you from this table. Your 100 chips were cashed out.",
    }
    await ann.until(lambda s: s["you"]["seat"] is None)  # and the page turns to watching
    await ben.drain()
    assert not [f for f in ben.frames if f["type"] == "alert"]
    # Shown once: a page opened later does not say it again.
    again = await open_socket(seated_table, players[0], "ann again")
    assert not [f for f in again.frames if f["type"] == "alert"]
    for viewer in (ann, ben, host, again):
        await viewer.ws.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_alert_waits_for_a_player_with_no_page_open(
    seated_table: Table, players: list[User], director: User
) -> None:
    await database_sync_to_async(services.seat_remove)(seated_table.pk, director, 2)
    ben = await open_socket(seated_table, players[1], "ben")
    alerts = [f for f in ben.frames if f["type"] == "alert"]
    assert [f["code"] for f in alerts] == ["removed"]
    await ben.ws.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_refused_request_reaches_the_player_s_page_at_once(
    private_table: Table, director: User
) -> None:
    ann = (await database_sync_to_async(make_players)("ann"))[0]
    request = await database_sync_to_async(services.seat_request)(
        private_table.pk, ann, 2, 100, invite=private_table.invite_token
    )
    # A guest watches a private table with its invite link in their session.
    client = Client()
    await client.aforce_login(ann)
    invite = f"/tables/{private_table.pk}/invite/{private_table.invite_token}/"
    await database_sync_to_async(client.get)(invite)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    headers = [(b"host", b"localhost"), (b"origin", b"http://localhost"), (b"cookie", cookie)]
    ws = WebsocketCommunicator(application, f"/ws/tables/{private_table.pk}/", headers=headers)
    assert (await ws.connect())[0]
    guest = Viewer("ann", ws, ann)
    guest.frames.append(await ws.receive_json_from(timeout=10))
    assert guest.snapshot["type"] == "snapshot"
    await database_sync_to_async(services.seat_request_decide)(
        private_table.pk, director, request.pk, False
    )
    told = await guest.reply()
    assert (told["type"], told["code"]) == ("alert", "request_refused")
    assert told["message"] == "The host refused your request for seat 2."
    await ws.disconnect()
