"""A health consumer: proves the socket, the session and the channel layer all work.

It greets with who the socket belongs to, echoes what it is sent, and relays broadcasts to
the ``health`` group, so one message sent to the group reaches sockets on every daphne
process that shares the channel layer.
"""

import os
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from core.sockets import scope_user

HEALTH_GROUP = "health"


class HealthConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        await self.channel_layer.group_add(HEALTH_GROUP, self.channel_name)
        await self.accept()
        user = await scope_user(self.scope)
        username = user.get_username() if user is not None and user.is_authenticated else None
        await self.send_json({"type": "hello", "user": username, "pid": os.getpid()})

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(HEALTH_GROUP, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict) or content.get("type") != "echo":
            await self.send_json({"type": "error", "code": "bad_message"})
            return
        await self.send_json({"type": "echo", "data": content.get("data")})

    async def health_broadcast(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "broadcast", "text": event.get("text")})
