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


def table_changed(table_id: int, version: int) -> None:
    _send(table_id, {"type": "table.changed", "version": version})


def table_chat(table_id: int, frame: dict[str, Any]) -> None:
    _send(table_id, {"type": "table.chat", "frame": frame})
