"""With Redis away (a restart, say), the lobbies are still pages, not errors.

The tournament lobby keeps its public part in the cache, which is Redis in distributed
mode: with Redis down it renders that part for each viewer and says that live updates are
paused. The cache and the channel layer point at a port where nothing listens.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tables.servers import free_port
from tournaments.models import Tournament

PAUSED = "Live updates are paused"


@pytest.fixture
def redis_down(settings) -> None:  # type: ignore[no-untyped-def]
    dead = f"redis://127.0.0.1:{free_port()}/0"
    # A distributed site's settings (config/settings.py), its Redis gone.
    settings.EMBEDDED = False
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.db"
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": dead}
    }
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": dead}]},
        }
    }


def player_client(name: str) -> Client:
    client = Client()
    client.force_login(User.objects.get(username=name))
    return client


def member() -> Client:
    """A member who does not play: the lobby names who plays, so it is for members."""
    client = Client()
    client.force_login(User.objects.create_user("mo"))
    return client


def test_the_tournament_lobby_is_a_page_that_says_live_updates_are_paused(
    online_tournament: Tournament, online_night, redis_down
) -> None:  # type: ignore[no-untyped-def]
    for client in (member(), player_client("ann")):
        page = client.get(reverse("tournaments:lobby", args=[online_tournament.pk]))
        assert page.status_code == 200
        html = page.content.decode()
        assert PAUSED in html
        for name in ("Ann", "Ben", "Cal", "Dee"):
            assert name in html


def test_the_lobby_s_polled_part_says_so_too(
    online_tournament: Tournament, online_night, redis_down
) -> None:  # type: ignore[no-untyped-def]
    part = member().get(reverse("tournaments:lobby_public", args=[online_tournament.pk]))
    assert part.status_code == 200
    assert PAUSED in part.content.decode()


def test_the_lobby_says_nothing_of_it_while_redis_is_there(
    online_tournament: Tournament, online_night
) -> None:  # type: ignore[no-untyped-def]
    page = member().get(reverse("tournaments:lobby", args=[online_tournament.pk]))
    assert page.status_code == 200
    assert PAUSED not in page.content.decode()


def test_the_tables_lobby_is_a_page_with_redis_down(
    online_tournament: Tournament, online_night, redis_down
) -> None:  # type: ignore[no-untyped-def]
    for client in (Client(), player_client("ann")):
        assert client.get(reverse("tables:lobby")).status_code == 200
        assert (
            client.get(reverse("tables:lobby"), headers={"HX-Request": "true"}).status_code == 200
        )
