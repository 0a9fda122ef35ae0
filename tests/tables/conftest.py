"""Fixtures for the live tables, named for the roles people play at one."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.utils import timezone

from tables import services, timing
from tables.models import Table
from tables.throttle import throttle_forget
from tests.conftest import PASSWORD


@pytest.fixture(autouse=True)
def _no_scheduled_tasks(settings) -> None:  # type: ignore[no-untyped-def]
    # Flood budgets live in the cache, keyed by user id: ids come back after a rollback.
    cache.clear()
    throttle_forget()
    # Tests move the clock themselves by calling table_tick(..., now=...).
    settings.TABLES_SCHEDULE_TASKS = False
    # Users are made by the dozen here; the real hasher would take seconds per test.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_players(*names: str) -> list[User]:
    return [User.objects.create_user(name, password=PASSWORD) for name in names]


@pytest.fixture
def players(db: None) -> list[User]:
    return make_players("ann", "ben", "cal")


@pytest.fixture
def table(director: User) -> Table:
    return services.table_create(
        created_by=director, name="Friday PLO8", big_blind=2, min_buy_in=40, max_buy_in=200
    )


@pytest.fixture
def seated_table(table: Table, players: list[User]) -> Table:
    for number, player in enumerate(players, start=1):
        services.seat_take(table.pk, player, number, 100)
    return table


def later(seconds: float = 0, base: datetime | None = None) -> datetime:
    return (base or timezone.now()) + timedelta(seconds=seconds)


def deal(table: Table, now: datetime | None = None) -> datetime:
    """Start the next hand as the sweep would once its delay has passed."""
    now = now or later(timing.NEXT_HAND_DELAY_SECONDS + 1)
    assert services.table_tick(table.pk, now=now)
    return now
