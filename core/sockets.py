"""What every app's sockets share: the socket's user.

``tables.consumers.SessionUserMiddleware`` (in ``config.asgi``'s stack) starts reading the
user from the handshake's session and leaves the read in ``scope["user_read"]``; a consumer
awaits ``scope_user(scope)`` once it has accepted, so no handshake waits for the database.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser


async def scope_user(scope: Any) -> Any:
    """The socket's user (anonymous when its session has none), read by
    ``SessionUserMiddleware`` from the handshake's session; kept in ``scope["user"]``."""
    if "user" not in scope:
        read = scope.get("user_read")
        # Without the middleware (a test's bare scope) nobody is logged in.
        scope["user"] = AnonymousUser() if read is None else await read
    return scope["user"]
