"""The clock socket: read-only, one per screen, for a tournament's public TV token.

It joins the tournament's clock group, sends the whole public state on connect and then
forwards each change as broadcast (``tournaments.broadcast``). It keeps nothing but the
version it last sent. Every ``RESYNC_SECONDS`` without news it re-reads the state itself,
so a lost broadcast (a Redis hiccup, a server restart) costs at most that long, and the
players-left and prize figures follow even without a clock change. It answers the page's
pings (``receive``); other frames from the client are ignored: the socket only tells.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from tournaments import broadcast
from tournaments.models import Tournament
from tournaments.services.clock import clock_payload

logger = logging.getLogger(__name__)

CLOSE_NO_TOURNAMENT = 4004
PONG = '{"type":"pong"}'
RESYNC_SECONDS = 30.0


def _tournament_id(token: str) -> int | None:
    return Tournament.objects.filter(tv_token=token).values_list("pk", flat=True).first()


class ClockConsumer(AsyncWebsocketConsumer):
    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, without its ``close_old_connections`` before every handler.

        That is a hop through Channels' one thread-sensitive executor for every broadcast to
        every screen, queued behind all the others when fifty level changes come together.
        This consumer touches the database only through ``database_sync_to_async``, which
        looks after its connections itself, so the hop bought nothing.
        """
        # Channels' documented rule: "a.b" is handled by the method a_b (never a private one).
        name = str(message.get("type", "")).replace(".", "_")
        handler = None if name.startswith("_") else getattr(self, name, None)
        if handler is None:
            raise ValueError(f"no handler for message type {message.get('type')}")
        await handler(message)

    async def connect(self) -> None:
        token = str(self.scope["url_route"]["kwargs"]["token"])
        self.sent_version = 0
        self.heard_at = time.monotonic()
        self.tournament_id = await database_sync_to_async(_tournament_id)(token)
        if self.tournament_id is None:
            # Accepting first lets the client see why: a 4004 close, not a failed handshake
            # that a page would retry forever.
            await self.accept()
            await self.close(code=CLOSE_NO_TOURNAMENT)
            return
        broadcast.remember_socket_loop()
        self.group = broadcast.clock_group(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_state()
        self.resync = asyncio.get_running_loop().create_task(self._resync())

    async def disconnect(self, code: int) -> None:
        resync = getattr(self, "resync", None)
        if resync is not None:
            resync.cancel()
        group = getattr(self, "group", None)
        if group is not None:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Read-only, but a page's "ping" gets a "pong": a socket whose far end has gone (a
        dropped Wi-Fi, a server stopped dead) never says it closed, so the page counts its
        link dead when a ping goes unanswered. Nothing else is answered."""
        if text_data == "ping":
            await self.send(text_data=PONG)

    async def _resync(self) -> None:
        while True:
            await asyncio.sleep(RESYNC_SECONDS)
            if time.monotonic() - self.heard_at < RESYNC_SECONDS:
                continue
            try:
                await self.send_state()
            except Exception:  # noqa: BLE001 - keep the socket; the next round retries
                logger.exception("clock of tournament %s: resync failed", self.tournament_id)

    async def send_state(self) -> None:
        payload = await database_sync_to_async(clock_payload)(self.tournament_id)
        if payload is None:
            await self.close(code=CLOSE_NO_TOURNAMENT)
            return
        await self._send_payload(payload)

    async def _send_payload(self, payload: dict[str, Any]) -> None:
        await self._send_text(
            int(payload.get("version", 0)), json.dumps(payload, separators=(",", ":"))
        )

    async def _send_text(self, version: int, text: str) -> None:
        # Equal versions are sent too: players left and the prize pool change without the
        # clock changing. Only an older state (overtaken in flight) is dropped.
        if version < self.sent_version:
            return
        self.sent_version = version
        self.heard_at = time.monotonic()
        await self.send(text_data=text)

    async def clock_changed(self, event: dict[str, Any]) -> None:
        await self._send_text(int(event.get("version", 0)), event["text"])
