"""Distributed mode: two web processes (``manage.py serve``, a daphne each) deliver one
broadcast to sockets on both.

Runs only with REDIS_URL and a PostgreSQL DATABASE_URL, the distributed configuration; CI
sets both. The broadcast goes to the health group through channels-redis from this test
process, as a Celery worker or another daphne would send a table's "changed" message.
"""

import json
import os
import uuid
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from websockets.sync.client import ClientConnection, connect

from series.consumers import HEALTH_GROUP
from tests.tables.servers import free_port, server_env, web_processes

pytestmark = [
    pytest.mark.distributed,
    pytest.mark.skipif(
        not settings.REDIS_URL
        or not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
        reason="distributed mode needs REDIS_URL and a PostgreSQL DATABASE_URL",
    ),
]


@pytest.fixture
def two_daphnes() -> Iterator[list[int]]:
    """Two web processes, each ``manage.py serve`` as the Procfile starts them."""
    ports = [free_port(), free_port()]
    with web_processes(server_env(), ports):
        yield ports


def receive(ws: ClientConnection) -> dict[str, object]:
    message = json.loads(ws.recv(timeout=10))
    assert isinstance(message, dict)
    return message


def test_one_broadcast_reaches_sockets_on_both_daphnes(two_daphnes: list[int]) -> None:
    with ExitStack() as stack:
        sockets = [
            stack.enter_context(
                connect(f"ws://127.0.0.1:{port}/ws/health/", origin=f"http://127.0.0.1:{port}")
            )
            for port in two_daphnes
        ]
        pids = {receive(ws)["pid"] for ws in sockets}
        assert len(pids) == 2, "both sockets were served by the same process"

        text = f"table 7 changed, version {uuid.uuid4().hex}"
        async_to_sync(get_channel_layer().group_send)(
            HEALTH_GROUP, {"type": "health.broadcast", "text": text}
        )
        for ws in sockets:
            # Other test processes may broadcast to the same group; wait for ours.
            while (message := receive(ws)) != {"type": "broadcast", "text": text}:
                assert message["type"] == "broadcast"
