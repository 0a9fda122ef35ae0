"""The table socket: authenticate, validate a frame, call a service, send each viewer its view.

The consumer keeps no game state. It remembers only what it last sent (a version number, so
a burst of "changed" messages yields one snapshot) and its own frame rate for throttling.
What a frame means is ``tables.protocol.handle_frame``, which the house bots call too.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter, deque
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any

from asgiref.sync import sync_to_async
from autobahn.exception import Disconnected
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.middleware import BaseMiddleware
from django.conf import settings
from django.contrib.auth import get_user
from django.db import InterfaceError, OperationalError, connections
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from core.sockets import scope_user
from tables import services
from tables.alerts import alert_frame, alerts_take
from tables.i18n import language_from_scope
from tables.protocol import error_frame, handle_frame, handle_move_on_loop
from tables.runtime import broadcast
from tables.runtime.snapshots import snapshot_text_from_wire
from tables.runtime.state import STATE
from tables.throttle import SOCKETS_PER_TABLE
from tables.timing import SERVER_HEARTBEAT_SECONDS

logger = logging.getLogger(__name__)

MAX_FRAME_BYTES = 64 * 1024
FLOOD_WINDOW_SECONDS = 2.0
FLOOD_LIMIT = 20  # frames per window; more are refused with "throttled"
FLOOD_CLOSE = 40  # frames per window; more close the socket with 4008
CLOSE_FLOOD = 4008
CLOSE_NO_TABLE = 4004
CLOSE_PRIVATE = 4003
CLOSE_TOO_MANY_SOCKETS = 4009
# A socket re-reads its table this often, in case a "changed" broadcast was lost (a Redis
# hiccup, a process restarting): it costs one query when nothing changed.
RESYNC_SECONDS = 10.0

# The sockets' database work runs on these threads, which keep their connections open.
# With CONN_MAX_AGE=0 (the site's setting, right for HTTP under ASGI) channels'
# database_sync_to_async opens a connection per message, which cost more than the move.
# A bounded pool means a bounded number of connections per process. Two, not more: a move
# is mostly waits on PostgreSQL and Redis, and every thread back from one waits for the
# GIL behind the others and the event loop; with four, bursts of moves queued on the GIL
# (load test, 100 tables on two daphnes: p99 29-77 ms with four threads, 19-37 with two).
# Two also keep a process moving while one thread waits on another process's table lock.
_DB_THREADS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="tables-db")
# The handshake's one read (the session and its user) has a thread of its own, with its own
# kept connection. On the two above it queued behind every socket already accepted (its
# table, its seat count, its first snapshot): in a storm of sockets connecting at once (a
# tournament's start, the reconnect wave after a restart) on a busy host, the last ones
# waited seconds to be accepted (load test, 600 sockets with two processes spinning: p99
# 2.4 s against a bare relay's 0.08 s). Two small queries, so one thread keeps up.
_HANDSHAKE_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tables-db-handshake")


def _keep_connections() -> bool:
    return bool(getattr(settings, "TABLES_KEEP_DB_CONNECTIONS", True))


def database_sync_to_async(func: Any, executor: ThreadPoolExecutor = _DB_THREADS) -> Any:
    def run(*args: Any, **kwargs: Any) -> Any:
        keep = _keep_connections()
        try:
            return func(*args, **kwargs)
        except (OperationalError, InterfaceError):
            keep = False  # a broken connection: open a fresh one next time
            raise
        finally:
            if not keep:
                connections.close_all()

    return sync_to_async(run, thread_sensitive=False, executor=executor)


def _session_user(session: Any) -> Any:
    # Django's own reading of a request's user (session key, backend, password hash check),
    # given the handshake's session: a socket has no request.
    return get_user(SimpleNamespace(session=session))  # type: ignore[arg-type]


class SessionUserMiddleware(BaseMiddleware):
    """Every socket's user, read from its session while the consumer accepts the socket:
    a consumer awaits ``scope_user(scope)`` once it has accepted, so no handshake waits for
    the database (daphne answers it as soon as the consumer accepts).

    What channels' ``AuthMiddleware`` does, read on a database thread of the sockets', which
    keep their connections: channels' own helper closes the connection after each use (the
    site's CONN_MAX_AGE=0), so every handshake opened a PostgreSQL connection of its own, one
    after another on a single thread; a burst of sockets connecting at once (a server
    restarting, the load test's 600) then waited seconds for their handshakes, past daphne's
    five-second limit for some."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        if "session" not in scope:
            raise ValueError("SessionUserMiddleware needs channels' SessionMiddleware above it")
        read = asyncio.ensure_future(
            database_sync_to_async(_session_user, _HANDSHAKE_THREAD)(scope["session"])
        )
        # A consumer that never asks (the TV clock's) must not leave a failure unread.
        read.add_done_callback(lambda done: done.cancelled() or done.exception())
        return await super().__call__(dict(scope, user_read=read), receive, send)


_heartbeat: asyncio.Task[None] | None = None

# Sockets open in this process, per (table, player): at most SOCKETS_PER_TABLE each.
_OPEN: Counter[tuple[int, Any]] = Counter()


async def _server_alive() -> None:
    """Keep this process's heartbeat going (``services.server_heartbeat``) while it serves.

    The first beat is recorded before this process counts any socket, so every count names
    a process the sweep knows; a process killed outright stops beating, and the sweep then
    forgets its sockets.
    """
    global _heartbeat
    loop = asyncio.get_running_loop()
    if _heartbeat is not None and not _heartbeat.done() and _heartbeat.get_loop() is loop:
        return
    await database_sync_to_async(services.server_heartbeat)()
    if _heartbeat is None or _heartbeat.done() or _heartbeat.get_loop() is not loop:
        _heartbeat = loop.create_task(_beat())


async def _beat() -> None:
    while True:
        await asyncio.sleep(SERVER_HEARTBEAT_SECONDS)
        try:
            await database_sync_to_async(services.server_heartbeat)()
        except Exception:  # noqa: BLE001 - a missed beat is retried; 45 s of them is "gone"
            logger.exception("server heartbeat failed")


class TableConsumer(AsyncWebsocketConsumer):
    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, without its ``close_old_connections`` before every handler.

        Channels runs that through the one thread-sensitive executor, so every broadcast
        to every socket queued behind all the others for a thread hop (six per move per
        table): the largest latency in the load test. This consumer touches the database
        only on its own threads (``database_sync_to_async`` above), which look after their
        connections, so the hop bought nothing.
        """
        # Channels' documented rule: "a.b" is handled by the method a_b (never a private one).
        name = str(message.get("type", "")).replace(".", "_")
        handler = None if name.startswith("_") else getattr(self, name, None)
        if handler is None:
            raise ValueError(f"no handler for message type {message.get('type')}")
        try:
            await handler(message)
        except StopConsumer:
            raise
        except Disconnected:
            # The reader closed the socket while a frame was on its way to it: daphne's
            # ``websocket.disconnect`` follows and does the bookkeeping. Nothing failed.
            logger.info(
                "table %s: %s to a closed socket", getattr(self, "table_id", "?"), message["type"]
            )
        except Exception:
            # No message may end a socket's bookkeeping: an exception here would close it
            # with 1011 without ``disconnect`` (the player would stay "connected" for the
            # life of the process). Log it, tell the client, keep the socket.
            logger.exception("table %s: %s failed", getattr(self, "table_id", "?"), message["type"])
            if message["type"] == "websocket.receive":
                with translation.override(getattr(self, "language", None)):
                    text = _("that frame could not be handled")
                await self.send_json(error_frame("server_error", text))

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        # Every word this socket sends is in its reader's language, read once from the
        # handshake (the language cookie, then Accept-Language): not the language of
        # whoever made the move that a snapshot or an error follows.
        self.language = language_from_scope(self.scope)
        self.sent_version = 0
        self.recent: deque[float] = deque()
        self.counted = False
        self.heard_at = time.monotonic()
        # Accept first: daphne drops a handshake not answered within 5 seconds, and under a
        # burst of connections the database work below can take longer than that.
        await self.accept()
        self.user = await scope_user(self.scope)
        player = self.user is not None and self.user.is_authenticated
        if player:
            slot = (self.table_id, self.user.pk)
            if _OPEN[slot] >= SOCKETS_PER_TABLE:
                with translation.override(self.language):
                    text = _("at most %(count)d open pages of one table per player") % {
                        "count": SOCKETS_PER_TABLE
                    }
                await self.send_json(error_frame("too_many_sockets", text))
                await self.close(code=CLOSE_TOO_MANY_SOCKETS)
                return
            _OPEN[slot] += 1
            self.slot = slot
            # The process's first beat is recorded before it counts any socket.
            await _server_alive()
        broadcast.remember_socket_loop()
        # In the group before the table is read: no change after the read is missed.
        self.group = broadcast.table_group(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        opened = await database_sync_to_async(self._open)()
        self.counted = opened.counted
        if opened.created_at is None or not opened.watchable:
            if opened.created_at is None:
                await self.close(code=CLOSE_NO_TABLE)
                return
            # A private table, and no invite link in this session: as its page, refuse.
            with translation.override(self.language):
                text = _("this table is private")
            await self.send_json(error_frame("private", text))
            await self.close(code=CLOSE_PRIVATE)
            return
        self.table_created_at = opened.created_at
        if opened.version > self.sent_version:
            self.sent_version = opened.version
            await self.send(text_data=opened.text)
        if opened.elsewhere is not None:
            await self.table_moved(
                {
                    "user_id": self.user.pk,
                    "to_table": opened.elsewhere[0],
                    "to_seat": opened.elsewhere[1],
                }
            )
        for alert in opened.alerts:
            await self._send_alert(alert)
        self.resync = asyncio.get_running_loop().create_task(self._resync())

    def _open(self) -> services.SocketOpened:
        # On a database thread, in this socket's language (see ``_snapshot_text``).
        with translation.override(self.language):
            return services.socket_open(self.table_id, self.user, self.scope.get("session"))

    async def _resync(self) -> None:
        while True:
            await asyncio.sleep(RESYNC_SECONDS)
            if time.monotonic() - self.heard_at < RESYNC_SECONDS:
                continue  # the group is talking: no broadcast was lost
            try:
                await self.send_snapshot()
                await self._follow()
            except Exception:  # noqa: BLE001 - keep the socket; the next round retries
                logger.exception("table %s: resync failed", self.table_id)

    async def disconnect(self, code: int) -> None:
        resync = getattr(self, "resync", None)
        if resync is not None:
            resync.cancel()
        slot = getattr(self, "slot", None)
        if slot is not None:
            _OPEN[slot] -= 1
            if _OPEN[slot] <= 0:
                del _OPEN[slot]
            self.slot = None
        group = getattr(self, "group", None)
        if group is None:
            return
        await self.channel_layer.group_discard(group, self.channel_name)
        if getattr(self, "counted", False):
            try:
                await database_sync_to_async(services.seat_connection)(self.table_id, self.user, -1)
            except services.TableError:
                pass  # the table was deleted while this socket was open: nothing to count

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        now = time.monotonic()
        self.recent.append(now)
        while self.recent and self.recent[0] < now - FLOOD_WINDOW_SECONDS:
            self.recent.popleft()
        if len(self.recent) > FLOOD_CLOSE:
            await self.close(code=CLOSE_FLOOD)
            return
        if len(self.recent) > FLOOD_LIMIT:
            with translation.override(self.language):
                text = _("more than %(frames)d frames in %(seconds)s s") % {
                    "frames": FLOOD_LIMIT,
                    "seconds": f"{FLOOD_WINDOW_SECONDS:g}",
                }
            await self.send_json(error_frame("throttled", text))
            return
        raw = text_data if text_data is not None else bytes_data or b""
        size = len(raw.encode()) if isinstance(raw, str) else len(raw)
        if size > MAX_FRAME_BYTES:
            with translation.override(self.language):
                text = _("frames are at most %(bytes)d bytes") % {"bytes": MAX_FRAME_BYTES}
            await self.send_json(error_frame("too_large", text))
            return
        try:
            frame = json.loads(raw)
        except (ValueError, UnicodeDecodeError, RecursionError):
            # RecursionError: a frame nested deeper than Python's parser goes ("[" * 50000).
            with translation.override(self.language):
                text = _("a frame is one JSON object")
            await self.send_json(error_frame("malformed", text))
            return
        # A move from the rows this process keeps is made on this loop; anything else, on
        # a database thread (protocol.handle_move_on_loop says which).
        with translation.override(self.language):
            replies = await handle_move_on_loop(self.table_id, self.user, frame)
        if replies is None:
            replies = await database_sync_to_async(self._handle_frame)(frame)
        for reply in replies:
            await self.send_json(reply)
        if not replies and isinstance(frame, dict) and frame.get("type") == "sit":
            # This socket now belongs to a seated player: count it as their connection.
            await _server_alive()
            await database_sync_to_async(services.seat_connection)(self.table_id, self.user, 1)
            self.counted = True

    def _handle_frame(self, frame: Any) -> list[dict[str, Any]]:
        # On a database thread: the errors it returns are worded in this socket's language.
        with translation.override(self.language):
            return handle_frame(self.table_id, self.user, frame)

    async def table_changed(self, event: dict[str, Any]) -> None:
        version = event.get("version", 0)
        self.heard_at = time.monotonic()
        if version <= self.sent_version:
            return
        wire = event.get("wire")
        if wire is not None:
            STATE.heard(self.table_id, self.table_created_at, version, wire)
            text = snapshot_text_from_wire(wire, self.user)
        else:
            text = STATE.snapshot_text_if_cached(
                self.table_id, self.table_created_at, version, self.user
            )
        if text is None:
            await self.send_snapshot()
            return
        self.sent_version = version
        await self.send(text_data=text)

    async def table_chat(self, event: dict[str, Any]) -> None:
        await self.send_json(event["frame"])

    def _snapshot_text(self) -> tuple[int, str]:
        # A snapshot carries codes and numbers, no prose (it is shared by every viewer and
        # cached per version); the language is set all the same, so nothing built on the
        # way can come out in another reader's language.
        with translation.override(self.language):
            return STATE.snapshot_text(self.table_id, self.user)

    async def _follow(self) -> None:
        """A tournament moved this player while the page was away or the news was lost:
        send them where they sit now (``moved``), as the move's own frame would."""
        if self.user is None or not self.user.is_authenticated:
            return
        where = await database_sync_to_async(services.seat_elsewhere)(self.table_id, self.user)
        if where is not None:
            await self.table_moved(
                {"user_id": self.user.pk, "to_table": where[0], "to_seat": where[1]}
            )

    async def table_moved(self, event: dict[str, Any]) -> None:
        # Only the moved player's own sockets follow; spectators stay where they are.
        if self.user is None or getattr(self.user, "pk", None) != event["user_id"]:
            return
        await self.send_json(
            {
                "type": "moved",
                "table": event["to_table"],
                "seat": event["to_seat"],
                "url": reverse("tables:table", args=[event["to_table"]]),
            }
        )

    async def table_alert(self, event: dict[str, Any]) -> None:
        # Only the player's own sockets say it; every one of their open pages does, and the
        # first to say it forgets it, so a page opened later does not say it again.
        if self.user is None or getattr(self.user, "pk", None) != event["user_id"]:
            return
        alert = event["alert"]
        await self._send_alert(alert)
        await database_sync_to_async(alerts_take)(self.table_id, self.user.pk, [alert["id"]])

    async def _send_alert(self, alert: dict[str, Any]) -> None:
        with translation.override(self.language):
            frame = alert_frame(alert)
        await self.send_json(frame)

    async def send_snapshot(self) -> None:
        version, text = await database_sync_to_async(self._snapshot_text)()
        if version <= self.sent_version:
            return
        self.sent_version = version
        await self.send(text_data=text)

    async def send_json(self, content: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(content, separators=(",", ":")))
