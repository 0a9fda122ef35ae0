"""Broadcasts to a tournament's clock screens: its whole public state, after each change;
and to one player's night pages, a thin "your night changed" (``night_changed``).

The clock's state is the same for every viewer (a TV, a phone, the console, an overlay), so
the message carries it and each socket forwards it as it is: one read per change, not one
per screen. Services call ``clock_changed`` after commit, on the thread that committed:

- with the in-memory layer (embedded mode) the layer's queues belong to the event loop that
  serves the sockets, so a send from another thread (a view's worker thread, the embedded
  Celery worker) is handed to that loop with ``asyncio.run_coroutine_threadsafe``; the
  consumers remember the loop when they connect;
- with any other layer (channels-redis in distributed mode) the send runs on one event loop
  kept for this purpose in a thread of its own, so a Celery worker keeps one connection to
  Redis instead of building a loop and a connection for every broadcast.

Both are public asyncio and Channels APIs. A lost broadcast is not lost state: the sockets
re-read every ``RESYNC_SECONDS`` and the pages count down from the stored end time.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from concurrent.futures import Future, wait
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

logger = logging.getLogger(__name__)

_socket_loop: asyncio.AbstractEventLoop | None = None
_sender_loop: asyncio.AbstractEventLoop | None = None
_sender_lock = threading.Lock()
_in_flight: set[Future[Any]] = set()
_in_flight_lock = threading.Lock()


def clock_group(tournament_id: int) -> str:
    """The Channels group of a tournament's clock screens and consoles."""
    return f"tournament-{tournament_id}-clock"


def night_group(tournament_id: int, player_id: int) -> str:
    """The Channels group of one player's night pages (their phone, a second tab)."""
    return f"tournament-{tournament_id}-night-{player_id}"


def remember_socket_loop() -> None:
    """Called by the clock consumer on connect: the loop the in-memory layer's queues use."""
    global _socket_loop
    _socket_loop = asyncio.get_running_loop()


def _sender() -> asyncio.AbstractEventLoop:
    """This process's broadcasting loop, started on first use in a daemon thread."""
    global _sender_loop
    with _sender_lock:
        if _sender_loop is None or _sender_loop.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(
                target=loop.run_forever, name="tournaments-broadcast", daemon=True
            ).start()
            _sender_loop = loop
        return _sender_loop


def _log_failure(future: Future[Any]) -> None:
    with _in_flight_lock:
        _in_flight.discard(future)
    error = None if future.cancelled() else future.exception()
    if error is not None:
        logger.error("clock broadcast failed: %r", error)


def _track(future: Future[Any]) -> None:
    with _in_flight_lock:
        _in_flight.add(future)
    future.add_done_callback(_log_failure)


def clock_sent(timeout: float = 5.0) -> bool:
    """Wait until the broadcasts this process has handed to another loop are out; False if
    some are still under way after ``timeout`` seconds.

    For a caller that must not race its own earlier news: a test that changes the clock and
    then connects a screen, or a worker about to exit.
    """
    with _in_flight_lock:
        pending = list(_in_flight)
    return not wait(pending, timeout=timeout).not_done


def clock_changed(tournament_id: int, payload: dict[str, Any]) -> None:
    """Send ``payload`` (``services.clock.payload.clock_payload``) to the tournament's clock
    group."""
    layer = get_channel_layer()
    if layer is None:
        return
    # Serialized once here rather than by each socket: every screen gets the same text.
    message = {
        "type": "clock.changed",
        "version": payload.get("version", 0),
        "text": json.dumps(payload, separators=(",", ":")),
    }
    _group_send(clock_group(tournament_id), message)


def night_changed(tournament_id: int, player_id: int, notice: dict[str, Any] | None) -> None:
    """Tell a player's night pages that their night changed: a thin message (each socket
    reads and renders the player's state in its own language), with ``notice`` the data of
    what happened to them (a move's from and to, a place), or None."""
    _group_send(night_group(tournament_id, player_id), {"type": "night.changed", "notice": notice})


def _group_send(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group`` from any thread, as the module's docstring says."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    try:
        if isinstance(layer, InMemoryChannelLayer):
            loop = _socket_loop
            if running is not None:
                running.create_task(layer.group_send(group, message))
            elif loop is not None and loop.is_running():
                _track(asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop))
            else:
                # No socket has connected in this process: nobody here to tell.
                async_to_sync(layer.group_send)(group, message)
            return
        _track(asyncio.run_coroutine_threadsafe(layer.group_send(group, message), _sender()))
    except Exception:
        logger.exception("broadcast to %s failed", group)
