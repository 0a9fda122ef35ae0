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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, Exists, F, IntegerField, OuterRef, Q, Subquery, Sum
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from series.permissions import is_director
from tournaments import broadcast, payouts
from tournaments.clock import (
    ClockRow,
    ClockState,
    Position,
    clock_state,
    position,
    row_at,
    rows_from,
)
from tournaments.errors import TournamentError
from tournaments.models import (
    ActionKind,
    Entry,
    EntryState,
    LevelKind,
    StructureLevel,
    Tournament,
    TournamentAction,
    TournamentState,
)
from tournaments.services import undo
from tournaments.signals import clock_stored
from tournaments.summaries import Message, message

logger = logging.getLogger(__name__)

# States in which the clock runs by itself; the clock sets which of the two from its row.
CLOCK_STATES = (TournamentState.RUNNING, TournamentState.ON_BREAK)
# One adjustment adds or removes at most this much (a mistyped "+600 min" is refused).
ADJUST_MAX_SECONDS = 60 * 60


# ---------------------------------------------------------------------------- reads


# What the clock reads of a row; read as values, not model instances (a level change reads
# its structure twice, and instances cost most of its time).
ROW_FIELDS = (
    "kind",
    "minutes",
    "small_blind",
    "big_blind",
    "ante",
    "ante_kind",
    "small_bet",
    "big_bet",
    "colour_up",
)


def clock_rows(structure_id: int) -> tuple[ClockRow, ...]:
    """The clock's rows of a structure, breaks included, in position order."""
    levels = (
        StructureLevel.objects.filter(structure_id=structure_id)
        .order_by("position", "pk")
        .values(*ROW_FIELDS)
    )
    return rows_from(SimpleNamespace(**level) for level in levels)


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
    structure_id: int | None = None,
) -> None:
    """Broadcast the new state and schedule the next level change, once committed."""
    hint = {structure_id: tuple(rows)} if rows is not None and structure_id else None
    transaction.on_commit(lambda: _publish([tournament_id], hint))
    clock_stored.send(
        sender=Tournament,
        tournament_id=tournament_id,
        index=index,
        ends_at=ends_at,
        version=version,
    )


def _running(tournament: Tournament) -> None:
    if tournament.state not in CLOCK_STATES:
        raise TournamentError(_("The clock only runs while the tournament is in play."))
    if tournament.level_ends_at is None and tournament.paused_remaining is None:
        raise TournamentError(_("The clock has not started."))


def _mmss(span: timedelta) -> str:
    seconds = max(0, round(span.total_seconds()))
    return f"{seconds // 60}:{seconds % 60:02d}"


def _row_label(row: ClockRow) -> Message:
    if row.is_break:
        return message(gettext_noop("break after level %(number)s"), number=row.levels_before)
    return message(gettext_noop("level %(number)s"), number=row.number)


def _record(
    tournament: Tournament, op: str, summary: Message, before: dict[str, Any], by: Any
) -> None:
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
            message(
                gettext_noop("Clock paused: %(row)s, %(left)s left"),
                row=_row_label(row_at(rows, at.index) or rows[-1]),
                left=_mmss(at.remaining),
            ),
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
            message(gettext_noop("Clock resumed with %(left)s left"), left=_mmss(remaining)),
            before,
            by,
        )
    return tournament


def clock_adjust(
    tournament_id: int, seconds: int, *, by: Any, now: datetime | None = None
) -> Tournament:
    """Add (``seconds`` > 0) or remove time from the row in play.

    Never below zero: removing at least the time left ends the row, and the next row (past
    the structure's end, the next extra level) starts now with its full time (paused if the
    clock was paused). With no row to follow, the clock stays at zero.
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
        following = row_at(rows, at.index + 1)
        if left <= timedelta(0) and following is not None:
            _set_row(tournament, following, now, paused=paused)
        else:
            left = max(left, timedelta(0))
            tournament.level_index = at.index
            tournament.level_ends_at = None if paused else now + left
            tournament.paused_remaining = left if paused else None
        _save(tournament, rows)
        amount = _mmss(timedelta(seconds=abs(seconds)))
        summary = message(
            gettext_noop("Added %(amount)s to the clock")
            if seconds > 0
            else gettext_noop("Took %(amount)s off the clock"),
            amount=amount,
        )
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
            "next": gettext_noop("Next level: %(row)s"),
            "previous": gettext_noop("Back to %(row)s"),
            "break": gettext_noop("Break started early: %(row)s"),
        }
        _record(tournament, op, message(summaries[op], row=_row_label(row)), before, by)
    return tournament


def clock_next(tournament_id: int, *, by: Any, now: datetime | None = None) -> Tournament:
    """Go to the next row (level or break, past the structure's end the next extra level)
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


def clock_break_now(tournament_id: int, *, by: Any, now: datetime | None = None) -> Tournament:
    """Start the next break of the structure now, with its full time, running.

    The rest of the row in play (and any level before that break) is not played: after the
    break the clock goes on with the row that follows it, as the structure says.
    """

    def pick(rows: tuple[ClockRow, ...], index: int) -> ClockRow:
        current = row_at(rows, index)
        if current is not None and current.is_break:
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


@dataclass(frozen=True)
class _Due:
    """A running clock as read before its conditional UPDATE."""

    id: int
    index: int
    ends_at: datetime
    version: int
    structure_id: int


def clock_advance_due(tournament_id: int, expected_index: int, now: datetime | None = None) -> bool:
    """Store the level change(s) due at ``now`` if the clock is still on ``expected_index``.

    One conditional UPDATE (row, version, running, end passed), so of any number of tasks
    and sweeps racing for the same change exactly one stores it; the others, and any that
    come late, touch nothing and return False. A clock more than one row late jumps to the
    row in play at ``now`` and keeps the schedule (each row ends a full row after the
    previous end, not after the task ran). After the structure's last row come the extra
    levels (``tournaments.clock.row_at``); only a structure with no level stays on its last.
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
        .values_list("pk", "level_index", "level_ends_at", "clock_version", "blind_structure_id")
        .first()
    )
    if seen is None:
        return False
    return bool(_advance([_Due(*seen)], now))


def _due(now: datetime) -> list[_Due]:
    row_count = (
        StructureLevel.objects.filter(structure=OuterRef("blind_structure"))
        .order_by()
        .values("structure")
        .annotate(n=Count("pk"))
        .values("n")
    )
    # A structure with a level goes on past its last row (the extra levels double it); one
    # with none stays on its last row, which the sweep must not keep finding.
    has_level = Exists(
        StructureLevel.objects.filter(structure=OuterRef("blind_structure"), kind=LevelKind.LEVEL)
    )
    due = (
        Tournament.objects.filter(
            state__in=CLOCK_STATES, paused_remaining__isnull=True, level_ends_at__lte=now
        )
        .annotate(row_count=Subquery(row_count, output_field=IntegerField()))
        .filter(Q(level_index__lt=F("row_count") - 1) | Q(has_level))
        .order_by("pk")
        .values_list("pk", "level_index", "level_ends_at", "clock_version", "blind_structure_id")
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
    announces them all in one pass, with one read of each structure and one of the entries,
    instead of each task paying for its own queries one after another.
    """
    now = now or timezone.now()
    return _advance(_due(now), now)


def _advance(candidates: list[_Due], now: datetime) -> int:
    """Store each candidate's change with its own conditional UPDATE (each commits alone, so
    no lock is held across clocks), then announce the changed ones together."""
    rows_by_structure = clock_rows_many({due.structure_id for due in candidates})
    changed: list[tuple[_Due, Position]] = []
    try:
        for due in candidates:
            rows = rows_by_structure.get(due.structure_id, ())
            at = position(
                SimpleNamespace(
                    level_index=due.index, level_ends_at=due.ends_at, paused_remaining=None
                ),
                rows,
                now,
            )
            if at.index == due.index:
                continue  # no row follows (a structure with no level): it stays
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
            transaction.on_commit(lambda: _announce(changed, rows_by_structure))
    return len(changed)


def _announce(
    changed: list[tuple[_Due, Position]], rows_by_structure: dict[int, tuple[ClockRow, ...]]
) -> None:
    """After commit: each changed clock's state to its screens, and its next task."""
    _publish([due.id for due, _at in changed], rows_by_structure)
    for due, at in changed:
        clock_stored.send(
            sender=Tournament,
            tournament_id=due.id,
            index=at.index,
            ends_at=at.ends_at,
            version=due.version + 1,
        )


# ---------------------------------------------------------------------------- the screens


def clock_rows_many(structure_ids: Iterable[int]) -> dict[int, tuple[ClockRow, ...]]:
    """The clock's rows of several structures in one query, by structure id."""
    levels: dict[int, list[SimpleNamespace]] = {}
    query = (
        StructureLevel.objects.filter(structure_id__in=list(structure_ids))
        .order_by("structure_id", "position", "pk")
        .values("structure_id", *ROW_FIELDS)
    )
    for level in query:
        levels.setdefault(level.pop("structure_id"), []).append(SimpleNamespace(**level))
    return {structure_id: rows_from(rows) for structure_id, rows in levels.items()}


def _fields(tournaments: list[Tournament]) -> dict[int, dict[str, Any]]:
    """Players left, entries, chips in play and money of each tournament, in one query."""
    counted = [EntryState.REGISTERED, EntryState.PLAYING, EntryState.OUT]
    totals = {
        row["tournament_id"]: row
        for row in Entry.objects.filter(
            tournament_id__in=[t.pk for t in tournaments], state__in=counted
        )
        .order_by()
        .values("tournament_id")
        .annotate(
            entries=Count("pk"),
            left=Count("pk", filter=Q(state__in=[EntryState.REGISTERED, EntryState.PLAYING])),
            rebuys=Sum("rebuys"),
            addons=Count("pk", filter=Q(addon=True)),
        )
    }
    fields = {}
    for tournament in tournaments:
        row = totals.get(tournament.pk, {})
        entries = row.get("entries") or 0
        left = row.get("left") or 0
        rebuys = row.get("rebuys") or 0
        addons = row.get("addons") or 0
        chips = (
            entries * tournament.event.starting_stack
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
        fields[tournament.pk] = {
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
    return fields


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


def clock_payloads(
    tournament_ids: Iterable[int],
    now: datetime | None = None,
    rows_by_structure: dict[int, tuple[ClockRow, ...]] | None = None,
) -> dict[int, dict[str, Any]]:
    """Everything the TV clock, its sockets and the overlay JSON show, for each tournament
    that exists, in three queries whatever their number (``rows_by_structure``: rows the
    caller has just read). Public: no player's name, only counts and money."""
    now = now or timezone.now()
    tournaments = list(Tournament.objects.select_related("event").filter(pk__in=tournament_ids))
    rows_by_structure = dict(rows_by_structure or {})
    missing = {t.blind_structure_id for t in tournaments} - set(rows_by_structure)
    if missing:
        rows_by_structure.update(clock_rows_many(missing))
    fields = _fields(tournaments)
    payloads = {}
    for tournament in tournaments:
        state = clock_state(
            tournament, rows_by_structure.get(tournament.blind_structure_id, ()), now
        )
        event = tournament.event
        payloads[tournament.pk] = {
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
            "field": fields[tournament.pk],
        }
    return payloads


def clock_payload(tournament_id: int, now: datetime | None = None) -> dict[str, Any] | None:
    """``clock_payloads`` of one tournament; None if there is no such tournament."""
    return clock_payloads([tournament_id], now).get(tournament_id)


def _publish(
    tournament_ids: list[int], rows_by_structure: dict[int, tuple[ClockRow, ...]] | None = None
) -> None:
    try:
        payloads = clock_payloads(tournament_ids, rows_by_structure=rows_by_structure)
    except Exception:
        logger.exception("reading the clocks of %s to broadcast failed", tournament_ids)
        return
    for tournament_id, payload in payloads.items():
        broadcast.clock_changed(tournament_id, payload)


def clock_publish_now(tournament_id: int) -> None:
    """Send the tournament's current state to its clock screens (call after commit)."""
    _publish([tournament_id])


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
