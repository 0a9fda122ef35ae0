"""Telling a player's night page what just happened to them, after commit.

The workflows that change a player's night call these inside their transaction: seating's
``_apply`` (every seat drawn, confirmed move, balancing move, broken table, final table,
late seat) and its undo, an elimination and its undo, a purchase request decided. Each
schedules ``broadcast.night_changed`` with ``transaction.on_commit``, so nothing is said of
a change that rolls back, and the page hears it from the committed rows.

The message is thin: a notice as data (a move's from and to, a place) and no text, since
each socket renders the player's state and the notice in its own viewer's language
(``tournaments.consumers.NightConsumer``). The changes every player sees (the clock, the
payouts) reach the night pages through the clock's own broadcast.

This module sits below the services that call it and imports none of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction

from tournaments import broadcast
from tournaments.models import Entry

# The kinds of notice a night page shows until dismissed.
MOVED = "moved"
SEATED = "seated"
OUT = "out"
BACK = "back"
DECIDED = "decided"


def night_tell(tournament_id: int, player_id: int, notice: dict[str, Any] | None = None) -> None:
    """After commit, tell ``player_id``'s night pages to read their night again, with
    ``notice`` (one of this module's kinds, as data) to show."""
    transaction.on_commit(lambda: broadcast.night_changed(tournament_id, player_id, notice))


def night_tell_moves(moves: Sequence[tuple[Entry, int | None, int | None]]) -> None:
    """Each moved player hears "table 2 seat 5 → table 1 seat 3": ``moves`` are the
    entries as they were read before the move (their seat then) with their new table and
    seat (None: back to no seat, an undone draw)."""
    for entry, to_table, to_seat in moves:
        if (entry.table_number, entry.seat_number) == (to_table, to_seat):
            continue
        if to_table is None:
            night_tell(entry.tournament_id, entry.player_id)
            continue
        kind = SEATED if entry.table_number is None else MOVED
        notice = {
            "kind": kind,
            "from": [entry.table_number, entry.seat_number],
            "to": [to_table, to_seat],
        }
        night_tell(entry.tournament_id, entry.player_id, notice)


def night_tell_out(entries: Iterable[Entry]) -> None:
    """Each player put out hears their place (read after ``places_update``)."""
    for entry in entries:
        night_tell(entry.tournament_id, entry.player_id, {"kind": OUT, "place": entry.place})


def night_tell_back(entries: Iterable[Entry]) -> None:
    """Each player whose elimination was undone hears they are back in."""
    for entry in entries:
        night_tell(entry.tournament_id, entry.player_id, {"kind": BACK})
