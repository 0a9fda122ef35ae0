"""A socket's user, read from its session on the sockets' database threads
(``tables.consumers.SessionUserMiddleware``): as channels' AuthMiddleware would, without
opening a database connection per handshake."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.sessions import SessionMiddlewareStack
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from tables import consumers

pytestmark = pytest.mark.django_db(transaction=True)


def scope_user(cookie: str | None) -> Any:
    """The user the middleware hands the consumer for this session cookie."""
    found: dict[str, Any] = {}

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        found["user"] = await consumers.scope_user(scope)

    headers = [(b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())] if cookie else []
    app = SessionMiddlewareStack(consumers.SessionUserMiddleware(inner))
    async_to_sync(app)({"type": "websocket", "headers": headers}, None, None)
    return found["user"]


def test_a_logged_in_session_gives_its_user() -> None:
    user = User.objects.create_user("ana", password="pw-ana-123")
    client = Client()
    client.force_login(user)
    found = scope_user(client.cookies[settings.SESSION_COOKIE_NAME].value)
    assert found.is_authenticated and found.pk == user.pk


def test_no_session_or_a_stale_one_is_anonymous() -> None:
    assert not scope_user(None).is_authenticated
    assert not scope_user("not-a-session-key").is_authenticated
    user = User.objects.create_user("bo", password="pw-bo-123")
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    # A password change ends the other sessions (Django's session hash check).
    user.set_password("pw-bo-456")
    user.save()
    assert not scope_user(cookie).is_authenticated


def test_without_channels_session_middleware_it_refuses_to_guess() -> None:
    async def inner(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("not reached")

    with pytest.raises(ValueError, match="SessionMiddleware"):
        async_to_sync(consumers.SessionUserMiddleware(inner))({"type": "websocket"}, None, None)
