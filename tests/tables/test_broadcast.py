"""Broadcasts from a thread reach every process's sockets as the layer's own would."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from channels.layers import get_channel_layer
from django.conf import settings

from tables.runtime import broadcast

pytestmark = pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL")


def test_a_thread_publishes_what_group_send_would(settings, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [{"address": settings.REDIS_URL, "max_connections": 10}],
                "prefix": f"test-{uuid.uuid4().hex[:8]}",
            },
        }
    }

    def no_event_loop(*args: object) -> None:
        raise AssertionError("the thread waited on an event loop to publish")

    monkeypatch.setattr(broadcast, "async_to_sync", no_event_loop)
    layer = get_channel_layer()

    async def scenario() -> tuple[dict, dict]:
        mine = await layer.new_channel()
        await layer.group_add(broadcast.table_group(7), mine)
        # From a thread with no event loop, as a service's after-commit hook runs.
        await asyncio.to_thread(broadcast.table_changed, 7, 3, {"shared": "x", "seats": {}})
        changed = await asyncio.wait_for(layer.receive(mine), 5)
        await asyncio.to_thread(broadcast.table_chat, 7, {"type": "chat", "text": "gl"})
        chat = await asyncio.wait_for(layer.receive(mine), 5)
        await layer.group_discard(broadcast.table_group(7), mine)
        await layer.flush()
        return changed, chat

    changed, chat = asyncio.run(scenario())
    assert changed == {
        "type": "table.changed",
        "version": 3,
        "wire": {"shared": "x", "seats": {}},
    }
    assert chat == {"type": "table.chat", "frame": {"type": "chat", "text": "gl"}}
