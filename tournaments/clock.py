"""The blind clock as arithmetic: what every screen shows, from the stored clock and ``now``.

The clock is three stored values (``Tournament.level_index``, ``level_ends_at``,
``paused_remaining``) and the blind structure's rows (levels and breaks, in ``position`` order).
Every screen, the JSON for overlays, the sockets and the services derive what they need
here, so two screens never disagree and nothing drifts: there is no counter anywhere.

A running clock whose stored level has ended is *projected*: the rows that followed are
played from the stored end time onwards, so a screen shows the right level even while the
task that stores the change is a moment late (or was lost; the sweep stores it soon after).
The services store the same projection, so a late advance lands exactly where the screens
already were. The screens get it as data (``ClockState.as_dict``: the row in play, the next
ones and when each starts) and only count down to those instants: nothing is played forward
anywhere but here.

After the blind structure's last row the levels go on (``row_at``): each doubles the one before
(blinds, ante, limit bets) and lasts as long as the blind structure's last level, so a tournament
always ends, even heads-up between two absent players whose stacks would otherwise only
swap the blinds for ever. Only a blind structure with no level at all stays on its last row
("overtime").

Level numbers never count breaks. A break belongs to the level it follows for the rules that
say "until level N" (late registration, rebuys, re-entry): ``current_level_number``.

A "break now" may keep the rest of the level in play for after the break: the break is
inserted before the level's row, and the tournament remembers that row and the time it had
left (``resume_index``, ``resume_remaining``). ``tonight`` gives the rows as they are played
then: that level lasts the time it had left, and the break before it belongs to it (a break
in level 5 counts as level 5 for the rules). Every reading here starts from ``tonight``.

No Django here: rows and the clock fields are read by attribute, so model instances work as
they are and tests can pass plain objects.

>>> from datetime import datetime, timedelta, timezone
>>> from types import SimpleNamespace as Row
>>> rows = rows_from([
...     Row(kind="level", minutes=20, small_blind=25, big_blind=50),
...     Row(kind="break", minutes=10),
...     Row(kind="level", minutes=20, small_blind=50, big_blind=100),
... ])
>>> start = datetime(2026, 5, 1, 19, 0, tzinfo=timezone.utc)
>>> fields = Row(level_index=0, level_ends_at=start + timedelta(minutes=20),
...              paused_remaining=None)
>>> state = clock_state(fields, rows, start + timedelta(minutes=25))
>>> state.current.is_break, state.remaining
(True, datetime.timedelta(seconds=300))
>>> current_level_number(fields, rows, start + timedelta(minutes=25))
1
>>> state.next.number, state.next.big_blind
(2, 100)
>>> [(c.row.number, c.row.big_blind, f"{c.starts_at:%H:%M}") for c in state.coming]
[(2, 100, '19:30'), (3, 200, '19:50'), (4, 400, '20:10')]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Protocol

BREAK = "break"
ZERO = timedelta(0)


class ClockFields(Protocol):
    """The stored clock (``Tournament`` has these fields)."""

    @property
    def level_index(self) -> int: ...

    @property
    def level_ends_at(self) -> datetime | None: ...

    @property
    def paused_remaining(self) -> timedelta | None: ...


@dataclass(frozen=True)
class ClockRow:
    """One row of the blind structure as the clock sees it.

    ``number`` is the level's number (breaks not counted), None for a break;
    ``levels_before`` is how many levels came before the row (a break's "after level N").
    ``length`` is how long the row lasts tonight when that is not its minutes (the rest of a
    level a break interrupted); ``interrupts``, on that break, the number of the level it
    interrupts (``tonight``).
    """

    index: int
    is_break: bool
    number: int | None
    levels_before: int
    minutes: int
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    ante_kind: str = "none"
    small_bet: int | None = None
    big_bet: int | None = None
    colour_up: tuple[int, ...] = ()
    length: timedelta | None = None
    interrupts: int | None = None

    @property
    def duration(self) -> timedelta:
        return self.length if self.length is not None else timedelta(minutes=self.minutes)

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "is_break": self.is_break,
            "number": self.number,
            "levels_before": self.levels_before,
            "minutes": self.minutes,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
            "ante_kind": self.ante_kind,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
            # How long it lasts (its minutes, or the rest of a level resumed after a break).
            "length_ms": _duration_ms(self.duration),
            "interrupts": self.interrupts,
        }


def rows_from(levels: Iterable[Any]) -> tuple[ClockRow, ...]:
    """The clock's rows from blind structure rows already in ``position`` order.

    Each row needs ``kind`` ("level" or "break") and ``minutes``; the blinds, ante, limit
    bets and colour-up are read when present.
    """
    rows: list[ClockRow] = []
    levels_before = 0
    for index, level in enumerate(levels):
        is_break = getattr(level, "kind", "level") == BREAK
        if not is_break:
            levels_before += 1
        rows.append(
            ClockRow(
                index=index,
                is_break=is_break,
                number=None if is_break else levels_before,
                levels_before=levels_before - (0 if is_break else 1),
                minutes=int(level.minutes),
                small_blind=int(getattr(level, "small_blind", 0) or 0),
                big_blind=int(getattr(level, "big_blind", 0) or 0),
                ante=int(getattr(level, "ante", 0) or 0),
                ante_kind=str(getattr(level, "ante_kind", "none") or "none"),
                small_bet=getattr(level, "small_bet", None),
                big_bet=getattr(level, "big_bet", None),
                colour_up=tuple(int(c) for c in (getattr(level, "colour_up", None) or ())),
            )
        )
    return tuple(rows)


# The extra levels stop doubling before an amount passes this: the live tables keep chips
# in 32-bit columns, and a clock forgotten for days would otherwise overflow them.
MOST_CHIPS = 1_000_000_000


def _last_level(rows: Sequence[ClockRow]) -> ClockRow | None:
    return next((row for row in reversed(rows) if not row.is_break), None)


def row_at(rows: Sequence[ClockRow], index: int) -> ClockRow | None:
    """The row at ``index``: the blind structure's own, or past its end an extra level.

    Extra level k (k = 1, 2 ...) after the last level doubles it k times: the blinds, the
    ante (so it stays in proportion) and the limit bets, each still a multiple of every chip
    that made the last level's amount, so no rounding is needed. It lasts as long as the
    last level, and has no colour-up. None for a negative index, and past the end of a
    blind structure with no level to double.

    >>> from types import SimpleNamespace as Row
    >>> rows = rows_from([Row(kind="level", minutes=15, small_blind=100, big_blind=200,
    ...                       ante=25, ante_kind="each")])
    >>> extra = row_at(rows, 2)
    >>> extra.number, extra.small_blind, extra.big_blind, extra.ante, extra.minutes
    (3, 400, 800, 100, 15)
    """
    if 0 <= index < len(rows):
        return rows[index]
    base = _last_level(rows)
    if index < 0 or base is None or base.number is None:
        return None
    number = base.number + index - (len(rows) - 1)
    biggest = max(
        base.small_blind, base.big_blind, base.ante, base.small_bet or 0, base.big_bet or 0
    )
    doublings = number - base.number
    while doublings and biggest << doublings > MOST_CHIPS:
        doublings -= 1

    def doubled(amount: int | None) -> int | None:
        return None if amount is None else amount << doublings

    return replace(
        base,
        index=index,
        number=number,
        levels_before=number - 1,
        small_blind=base.small_blind << doublings,
        big_blind=base.big_blind << doublings,
        ante=base.ante << doublings,
        small_bet=doubled(base.small_bet),
        big_bet=doubled(base.big_bet),
        colour_up=(),
        length=None,
    )


def tonight(fields: ClockFields, rows: Sequence[ClockRow]) -> tuple[ClockRow, ...]:
    """The rows as the tournament plays them: a level whose rest a break now kept (the
    tournament's ``resume_index`` and ``resume_remaining``) lasts the time it had left, and
    the break right before it is in that level (``ClockRow.interrupts``). Without a level
    kept, the rows as they are. Fields without these attributes (a test's plain object)
    keep none.

    >>> from types import SimpleNamespace as Row
    >>> rows = rows_from([Row(kind="break", minutes=10), Row(kind="level", minutes=20)])
    >>> fields = Row(resume_index=1, resume_remaining=timedelta(minutes=7, seconds=23))
    >>> [(row.duration, row.interrupts) for row in tonight(fields, rows)]
    [(datetime.timedelta(seconds=600), 1), (datetime.timedelta(seconds=443), None)]
    """
    rows = tuple(rows)
    index = getattr(fields, "resume_index", None)
    left = getattr(fields, "resume_remaining", None)
    if index is None or left is None or not 0 <= index < len(rows) or rows[index].is_break:
        return rows
    played = list(rows)
    level = played[index] = replace(rows[index], length=max(ZERO, left))
    if index > 0 and rows[index - 1].is_break:
        played[index - 1] = replace(rows[index - 1], interrupts=level.number)
    return tuple(played)


def _goes_on(rows: Sequence[ClockRow]) -> bool:
    # Whether levels follow the blind structure's last row (they do unless it has no level).
    return _last_level(rows) is not None


@dataclass(frozen=True)
class Position:
    """Where a clock is at ``now``: the row, when it ends (None unless running), time left."""

    index: int
    ends_at: datetime | None
    remaining: timedelta
    started: bool
    paused: bool
    overtime: bool


def _clamp(index: int, rows: Sequence[ClockRow]) -> int:
    # Past the last row are the extra levels (``row_at``); a blind structure without a level to
    # double has none, and an index past its end is its last row.
    if not rows:
        return 0
    return max(0, index if _goes_on(rows) else min(index, len(rows) - 1))


def position(fields: ClockFields, rows: Sequence[ClockRow], now: datetime) -> Position:
    """Project the stored clock to ``now``: the row in play and its time left.

    Paused: the stored row and time left. Not started (no end time, not paused): the stored
    row with its full time. Running: rows whose end has passed are played one after another
    from the stored end time, then the extra levels (``row_at``); only a blind structure with no
    level to double stays on its last row ("overtime").
    """
    rows = tonight(fields, rows)
    index = _clamp(fields.level_index, rows)
    if fields.paused_remaining is not None:
        return Position(index, None, max(ZERO, fields.paused_remaining), True, True, False)
    ends_at = fields.level_ends_at
    if ends_at is None:
        row = row_at(rows, index)
        return Position(index, None, row.duration if row else ZERO, False, False, False)
    while now >= ends_at:
        following = row_at(rows, index + 1)
        if following is None:
            break
        if following.index >= len(rows):
            # The extra levels all last as long: step over the whole ones at once, so a clock
            # read days later costs no more than one read now.
            steps = (now - ends_at) // following.duration + 1
            index += steps
            ends_at += steps * following.duration
            break
        index += 1
        ends_at += following.duration
    overtime = now >= ends_at
    return Position(index, ends_at, max(ZERO, ends_at - now), True, False, overtime)


# How many rows the screens list as coming up (the TV's "coming up" list).
COMING = 3


@dataclass(frozen=True)
class Coming:
    """A row after the one in play, and when it starts: ``starts_in`` from ``now`` (the
    clock resumed now, when it is paused or not started), ``starts_at`` while running."""

    row: ClockRow
    starts_in: timedelta
    starts_at: datetime | None

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.row.as_dict(),
            "starts_in_ms": _duration_ms(self.starts_in),
            "starts_at_ms": _ms(self.starts_at) if self.starts_at is not None else None,
        }


@dataclass(frozen=True)
class ClockState:
    """Everything a clock screen shows at one moment."""

    now: datetime
    started: bool
    paused: bool
    # The row in play; ``stored_index`` is the stored one (behind it while a change is due).
    index: int
    stored_index: int
    current: ClockRow | None
    next: ClockRow | None
    # Time left in the row; its end while running (None when paused or not started).
    remaining: timedelta
    ends_at: datetime | None
    # The last row's time has run out and no level follows it (a blind structure with no level to
    # double): its blinds stay until the tournament ends.
    overtime: bool
    # No row follows (the extra levels always do, unless there is no level to double).
    is_last: bool
    # The number of the level in play (a break: the level it follows; 0 before level 1).
    level_number: int
    # The next break (None if no break follows) and the time until it starts.
    next_break: ClockRow | None
    next_break_in: timedelta | None
    # When the next break starts while running (None when paused, not started or no break).
    next_break_at: datetime | None
    # The next ``COMING`` rows (past the blind structure's end, its extra levels), each with its
    # start: a screen lists them as they are, so it never plays the blind structure itself.
    coming: tuple[Coming, ...]
    # Time until the blind structure's last row's time runs out (in the extra levels past it: the
    # level in play's), and when that is if nothing changes (the clock resumed now, when it
    # is paused or not started).
    time_to_end: timedelta
    finishes_at: datetime

    @property
    def on_break(self) -> bool:
        return self.current is not None and self.current.is_break

    @property
    def chip_race(self) -> tuple[int, ...]:
        """Denominations raced off at this break (TDA 24), or at the next row if it is a
        colour-up break: screens announce it while it is coming."""
        return chip_race(self.current, self.next)

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form for sockets and overlays: instants in epoch milliseconds.

        ``now_ms`` is the server's clock, so a client counts down from ``ends_at_ms`` (and
        each ``starts_at_ms``) against its own clock corrected by the difference, and shows
        the rows as sent: the level in play, ``next``, ``next_break`` and ``coming``. When
        the countdown reaches zero the server stores the change (the level-change task, or
        the sweep) and sends the next state; meanwhile the TV moves through the rows
        ``ahead`` its page was sent, else it shows 0:00 and waits. Only this module plays
        the blind structure forward. The blind structure itself is not sent: no screen lists it (the
        console's forms read it on the server), and a socket sends this on every change.
        """
        return {
            "now_ms": _ms(self.now),
            "started": self.started,
            "paused": self.paused,
            "index": self.index,
            "stored_index": self.stored_index,
            "level_number": self.level_number,
            "on_break": self.on_break,
            "remaining_ms": _duration_ms(self.remaining),
            "ends_at_ms": _ms(self.ends_at) if self.ends_at is not None else None,
            "overtime": self.overtime,
            "is_last": self.is_last,
            "current": self.current.as_dict() if self.current is not None else None,
            "next": self.next.as_dict() if self.next is not None else None,
            "next_break": self.next_break.as_dict() if self.next_break is not None else None,
            "next_break_in_ms": (
                _duration_ms(self.next_break_in) if self.next_break_in is not None else None
            ),
            "next_break_at_ms": (
                _ms(self.next_break_at) if self.next_break_at is not None else None
            ),
            "coming": [coming.as_dict() for coming in self.coming],
            "time_to_end_ms": _duration_ms(self.time_to_end),
            "finishes_at_ms": _ms(self.finishes_at),
            "chip_race": list(self.chip_race),
        }


def chip_race(current: ClockRow | None, following: ClockRow | None) -> tuple[int, ...]:
    """The chips raced off at ``current`` if it is a colour-up break, else at ``following``
    if that one is (``ClockState.chip_race``)."""
    if current is not None and current.is_break and current.colour_up:
        return current.colour_up
    if following is not None and following.is_break:
        return following.colour_up
    return ()


# How far ahead of the row in play a screen is sent the rows to come (``ahead``), and at
# most how many.
AHEAD = timedelta(hours=12)
AHEAD_ROWS = 60


@dataclass(frozen=True)
class Ahead:
    """A row a running clock comes to after the one in play, when it starts, and what a
    screen shows with it: the chips raced off then (``chip_race``), and whether any row
    follows it (``is_last``: none, when the blind structure has no level to double)."""

    row: ClockRow
    starts_at: datetime
    chip_race: tuple[int, ...]
    is_last: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.row.as_dict(),
            "starts_at_ms": _ms(self.starts_at),
            "chip_race": list(self.chip_race),
            "is_last": self.is_last,
        }


def ahead(fields: ClockFields, rows: Sequence[ClockRow], now: datetime) -> tuple[Ahead, ...]:
    """The rows a running clock plays after the one in play, each with its start, up to
    ``AHEAD`` from ``now`` (at most ``AHEAD_ROWS``; the first one always, and the one after
    the last, whose start ends it); none while the clock is paused or not started.

    The projection of ``position``, written out in advance: a screen that has lost its
    server (a TV reloaded from the service worker's copy without a network) moves through
    these rows itself when their time comes, instead of stopping at 0:00 on the row that
    was in play when the page was made.

    >>> from types import SimpleNamespace as Row
    >>> rows = rows_from([Row(kind="level", minutes=20, small_blind=25, big_blind=50),
    ...                   Row(kind="break", minutes=10, colour_up=[25])])
    >>> start = datetime(2026, 5, 1, 19, 0)
    >>> fields = Row(level_index=0, level_ends_at=start + timedelta(minutes=20),
    ...              paused_remaining=None)
    >>> [(a.row.number, f"{a.starts_at:%H:%M}", a.chip_race) for a in ahead(fields, rows, start)][:3]
    [(None, '19:20', (25,)), (2, '19:30', ()), (3, '19:50', ())]
    """
    rows = tonight(fields, rows)
    at = position(fields, rows, now)
    if at.ends_at is None:
        return ()
    found: list[Ahead] = []
    starts_at = at.ends_at
    row = row_at(rows, at.index + 1)
    while row is not None and len(found) < AHEAD_ROWS:
        following = row_at(rows, row.index + 1)
        found.append(Ahead(row, starts_at, chip_race(row, following), following is None))
        if starts_at - now > AHEAD:
            break
        starts_at += row.duration
        row = following
    return tuple(found)


def _ms(moment: datetime) -> int:
    return round(moment.timestamp() * 1000)


def _duration_ms(span: timedelta) -> int:
    return round(span.total_seconds() * 1000)


def clock_state(fields: ClockFields, rows: Sequence[ClockRow], now: datetime) -> ClockState:
    """What a screen shows at ``now``: see ``ClockState``."""
    rows = tonight(fields, rows)
    at = position(fields, rows, now)
    current = row_at(rows, at.index)
    # The blind structure's rows still to come (none in the extra levels: they have no break).
    following = rows[at.index + 1 :]
    next_break = None
    next_break_in = None
    until = at.remaining
    for row in following:
        if row.is_break:
            next_break, next_break_in = row, until
            break
        until += row.duration
    time_to_end = at.remaining + sum((row.duration for row in following), ZERO)
    next_row = row_at(rows, at.index + 1)
    coming: list[Coming] = []
    starts_in = at.remaining
    later = next_row
    while later is not None:
        coming.append(Coming(later, starts_in, _started(at.ends_at, starts_in - at.remaining)))
        if len(coming) == COMING:
            break
        starts_in += later.duration
        later = row_at(rows, later.index + 1)
    if at.overtime and at.ends_at is not None:
        finishes_at = at.ends_at
    else:
        finishes_at = now + time_to_end
    return ClockState(
        now=now,
        started=at.started,
        paused=at.paused,
        index=at.index,
        stored_index=_clamp(fields.level_index, rows),
        current=current,
        next=next_row,
        remaining=at.remaining,
        ends_at=at.ends_at,
        overtime=at.overtime,
        is_last=bool(rows) and next_row is None,
        level_number=_level_number(current),
        next_break=next_break,
        next_break_in=next_break_in,
        next_break_at=(
            _started(at.ends_at, next_break_in - at.remaining)
            if next_break_in is not None
            else None
        ),
        coming=tuple(coming),
        time_to_end=time_to_end,
        finishes_at=finishes_at,
    )


def _started(ends_at: datetime | None, after: timedelta) -> datetime | None:
    # A row's start ``after`` the end of the row in play; None unless the clock is running.
    return None if ends_at is None else ends_at + after


def _level_number(row: ClockRow | None) -> int:
    if row is None:
        return 0
    if row.number is not None:
        return row.number
    return row.interrupts if row.interrupts is not None else row.levels_before


def current_level_number(fields: ClockFields, rows: Sequence[ClockRow], now: datetime) -> int:
    """The number of the level in play at ``now`` (breaks not counted).

    During a break, the level it follows: a window "until level 6" stays open through the
    break after level 6 and closes when level 7 starts, the usual way a late registration
    period is announced; a break in a level (a break now that kept the level's rest for
    after it, ``tonight``) is that level. 0 for a break before the first level; before the
    start, the first row's number.
    """
    rows = tonight(fields, rows)
    if not rows:
        return 0
    return _level_number(row_at(rows, position(fields, rows, now).index))


def window_closes_at(
    fields: ClockFields, rows: Sequence[ClockRow], now: datetime, until: int
) -> datetime | None:
    """When a window "until level ``until``" (rebuys, say) closes as the clock runs: the
    start of the first row past it. ``now`` when it is closed already; None while the clock
    is paused or not started (its time does not pass), or when no row ever closes it.

    >>> from types import SimpleNamespace as Row
    >>> rows = rows_from([Row(kind="level", minutes=20), Row(kind="level", minutes=20),
    ...                   Row(kind="break", minutes=10), Row(kind="level", minutes=20)])
    >>> start = datetime(2026, 1, 1, 20, 0)
    >>> clock = Row(level_index=0, level_ends_at=start, paused_remaining=None)
    >>> f"{window_closes_at(clock, rows, start - timedelta(minutes=5), 2):%H:%M}"
    '20:30'
    """
    rows = tonight(fields, rows)
    at = position(fields, rows, now)
    if at.ends_at is None:
        return None
    if _level_number(row_at(rows, at.index)) > until:
        return now
    closes = at.ends_at
    index = at.index + 1
    while True:
        row = row_at(rows, index)
        if row is None:
            return None
        if _level_number(row) > until:
            return closes
        closes += row.duration
        index += 1
