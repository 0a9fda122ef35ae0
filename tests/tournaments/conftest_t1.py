"""Fixtures for the entries, console and undo tests (branch t1), named for their roles.

Imported by the test files that use them rather than from a shared conftest, so branches
that add their own fixtures do not collide.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from series.models import Event, Player, Season
from tables.engine.config import Game, Structure
from tests.conftest import PASSWORD
from tournaments.models import BlindStructure, LevelKind, StructureLevel, Tournament

# (kind, minutes, small blind, big blind): levels 1-3, a break, levels 4-5, a break, level 6.
ROWS = [
    (LevelKind.LEVEL, 20, 25, 50),
    (LevelKind.LEVEL, 20, 50, 100),
    (LevelKind.LEVEL, 20, 75, 150),
    (LevelKind.BREAK, 10, 0, 0),
    (LevelKind.LEVEL, 20, 100, 200),
    (LevelKind.LEVEL, 20, 150, 300),
    (LevelKind.BREAK, 10, 0, 0),
    (LevelKind.LEVEL, 20, 200, 400),
]
# Row positions (level_index) of the rows above, for moving the clock in tests.
LEVEL_1, LEVEL_2, LEVEL_3, BREAK_1, LEVEL_4, LEVEL_5, BREAK_2, LEVEL_6 = range(8)


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
    structure = BlindStructure.objects.create(name="Home PLO8", chip_set=[25, 100, 500, 1000])
    StructureLevel.objects.bulk_create(
        StructureLevel(
            structure=structure,
            position=position,
            kind=kind,
            minutes=minutes,
            small_blind=small,
            big_blind=big,
        )
        for position, (kind, minutes, small, big) in enumerate(ROWS)
    )
    return structure


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


def start(tournament: Tournament, level_index: int = LEVEL_1) -> Tournament:
    """Put the tournament in play at a row of its structure, as the clock would."""
    from tournaments.models import TournamentState

    tournament.state = TournamentState.RUNNING
    tournament.started_at = timezone.now()
    tournament.level_index = level_index
    tournament.save(update_fields=["state", "started_at", "level_index"])
    return tournament


def form_data(structure: BlindStructure, **changes: Any) -> dict[str, Any]:
    """The tournament settings form as a director fills it in, with ``changes``."""
    data: dict[str, Any] = {
        "game": "omaha-hi-lo",
        "structure": "pot-limit",
        "buy_in": "20",
        "fee": "5",
        "starting_stack": "10000",
        "blind_structure": str(structure.pk),
        "raise_cap": "4",
        "uncapped_heads_up": "on",
        "seats_per_table": "9",
        "capacity": "30",
        "money_unit": "5",
        "bounty": "5",
        "payouts": "50, 30, 20",
        "late_registration_until_level": "4",
        "rebuys_allowed": "1",
        "rebuy_until_level": "3",
        "rebuy_chips": "10000",
        "rebuy_price": "20",
        "rebuy_max_stack": "",
        "addon_after_level": "3",
        "addon_chips": "15000",
        "addon_price": "20",
        "reentries_allowed": "0",
        "reentry_until_level": "",
        "balance_threshold": "2",
        "hand_for_hand_minutes": "2",
    }
    data.update(changes)
    return data


def make_user(name: str) -> User:
    return User.objects.create_user(name, password=PASSWORD)


def make_player(name: str) -> Player:
    return Player.objects.create(user=make_user(name), name=name)


@pytest.fixture
def ann(db: None) -> User:
    return make_user("ann")


@pytest.fixture
def ann_client(ann: User) -> Client:
    client = Client()
    client.force_login(ann)
    return client


def sample_event() -> Event:
    """An event outside pytest's fixtures, for tests that build their own rows."""
    today = timezone.localdate()
    season = Season.objects.create(
        name="Sample", starts_on=today, ends_on=today + timedelta(days=30)
    )
    return Event.objects.create(
        season=season, name="Sample night", starts_at=timezone.now(), buy_in=20, fee=5
    )


def sample_tournament() -> Tournament:
    structure = BlindStructure.objects.create(name="Sample")
    StructureLevel.objects.create(
        structure=structure, position=0, minutes=20, small_blind=25, big_blind=50
    )
    return Tournament.objects.create(event=sample_event(), blind_structure=structure)
