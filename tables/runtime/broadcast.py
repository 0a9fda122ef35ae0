"""Thin broadcasts to a table's group: "table N changed, version V", and chat lines.

Services call these after commit, on the thread that committed, which has no event loop of
its own (a socket server's worker thread, a Celery thread). They go through the channel
layer's public ``group_send``:
- on channels-redis (distributed mode), on this process's publisher: one event loop on a
  thread of its own, started once, to which each broadcast is handed without waiting
  (``asyncio.run_coroutine_threadsafe``). The layer keeps one Redis connection for that loop,
  and broadcasts leave in the order they were handed over;
- on Channels' in-memory layer (embedded mode), whose asyncio queues belong to the event loop
  serving the sockets, on that loop (consumers remember it when they connect).
A caller already on an event loop sends from it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import Future
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

logger = logging.getLogger(__name__)

_socket_loop: asyncio.AbstractEventLoop | None = None


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def remember_socket_loop() -> None:
    global _socket_loop
    _socket_loop = asyncio.get_running_loop()


def _sending_loop(layer: Any) -> asyncio.AbstractEventLoop | None:
    """The loop this process's broadcasts leave from, when it is running."""
    loop = _socket_loop if isinstance(layer, InMemoryChannelLayer) else _publisher_loop()
    if loop is None or not loop.is_running() or loop.is_closed():
        return None
    return loop


def _send(table_id: int, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    group = table_group(table_id)
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    try:
        if running is not None:
            running.create_task(layer.group_send(group, message))
            return
        loop = _sending_loop(layer)
        if loop is None:
            if (
                isinstance(layer, InMemoryChannelLayer)
                and _socket_loop is not None
                and not _socket_loop.is_closed()
            ):
                # The sockets' loop has stopped and is not closed: the server is shutting
                # down. Every socket this layer could reach was on that loop, so there is
                # nobody to tell; and asgiref would hand the send to that loop (the one the
                # calling thread was started from) and wait for it for ever, holding
                # whatever the caller holds (the SQLite writer's lock): the process would
                # never exit.
                return
            # No socket served in this process yet (a management command, a test): no
            # loop to hand it to, so wait for this one send.
            async_to_sync(layer.group_send)(group, message)
            return
        sent = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
        sent.add_done_callback(_log_failure)
    except Exception:
        # A lost broadcast is not lost state: sockets re-read on their next message, and the
        # consumers' periodic check picks the new version up.
        logger.exception("broadcast to %s failed", group)


def _log_failure(sent: Future[Any] | asyncio.Task[Any]) -> None:
    if sent.cancelled():
        return
    error = sent.exception()
    if error is not None:
        logger.error("a broadcast failed", exc_info=error)


_PUBLISHER: asyncio.AbstractEventLoop | None = None
_PUBLISHER_LOCK = threading.Lock()


def _publisher_loop() -> asyncio.AbstractEventLoop:
    """This process's publisher loop, started on first use on a daemon thread."""
    global _PUBLISHER
    with _PUBLISHER_LOCK:
        if _PUBLISHER is None or _PUBLISHER.is_closed():
            loop = asyncio.new_event_loop()
            started = threading.Event()

            def run() -> None:
                asyncio.set_event_loop(loop)
                loop.call_soon(started.set)
                loop.run_forever()

            threading.Thread(target=run, name="tables-publisher", daemon=True).start()
            started.wait()
            _PUBLISHER = loop
        return _PUBLISHER


def carries_state() -> bool:
    """Whether "changed" broadcasts should carry the snapshot parts (``snapshots._wire``).

    Yes when the sockets may be in other processes (channels-redis). The in-memory layer's
    sockets share the sender's process and its cache of built states, and that layer
    deep-copies every message for every socket, so there the news travels alone.
    """
    layer = get_channel_layer()
    return layer is not None and not isinstance(layer, InMemoryChannelLayer)


def table_changed(table_id: int, version: int, wire: dict[str, Any] | None = None) -> None:
    _send(table_id, _changed(version, wire))


async def table_changed_on_loop(
    table_id: int, version: int, wire: dict[str, Any] | None = None
) -> None:
    """``table_changed`` from a coroutine on the sockets' loop, sent before it returns."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(table_group(table_id), _changed(version, wire))
    except Exception:
        # As ``_send``: the consumers' periodic check picks the new version up.
        logger.exception("broadcast to %s failed", table_group(table_id))


# News that comes in bursts is gathered this long, then sent once with the latest version.
GATHER_SECONDS = 0.2
# Per sending loop and table, the latest version (and its wire) waiting to go; touched on that
# loop only. Keyed by the loop too: a loop that closed with news still waiting (a test's) must
# not hold back the next loop's.
_gathering: dict[tuple[asyncio.AbstractEventLoop, int], tuple[int, dict[str, Any] | None]] = {}


def table_changed_soon(table_id: int, version: int, wire: dict[str, Any] | None = None) -> None:
    """``table_changed`` for news that comes in bursts and may wait a moment: players'
    sockets opening and closing. When a tournament starts, or the sockets come back after
    a restart, every player of a table connects within a few milliseconds; sent one by
    one, each flip would make every socket already open build and send the table again
    (21 snapshots for a table of six), while the handshakes still waiting queue behind
    them. Gathered for ``GATHER_SECONDS``, the table goes out once, at its latest version
    (each socket renders the table as it is then, so nothing is missed).
    """
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        loop = _sending_loop(layer)
    except Exception:
        logger.exception("broadcast to %s failed", table_group(table_id))
        return
    if loop is None:
        _send(table_id, _changed(version, wire))
        return
    loop.call_soon_threadsafe(_gather, loop, layer, table_id, version, wire)


def _gather(
    loop: asyncio.AbstractEventLoop,
    layer: Any,
    table_id: int,
    version: int,
    wire: dict[str, Any] | None,
) -> None:
    waiting = _gathering.get((loop, table_id))
    if waiting is None:
        loop.call_later(GATHER_SECONDS, _release, loop, layer, table_id)
    elif waiting[0] > version:
        return
    _gathering[(loop, table_id)] = (version, wire)


def _release(loop: asyncio.AbstractEventLoop, layer: Any, table_id: int) -> None:
    version, wire = _gathering.pop((loop, table_id))
    sent = loop.create_task(layer.group_send(table_group(table_id), _changed(version, wire)))
    sent.add_done_callback(_log_failure)


def _changed(version: int, wire: dict[str, Any] | None) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "table.changed", "version": version}
    if wire is not None:
        message["wire"] = wire
    return message


def table_chat(table_id: int, frame: dict[str, Any]) -> None:
    _send(table_id, {"type": "table.chat", "frame": frame})


def table_moved(table_id: int, user_id: int, to_table: int, to_seat: int) -> None:
    """Tell a moved player's sockets at their old table where they went (the page follows)."""
    _send(
        table_id,
        {"type": "table.moved", "user_id": user_id, "to_table": to_table, "to_seat": to_seat},
    )


def table_alert(table_id: int, user_id: int, alert: dict[str, Any]) -> None:
    """An alert for one player (``tables.alerts``): their sockets at the table say it."""
    _send(table_id, {"type": "table.alert", "user_id": user_id, "alert": alert})
