"""a rebuy, the host's pause seen by everyone,
and a player's host frames refused with "forbidden"."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User

from tables.models import Table
from tests.tables.test_consumers import drain_all, open_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_a_rebuy_and_a_pause_reach_every_socket(
    seated_table: Table, players: list[User], director: User
) -> None:
    ann = await open_socket(seated_table, players[0], "ann")
    host = await open_socket(seated_table, director, "host")
    watcher = await open_socket(seated_table, None, "watcher")
    await ann.send({"type": "rebuy", "amount": 50, "ref": "r1"})
    snap = await watcher.until(lambda s: s["seats"][0]["stack"] == 150)
    assert snap["seats"][0]["player"]["name"] == "ann"
    await ann.send({"type": "rebuy", "amount": 51, "ref": "r2"})
    refused = await ann.reply()
    assert (refused["code"], refused["ref"]) == ("bad_buy_in", "r2")
    await ann.send({"type": "pause"})
    assert (await ann.reply())["code"] == "forbidden"
    await host.send({"type": "pause"})
    await watcher.until(lambda s: s["table"]["paused"] is True)
    await host.send({"type": "resume"})
    await ann.until(lambda s: s["table"]["paused"] is False)
    await drain_all([ann, host, watcher])
    table = await database_sync_to_async(Table.objects.get)(pk=seated_table.pk)
    assert not table.paused
    for viewer in (ann, host, watcher):
        await viewer.ws.disconnect()


async def test_a_private_table_s_socket_is_only_for_its_host_players_and_guests(
    director: User, players: list[User]
) -> None:
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from tables import services
    from tests.tables.test_consumers import cookie_for

    table = await database_sync_to_async(services.table_create)(
        created_by=director, name="Kitchen", big_blind=2, private=True
    )
    for user in (None, players[0]):
        headers = [(b"host", b"localhost"), (b"origin", b"http://localhost")]
        if user is not None:
            headers.append((b"cookie", (await cookie_for(user)).encode()))
        ws = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=headers)
        connected, _ = await ws.connect()
        assert connected  # accepted first, then refused (see TableConsumer.connect)
        frame = await ws.receive_json_from(timeout=5)
        assert frame["type"] == "error" and frame["code"] == "private"
        closed = await ws.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": 4003}
    host = await open_socket(table, director, "host")
    assert host.snapshot["table"]["private"] is True
    await host.ws.disconnect()
