"""Fixtures for the clock tests (branch t2), named for their roles.

Imported by the clock test files rather than from a shared conftest, so branches that add
their own fixtures do not collide.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User

from series.models import Event, Season
from tables.engine.config import Game, Structure
from tournaments.clock import ClockState
from tournaments.models import (
    BlindStructure,
    Entry,
    LevelKind,
    StructureLevel,
    Tournament,
    TournamentState,
)
from tournaments.services.clock import clock_payload, clock_read

# A frozen evening: the clock starts at 19:00 (UTC) in every test that passes ``now``.
T0 = datetime(2026, 5, 1, 19, 0, tzinfo=UTC)

# (kind, minutes, small blind, big blind, ante, colour-up): levels 1-2, a colour-up break,
# levels 3-4 (4 with a big-blind ante), then the last level 5.
CLOCK_ROWS = [
    (LevelKind.LEVEL, 20, 25, 50, 0, []),
    (LevelKind.LEVEL, 20, 50, 100, 0, []),
    (LevelKind.BREAK, 10, 0, 0, 0, [25]),
    (LevelKind.LEVEL, 20, 100, 200, 0, []),
    (LevelKind.LEVEL, 20, 150, 300, 300, []),
    (LevelKind.LEVEL, 20, 200, 400, 400, []),
]
ROW_LEVEL_1, ROW_LEVEL_2, ROW_BREAK, ROW_LEVEL_3, ROW_LEVEL_4, ROW_LAST = range(6)


def at(minutes: float = 0, seconds: float = 0) -> datetime:
    """A moment of the frozen evening, so many minutes after the 19:00 start."""
    return T0 + timedelta(minutes=minutes, seconds=seconds)


@pytest.fixture(autouse=True)
def clock_tasks_off(settings) -> None:  # type: ignore[no-untyped-def]
    # Tests move the clock by calling the services with ``now``; no Celery task runs.
    settings.TOURNAMENTS_SCHEDULE_TASKS = False


def structure_with(rows: list[tuple], name: str = "Clock test") -> BlindStructure:  # type: ignore[type-arg]
    structure = BlindStructure.objects.create(name=name, chip_set=[25, 100, 500])
    StructureLevel.objects.bulk_create(
        StructureLevel(
            structure=structure,
            position=(position + 1) * 10,  # gaps: the clock orders by position, not by value
            kind=kind,
            minutes=minutes,
            small_blind=small,
            big_blind=big,
            ante=ante,
            ante_kind="big-blind" if ante else "none",
            colour_up=colour_up,
        )
        for position, (kind, minutes, small, big, ante, colour_up) in enumerate(rows)
    )
    return structure


@pytest.fixture
def clock_structure(db: None) -> BlindStructure:
    return structure_with(CLOCK_ROWS)


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
def clock_tournament(clock_event: Event, clock_structure: BlindStructure) -> Tournament:
    """A tournament in play whose clock has not started yet (as tournament_start finds it)."""
    return Tournament.objects.create(
        event=clock_event,
        blind_structure=clock_structure,
        state=TournamentState.RUNNING,
        rebuy_chips=10000,
        rebuy_price=20,
        addon_chips=15000,
        addon_price=20,
        payout_basis_points=[5000, 3000, 2000],
    )


@pytest.fixture
def running(clock_tournament: Tournament, director: User) -> Tournament:
    """The clock started at 19:00 on level 1."""
    from tournaments.services.clock import clock_start

    return clock_start(clock_tournament.pk, by=director, now=T0)


def reload(tournament: Tournament) -> Tournament:
    tournament.refresh_from_db()
    return tournament


def shown(tournament: Tournament, now: datetime | None = None) -> ClockState:
    """What the clock shows at ``now``, the tournament read afresh."""
    return clock_read(reload(tournament), now)


def hand_for_hand(tournament: Tournament) -> dict[str, Any]:
    """Hand-for-hand as the screens get it (on, the hand, the tables still playing...)."""
    payload = clock_payload(tournament.pk)
    assert payload is not None
    return payload["hand_for_hand"]


def placed(*entries: Entry) -> list[tuple[str, int | None, int]]:
    """(name, place, prize) of each entry, read afresh."""
    rows = []
    for entry in entries:
        entry.refresh_from_db()
        rows.append((entry.player.name, entry.place, entry.prize))
    return rows


def rows_of_structure(structure_id: int) -> list[tuple[Any, ...]]:
    """(kind, minutes, small blind, big blind) of each row of a blind structure, in order."""
    return list(
        StructureLevel.objects.filter(structure_id=structure_id)
        .order_by("position")
        .values_list("kind", "minutes", "small_blind", "big_blind")
    )


@pytest.fixture
def running_now(clock_tournament: Tournament, director: User) -> Tournament:
    """The clock started just now on level 1 (for sockets and pages, which read real time).

    The start's broadcast is out before the fixture returns: with channels-redis it is sent
    from a thread of its own, and a screen connected meanwhile would hear it after its own
    first state, in place of the change a test waits for."""
    from tournaments import broadcast
    from tournaments.services.clock import clock_start

    started = clock_start(clock_tournament.pk, by=director)
    assert broadcast.clock_sent()
    return started
