"""Fixtures for the seating and results tests (branch t5), named for their roles.

Built on t1's fixtures (the event, its structure, a tournament still registering); imported
by the test files that use them rather than from a shared conftest.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from series.models import Player
from tournaments.models import (
    Entry,
    EntryState,
    Tournament,
    TournamentAction,
    TournamentState,
    TournamentTable,
)
from tournaments.signals import tournament_finished, tournament_reopened

from .conftest_t1 import *  # noqa: F403 (the fixtures this file builds on)
from .conftest_t1 import start


def register(tournament: Tournament, names: Sequence[str]) -> list[Entry]:
    """Walk-in guests registered and not yet seated, in the order given."""
    return [
        Entry.objects.create(tournament=tournament, player=Player.objects.create(name=name))
        for name in names
    ]


def late(tournament: Tournament, names: Sequence[str]) -> list[Entry]:
    """Walk-ins whose late entry was taken (in play, paid) and who have no seat yet."""
    return [
        Entry.objects.create(
            tournament=tournament,
            player=Player.objects.create(name=name),
            state=EntryState.PLAYING,
        )
        for name in names
    ]


def seat(
    tournament: Tournament,
    layout: Mapping[int, Mapping[int, str] | Sequence[str]],
    *,
    buttons: Mapping[int, int] | None = None,
) -> dict[str, Entry]:
    """Put the tournament in play with players at given seats: {table: {seat: name}}, or
    {table: [names]} for seats 1, 2, 3...

    Returns the entries by name. ``buttons`` sets where each table's button is.
    """
    if tournament.state == TournamentState.REGISTERING:
        start(tournament)
    entries: dict[str, Entry] = {}
    for number, seats in layout.items():
        TournamentTable.objects.create(
            tournament=tournament, number=number, button=(buttons or {}).get(number)
        )
        by_seat = seats if isinstance(seats, Mapping) else dict(enumerate(seats, start=1))
        for seat_number, name in by_seat.items():
            entries[name] = Entry.objects.create(
                tournament=tournament,
                player=Player.objects.create(name=name),
                state=EntryState.PLAYING,
                table_number=number,
                seat_number=seat_number,
            )
    return entries


def url(name: str, tournament: Tournament, *args: int) -> str:
    """The address of one of the tournament's pages: ``url("console", tournament)``."""
    return reverse(f"tournaments:{name}", args=[tournament.pk, *args])


def full(table: str, seats: range) -> dict[int, str]:
    """A table's seats named after it: ``full("A", range(1, 3))`` is {1: "A1", 2: "A2"}."""
    return {s: f"{table}{s}" for s in seats}


def where(entry: Entry) -> tuple[int | None, int | None]:
    entry.refresh_from_db()
    return entry.table_number, entry.seat_number


def seats_of(tournament: Tournament) -> dict[int, dict[int, str]]:
    """The tournament's tables as {table: {seat: name}}, players in play only."""
    layout: dict[int, dict[int, str]] = {}
    for entry in Entry.objects.select_related("player").filter(
        tournament=tournament, state=EntryState.PLAYING
    ):
        assert entry.table_number is not None and entry.seat_number is not None
        layout.setdefault(entry.table_number, {})[entry.seat_number] = entry.player.name
    return layout


def last_action(tournament: Tournament) -> TournamentAction:
    action = TournamentAction.objects.filter(tournament=tournament).order_by("-pk").first()
    assert action is not None
    return action


@pytest.fixture
def running(tournament: Tournament) -> Tournament:
    """t1's tournament, in play at level 1, with room for more than six."""
    tournament.capacity = None
    tournament.save(update_fields=["capacity"])
    return start(tournament)


@pytest.fixture
def finished_signals() -> Iterator[list[dict[str, Any]]]:
    """Every ``tournament_finished`` and ``tournament_reopened`` sent during the test."""
    sent: list[dict[str, Any]] = []

    def on_finished(sender: Any, **kwargs: Any) -> None:
        sent.append({**kwargs, "signal": "finished"})

    def on_reopened(sender: Any, **kwargs: Any) -> None:
        sent.append({**kwargs, "signal": "reopened"})

    tournament_finished.connect(on_finished, weak=False)
    tournament_reopened.connect(on_reopened, weak=False)
    yield sent
    tournament_finished.disconnect(on_finished)
    tournament_reopened.disconnect(on_reopened)


def now() -> Any:
    return timezone.now()
