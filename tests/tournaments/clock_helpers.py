"""The clock tests' frozen evening and structure, and their ways of reading the clock (and
of seeing an action refused, a break called from the console).

The clock's fixtures (``clock_tournament``, ``running_clock``, ``in_level_2``,
``running_now``, ``clock_tasks_off``) are in ``tests/tournaments/conftest.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.clock import ClockState
from tournaments.errors import TournamentError
from tournaments.models import (
    BlindLevel,
    BlindStructure,
    Entry,
    LevelKind,
    Tournament,
    TournamentAction,
)
from tournaments.services.clock.payload import clock_payload
from tournaments.services.clock.reads import clock_read

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
# The kinds of the rows once a break now is in between levels 1 and 2 (called in level 1
# skipping its rest, or in level 2 keeping it).
KINDS_BREAK_AFTER_LEVEL_1 = ["level", "break", "level", "break", "level", "level", "level"]


def at(minutes: float = 0, seconds: float = 0) -> datetime:
    """A moment of the frozen evening, so many minutes after the 19:00 start."""
    return T0 + timedelta(minutes=minutes, seconds=seconds)


def blind_structure_with(rows: list[tuple], name: str = "Clock test") -> BlindStructure:  # type: ignore[type-arg]
    blind_structure = BlindStructure.objects.create(name=name, chip_set=[25, 100, 500])
    BlindLevel.objects.bulk_create(
        BlindLevel(
            blind_structure=blind_structure,
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
    return blind_structure


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


def rows_of_blind_structure(blind_structure_id: int) -> list[tuple[Any, ...]]:
    """(kind, minutes, small blind, big blind) of each row of a blind structure, in order."""
    return list(
        BlindLevel.objects.filter(blind_structure_id=blind_structure_id)
        .order_by("position")
        .values_list("kind", "minutes", "small_blind", "big_blind")
    )


def kinds_of_blind_structure(blind_structure_id: int) -> list[str]:
    """The kind ("level" or "break") of each row of a blind structure, in order."""
    return [row[0] for row in rows_of_blind_structure(blind_structure_id)]


def last_summary(tournament: Tournament) -> str:
    """The summary of the tournament's last action, as the log shows it."""
    return TournamentAction.objects.filter(tournament=tournament).latest("pk").summary_text


@contextmanager
def refused(tournament: Tournament, match: str) -> Iterator[None]:
    """The clock action in the block is refused (``TournamentError`` matching ``match``) and
    changes nothing: the clock's version stays."""
    version = reload(tournament).clock_version
    with pytest.raises(TournamentError, match=match):
        yield
    assert reload(tournament).clock_version == version


def break_from_console(
    client: Client, tournament: Tournament, data: dict[str, str] | None = None
) -> Tournament:
    """The console's "Break now" posted (htmx) with ``data``; the tournament read afresh."""
    url = reverse("tournaments:clock_break", args=[tournament.pk])
    response = client.post(url, data or {}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return reload(tournament)
