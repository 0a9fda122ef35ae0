"""Makers of the rows the tournament tests stand on: accounts and players, sample events and
tournaments, entries registered, late or seated, a tournament put in play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from series.models import Event, Player, Season
from tests.conftest import PASSWORD
from tests.tournaments.levels import LEVEL_1
from tournaments.models import (
    BlindLevel,
    BlindStructure,
    Entry,
    EntryState,
    Tournament,
    TournamentState,
    TournamentTable,
)

# The chips of the director's home set, for the structures a test builds.
HOME_CHIPS = (25, 100, 500, 1000)


def make_user(name: str) -> User:
    return User.objects.create_user(name, password=PASSWORD)


def make_player(name: str) -> Player:
    return Player.objects.create(user=make_user(name), name=name)


def start(tournament: Tournament, level_index: int = LEVEL_1) -> Tournament:
    """Put the tournament in play at a row of its structure, as the clock would."""
    tournament.state = TournamentState.RUNNING
    tournament.started_at = timezone.now()
    tournament.level_index = level_index
    tournament.save(update_fields=["state", "started_at", "level_index"])
    return tournament


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
    blind_structure = BlindStructure.objects.create(name="Sample")
    BlindLevel.objects.create(
        blind_structure=blind_structure, position=0, minutes=20, small_blind=25, big_blind=50
    )
    return Tournament.objects.create(event=sample_event(), blind_structure=blind_structure)


def make_tournament(
    season: Season,
    blind_structure: BlindStructure,
    *,
    by: User | None,
    starts_in: timedelta,
    name: str = "Event",
    state: str = TournamentState.REGISTERING,
) -> Tournament:
    """A tournament on an event of ``season`` starting ``starts_in`` from now."""
    event = Event.objects.create(
        season=season,
        name=name,
        starts_at=timezone.now() + starts_in,
        buy_in=20,
        fee=5,
        starting_stack=10_000,
    )
    return Tournament.objects.create(
        event=event, blind_structure=blind_structure, created_by=by, state=state
    )


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


def full(table: str, seats: range) -> dict[int, str]:
    """A table's seats named after it: ``full("A", range(1, 3))`` is {1: "A1", 2: "A2"}."""
    return {s: f"{table}{s}" for s in seats}
