"""The clock socket: read-only, one per screen, for a tournament's public TV token.

It joins the tournament's clock group, sends the whole public state on connect and then
forwards each change as broadcast (``tournaments.broadcast``). It keeps nothing but the
version it last sent. Every ``RESYNC_SECONDS`` without news it re-reads the state itself,
so a lost broadcast (a Redis hiccup, a server restart) costs at most that long, and the
players-left and prize figures follow even without a clock change. It answers the page's
pings (``receive``); other frames from the client are ignored: the socket only tells.

The night socket (``NightConsumer``) is a player's own: it joins the tournament's clock
group and the player's night group (``broadcast.night_group``), and sends the player's night
rendered in the page's language (``services.night.night_frame``) on connect, on each change
of the clock (a level, a break, anyone's rebuy or elimination: the payouts and what the
player may ask for follow), on each change of the player's own night, with its notice (a
move's from and to, their place), and every ``RESYNC_SECONDS`` without news.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from core.sockets import scope_user
from tournaments import broadcast
from tournaments.models import Tournament
from tournaments.services import night
from tournaments.services.clock.payload import clock_payload

logger = logging.getLogger(__name__)

CLOSE_NO_TOURNAMENT = 4004
# A night page whose viewer is nobody it may show (logged out, a PIN expired).
CLOSE_NOBODY = 4003
PONG = '{"type":"pong"}'
RESYNC_SECONDS = 30.0


def _tournament_id(token: str) -> int | None:
    return Tournament.objects.filter(tv_token=token).values_list("pk", flat=True).first()


class LeanConsumer(AsyncWebsocketConsumer):
    """The tournaments' read-only sockets: Channels' dispatch without its database hop, and
    a "pong" for each "ping"."""

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

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Read-only, but a page's "ping" gets a "pong": a socket whose far end has gone (a
        dropped Wi-Fi, a server stopped dead) never says it closed, so the page counts its
        link dead when a ping goes unanswered. Nothing else is answered."""
        if text_data == "ping":
            await self.send(text_data=PONG)

    async def join(self, *groups: str) -> None:
        """Join ``groups`` (left again on disconnect)."""
        broadcast.remember_socket_loop()
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups_joined.append(group)

    async def send_state(self) -> None:
        """Send the whole state this socket shows (each consumer says what)."""
        raise NotImplementedError

    def resync_start(self) -> None:
        """Every ``RESYNC_SECONDS`` without news, re-read the state and send it: a lost
        broadcast (a Redis hiccup, a server restart) costs at most that long."""
        self.resync = asyncio.get_running_loop().create_task(self._resync())

    async def _resync(self) -> None:
        while True:
            await asyncio.sleep(RESYNC_SECONDS)
            if time.monotonic() - self.heard_at < RESYNC_SECONDS:
                continue
            try:
                await self.send_state()
            except Exception:  # noqa: BLE001 - keep the socket; the next round retries
                logger.exception(
                    "%s of tournament %s: resync failed", type(self).__name__, self.tournament_id
                )

    async def disconnect(self, code: int) -> None:
        resync = getattr(self, "resync", None)
        if resync is not None:
            resync.cancel()
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)


class ClockConsumer(LeanConsumer):
    async def connect(self) -> None:
        token = str(self.scope["url_route"]["kwargs"]["token"])
        self.sent_version = 0
        self.heard_at = time.monotonic()
        self.groups_joined: list[str] = []
        self.tournament_id = await database_sync_to_async(_tournament_id)(token)
        if self.tournament_id is None:
            # Accepting first lets the client see why: a 4004 close, not a failed handshake
            # that a page would retry forever.
            await self.accept()
            await self.close(code=CLOSE_NO_TOURNAMENT)
            return
        await self.join(broadcast.clock_group(self.tournament_id))
        await self.accept()
        await self.send_state()
        self.resync_start()

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


class NightConsumer(LeanConsumer):
    """One player's night page: always the viewer's own night (``night_player``), never an
    id from the address."""

    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.heard_at = time.monotonic()
        self.groups_joined: list[str] = []
        # One read and send at a time: a resync never overtakes a newer change.
        self.sending = asyncio.Lock()
        # The user the session says (``tables.consumers.SessionUserMiddleware``), or the
        # guest whose PIN the session proved.
        user = await scope_user(self.scope)
        player_id = await database_sync_to_async(night.night_viewer)(
            user, self.scope["session"], self.tournament_id
        )
        await self.accept()
        if player_id is None:
            # Nobody this page may show (logged out, a guest's PIN expired): the page stops
            # retrying and asks to log in again.
            await self.close(code=CLOSE_NOBODY)
            return
        self.player_id = player_id
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.language = await database_sync_to_async(night.night_socket_language)(
            (query.get("lang") or [None])[0], player_id
        )
        await self.join(
            broadcast.clock_group(self.tournament_id),
            broadcast.night_group(self.tournament_id, player_id),
        )
        await self.send_night()
        self.resync_start()

    async def send_state(self) -> None:
        await self.send_night()

    async def send_night(self, notice: dict[str, Any] | None = None) -> None:
        async with self.sending:
            frame = await database_sync_to_async(night.night_frame)(
                self.tournament_id, self.player_id, self.language, notice
            )
            if frame is None:
                await self.close(code=CLOSE_NO_TOURNAMENT)
                return
            self.heard_at = time.monotonic()
            await self.send(text_data=json.dumps(frame, separators=(",", ":")))

    async def clock_changed(self, event: dict[str, Any]) -> None:
        # The clock's payload itself reaches the page over the clock's socket (clock.js);
        # here it only means the night may have changed with it.
        await self.send_night()

    async def night_changed(self, event: dict[str, Any]) -> None:
        notice = event.get("notice")
        await self.send_night(notice if isinstance(notice, dict) else None)
