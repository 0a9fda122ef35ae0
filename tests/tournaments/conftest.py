"""Fixtures of the tournament tests, named for their roles.

The tournament night itself (``season``, ``event``, ``blind_structure``, ``tournament``) and
the browsers are in ``tests/conftest.py``, since the series' and tables' tests use them too.
Plain helpers are imported by name from the modules named for what they are:
``factories`` (rows), ``levels`` (the night's structure), ``clock_helpers``, ``lookups``,
``online_tables``, ``settings_form``.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from series.models import Event, Season
from tables.engine.config import Game, Structure
from tests.tournaments.clock_helpers import CLOCK_ROWS, T0, at, blind_structure_with, reload
from tests.tournaments.factories import HOME_CHIPS, make_user, start
from tests.tournaments.online_tables import online_night_open
from tournaments import broadcast
from tournaments.blind_structures import Row
from tournaments.models import BlindStructure, Entry, Tournament, TournamentState
from tournaments.services.blind_structures import (
    blind_structure_create,
    blind_structure_templates_install,
)
from tournaments.services.clock.controls import clock_next, clock_start
from tournaments.signals import tournament_finished


@pytest.fixture
def ann(db: None) -> User:
    return make_user("ann")


@pytest.fixture
def ann_client(ann: User) -> Client:
    client = Client()
    client.force_login(ann)
    return client


@pytest.fixture
def tournament_in_play(tournament: Tournament) -> Tournament:
    """The night's tournament, in play at level 1, with room for more than six."""
    tournament.capacity = None
    tournament.save(update_fields=["capacity"])
    return start(tournament)


@pytest.fixture
def finished_signals() -> Iterator[list[dict[str, Any]]]:
    """Every ``tournament_finished`` sent during the test."""
    sent: list[dict[str, Any]] = []

    def on_finished(sender: Any, **kwargs: Any) -> None:
        sent.append({**kwargs, "signal": "finished"})

    tournament_finished.connect(on_finished, weak=False)
    yield sent
    tournament_finished.disconnect(on_finished)


# The clock's tests: a frozen evening (``tests.tournaments.clock_helpers``), a structure of
# their own with a colour-up break and antes.


@pytest.fixture
def clock_tasks_off(settings) -> None:  # type: ignore[no-untyped-def]
    """No Celery task is scheduled: the test moves the clock by calling the services with
    ``now``. Requested by the modules that need it (their ``pytestmark``)."""
    settings.TOURNAMENTS_SCHEDULE_TASKS = False


@pytest.fixture
def clock_blind_structure(db: None) -> BlindStructure:
    return blind_structure_with(CLOCK_ROWS)


@pytest.fixture
def clock_event(db: None) -> Event:
    season = Season.objects.create(
        name="Spring", starts_on=T0.date() - timedelta(days=30), ends_on=T0.date() + timedelta(60)
    )
    return Event.objects.create(
        season=season,
        name="Thursday PLO8",
        starts_at=T0,
        venue="Ann's kitchen",
        game=Game.OMAHA_HI_LO,
        structure=Structure.POT_LIMIT,
        buy_in=20,
        fee=5,
        starting_stack=10000,
    )


@pytest.fixture
def clock_tournament(clock_event: Event, clock_blind_structure: BlindStructure) -> Tournament:
    """A tournament in play whose clock has not started yet (as tournament_start finds it)."""
    return Tournament.objects.create(
        event=clock_event,
        blind_structure=clock_blind_structure,
        state=TournamentState.RUNNING,
        rebuy_chips=10000,
        rebuy_price=20,
        addon_chips=15000,
        addon_price=20,
        payout_basis_points=[5000, 3000, 2000],
    )


@pytest.fixture
def running_clock(clock_tournament: Tournament, director: User) -> Tournament:
    """The clock started at 19:00 on level 1."""
    return clock_start(clock_tournament.pk, by=director, now=T0)


@pytest.fixture
def running_now(clock_tournament: Tournament, director: User) -> Tournament:
    """The clock started just now on level 1 (for sockets and pages, which read real time).

    The start's broadcast is out before the fixture returns: with channels-redis it is sent
    from a thread of its own, and a screen connected meanwhile would hear it after its own
    first state, in place of the change a test waits for."""
    started = clock_start(clock_tournament.pk, by=director)
    assert broadcast.clock_sent()
    return started


@pytest.fixture
def in_level_2(running_clock: Tournament, director: User) -> Tournament:
    """The clock started at 19:00, moved on to level 2 at 19:01 (it runs to 19:21; the
    structure's break follows it)."""
    clock_next(running_clock.pk, by=director, now=at(1))
    return reload(running_clock)


# The blind structures' tests.


@pytest.fixture
def builtin_templates(db: None) -> list[BlindStructure]:
    """The built-in templates (the data migration made them; a flushed database gets them
    back, since the installer is idempotent)."""
    blind_structure_templates_install()
    return list(BlindStructure.objects.filter(is_template=True).order_by("pk"))


@pytest.fixture
def home_blind_structure(director: User) -> BlindStructure:
    """The director's own small pot-limit structure: three levels, a break that colours up
    the 25s, two more levels."""
    return blind_structure_create(
        by=director,
        name="Tuesday PLO8",
        chip_set=HOME_CHIPS,
        rows=[
            Row.level(25, 50),
            Row.level(50, 100),
            Row.level(100, 200),
            Row.pause(10, colour_up=[25]),
            Row.level(200, 400),
            Row.level(300, 600),
        ],
    )


@pytest.fixture
def limit_blind_structure(director: User) -> BlindStructure:
    return blind_structure_create(
        by=director,
        name="Limit night",
        for_limit=True,
        chip_set=HOME_CHIPS,
        rows=[
            Row.level(25, 50, small_bet=50, big_bet=100),
            Row.level(50, 100, small_bet=100, big_bet=200),
        ],
    )


@pytest.fixture
def long_season(db: None) -> Season:
    """A season from two months ago to four months ahead, for events weeks before or after
    today (``tests.tournaments.factories.make_tournament``)."""
    today = timezone.localdate()
    return Season.objects.create(
        name="2026 Omaha Series",
        starts_on=today - timedelta(days=60),
        ends_on=today + timedelta(days=120),
    )


# The lobby, the players' offers and the deals online.


@pytest.fixture
def online_tournament(tournament: Tournament) -> Tournament:
    """The night's tournament (rebuys to level 3 at or below 10,000, add-on at the first
    break, one re-entry to level 4), played online."""
    tournament.online = True
    tournament.save(update_fields=["online"])
    return tournament


@pytest.fixture
def online_night(online_tournament: Tournament) -> dict[str, Entry]:
    """Four players in play at two live tables, level 1, the clock running."""
    return online_night_open(online_tournament)
