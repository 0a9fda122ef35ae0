"""The blind clock's workflows: start, pause, resume, adjust, next, previous, break, advance.

The clock is three stored values on the tournament row (``level_index``, ``level_ends_at``,
``paused_remaining``), read through ``tournaments.clock``, which projects a running clock
whose level has ended onto the rows that follow. A director's action locks the tournament
row (the lock every tournament action takes, so actions apply one at a time), starts from
that projection (what the screens show at that moment), stores the new clock, bumps
``clock_version`` and records itself in the action log with the clock as it was before, so
Undo puts it back.

A level change made by time alone is ``clock_advance_due``: one conditional UPDATE that
stores the projection only if the clock is still the one that was read (same row, same
version, running, its end passed). A duplicate, late or lost task therefore changes nothing,
or exactly what the first one would have; a restarted worker has nothing in memory to lose.

After commit, every change is broadcast to the tournament's clock group with the whole
public state (``clock_payload``), and the next level change is scheduled
(``tournaments.tasks``); the periodic sweep catches whatever a lost task missed.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, F, IntegerField, OuterRef, Q, Subquery, Sum
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from series.permissions import is_director
from tournaments import broadcast, payouts
from tournaments.clock import ClockRow, ClockState, clock_state, position, rows_from
from tournaments.errors import TournamentError
from tournaments.models import (
    ActionKind,
    Entry,
    EntryState,
    StructureLevel,
    Tournament,
    TournamentAction,
    TournamentState,
)
from tournaments.services import undo

logger = logging.getLogger(__name__)

# States in which the clock runs by itself; the clock sets which of the two from its row.
CLOCK_STATES = (TournamentState.RUNNING, TournamentState.ON_BREAK)
# One adjustment adds or removes at most this much (a mistyped "+600 min" is refused).
ADJUST_MAX_SECONDS = 60 * 60


# ---------------------------------------------------------------------------- reads


def clock_rows(structure_id: int) -> tuple[ClockRow, ...]:
    """The clock's rows of a structure, breaks included, in position order."""
    return rows_from(
        StructureLevel.objects.filter(structure_id=structure_id).order_by("position", "pk")
    )


def clock_read(tournament: Tournament, now: datetime | None = None) -> ClockState:
    """What the tournament's clock shows at ``now`` (for pages that already hold the row)."""
    return clock_state(tournament, clock_rows(tournament.blind_structure_id), now or timezone.now())


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
    }


def clock_saved(tournament: Tournament) -> dict[str, Any]:
    """The stored clock as JSON values, for an action's ``undo`` (``clock_restore``)."""
    return _clock_fields(tournament)


def clock_restore(tournament: Tournament, saved: dict[str, Any]) -> None:
    """Put back a clock saved by ``clock_saved``: call with the tournament row locked.

    Used by the clock's own Undo, and by the start's Undo (``tournament_start``'s owner) to
    take the clock back to "not started". A running clock restored with an end time that
    has since passed is projected onwards like any other, and the sweep stores it.
    """
    ends_at = saved.get("level_ends_at")
    remaining_ms = saved.get("paused_remaining_ms")
    tournament.level_index = int(saved.get("level_index", 0))
    tournament.level_ends_at = parse_datetime(ends_at) if ends_at else None
    tournament.paused_remaining = (
        timedelta(milliseconds=int(remaining_ms)) if remaining_ms is not None else None
    )
    if saved.get("state") in TournamentState.values:
        tournament.state = saved["state"]
    _save(tournament)


# ---------------------------------------------------------------------------- writes


def _director(by: Any) -> None:
    # Views check first; this keeps a director action director-only from any caller.
    # ``by`` None is the system (a tournament start, a test).
    if by is not None and not is_director(by):
        raise PermissionDenied(_("Only directors may run the clock."))


def _locked(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().select_related("event").get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise TournamentError(_("This tournament does not exist.")) from None


def _save(tournament: Tournament, rows: Sequence[ClockRow] | None = None) -> None:
    """Store the clock fields, bump the version, and broadcast and schedule after commit."""
    if tournament.state in CLOCK_STATES:
        if rows is None:
            rows = clock_rows(tournament.blind_structure_id)
        if rows:
            row = rows[min(tournament.level_index, len(rows) - 1)]
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
        ]
    )
    _after_commit(tournament.pk)


def _after_commit(tournament_id: int) -> None:
    transaction.on_commit(lambda: clock_publish_now(tournament_id))
    from tournaments import tasks  # tasks call these services; import at use, not at load

    tasks.schedule_clock(tournament_id)


def _running(tournament: Tournament) -> None:
    if tournament.state not in CLOCK_STATES:
        raise TournamentError(_("The clock only runs while the tournament is in play."))
    if tournament.level_ends_at is None and tournament.paused_remaining is None:
        raise TournamentError(_("The clock has not started."))


def _mmss(span: timedelta) -> str:
    seconds = max(0, round(span.total_seconds()))
    return f"{seconds // 60}:{seconds % 60:02d}"


def _row_label(row: ClockRow) -> str:
    if row.is_break:
        return _("break after level %(number)s") % {"number": row.levels_before}
    return _("level %(number)s") % {"number": row.number}


def _record(tournament: Tournament, op: str, summary: str, before: dict[str, Any], by: Any) -> None:
    undo.action_record(
        tournament,
        ActionKind.CLOCK,
        summary,
        by=by,
        undo={"op": op, "clock": before},
    )


def _set_row(tournament: Tournament, row: ClockRow, now: datetime, *, paused: bool) -> None:
    """Put the clock on ``row`` with its full time, running from ``now`` or paused."""
    tournament.level_index = row.index
    if paused:
        tournament.level_ends_at = None
        tournament.paused_remaining = row.duration
    else:
        tournament.level_ends_at = now + row.duration
        tournament.paused_remaining = None


def clock_start(tournament_id: int, *, by: Any = None, now: datetime | None = None) -> Tournament:
    """Start the clock on the structure's first row, running from ``now``.

    ``tournament_start`` calls this inside its own transaction (it records the start in the
    action log, with its own Undo: ``clock_restore`` takes the clock back); ``by`` is who
    started it, for that log. Refused when the tournament is over, when the clock already
    runs, or when the structure has no rows.
    """
    _director(by)
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.is_over:
            raise TournamentError(_("This tournament is over."))
        if tournament.level_ends_at is not None or tournament.paused_remaining is not None:
            raise TournamentError(_("The clock has already started."))
        rows = clock_rows(tournament.blind_structure_id)
        if not rows:
            raise TournamentError(_("The blind structure has no levels."))
        _set_row(tournament, rows[0], now, paused=False)
        tournament.state = TournamentState.RUNNING
        if tournament.started_at is None:
            tournament.started_at = now
        _save(tournament, rows)
        logger.info("clock of tournament %s started by %s", tournament_id, by)
    return tournament


def clock_pause(tournament_id: int, *, by: Any, now: datetime | None = None) -> Tournament:
    """Stop the clock, keeping the time left in the row on screen."""
    _director(by)
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament_id)
        _running(tournament)
        if tournament.paused_remaining is not None:
            raise TournamentError(_("The clock is already paused."))
        rows = clock_rows(tournament.blind_structure_id)
        before = _clock_fields(tournament)
        at = position(tournament, rows, now)
        tournament.level_index = at.index
        tournament.level_ends_at = None
        tournament.paused_remaining = at.remaining
        _save(tournament, rows)
        _record(
            tournament,
            "pause",
            _("Clock paused: %(row)s, %(left)s left")
            % {"row": _row_label(rows[at.index]), "left": _mmss(at.remaining)},
            before,
            by,
        )
    return tournament


def clock_resume(tournament_id: int, *, by: Any, now: datetime | None = None) -> Tournament:
    """Run the clock again from the time left when it was paused."""
    _director(by)
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament_id)
        _running(tournament)
        remaining = tournament.paused_remaining
        if remaining is None:
            raise TournamentError(_("The clock is not paused."))
        before = _clock_fields(tournament)
        tournament.level_ends_at = now + remaining
        tournament.paused_remaining = None
        _save(tournament)
        _record(
            tournament,
            "resume",
            _("Clock resumed with %(left)s left") % {"left": _mmss(remaining)},
            before,
            by,
        )
    return tournament


def clock_adjust(
    tournament_id: int, seconds: int, *, by: Any, now: datetime | None = None
) -> Tournament:
    """Add (``seconds`` > 0) or remove time from the row in play.

    Never below zero: removing at least the time left ends the row, and the next row starts
    now with its full time (paused if the clock was paused). On the last row the clock stays
    at zero.
    """
    _director(by)
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
        tournament = _locked(tournament_id)
        _running(tournament)
        rows = clock_rows(tournament.blind_structure_id)
        before = _clock_fields(tournament)
        at = position(tournament, rows, now)
        left = at.remaining + timedelta(seconds=seconds)
        paused = at.paused
        if left <= timedelta(0) and at.index < len(rows) - 1:
            _set_row(tournament, rows[at.index + 1], now, paused=paused)
        else:
            left = max(left, timedelta(0))
            tournament.level_index = at.index
            tournament.level_ends_at = None if paused else now + left
            tournament.paused_remaining = left if paused else None
        _save(tournament, rows)
        amount = _mmss(timedelta(seconds=abs(seconds)))
        summary = (
            _("Added %(amount)s to the clock")
            if seconds > 0
            else _("Took %(amount)s off the clock")
        ) % {"amount": amount}
        _record(tournament, "adjust", summary, before, by)
    return tournament


def _jump(
    tournament_id: int, by: Any, now: datetime | None, op: str, pick: Any, *, run: bool = False
) -> Tournament:
    """Move the clock to the row ``pick(rows, index)`` returns, with its full time."""
    _director(by)
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament_id)
        _running(tournament)
        rows = clock_rows(tournament.blind_structure_id)
        before = _clock_fields(tournament)
        at = position(tournament, rows, now)
        row: ClockRow = pick(rows, at.index)
        _set_row(tournament, row, now, paused=at.paused and not run)
        _save(tournament, rows)
        summaries = {
            "next": _("Next level: %(row)s"),
            "previous": _("Back to %(row)s"),
            "break": _("Break started early: %(row)s"),
        }
        _record(tournament, op, summaries[op] % {"row": _row_label(row)}, before, by)
    return tournament


def clock_next(tournament_id: int, *, by: Any, now: datetime | None = None) -> Tournament:
    """Go to the next row (level or break) with its full time; paused stays paused."""

    def pick(rows: tuple[ClockRow, ...], index: int) -> ClockRow:
        if index >= len(rows) - 1:
            raise TournamentError(_("This is the last level: the blinds stay here."))
        return rows[index + 1]

    return _jump(tournament_id, by, now, "next", pick)


def clock_previous(tournament_id: int, *, by: Any, now: datetime | None = None) -> Tournament:
    """Go back to the previous row with its full time; paused stays paused."""

    def pick(rows: tuple[ClockRow, ...], index: int) -> ClockRow:
        if index == 0:
            raise TournamentError(_("This is the first level."))
        return rows[index - 1]

    return _jump(tournament_id, by, now, "previous", pick)


def clock_break_now(tournament_id: int, *, by: Any, now: datetime | None = None) -> Tournament:
    """Start the next break of the structure now, with its full time, running.

    The rest of the row in play (and any level before that break) is not played: after the
    break the clock goes on with the row that follows it, as the structure says.
    """

    def pick(rows: tuple[ClockRow, ...], index: int) -> ClockRow:
        if rows[index].is_break:
            raise TournamentError(_("The break is already on."))
        for row in rows[index + 1 :]:
            if row.is_break:
                return row
        raise TournamentError(_("No break is left in this structure."))

    return _jump(tournament_id, by, now, "break", pick, run=True)


@undo.register(ActionKind.CLOCK)
def _undo_clock(tournament: Tournament, action: TournamentAction) -> None:
    """Every clock action (pause, resume, adjust, next, previous, break) is undone the same
    way: the clock as it was just before, projected to now like any stored clock, so undoing
    "+1 min" an hour later takes one minute off the schedule and nothing else."""
    saved = action.undo.get("clock")
    if not isinstance(saved, dict):
        raise TournamentError(_("This clock action kept nothing to undo it with."))
    if tournament.state not in CLOCK_STATES:
        raise TournamentError(_("The clock only runs while the tournament is in play."))
    clock_restore(tournament, saved)


def clock_advance_due(tournament_id: int, expected_index: int, now: datetime | None = None) -> bool:
    """Store the level change(s) due at ``now`` if the clock is still on ``expected_index``.

    One conditional UPDATE (row, version, running, end passed), so of any number of tasks
    and sweeps racing for the same change exactly one stores it; the others, and any that
    come late, touch nothing and return False. A clock more than one row late jumps to the
    row in play at ``now`` and keeps the schedule (each row ends a full row after the
    previous end, not after the task ran). After the last row the clock stays on it.
    """
    now = now or timezone.now()
    seen = (
        Tournament.objects.filter(pk=tournament_id)
        .values(
            "level_index",
            "level_ends_at",
            "paused_remaining",
            "state",
            "clock_version",
            "blind_structure_id",
        )
        .first()
    )
    if (
        seen is None
        or seen["state"] not in CLOCK_STATES
        or seen["level_index"] != expected_index
        or seen["paused_remaining"] is not None
        or seen["level_ends_at"] is None
        or seen["level_ends_at"] > now
    ):
        return False
    rows = clock_rows(seen["blind_structure_id"])
    at = position(
        SimpleNamespace(
            level_index=seen["level_index"],
            level_ends_at=seen["level_ends_at"],
            paused_remaining=None,
        ),
        rows,
        now,
    )
    if at.index == seen["level_index"]:
        return False  # the last row: it stays
    state = TournamentState.ON_BREAK if rows[at.index].is_break else TournamentState.RUNNING
    with transaction.atomic():
        changed = Tournament.objects.filter(
            pk=tournament_id,
            level_index=expected_index,
            paused_remaining__isnull=True,
            level_ends_at__lte=now,
            clock_version=seen["clock_version"],
            state__in=CLOCK_STATES,
        ).update(
            level_index=at.index,
            level_ends_at=at.ends_at,
            state=state,
            clock_version=F("clock_version") + 1,
        )
        if changed:
            _after_commit(tournament_id)
    return bool(changed)


def clocks_due(now: datetime | None = None) -> list[tuple[int, int]]:
    """(tournament id, stored row) of every running clock whose row has ended and is not
    the last: what the sweep advances."""
    now = now or timezone.now()
    row_count = (
        StructureLevel.objects.filter(structure=OuterRef("blind_structure"))
        .order_by()
        .values("structure")
        .annotate(n=Count("pk"))
        .values("n")
    )
    due = (
        Tournament.objects.filter(
            state__in=CLOCK_STATES, paused_remaining__isnull=True, level_ends_at__lte=now
        )
        .annotate(row_count=Subquery(row_count, output_field=IntegerField()))
        .filter(level_index__lt=F("row_count") - 1)
        .values_list("pk", "level_index")
    )
    return list(due)


def clock_sweep(now: datetime | None = None) -> int:
    """Advance every clock whose row has ended; how many changed."""
    changed = 0
    for tournament_id, index in clocks_due(now):
        try:
            changed += clock_advance_due(tournament_id, index, now)
        except Exception:
            logger.exception("sweep: advancing the clock of tournament %s failed", tournament_id)
    return changed


# ---------------------------------------------------------------------------- the screens


def _field(tournament: Tournament) -> dict[str, Any]:
    """Players left, entries, chips in play and money, from the entries."""
    counted = [EntryState.REGISTERED, EntryState.PLAYING, EntryState.OUT]
    totals = Entry.objects.filter(tournament=tournament, state__in=counted).aggregate(
        entries=Count("pk"),
        left=Count("pk", filter=Q(state__in=[EntryState.REGISTERED, EntryState.PLAYING])),
        rebuys=Sum("rebuys"),
        addons=Count("pk", filter=Q(addon=True)),
    )
    entries = totals["entries"] or 0
    left = totals["left"] or 0
    rebuys = totals["rebuys"] or 0
    addons = totals["addons"] or 0
    event = tournament.event
    chips = (
        entries * event.starting_stack
        + rebuys * tournament.rebuy_chips
        + addons * tournament.addon_chips
    )
    prize_pool = payouts.prize_pool(
        buy_ins=entries,
        buy_in=tournament.prize_per_entry,
        rebuys=rebuys,
        rebuy=tournament.rebuy_price,
        addons=addons,
        addon=tournament.addon_price,
    )
    return {
        "entries": entries,
        "players_left": left,
        "rebuys": rebuys,
        "addons": addons,
        "chips_in_play": chips,
        "average_stack": round(chips / left) if left else None,
        "prize_pool": prize_pool,
        "payouts": _payouts(tournament, entries, prize_pool),
        "bounty": tournament.bounty,
    }


def _payouts(tournament: Tournament, entries: int, prize_pool: int) -> list[dict[str, int]]:
    """Each paid place and its prize: the director's percentages, or the built-in table for
    the field, rounded to the money unit with the remainder to first (``payouts``)."""
    if not entries or not prize_pool:
        return []
    try:
        shares = [int(p) for p in tournament.payout_basis_points or []]
        shares = shares or payouts.payout_percentages(entries)
        prizes = payouts.payouts(prize_pool, shares, unit=tournament.money_unit)
    except (payouts.PayoutError, TypeError, ValueError):
        # Percentages the settings should have refused, or a field beyond the built-in
        # table: the screens show the pool without a payout list rather than fail.
        return []
    return [{"place": place, "prize": prize} for place, prize in enumerate(prizes, start=1)]


def clock_payload(tournament_id: int, now: datetime | None = None) -> dict[str, Any] | None:
    """Everything the TV clock, its sockets and the overlay JSON show; None if no such
    tournament. Public: no player's name, only counts and money."""
    tournament = Tournament.objects.select_related("event").filter(pk=tournament_id).first()
    if tournament is None:
        return None
    now = now or timezone.now()
    state = clock_read(tournament, now)
    event = tournament.event
    return {
        "type": "clock",
        "version": tournament.clock_version,
        "tournament": {
            "id": tournament.pk,
            "name": event.name,
            "venue": event.venue,
            "game": event.game,
            "game_label": event.game_label,
            "structure": event.structure,
            "state": tournament.state,
            "state_label": tournament.get_state_display(),
            "starts_at_ms": round(event.starts_at.timestamp() * 1000),
        },
        "clock": state.as_dict(),
        "field": _field(tournament),
    }


def clock_publish_now(tournament_id: int) -> None:
    """Send the tournament's current state to its clock screens (call after commit)."""
    try:
        payload = clock_payload(tournament_id)
    except Exception:
        logger.exception(
            "clock of tournament %s: reading its state to broadcast failed", tournament_id
        )
        return
    if payload is not None:
        broadcast.clock_changed(tournament_id, payload)


def clock_publish(tournament_id: int) -> None:
    """Tell the clock screens after commit that the tournament changed (an entry, a rebuy,
    an elimination): players left, the average stack and the prize pool follow."""
    transaction.on_commit(lambda: clock_publish_now(tournament_id))


def _on_tournament_changed(
    sender: Any, tournament_id: int, action: TournamentAction, **kwargs: Any
) -> None:
    # The action log's signal, sent after commit: the clock's own actions broadcast already.
    if action.kind != ActionKind.CLOCK:
        clock_publish_now(tournament_id)


undo.tournament_changed.connect(_on_tournament_changed, dispatch_uid="tournaments.clock.tv")
