"""Seating a tournament played with real cards: the draw, late seats, balancing, breaking
tables and the final table, as the director carries them out from the console.

The rules are ``tournaments.seat_rules``'s pure functions (TDA 7, 8, 10, 11A, RP-9); this
module feeds them the tables as they are in the database and applies what they answer:

- ``seating_draw`` seats every registered entry at random (a CSPRNG) when the director
  closes registration or starts the tournament;
- ``seating_late_seat`` seats a late entrant or re-entry from the open seats, and says when
  they must wait for the button to pass (TDA 8, 10);
- ``seating_moves_needed`` tells the director what to do next: redraw the final table,
  break a table, or move one player to balance (TDA 11A), asking first where the button is
  at the tables concerned, since who moves and where depends on who is due for the big blind;
- ``seating_move_confirm``, ``table_button_set``, ``table_break`` and
  ``seating_final_table`` are the director's answers.

A button is what the director said it is for the next hand. It moves every hand and nothing
here sees the hands, so an answer is trusted for ``BUTTON_FRESH`` only; after that the
console asks again rather than guess. The blinds are taken as the next players clockwise
from the button (the button posts the small blind heads-up, TDA 34B).

Every function that changes seats locks the tournament row (the lock every console action
takes), refuses bad input with ``TournamentError`` before changing anything, and records
itself in the action log with the seats as they were, so ``action_undo_last`` can put
everyone back.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.engine.deal_in import blind_positions
from tournaments import seat_rules as rules
from tournaments.errors import TournamentError, not_playing
from tournaments.models import (
    ActionKind,
    Entry,
    EntryState,
    Tournament,
    TournamentAction,
    TournamentState,
    TournamentTable,
)
from tournaments.permissions import require_director
from tournaments.services import night_news, undo
from tournaments.services.locks import tournament_locked
from tournaments.summaries import Message, joined, message

# A live Omaha hand takes two or three minutes: a button told longer ago than this has
# probably moved.
BUTTON_FRESH = timedelta(minutes=3)
# "Within 2 players until a few tables remain, then within 1" (docs/rules.md, balancing).
FEW_TABLES = 3
CLOSED = (TournamentState.FINISHED, TournamentState.CANCELLED)
# The actions of this module, which the console's seating section reports.
SEATING_KINDS = (ActionKind.SEAT, ActionKind.MOVE, ActionKind.BUTTON, ActionKind.BREAK_TABLE)


# What the console shows ---------------------------------------------------------------------


@dataclass(frozen=True)
class MoveInstruction:
    """One player to move: "table 2 seat 5 → table 1 seat 3".

    ``must_wait`` is True when the new seat is between the small blind and the button
    (the player sits out until the button passes, TDA 10), None when that table's button is
    not known.
    """

    entry_id: int
    name: str
    from_table: int | None
    from_seat: int | None
    to_table: int
    to_seat: int
    must_wait: bool | None


@dataclass(frozen=True)
class Instruction:
    """What the director should do next: ``kind`` is "final-table" (redraw the final table),
    "break" (break ``table``), "button" (say where ``table``'s button is) or "move".

    A "final-table" step says why it is due: ``players`` are left, the rules' final table
    seats ``seats`` (RP-9: one more than ``usual_seats``, the tournament's tables, for six-
    and eight-handed events), and ``seat_choices`` are the sizes the director may draw it
    at now. When the players left do not fit at a table of ``usual_seats`` the step is
    optional: the director may play on until they do, and the steps after it still apply.
    """

    kind: str
    table: int | None = None
    move: MoveInstruction | None = None
    players: int | None = None
    seats: int | None = None
    usual_seats: int | None = None
    seat_choices: tuple[int, ...] = ()

    @property
    def is_optional(self) -> bool:
        """A final table the director may draw now, or wait for (see the class)."""
        return (
            self.kind == "final-table"
            and self.players is not None
            and self.usual_seats is not None
            and self.players > self.usual_seats
        )


@dataclass(frozen=True)
class SeatCard:
    seat: int
    entry: Entry | None


@dataclass(frozen=True)
class TableCard:
    """One table as the console draws it: its seats, in order, and its button."""

    table: TournamentTable
    seats: list[SeatCard]
    button_known: bool

    @property
    def number(self) -> int:
        return self.table.number

    @property
    def players(self) -> int:
        return sum(1 for card in self.seats if card.entry is not None)


@dataclass(frozen=True)
class SeatingOverview:
    """The console's seating section: the tables, who waits for a seat, what to do next."""

    tables: list[TableCard]
    unseated: list[Entry]
    instructions: list[Instruction] = field(default_factory=list)
    error: str = ""
    can_draw: bool = False

    @property
    def button_tables(self) -> set[int]:
        """The tables whose button the director is asked for."""
        return {i.table for i in self.instructions if i.kind == "button" and i.table}


# Reading the tables -------------------------------------------------------------------------


def _seat_count(tournament: Tournament, table: TournamentTable) -> int:
    return table.seats or tournament.seats_per_table


def button_is_fresh(table: TournamentTable, now: datetime | None = None) -> bool:
    """Whether the director said where ``table``'s button is recently enough to trust it."""
    if table.button is None:
        return False
    if table.button_set_at is None:
        # Set without a time (an online table's live button, or an import): trust it.
        return True
    return (now or timezone.now()) - table.button_set_at <= BUTTON_FRESH


def _open_tables(tournament: Tournament) -> list[TournamentTable]:
    return list(
        TournamentTable.objects.filter(tournament=tournament, broken_at__isnull=True).order_by(
            "number"
        )
    )


def _unseated(tournament: Tournament) -> list[Entry]:
    """Entries waiting for a seat: registered ones, and players in play without a seat (a
    late entry or re-entry taken before its seat was drawn)."""
    return list(
        Entry.objects.select_related("player")
        .filter(
            Q(state=EntryState.REGISTERED) | Q(state=EntryState.PLAYING, table_number__isnull=True),
            tournament=tournament,
        )
        .order_by("registered_at", "pk")
    )


def _seated(tournament: Tournament) -> list[Entry]:
    return list(
        Entry.objects.select_related("player")
        .filter(tournament=tournament, state=EntryState.PLAYING, table_number__isnull=False)
        .order_by("table_number", "seat_number")
    )


def _blinds(seats: dict[int, int | None], button: int) -> tuple[int | None, int | None]:
    """The small and big blind of the next hand from its button, as the engine places them
    (``tables.engine.deal_in.blind_positions``: heads-up the button posts the small blind)."""
    players = [seat for seat, entry in seats.items() if entry is not None]
    if not players:
        return None, None
    if len(players) == 1:
        return players[0], None
    return blind_positions(button, players)


def _views(
    tournament: Tournament,
    tables: Sequence[TournamentTable],
    entries: Iterable[Entry],
    *,
    now: datetime | None,
) -> list[rules.TableView]:
    """The open tables as the seating rules see them (players named by entry id).

    A button that is not known or not fresh is left out, so the rules treat the table as
    one where every seat is as good as another; callers that need it ask first.
    """
    by_table: dict[int, dict[int, int]] = {}
    for entry in entries:
        if entry.table_number is not None and entry.seat_number is not None:
            by_table.setdefault(entry.table_number, {})[entry.seat_number] = entry.pk
    views = []
    for table in tables:
        taken = by_table.get(table.number, {})
        seats: dict[int, int | None] = {
            s: taken.get(s) for s in range(1, _seat_count(tournament, table) + 1)
        }
        # A player left in a seat beyond the table's count (its count was lowered): show them.
        seats.update({s: p for s, p in taken.items() if s not in seats})
        if button_is_fresh(table, now) and table.button in seats:
            assert table.button is not None
            small, big = _blinds(seats, table.button)
            views.append(rules.TableView(table.number, seats, table.button, small, big))
        else:
            views.append(rules.TableView(table.number, seats))
    return views


def balance_threshold(tournament: Tournament, tables: int) -> int:
    """Within the tournament's setting (2 by default), within 1 once few tables remain."""
    threshold = max(1, tournament.balance_threshold)
    return min(threshold, 1) if tables <= FEW_TABLES else threshold


def _instruction_for(
    move: rules.Move, names: dict[int, str], fresh: dict[int, bool]
) -> MoveInstruction:
    return MoveInstruction(
        entry_id=move.player,
        name=names.get(move.player, ""),
        from_table=move.from_table,
        from_seat=move.from_seat,
        to_table=move.to_table,
        to_seat=move.to_seat,
        must_wait=move.must_wait if fresh.get(move.to_table) else None,
    )


def seating_moves_needed(
    tournament: Tournament, *, now: datetime | None = None
) -> list[Instruction]:
    """What the director should do next to keep the tables even, first thing first.

    The final table redraw once the players left fit at it (RP-9); else the table to break
    once its players fit elsewhere (the highest number first); else the balancing moves
    (TDA 11A) within the tournament's threshold, tighter with ``FEW_TABLES`` or fewer. A
    balancing move needs the buttons of both tables (who is due for the big blind at the
    long table, the worst seat at the short one), so when one is not known or not fresh the
    answer is a "button" instruction for that table instead of a guess.

    Where RP-9's final table has a seat more than the tournament's tables (seven for six-
    handed, nine for eight-handed), it may be drawn as soon as the players fit at it, with the
    other steps after it: the director may rather play on until the players fit at a table
    of the usual size, when the final table is due whatever its size.
    """
    if tournament.state in CLOSED:
        return []
    now = now or timezone.now()
    tables = _open_tables(tournament)
    entries = _seated(tournament)
    if len(tables) < 2:
        return []
    # The tables without their buttons: enough to know what is due and which tables a
    # balancing move concerns.
    blind = [
        rules.TableView(v.number, v.seats) for v in _views(tournament, tables, entries, now=now)
    ]
    usual = tournament.seats_per_table
    optional: list[Instruction] = []
    try:
        if rules.final_table_due(blind, usual):
            left = sum(v.players for v in blind)
            size = rules.final_table_size(usual)
            final = Instruction(
                "final-table",
                players=left,
                seats=size,
                usual_seats=usual,
                seat_choices=tuple(n for n in sorted({usual, size}) if n >= left),
            )
            if not final.is_optional:
                return [final]
            optional = [final]
        breaking = rules.should_break(blind, usual)
        if breaking is not None:
            return [*optional, Instruction("break", table=breaking)]
        threshold = balance_threshold(tournament, len(tables))
        # Which tables are concerned does not depend on the buttons; who moves does.
        concerned = {
            n for m in rules.balance_moves(blind, threshold) for n in (m.from_table, m.to_table)
        }
        if not concerned:
            return optional
        fresh = {t.number: button_is_fresh(t, now) for t in tables}
        unknown = sorted(n for n in concerned if not fresh[n])
        if unknown:
            return [*optional, *(Instruction("button", table=n) for n in unknown)]
        moves = rules.balance_moves(_views(tournament, tables, entries, now=now), threshold)
    except rules.SeatingError as error:
        raise TournamentError(
            _("The tables cannot be balanced: %(reason)s.") % {"reason": error}
        ) from None
    names = {e.pk: e.player.name for e in entries}
    return [
        *optional,
        *(Instruction("move", move=_instruction_for(m, names, fresh)) for m in moves),
    ]


def seating_overview(tournament: Tournament, *, now: datetime | None = None) -> SeatingOverview:
    """The seat cards of every open table, who still needs a seat, and what to do next."""
    now = now or timezone.now()
    tables = _open_tables(tournament)
    entries = _seated(tournament)
    by_seat = {(e.table_number, e.seat_number): e for e in entries}
    cards = []
    for table in tables:
        count = max(
            [_seat_count(tournament, table)]
            + [e.seat_number or 0 for e in entries if e.table_number == table.number]
        )
        cards.append(
            TableCard(
                table=table,
                seats=[
                    SeatCard(seat, by_seat.get((table.number, seat)))
                    for seat in range(1, count + 1)
                ],
                button_known=button_is_fresh(table, now),
            )
        )
    unseated = [] if tournament.state in CLOSED else _unseated(tournament)
    if tournament.is_started:
        # Once play has started a registered player is seated by taking their late entry
        # (they pay as they sit down); only players already in play wait here for a seat.
        unseated = [e for e in unseated if e.state == EntryState.PLAYING]
    try:
        instructions, error = seating_moves_needed(tournament, now=now), ""
    except TournamentError as exc:
        instructions, error = [], str(exc)
    return SeatingOverview(
        cards, unseated, instructions, error, can_draw=bool(unseated) and not tables
    )


# Changing seats ---------------------------------------------------------------------------


def _require_in_person(tournament: Tournament) -> None:
    """Online, the live tables are where everyone sits: the tournament seats, moves and
    breaks tables itself (``services.online``), and a director's seat change would leave
    them behind."""
    if TournamentTable.objects.filter(tournament=tournament, live_table__isnull=False).exists():
        raise TournamentError(
            _("This tournament is played online: its tables seat and move players themselves.")
        )


def _require_open(tournament: Tournament) -> None:
    if tournament.state == TournamentState.FINISHED:
        raise TournamentError(_("This tournament is already finished."))
    if tournament.state == TournamentState.CANCELLED:
        raise TournamentError(_("This tournament is cancelled."))


def _table(tournament: Tournament, number: Any) -> TournamentTable:
    try:
        table_number = int(number)
    except (TypeError, ValueError):
        raise TournamentError(_("“%(value)s” is not a table number.") % {"value": number}) from None
    table = TournamentTable.objects.filter(tournament=tournament, number=table_number).first()
    if table is None:
        raise TournamentError(_("There is no table %(number)s.") % {"number": table_number})
    if table.broken_at is not None:
        raise TournamentError(_("Table %(number)s is broken.") % {"number": table_number})
    return table


def _seat_number(tournament: Tournament, table: TournamentTable, value: Any) -> int:
    try:
        seat = int(value)
    except (TypeError, ValueError):
        raise TournamentError(_("“%(value)s” is not a seat number.") % {"value": value}) from None
    count = _seat_count(tournament, table)
    if not 1 <= seat <= count:
        raise TournamentError(
            _("Table %(table)s has seats 1 to %(count)s, not %(seat)s.")
            % {"table": table.number, "count": count, "seat": seat}
        )
    return seat


def _move_record(entry: Entry, to_table: int, to_seat: int) -> dict[str, Any]:
    return {
        "entry": entry.pk,
        "state": entry.state,
        "from": [entry.table_number, entry.seat_number] if entry.table_number else None,
        "to": [to_table, to_seat],
    }


def _apply(moves: Sequence[tuple[Entry, int, int]]) -> None:
    """Seat each entry at its (table, seat), all at once, as players in play.

    The moving players leave their seats first: one may take a seat another is leaving in
    the same redraw, and the one-player-per-seat constraint is checked row by row.
    """
    # Every seat change comes through here: each player's night page hears theirs after
    # commit, read from the entries as they were (their old seat).
    night_news.night_tell_moves(moves)
    ids = [entry.pk for entry, _, _ in moves]
    Entry.objects.filter(pk__in=ids).update(table_number=None, seat_number=None)
    for entry, table_number, seat_number in moves:
        entry.state = EntryState.PLAYING
        entry.table_number = table_number
        entry.seat_number = seat_number
        entry.save(update_fields=["state", "table_number", "seat_number"])


def _table_state(table: TournamentTable) -> dict[str, Any]:
    return {
        "number": table.number,
        "button": table.button,
        "button_set_at": table.button_set_at.isoformat() if table.button_set_at else None,
        "seats": table.seats,
        "broken_at": table.broken_at.isoformat() if table.broken_at else None,
    }


def seating_moves_of(action: TournamentAction) -> list[MoveInstruction]:
    """The seats a late seat or a table break gave, for the console to show after it.

    ``must_wait`` is as it was when the seat was drawn (None: that table's button was not
    known). Other actions (the draw, a move, the final table) list nothing: the seat cards
    show those, and nobody there waits for the button.
    """
    records = [r for r in action.undo.get("moves", []) if "must_wait" in r]
    names = dict(
        Entry.objects.filter(pk__in=[r["entry"] for r in records]).values_list("pk", "player__name")
    )
    return [
        MoveInstruction(
            entry_id=r["entry"],
            name=names.get(r["entry"], ""),
            from_table=(r["from"] or [None, None])[0],
            from_seat=(r["from"] or [None, None])[1],
            to_table=r["to"][0],
            to_seat=r["to"][1],
            must_wait=r["must_wait"],
        )
        for r in records
    ]


def seating_tables_opened(action: TournamentAction) -> list[int]:
    """The tables a late seat opened because every seat at the open tables was taken (a
    broken table is not opened again: a new table takes the next number)."""
    return list(action.undo.get("opened", []))


def seating_action_of(action: TournamentAction | None) -> TournamentAction | None:
    """The seating action that ``action`` is, or includes: a late entry or re-entry taken
    on the console records the seat it drew as an action of its own, which the entry's
    action includes (so one Undo takes back both)."""
    if action is None:
        return None
    if action.kind in SEATING_KINDS:
        return action
    return (
        TournamentAction.objects.filter(
            tournament_id=action.tournament_id,
            pk__in=action.undo.get(undo.INCLUDES, []),
            kind__in=SEATING_KINDS,
        )
        .order_by("-pk")
        .first()
    )


def _seat_label(table: int | None, seat: int | None) -> Message:
    if table is None:
        return message(gettext_noop("no seat"))
    return message(gettext_noop("table %(table)s seat %(seat)s"), table=table, seat=seat)


def _arrival(move: MoveInstruction) -> Message:
    """ "Ann → table 1 seat 4", saying when the player waits for the button (TDA 10)."""
    text = message(
        gettext_noop("%(name)s → %(to)s"),
        name=move.name,
        to=_seat_label(move.to_table, move.to_seat),
    )
    if move.must_wait:
        return message(gettext_noop("%(move)s (waits for the button)"), move=text)
    return text


def _moves_summary(moves: Sequence[MoveInstruction]) -> Message:
    return joined([_arrival(m) for m in moves])


def seating_draw(
    tournament: Tournament, *, by: Any = None, rng: random.Random | None = None
) -> list[MoveInstruction]:
    """Draw a table and seat for every registered entry, at random (TDA 7).

    Called by ``tournament_start`` inside its transaction, or by a director when
    registration closes. The first draw opens as many tables as the field needs, filled as
    evenly as possible; a later call (players registered since) seats the newcomers from
    the open seats as late entrants. Entries drawn become PLAYING. Returns the seats drawn,
    in table and seat order; nothing is recorded when nobody is waiting for a seat.
    """
    if by is not None:
        require_director(by)
    with transaction.atomic():
        tournament = tournament_locked(tournament.pk)
        _require_open(tournament)
        waiting = _unseated(tournament)
        if not waiting:
            return []
        tables = _open_tables(tournament)
        created: list[int] = []
        seated: list[MoveInstruction] = []
        if not tables:
            try:
                draw = rules.draw_seats(
                    [e.pk for e in waiting], tournament.seats_per_table, rng=rng
                )
            except rules.SeatingError as error:
                raise TournamentError(
                    _("The seats cannot be drawn: %(reason)s.") % {"reason": error}
                ) from None
            first = (
                TournamentTable.objects.filter(tournament=tournament).aggregate(Max("number"))[
                    "number__max"
                ]
                or 0
            )
            numbers = sorted({at.table for at in draw.values()})
            for number in numbers:
                TournamentTable.objects.create(tournament=tournament, number=first + number)
                created.append(first + number)
            records = [_move_record(e, first + draw[e.pk].table, draw[e.pk].seat) for e in waiting]
            _apply([(e, first + draw[e.pk].table, draw[e.pk].seat) for e in waiting])
            seated = [
                MoveInstruction(
                    e.pk, e.player.name, None, None, e.table_number or 0, e.seat_number or 0, None
                )
                for e in waiting
            ]
        else:
            records = []
            for entry in waiting:
                record, instruction, new_table = _late_seat(tournament, entry, rng=rng)
                records.append(record)
                seated.append(instruction)
                created.extend([new_table] if new_table is not None else [])
        seated.sort(key=lambda m: (m.to_table, m.to_seat))
        undo.action_record(
            tournament,
            ActionKind.SEAT,
            message(gettext_noop("Seats drawn for %(count)s players"), count=len(seated)),
            by=by,
            undo={
                "moves": records,
                "tables_created": created,
                # The first draw opens every table; later, a table opens when seats run out.
                "opened": created if tables else [],
            },
        )
    return seated


def _late_seat(
    tournament: Tournament, entry: Entry, *, rng: random.Random | None
) -> tuple[dict[str, Any], MoveInstruction, int | None]:
    """Seat one entry from the open seats; open a new table when every seat is taken."""
    tables = _open_tables(tournament)
    now = timezone.now()
    views = _views(tournament, tables, _seated(tournament), now=now)
    new_table: int | None = None
    if not any(v.open_seats for v in views):
        number = (
            TournamentTable.objects.filter(tournament=tournament).aggregate(Max("number"))[
                "number__max"
            ]
            or 0
        ) + 1
        table = TournamentTable.objects.create(tournament=tournament, number=number)
        new_table = number
        tables.append(table)
        views.append(
            rules.TableView(number, dict.fromkeys(range(1, tournament.seats_per_table + 1)))
        )
    try:
        drawn = rules.draw_late_seat(views, rng=rng)
    except rules.SeatingError as error:
        raise TournamentError(_("No seat can be drawn: %(reason)s.") % {"reason": error}) from None
    fresh = {t.number: button_is_fresh(t, now) for t in tables}
    record = _move_record(entry, drawn.table, drawn.seat)
    _apply([(entry, drawn.table, drawn.seat)])
    instruction = MoveInstruction(
        entry_id=entry.pk,
        name=entry.player.name,
        from_table=None,
        from_seat=None,
        to_table=drawn.table,
        to_seat=drawn.seat,
        must_wait=drawn.must_wait if fresh.get(drawn.table) else None,
    )
    record["must_wait"] = instruction.must_wait
    return record, instruction, new_table


def seating_late_seat(
    entry: Entry, *, by: Any = None, rng: random.Random | None = None
) -> MoveInstruction:
    """Seat a late entrant, re-entry or alternate from the open seats (TDA 8).

    The seat is drawn at random among the open seats of the shortest tables, so the tables
    stay even; when every seat is taken a new table opens and balancing fills it. The
    answer's ``must_wait`` says whether the player waits for the button to pass (the seat
    is between the small blind and the button, TDA 10), or is None when that table's
    button is not known: the console then asks the director to check. Call it after the
    entry is created (``entries``' late entry and re-entry do, in their transaction); it records
    its own action, which an undo reverses before the entry's.
    """
    if by is not None:
        require_director(by)
    with transaction.atomic():
        tournament = tournament_locked(entry.tournament_id)
        _require_open(tournament)
        entry = Entry.objects.select_related("player").get(pk=entry.pk)
        if entry.state == EntryState.PLAYING and entry.table_number is not None:
            raise TournamentError(
                _("%(name)s already has a seat: %(seat)s.")
                % {
                    "name": entry.player.name,
                    "seat": _seat_label(entry.table_number, entry.seat_number),
                }
            )
        if entry.state == EntryState.REGISTERED and tournament.is_started:
            raise TournamentError(
                _("%(name)s is registered but not in play yet: take their late entry first.")
                % {"name": entry.player.name}
            )
        if entry.state not in (EntryState.REGISTERED, EntryState.PLAYING):
            raise TournamentError(
                _("%(name)s is not registered, so cannot be seated.") % {"name": entry.player.name}
            )
        if not TournamentTable.objects.filter(tournament=tournament).exists():
            raise TournamentError(
                _("The seats have not been drawn yet: %(name)s will be drawn with everyone.")
                % {"name": entry.player.name}
            )
        record, instruction, new_table = _late_seat(tournament, entry, rng=rng)
        undo.action_record(
            tournament,
            ActionKind.SEAT,
            message(gettext_noop("Seated %(arrival)s"), arrival=_arrival(instruction)),
            by=by,
            undo={
                "moves": [record],
                "tables_created": [new_table] if new_table else [],
                "opened": [new_table] if new_table else [],
            },
        )
    return instruction


def seating_move_confirm(
    tournament_id: int, entry_id: Any, to_table: Any, to_seat: Any, *, by: Any
) -> MoveInstruction:
    """The director confirms a player has moved to ``to_table`` seat ``to_seat``.

    Usually the move ``seating_moves_needed`` proposed; the director may place a player
    elsewhere. Refused for a seat someone sits in, a broken table, or a player not in play.
    """
    require_director(by)
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        _require_open(tournament)
        _require_in_person(tournament)
        try:
            entry = Entry.objects.select_related("player").get(
                tournament=tournament, pk=int(entry_id)
            )
        except (Entry.DoesNotExist, TypeError, ValueError):
            raise TournamentError(_("That player is not in this tournament.")) from None
        if entry.state != EntryState.PLAYING:
            raise not_playing(entry.player.name)
        table = _table(tournament, to_table)
        seat = _seat_number(tournament, table, to_seat)
        if (entry.table_number, entry.seat_number) == (table.number, seat):
            raise TournamentError(
                _("%(name)s already sits at %(seat)s.")
                % {"name": entry.player.name, "seat": _seat_label(table.number, seat)}
            )
        taken = (
            Entry.objects.select_related("player")
            .filter(
                tournament=tournament,
                state=EntryState.PLAYING,
                table_number=table.number,
                seat_number=seat,
            )
            .first()
        )
        if taken is not None:
            raise TournamentError(
                _("Table %(table)s seat %(seat)s is taken by %(name)s.")
                % {"table": table.number, "seat": seat, "name": taken.player.name}
            )
        instruction = MoveInstruction(
            entry.pk,
            entry.player.name,
            entry.table_number,
            entry.seat_number,
            table.number,
            seat,
            None,
        )
        record = _move_record(entry, table.number, seat)
        _apply([(entry, table.number, seat)])
        undo.action_record(
            tournament,
            ActionKind.MOVE,
            message(
                gettext_noop("%(name)s: %(from)s → %(to)s"),
                name=entry.player.name,
                to=_seat_label(table.number, seat),
                **{"from": _seat_label(instruction.from_table, instruction.from_seat)},
            ),
            by=by,
            undo={"moves": [record]},
        )
    return instruction


def table_button_set(
    tournament_id: int, table_number: Any, seat: Any, *, by: Any, now: datetime | None = None
) -> TournamentTable:
    """The director says where the button is for the next hand at a table.

    Any seat of the table, open or not: under the dead button rule (TDA 32) the button can
    stay on a seat whose player has gone.
    """
    require_director(by)
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        _require_open(tournament)
        _require_in_person(tournament)
        table = _table(tournament, table_number)
        button = _seat_number(tournament, table, seat)
        before = _table_state(table)
        table.button = button
        table.button_set_at = now or timezone.now()
        table.save(update_fields=["button", "button_set_at"])
        undo.action_record(
            tournament,
            ActionKind.BUTTON,
            message(
                gettext_noop("Table %(table)s: button at seat %(seat)s"),
                table=table.number,
                seat=button,
            ),
            by=by,
            undo={"tables_before": [before]},
        )
    return table


def table_break(
    tournament_id: int, table_number: Any, *, by: Any, rng: random.Random | None = None
) -> list[MoveInstruction]:
    """Break a table: each of its players draws a new seat at the other tables (TDA 10).

    The seats are drawn at random from those that keep the other tables even; the answer
    lists each move, for the director to hand out new seat cards, with ``must_wait`` for a
    seat between the small blind and the button (None where the button is not known).
    """
    require_director(by)
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        _require_open(tournament)
        _require_in_person(tournament)
        table = _table(tournament, table_number)
        tables = _open_tables(tournament)
        if len(tables) < 2:
            raise TournamentError(_("The last table cannot be broken."))
        entries = _seated(tournament)
        now = timezone.now()
        try:
            moves = rules.break_table(
                _views(tournament, tables, entries, now=now), table.number, rng=rng
            )
        except rules.SeatingError as error:
            raise TournamentError(
                _("Table %(number)s cannot be broken: %(reason)s.")
                % {"number": table.number, "reason": error}
            ) from None
        by_id = {e.pk: e for e in entries}
        fresh = {t.number: button_is_fresh(t, now) for t in tables}
        names = {e.pk: e.player.name for e in entries}
        instructions = [_instruction_for(m, names, fresh) for m in moves]
        records = [
            {**_move_record(by_id[i.entry_id], i.to_table, i.to_seat), "must_wait": i.must_wait}
            for i in instructions
        ]
        before = _table_state(table)
        _apply([(by_id[m.player], m.to_table, m.to_seat) for m in moves])
        table.broken_at = now
        table.save(update_fields=["broken_at"])
        undo.action_record(
            tournament,
            ActionKind.BREAK_TABLE,
            message(
                gettext_noop("Broke table %(number)s: %(moves)s"),
                number=table.number,
                moves=_moves_summary(instructions),
            ),
            by=by,
            undo={"moves": records, "tables_before": [before]},
        )
    return instructions


def _final_table_seats(value: Any, *, left: int, most: int) -> int:
    """The seats the director chose for the final table: room for the ``left`` players, and
    no more than ``most``, the rules' final table (RP-9)."""
    if value is None or value == "":
        return most
    try:
        seats = int(value)
    except (TypeError, ValueError):
        raise TournamentError(
            _("“%(value)s” is not a number of seats.") % {"value": value}
        ) from None
    if seats < left:
        raise TournamentError(
            _("%(count)s players are left: a final table of %(seats)s seats cannot hold them.")
            % {"count": left, "seats": seats}
        )
    if seats > most:
        raise TournamentError(
            _("The final table takes at most %(most)s seats, not %(seats)s.")
            % {"most": most, "seats": seats}
        )
    return seats


def seating_final_table(
    tournament_id: int, *, by: Any, seats: Any = None, rng: random.Random | None = None
) -> list[MoveInstruction]:
    """Redraw the final table once the players left fit at it (TDA RP-9).

    Every player left draws a seat at random at the lowest-numbered table still open, which
    becomes the final table; the other tables are broken. Its button is asked afresh. The
    final table has ``seats`` seats, the director's choice between the players left and the
    rules' size (nine seats for an eight- or nine-handed event, seven for six or seven); by
    default the rules' size.
    """
    require_director(by)
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        _require_open(tournament)
        _require_in_person(tournament)
        tables = _open_tables(tournament)
        if len(tables) < 2:
            raise TournamentError(_("The players are already at one table."))
        entries = _seated(tournament)
        most = rules.final_table_size(tournament.seats_per_table)
        if len(entries) > most:
            raise TournamentError(
                _("%(count)s players are left: the final table seats %(size)s.")
                % {"count": len(entries), "size": most}
            )
        size = _final_table_seats(seats, left=len(entries), most=most)
        try:
            drawn = rules.final_table_draw([e.pk for e in entries], size, rng=rng)
        except rules.SeatingError as error:
            raise TournamentError(
                _("The final table cannot be drawn: %(reason)s.") % {"reason": error}
            ) from None
        final, others = tables[0], tables[1:]
        before = [_table_state(t) for t in tables]
        records = [_move_record(e, final.number, drawn[e.pk]) for e in entries]
        instructions = [
            MoveInstruction(
                e.pk, e.player.name, e.table_number, e.seat_number, final.number, drawn[e.pk], None
            )
            for e in entries
        ]
        _apply([(e, final.number, drawn[e.pk]) for e in entries])
        now = timezone.now()
        final.seats = size if size != tournament.seats_per_table else None
        final.button = None
        final.button_set_at = None
        final.save(update_fields=["seats", "button", "button_set_at"])
        TournamentTable.objects.filter(pk__in=[t.pk for t in others]).update(broken_at=now)
        instructions.sort(key=lambda m: m.to_seat)
        undo.action_record(
            tournament,
            ActionKind.BREAK_TABLE,
            message(
                gettext_noop("Final table drawn at table %(number)s, %(seats)s seats: %(moves)s"),
                number=final.number,
                seats=size,
                moves=_moves_summary(instructions),
            ),
            by=by,
            undo={"moves": records, "tables_before": before},
        )
    return instructions


# Undo ---------------------------------------------------------------------------------------


def _restore(tournament: Tournament, action: TournamentAction) -> None:
    """Put every player the action seated or moved back, and the tables as they were.

    A player whose entry a later action already took away (a late entry undone before its
    seat) is left as it is; a seat someone else sits in now cannot be given back, and the
    undo is refused.
    """
    _require_in_person(tournament)
    data = action.undo
    back: list[tuple[Entry, int | None, int | None, str]] = []
    for record in data.get("moves", []):
        entry = Entry.objects.select_related("player").filter(pk=record["entry"]).first()
        to_table, to_seat = record["to"]
        if entry is None or (entry.state, entry.table_number, entry.seat_number) != (
            EntryState.PLAYING,
            to_table,
            to_seat,
        ):
            continue
        from_table, from_seat = record["from"] or (None, None)
        back.append((entry, from_table, from_seat, record["state"]))
    moving = {entry.pk for entry, _, _, _ in back}
    for entry, from_table, from_seat, _state in back:
        if from_table is None:
            continue
        taken = (
            Entry.objects.select_related("player")
            .filter(
                tournament=tournament,
                state=EntryState.PLAYING,
                table_number=from_table,
                seat_number=from_seat,
            )
            .exclude(pk__in=moving)
            .first()
        )
        if taken is not None:
            raise TournamentError(
                _("%(seat)s is taken by %(name)s now; %(moved)s cannot go back to it.")
                % {
                    "seat": _seat_label(from_table, from_seat),
                    "name": taken.player.name,
                    "moved": entry.player.name,
                }
            )
    night_news.night_tell_moves([(entry, table, seat) for entry, table, seat, _ in back])
    Entry.objects.filter(pk__in=moving).update(table_number=None, seat_number=None)
    for entry, from_table, from_seat, state in back:
        entry.state = state
        entry.table_number = from_table
        entry.seat_number = from_seat
        entry.save(update_fields=["state", "table_number", "seat_number"])

    for before in data.get("tables_before", []):
        TournamentTable.objects.filter(tournament=tournament, number=before["number"]).update(
            button=before["button"],
            button_set_at=parse_datetime(before["button_set_at"])
            if before["button_set_at"]
            else None,
            seats=before["seats"],
            broken_at=parse_datetime(before["broken_at"]) if before["broken_at"] else None,
        )
    created = data.get("tables_created", [])
    if created:
        still = Entry.objects.filter(
            tournament=tournament, state=EntryState.PLAYING, table_number__in=created
        ).first()
        if still is not None:
            raise TournamentError(
                _("Table %(number)s has players now and cannot be taken away.")
                % {"number": still.table_number}
            )
        TournamentTable.objects.filter(tournament=tournament, number__in=created).delete()


for _kind in (ActionKind.SEAT, ActionKind.MOVE, ActionKind.BUTTON, ActionKind.BREAK_TABLE):
    undo.register(_kind)(_restore)
