"""An online tournament in play on live tables, built directly from rows (the live tables
of ``tables`` and their seats), as the online core's start leaves them: each entry's
``table_number``/``seat_number`` is its live seat, and ``Seat.stack`` its chips.

The lobby tests' fixtures (``online_tournament``, ``online_night``) are in
``tests/tournaments/conftest.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from series.models import Player
from tables import services as tables
from tables.models import Hand, Seat, Table
from tests.tournaments.factories import make_user, start
from tournaments.models import Entry, EntryState, Tournament, TournamentTable

# {table: {seat: (name, chips)}}: Ann and Ben at table 1, Cal and Dee at table 2.
LAYOUT: dict[int, dict[int, tuple[str, int]]] = {
    1: {1: ("ann", 6000), 3: ("ben", 14000)},
    2: {2: ("cal", 9000), 5: ("dee", 11000)},
}


def cash_table(number: int, seats: int = 9) -> Table:
    """A cash table (no tournament's)."""
    table = Table.objects.create(
        name=f"Cash {number}", seat_count=seats, min_buy_in=0, max_buy_in=10**9, big_blind=50
    )
    Seat.objects.bulk_create(Seat(table=table, number=n) for n in range(1, seats + 1))
    return table


def seat_online(
    tournament: Tournament, layout: Mapping[int, Mapping[int, tuple[str, int]]]
) -> dict[str, Entry]:
    """Players with accounts at live seats with chips (tournament tables opened by the
    tables' own service, held as the core leaves them between hands); returns their entries
    by name."""
    entries: dict[str, Entry] = {}
    for number, seats in layout.items():
        sitters: dict[int, tables.Sitter] = {}
        for seat_number, (name, chips) in seats.items():
            user = User.objects.filter(username=name).first() or make_user(name)
            player = Player.objects.filter(user=user).first() or Player.objects.create(
                user=user, name=name.capitalize()
            )
            entries[name] = Entry.objects.create(
                tournament=tournament,
                player=player,
                state=EntryState.PLAYING,
                table_number=number,
                seat_number=seat_number,
            )
            sitters[seat_number] = tables.Sitter(user.pk, chips)
        table = tables.tournament_table_open(
            name=f"Table {number}",
            game=tournament.event.game,
            structure=tournament.event.structure,
            seat_count=9,
            stakes=tables.Stakes(small_blind=25, big_blind=50, level=1),
            sitters=sitters,
            group=f"tournament-{tournament.pk}",
        )
        TournamentTable.objects.create(tournament=tournament, number=number, live_table=table)
    return entries


def hand_in_play(table: Table) -> Hand:
    """A hand still being played at ``table`` (its records do not matter here)."""
    return Hand.objects.create(
        table=table, number=table.hand_count + 1, button=1, started_at=timezone.now()
    )


def hand_dealt(table: Table) -> Hand:
    """A real hand dealt at the held ``table`` (released at its stakes, its next-hand pause
    passed): the engine holds it, and the seats with chips are dealt in."""
    tables.table_release(table.pk)
    assert tables.table_tick(table.pk, now=timezone.now() + timedelta(seconds=30))
    return Hand.objects.get(table=table, ended_at__isnull=True)


def chips_of(entry: Entry) -> int:
    entry.refresh_from_db()
    tournament_table = TournamentTable.objects.get(
        tournament_id=entry.tournament_id, number=entry.table_number
    )
    seat = Seat.objects.get(table=tournament_table.live_table, number=entry.seat_number)
    return seat.stack + seat.adding


def clock_running(tournament: Tournament, minutes: int = 20) -> None:
    """The clock runs: the row in play ends in ``minutes``."""
    tournament.level_ends_at = timezone.now() + timedelta(minutes=minutes)
    tournament.paused_remaining = None
    tournament.save(update_fields=["level_ends_at", "paused_remaining"])


def bust(entry: Entry, place: int) -> None:
    """``entry`` goes out in ``place`` as the core records it: out, and its seat vacated."""
    Entry.objects.filter(pk=entry.pk).update(state=EntryState.OUT, place=place)
    tournament_table = TournamentTable.objects.get(
        tournament_id=entry.tournament_id, number=entry.table_number
    )
    Seat.objects.filter(table=tournament_table.live_table, number=entry.seat_number).update(
        stack=0, adding=0
    )
    tables.seat_vacate(tournament_table.live_table_id, entry.seat_number)


def online_night_open(tournament: Tournament) -> dict[str, Entry]:
    """``tournament`` played online, in play at level 1 with the clock running, and the four
    players of ``LAYOUT`` at their live seats; returns their entries by name."""
    tournament.online = True
    tournament.save(update_fields=["online"])
    start(tournament)
    clock_running(tournament)
    return seat_online(tournament, LAYOUT)
