"""Seat draws, late seats, balancing and breaking tables, as the 2024 TDA rules have them.

Pure functions over plain data: a table is a `TableView` (its number, a map from each seat
number to the player sitting there or None, and where the next hand's button and blinds
are). Nothing here touches the database or mutates what it is given; every function answers
with where players go (`SeatAt`, `LateSeat`, `Move`) and the tournament services carry that
out. Randomness comes from `rng`, a `secrets.SystemRandom` (the operating system's CSPRNG) by
default; tests pass `random.Random(seed)`.

Seats run clockwise in increasing number and wrap from the highest back to seat 1.

>>> import random
>>> draw = draw_seats([101, 102, 103, 104, 105], seats_per_table=3, rng=random.Random(7))
>>> sorted(Counter(at.table for at in draw.values()).items())
[(1, 3), (2, 2)]
>>> table = TableView(1, {1: 11, 2: None, 3: 13, 4: 14, 5: None, 6: 16},
...                   button=1, small_blind=3, big_blind_next=4)
>>> short = TableView(2, {1: 21, 2: None, 3: 23, 4: None, 5: None, 6: None},
...                   button=1, small_blind=3, big_blind_next=1)
>>> balance_moves([table, short], threshold=1)
[Move(player=14, from_table=1, from_seat=4, to_table=2, to_seat=4, must_wait=False)]
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

PlayerId = int
"""Whatever the caller uses to name a player in the tournament (an entry's id, say)."""


class SeatingError(ValueError):
    """Tables, seats or players that cannot be seated as asked.

    >>> tables_needed(10, seats_per_table=1)
    Traceback (most recent call last):
    ...
    tournaments.seat_rules.SeatingError: a table needs at least 2 seats, not 1
    """


class SeatAt(NamedTuple):
    """A table and a seat at it."""

    table: int
    seat: int


class LateSeat(NamedTuple):
    """Where a late entrant sits, and whether they wait for the button to pass (TDA 8, 10)."""

    table: int
    seat: int
    must_wait: bool


@dataclass(frozen=True, slots=True)
class Move:
    """One player's move: from table and seat to table and seat.

    `must_wait` says the new seat is between the small blind and the button of the next hand
    there, where TDA 10 lets nobody be dealt in: the player sits out until the button passes.
    """

    player: PlayerId
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    must_wait: bool = False


@dataclass(frozen=True, slots=True)
class TableView:
    """One table as the seating rules see it.

    `seats` maps every seat number at the table to the player in it, or None when it is open.
    `button`, `small_blind` and `big_blind_next` are the seats of the next hand to be dealt
    there (the one a newcomer would be dealt into; with a dead button the button may be on an
    open seat and `small_blind` may be None for a dead small blind). All three are None at a
    table that has not dealt yet, where every seat is as good as another.
    """

    number: int
    seats: Mapping[int, PlayerId | None]
    button: int | None = None
    small_blind: int | None = None
    big_blind_next: int | None = None

    @property
    def players(self) -> int:
        """How many players sit at the table."""
        return sum(1 for player in self.seats.values() if player is not None)

    @property
    def open_seats(self) -> list[int]:
        """The open seats, in seat order."""
        return sorted(seat for seat, player in self.seats.items() if player is None)

    def must_wait(self, seat: int) -> bool:
        """Whether a newcomer in `seat` waits for the button to pass (TDA 8, 10).

        Nobody is dealt in between the small blind and the button: from the button's seat
        (open, under a dead button) clockwise up to the small blind. With a dead small blind
        the zone runs to the big blind, since the newcomer would sit where the small blind
        would have been.

        >>> t = TableView(1, dict.fromkeys(range(1, 10)), button=5, small_blind=8)
        >>> [s for s in range(1, 10) if t.must_wait(s)]
        [5, 6, 7]
        """
        end = self.small_blind if self.small_blind is not None else self.big_blind_next
        if self.button is None or end is None:
            return False
        return _clockwise_distance(self.button, seat) < _clockwise_distance(self.button, end)


def _clockwise_distance(start: int, seat: int, size: int = 1 << 16) -> int:
    """How many seats clockwise from `start` to `seat` (0 for the same seat).

    Seat numbers wrap, so the distance only needs to be consistent among one table's seats:
    any modulus larger than the highest seat number gives the same order.
    """
    return (seat - start) % size


def _rng(rng: random.Random | None) -> random.Random:
    return secrets.SystemRandom() if rng is None else rng


def _check_seats_per_table(seats_per_table: int) -> None:
    if isinstance(seats_per_table, bool) or not isinstance(seats_per_table, int):
        raise SeatingError(
            _("seats per table must be a whole number, not %(seats)s")
            % {"seats": repr(seats_per_table)}
        )
    if seats_per_table < 2:
        raise SeatingError(
            _("a table needs at least 2 seats, not %(seats)s") % {"seats": seats_per_table}
        )


def _check_players(players: Sequence[PlayerId]) -> None:
    seen: set[PlayerId] = set()
    for player in players:
        if player in seen:
            raise SeatingError(_("player %(player)s is listed twice") % {"player": player})
        seen.add(player)


def _check_tables(tables: Sequence[TableView]) -> None:
    numbers: set[int] = set()
    seated: set[PlayerId] = set()
    for table in tables:
        if table.number in numbers:
            raise SeatingError(_("table %(table)s is listed twice") % {"table": table.number})
        numbers.add(table.number)
        if not table.seats:
            raise SeatingError(_("table %(table)s has no seats") % {"table": table.number})
        for seat, player in table.seats.items():
            if isinstance(seat, bool) or not isinstance(seat, int) or seat < 1:
                raise SeatingError(
                    _("table %(table)s: %(seat)s is not a seat number")
                    % {"table": table.number, "seat": repr(seat)}
                )
            if player is None:
                continue
            if player in seated:
                raise SeatingError(_("player %(player)s is seated twice") % {"player": player})
            seated.add(player)
        for name, position in (
            (gettext_noop("button"), table.button),
            (gettext_noop("small blind"), table.small_blind),
            (gettext_noop("big blind"), table.big_blind_next),
        ):
            if position is not None and position not in table.seats:
                raise SeatingError(
                    _("table %(table)s has no seat %(seat)s for the %(name)s")
                    % {"table": table.number, "seat": position, "name": _(name)}
                )


def tables_needed(players: int, seats_per_table: int) -> int:
    """How many tables seat `players` with at most `seats_per_table` at each.

    >>> tables_needed(20, seats_per_table=9)
    3
    >>> tables_needed(18, seats_per_table=9)
    2
    """
    _check_seats_per_table(seats_per_table)
    if isinstance(players, bool) or not isinstance(players, int) or players < 0:
        raise SeatingError(_("cannot seat %(players)s players") % {"players": repr(players)})
    return -(-players // seats_per_table)


def table_sizes(players: int, seats_per_table: int) -> list[int]:
    """How many players each table starts with: as even as can be, lower numbers fuller.

    The shorter tables are the highest-numbered ones, which break first (`should_break`).

    >>> table_sizes(20, seats_per_table=9)
    [7, 7, 6]
    >>> table_sizes(27, seats_per_table=9)
    [9, 9, 9]
    """
    count = tables_needed(players, seats_per_table)
    if count == 0:
        return []
    base, extra = divmod(players, count)
    return [base + 1 if number < extra else base for number in range(count)]


def draw_seats(
    players: Sequence[PlayerId], seats_per_table: int, rng: random.Random | None = None
) -> dict[PlayerId, SeatAt]:
    """The random draw for the whole field once registration closes or the director starts.

    TDA 7: seats are assigned at random. Tables are numbered from 1 and filled as evenly as
    possible (`table_sizes`); at a table that is not full, which seats stay open is drawn too.
    Every player is equally likely to land in any seat.

    >>> draw = draw_seats(list(range(20)), seats_per_table=9, rng=random.Random(1))
    >>> sorted(Counter(at.table for at in draw.values()).values(), reverse=True)
    [7, 7, 6]
    """
    _check_seats_per_table(seats_per_table)
    _check_players(players)
    pool: list[SeatAt] = []
    rng = _rng(rng)
    for number, size in enumerate(table_sizes(len(players), seats_per_table), start=1):
        seats = rng.sample(range(1, seats_per_table + 1), size)
        pool.extend(SeatAt(number, seat) for seat in seats)
    rng.shuffle(pool)
    return dict(zip(players, pool, strict=True))


def draw_late_seat(tables: Sequence[TableView], rng: random.Random | None = None) -> LateSeat:
    """A seat for a late entrant, re-entry or alternate, drawn at random (TDA 8).

    The pool is the open seats of the tables with the fewest players, so a newcomer keeps the
    tables as even as they were and never sets off a balancing move. The seat is drawn from
    the pool as it is; if it falls between the small blind and the button of the next hand
    there, `must_wait` says the player waits for the button to pass (TDA 8, 10).

    >>> t1 = TableView(1, {1: 11, 2: 12, 3: None}, button=1, small_blind=2, big_blind_next=1)
    >>> t2 = TableView(2, {1: 21, 2: None, 3: None}, button=1, small_blind=1, big_blind_next=1)
    >>> draw_late_seat([t1, t2], rng=random.Random(3)).table
    2
    """
    _check_tables(tables)
    open_tables = [table for table in tables if table.open_seats]
    if not open_tables:
        raise SeatingError(_("every seat is taken: open another table for late entrants"))
    fewest = min(table.players for table in open_tables)
    pool = [
        (table, seat)
        for table in open_tables
        if table.players == fewest
        for seat in table.open_seats
    ]
    table, seat = _rng(rng).choice(pool)
    return LateSeat(table.number, seat, table.must_wait(seat))


class _Table:
    """A working copy of a `TableView` that moves can be played on without touching it."""

    def __init__(self, view: TableView) -> None:
        self.view = view
        self.number = view.number
        self.seats: dict[int, PlayerId | None] = dict(view.seats)
        self.order = sorted(self.seats)
        # The seat the big blind is due at: a player leaving it passes it to the next one.
        self.due = view.big_blind_next

    @property
    def players(self) -> int:
        return sum(1 for player in self.seats.values() if player is not None)

    def open_seats(self) -> list[int]:
        return [seat for seat in self.order if self.seats[seat] is None]

    def _clockwise_from(self, start: int | None, inclusive: bool) -> list[int]:
        """Every seat clockwise from `start` (seat order if None), once round the table."""
        if start is None:
            return list(self.order)
        split = sum(1 for seat in self.order if seat < start or (seat == start and not inclusive))
        return self.order[split:] + self.order[:split]

    def next_to_move(self) -> int:
        """The seat of the player due for the big blind next (TDA 11A moves them).

        Without a known big blind (no hand dealt yet) the first player after the small blind,
        else after the button, else in seat order: a fixed rule, since any is as good.
        """
        start: int | None = self.view.button
        inclusive = False
        if self.due is not None:
            start, inclusive = self.due, True
        elif self.view.small_blind is not None:
            start = self.view.small_blind
        return next(s for s in self._clockwise_from(start, inclusive) if self.seats[s] is not None)

    def worst_open_seat(self) -> int:
        """The open seat that will pay the big blind soonest (TDA 11A).

        The big blind goes round seat by seat, so after the small blind the first open seat
        clockwise is the next big blind, even if the player who moves there just had it.
        Seats between the small blind and the button, where a newcomer would have to wait,
        are taken only when nothing else is open.
        """
        anchor = self.view.small_blind
        if anchor is None:
            # A dead small blind: the seats up to the big blind wait, so start after it.
            anchor = self.view.big_blind_next
        if anchor is None:
            anchor = self.view.button
        candidates = self._clockwise_from(anchor, inclusive=False)
        return min(
            (seat for seat in candidates if self.seats[seat] is None),
            key=lambda seat: (self.view.must_wait(seat), candidates.index(seat)),
        )

    def leave(self, seat: int) -> PlayerId:
        player = self.seats[seat]
        assert player is not None
        self.seats[seat] = None
        return player

    def sit(self, seat: int, player: PlayerId) -> None:
        self.seats[seat] = player
        # A newcomer between the small blind and the player due the big blind takes it first.
        if self.due is not None and self.view.small_blind is not None:
            if _clockwise_distance(self.view.small_blind, seat) < _clockwise_distance(
                self.view.small_blind, self.due
            ):
                self.due = seat


def _working(tables: Iterable[TableView]) -> list[_Table]:
    return [_Table(table) for table in tables]


def balance_moves(tables: Sequence[TableView], threshold: int = 2) -> list[Move]:
    """The moves that bring the tables within `threshold` players of each other (TDA 11A).

    While the fullest and the shortest table differ by more than `threshold` (2, "within two",
    for most of the event; 1 near the end), one player moves from the fullest table (the
    lowest-numbered of equals, a fixed procedure as TDA 11A asks) to the shortest (the
    lowest-numbered of equals): the player due for the big blind next there, to the worst
    position at the short table, the seat that will pay the big blind next (never the small
    blind; it may be the big blind, even twice in a row). Several moves from one table take
    the players due for the big blind in turn. Nothing moves if the tables are within reach.

    >>> full = TableView(1, {1: 11, 2: 12, 3: 13, 4: 14, 5: 15, 6: 16},
    ...                  button=6, small_blind=1, big_blind_next=2)
    >>> short = TableView(2, {1: 21, 2: None, 3: None, 4: 24, 5: None, 6: None},
    ...                   button=1, small_blind=4, big_blind_next=1)
    >>> [(m.player, m.to_seat) for m in balance_moves([full, short], threshold=2)]
    [(12, 5)]
    """
    _check_tables(tables)
    if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 1:
        raise SeatingError(
            _("tables can be balanced within 1 player or more, not %(threshold)s")
            % {"threshold": repr(threshold)}
        )
    working = _working(tables)
    moves: list[Move] = []
    while len(working) > 1:
        fullest = min(working, key=lambda t: (-t.players, t.number))
        receiving = [t for t in working if t is not fullest and t.open_seats()]
        if not receiving:
            break
        shortest = min(receiving, key=lambda t: (t.players, t.number))
        if fullest.players - min(t.players for t in working) <= threshold:
            break
        if fullest.players - shortest.players < 2:
            break  # the shortest table has no open seat; a move would not even the field
        from_seat = fullest.next_to_move()
        player = fullest.leave(from_seat)
        fullest.due = from_seat
        to_seat = shortest.worst_open_seat()
        shortest.sit(to_seat, player)
        moves.append(
            Move(
                player,
                fullest.number,
                from_seat,
                shortest.number,
                to_seat,
                shortest.view.must_wait(to_seat),
            )
        )
    return moves


def break_table(
    tables: Sequence[TableView], table_number: int, rng: random.Random | None = None
) -> list[Move]:
    """Moves for every player of a table being broken: each draws a new seat (TDA 10).

    The open seats the players draw from are chosen so the remaining tables stay as even as
    they can: each arrival in turn goes to the table with the fewest players (the
    lowest-numbered of equals), and which of its open seats is drawn at random, as is which
    player gets which of the seats. A player may land on the big blind, small blind or button;
    a seat between the small blind and the button comes with `must_wait` (TDA 10). Moves are
    in the broken table's seat order.

    >>> t1 = TableView(1, {1: 11, 2: 12, 3: None, 4: None})
    >>> t2 = TableView(2, {1: 21, 2: None, 3: 23, 4: None})
    >>> t3 = TableView(3, {1: None, 2: 32, 3: None, 4: None})
    >>> [(m.player, m.to_table) for m in break_table([t1, t2, t3], 3, random.Random(5))]
    [(32, 1)]
    """
    _check_tables(tables)
    broken = next((t for t in tables if t.number == table_number), None)
    if broken is None:
        raise SeatingError(_("there is no table %(table)s to break") % {"table": table_number})
    working = _working(t for t in tables if t is not broken)
    leaving = [
        (seat, player) for seat, player in sorted(broken.seats.items()) if player is not None
    ]
    room = sum(len(t.open_seats()) for t in working)
    if len(leaving) > room:
        raise SeatingError(
            _(
                "table %(table)s's %(count)s players do not fit in the %(room)s open seats of "
                "the other tables"
            )
            % {"table": table_number, "count": len(leaving), "room": room}
        )
    arrivals: Counter[int] = Counter()
    by_number = {t.number: t for t in working}
    for _leaving in leaving:
        target = min(
            (t for t in working if len(t.open_seats()) > arrivals[t.number]),
            key=lambda t: (t.players + arrivals[t.number], t.number),
        )
        arrivals[target.number] += 1
    rng = _rng(rng)
    pool = [
        SeatAt(number, seat)
        for number, count in sorted(arrivals.items())
        for seat in rng.sample(by_number[number].open_seats(), count)
    ]
    rng.shuffle(pool)
    return [
        Move(
            player,
            table_number,
            seat,
            at.table,
            at.seat,
            by_number[at.table].view.must_wait(at.seat),
        )
        for (seat, player), at in zip(leaving, pool, strict=True)
    ]


def should_break(tables: Sequence[TableView], seats_per_table: int) -> int | None:
    """The table to break now, if any: the highest-numbered, once its players fit elsewhere.

    Tables break in a predetermined order, the highest number first, as soon as the open
    seats at the other tables (counting at most `seats_per_table` players a table) can hold
    its players. When `final_table_due` says the field fits at the final table, redraw it with
    `final_table_draw` instead of breaking table by table.

    >>> t1 = TableView(1, {s: 10 + s if s <= 7 else None for s in range(1, 10)})
    >>> t2 = TableView(2, {s: 20 + s if s <= 7 else None for s in range(1, 10)})
    >>> t3 = TableView(3, {s: 30 + s if s <= 4 else None for s in range(1, 10)})
    >>> should_break([t1, t2, t3], seats_per_table=9)
    3
    >>> should_break([t1, t2], seats_per_table=9) is None
    True
    """
    _check_tables(tables)
    _check_seats_per_table(seats_per_table)
    if len(tables) < 2:
        return None
    last = max(tables, key=lambda t: t.number)
    room = sum(
        max(0, min(seats_per_table, len(t.seats)) - t.players) for t in tables if t is not last
    )
    return last.number if last.players <= room else None


def final_table_size(seats_per_table: int) -> int:
    """How many players make the final table (docs/rules.md, TDA RP-9).

    Nine- and eight-handed events combine two tables of 5 into a nine-handed final table,
    seven- and six-handed ones two tables of 4 into a seven-handed one; other sizes play the
    final table as they played every table.

    >>> [final_table_size(n) for n in (10, 9, 8, 7, 6, 5)]
    [10, 9, 9, 7, 7, 5]
    """
    _check_seats_per_table(seats_per_table)
    if seats_per_table in (8, 9):
        return 9
    if seats_per_table in (6, 7):
        return 7
    return seats_per_table


def final_table_due(tables: Sequence[TableView], seats_per_table: int) -> bool:
    """Whether the players left, on two tables or more, fit at the final table (RP-9).

    >>> t1 = TableView(1, {s: 10 + s if s <= 5 else None for s in range(1, 9)})
    >>> t2 = TableView(2, {s: 20 + s if s <= 4 else None for s in range(1, 9)})
    >>> final_table_due([t1, t2], seats_per_table=8)
    True
    """
    _check_tables(tables)
    left = sum(t.players for t in tables)
    return len(tables) > 1 and left <= final_table_size(seats_per_table)


def final_table_draw(
    players: Sequence[PlayerId], seats: int, rng: random.Random | None = None
) -> dict[PlayerId, int]:
    """The final table's redraw (RP-9): every player left draws a seat 1..`seats` at random.

    With fewer players than seats, which seats stay open is drawn too.

    >>> sorted(final_table_draw([1, 2, 3, 4, 5, 6, 7, 8, 9], 9, random.Random(2)).values())
    [1, 2, 3, 4, 5, 6, 7, 8, 9]
    """
    _check_seats_per_table(seats)
    _check_players(players)
    if len(players) > seats:
        raise SeatingError(
            _("%(count)s players do not fit at a final table of %(seats)s seats")
            % {"count": len(players), "seats": seats}
        )
    drawn = _rng(rng).sample(range(1, seats + 1), len(players))
    return dict(zip(players, drawn, strict=True))
