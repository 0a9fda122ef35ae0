"""Thin broadcasts to a table's group: "table N changed, version V", and chat lines.

Services call these after commit. With channels-redis any thread may send with
``async_to_sync``. The in-memory layer of embedded mode keeps asyncio queues that belong to
the event loop serving the sockets, so a send from another thread (the embedded Celery
worker) must run on that loop: consumers remember it when they connect.
"""

from __future__ import annotations

import asyncio
import logging
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


def _send(table_id: int, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    group = table_group(table_id)
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    loop = _socket_loop
    try:
        if running is not None:
            running.create_task(layer.group_send(group, message))
        elif (
            isinstance(layer, InMemoryChannelLayer)
            and loop is not None
            and loop.is_running()
            and not loop.is_closed()
        ):
            asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
        else:
            async_to_sync(layer.group_send)(group, message)
    except Exception:
        # A lost broadcast is not lost state: sockets re-read on their next message, and the
        # consumers' periodic check picks the new version up.
        logger.exception("broadcast to %s failed", group)


def carries_state() -> bool:
    """Whether "changed" broadcasts should carry the snapshot parts (``selectors._wire``).

    Yes when the sockets may be in other processes (channels-redis). The in-memory layer's
    sockets share the sender's process and its cache of built states, and that layer
    deep-copies every message for every socket, so there the news travels alone.
    """
    layer = get_channel_layer()
    return layer is not None and not isinstance(layer, InMemoryChannelLayer)


def table_changed(table_id: int, version: int, wire: dict[str, Any] | None = None) -> None:
    message: dict[str, Any] = {"type": "table.changed", "version": version}
    if wire is not None:
        message["wire"] = wire
    _send(table_id, message)


def table_chat(table_id: int, frame: dict[str, Any]) -> None:
    _send(table_id, {"type": "table.chat", "frame": frame})
