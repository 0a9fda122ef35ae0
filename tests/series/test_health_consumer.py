"""The health socket, reached through the real ASGI application and its checks."""

import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from config.asgi import application
from series.consumers import HEALTH_GROUP

# Channels' one-second default is too short on a busy two-core CI machine.
TIMEOUT = 10

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def socket(origin: bytes | None = b"http://localhost", cookie: str = "") -> WebsocketCommunicator:
    headers = [(b"host", b"localhost")]
    if origin is not None:
        headers.append((b"origin", origin))
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    return WebsocketCommunicator(application, "/ws/health/", headers=headers)


async def test_anonymous_socket_is_greeted_and_echoed() -> None:
    communicator = socket()
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected
    hello = await communicator.receive_json_from(timeout=TIMEOUT)
    assert hello["type"] == "hello" and hello["user"] is None
    await communicator.send_json_to({"type": "echo", "data": {"n": 1}})
    assert await communicator.receive_json_from(timeout=TIMEOUT) == {
        "type": "echo",
        "data": {"n": 1},
    }
    await communicator.send_json_to({"type": "shout"})
    assert (await communicator.receive_json_from(timeout=TIMEOUT))["code"] == "bad_message"
    await communicator.disconnect()


async def test_the_session_cookie_authenticates_the_socket(player: User) -> None:
    client = Client()
    await client.aforce_login(player)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    communicator = socket(cookie=cookie)
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected
    assert (await communicator.receive_json_from(timeout=TIMEOUT))["user"] == "pat"
    await communicator.disconnect()


@pytest.mark.parametrize("origin", [b"http://evil.example.com", None])
async def test_a_foreign_or_missing_origin_is_refused(origin: bytes | None) -> None:
    communicator = socket(origin=origin)
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert not connected


async def test_group_broadcasts_reach_the_socket() -> None:
    communicator = socket()
    await communicator.connect(timeout=TIMEOUT)
    await communicator.receive_json_from(timeout=TIMEOUT)
    await get_channel_layer().group_send(
        HEALTH_GROUP, {"type": "health.broadcast", "text": "shuffle up and deal"}
    )
    message = await communicator.receive_json_from(timeout=TIMEOUT)
    assert message == {"type": "broadcast", "text": "shuffle up and deal"}
    await communicator.disconnect()
