"""Reads of the tournaments that several views and services share.

The level number here is derived from ``Tournament.level_index`` (the row of the structure
the clock is on, breaks included) and the structure's rows, so the entries rules (late
registration, rebuys, re-entry "until level N") and every page agree on it. Level numbers
never count breaks: rows level, level, break, level are levels 1, 2, -, 3.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Count, Q, QuerySet, Sum
from django.db.models.functions import Coalesce

from series.models import Player
from tournaments.models import (
    Entry,
    EntryState,
    LevelKind,
    StructureLevel,
    Tournament,
    TournamentAction,
)

# Entries that hold a place against the capacity: promised a seat, or in it.
PLACE_STATES = (EntryState.REGISTERED, EntryState.PLAYING)
LIVE_STATES = (EntryState.REGISTERED, EntryState.WAITING, EntryState.PLAYING)


def structure_rows(tournament: Tournament) -> list[StructureLevel]:
    """The rows of the tournament's structure in clock order, breaks included."""
    return list(tournament.blind_structure.levels.order_by("position"))


def level_numbers(rows: Sequence[StructureLevel]) -> list[int]:
    """The level number of each row; a break gets the number of the level before it
    (0 for a break before the first level), since a rule "until level N" still holds in the
    break that follows level N.

    >>> class Row:
    ...     def __init__(self, kind): self.kind = kind
    >>> level_numbers([Row("level"), Row("level"), Row("break"), Row("level")])
    [1, 2, 2, 3]
    """
    numbers: list[int] = []
    number = 0
    for row in rows:
        if row.kind == LevelKind.LEVEL:
            number += 1
        numbers.append(number)
    return numbers


def level_count(rows: Sequence[StructureLevel]) -> int:
    return sum(1 for row in rows if row.kind == LevelKind.LEVEL)


def current_row(
    tournament: Tournament, rows: Sequence[StructureLevel] | None = None
) -> StructureLevel | None:
    """The row the clock is on: None before the start; the last row once past the end
    (the last level goes on until the tournament ends)."""
    if not tournament.is_started:
        return None
    rows = structure_rows(tournament) if rows is None else rows
    if not rows:
        return None
    return rows[min(tournament.level_index, len(rows) - 1)]


def current_level_number(
    tournament: Tournament, rows: Sequence[StructureLevel] | None = None
) -> int:
    """The level being played (or, on a break, the level just played); 0 before the start."""
    if not tournament.is_started:
        return 0
    rows = structure_rows(tournament) if rows is None else rows
    if not rows:
        return 0
    return level_numbers(rows)[min(tournament.level_index, len(rows) - 1)]


def on_break_row(tournament: Tournament, rows: Sequence[StructureLevel] | None = None) -> bool:
    row = current_row(tournament, rows)
    return row is not None and row.kind == LevelKind.BREAK


def entries_of(tournament: Tournament) -> QuerySet[Entry]:
    """Every entry of the tournament with its player, in registration order."""
    return tournament.entries.select_related("player", "player__user").order_by(
        "registered_at", "pk"
    )


def entries_registered(tournament: Tournament) -> QuerySet[Entry]:
    return entries_of(tournament).filter(state__in=PLACE_STATES)


def entries_waiting(tournament: Tournament) -> QuerySet[Entry]:
    """The waiting list, first come first served."""
    return entries_of(tournament).filter(state=EntryState.WAITING)


def places_taken(tournament: Tournament) -> int:
    return tournament.entries.filter(state__in=PLACE_STATES).count()


def entry_live_of(tournament: Tournament, player: Player) -> Entry | None:
    """The player's entry still in play (registered, waiting or playing), if any."""
    return tournament.entries.filter(player=player, state__in=LIVE_STATES).first()


def entry_counts(tournament: Tournament) -> dict[str, int]:
    """Entries by state, plus the money-bearing counts the prize pool is made of."""
    totals = tournament.entries.aggregate(
        registered=Count("pk", filter=Q(state=EntryState.REGISTERED)),
        waiting=Count("pk", filter=Q(state=EntryState.WAITING)),
        playing=Count("pk", filter=Q(state=EntryState.PLAYING)),
        out=Count("pk", filter=Q(state=EntryState.OUT)),
        addons=Count("pk", filter=Q(addon=True)),
        rebuys=Coalesce(Sum("rebuys"), 0),
    )
    totals["entries"] = totals["playing"] + totals["out"]
    return totals


def actions_recent(tournament: Tournament, limit: int = 30) -> QuerySet[TournamentAction]:
    """The newest actions first, undone ones included (the console shows them struck out)."""
    return tournament.actions.select_related("by", "undone_by").order_by("-pk")[:limit]
