"""Fixtures of the blind-structure tests (branch t3), imported by the test files that use
them so the shared conftest stays free of merge conflicts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from series.models import Event, Season
from tournaments.models import BlindStructure, Tournament, TournamentState
from tournaments.services.structures import structure_create, structure_templates_install
from tournaments.structures import Row

HOME_CHIPS = (25, 100, 500, 1000)


@pytest.fixture
def builtin_templates(db: None) -> list[BlindStructure]:
    """The built-in templates (the data migration made them; a flushed database gets them
    back, since the installer is idempotent)."""
    structure_templates_install()
    return list(BlindStructure.objects.filter(is_template=True).order_by("pk"))


@pytest.fixture
def home_structure(director: User) -> BlindStructure:
    """The director's own small pot-limit structure: three levels, a break that colours up
    the 25s, two more levels."""
    return structure_create(
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
def limit_structure(director: User) -> BlindStructure:
    return structure_create(
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
def season(db: None) -> Season:
    today = timezone.localdate()
    return Season.objects.create(
        name="2026 Omaha Series",
        starts_on=today - timedelta(days=60),
        ends_on=today + timedelta(days=120),
    )


def make_tournament(
    season: Season,
    structure: BlindStructure,
    *,
    by: User | None,
    starts_in: timedelta,
    name: str = "Event",
    state: str = TournamentState.REGISTERING,
) -> Tournament:
    event = Event.objects.create(
        season=season,
        name=name,
        starts_at=timezone.now() + starts_in,
        buy_in=20,
        fee=5,
        starting_stack=10_000,
    )
    return Tournament.objects.create(
        event=event, blind_structure=structure, created_by=by, state=state
    )
