"""Flood limits per player, across all their sockets and every server process.

A socket limits its own frames (``tables.consumers``), but one player may open several
sockets, on several processes. These budgets count a player's frames in fixed windows in
the site's cache (Redis in distributed mode, so every process counts against the same
number; the process's memory in embedded mode, where there is one process).
"""

from __future__ import annotations

import functools
import time
from typing import Any

import redis
from django.conf import settings
from django.core.cache import cache

# Any frame: as a socket's own limit, but for the player's sockets together.
FRAMES_PER_WINDOW = 20
FRAME_WINDOW_SECONDS = 2
# Chat lines are each a write and a broadcast to the whole table: fewer.
CHAT_LINES_PER_WINDOW = 5
CHAT_WINDOW_SECONDS = 10
# Sockets one player may hold open at one table in one process.
SOCKETS_PER_TABLE = 4


def _spend(kind: str, user_id: Any, limit: int, window: int) -> bool:
    # The database's name keeps apart sites (and test runs) that share one Redis.
    key = f"tables:flood:{_site()}:{kind}:{user_id}:{int(time.time() // window)}"
    client = _redis()
    if client is not None:
        # One round trip: INCR and the key's expiry together (redis-py's pipeline).
        pipe = client.pipeline(transaction=False)
        pipe.incr(key)
        pipe.expire(key, window * 2)
        count = pipe.execute()[0]
        return bool(count <= limit)
    # Embedded mode: the process's own cache. add() is a no-op if the key exists.
    cache.add(key, 0, timeout=window * 2)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between the two calls: this frame opens a new window
        cache.add(key, 1, timeout=window * 2)
        count = 1
    return bool(count <= limit)


@functools.cache
def _site() -> str:
    return str(settings.DATABASES["default"]["NAME"])


@functools.cache
def _redis() -> redis.Redis | None:
    """A client of the site's Redis (distributed mode), or None in embedded mode."""
    url = getattr(settings, "REDIS_URL", "")
    return redis.Redis.from_url(url) if url else None


def frame_allowed(user: Any) -> bool:
    """Count one frame of this player; False when they are over their budget."""
    if user is None or not getattr(user, "is_authenticated", False):
        return True  # a spectator's socket is held to its own limit only
    return _spend("frame", user.pk, FRAMES_PER_WINDOW, FRAME_WINDOW_SECONDS)


def chat_allowed(user: Any) -> bool:
    """Count one chat line of this player; False when they are over their budget."""
    return _spend("chat", user.pk, CHAT_LINES_PER_WINDOW, CHAT_WINDOW_SECONDS)
