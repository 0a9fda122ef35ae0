"""Chips: how many are in play, the director's chip counts, and the check of counted stacks.

The chips in play are the book's: a starting stack for every entry (a re-entry is an entry),
plus each rebuy's and add-on's chips (``chips_total``, which the TV clock's figures use
too). Stacks the director counts by hand are checked against them by one function,
``stacks_check``: a deal made in person is refused when its stacks do not add up
(``stacks_refusal``, called by ``results.deal_propose`` and ``results.deal_record``), while a
chip count is kept whatever its total, because people miscount, with the difference said.

A colour-up's chip race (docs/rules.md, "Chip race (24)": "at most one chip per player; nobody
can be raced out") changes the real total a little: each player's odd chips are worth less
than one chip of the smallest colour left, and they get at most one such chip for them,
so each colour-up moves every stack by less than that chip either way. ``race_allowance``
adds that up over the colour-ups the clock has reached, counted for every entry (anyone who
may have been at a table then), and the check accepts a total that far off.

A chip count (``chips_count``) is a director's action: it takes the tournament lock, is
logged with the rows it wrote, and Undo deletes them. The newest count of each player still
in is their stack on the console (``chips_overview``), the TV clock (``chip_leaders``) and
the deal form (``counts_latest``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Count, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from core import amounts
from tournaments import clock, selectors
from tournaments.errors import TournamentError
from tournaments.models import (
    ActionKind,
    BlindLevel,
    ChipCount,
    Entry,
    EntryState,
    Tournament,
    TournamentAction,
    TournamentState,
)
from tournaments.permissions import require_director
from tournaments.services import undo
from tournaments.services.locks import tournament_locked
from tournaments.summaries import message

# Entries whose buy-in put chips in play (as for the prize pool).
BOUGHT_IN = (EntryState.REGISTERED, EntryState.PLAYING, EntryState.OUT)
IN_PLAY = (TournamentState.RUNNING, TournamentState.ON_BREAK)
# ASCII digits only, with a sign so "-5" gets the message about 0 rather than "not a number".
_WHOLE = re.compile(r"[+-]?[0-9]{1,20}")
# A value quoted back in a message: enough to recognise it, not a page of it.
_QUOTE_MAX = 20


# -- the chips in play ----------------------------------------------------------------------


def chips_total(tournament: Tournament, *, entries: int, rebuys: int, addons: int) -> int:
    """The chips ``entries`` buy-ins, ``rebuys`` rebuys and ``addons`` add-ons put in play.

    >>> from types import SimpleNamespace
    >>> t = SimpleNamespace(event=SimpleNamespace(starting_stack=10000), rebuy_chips=10000,
    ...                     addon_chips=15000)
    >>> chips_total(t, entries=10, rebuys=2, addons=6)
    210000
    """
    return (
        entries * tournament.event.starting_stack
        + rebuys * tournament.rebuy_chips
        + addons * tournament.addon_chips
    )


@dataclass(frozen=True)
class Book:
    """What the entries put in play: the buy-ins, the chips, and the players still in."""

    entries: int
    chips: int
    players: int


def chips_book(tournament: Tournament) -> Book:
    """The tournament's entries, chips in play and players still in, in one query."""
    totals = Entry.objects.filter(tournament=tournament, state__in=BOUGHT_IN).aggregate(
        entries=Count("pk"),
        rebuys=Sum("rebuys"),
        addons=Count("pk", filter=Q(addon=True)),
        players=Count("pk", filter=Q(state=EntryState.PLAYING)),
    )
    entries = totals["entries"] or 0
    chips = chips_total(
        tournament, entries=entries, rebuys=totals["rebuys"] or 0, addons=totals["addons"] or 0
    )
    return Book(entries=entries, chips=chips, players=totals["players"] or 0)


def chips_in_play(tournament: Tournament) -> int:
    """Every starting stack, rebuy and add-on bought so far."""
    return chips_book(tournament).chips


def race_allowance(
    tournament: Tournament,
    entries: int,
    rows: Sequence[BlindLevel] | None = None,
    now: datetime | None = None,
) -> int:
    """How far the chip races of the colour-ups the clock has reached may have moved the
    total: one chip of the smallest colour left after each, for each of ``entries``."""
    if not tournament.is_started:
        return 0
    rows = selectors.blind_structure_rows(tournament) if rows is None else rows
    clock_rows = clock.rows_from(rows)
    if not clock_rows:
        return 0
    reached = clock.position(tournament, clock_rows, now or timezone.now()).index
    left = sorted(set(tournament.blind_structure.chip_set or []))
    allowance = 0
    for row in clock_rows[: reached + 1]:
        if not (row.is_break and row.colour_up):
            continue
        left = [chip for chip in left if chip not in row.colour_up]
        if left:
            allowance += left[0] * entries
    return allowance


# -- the check --------------------------------------------------------------------------


@dataclass(frozen=True)
class StackCheck:
    """Counted stacks against the chips in play, with what a chip race may have changed."""

    counted: int
    in_play: int
    allowance: int = 0

    @property
    def difference(self) -> int:
        return self.counted - self.in_play

    @property
    def matches(self) -> bool:
        """Whether the stacks add up, within what the chip races may have changed."""
        return abs(self.difference) <= self.allowance

    @property
    def text(self) -> str:
        """The totals in words: "The stacks add up to 260,000, 50,000 more than the 210,000
        in play." (and, within a chip race's change, that it is)."""
        values = {
            "counted": amounts.number(self.counted),
            "difference": amounts.number(abs(self.difference)),
            "in_play": amounts.number(self.in_play),
        }
        if self.difference == 0:
            return _("The stacks add up to the %(in_play)s in play.") % values
        if self.difference > 0:
            text = _(
                "The stacks add up to %(counted)s, %(difference)s more than the %(in_play)s in "
                "play."
            )
        else:
            text = _(
                "The stacks add up to %(counted)s, %(difference)s less than the %(in_play)s in "
                "play."
            )
        text = text % values
        if self.matches:
            text += " " + _(
                "The chip races of the colour-ups may account for up to %(allowance)s."
            ) % {"allowance": amounts.number(self.allowance)}
        return text


def stacks_check(
    tournament: Tournament, stacks: Iterable[int], book: Book | None = None
) -> StackCheck:
    """The check of counted ``stacks`` (one per player still in) against the chips in play."""
    book = book or chips_book(tournament)
    return StackCheck(
        counted=sum(stacks),
        in_play=book.chips,
        allowance=race_allowance(tournament, book.entries),
    )


def stacks_refusal(tournament: Tournament, stacks: Iterable[int]) -> str | None:
    """Why a deal cannot be made on these counted stacks (None: they add up)."""
    check = stacks_check(tournament, stacks)
    if check.matches:
        return None
    return check.text + " " + _("Count the chips again: a deal shares the prizes by these stacks.")


# -- chip counts ------------------------------------------------------------------------


def counts_latest(entries: Iterable[Entry | int]) -> dict[int, ChipCount]:
    """The newest count of each of ``entries`` that has one, by entry id."""
    ids = [e if isinstance(e, int) else e.pk for e in entries]
    latest: dict[int, ChipCount] = {}
    for count in ChipCount.objects.filter(entry_id__in=ids).order_by("-pk"):
        latest.setdefault(count.entry_id, count)
    return latest


def _quote(value: Any) -> str:
    text = str(value)
    return text if len(text) <= _QUOTE_MAX else text[:_QUOTE_MAX] + "…"


def _chips_of(entry: Entry, value: Any) -> int | None:
    """A stack typed for ``entry`` as a whole number of chips (None: left blank)."""
    if isinstance(value, bool):
        value = str(value)
    if isinstance(value, int):
        chips = value
    else:
        text = str(value).strip() if value is not None else ""
        if not text:
            return None
        if not _WHOLE.fullmatch(text):
            raise TournamentError(
                _("%(name)s: “%(value)s” is not a whole number of chips.")
                % {"name": entry.player.name, "value": _quote(text)}
            )
        chips = int(text)
    if chips <= 0:
        raise TournamentError(
            _(
                "%(name)s: a stack must be more than 0 chips (a player with no chips is out: "
                "record the elimination)."
            )
            % {"name": entry.player.name}
        )
    if chips > amounts.CHIPS_MAX:
        raise TournamentError(
            _("%(name)s: a stack cannot be more than %(max)s.")
            % {"name": entry.player.name, "max": amounts.chips(amounts.CHIPS_MAX)}
        )
    return chips


def _counted(tournament: Tournament, stacks: Mapping[Any, Any]) -> list[tuple[Entry, int]]:
    """The stacks typed, checked: each for an entry of the tournament still in."""
    ids: dict[int, Any] = {}
    for key, value in stacks.items():
        try:
            ids[int(key)] = value
        except (TypeError, ValueError):
            raise TournamentError(
                _("A stack was given for someone who is not a player of this tournament.")
            ) from None
    found = {
        e.pk: e
        for e in Entry.objects.select_related("player").filter(
            tournament=tournament, pk__in=[pk for pk in ids if 0 < pk <= 2**63 - 1]
        )
    }
    if set(ids) - set(found):
        raise TournamentError(
            _("A stack was given for someone who is not a player of this tournament.")
        )
    ordered = sorted(found.values(), key=lambda e: (e.table_number or 0, e.seat_number or 0, e.pk))
    counted: list[tuple[Entry, int]] = []
    for entry in ordered:
        chips = _chips_of(entry, ids[entry.pk])
        if chips is None:
            continue
        if entry.state != EntryState.PLAYING:
            raise TournamentError(
                _("%(name)s is not still in: only the players still in are counted.")
                % {"name": entry.player.name}
            )
        counted.append((entry, chips))
    return counted


def chips_count(tournament_id: int, stacks: Mapping[Any, Any], *, by: Any) -> list[ChipCount]:
    """Record the stacks the director counted: ``stacks`` maps entry ids of players still in
    to their chips (a table, or the whole room; a blank value is a player not counted this
    time). Kept whatever the total: the console says how far it is from the chips in play.

    Refused, recording nothing, for a stack that is not a whole number above 0, or for
    someone not still in. Logged as one action; Undo deletes the counts it wrote.
    """
    require_director(by)
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        if tournament.state == TournamentState.FINISHED:
            raise TournamentError(_("This tournament is already finished."))
        if tournament.state not in IN_PLAY:
            raise TournamentError(_("This tournament is not running."))
        counted = _counted(tournament, stacks)
        if not counted:
            raise TournamentError(_("Enter at least one stack."))
        user = by if getattr(by, "is_authenticated", False) else None
        counts = ChipCount.objects.bulk_create(
            ChipCount(tournament=tournament, entry=entry, chips=chips, by=user)
            for entry, chips in counted
        )
        leader, most = max(counted, key=lambda pair: (pair[1], -pair[0].pk))
        if len(counted) == 1:
            summary = message(
                gettext_noop("Chip count: %(name)s %(chips)s"), name=leader.player.name, chips=most
            )
        else:
            summary = message(
                gettext_noop("Chip count: %(count)s players, %(name)s leads with %(chips)s"),
                count=len(counted),
                name=leader.player.name,
                chips=most,
            )
        undo.action_record(
            tournament,
            ActionKind.CHIP_COUNT,
            summary,
            by=by,
            undo={"counts": [count.pk for count in counts]},
        )
    return counts


@undo.register(ActionKind.CHIP_COUNT)
def _undo_chip_count(tournament: Tournament, action: TournamentAction) -> None:
    # A count is only information: taking it back is always possible, and the counts
    # before it are the newest again.
    ChipCount.objects.filter(tournament=tournament, pk__in=action.undo.get("counts", [])).delete()


# -- what the screens show ------------------------------------------------------------------


@dataclass(frozen=True)
class CountRow:
    """A player still in, with their newest count (None: not counted yet)."""

    entry_id: int
    name: str
    number: int
    table: int | None
    seat: int | None
    chips: int | None
    counted_at: datetime | None


@dataclass(frozen=True)
class TableCounts:
    number: int | None  # None: players without a seat yet
    rows: list[CountRow] = field(default_factory=list)


@dataclass(frozen=True)
class ChipsOverview:
    """The console's chip figures: the book, the newest counts by table, the leader, and
    the counted total against the chips in play (``check``, once everyone is counted)."""

    in_play: int
    players: int
    average: int | None
    tables: list[TableCounts]
    leader: CountRow | None
    counted: int
    players_counted: int
    check: StackCheck | None
    last_counted_at: datetime | None


def chips_overview(tournament: Tournament) -> ChipsOverview:
    book = chips_book(tournament)
    playing = list(
        Entry.objects.select_related("player")
        .filter(tournament=tournament, state=EntryState.PLAYING)
        .order_by("table_number", "seat_number", "pk")
    )
    latest = counts_latest(playing)
    tables: list[TableCounts] = []
    rows: list[CountRow] = []
    for entry in playing:
        count = latest.get(entry.pk)
        row = CountRow(
            entry_id=entry.pk,
            name=entry.player.name,
            number=entry.number,
            table=entry.table_number,
            seat=entry.seat_number,
            chips=count.chips if count else None,
            counted_at=count.counted_at if count else None,
        )
        rows.append(row)
        if not tables or tables[-1].number != entry.table_number:
            tables.append(TableCounts(entry.table_number))
        tables[-1].rows.append(row)
    # Players without a seat sort first (NULL first on SQLite, last on PostgreSQL): last here.
    tables.sort(key=lambda table: (table.number is None, table.number or 0))
    counted_rows = [row for row in rows if row.chips is not None]
    leader = max(counted_rows, key=lambda r: (r.chips or 0, -r.entry_id), default=None)
    counted = sum(row.chips or 0 for row in counted_rows)
    everyone = bool(rows) and len(counted_rows) == len(rows)
    return ChipsOverview(
        in_play=book.chips,
        players=len(rows),
        average=round(book.chips / len(rows)) if rows else None,
        tables=tables,
        leader=leader,
        counted=counted,
        players_counted=len(counted_rows),
        check=stacks_check(tournament, [counted], book) if everyone else None,
        last_counted_at=max((r.counted_at for r in counted_rows if r.counted_at), default=None),
    )


def chip_leaders(tournament_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """The chip leader of each tournament that has one, from the newest counts of the
    players still in: {tournament id: {"name": ..., "chips": ...}}, in one query."""
    newest: dict[tuple[int, int], tuple[int, str]] = {}
    rows = (
        ChipCount.objects.filter(
            tournament_id__in=list(tournament_ids), entry__state=EntryState.PLAYING
        )
        .order_by("-pk")
        .values_list("tournament_id", "entry_id", "chips", "entry__player__name")
    )
    for tournament_id, entry_id, chips, name in rows:
        newest.setdefault((tournament_id, entry_id), (chips, name))
    leaders: dict[int, dict[str, Any]] = {}
    # In entry order, so of two equal stacks the earlier entry leads (as on the console).
    for (tournament_id, _entry_id), (chips, name) in sorted(newest.items()):
        best = leaders.get(tournament_id)
        if best is None or chips > best["chips"]:
            leaders[tournament_id] = {"name": name, "chips": chips}
    return leaders
