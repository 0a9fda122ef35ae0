"""The blind clock's controls: start, pause, resume, adjust, next and previous level.

Each locks the tournament, moves the clock from the row in play as the screens show it, and
stores and records it (``store``), so Undo puts the clock back.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments.clock import ClockRow, position, row_at
from tournaments.errors import TournamentError
from tournaments.models import Tournament, TournamentState
from tournaments.services.clock.reads import clock_rows
from tournaments.services.clock.store import (
    clock_record,
    clock_row_set,
    clock_running_check,
    clock_saved,
    clock_store,
    director_check,
    mmss,
    row_label,
)
from tournaments.services.locks import tournament_locked
from tournaments.summaries import Message, message

logger = logging.getLogger(__name__)


# One adjustment adds or removes at most this much (a mistyped "+600 min" is refused).
ADJUST_MAX_SECONDS = 60 * 60


def clock_start(tournament_id: int, *, by: Any = None, now: datetime | None = None) -> Tournament:
    """Start the clock on the blind structure's first row, running from ``now``.

    ``tournament_start`` calls this inside its own transaction (it records the start in the
    action log, with its own Undo: ``clock_restore`` takes the clock back); ``by`` is who
    started it, for that log. Refused when the tournament is over, when the clock already
    runs, or when the blind structure has no rows.
    """
    director_check(by)
    now = now or timezone.now()
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        if tournament.is_over:
            raise TournamentError(_("This tournament is over."))
        if tournament.level_ends_at is not None or tournament.paused_remaining is not None:
            raise TournamentError(_("The clock has already started."))
        rows = clock_rows(tournament.blind_structure_id)
        if not rows:
            raise TournamentError(_("The blind structure has no levels."))
        tournament.resume_index = tournament.resume_remaining = None
        clock_row_set(tournament, rows, rows[0], now, paused=False)
        tournament.state = TournamentState.RUNNING
        if tournament.started_at is None:
            tournament.started_at = now
        clock_store(tournament, rows)
        logger.info("clock of tournament %s started by %s", tournament_id, by)
    return tournament


ClockChange = Callable[[Tournament, datetime], tuple[Message, Sequence[ClockRow] | None]]
"""A control's own part: its checks and its move of the clock, given the locked tournament
and ``now``; it returns the log line and the rows it read (None: not read)."""


def _clock_action(
    tournament_id: int, by: Any, now: datetime | None, op: str, change: ClockChange
) -> Tournament:
    """What pause, resume, next and previous share around their own ``change``: lock the
    tournament, check that its clock runs, keep the clock as it was, then store the moved
    clock and record ``op`` in the action log with what Undo needs."""
    director_check(by)
    now = now or timezone.now()
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        clock_running_check(tournament)
        before = clock_saved(tournament)
        summary, rows = change(tournament, now)
        clock_store(tournament, rows)
        clock_record(tournament, op, summary, before, by)
    return tournament


def clock_pause(tournament_id: int, *, by: Any, now: datetime | None = None) -> Tournament:
    """Stop the clock, keeping the time left in the row on screen."""

    def pause(tournament: Tournament, now: datetime) -> tuple[Message, Sequence[ClockRow]]:
        if tournament.paused_remaining is not None:
            raise TournamentError(_("The clock is already paused."))
        rows = clock_rows(tournament.blind_structure_id)
        at = position(tournament, rows, now)
        tournament.level_index = at.index
        tournament.level_ends_at = None
        tournament.paused_remaining = at.remaining
        summary = message(
            gettext_noop("Clock paused: %(row)s, %(left)s left"),
            row=row_label(row_at(rows, at.index) or rows[-1]),
            left=mmss(at.remaining),
        )
        return summary, rows

    return _clock_action(tournament_id, by, now, "pause", pause)


def clock_resume(tournament_id: int, *, by: Any, now: datetime | None = None) -> Tournament:
    """Run the clock again from the time left when it was paused."""

    def resume(tournament: Tournament, now: datetime) -> tuple[Message, None]:
        remaining = tournament.paused_remaining
        if remaining is None:
            raise TournamentError(_("The clock is not paused."))
        if tournament.hand_for_hand:
            # TDA RP-8: the clock stays stopped; each hand takes its minutes off instead.
            raise TournamentError(
                _("The clock stays stopped during hand-for-hand: end hand-for-hand to run it.")
            )
        if tournament.online_paused:
            # The tables are held too (a pause online, or a deal the players are answering):
            # they resume with the clock, from the online section, which asks about a deal.
            raise TournamentError(
                _(
                    "The tables are held: resume the tournament from the online section "
                    "(a deal still open is withdrawn, after asking)."
                )
            )
        tournament.level_ends_at = now + remaining
        tournament.paused_remaining = None
        # No rows read: ``clock_store`` reads them if the state needs them.
        return message(gettext_noop("Clock resumed with %(left)s left"), left=mmss(remaining)), None

    return _clock_action(tournament_id, by, now, "resume", resume)


def clock_adjust(
    tournament_id: int, seconds: int, *, by: Any, now: datetime | None = None
) -> Tournament:
    """Add (``seconds`` > 0) or remove time from the row in play.

    Never below zero: removing at least the time left ends the row, and the next row (past
    the blind structure's end, the next extra level) starts now with its full time (paused if the
    clock was paused). With no row to follow, the clock stays at zero.
    """
    director_check(by)
    if isinstance(seconds, bool) or not isinstance(seconds, int):
        raise TournamentError(_("Say how many seconds to add or remove."))
    if seconds == 0:
        raise TournamentError(_("Adding no time changes nothing."))
    if abs(seconds) > ADJUST_MAX_SECONDS:
        raise TournamentError(
            _("Add or remove at most %(minutes)s minutes at a time.")
            % {"minutes": ADJUST_MAX_SECONDS // 60}
        )
    now = now or timezone.now()
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        clock_running_check(tournament)
        rows = clock_rows(tournament.blind_structure_id)
        before = clock_saved(tournament)
        at = position(tournament, rows, now)
        left = at.remaining + timedelta(seconds=seconds)
        paused = at.paused
        following = row_at(rows, at.index + 1)
        if left <= timedelta(0) and following is not None:
            clock_row_set(tournament, rows, following, now, paused=paused)
        else:
            left = max(left, timedelta(0))
            tournament.level_index = at.index
            tournament.level_ends_at = None if paused else now + left
            tournament.paused_remaining = left if paused else None
        clock_store(tournament, rows)
        amount = mmss(timedelta(seconds=abs(seconds)))
        summary = message(
            gettext_noop("Added %(amount)s to the clock")
            if seconds > 0
            else gettext_noop("Took %(amount)s off the clock"),
            amount=amount,
        )
        clock_record(tournament, "adjust", summary, before, by)
    return tournament


_JUMP_SUMMARIES = {
    "next": gettext_noop("Next level: %(row)s"),
    "previous": gettext_noop("Back to %(row)s"),
}


def _jump(tournament_id: int, by: Any, now: datetime | None, op: str, pick: Any) -> Tournament:
    """Move the clock to the row ``pick(rows, index)`` returns, with its full time."""

    def jump(tournament: Tournament, now: datetime) -> tuple[Message, Sequence[ClockRow]]:
        rows = clock_rows(tournament.blind_structure_id)
        at = position(tournament, rows, now)
        row: ClockRow = pick(rows, at.index)
        clock_row_set(tournament, rows, row, now, paused=at.paused)
        return message(_JUMP_SUMMARIES[op], row=row_label(row)), rows

    return _clock_action(tournament_id, by, now, op, jump)


def clock_next(tournament_id: int, *, by: Any, now: datetime | None = None) -> Tournament:
    """Go to the next row (level or break, past the blind structure's end the next extra level)
    with its full time; paused stays paused."""

    def pick(rows: tuple[ClockRow, ...], index: int) -> ClockRow:
        following = row_at(rows, index + 1)
        if following is None:
            raise TournamentError(_("This is the last level: the blinds stay here."))
        return following

    return _jump(tournament_id, by, now, "next", pick)


def clock_previous(tournament_id: int, *, by: Any, now: datetime | None = None) -> Tournament:
    """Go back to the previous row with its full time; paused stays paused."""

    def pick(rows: tuple[ClockRow, ...], index: int) -> ClockRow:
        previous = row_at(rows, index - 1)
        if previous is None:
            raise TournamentError(_("This is the first level."))
        return previous

    return _jump(tournament_id, by, now, "previous", pick)
