"""The blind clock's workflows: start, pause, resume, adjust, next, previous, break, advance;
the director's quick changes to the night's levels; hand-for-hand in the room.

The clock is three stored values on the tournament row (``level_index``, ``level_ends_at``,
``paused_remaining``; with ``resume_index`` and ``resume_remaining`` when a break now kept
the rest of a level for after it), read through ``tournaments.clock``, which projects a running clock
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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, Exists, F, IntegerField, OuterRef, Q, Subquery, Sum
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from core.permissions import is_director
from tournaments import blind_structures as pure
from tournaments import broadcast, payouts, selectors
from tournaments.clock import (
    MOST_CHIPS,
    ClockRow,
    ClockState,
    Position,
    clock_state,
    position,
    row_at,
    rows_from,
    tonight,
)
from tournaments.clock import ahead as clock_rows_ahead
from tournaments.errors import TournamentError
from tournaments.models import (
    ActionKind,
    BlindLevel,
    BlindStructure,
    DealOffer,
    DealState,
    Entry,
    EntryState,
    LevelKind,
    Tournament,
    TournamentAction,
    TournamentState,
)
from tournaments.services import chips as chip_counts
from tournaments.services import results, tv, undo
from tournaments.signals import clock_stored
from tournaments.summaries import Message, joined, message

logger = logging.getLogger(__name__)

# States in which the clock runs by itself; the clock sets which of the two from its row.
CLOCK_STATES = (TournamentState.RUNNING, TournamentState.ON_BREAK)
# One adjustment adds or removes at most this much (a mistyped "+600 min" is refused).
ADJUST_MAX_SECONDS = 60 * 60
# What hand-for-hand in the room keeps on the tournament row, saved and restored with the
# clock (every clock action's Undo puts them back as they were).
HAND_FOR_HAND_FIELDS = (
    "hand_for_hand",
    "hand_for_hand_hand",
    "hand_for_hand_done",
    "hand_for_hand_out_hand",
)


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
        BlindLevel.objects.filter(blind_structure_id=structure_id)
        .order_by("position", "pk")
        .values(*ROW_FIELDS)
    )
    return rows_from(SimpleNamespace(**level) for level in levels)


def clock_read(tournament: Tournament, now: datetime | None = None) -> ClockState:
    """What the tournament's clock shows at ``now`` (for pages that already hold the row)."""
    return clock_state(tournament, clock_rows(tournament.blind_structure_id), now or timezone.now())


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


def _after_row(row: ClockRow) -> Message:
    """ "after level 3", whole, so a language can put its article in ("après le niveau 3")."""
    if row.is_break:
        return message(
            gettext_noop("after the break after level %(number)s"), number=row.levels_before
        )
    return message(gettext_noop("after level %(number)s"), number=row.number)


def _record(
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


def _length(tournament: Tournament, rows: Sequence[ClockRow], row: ClockRow) -> timedelta:
    """How long ``row`` lasts tonight: its minutes, or the rest a break now kept of it."""
    played = tonight(tournament, rows)
    return played[row.index].duration if row.index < len(played) else row.duration


def _set_row(
    tournament: Tournament, rows: Sequence[ClockRow], row: ClockRow, now: datetime, *, paused: bool
) -> None:
    """Put the clock on ``row`` with its full time (a level resumed after a break: the rest
    kept of it), running from ``now`` or paused."""
    length = _length(tournament, rows, row)
    tournament.level_index = row.index
    if paused:
        tournament.level_ends_at = None
        tournament.paused_remaining = length
    else:
        tournament.level_ends_at = now + length
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
        tournament.resume_index = tournament.resume_remaining = None
        _set_row(tournament, rows, rows[0], now, paused=False)
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
            _set_row(tournament, rows, following, now, paused=paused)
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


def _jump(tournament_id: int, by: Any, now: datetime | None, op: str, pick: Any) -> Tournament:
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
        _set_row(tournament, rows, row, now, paused=at.paused)
        _save(tournament, rows)
        summaries = {
            "next": gettext_noop("Next level: %(row)s"),
            "previous": gettext_noop("Back to %(row)s"),
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


# ---------------------------------------------------------------------------- the night's levels
#
# From the console a director changes the levels of a tournament in play: a break now, a
# level added or removed, the length of the levels to come, a break added. The structure is
# shared (a built-in template, the director's usual one, next week's event), so the first
# change gives the tournament its own copy of the rows (``Tournament.own_structure``) and
# every change edits that copy. Each change is logged with the rows and the clock as they
# were, so Undo puts both back (the first one's Undo goes back to the shared structure and
# drops the copy).
#
# A change starts from the row in play as every screen shows it (``position``), stores it,
# and bumps ``clock_version`` (``_save``): a level-change task scheduled before the change
# then stops at its version check, and the conditional UPDATE of any sweep that read the
# clock before the change matches no row; the sweep after it plays the rows as they are now.

# The most rows a tournament's own levels may hold (its structure's, and the extra levels
# played past its end, which a change writes down so it can add after them).
LEVELS_ROWS_MAX = 200
# The tournament's rules counted in levels, and how the log says one moved.
LEVEL_LIMITS = ("rebuy_until_level", "reentry_until_level", "late_registration_until_level")
LEVEL_LIMIT_MOVED = {
    "rebuy_until_level": gettext_noop("rebuys now end with level %(level)s"),
    "reentry_until_level": gettext_noop("re-entries now end with level %(level)s"),
    "late_registration_until_level": gettext_noop(
        "late registration now ends with level %(level)s"
    ),
}
# How long an inserted break lasts when the structure has no break to copy the length of.
BREAK_MINUTES = 10
NAME_MAX = BlindStructure._meta.get_field("name").max_length or 100


@dataclass
class _Levels:
    """The rows a change edits, in clock order, and where the add-on break is among them:
    ``Tournament.addon_at_break`` is that row's position, which moves with the rows inserted
    or removed before it."""

    rows: list[pure.Row]
    addon: int | None
    changed: bool = False
    # The row of a level resumed after a break now (``Tournament.resume_index``), which
    # moves with the rows inserted or removed before it too.
    resume: int | None = None
    # The rules counted in levels ("rebuys until level 3"), by field: they stay on the blind
    # level they were set on, so a level added or removed before it renumbers them.
    limits: dict[str, int] = field(default_factory=dict)

    def _number(self, index: int) -> int:
        """The level number a level at ``index`` has (or would have, inserted there)."""
        return 1 + sum(1 for row in self.rows[:index] if not row.is_break)

    def insert(self, index: int, row: pure.Row) -> None:
        if not row.is_break:
            number = self._number(index)
            for name, until in self.limits.items():
                if until >= number:
                    self.limits[name] = until + 1
        self.rows.insert(index, row)
        if self.addon is not None and index <= self.addon:
            self.addon += 1
        if self.resume is not None and index <= self.resume:
            self.resume += 1
        self.changed = True

    def remove(self, index: int) -> pure.Row:
        if index == self.addon:
            raise TournamentError(_("The add-on is taken at this break: it stays."))
        if not self.rows[index].is_break:
            # Removing the limit's own level ends the rule with the level before it.
            number = self._number(index)
            for name, until in self.limits.items():
                if until >= number and until > 1:
                    self.limits[name] = until - 1
        if self.addon is not None and index < self.addon:
            self.addon -= 1
        if self.resume is not None and index <= self.resume:
            # The resumed level removed: nothing left to resume.
            self.resume = None if index == self.resume else self.resume - 1
        self.changed = True
        return self.rows.pop(index)

    def set(self, index: int, row: pure.Row) -> None:
        self.rows[index] = row
        self.changed = True


def _pure_row(values: dict[str, Any]) -> pure.Row:
    return pure.Row(
        kind=values["kind"],
        minutes=values["minutes"],
        small_blind=values["small_blind"],
        big_blind=values["big_blind"],
        ante_kind=values["ante_kind"] or "none",
        ante=values["ante"],
        small_bet=values["small_bet"],
        big_bet=values["big_bet"],
        colour_up=tuple(int(chip) for chip in values["colour_up"] or ()),
    )


def _extra_row(row: ClockRow) -> pure.Row:
    # An extra level past the structure's end (``row_at``), written down as a row.
    return pure.Row.level(
        row.small_blind,
        row.big_blind,
        row.minutes,
        ante=row.ante,
        ante_kind=row.ante_kind,
        small_bet=row.small_bet,
        big_bet=row.big_bet,
    )


def _row_values(row: pure.Row, position: int) -> dict[str, Any]:
    return {
        "position": position,
        "kind": str(row.kind),
        "minutes": row.minutes,
        "small_blind": row.small_blind,
        "big_blind": row.big_blind,
        "ante": row.ante,
        "ante_kind": str(row.ante_kind),
        "small_bet": row.small_bet,
        "big_bet": row.big_bet,
        "colour_up": list(row.colour_up),
    }


def _stored_rows(structure_id: int) -> list[dict[str, Any]]:
    return list(
        BlindLevel.objects.filter(blind_structure_id=structure_id)
        .order_by("position", "pk")
        .values("position", *ROW_FIELDS)
    )


def _levels_read(
    tournament: Tournament, rows: Sequence[ClockRow], index: int
) -> tuple[_Levels, dict[str, Any]]:
    """The tournament's rows to edit, with the extra levels up to ``index`` (the row in
    play) written down, and what Undo needs to put the rows back as they are."""
    stored = _stored_rows(tournament.blind_structure_id)
    saved = {
        "structure": tournament.blind_structure_id,
        "own": tournament.own_structure,
        "addon_at_break": tournament.addon_at_break,
        "rows": stored,
        "limits": {name: getattr(tournament, name) for name in LEVEL_LIMITS},
    }
    addon = next(
        (
            i
            for i, values in enumerate(stored)
            if values["kind"] == LevelKind.BREAK and values["position"] == tournament.addon_at_break
        ),
        None,
    )
    levels = _Levels(
        [_pure_row(values) for values in stored],
        addon,
        limits={
            name: getattr(tournament, name)
            for name in LEVEL_LIMITS
            if getattr(tournament, name) is not None
        },
        resume=tournament.resume_index if tournament.resume_remaining is not None else None,
    )
    if index >= LEVELS_ROWS_MAX:
        raise TournamentError(
            _("The clock has run too far past the end of the levels to change them.")
        )
    for extra in range(len(levels.rows), index + 1):
        row = row_at(rows, extra)
        if row is None:
            break
        levels.rows.append(_extra_row(row))
    return levels, saved


def _write_rows(structure_id: int, rows: Sequence[dict[str, Any]]) -> None:
    """Store ``rows`` (``_row_values``) as the structure's rows, at their positions."""
    BlindLevel.objects.filter(blind_structure_id=structure_id).delete()
    BlindLevel.objects.bulk_create(
        BlindLevel(blind_structure_id=structure_id, **values) for values in rows
    )


def _user(by: Any) -> Any:
    return by if by is not None and getattr(by, "is_authenticated", False) else None


def _own_structure(tournament: Tournament, by: Any) -> int:
    """The id of the tournament's own copy of its levels, made now if it has none (or if
    its copy has since been chosen by another event too)."""
    structure = BlindStructure.objects.select_for_update().get(pk=tournament.blind_structure_id)
    shared = (
        structure.is_template
        or Tournament.objects.filter(blind_structure_id=structure.pk)
        .exclude(pk=tournament.pk)
        .exists()
    )
    if tournament.own_structure and not shared:
        return structure.pk
    name = _("%(structure)s (%(event)s)") % {
        "structure": structure.name,
        "event": tournament.event.name,
    }
    copy = BlindStructure.objects.create(
        name=name[:NAME_MAX],
        description=structure.description,
        for_limit=structure.for_limit,
        chip_set=list(structure.chip_set or []),
        created_by=_user(by) or structure.created_by,
    )
    tournament.blind_structure = copy
    tournament.own_structure = True
    return copy.pk


def _levels_store(tournament: Tournament, levels: _Levels, by: Any) -> None:
    structure_id = _own_structure(tournament, by)
    _write_rows(
        structure_id,
        [_row_values(row, position) for position, row in enumerate(levels.rows, start=1)],
    )
    if levels.addon is not None:
        tournament.addon_at_break = levels.addon + 1
    for name, until in levels.limits.items():
        setattr(tournament, name, until)
    tournament.save(
        update_fields=["blind_structure", "own_structure", "addon_at_break", *LEVEL_LIMITS]
    )


def _levels_restore(tournament: Tournament, saved: dict[str, Any]) -> None:
    """Put the tournament's rows back as ``_levels_read`` saved them (with the tournament
    row locked). Back on the structure it played before when that one is as it was (the
    copy made by the change is dropped); when it has changed or gone since (a director may
    edit a structure no started event uses any more), its rows go back into the copy."""
    rows = saved.get("rows")
    structure_id = saved.get("structure")
    if not isinstance(rows, list):
        raise TournamentError(_("This clock action kept nothing to undo it with."))
    current = tournament.blind_structure_id
    if structure_id != current and _stored_rows(structure_id) == rows:
        tournament.blind_structure_id = structure_id
        tournament.own_structure = bool(saved.get("own"))
    else:
        _write_rows(current, rows)
    tournament.addon_at_break = saved.get("addon_at_break")
    limits = saved.get("limits") or {}
    for name in LEVEL_LIMITS:
        if name in limits:
            setattr(tournament, name, limits[name])
    tournament.save(
        update_fields=["blind_structure", "own_structure", "addon_at_break", *LEVEL_LIMITS]
    )
    if tournament.blind_structure_id != current and not (
        Tournament.objects.filter(blind_structure_id=current).exists()
    ):
        BlindStructure.objects.filter(pk=current).delete()


def _check_minutes(minutes: Any) -> int:
    if isinstance(minutes, bool) or not isinstance(minutes, int):
        raise TournamentError(_("Say how many minutes."))
    if not 1 <= minutes <= pure.MAX_MINUTES:
        raise TournamentError(
            _("A level or a break lasts 1 to %(most)s minutes.") % {"most": pure.MAX_MINUTES}
        )
    return minutes


def _check_rows(tournament: Tournament, levels: _Levels, index: int) -> None:
    """The rules of a structure (``tournaments.blind_structures``) for the row a change wrote:
    the rows the director already had are played as they are."""
    structure = BlindStructure.objects.only("for_limit", "chip_set").get(
        pk=tournament.blind_structure_id
    )
    problems = [
        problem.message
        for problem in pure.row_problems(
            levels.rows, for_limit=structure.for_limit, chip_set=structure.chip_set or ()
        )
        if problem.index == index
    ]
    if problems:
        raise TournamentError(" ".join(problems))


def _bets(row: ClockRow) -> str:
    if row.small_bet is not None and row.big_bet is not None:
        return f"{row.small_bet}/{row.big_bet}"
    return f"{row.small_blind}/{row.big_blind}"


def _moved_on() -> TournamentError:
    return TournamentError(
        _("The clock has moved on since this form was shown: look at it again and retry.")
    )


LevelsChange = Callable[[Tournament, _Levels, Position, datetime], Message]


def _levels_change(
    tournament_id: int,
    by: Any,
    now: datetime | None,
    op: str,
    change: LevelsChange,
    *,
    expected_index: int | None = None,
    version: int | None = None,
) -> Tournament:
    """Apply ``change`` to the tournament's rows and clock, from the row in play now.

    ``expected_index`` and ``version`` are what the director's form showed (the row in
    play, the clock's version): a form shown before the clock moved on is refused rather
    than applied to rows the director did not see.
    """
    _director(by)
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament_id)
        _running(tournament)
        if version is not None and version != tournament.clock_version:
            raise _moved_on()
        rows = clock_rows(tournament.blind_structure_id)
        at = position(tournament, rows, now)
        if expected_index is not None and expected_index != at.index:
            raise _moved_on()
        before = _clock_fields(tournament)
        levels, saved = _levels_read(tournament, rows, at.index)
        # The row in play as the screens show it, stored: a level whose time is up is over
        # even if the task that stores the change is a moment late.
        tournament.level_index = at.index
        if not at.paused:
            tournament.level_ends_at = at.ends_at
        limits_before = dict(levels.limits)
        summary = change(tournament, levels, at, now)
        tournament.resume_index = levels.resume
        if levels.resume is None:
            tournament.resume_remaining = None
        moved = [
            message(LEVEL_LIMIT_MOVED[name], level=until)
            for name, until in levels.limits.items()
            if limits_before.get(name) != until
        ]
        if moved:
            # Said in the log line: which rule now ends with which level.
            summary = message(
                gettext_noop("%(summary)s; %(moved)s"), summary=summary, moved=joined(moved)
            )
        data: dict[str, Any] = {"op": op, "clock": before}
        if levels.changed:
            _levels_store(tournament, levels, by)
            data["levels"] = saved
            rows = rows_from(levels.rows)
        _save(tournament, rows)
        undo.action_record(tournament, ActionKind.CLOCK, summary, by=by, undo=data)
    return tournament


def _break_minutes(rows: Sequence[pure.Row], index: int) -> int:
    """How long a break inserted after row ``index`` lasts: as the structure's next break,
    else its last break before, else ``BREAK_MINUTES``."""
    for row in [*rows[index + 1 :], *reversed(rows[: index + 1])]:
        if row.is_break:
            return row.minutes
    return BREAK_MINUTES


def clock_break_now(
    tournament_id: int, *, by: Any, keep_rest: bool = False, now: datetime | None = None
) -> Tournament:
    """Start a break now, running; then the rest of the level in play (``keep_rest``), or
    the level after it.

    The Tournament Director's "break now". Keeping the rest: the break is inserted right
    before the level in play, which waits with the time it has left (paused or not) and
    resumes with exactly that when the break ends (``Tournament.resume_index`` and
    ``resume_remaining``, ``tournaments.clock.tonight``); nothing is renumbered, and the
    break counts as that level for the rules counted in levels. Skipping it (the default
    here; the console offers both): the rest of the level is not played (its time is lost,
    as when a break is called early), a break is inserted right after it, and the levels
    and breaks that follow come after it as they were: called in level 1, the break is
    followed by level 2, not level 3; when the next row already is a break, that break
    starts now, with its colour-up, and nothing is inserted.

    The break lasts as long as the structure's next break (else its last one, else
    ``BREAK_MINUTES``). Refused on a break and during hand-for-hand (the clock stays
    stopped then), and for a choice that is not True or False.
    """
    if not isinstance(keep_rest, bool):
        raise TournamentError(_("Choose to keep the rest of the level or skip it."))

    def change(tournament: Tournament, levels: _Levels, at: Position, now: datetime) -> Message:
        if levels.rows[at.index].is_break:
            raise TournamentError(_("The break is already on."))
        if tournament.hand_for_hand:
            raise TournamentError(_("No break during hand-for-hand: end hand-for-hand first."))
        minutes = _break_minutes(levels.rows, at.index)
        if keep_rest:
            return _break_before(tournament, levels, at, now, minutes)
        target = at.index + 1
        if target >= len(levels.rows) or not levels.rows[target].is_break:
            levels.insert(target, pure.Row.pause(minutes))
        pause = levels.rows[target]
        tournament.level_index = target
        tournament.level_ends_at = now + timedelta(minutes=pause.minutes)
        tournament.paused_remaining = None
        rows = rows_from(levels.rows)
        following = row_at(rows, target + 1) or rows[at.index]
        return message(
            gettext_noop("Break now: %(minutes)s min, then %(row)s"),
            minutes=pause.minutes,
            row=_row_label(following),
        )

    return _levels_change(tournament_id, by, now, "break", change)


def _break_before(
    tournament: Tournament, levels: _Levels, at: Position, now: datetime, minutes: int
) -> Message:
    """A break of ``minutes`` before the level in play, running from ``now``; the level
    resumes after it with the time it has left."""
    left = at.remaining
    if left < timedelta(seconds=1):
        raise TournamentError(_("This level has no time left to keep: skip the rest."))
    levels.insert(at.index, pure.Row.pause(minutes))
    levels.resume = at.index + 1
    tournament.resume_remaining = left
    tournament.level_index = at.index
    tournament.level_ends_at = now + timedelta(minutes=minutes)
    tournament.paused_remaining = None
    level = rows_from(levels.rows)[at.index + 1]
    return message(
        gettext_noop("Break now: %(minutes)s min, then the rest of %(row)s (%(left)s)"),
        minutes=minutes,
        row=_row_label(level),
        left=_mmss(left),
    )


def _chips(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MOST_CHIPS:
        raise TournamentError(
            _("Blinds, ante and bets are whole numbers of chips, at most %(most)s.")
            % {"most": MOST_CHIPS}
        )
    return value


def clock_level_add(
    tournament_id: int,
    *,
    by: Any,
    small_blind: int,
    big_blind: int,
    ante: int = 0,
    ante_kind: str = "none",
    small_bet: int | None = None,
    big_bet: int | None = None,
    minutes: int | None = None,
    expected_index: int | None = None,
    version: int | None = None,
    now: datetime | None = None,
) -> Tournament:
    """Add a level right after the row in play (on a break, right after the break).

    "These blinds once more" is the usual case: the console offers the blinds in play.
    Without ``minutes`` it lasts as long as the last level before it. The level numbers
    after it go up by one; the rules counted in levels ("late registration until level 4")
    stay on the blind level they were set on (renumbered with it, the log line says so). Refused, changing nothing, when the level breaks a
    rule of structures (``tournaments.blind_structures``: blinds the chips in play cannot make,
    an ante above the small blind ...).
    """
    amounts = [_chips(small_blind), _chips(big_blind), _chips(ante)]
    bets = [None if bet is None else _chips(bet) for bet in (small_bet, big_bet)]
    if minutes is not None:
        _check_minutes(minutes)
    try:
        kind = pure.Ante(ante_kind)
    except ValueError:
        raise TournamentError(_("Choose how the ante is paid.")) from None

    def change(tournament: Tournament, levels: _Levels, at: Position, now: datetime) -> Message:
        last_level = next(
            (row for row in reversed(levels.rows[: at.index + 1]) if not row.is_break), None
        )
        length = minutes or (last_level.minutes if last_level else 20)
        limit = BlindStructure.objects.filter(
            pk=tournament.blind_structure_id, for_limit=True
        ).exists()
        target = at.index + 1
        levels.insert(
            target,
            pure.Row.level(
                amounts[0],
                amounts[1],
                length,
                ante=amounts[2],
                ante_kind=kind,
                # Only a limit game's levels carry bets (``blind_structures._normalised``).
                small_bet=bets[0] if limit else None,
                big_bet=bets[1] if limit else None,
            ),
        )
        _check_rows(tournament, levels, target)
        rows = rows_from(levels.rows)
        return message(
            gettext_noop("Added level %(number)s (%(bets)s, %(minutes)s min) %(after)s"),
            number=rows[target].number,
            bets=_bets(rows[target]),
            minutes=length,
            after=_after_row(rows[at.index]),
        )

    return _levels_change(
        tournament_id, by, now, "level-add", change, expected_index=expected_index, version=version
    )


def _row_to_change(levels: _Levels, at: Position, index: Any) -> int:
    """``index`` as a row still to come, or why not."""
    if isinstance(index, bool) or not isinstance(index, int) or index >= len(levels.rows):
        raise TournamentError(_("There is no such row in the levels."))
    if index < at.index:
        raise TournamentError(_("That row has already been played."))
    return index


def clock_row_remove(
    tournament_id: int,
    index: int,
    *,
    by: Any,
    expected_index: int | None = None,
    version: int | None = None,
    now: datetime | None = None,
) -> Tournament:
    """Remove a row still to come (a level or a break): the rows after it move up.

    Not the row in play (Next level ends it), nor the add-on's break, nor the last level
    of all. The rules counted in levels stay on their blind level, as when a level is added
    (the removed level's own rule ends with the level before it).
    """

    def change(tournament: Tournament, levels: _Levels, at: Position, now: datetime) -> Message:
        if _row_to_change(levels, at, index) == at.index:
            raise TournamentError(_("That row is in play: Next level ends it."))
        row = rows_from(levels.rows)[index]
        levels.remove(index)
        if all(kept.is_break for kept in levels.rows):
            raise TournamentError(_("The levels need at least one level."))
        if row.is_break:
            return message(gettext_noop("Removed the %(row)s"), row=_row_label(row))
        return message(
            gettext_noop("Removed %(row)s (%(bets)s)"), row=_row_label(row), bets=_bets(row)
        )

    return _levels_change(
        tournament_id, by, now, "row-remove", change, expected_index=expected_index, version=version
    )


def clock_levels_minutes(
    tournament_id: int, minutes: int, *, by: Any, now: datetime | None = None
) -> Tournament:
    """Give every level after the row in play ``minutes``; breaks keep their length.

    The level in play keeps its end (add or take off time for it); past the structure's
    end, the extra levels to come last as long as its last level, which is set too.
    """
    _check_minutes(minutes)

    def change(tournament: Tournament, levels: _Levels, at: Position, now: datetime) -> Message:
        later = [i for i in range(at.index + 1, len(levels.rows)) if not levels.rows[i].is_break]
        if not later:
            last = [i for i in range(len(levels.rows)) if not levels.rows[i].is_break][-1:]
            later = last
        for i in later:
            if levels.rows[i].minutes != minutes:
                levels.set(i, replace(levels.rows[i], minutes=minutes))
        if not levels.changed:
            raise TournamentError(
                _("The levels to come already last %(minutes)s min.") % {"minutes": minutes}
            )
        return message(
            gettext_noop("Levels %(after)s now last %(minutes)s min"),
            after=_after_row(rows_from(levels.rows)[at.index]),
            minutes=minutes,
        )

    return _levels_change(tournament_id, by, now, "levels-minutes", change)


def clock_break_add(
    tournament_id: int,
    minutes: int,
    *,
    after: int,
    by: Any,
    expected_index: int | None = None,
    version: int | None = None,
    now: datetime | None = None,
) -> Tournament:
    """Add a break of ``minutes`` after the level at row ``after`` (the level in play or
    one to come): it starts when that level ends, and the levels after it follow."""
    _check_minutes(minutes)

    def change(tournament: Tournament, levels: _Levels, at: Position, now: datetime) -> Message:
        index = _row_to_change(levels, at, after)
        rows = rows_from(levels.rows)
        if rows[index].is_break:
            raise TournamentError(_("A break cannot follow a break: choose a level."))
        if index + 1 < len(rows) and rows[index + 1].is_break:
            raise TournamentError(
                _("A break already follows %(row)s.") % {"row": _row_label(rows[index])}
            )
        levels.insert(index + 1, pure.Row.pause(minutes))
        return message(
            gettext_noop("Added a %(minutes)s min break %(after)s"),
            minutes=minutes,
            after=_after_row(rows[index]),
        )

    return _levels_change(
        tournament_id, by, now, "break-add", change, expected_index=expected_index, version=version
    )


# ---------------------------------------------------------------------------- hand-for-hand
#
# In the room (TDA RP-8, docs/rules.md "Hand-for-hand"): at the bubble the director turns it on
# and the clock stops. Every table plays one hand and says so ("hand done": its dealer from
# the table's own page, or the director from the console); when every table in play has,
# the next hand is dealt everywhere at once and the clock loses the tournament's
# ``hand_for_hand_minutes`` for the hand just played. The clock never runs during
# hand-for-hand (a resume is refused), so how long a table takes over its hand changes
# nothing: each hand costs the same fixed time, as TDA RP-8 has it. Hand 0 is the hands
# already in play when it was announced: they are finished, and cost no time. When the
# time runs out the next level starts, still stopped (its blinds apply from the next hand).
# Turning it off ends it, and so does the bubble bursting: the elimination that leaves no
# more players than places paid keeps it on until that hand is done at every table (TDA
# RP-8: hand-for-hand lasts until the hand the bubble burst on is complete everywhere, so a
# player out on it at another table, recorded after, still ties); the clock then runs again.
# Online tables go hand-for-hand by themselves (``tournaments.services.online``).


@dataclass(frozen=True)
class HandForHand:
    """Hand-for-hand as the screens show it: on or not, the hand being played (0: the
    hands in play when it was announced), the tables in play and those done with it, and
    whether the bubble burst on this hand (it ends when every table is done with it)."""

    on: bool
    hand: int
    tables: tuple[int, ...] = ()
    done: tuple[int, ...] = ()
    burst: bool = False

    @property
    def playing(self) -> tuple[int, ...]:
        return tuple(number for number in self.tables if number not in self.done)

    def as_dict(self) -> dict[str, Any]:
        return {
            "on": self.on,
            "hand": self.hand,
            "tables": list(self.tables),
            "playing": list(self.playing),
            "done": list(self.done),
            "burst": self.burst,
        }


def _tables_in_play(tournament_ids: Iterable[int]) -> dict[int, tuple[int, ...]]:
    """The numbers of the tables with players in play, by tournament (one query)."""
    found: dict[int, set[int]] = {}
    rows = (
        Entry.objects.filter(
            tournament_id__in=list(tournament_ids),
            state=EntryState.PLAYING,
            table_number__isnull=False,
        )
        .order_by()
        .values_list("tournament_id", "table_number")
        .distinct()
    )
    for tournament_id, number in rows:
        found.setdefault(tournament_id, set()).add(number)
    return {tournament_id: tuple(sorted(numbers)) for tournament_id, numbers in found.items()}


def _hand_for_hand_of(tournament: Tournament, tables: tuple[int, ...]) -> HandForHand:
    if not tournament.hand_for_hand or tournament.online:
        return HandForHand(tournament.hand_for_hand, tournament.hand_for_hand_hand)
    done = tuple(n for n in tables if n in set(tournament.hand_for_hand_done or ()))
    # Read, not stored: hand-for-hand cannot start in the money and ends with the hand the
    # bubble burst on, so while it is on, players left within the places paid means this
    # hand burst it (and an undone elimination takes the burst back with it).
    burst = _in_the_money(tournament)
    return HandForHand(True, tournament.hand_for_hand_hand, tables, done, burst)


def clock_hand_for_hand_many(tournaments: Sequence[Tournament]) -> dict[int, HandForHand]:
    """Hand-for-hand of each tournament; one query, and the bubble's few per tournament,
    when any is hand-for-hand in the room."""
    wanted = [t.pk for t in tournaments if t.hand_for_hand and not t.online]
    tables = _tables_in_play(wanted) if wanted else {}
    return {t.pk: _hand_for_hand_of(t, tables.get(t.pk, ())) for t in tournaments}


def clock_hand_for_hand_read(tournament: Tournament) -> HandForHand:
    """Hand-for-hand of one tournament (the console's and the dealers' pages)."""
    return clock_hand_for_hand_many([tournament])[tournament.pk]


def clock_dealer_key(tournament: Tournament, table: int) -> str:
    """The key in a table's dealer link (its "hand done" page, opened without a login on
    the dealer's phone): derived from the site's secret, the tournament and its TV link key,
    and the table's number, so the link opens that table's page only, and the TV link
    (which players hold) gives no way to it."""
    value = f"{tournament.pk}:{table}:{tournament.tv_token}"
    return salted_hmac("tournaments.clock.dealer", value, algorithm="sha256").hexdigest()[:32]


def _in_the_money(tournament: Tournament) -> bool:
    paid = results.paid_places(tournament)
    return bool(paid) and selectors.places_taken(tournament) <= paid


def _save_hand_for_hand(tournament: Tournament) -> None:
    tournament.save(update_fields=list(HAND_FOR_HAND_FIELDS))


def _hand_for_hand_time(tournament: Tournament, rows: Sequence[ClockRow]) -> None:
    """The hand in play is over: the stopped clock loses its minutes (none for hand 0);
    when that is all the time left, the next row starts, stopped, with its full time."""
    minutes = tournament.hand_for_hand_minutes
    if not tournament.hand_for_hand_hand or not minutes or tournament.paused_remaining is None:
        return
    left = tournament.paused_remaining - timedelta(minutes=minutes)
    following = row_at(rows, tournament.level_index + 1)
    if left > timedelta(0) or following is None:
        tournament.paused_remaining = max(left, timedelta(0))
        return
    tournament.level_index = following.index
    tournament.paused_remaining = _length(tournament, rows, following)


def _hand_for_hand_end(tournament: Tournament, now: datetime) -> None:
    """Hand-for-hand off; the clock runs again from the time it has left."""
    tournament.hand_for_hand = False
    tournament.hand_for_hand_done = []
    tournament.hand_for_hand_out_hand = None
    _save_hand_for_hand(tournament)
    if tournament.paused_remaining is not None:
        tournament.level_ends_at = now + tournament.paused_remaining
        tournament.paused_remaining = None


def clock_hand_for_hand_start(
    tournament_id: int, *, by: Any, now: datetime | None = None
) -> Tournament:
    """Turn hand-for-hand on: the clock stops where it is (a clock already paused stays
    as it is), and hand 0 (the hands in play) is to be finished at every table.

    Refused online, before the clock starts, on a break (it starts with play), with one
    table left (every hand is then played hand-for-hand anyway) and when every player left
    is already in the money.
    """
    _director(by)
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.online:
            raise TournamentError(_("Online tables go hand-for-hand by themselves at the bubble."))
        _running(tournament)
        if tournament.hand_for_hand:
            raise TournamentError(_("Hand-for-hand is already on."))
        rows = clock_rows(tournament.blind_structure_id)
        at = position(tournament, rows, now)
        row = row_at(rows, at.index)
        if row is not None and row.is_break:
            raise TournamentError(_("Hand-for-hand starts with play, not on a break."))
        if len(_tables_in_play([tournament.pk]).get(tournament.pk, ())) < 2:
            raise TournamentError(
                _("With one table in play every hand is already played hand-for-hand.")
            )
        if _in_the_money(tournament):
            raise TournamentError(_("Every player left is in the money: the bubble has burst."))
        before = _clock_fields(tournament)
        tournament.level_index = at.index
        tournament.level_ends_at = None
        tournament.paused_remaining = at.remaining
        tournament.hand_for_hand = True
        tournament.hand_for_hand_hand = 0
        tournament.hand_for_hand_done = []
        tournament.hand_for_hand_out_hand = None
        _save_hand_for_hand(tournament)
        _save(tournament, rows)
        _record(
            tournament,
            "hand-for-hand",
            message(gettext_noop("Hand-for-hand started: the clock stops")),
            before,
            by,
        )
    return tournament


def _hand_over(
    tournament: Tournament,
    rows: Sequence[ClockRow],
    table: int | None,
    done: set[int],
    *,
    everywhere: bool,
    now: datetime,
) -> Message:
    """Count table ``table``'s hand done (None: every table's), ``done`` the tables done
    with it now, and say so for the log: the hand over at every table (``everywhere``)
    starts the next hand, or ends hand-for-hand when the bubble burst on it."""
    if everywhere and _in_the_money(tournament):
        # The hand the bubble burst on is over at every table: no more hand-for-hand.
        _hand_for_hand_time(tournament, rows)
        _hand_for_hand_end(tournament, now)
        if table is None:
            return message(
                gettext_noop(
                    "Hand-for-hand: every table is done, the bubble has burst: "
                    "hand-for-hand ended, the clock runs again"
                )
            )
        return message(
            gettext_noop(
                "Hand-for-hand: table %(table)s is done, the bubble has burst: "
                "hand-for-hand ended, the clock runs again"
            ),
            table=table,
        )
    if everywhere:
        _hand_for_hand_time(tournament, rows)
        tournament.hand_for_hand_hand += 1
        tournament.hand_for_hand_done = []
        tournament.hand_for_hand_out_hand = None
        if table is None:
            return message(
                gettext_noop("Hand-for-hand: every table is done, hand %(hand)s starts"),
                hand=tournament.hand_for_hand_hand,
            )
        return message(
            gettext_noop("Hand-for-hand: table %(table)s is done, hand %(hand)s starts"),
            table=table,
            hand=tournament.hand_for_hand_hand,
        )
    tournament.hand_for_hand_done = sorted(done)
    return message(gettext_noop("Hand-for-hand: table %(table)s is done"), table=table)


def clock_hand_done(
    tournament_id: int,
    table: int | None,
    *,
    hand: int,
    by: Any,
    now: datetime | None = None,
) -> Tournament:
    """Table ``table`` has finished hand-for-hand hand ``hand`` (None: the director says
    every table has). The last table in play to finish starts the next hand everywhere,
    and the clock loses its minutes for the hand just played; if the bubble burst on that
    hand (every player left is in the money), hand-for-hand ends there instead and the
    clock runs again (TDA RP-8).

    ``hand`` is the hand the page showed: a tap from a page shown before the hand changed
    (a dealer's second tap, a page left open) is refused rather than counted for the next
    hand. ``by`` None: a dealer's page, which needs no login.
    """
    _director(by)
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if not tournament.hand_for_hand or tournament.online:
            raise TournamentError(_("Hand-for-hand is not on."))
        if hand != tournament.hand_for_hand_hand:
            raise TournamentError(
                _("That was for hand %(seen)s; hand-for-hand is now at hand %(hand)s.")
                % {"seen": hand, "hand": tournament.hand_for_hand_hand}
            )
        tables = _tables_in_play([tournament.pk]).get(tournament.pk, ())
        done = set(tournament.hand_for_hand_done or ()) & set(tables)
        if table is not None:
            if table not in tables:
                raise TournamentError(_("There is no table %(table)s in play.") % {"table": table})
            if table in done:
                raise TournamentError(
                    _("Table %(table)s has already said this hand is done.") % {"table": table}
                )
            done.add(table)
        before = _clock_fields(tournament)
        rows = clock_rows(tournament.blind_structure_id)
        everywhere = table is None or done >= set(tables)
        summary = _hand_over(tournament, rows, table, done, everywhere=everywhere, now=now)
        _save_hand_for_hand(tournament)
        # The clock's version moves with every tap, so each screen takes the new state.
        _save(tournament, rows)
        _record(
            tournament,
            "hand-done",
            summary,
            before,
            by,
            dealer=table if by is None and table is not None else None,
        )
    return tournament


def clock_hand_for_hand_stop(
    tournament_id: int, *, by: Any, now: datetime | None = None
) -> Tournament:
    """Turn hand-for-hand off: the clock runs again from the time it has left."""
    _director(by)
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if not tournament.hand_for_hand or tournament.online:
            raise TournamentError(_("Hand-for-hand is not on."))
        before = _clock_fields(tournament)
        _hand_for_hand_end(tournament, now)
        _save(tournament)
        _record(
            tournament,
            "hand-for-hand-off",
            message(gettext_noop("Hand-for-hand ended: the clock runs again")),
            before,
            by,
        )
    return tournament


def clock_hand_for_hand_burst(tournament_id: int, now: datetime | None = None) -> bool:
    """After an elimination: end hand-for-hand at once if the bubble burst (every player
    left is in the money) on hand 0, the hands in play when it was announced; whether it
    did. Those hands were not dealt hand-for-hand, so nobody out on them ties and there is
    nothing to wait for; they cost no time. On a hand dealt hand-for-hand it stays on until
    that hand is done at every table (``clock_hand_done`` ends it), so that a player out on
    it at another table ties (TDA RP-8); meanwhile the screens say the bubble burst
    (``HandForHand.burst``). Logged like the director's own actions (Undo brings
    hand-for-hand back, before the elimination can be undone)."""
    now = now or timezone.now()
    if not Tournament.objects.filter(pk=tournament_id, hand_for_hand=True, online=False).exists():
        return False  # the usual case, without taking the tournament's lock
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if (
            not tournament.hand_for_hand
            or tournament.online
            or tournament.state not in CLOCK_STATES
            or tournament.hand_for_hand_hand > 0
            or not _in_the_money(tournament)
        ):
            return False
        before = _clock_fields(tournament)
        rows = clock_rows(tournament.blind_structure_id)
        _hand_for_hand_end(tournament, now)
        _save(tournament, rows)
        _record(
            tournament,
            "bubble",
            message(gettext_noop("The bubble burst: hand-for-hand ended, the clock runs again")),
            before,
            None,
        )
    return True


@undo.register(ActionKind.CLOCK)
def _undo_clock(tournament: Tournament, action: TournamentAction) -> None:
    """Every clock action (pause, resume, adjust, next, previous, break, the changes to the
    levels, hand-for-hand) is undone the same way: the rows and the clock as they were just
    before, projected to now like any stored clock, so undoing "+1 min" an hour later takes
    one minute off the schedule and nothing else."""
    saved = action.undo.get("clock")
    if not isinstance(saved, dict):
        raise TournamentError(_("This clock action kept nothing to undo it with."))
    if tournament.state not in CLOCK_STATES:
        raise TournamentError(_("The clock only runs while the tournament is in play."))
    levels = action.undo.get("levels")
    if levels is not None:
        if not isinstance(levels, dict):
            raise TournamentError(_("This clock action kept nothing to undo it with."))
        _levels_restore(tournament, levels)
    clock_restore(tournament, saved)


@dataclass(frozen=True)
class _Due:
    """A running clock as read before its conditional UPDATE."""

    id: int
    index: int
    ends_at: datetime
    version: int
    structure_id: int
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
    # A structure with a level goes on past its last row (the extra levels double it); one
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
        BlindLevel.objects.filter(blind_structure_id__in=list(structure_ids))
        .order_by("blind_structure_id", "position", "pk")
        .values("blind_structure_id", *ROW_FIELDS)
    )
    for level in query:
        levels.setdefault(level.pop("blind_structure_id"), []).append(SimpleNamespace(**level))
    return {structure_id: rows_from(rows) for structure_id, rows in levels.items()}


def _fields(tournaments: list[Tournament]) -> dict[int, dict[str, Any]]:
    """Players left, entries, chips in play, the chip leader and money of each tournament,
    in two queries."""
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
    leaders = chip_counts.chip_leaders(t.pk for t in tournaments)
    fields = {}
    for tournament in tournaments:
        row = totals.get(tournament.pk, {})
        entries = row.get("entries") or 0
        left = row.get("left") or 0
        rebuys = row.get("rebuys") or 0
        addons = row.get("addons") or 0
        chips = chip_counts.chips_total(tournament, entries=entries, rebuys=rebuys, addons=addons)
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
            # From the director's newest chip counts (None until someone is counted).
            "chip_leader": leaders.get(tournament.pk),
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
    that exists, in a fixed number of queries whatever their number (``rows_by_structure``:
    rows the caller has just read). Public: counts and money, and no player's name but the
    chip leader's (once the director has counted chips) until a tournament is finished
    (then its places, ``services.tv``)."""
    now = now or timezone.now()
    tournaments = list(Tournament.objects.select_related("event").filter(pk__in=tournament_ids))
    rows_by_structure = dict(rows_by_structure or {})
    missing = {t.blind_structure_id for t in tournaments} - set(rows_by_structure)
    if missing:
        rows_by_structure.update(clock_rows_many(missing))
    states = {
        t.pk: clock_state(t, rows_by_structure.get(t.blind_structure_id, ()), now)
        for t in tournaments
    }
    fields = _fields(tournaments)
    tv_parts = tv.tv_parts(
        tournaments, rows_by_structure, {pk: state.index for pk, state in states.items()}
    )
    hand_for_hand = clock_hand_for_hand_many(tournaments)
    # A deal offered online holds the tables and stops the clock: its screens say so,
    # apart from a director's pause.
    deal_held = set(
        DealOffer.objects.filter(
            tournament_id__in=[t.pk for t in tournaments if t.online_paused],
            state__in=(DealState.HELD, DealState.OPEN),
        ).values_list("tournament_id", flat=True)
    )
    payloads = {}
    for tournament in tournaments:
        state = states[tournament.pk]
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
            "tv": tv_parts[tournament.pk],
            # Table numbers only: which tables are still playing the hand-for-hand hand.
            "hand_for_hand": hand_for_hand[tournament.pk].as_dict(),
            "deal_held": tournament.pk in deal_held,
        }
    return payloads


def clock_ahead(tournament_id: int, now: datetime | None = None) -> list[dict[str, Any]]:
    """The rows a tournament's running clock comes to after the one in play, each with its
    start (``tournaments.clock.ahead``) and the chips no longer used from it on
    (``leaving``, the TV's ``colour_up`` then). The TV page carries them, so a screen whose
    server is away, or the service worker's copy reloaded without a network, moves on to
    the level the clock is at now. Not in ``clock_payloads``: a socket sends that on every
    change, and the rows ahead change only with the clock."""
    now = now or timezone.now()
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return []
    structure_id = tournament.blind_structure_id
    rows = clock_rows_many([structure_id]).get(structure_id, ())
    colours = tv.tv_colour_ups({structure_id}, {structure_id: rows})[structure_id]
    return [
        {**row.as_dict(), "leaving": tv.tv_colour_up(colours, row.row.index)}
        for row in clock_rows_ahead(tournament, rows, now)
    ]


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
    if action.kind == ActionKind.ELIMINATE and not kwargs.get("undone"):
        # The bubble may have burst on it: on hand 0 hand-for-hand ends now (a separate
        # action in the log, undone before the elimination can be); on a hand dealt
        # hand-for-hand the last table's "hand done" ends it. A failure must not undo the
        # elimination already committed; the director can still end hand-for-hand from the
        # console.
        try:
            clock_hand_for_hand_burst(tournament_id)
        except Exception:
            logger.exception("ending hand-for-hand of tournament %s failed", tournament_id)


undo.tournament_changed.connect(_on_tournament_changed, dispatch_uid="tournaments.clock.tv")
