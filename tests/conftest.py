"""Fixtures shared by the Django tests, named for the role each one plays."""

import os
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connections
from django.test import Client, override_settings
from django.utils import timezone
from playwright.sync_api import Browser, Playwright, expect

from series.models import Event, Season
from series.services import director_grant
from tables.engine.config import Game, Structure
from tests.chromium import SHARED
from tests.template_database import test_database_copy, test_database_drop
from tests.tournaments.levels import BREAK_1, ROWS
from tournaments.models import BlindLevel, BlindStructure, Tournament

PASSWORD = "correct-horse-battery-staple"


def long_seconds(item: pytest.Item) -> float:
    """How long a test marked ``long`` takes (``long(seconds)``, 20 unless said); 0 if not."""
    marker = item.get_closest_marker("long")
    if marker is None:
        return 0.0
    return float(marker.args[0]) if marker.args else 20.0


def waits(item: pytest.Item) -> bool:
    """Whether a long test spends most of its time waiting (``long(seconds, waits=True)``):
    on a blind clock's level, a server's restart, a page's reconnection. Its cores are
    free meanwhile, for a test that computes."""
    marker = item.get_closest_marker("long")
    return bool(marker and marker.kwargs.get("waits"))


# A browser test not marked long takes about this long (seconds; 6-19 in a suite run).
BROWSER_TEST_SECONDS = 10.0


def waits_spread(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """``items`` (longest first) with the tests that wait spread out among the others: after
    each, enough of the others to keep the other workers busy while it waits (its length
    times ``workers - 1``), so that they do not all wait at once, leaving the cores idle,
    as the TV's and the clock's tests did when they came together."""
    waiting = [item for item in items if waits(item)]
    others = [item for item in items if not waits(item)]
    spread: list[pytest.Item] = []
    for item in waiting:
        spread.append(item)
        budget = long_seconds(item) * (workers - 1)
        while others and budget > 0:
            other = others.pop(0)
            spread.append(other)
            budget -= long_seconds(other) or BROWSER_TEST_SECONDS
    return spread + others


def database_group(item: pytest.Item) -> int:
    """pytest-django's order: 0 rolls back (``db``), 1 flushes (``transactional_db``,
    ``live_server``), 2 uses no test database (a server of its own, or none)."""
    fixtures = getattr(item, "fixturenames", [])
    marker = item.get_closest_marker("django_db")
    transaction = bool(marker and (marker.kwargs.get("transaction") or marker.args[:1] == (True,)))
    if transaction or "transactional_db" in fixtures or "live_server" in fixtures:
        return 1
    if marker or "db" in fixtures:
        return 0
    return 2


# The fixtures that open pages in this process's one Chromium (``tests.chromium.SHARED``).
BROWSER_FIXTURES = frozenset({"live_browser", "chromium", "shared_playwright"})


def uses_browser(item: pytest.Item) -> bool:
    return bool(BROWSER_FIXTURES.intersection(getattr(item, "fixturenames", ())))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests first, the longest first: pytest-xdist hands the tests out in this
    order, one at a time as a worker needs more (``--maxschedchunk=1``, ``pyproject.toml``),
    so a worker no longer starts a two-minute test when the others are done (the suite took
    minutes longer with them in pytest-django's order, where the tests with servers of their
    own come last). By default xdist sends each worker a quarter of its share in one block:
    the first block held every long test, and its worker played them all in a row and ran on
    alone for the suite's last 80 s. pytest-django's order holds where it matters: a test that rolls
    back runs before any that flushes the database (and its migrations' rows), on every
    worker; a test with no test database may run anywhere.

    The browser tests come after all the others, the longest first: a worker hands out its
    tests in this order, so it starts Playwright and Chromium once, for its last tests,
    instead of once per test (``pytest_runtest_setup`` stops them before any other test).
    Among them the tests that mostly wait (``long(..., waits=True)``) are spread out
    (``waits_spread``): together, they left the two cores 0.8 busy for half a minute."""

    def order(item: pytest.Item) -> tuple[int, float]:
        group = database_group(item)
        seconds = long_seconds(item)
        if uses_browser(item) and group != 0:
            return (4, -seconds)
        if group == 2:
            return (0, -seconds) if seconds else (3, 0.0)
        return (1 + group, -seconds)

    keys = {item.nodeid: order(item) for item in items}
    items.sort(key=lambda item: keys[item.nodeid])
    first = next((i for i, item in enumerate(items) if keys[item.nodeid][0] == 4), len(items))
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    items[first:] = waits_spread(items[first:], workers)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Playwright's loop, running in this thread, would make the ORM and asyncio of a test
    without a browser think they run in an async context: it stops before such a test."""
    if not uses_browser(item):
        SHARED.stop()


def pytest_sessionfinish() -> None:
    SHARED.stop()


@pytest.fixture(scope="session")
def django_db_modify_db_settings() -> Iterator[None]:
    """This worker's test database is a copy of one migrated once (``tests.template_database``),
    named in the test settings before pytest-django opens it, and dropped after the run."""
    settings_dict = settings.DATABASES["default"]
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    name = test_database_copy(settings_dict, worker)
    settings_dict.setdefault("TEST", {})["NAME"] = name
    yield
    connections.close_all()
    test_database_drop(settings_dict, name)


@pytest.fixture(scope="session")
def django_db_keepdb() -> bool:
    """The copy is the test database: pytest-django keeps it (its ``migrate`` has nothing
    left to do) and ``django_db_modify_db_settings`` drops it."""
    return True


@pytest.fixture(autouse=True, scope="session")
def session_settings() -> Iterator[None]:
    """Settings for every test of the session; the engine's many pure tests pay nothing.

    - The MD5 hasher: the real one is slow on purpose; tests create many users and never
      need its strength.
    - WhiteNoise's autorefresh (its development mode, which finds a static file when one is
      asked for): each test's Client loads the middleware anew, and WhiteNoise serving from
      the finders with DEBUG off (as pytest-django runs the tests) listed every static file
      at each load, 17 ms a client against under 1. A site's process loads it once.
    """
    with override_settings(
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
        WHITENOISE_AUTOREFRESH=True,
    ):
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


# A tournament night, for the tournaments' tests and the series' and tables' tests that show
# one: a season on now, tomorrow's event, its blind structure (``tests.tournaments.levels``)
# and a tournament still registering.
@pytest.fixture
def season(db: None) -> Season:
    today = timezone.localdate()
    return Season.objects.create(
        name="Spring", starts_on=today - timedelta(days=30), ends_on=today + timedelta(days=60)
    )


@pytest.fixture
def event(season: Season) -> Event:
    return Event.objects.create(
        season=season,
        name="Thursday PLO8",
        starts_at=timezone.now() + timedelta(days=1),
        venue="Ann's kitchen",
        game=Game.OMAHA_HI_LO,
        structure=Structure.POT_LIMIT,
        buy_in=20,
        fee=5,
        starting_stack=10000,
    )


@pytest.fixture
def blind_structure(db: None) -> BlindStructure:
    blind_structure = BlindStructure.objects.create(name="Home PLO8", chip_set=[25, 100, 500, 1000])
    BlindLevel.objects.bulk_create(
        BlindLevel(
            blind_structure=blind_structure,
            position=position,
            kind=kind,
            minutes=minutes,
            small_blind=small,
            big_blind=big,
        )
        for position, (kind, minutes, small, big) in enumerate(ROWS)
    )
    return blind_structure


@pytest.fixture
def tournament(event: Event, blind_structure: BlindStructure, director: User) -> Tournament:
    """A tournament still registering: rebuys to level 3, add-on at the first break,
    re-entry and late registration to level 4, room for six."""
    return Tournament.objects.create(
        event=event,
        blind_structure=blind_structure,
        capacity=6,
        seats_per_table=9,
        late_registration_until_level=4,
        rebuys_allowed=2,
        rebuy_until_level=3,
        rebuy_chips=10000,
        rebuy_price=20,
        addon_at_break=BREAK_1,
        addon_chips=15000,
        addon_price=20,
        reentries_allowed=1,
        reentry_until_level=4,
        created_by=director,
    )


# Chromium for the browser tests (``tests/browser.py`` has the rest of their set-up). Each
# test gets the process's one browser (``tests.chromium.SHARED``) and opens contexts in it;
# whatever contexts it left open are closed after it.
@pytest.fixture
def live_browser(live_server: Any) -> Iterator[Browser]:
    """Chromium for the pages of ``live_server`` (its ``url``).

    Depending on ``live_server`` makes the test's contexts close first: their keep-alive
    connections end, and the server's threads close their database connections before the
    test database is flushed. Playwright's sync API runs an event loop in this thread; the
    ORM calls a test makes are still plain synchronous ones, and those made while that loop
    runs get connections of their own, closed at the end.
    """
    browser = SHARED.browser_get()
    yield browser
    SHARED.contexts_close()
    connections.close_all()


@pytest.fixture
def chromium() -> Iterator[Browser]:
    """Chromium for a server of its own (``tests.browser.served_night``). Its pages hear of a
    change over a socket, from another process: an expectation waits up to 15 seconds for
    it."""
    expect.set_options(timeout=15_000)
    browser = SHARED.browser_get()
    yield browser
    SHARED.contexts_close()


@pytest.fixture
def shared_playwright() -> Iterator[Playwright]:
    """The process's Playwright, for a test that needs a browser of another kind (a profile
    on disk); the test closes what it launches."""
    yield SHARED.playwright_get()
    connections.close_all()


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
    """Each test starts with nothing kept by this process's table state (rows, engines,
    built snapshots: ``tables.runtime.state``): a test database's ids come round again
    (SQLite reuses them after a rollback), and a test may write rows behind the services'
    back."""
    from tables.runtime import loop_db
    from tables.runtime.state import STATE

    STATE.forget()
    yield
    STATE.forget()
    # And the event loops' own connections (``tables.runtime.loop_db``): each test's loop is gone
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
