"""Blind structures: create, copy, generate, the built-in templates, and the editor's edits.

Every edit loads the blind structure's rows, changes them in memory, checks them all with
`tournaments.blind_structures.check_rows`, and only then writes, in one transaction with the
blind structure row locked: bad input raises `BlindStructureError` and changes nothing, and two
directors editing at once take turns instead of interleaving positions.

Rows are numbered by ``position`` 1, 2, 3 ... in clock order (breaks included); the clock's
``Tournament.level_index`` counts the same rows from 0. A blind structure that a started (or
finished) tournament used is a record of that night: it is not edited, it is copied.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Count, F, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from series.models import Event
from series.selectors import event_next
from tables.engine.config import AnteKind, Structure
from tournaments import blind_structures as pure
from tournaments.blind_structures import BlindStructureError, Problem, Row
from tournaments.models import (
    BlindLevel,
    BlindStructure,
    EntryState,
    LevelKind,
    Tournament,
    TournamentState,
)

NAME_MAX = BlindStructure._meta.get_field("name").max_length or 100

# Kept rows move here before renumbering, out of the way of (blind_structure, position) UNIQUE.
_POSITION_PARKING = 1_000_000

ROW_FIELDS = (
    "minutes",
    "small_blind",
    "big_blind",
    "ante_kind",
    "ante",
    "small_bet",
    "big_bet",
    "colour_up",
)
"""What an edit may change in a row (its kind stays: remove it and add the other kind)."""


# ---------------------------------------------------------------------------------------------
# Rows in and out of the database


def row_from_level(level: BlindLevel) -> Row:
    return Row(
        kind=pure.RowKind(level.kind),
        minutes=level.minutes,
        small_blind=level.small_blind,
        big_blind=level.big_blind,
        ante_kind=AnteKind(level.ante_kind),
        ante=level.ante,
        small_bet=level.small_bet,
        big_bet=level.big_bet,
        colour_up=tuple(int(chip) for chip in level.colour_up or ()),
        id=level.pk,
    )


def blind_structure_rows(blind_structure: BlindStructure) -> list[Row]:
    """The blind structure's rows in clock order, as plain `Row` values."""
    return [row_from_level(level) for level in blind_structure.levels.order_by("position")]


def _row_from_input(value: Row | Mapping[str, Any]) -> Row:
    if isinstance(value, Row):
        return value
    known = {f.name for f in fields(Row)}
    unknown = set(value) - known
    if unknown:
        raise TypeError(f"unknown row fields: {sorted(unknown)}")
    return Row(**value)


def _normalised(rows: Iterable[Row], for_limit: bool) -> list[Row]:
    """What is stored: a break carries no amounts, a pot-/no-limit level no bets."""
    result = []
    for row in rows:
        if row.is_break:
            row = replace(
                row,
                small_blind=0,
                big_blind=0,
                ante=0,
                ante_kind=AnteKind.NONE,
                small_bet=None,
                big_bet=None,
            )
        elif not for_limit:
            row = replace(row, small_bet=None, big_bet=None)
        result.append(row)
    return result


def _checked(rows: Iterable[Row], blind_structure: BlindStructure) -> list[Row]:
    """The rows as they would be stored, or `BlindStructureError` naming every broken rule.

    The rows are checked as entered (a break with blinds is refused, not silently
    cleared); only the bets a pot-/no-limit game never uses are dropped.
    """
    rows = list(rows)
    pure.check_rows(rows, for_limit=blind_structure.for_limit, chip_set=blind_structure.chip_set)
    return _normalised(rows, blind_structure.for_limit)


def blind_level_values(row: Row, position: int) -> dict[str, Any]:
    """``row`` as the fields of a `BlindLevel` at ``position``: what every writer of rows
    stores (the editor's edits, the templates, tonight's levels on the clock)."""
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


def _write_rows(blind_structure: BlindStructure, rows: Sequence[Row]) -> None:
    """Store ``rows`` as the blind structure's rows 1..n, keeping each known row's id."""
    existing = {level.pk: level for level in blind_structure.levels.all()}
    kept = [row.id for row in rows if row.id in existing]
    blind_structure.levels.exclude(pk__in=kept).delete()
    blind_structure.levels.update(position=F("position") + _POSITION_PARKING)
    changed, created = [], []
    for position, row in enumerate(rows, start=1):
        values = blind_level_values(row, position)
        if row.id in existing:
            level = existing[row.id]
            for name, value in values.items():
                setattr(level, name, value)
            changed.append(level)
        else:
            created.append(BlindLevel(blind_structure=blind_structure, **values))
    if changed:
        BlindLevel.objects.bulk_update(changed, ["kind", *ROW_FIELDS, "position"])
    if created:
        BlindLevel.objects.bulk_create(created)


# ---------------------------------------------------------------------------------------------
# Who may change what


def _clean_name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise BlindStructureError([Problem(None, "name", _("Give the blind structure a name."))])
    if len(name) > NAME_MAX:
        raise BlindStructureError(
            [
                Problem(
                    None,
                    "name",
                    _("A name has at most %(count)d characters.") % {"count": NAME_MAX},
                )
            ]
        )
    return name


def blind_structure_lock_reason(blind_structure: BlindStructure) -> str | None:
    """Why the blind structure cannot be edited, or None when it can."""
    if blind_structure.is_template:
        return _("“%(name)s” is a built-in template: copy it to make your own.") % {
            "name": blind_structure.name
        }
    started = (
        blind_structure.tournaments.exclude(
            state__in=[TournamentState.REGISTERING, TournamentState.CANCELLED]
        )
        .select_related("event")
        .first()
    )
    if started is not None:
        return _(
            "“%(name)s” was used by %(event)s, which has started: it stays as that night "
            "played it. Copy it to change it."
        ) % {"name": blind_structure.name, "event": started.event.name}
    return None


def _editable(blind_structure_id: int) -> BlindStructure:
    """The blind structure, locked for this transaction, if it may be edited."""
    blind_structure = BlindStructure.objects.select_for_update().get(pk=blind_structure_id)
    reason = blind_structure_lock_reason(blind_structure)
    if reason:
        raise BlindStructureError(reason)
    return blind_structure


Change = Callable[[BlindStructure, list[Row]], list[Row]]


def _edit(blind_structure_id: int, change: Change) -> BlindStructure:
    """Apply ``change(blind_structure, rows) -> rows`` to the rows, whole or not at all."""
    with transaction.atomic():
        blind_structure = _editable(blind_structure_id)
        rows = change(blind_structure, blind_structure_rows(blind_structure))
        _write_rows(blind_structure, _checked(rows, blind_structure))
    return blind_structure


def _index_of(rows: Sequence[Row], level_id: int) -> int:
    for index, row in enumerate(rows):
        if row.id == level_id:
            return index
    raise BlindStructureError(_("That row is no longer in the blind structure; reload the page."))


# ---------------------------------------------------------------------------------------------
# Workflows


def blind_structure_create(
    *,
    by: Any,
    name: str,
    for_limit: bool = False,
    chip_set: Sequence[int] = (),
    description: str = "",
    rows: Sequence[Row | Mapping[str, Any]] = (),
    is_template: bool = False,
) -> BlindStructure:
    """A new blind structure (blank when ``rows`` is empty), checked whole before it is saved."""
    name = _clean_name(name)
    chips = sorted(set(chip_set))
    problems = pure.chip_set_problems(list(chip_set))
    if problems:
        raise BlindStructureError(problems)
    blind_structure = BlindStructure(
        name=name,
        description=description.strip(),
        for_limit=for_limit,
        chip_set=chips,
        is_template=is_template,
        created_by=by if by is not None and by.is_authenticated else None,
    )
    checked = _checked([_row_from_input(row) for row in rows], blind_structure)
    with transaction.atomic():
        blind_structure.save()
        _write_rows(blind_structure, [replace(row, id=None) for row in checked])
    return blind_structure


def blind_structure_update(
    blind_structure_id: int,
    *,
    name: str,
    description: str = "",
    chip_set: Sequence[int] = (),
    for_limit: bool | None = None,
) -> BlindStructure:
    """Rename, describe, change the chip set or switch between limit and pot-/no-limit.

    Switching to limit gives each level the usual bets (small bet = big blind, big bet =
    twice it); switching away drops them. The rows must stay valid with the new chip set
    (a chip the blinds still need cannot be taken out).
    """
    name = _clean_name(name)
    problems = pure.chip_set_problems(list(chip_set))
    if problems:
        raise BlindStructureError(problems)
    with transaction.atomic():
        blind_structure = _editable(blind_structure_id)
        rows = blind_structure_rows(blind_structure)
        if for_limit is not None and for_limit != blind_structure.for_limit:
            blind_structure.for_limit = for_limit
            if for_limit:
                rows = [
                    row
                    if row.is_break or (row.small_bet and row.big_bet)
                    else replace(row, small_bet=row.big_blind, big_bet=2 * row.big_blind)
                    for row in rows
                ]
        blind_structure.name = name
        blind_structure.description = description.strip()
        blind_structure.chip_set = sorted(set(chip_set))
        checked = _checked(rows, blind_structure)
        blind_structure.save(update_fields=["name", "description", "chip_set", "for_limit"])
        _write_rows(blind_structure, checked)
    return blind_structure


def blind_structure_copy(
    blind_structure_id: int, *, by: Any, name: str | None = None
) -> BlindStructure:
    """A copy of any blind structure (a template, the one used last time) that ``by`` may edit."""
    source = BlindStructure.objects.get(pk=blind_structure_id)
    if not name:
        name = (_("Copy of %(name)s") % {"name": source.name})[:NAME_MAX]
    return blind_structure_create(
        by=by,
        name=name,
        for_limit=source.for_limit,
        chip_set=source.chip_set,
        # A template's description in the language of the director copying it: the copy
        # is theirs to edit, in their words.
        description=source.description_text,
        rows=blind_structure_rows(source),
    )


def blind_structure_last_used(by: Any) -> BlindStructure | None:
    """The blind structure of the director's most recent tournament ("the one we used last
    time"): the latest that has already begun, else the latest they set up; when they
    have none, the series' most recent tournament. Cancelled tournaments do not count."""
    now = timezone.now()
    everyone = Tournament.objects.exclude(state=TournamentState.CANCELLED).select_related(
        "blind_structure"
    )
    mine = everyone.filter(created_by=by) if by is not None and by.is_authenticated else None
    for tournaments in (mine, everyone):
        if tournaments is None:
            continue
        found = (
            tournaments.filter(event__starts_at__lte=now)
            .order_by("-event__starts_at", "-pk")
            .first()
        ) or tournaments.order_by("-created_at", "-pk").first()
        if found is not None:
            return found.blind_structure
    return None


def blind_structure_generate(
    *,
    by: Any,
    name: str,
    starting_stack: int,
    players: int,
    hours: float,
    chip_set: Sequence[int],
    level_minutes: int = 20,
    break_every: int = 4,
    break_minutes: int = 10,
    ante_kind: AnteKind | str = AnteKind.NONE,
    for_limit: bool = False,
) -> BlindStructure:
    """A new blind structure proposed by `tournaments.blind_structures.generate` (its
    docstring has the algorithm), saved for the director to edit."""
    name = _clean_name(name)
    proposal = pure.generate(
        starting_stack=starting_stack,
        players=players,
        hours=hours,
        chip_set=chip_set,
        level_minutes=level_minutes,
        break_every=break_every,
        break_minutes=break_minutes,
        ante_kind=ante_kind,
        for_limit=for_limit,
    )
    if proposal.expected_minutes is not None:
        expected = _("expected to end after about %(length)s") % {
            "length": duration_text(proposal.expected_minutes)
        }
    else:
        expected = _("the levels run out before the expected finish")
    description = _(
        "Proposed for %(players)d players with %(stack)d chips each and %(target)s of play "
        "(%(expected)s)."
    ) % {
        "players": players,
        "stack": starting_stack,
        "target": duration_text(proposal.target_minutes),
        "expected": expected,
    }
    return blind_structure_create(
        by=by,
        name=name,
        for_limit=for_limit,
        chip_set=chip_set,
        description=description,
        rows=proposal.rows,
    )


def blind_structure_level_add(
    blind_structure_id: int,
    *,
    kind: pure.RowKind | str = pure.RowKind.LEVEL,
    after: int | None = None,
    values: Mapping[str, Any] | None = None,
) -> BlindLevel:
    """Add a level or a break after the row ``after`` (a row id; None: at the end).

    Without ``values`` a level is proposed from the rows before it (`next_level`: the last
    big blind grown about 1.5x, rounded to the chips in play) and a break lasts 10 minutes.
    """
    kind = pure.RowKind(kind)
    before: set[int] = set()

    def change(blind_structure: BlindStructure, rows: list[Row]) -> list[Row]:
        before.update(row.id for row in rows if row.id is not None)
        at = len(rows) if after is None else _index_of(rows, after) + 1
        if values is not None:
            row = _row_from_input({**values, "kind": kind})
        elif kind == pure.RowKind.BREAK:
            row = Row.pause(10)
        else:
            row = pure.next_level(
                rows[:at], for_limit=blind_structure.for_limit, chip_set=blind_structure.chip_set
            )
        return [*rows[:at], replace(row, id=None), *rows[at:]]

    blind_structure = _edit(blind_structure_id, change)
    return blind_structure.levels.exclude(pk__in=before).get()


def blind_structure_level_remove(blind_structure_id: int, level_id: int) -> None:
    """Remove one row; the rows after it move up and the level numbers follow."""

    def change(_blind_structure: BlindStructure, rows: list[Row]) -> list[Row]:
        index = _index_of(rows, level_id)
        return [*rows[:index], *rows[index + 1 :]]

    _edit(blind_structure_id, change)


def blind_structure_level_move(blind_structure_id: int, level_id: int, *, offset: int) -> None:
    """Move one row ``offset`` places (-1: up one, 1: down one)."""

    def change(_blind_structure: BlindStructure, rows: list[Row]) -> list[Row]:
        index = _index_of(rows, level_id)
        target = index + offset
        if not 0 <= target < len(rows):
            label = pure.row_label(rows, index)
            message = (
                _("%(row)s is already the first row.")
                if offset < 0
                else _("%(row)s is already the last row.")
            )
            raise BlindStructureError([Problem(index, None, message % {"row": label})])
        moved = list(rows)
        moved.insert(target, moved.pop(index))
        return moved

    _edit(blind_structure_id, change)


def blind_structure_level_update(
    blind_structure_id: int, level_id: int, **changes: Any
) -> BlindLevel:
    """Change fields of one row (``ROW_FIELDS``); the whole blind structure must stay valid."""
    unknown = set(changes) - set(ROW_FIELDS)
    if unknown:
        raise TypeError(f"rows cannot change {sorted(unknown)}")
    if "colour_up" in changes:
        changes["colour_up"] = tuple(changes["colour_up"] or ())

    def change(_blind_structure: BlindStructure, rows: list[Row]) -> list[Row]:
        index = _index_of(rows, level_id)
        updated = list(rows)
        updated[index] = replace(rows[index], **changes)
        return updated

    blind_structure = _edit(blind_structure_id, change)
    return blind_structure.levels.get(pk=level_id)


def blind_structure_save_rows(
    blind_structure_id: int, rows: Sequence[Row | Mapping[str, Any]]
) -> BlindStructure:
    """Replace every row at once (rows that carry a known ``id`` keep it)."""
    new_rows = [_row_from_input(row) for row in rows]
    return _edit(blind_structure_id, lambda _blind_structure, _old: new_rows)


def blind_structure_delete(blind_structure_id: int) -> None:
    """Delete a blind structure no tournament uses (templates stay)."""
    with transaction.atomic():
        blind_structure = BlindStructure.objects.select_for_update().get(pk=blind_structure_id)
        if blind_structure.is_template:
            raise BlindStructureError(
                _("“%(name)s” is a built-in template; it stays.") % {"name": blind_structure.name}
            )
        if blind_structure.tournaments.exists():
            raise BlindStructureError(
                _("“%(name)s” is used by a tournament; it cannot be deleted.")
                % {"name": blind_structure.name}
            )
        blind_structure.delete()


def blind_structure_templates_install() -> int:
    """Create the built-in templates that are missing (by name); return how many.

    The data migration wrote them on a new site (with its own copy of them); this puts back
    the ones a flushed database lost, for the tests. A template a director has since edited
    in the admin is left as it is.
    """
    created = 0
    for template in pure.BUILTIN_TEMPLATES:
        if BlindStructure.objects.filter(name=template.name, is_template=True).exists():
            continue
        pure.check_rows(template.rows, for_limit=template.for_limit, chip_set=template.chip_set)
        blind_structure = BlindStructure.objects.create(
            name=template.name,
            description=template.description,
            for_limit=template.for_limit,
            chip_set=list(template.chip_set),
            is_template=True,
        )
        BlindLevel.objects.bulk_create(
            BlindLevel(blind_structure=blind_structure, **blind_level_values(row, position))
            for position, row in enumerate(_normalised(template.rows, template.for_limit), start=1)
        )
        created += 1
    return created


# ---------------------------------------------------------------------------------------------
# Reads for the editor


def _with_counts(blind_structures: QuerySet[BlindStructure]) -> QuerySet[BlindStructure]:
    return blind_structures.annotate(
        levels_count=Count("levels", filter=Q(levels__kind=LevelKind.LEVEL)),
        breaks_count=Count("levels", filter=Q(levels__kind=LevelKind.BREAK)),
    )


def blind_structures_templates() -> QuerySet[BlindStructure]:
    """The built-in templates, with ``levels_count`` and ``breaks_count``."""
    return _with_counts(BlindStructure.objects.filter(is_template=True)).order_by("name")


def blind_structures_of(user: Any) -> QuerySet[BlindStructure]:
    """The director's own blind structures, newest first, with their counts."""
    return _with_counts(BlindStructure.objects.filter(is_template=False, created_by=user)).order_by(
        "-created_at", "-pk"
    )


def blind_structures_of_others(user: Any) -> QuerySet[BlindStructure]:
    """The other directors' blind structures (directors run the series together)."""
    return _with_counts(
        BlindStructure.objects.filter(is_template=False).exclude(created_by=user)
    ).order_by("-created_at", "-pk")


@dataclass(frozen=True, slots=True)
class PreviewSettings:
    """What the editor's clock preview starts from, and for how many chips."""

    start: datetime
    players: int
    starting_stack: int
    event: Event | None

    @property
    def chips_total(self) -> int:
        return self.players * self.starting_stack


DEFAULT_PLAYERS = 10
DEFAULT_STACK = 10_000


def blind_structure_preview_settings(
    blind_structure: BlindStructure, *, now: datetime | None = None
) -> PreviewSettings:
    """The next event's start time, field and stack: the next event that plays this
    blind structure, else the next event on the calendar, else the next half hour with ten
    players of 10,000. The field is the event's entries when two or more have registered,
    else its capacity, else ten."""
    now = now or timezone.now()
    event = (
        Event.objects.filter(starts_at__gte=now, tournament__blind_structure=blind_structure)
        .order_by("starts_at")
        .first()
    ) or event_next(now)
    if event is None:
        start = now.replace(second=0, microsecond=0) + timedelta(minutes=30 - now.minute % 30)
        return PreviewSettings(start, DEFAULT_PLAYERS, DEFAULT_STACK, None)
    players = DEFAULT_PLAYERS
    tournament = Tournament.objects.filter(event=event).first()
    if tournament is not None:
        registered = tournament.entries.filter(
            state__in=[EntryState.REGISTERED, EntryState.PLAYING]
        ).count()
        if registered >= 2:
            players = registered
        elif tournament.capacity and tournament.capacity >= 2:
            players = tournament.capacity
    return PreviewSettings(event.starts_at, players, event.starting_stack or DEFAULT_STACK, event)


def blind_structure_generator_defaults(*, now: datetime | None = None) -> dict[str, Any]:
    """The generator form's starting values, from the next event when there is one."""
    event = event_next(now)
    return {
        "starting_stack": event.starting_stack if event else DEFAULT_STACK,
        "players": DEFAULT_PLAYERS,
        "hours": 4,
        "chip_set": ", ".join(str(chip) for chip in pure.HOME_CHIPS),
        "level_minutes": 20,
        "break_every": 4,
        "break_minutes": 10,
        "ante_kind": AnteKind.NONE,
        "for_limit": bool(event and event.structure == Structure.LIMIT),
    }


def duration_text(minutes: int) -> str:
    """ "4 h 10 min", "45 min", "3 h"."""
    hours, rest = divmod(minutes, 60)
    if not hours:
        return _("%(minutes)d min") % {"minutes": rest}
    if not rest:
        return _("%(hours)d h") % {"hours": hours}
    return _("%(hours)d h %(minutes)d min") % {"hours": hours, "minutes": rest}
