"""The stored clock: what every clock workflow does around its own change.

The clock is three stored values on the tournament row (``level_index``, ``level_ends_at``,
``paused_remaining``; with ``resume_index`` and ``resume_remaining`` when a break now kept
the rest of a level for after it), read through ``tournaments.clock``, which projects a
running clock whose level has ended onto the rows that follow. A director's action locks
the tournament row (``locks.tournament_locked``: the lock every tournament action takes, so
actions apply one at a time), starts from that projection (what the screens show at that
moment), stores the new clock (``clock_store``: bumps ``clock_version``, broadcasts the
whole public state after commit and has the next level change scheduled,
``tournaments.tasks``) and records itself in the action log with the clock as it was before
(``clock_record``, ``clock_saved``), so Undo puts it back (``clock_restore``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from core.permissions import is_director
from tournaments.clock import ClockRow, row_at, tonight
from tournaments.errors import TournamentError
from tournaments.models import ActionKind, Tournament, TournamentState
from tournaments.services import undo
from tournaments.services.clock.payload import clock_publish_many
from tournaments.services.clock.reads import CLOCK_STATES, HAND_FOR_HAND_FIELDS, clock_rows
from tournaments.signals import clock_stored
from tournaments.summaries import Message, message


def _ms(span: timedelta | None) -> int | None:
    return round(span.total_seconds() * 1000) if span is not None else None


def _clock_fields(tournament: Tournament) -> dict[str, Any]:
    remaining = tournament.paused_remaining
    return {
        "level_index": tournament.level_index,
        "level_ends_at": (
            tournament.level_ends_at.isoformat() if tournament.level_ends_at else None
        ),
        "paused_remaining_ms": (
            round(remaining.total_seconds() * 1000) if remaining is not None else None
        ),
        "state": tournament.state,
        "hand_for_hand": {name: getattr(tournament, name) for name in HAND_FOR_HAND_FIELDS},
        "resume_index": tournament.resume_index,
        "resume_remaining_ms": _ms(tournament.resume_remaining),
    }


def clock_saved(tournament: Tournament) -> dict[str, Any]:
    """The stored clock as JSON values, for an action's ``undo`` (``clock_restore``)."""
    return _clock_fields(tournament)


def clock_restore(tournament: Tournament, saved: dict[str, Any]) -> None:
    """Put back a clock saved by ``clock_saved``: call with the tournament row locked.

    Used by the clock's own Undo, and by the start's Undo (``tournament_start``'s owner) to
    take the clock back to "not started". A running clock restored with an end time that
    has since passed is projected onwards like any other, and the sweep stores it.
    Hand-for-hand in the room comes back as it was with the clock (saved clocks from before
    it was kept have no ``hand_for_hand`` and leave it alone), and so does the rest of a
    level kept for after a break (none in clocks saved before it was kept: none then).
    """
    ends_at = saved.get("level_ends_at")
    remaining_ms = saved.get("paused_remaining_ms")
    resume_index = saved.get("resume_index")
    resume_ms = saved.get("resume_remaining_ms")
    if resume_index is None or resume_ms is None:
        tournament.resume_index = tournament.resume_remaining = None
    else:
        tournament.resume_index = int(resume_index)
        tournament.resume_remaining = timedelta(milliseconds=int(resume_ms))
    tournament.level_index = int(saved.get("level_index", 0))
    tournament.level_ends_at = parse_datetime(ends_at) if ends_at else None
    tournament.paused_remaining = (
        timedelta(milliseconds=int(remaining_ms)) if remaining_ms is not None else None
    )
    if saved.get("state") in TournamentState.values:
        tournament.state = saved["state"]
    hand_for_hand = saved.get("hand_for_hand")
    if isinstance(hand_for_hand, dict):
        for name in HAND_FOR_HAND_FIELDS:
            if name in hand_for_hand:
                setattr(tournament, name, hand_for_hand[name])
        tournament.save(update_fields=list(HAND_FOR_HAND_FIELDS))
    clock_store(tournament)


def director_check(by: Any) -> None:
    # Views check first; this keeps a director action director-only from any caller.
    # ``by`` None is the system (a tournament start, a test).
    if by is not None and not is_director(by):
        raise PermissionDenied(_("Only directors may run the clock."))


def clock_store(tournament: Tournament, rows: Sequence[ClockRow] | None = None) -> None:
    """Store the clock fields, bump the version, and broadcast and schedule after commit."""
    if tournament.state in CLOCK_STATES:
        if rows is None:
            rows = clock_rows(tournament.blind_structure_id)
        row = row_at(rows, tournament.level_index) or (rows[-1] if rows else None)
        if row is not None:
            tournament.state = TournamentState.ON_BREAK if row.is_break else TournamentState.RUNNING
    tournament.clock_version += 1
    tournament.save(
        update_fields=[
            "level_index",
            "level_ends_at",
            "paused_remaining",
            "state",
            "started_at",
            "clock_version",
            "resume_index",
            "resume_remaining",
        ]
    )
    _after_commit(
        tournament.pk,
        tournament.level_index,
        None if tournament.paused_remaining is not None else tournament.level_ends_at,
        tournament.clock_version,
        rows,
        tournament.blind_structure_id,
    )


def _after_commit(
    tournament_id: int,
    index: int,
    ends_at: datetime | None,
    version: int,
    rows: Sequence[ClockRow] | None = None,
    blind_structure_id: int | None = None,
) -> None:
    """Broadcast the new state and schedule the next level change, once committed."""
    hint = {blind_structure_id: tuple(rows)} if rows is not None and blind_structure_id else None
    transaction.on_commit(lambda: clock_publish_many([tournament_id], hint))
    clock_stored.send(
        sender=Tournament,
        tournament_id=tournament_id,
        index=index,
        ends_at=ends_at,
        version=version,
    )


def clock_running_check(tournament: Tournament) -> None:
    if tournament.state not in CLOCK_STATES:
        raise TournamentError(_("The clock only runs while the tournament is in play."))
    if tournament.level_ends_at is None and tournament.paused_remaining is None:
        raise TournamentError(_("The clock has not started."))


def mmss(span: timedelta) -> str:
    seconds = max(0, round(span.total_seconds()))
    return f"{seconds // 60}:{seconds % 60:02d}"


def row_label(row: ClockRow) -> Message:
    if row.is_break:
        return message(gettext_noop("break after level %(number)s"), number=row.levels_before)
    return message(gettext_noop("level %(number)s"), number=row.number)


def clock_record(
    tournament: Tournament,
    op: str,
    summary: Message,
    before: dict[str, Any],
    by: Any,
    *,
    dealer: int | None = None,
) -> None:
    """Log a clock action; ``dealer``: the table whose dealer did it (their page, no login),
    which the log names instead of "automatic"."""
    data: dict[str, Any] = {"op": op, "clock": before}
    if dealer is not None:
        data["dealer"] = dealer
    undo.action_record(tournament, ActionKind.CLOCK, summary, by=by, undo=data)


def row_length(tournament: Tournament, rows: Sequence[ClockRow], row: ClockRow) -> timedelta:
    """How long ``row`` lasts tonight: its minutes, or the rest a break now kept of it."""
    played = tonight(tournament, rows)
    return played[row.index].duration if row.index < len(played) else row.duration


def clock_row_set(
    tournament: Tournament, rows: Sequence[ClockRow], row: ClockRow, now: datetime, *, paused: bool
) -> None:
    """Put the clock on ``row`` with its full time (a level resumed after a break: the rest
    kept of it), running from ``now`` or paused."""
    length = row_length(tournament, rows, row)
    tournament.level_index = row.index
    if paused:
        tournament.level_ends_at = None
        tournament.paused_remaining = length
    else:
        tournament.level_ends_at = now + length
        tournament.paused_remaining = None
