"""Fixtures shared by the Django tests, named for the role each one plays."""

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings

from series.services import director_grant

PASSWORD = "correct-horse-battery-staple"


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing() -> Iterator[None]:
    # The real hasher is slow on purpose; tests create many users and never need its strength.
    # Session-scoped, so the engine's many pure tests pay nothing for it.
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture
def director(db: None) -> User:
    user = User.objects.create_user("dana", password=PASSWORD)
    return director_grant(user)


@pytest.fixture
def player(db: None) -> User:
    return User.objects.create_user("pat", password=PASSWORD)


@pytest.fixture
def director_client(director: User) -> Client:
    client = Client()
    client.force_login(director)
    return client


@pytest.fixture
def player_client(player: User) -> Client:
    client = Client()
    client.force_login(player)
    return client


@pytest.fixture(autouse=True)
def fresh_channel_layer() -> Iterator[None]:
    """Give every test its own channel layer.

    Channels keeps one layer object per process, and channels-redis binds its receive locks
    to the event loop that first used them; pytest-asyncio runs each test on a new loop, so
    a layer left over from an earlier test fails with "bound to a different event loop".
    """
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def sockets_close_connections() -> Iterator[None]:
    """Sockets' database threads close their connections after each message in tests (the
    tournaments' sockets too), so the test database can be dropped at the end. Not through
    pytest-django's ``settings``: some tests take a parameter of that name."""
    with override_settings(TABLES_KEEP_DB_CONNECTIONS=False):
        yield


@pytest.fixture(autouse=True)
def fresh_kept_rows() -> Iterator[None]:
    """Each test starts with no table's rows or hands' engines kept by this process
    (``tables.kept_rows``, ``tables.engines``): a test database's ids come round again
    (SQLite reuses them after a rollback), and a test may write rows behind the services'
    back."""
    from tables import engines, kept_rows, loop_db

    kept_rows.rows_forget()
    engines.engines_forget()
    yield
    kept_rows.rows_forget()
    engines.engines_forget()
    # And the event loops' own connections (``tables.loop_db``): each test's loop is gone
    # after it, and the test database cannot be dropped while one is open.
    loop_db.loop_db_forget()


@pytest.fixture(autouse=True)
def language_reset() -> Iterator[None]:
    """Each test starts in the site's default language. A French request through the test
    client runs in the test's own thread, and the locale middleware's ``activate`` would
    otherwise stay in force for the next test of the worker (its lazy messages in French)."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()
