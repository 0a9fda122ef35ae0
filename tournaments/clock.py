"""The blind clock as arithmetic: what every screen shows, from the stored clock and ``now``.

The clock is three stored values (``Tournament.level_index``, ``level_ends_at``,
``paused_remaining``) and the structure's rows (levels and breaks, in ``position`` order).
Every screen, the JSON for overlays, the sockets and the services derive what they need
here, so two screens never disagree and nothing drifts: there is no counter anywhere.

A running clock whose stored level has ended is *projected*: the rows that followed are
played from the stored end time onwards, so a screen shows the right level even while the
task that stores the change is a moment late (or was lost; the sweep stores it soon after).
The services store the same projection, so a late advance lands exactly where the screens
already were. After the last row the clock stays on the last level ("overtime").

Level numbers never count breaks. A break belongs to the level it follows for the rules that
say "until level N" (late registration, rebuys, re-entry): ``current_level_number``.

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
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
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
    """One row of the structure as the clock sees it.

    ``number`` is the level's number (breaks not counted), None for a break;
    ``levels_before`` is how many levels came before the row (a break's "after level N").
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

    @property
    def duration(self) -> timedelta:
        return timedelta(minutes=self.minutes)

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
            "colour_up": list(self.colour_up),
        }


def rows_from(levels: Iterable[Any]) -> tuple[ClockRow, ...]:
    """The clock's rows from structure rows already in ``position`` order.

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
    # A structure edited while its clock runs may have fewer rows than the stored index.
    return max(0, min(index, len(rows) - 1)) if rows else 0


def position(fields: ClockFields, rows: Sequence[ClockRow], now: datetime) -> Position:
    """Project the stored clock to ``now``: the row in play and its time left.

    Paused: the stored row and time left. Not started (no end time, not paused): the stored
    row with its full time. Running: rows whose end has passed are played one after another
    from the stored end time, up to the last row, which then stays ("overtime").
    """
    index = _clamp(fields.level_index, rows)
    if fields.paused_remaining is not None:
        return Position(index, None, max(ZERO, fields.paused_remaining), True, True, False)
    ends_at = fields.level_ends_at
    if ends_at is None:
        full = rows[index].duration if rows else ZERO
        return Position(index, None, full, False, False, False)
    while rows and now >= ends_at and index < len(rows) - 1:
        index += 1
        ends_at += rows[index].duration
    overtime = now >= ends_at
    return Position(index, ends_at, max(ZERO, ends_at - now), True, False, overtime)


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
    # The last row's time has run out: its blinds stay until the tournament ends.
    overtime: bool
    is_last: bool
    # The number of the level in play (a break: the level it follows; 0 before level 1).
    level_number: int
    # The next break (None if no break follows) and the time until it starts.
    next_break: ClockRow | None
    next_break_in: timedelta | None
    # Time until the last row's time runs out, and when that is if nothing changes (the
    # clock resumed now, when it is paused or not started).
    time_to_end: timedelta
    finishes_at: datetime
    rows: tuple[ClockRow, ...]

    @property
    def on_break(self) -> bool:
        return self.current is not None and self.current.is_break

    @property
    def chip_race(self) -> tuple[int, ...]:
        """Denominations raced off at this break (TDA 24), or at the next row if it is a
        colour-up break: screens announce it while it is coming."""
        if self.current is not None and self.current.is_break and self.current.colour_up:
            return self.current.colour_up
        if self.next is not None and self.next.is_break:
            return self.next.colour_up
        return ()

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form for sockets and overlays: instants in epoch milliseconds.

        ``now_ms`` is the server's clock, so a client counts down from ``ends_at_ms`` against
        its own clock corrected by the difference; ``rows`` lets it play the following rows
        itself while its socket is away.
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
            "time_to_end_ms": _duration_ms(self.time_to_end),
            "finishes_at_ms": _ms(self.finishes_at),
            "chip_race": list(self.chip_race),
            "rows": [row.as_dict() for row in self.rows],
        }


def _ms(moment: datetime) -> int:
    return round(moment.timestamp() * 1000)


def _duration_ms(span: timedelta) -> int:
    return round(span.total_seconds() * 1000)


def clock_state(fields: ClockFields, rows: Sequence[ClockRow], now: datetime) -> ClockState:
    """What a screen shows at ``now``: see ``ClockState``."""
    rows = tuple(rows)
    at = position(fields, rows, now)
    current = rows[at.index] if rows else None
    following = rows[at.index + 1 :] if rows else ()
    next_break = None
    next_break_in = None
    until = at.remaining
    for row in following:
        if row.is_break:
            next_break, next_break_in = row, until
            break
        until += row.duration
    time_to_end = at.remaining + sum((row.duration for row in following), ZERO)
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
        next=following[0] if following else None,
        remaining=at.remaining,
        ends_at=at.ends_at,
        overtime=at.overtime,
        is_last=bool(rows) and at.index == len(rows) - 1,
        level_number=_level_number(current),
        next_break=next_break,
        next_break_in=next_break_in,
        time_to_end=time_to_end,
        finishes_at=finishes_at,
        rows=rows,
    )


def _level_number(row: ClockRow | None) -> int:
    if row is None:
        return 0
    return row.number if row.number is not None else row.levels_before


def current_level_number(fields: ClockFields, rows: Sequence[ClockRow], now: datetime) -> int:
    """The number of the level in play at ``now`` (breaks not counted).

    During a break, the level it follows: a window "until level 6" stays open through the
    break after level 6 and closes when level 7 starts, the usual way a late registration
    period is announced. 0 for a break before the first level; before the start, the first
    row's number.
    """
    rows = tuple(rows)
    if not rows:
        return 0
    return _level_number(rows[position(fields, rows, now).index])
