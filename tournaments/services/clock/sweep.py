"""The level changes made by time alone: the scheduled task's and the periodic sweep's.

A level change made by time alone is ``clock_advance_due``: one conditional UPDATE that
stores the projection only if the clock is still the one that was read (same row, same
version, running, its end passed). A duplicate, late or lost task therefore changes nothing,
or exactly what the first one would have; a restarted worker has nothing in memory to lose.
The periodic sweep (``clock_sweep``, ``tournaments.tasks``) catches whatever a lost task
missed. Changes made so are announced like a director's (``payload``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from types import SimpleNamespace

from django.db import transaction
from django.db.models import Count, Exists, F, IntegerField, OuterRef, Q, Subquery
from django.utils import timezone

from tournaments.clock import ClockRow, Position, position, row_at
from tournaments.models import BlindLevel, LevelKind, Tournament, TournamentState
from tournaments.services.clock.payload import clock_publish_many
from tournaments.services.clock.reads import CLOCK_STATES, clock_rows_many
from tournaments.signals import clock_stored


@dataclass(frozen=True)
class _Due:
    """A running clock as read before its conditional UPDATE."""

    id: int
    index: int
    ends_at: datetime
    version: int
    blind_structure_id: int
    resume_index: int | None = None
    resume_remaining: timedelta | None = None


# What ``_Due`` reads of a tournament, in its order.
_DUE_FIELDS = (
    "pk",
    "level_index",
    "level_ends_at",
    "clock_version",
    "blind_structure_id",
    "resume_index",
    "resume_remaining",
)


def clock_advance_due(tournament_id: int, expected_index: int, now: datetime | None = None) -> bool:
    """Store the level change(s) due at ``now`` if the clock is still on ``expected_index``.

    One conditional UPDATE (row, version, running, end passed), so of any number of tasks
    and sweeps racing for the same change exactly one stores it; the others, and any that
    come late, touch nothing and return False. A clock more than one row late jumps to the
    row in play at ``now`` and keeps the schedule (each row ends a full row after the
    previous end, not after the task ran). After the blind structure's last row come the extra
    levels (``tournaments.clock.row_at``); only a blind structure with no level stays on its last.
    """
    now = now or timezone.now()
    seen = (
        Tournament.objects.filter(
            pk=tournament_id,
            state__in=CLOCK_STATES,
            level_index=expected_index,
            paused_remaining__isnull=True,
            level_ends_at__lte=now,
        )
        .values_list(*_DUE_FIELDS)
        .first()
    )
    if seen is None:
        return False
    return bool(_advance([_Due(*seen)], now))


def _due(now: datetime) -> list[_Due]:
    row_count = (
        BlindLevel.objects.filter(blind_structure=OuterRef("blind_structure"))
        .order_by()
        .values("blind_structure")
        .annotate(n=Count("pk"))
        .values("n")
    )
    # A blind structure with a level goes on past its last row (the extra levels double it); one
    # with none stays on its last row, which the sweep must not keep finding.
    has_level = Exists(
        BlindLevel.objects.filter(blind_structure=OuterRef("blind_structure"), kind=LevelKind.LEVEL)
    )
    due = (
        Tournament.objects.filter(
            state__in=CLOCK_STATES, paused_remaining__isnull=True, level_ends_at__lte=now
        )
        .annotate(row_count=Subquery(row_count, output_field=IntegerField()))
        .filter(Q(level_index__lt=F("row_count") - 1) | Q(has_level))
        .order_by("pk")
        .values_list(*_DUE_FIELDS)
    )
    return [_Due(*row) for row in due]


def clocks_due(now: datetime | None = None) -> list[tuple[int, int]]:
    """(tournament id, stored row) of every running clock whose row has ended and has a row
    to follow: what the sweep advances."""
    return [(due.id, due.index) for due in _due(now or timezone.now())]


def clock_sweep(now: datetime | None = None) -> int:
    """Advance every clock whose row has ended; how many changed.

    Every level-change task runs it, not only the sweep on beat: when many clocks change
    at the same moment (tournaments started together), the first task to wake stores and
    announces them all in one pass, with one read of each blind structure and one of the entries,
    instead of each task paying for its own queries one after another.
    """
    now = now or timezone.now()
    return _advance(_due(now), now)


def _advance(candidates: list[_Due], now: datetime) -> int:
    """Store each candidate's change with its own conditional UPDATE (each commits alone, so
    no lock is held across clocks), then announce the changed ones together."""
    rows_by_blind_structure = clock_rows_many({due.blind_structure_id for due in candidates})
    changed: list[tuple[_Due, Position]] = []
    try:
        for due in candidates:
            rows = rows_by_blind_structure.get(due.blind_structure_id, ())
            at = position(
                SimpleNamespace(
                    level_index=due.index,
                    level_ends_at=due.ends_at,
                    paused_remaining=None,
                    resume_index=due.resume_index,
                    resume_remaining=due.resume_remaining,
                ),
                rows,
                now,
            )
            if at.index == due.index:
                continue  # no row follows (a blind structure with no level): it stays
            row = row_at(rows, at.index)
            state = (
                TournamentState.ON_BREAK
                if row is not None and row.is_break
                else TournamentState.RUNNING
            )
            stored = Tournament.objects.filter(
                pk=due.id,
                level_index=due.index,
                paused_remaining__isnull=True,
                level_ends_at__lte=now,
                clock_version=due.version,
                state__in=CLOCK_STATES,
            ).update(
                level_index=at.index,
                level_ends_at=at.ends_at,
                state=state,
                clock_version=F("clock_version") + 1,
            )
            if stored:
                changed.append((due, at))
    finally:
        # Changes stored before a failure are announced all the same.
        if changed:
            transaction.on_commit(lambda: _announce(changed, rows_by_blind_structure))
    return len(changed)


def _announce(
    changed: list[tuple[_Due, Position]], rows_by_blind_structure: dict[int, tuple[ClockRow, ...]]
) -> None:
    """After commit: each changed clock's state to its screens, and its next task."""
    clock_publish_many([due.id for due, _at in changed], rows_by_blind_structure)
    for due, at in changed:
        clock_stored.send(
            sender=Tournament,
            tournament_id=due.id,
            index=at.index,
            ends_at=at.ends_at,
            version=due.version + 1,
        )
