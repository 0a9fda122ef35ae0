"""Flood limits per player, across all their sockets and every server process.

A socket limits its own frames (``tables.consumers``), but one player may open several
sockets, on several processes. These budgets count a player's frames in fixed windows: in
distributed mode in Redis, shared by every process (each process first lets a few frames of
a window through on its own count, so a player sending a frame every few seconds costs no
round trip); in embedded mode, one process, in its own cache.
"""

from __future__ import annotations

import functools
import threading
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


# Frames a process lets through per player and window before it asks Redis for the count
# of every process: a player at the table sends a frame every few seconds, so the shared
# count (a round trip on every frame otherwise) is only asked of someone sending many.
LOCAL_ALLOWANCE = 4

# Per (kind, player, window): this process's count, and whether it has told Redis yet.
_LOCAL: dict[tuple[str, Any, int], list[int]] = {}
_LOCAL_LOCK = threading.Lock()


def _spend(kind: str, user_id: Any, limit: int, window: int) -> bool:
    slot = int(time.time() // window)
    client = _redis()
    if client is None:
        return _spend_in_cache(kind, user_id, limit, window, slot)
    with _LOCAL_LOCK:
        if len(_LOCAL) > 10_000:
            for key in [k for k in _LOCAL if k[2] < slot - 1]:
                del _LOCAL[key]
        counted = _LOCAL.setdefault((kind, user_id, slot), [0, 0])
        counted[0] += 1
        local, told = counted
        if local <= LOCAL_ALLOWANCE:
            return True
        counted[1] = local
    # Past its allowance this process adds what it let through untold, then each frame, to
    # the count shared by every process. Each process lets at most LOCAL_ALLOWANCE frames
    # through before that (at most a few processes, so within the limit of 20).
    # The database's name keeps apart sites (and test runs) that share one Redis.
    key = f"tables:flood:{_site()}:{kind}:{user_id}:{slot}"
    pipe = client.pipeline(transaction=False)
    pipe.incrby(key, local - told)
    pipe.expire(key, window * 2)
    count = pipe.execute()[0]
    return bool(count <= limit)


def _spend_in_cache(kind: str, user_id: Any, limit: int, window: int, slot: int) -> bool:
    """Embedded mode: one process, whose own cache counts for every socket."""
    key = f"tables:flood:{kind}:{user_id}:{slot}"
    cache.add(key, 0, timeout=window * 2)  # a no-op if the key exists
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


def frame_allowed_here(user: Any) -> bool:
    """Count one frame of this player if this process may admit it on its own count (within
    its allowance of the window, in distributed mode), without a round trip: for a socket's
    event loop, which must not wait on Redis. False, counting nothing, when only
    ``frame_allowed`` can tell."""
    if user is None or not getattr(user, "is_authenticated", False):
        return True
    if _redis() is None:
        return False
    slot = int(time.time() // FRAME_WINDOW_SECONDS)
    with _LOCAL_LOCK:
        counted = _LOCAL.setdefault(("frame", user.pk, slot), [0, 0])
        if counted[0] >= LOCAL_ALLOWANCE:
            return False
        counted[0] += 1
        return True


def frame_unspend_here(user: Any) -> None:
    """Take back a frame ``frame_allowed_here`` counted, which ``frame_allowed`` is about to
    count again (the frame went on to a database thread)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return
    slot = int(time.time() // FRAME_WINDOW_SECONDS)
    with _LOCAL_LOCK:
        counted = _LOCAL.get(("frame", user.pk, slot))
        if counted is not None and counted[0] > counted[1]:
            counted[0] -= 1


def chat_allowed(user: Any) -> bool:
    """Count one chat line of this player; False when they are over their budget."""
    return _spend("chat", user.pk, CHAT_LINES_PER_WINDOW, CHAT_WINDOW_SECONDS)


def throttle_forget() -> None:
    """Forget this process's counts (tests start each case afresh)."""
    with _LOCAL_LOCK:
        _LOCAL.clear()
