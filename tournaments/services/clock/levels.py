"""Tonight's levels: the director's quick changes to the levels of a tournament in play.

A break now (the rest of the level kept for after it, or skipped), a level added or
removed, the length of the levels to come, a break added. The rules counted in levels
("rebuys until level 3") stay on the blind level they were set on; Undo puts the rows back
with the clock (``levels_restore``, called by the clock's Undo in ``receivers``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.engine.config import AnteKind
from tournaments import blind_structures as pure
from tournaments.clock import MOST_CHIPS, ClockRow, Position, position, row_at, rows_from
from tournaments.errors import TournamentError
from tournaments.models import ActionKind, BlindLevel, BlindStructure, LevelKind, Tournament
from tournaments.services import undo
from tournaments.services.blind_structures import blind_level_values
from tournaments.services.clock.reads import ROW_FIELDS, clock_rows
from tournaments.services.clock.store import (
    clock_running_check,
    clock_saved,
    clock_store,
    director_check,
    mmss,
    row_label,
)
from tournaments.services.locks import tournament_locked
from tournaments.summaries import Message, joined, message

# From the console a director changes the levels of a tournament in play: a break now, a
# level added or removed, the length of the levels to come, a break added. The blind structure is
# shared (a built-in template, the director's usual one, next week's event), so the first
# change gives the tournament its own copy of the rows (``Tournament.own_blind_structure``) and
# every change edits that copy. Each change is logged with the rows and the clock as they
# were, so Undo puts both back (the first one's Undo goes back to the shared blind structure and
# drops the copy).
#
# A change starts from the row in play as every screen shows it (``position``), stores it,
# and bumps ``clock_version`` (``clock_store``): a level-change task scheduled before the change
# then stops at its version check, and the conditional UPDATE of any sweep that read the
# clock before the change matches no row; the sweep after it plays the rows as they are now.

# The most rows a tournament's own levels may hold (its blind structure's, and the extra levels
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


# How long an inserted break lasts when the blind structure has no break to copy the length of.
BREAK_MINUTES = 10


NAME_MAX = BlindStructure._meta.get_field("name").max_length or 100


def _after_row(row: ClockRow) -> Message:
    """ "after level 3", whole, so a language can put its article in ("après le niveau 3")."""
    if row.is_break:
        return message(
            gettext_noop("after the break after level %(number)s"), number=row.levels_before
        )
    return message(gettext_noop("after level %(number)s"), number=row.number)


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
    # An extra level past the blind structure's end (``row_at``), written down as a row.
    return pure.Row.level(
        row.small_blind,
        row.big_blind,
        row.minutes,
        ante=row.ante,
        ante_kind=row.ante_kind,
        small_bet=row.small_bet,
        big_bet=row.big_bet,
    )


def _stored_rows(blind_structure_id: int) -> list[dict[str, Any]]:
    return list(
        BlindLevel.objects.filter(blind_structure_id=blind_structure_id)
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
        "blind_structure": tournament.blind_structure_id,
        "own": tournament.own_blind_structure,
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


def _write_rows(blind_structure_id: int, rows: Sequence[dict[str, Any]]) -> None:
    """Store ``rows`` (``blind_level_values``) as the blind structure's rows, at their positions."""
    BlindLevel.objects.filter(blind_structure_id=blind_structure_id).delete()
    BlindLevel.objects.bulk_create(
        BlindLevel(blind_structure_id=blind_structure_id, **values) for values in rows
    )


def _user(by: Any) -> Any:
    return by if by is not None and getattr(by, "is_authenticated", False) else None


def _own_blind_structure(tournament: Tournament, by: Any) -> int:
    """The id of the tournament's own copy of its levels, made now if it has none (or if
    its copy has since been chosen by another event too)."""
    blind_structure = BlindStructure.objects.select_for_update().get(
        pk=tournament.blind_structure_id
    )
    shared = (
        blind_structure.is_template
        or Tournament.objects.filter(blind_structure_id=blind_structure.pk)
        .exclude(pk=tournament.pk)
        .exists()
    )
    if tournament.own_blind_structure and not shared:
        return blind_structure.pk
    name = _("%(structure)s (%(event)s)") % {
        "structure": blind_structure.name,
        "event": tournament.event.name,
    }
    copy = BlindStructure.objects.create(
        name=name[:NAME_MAX],
        description=blind_structure.description,
        for_limit=blind_structure.for_limit,
        chip_set=list(blind_structure.chip_set or []),
        created_by=_user(by) or blind_structure.created_by,
    )
    tournament.blind_structure = copy
    tournament.own_blind_structure = True
    return copy.pk


def _levels_store(tournament: Tournament, levels: _Levels, by: Any) -> None:
    blind_structure_id = _own_blind_structure(tournament, by)
    _write_rows(
        blind_structure_id,
        [blind_level_values(row, position) for position, row in enumerate(levels.rows, start=1)],
    )
    if levels.addon is not None:
        tournament.addon_at_break = levels.addon + 1
    for name, until in levels.limits.items():
        setattr(tournament, name, until)
    tournament.save(
        update_fields=["blind_structure", "own_blind_structure", "addon_at_break", *LEVEL_LIMITS]
    )


def levels_restore(tournament: Tournament, saved: dict[str, Any]) -> None:
    """Put the tournament's rows back as ``_levels_read`` saved them (with the tournament
    row locked). Back on the blind structure it played before when that one is as it was (the
    copy made by the change is dropped); when it has changed or gone since (a director may
    edit a blind structure no started event uses any more), its rows go back into the copy."""
    rows = saved.get("rows")
    # "structure" is the key the actions logged before it was spelt out still carry.
    blind_structure_id = saved.get("blind_structure", saved.get("structure"))
    if not isinstance(rows, list):
        raise TournamentError(_("This clock action kept nothing to undo it with."))
    current = tournament.blind_structure_id
    if blind_structure_id != current and _stored_rows(blind_structure_id) == rows:
        tournament.blind_structure_id = blind_structure_id
        tournament.own_blind_structure = bool(saved.get("own"))
    else:
        _write_rows(current, rows)
    tournament.addon_at_break = saved.get("addon_at_break")
    limits = saved.get("limits") or {}
    for name in LEVEL_LIMITS:
        if name in limits:
            setattr(tournament, name, limits[name])
    tournament.save(
        update_fields=["blind_structure", "own_blind_structure", "addon_at_break", *LEVEL_LIMITS]
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
    """The rules of a blind structure (``tournaments.blind_structures``) for the row a change wrote:
    the rows the director already had are played as they are."""
    blind_structure = BlindStructure.objects.only("for_limit", "chip_set").get(
        pk=tournament.blind_structure_id
    )
    problems = [
        problem.message
        for problem in pure.row_problems(
            levels.rows,
            for_limit=blind_structure.for_limit,
            chip_set=blind_structure.chip_set or (),
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
    director_check(by)
    now = now or timezone.now()
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        clock_running_check(tournament)
        if version is not None and version != tournament.clock_version:
            raise _moved_on()
        rows = clock_rows(tournament.blind_structure_id)
        at = position(tournament, rows, now)
        if expected_index is not None and expected_index != at.index:
            raise _moved_on()
        before = clock_saved(tournament)
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
        clock_store(tournament, rows)
        undo.action_record(tournament, ActionKind.CLOCK, summary, by=by, undo=data)
    return tournament


def _break_minutes(rows: Sequence[pure.Row], index: int) -> int:
    """How long a break inserted after row ``index`` lasts: as the blind structure's next break,
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

    The break lasts as long as the blind structure's next break (else its last one, else
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
            row=row_label(following),
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
        row=row_label(level),
        left=mmss(left),
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
    stay on the blind level they were set on (renumbered with it, the log line says so).
    Refused, changing nothing, when the level breaks a rule of blind structures
    (``tournaments.blind_structures``: blinds the chips in play cannot make, an ante above the
    small blind ...).
    """
    amounts = [_chips(small_blind), _chips(big_blind), _chips(ante)]
    bets = [None if bet is None else _chips(bet) for bet in (small_bet, big_bet)]
    if minutes is not None:
        _check_minutes(minutes)
    try:
        kind = AnteKind(ante_kind)
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
            return message(gettext_noop("Removed the %(row)s"), row=row_label(row))
        return message(
            gettext_noop("Removed %(row)s (%(bets)s)"), row=row_label(row), bets=_bets(row)
        )

    return _levels_change(
        tournament_id, by, now, "row-remove", change, expected_index=expected_index, version=version
    )


def clock_levels_minutes(
    tournament_id: int, minutes: int, *, by: Any, now: datetime | None = None
) -> Tournament:
    """Give every level after the row in play ``minutes``; breaks keep their length.

    The level in play keeps its end (add or take off time for it); past the blind structure's
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
                _("A break already follows %(row)s.") % {"row": row_label(rows[index])}
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
