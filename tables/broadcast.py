"""Thin broadcasts to a table's group: "table N changed, version V", and chat lines.

Services call these after commit, on the thread that committed. With channels-redis's
pub/sub layer the thread publishes itself, with a plain Redis client (``_publish``): the
same PUBLISH the layer's ``group_send`` makes, without waiting on an event loop (a socket
server's loop is busy with the sockets; a Celery thread has none, and ``async_to_sync``
would build one, with a new Redis connection, for every broadcast). The in-memory layer of embedded mode keeps asyncio queues that belong to
the event loop serving the sockets, so a send from another thread (the embedded Celery
worker) must run on that loop: consumers remember it when they connect.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

import redis
from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from channels_redis.utils import decode_hosts

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
        if running is None and _publish(layer, group, message):
            return
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


# The layer the publisher below was made for, and the publisher (None: not this layer).
_PUBLISHER: tuple[Any, tuple[str, redis.Redis] | None] | None = None
_PUBLISHER_LOCK = threading.Lock()


def _publisher(layer: Any) -> tuple[str, redis.Redis] | None:
    """For channels-redis's pub/sub layer on one Redis: its channel prefix and a client."""
    global _PUBLISHER
    with _PUBLISHER_LOCK:
        if _PUBLISHER is None or _PUBLISHER[0] is not layer:
            found = None
            if isinstance(layer, RedisPubSubChannelLayer):
                options = dict(layer._kwargs)
                hosts = decode_hosts(options.get("hosts") or (layer._args[:1] or [None])[0])
                if len(hosts) == 1 and "address" in hosts[0]:
                    host = dict(hosts[0])
                    address = host.pop("address")
                    # A thread-safe pool: each thread borrows a connection per PUBLISH.
                    pool = redis.ConnectionPool.from_url(address, **host)
                    found = (options.get("prefix", "asgi"), redis.Redis(connection_pool=pool))
            _PUBLISHER = (layer, found)
        return _PUBLISHER[1]


def _publish(layer: Any, group: str, message: dict[str, Any]) -> bool:
    """What ``RedisPubSubLoopLayer.group_send`` does (channels-redis 4.3), from this thread.

    The group's channel is ``{prefix}__group__{group}`` and the message the layer's own
    serialization (msgpack, encrypted when the layer has keys), so every process's
    subscriber reads it as if the layer had sent it. False for any other layer (or several
    Redis shards): the caller then uses ``group_send``.
    """
    publisher = _publisher(layer)
    if publisher is None:
        return False
    prefix, client = publisher
    client.publish(f"{prefix}__group__{group}", layer.serialize(message))
    return True


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
