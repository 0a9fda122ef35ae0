"""Blind structures as plain data: validation, level numbers, clock times and a generator.

No database here: a blind structure is a list of `Row` (a level of blinds, or a break), so the
editor, the services and the tests all check the same rules on the same values before
anything is written.

The rules a blind structure must keep (`check_rows` refuses the rest, naming the row):

- every row lasts at least one minute (and at most `MAX_MINUTES`);
- a level has a small blind and a big blind, and the big blind is not below the small one;
- an ante is from each player, never above the small blind, or one big-blind ante (the big
  blind posts it for the table, as card rooms play it), never above the big blind;
- for a limit game the levels carry the small bet and the big bet (big bet not below small);
- a break has no blinds, ante or bets; only a break colours chips up (TDA 24: the smallest
  denominations leave, raced off), and at least one chip stays in play;
- with a chip set, every amount is a multiple of the smallest chip still in play at that
  level, after the colour-ups before it: chips that are not on the table cannot pay it.

Level numbers never count breaks:

>>> rows = [Row.level(25, 50), Row.level(50, 100), Row.pause(10), Row.level(75, 150)]
>>> level_numbers(rows)
[1, 2, None, 3]

The generator (`generate`) proposes a blind structure; see its docstring for the algorithm.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from enum import StrEnum

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from tables.engine.config import AnteKind, Structure

MAX_MINUTES = 240
"""The longest level or break: longer is a typo in a phone form, not a blind structure."""

FINISH_AT_BIG_BLINDS = 20
"""The tournament is expected to end in the level whose big blind is this fraction (1/20) of
all the chips in play: heads-up, each player then averages ten big blinds, and in home games
with stacks of 50-200 big blinds the last hands rarely last longer than that."""

RUN_ON_TO_BIG_BLINDS = 5
"""The generator goes on after the expected finish until the big blind is a fifth of all the
chips, so a long night never runs out of levels."""

GROWTH_MIN = 1.25
GROWTH_MAX = 1.5
"""The generator's growth per level: slower drags, faster turns poker into a shove-fest."""

STEP_MIN = 1.2
STEP_MAX = 1.67
"""One rounded big blind to the next: the chips cannot always make the ideal value, so a step
may stray from the growth a little, never below 1.2x or above 1.67x when the chips allow."""

NICE_MANTISSAS = (10, 12, 15, 20, 25, 30, 40, 50, 60, 80)
"""Round numbers people read off a clock (in tenths): 1, 1.2, 1.5, 2 ... 8 times 10**k."""

NICE_BONUS = 0.1
"""How much farther from the ideal a round number may be than an odd one (in log terms)."""

MAX_LEVELS = 60
MAX_CHIPS = 12


class RowKind(StrEnum):
    LEVEL = "level"
    BREAK = "break"


def betting_of(*, for_limit: bool) -> Structure:
    """The betting structure a blind structure is for: limit, whose levels carry the small and
    big bets, or pot-limit, whose levels serve no-limit as well (blinds alone).

    >>> betting_of(for_limit=True), betting_of(for_limit=False)
    (<Structure.LIMIT: 'limit'>, <Structure.POT_LIMIT: 'pot-limit'>)
    """
    return Structure.LIMIT if for_limit else Structure.POT_LIMIT


def is_for_limit(betting: Structure | str) -> bool:
    """Whether a blind structure for ``betting`` carries the limit bets."""
    return Structure(betting) == Structure.LIMIT


@dataclass(frozen=True, slots=True)
class Row:
    """One row of a blind structure: a level (blinds, ante, limit bets, minutes) or a break.

    ``colour_up`` lists the denominations a break removes. ``id`` is the database row it came
    from, carried through an edit so the same row keeps its identity; it is not compared.
    """

    kind: RowKind = RowKind.LEVEL
    minutes: int = 20
    small_blind: int = 0
    big_blind: int = 0
    ante_kind: AnteKind = AnteKind.NONE
    ante: int = 0
    small_bet: int | None = None
    big_bet: int | None = None
    colour_up: tuple[int, ...] = ()
    id: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", RowKind(self.kind))
        object.__setattr__(self, "ante_kind", AnteKind(self.ante_kind))
        object.__setattr__(self, "colour_up", tuple(sorted(set(self.colour_up))))

    @classmethod
    def level(
        cls,
        small_blind: int,
        big_blind: int,
        minutes: int = 20,
        *,
        ante: int = 0,
        ante_kind: AnteKind | str = AnteKind.NONE,
        small_bet: int | None = None,
        big_bet: int | None = None,
    ) -> Row:
        return cls(
            RowKind.LEVEL,
            minutes,
            small_blind,
            big_blind,
            AnteKind(ante_kind),
            ante,
            small_bet,
            big_bet,
        )

    @classmethod
    def pause(cls, minutes: int = 10, colour_up: Sequence[int] = ()) -> Row:
        """A break (``break`` is a Python keyword)."""
        return cls(RowKind.BREAK, minutes, colour_up=tuple(colour_up))

    @property
    def is_break(self) -> bool:
        return self.kind == RowKind.BREAK

    def amounts(self) -> dict[str, int]:
        """The chip amounts this row asks for, by field name (zeros and blanks left out)."""
        values = {
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
            "small_bet": self.small_bet or 0,
            "big_bet": self.big_bet or 0,
        }
        return {name: value for name, value in values.items() if value}


@dataclass(frozen=True, slots=True)
class Problem:
    """What is wrong, and where: ``index`` is the row (0-based) or None for the whole
    blind structure, ``field`` the row's field or None. The message names the row already."""

    index: int | None
    field: str | None
    message: str


class BlindStructureError(ValueError):
    """A blind structure, a generator setting or an edit that breaks a rule; nothing was changed."""

    def __init__(self, problems: Sequence[Problem] | str) -> None:
        if isinstance(problems, str):
            problems = [Problem(None, None, problems)]
        self.problems = tuple(problems)
        super().__init__(" ".join(problem.message for problem in self.problems))

    @property
    def messages(self) -> list[str]:
        return [problem.message for problem in self.problems]


# ---------------------------------------------------------------------------------------------
# Numbering and labels


def level_numbers(rows: Sequence[Row]) -> list[int | None]:
    """Each row's level number (1, 2, 3 ...), None for a break: breaks are never counted."""
    numbers: list[int | None] = []
    count = 0
    for row in rows:
        if row.is_break:
            numbers.append(None)
        else:
            count += 1
            numbers.append(count)
    return numbers


def row_label(rows: Sequence[Row], index: int) -> str:
    """How a person names a row: "Level 3", or "Break after level 4"."""
    numbers = level_numbers(rows[: index + 1])
    number = numbers[index]
    if number is not None:
        return _("Level %(number)d") % {"number": number}
    before = [n for n in numbers if n is not None]
    if not before:
        return _("Break before level 1")
    return _("Break after level %(number)d") % {"number": before[-1]}


def chips_in_play(rows: Sequence[Row], chip_set: Sequence[int]) -> list[tuple[int, ...]]:
    """The denominations on the table during each row, after the colour-ups before it (a
    break's own colour-up counts from the next row on)."""
    in_play = tuple(sorted(set(chip_set)))
    result = []
    for row in rows:
        result.append(in_play)
        if row.is_break and row.colour_up:
            in_play = tuple(chip for chip in in_play if chip not in row.colour_up)
    return result


# ---------------------------------------------------------------------------------------------
# Validation

_AMOUNT_NOT_MADE = {
    "small_blind": gettext_lazy(
        "the small blind %(amount)d cannot be made with the chips in play: it is not a "
        "multiple of %(chip)d, the smallest chip left."
    ),
    "big_blind": gettext_lazy(
        "the big blind %(amount)d cannot be made with the chips in play: it is not a "
        "multiple of %(chip)d, the smallest chip left."
    ),
    "ante": gettext_lazy(
        "the ante %(amount)d cannot be made with the chips in play: it is not a multiple of "
        "%(chip)d, the smallest chip left."
    ),
    "small_bet": gettext_lazy(
        "the small bet %(amount)d cannot be made with the chips in play: it is not a "
        "multiple of %(chip)d, the smallest chip left."
    ),
    "big_bet": gettext_lazy(
        "the big bet %(amount)d cannot be made with the chips in play: it is not a multiple "
        "of %(chip)d, the smallest chip left."
    ),
}


def chip_set_problems(chip_set: Sequence[int]) -> list[Problem]:
    """A chip set is a few distinct positive denominations (it may be empty: no chip check)."""
    problems = []
    if any(not isinstance(chip, int) or chip < 1 for chip in chip_set):
        problems.append(Problem(None, "chip_set", _("Chip values must be whole numbers above 0.")))
    elif len(set(chip_set)) != len(chip_set):
        problems.append(Problem(None, "chip_set", _("Each chip value may appear only once.")))
    if len(chip_set) > MAX_CHIPS:
        problems.append(
            Problem(
                None,
                "chip_set",
                _("A chip set has at most %(count)d denominations.") % {"count": MAX_CHIPS},
            )
        )
    return problems


def parse_chip_set(text: str) -> tuple[int, ...]:
    """Read "25, 100, 500" (commas or spaces) into sorted denominations.

    >>> parse_chip_set("500, 25 100")
    (25, 100, 500)
    """
    chips: list[int] = []
    for part in text.replace(",", " ").split():
        try:
            chips.append(int(part))
        except ValueError:
            raise BlindStructureError(
                [
                    Problem(
                        None,
                        "chip_set",
                        _("%(value)s is not a chip value; write numbers like 25, 100, 500.")
                        % {"value": part},
                    )
                ]
            ) from None
    problems = chip_set_problems(chips)
    if problems:
        raise BlindStructureError(problems)
    return tuple(sorted(chips))


def row_problems(
    rows: Sequence[Row], *, for_limit: bool, chip_set: Sequence[int] = ()
) -> list[Problem]:
    """Every rule the rows break, each naming its row. Empty: the blind structure is valid.

    >>> [p.message for p in row_problems([Row.level(50, 40)], for_limit=False)]
    ['Level 1: the big blind 40 is below the small blind 50.']
    """
    problems: list[Problem] = list(chip_set_problems(chip_set))
    if problems:
        return problems
    chips = sorted(set(chip_set))
    in_play = list(chips)
    for index, row in enumerate(rows):
        label = row_label(rows, index)

        def add(name: str | None, message: str, label: str = label, index: int = index) -> None:
            problems.append(
                Problem(index, name, _("%(row)s: %(problem)s") % {"row": label, "problem": message})
            )

        if row.minutes < 1:
            add(
                "minutes",
                _("it lasts %(minutes)d minutes; give it at least one minute.")
                % {"minutes": row.minutes},
            )
        elif row.minutes > MAX_MINUTES:
            add(
                "minutes",
                _("it lasts %(minutes)d minutes; at most %(max)d are allowed.")
                % {"minutes": row.minutes, "max": MAX_MINUTES},
            )
        if row.is_break:
            if row.amounts() or row.ante_kind != AnteKind.NONE:
                add(None, _("a break has no blinds, ante or bets."))
            _colour_up_problems(row, chips, in_play, add)
            in_play = [chip for chip in in_play if chip not in row.colour_up]
            continue

        if row.colour_up:
            add("colour_up", _("chips are coloured up at a break, not during a level."))
        _blind_problems(row, for_limit, add)
        if in_play:
            smallest = in_play[0]
            for name, amount in row.amounts().items():
                if name in ("small_bet", "big_bet") and not for_limit:
                    continue
                if amount % smallest:
                    add(name, _AMOUNT_NOT_MADE[name] % {"amount": amount, "chip": smallest})
    return problems


def _blind_problems(row: Row, for_limit: bool, add: Callable[[str | None, str], None]) -> None:
    if row.small_blind < 1:
        add("small_blind", _("it has no small blind."))
    if row.big_blind < 1:
        add("big_blind", _("it has no big blind."))
    elif row.big_blind < row.small_blind:
        add(
            "big_blind",
            _("the big blind %(big)d is below the small blind %(small)d.")
            % {"big": row.big_blind, "small": row.small_blind},
        )
    if row.ante_kind == AnteKind.NONE and row.ante:
        add("ante", _("it has an ante of %(ante)d but no ante kind.") % {"ante": row.ante})
    elif row.ante_kind != AnteKind.NONE and row.ante < 1:
        add("ante", _("it has an ante kind but no ante amount."))
    elif row.ante_kind == AnteKind.BIG_BLIND and row.ante > row.big_blind >= 1:
        add(
            "ante",
            _("the big-blind ante %(ante)d is above the big blind %(big)d.")
            % {"ante": row.ante, "big": row.big_blind},
        )
    elif row.ante_kind != AnteKind.BIG_BLIND and row.ante > row.small_blind >= 1:
        add(
            "ante",
            _("the ante %(ante)d is above the small blind %(small)d.")
            % {"ante": row.ante, "small": row.small_blind},
        )
    if for_limit:
        if not row.small_bet or not row.big_bet:
            add(
                "small_bet" if not row.small_bet else "big_bet",
                _("a limit level needs the small bet and the big bet."),
            )
        elif row.big_bet < row.small_bet:
            add(
                "big_bet",
                _("the big bet %(big)d is below the small bet %(small)d.")
                % {"big": row.big_bet, "small": row.small_bet},
            )


def _colour_up_problems(
    row: Row,
    chips: Sequence[int],
    in_play: Sequence[int],
    add: Callable[[str | None, str], None],
) -> None:
    for chip in row.colour_up:
        if chip not in chips:
            add("colour_up", _("the %(chip)d chip is not in the chip set.") % {"chip": chip})
        elif chip not in in_play:
            add(
                "colour_up",
                _("the %(chip)d chips were already coloured up at an earlier break.")
                % {"chip": chip},
            )
    leaving = [chip for chip in row.colour_up if chip in in_play]
    if not leaving:
        return
    if len(leaving) >= len(in_play):
        add("colour_up", _("a colour-up must leave at least one chip in play."))
        return
    if leaving != list(in_play[: len(leaving)]):
        smaller = next(chip for chip in in_play if chip not in leaving)
        add(
            "colour_up",
            _("colour up the smallest chips first: the %(chip)d chip is still in play.")
            % {"chip": smaller},
        )


def check_rows(rows: Sequence[Row], *, for_limit: bool, chip_set: Sequence[int] = ()) -> None:
    """Raise `BlindStructureError` with every problem of the rows, or return quietly."""
    problems = row_problems(rows, for_limit=for_limit, chip_set=chip_set)
    if problems:
        raise BlindStructureError(problems)


# ---------------------------------------------------------------------------------------------
# Clock times


def row_offsets(rows: Sequence[Row]) -> list[tuple[int, int]]:
    """Each row's start and end, in minutes from the start of the tournament."""
    offsets = []
    at = 0
    for row in rows:
        offsets.append((at, at + row.minutes))
        at += row.minutes
    return offsets


def finish_index(rows: Sequence[Row], chips_total: int) -> int | None:
    """The row in which the tournament is expected to end: the first level whose big blind
    reaches 1/`FINISH_AT_BIG_BLINDS` of all the chips. None: the blind structure ends first."""
    needed = chips_total / FINISH_AT_BIG_BLINDS
    for index, row in enumerate(rows):
        if not row.is_break and row.big_blind >= needed:
            return index
    return None


@dataclass(frozen=True, slots=True)
class TimedRow:
    index: int
    number: int | None
    row: Row
    starts_at: datetime
    ends_at: datetime


@dataclass(frozen=True, slots=True)
class Preview:
    """The clock times of a blind structure from a start time.

    ``ends_at`` is when the last row ends; ``expected_finish`` when the tournament is
    expected to end (the end of the row at ``finish_index``), None without a field size or
    when the blind structure runs out first.
    """

    rows: tuple[TimedRow, ...]
    starts_at: datetime
    ends_at: datetime
    finish_index: int | None
    expected_finish: datetime | None


def preview(rows: Sequence[Row], start: datetime, *, chips_total: int | None = None) -> Preview:
    """Each row's clock time from ``start``, and the expected finish for ``chips_total``
    chips in play (players x starting stack).

    >>> from datetime import datetime
    >>> rows = [Row.level(25, 50), Row.level(50, 100), Row.pause(10), Row.level(75, 150)]
    >>> p = preview(rows, datetime(2007, 4, 10, 19, 30), chips_total=2_000)
    >>> [(t.number, t.starts_at.strftime("%H:%M")) for t in p.rows]
    [(1, '19:30'), (2, '19:50'), (None, '20:10'), (3, '20:20')]
    >>> p.expected_finish.strftime("%H:%M"), p.ends_at.strftime("%H:%M")
    ('20:10', '20:40')
    """
    numbers = level_numbers(rows)
    timed = tuple(
        TimedRow(
            index,
            numbers[index],
            row,
            start + timedelta(minutes=begin),
            start + timedelta(minutes=end),
        )
        for index, (row, (begin, end)) in enumerate(zip(rows, row_offsets(rows), strict=True))
    )
    found = finish_index(rows, chips_total) if chips_total else None
    return Preview(
        rows=timed,
        starts_at=start,
        ends_at=timed[-1].ends_at if timed else start,
        finish_index=found,
        expected_finish=timed[found].ends_at if found is not None else None,
    )


# ---------------------------------------------------------------------------------------------
# Rounding to what the chips can make


def _nice_numbers(upto: float) -> Iterator[int]:
    """Round numbers 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25 ... up to ``upto``."""
    power = 1
    while True:
        for mantissa in NICE_MANTISSAS:
            tenths = mantissa * power
            if tenths % 10:
                continue
            value = tenths // 10
            if value > upto:
                return
            yield value
        power *= 10


def round_big_blind(ideal: float, *, step: int, previous: int = 0) -> int:
    """The big blind to play for an ideal value: a multiple of ``step`` (twice the smallest
    chip in play, so the small blind is half of it), grown 1.2x-1.67x from ``previous`` when
    the chips allow, as near the ideal as possible, round numbers preferred.

    >>> round_big_blind(219, step=50, previous=150)
    200
    >>> round_big_blind(480, step=200, previous=300)   # after the 25s are coloured up
    400
    >>> round_big_blind(70, step=50, previous=50)      # 25 chips cannot make 35/70: 50/100
    100
    """
    if previous:
        low, high = max(previous * STEP_MIN, previous + 1), previous * STEP_MAX
    else:
        low, high = step, math.inf
    target = min(max(ideal, low), high)
    nice = {v for v in _nice_numbers(min(high, target * 2)) if v % step == 0 and low <= v <= high}
    below = math.floor(target / step) * step
    above = math.ceil(target / step) * step
    candidates = nice | {v for v in (below, above) if low <= v <= high and v > 0}
    if not candidates:
        # The chips cannot step finer than this: take the next amount they make.
        return math.ceil(low / step) * step
    return min(
        candidates,
        key=lambda v: (abs(math.log(v / ideal)) + (0 if v in nice else NICE_BONUS), v),
    )


def round_ante(ideal: float, *, chip: int, small_blind: int) -> int:
    """An ante the chips make: the multiple of ``chip`` nearest ``ideal``, at least one chip
    and never above the small blind."""
    ante = max(chip, round(ideal / chip) * chip)
    return min(ante, small_blind - small_blind % chip)


# ---------------------------------------------------------------------------------------------
# The generator


@dataclass(frozen=True, slots=True)
class Proposal:
    """What `generate` proposes: the rows, the growth per level it aimed at, the expected
    length in minutes (None: the blind structure would run out first) and the target."""

    rows: tuple[Row, ...]
    growth: float
    expected_minutes: int | None
    target_minutes: int


def generate(
    *,
    starting_stack: int,
    players: int,
    hours: float,
    chip_set: Sequence[int],
    level_minutes: int = 20,
    break_every: int = 4,
    break_minutes: int = 10,
    ante_kind: AnteKind | str = AnteKind.NONE,
    antes_from_level: int | None = None,
    for_limit: bool = False,
) -> Proposal:
    """Propose a blind structure that ends in about ``hours`` for ``players`` starting with
    ``starting_stack`` chips each, made with the host's ``chip_set``.

    The algorithm:

    1. The tournament is expected to end in the level whose big blind is 1/20 of all the
       chips (`FINISH_AT_BIG_BLINDS`); that level should end at the target time.
    2. For each growth g from 1.25 to 1.5 (step 0.01), the first big blind is the one that
       reaches that final big blind (or 10% or 20% above it, as rounding may fall short)
       after the levels that fit in the target time, kept between 1/300 and 1/25 of the
       starting stack and at least two of the smallest chips.
    3. Level by level, the ideal big blind (first x g**(n-1)) is rounded to a multiple of
       twice the smallest chip in play (the small blind is half the big blind), 1.2x-1.67x
       above the previous one when the chips allow, round numbers (1, 1.2, 1.5, 2, 2.5, 3,
       4, 5, 6, 8 x 10**k) preferred (`round_big_blind`).
    4. A break comes every ``break_every`` levels. At a break the smallest chip is coloured up
       when the next level no longer needs it: its ideal big blind is at least four of the
       next chip (so the blinds can still grow by 1.5x steps) and its ideal ante, if any, at
       least one of the next chip. At least one chip always stays.
    5. Antes (optional) start at ``antes_from_level`` (default: the first level after the
       first break): from each player about 1/8 of the big blind, rounded to the chips in
       play; a big-blind ante equal to the small blind. Never above the small blind.
    6. For a limit game the small bet = the big blind and the big bet = twice it.
    7. Levels go on past the expected finish until the big blind is 1/5 of all the chips.
    8. Of all the growths, the one whose expected finish is nearest the target wins; on a
       tie, the one whose first big blind is nearest 1/100 of the stack (100 big blinds
       deep). The result is checked with `check_rows` like any blind structure.

    Ten players with 10,000 chips each, four hours, chips of 25, 100, 500 and 1,000:

    >>> p = generate(starting_stack=10_000, players=10, hours=4, chip_set=[25, 100, 500, 1000])
    >>> [f"{r.small_blind}/{r.big_blind}" if not r.is_break else f"break {list(r.colour_up)}"
    ...  for r in p.rows]  # doctest: +NORMALIZE_WHITESPACE
    ['50/100', '75/150', '100/200', '150/300', 'break [25]', '200/400', '300/600', '500/1000',
     '800/1600', 'break [100]', '1000/2000', '1500/3000', '2500/5000', '4000/8000',
     'break [500]', '5000/10000', '8000/16000', '12000/24000']
    >>> p.target_minutes, p.expected_minutes, round(p.growth, 2)
    (240, 240, 1.48)

    The tournament is expected to end in level 11 (2500/5000: 100,000 chips / 20), at
    240 minutes (11 levels of 20 minutes and two breaks of 10); the three levels after it
    are there in case the night runs long.
    """
    _check_generator_settings(
        starting_stack, players, hours, list(chip_set), level_minutes, break_every, break_minutes
    )
    chips = sorted(set(chip_set))
    ante_kind = AnteKind(ante_kind)
    if antes_from_level is None:
        antes_from_level = break_every + 1 if break_every else 5
    total = players * starting_stack
    target = round(hours * 60)
    levels = _levels_in(target, level_minutes, break_every, break_minutes)
    final_big_blind = total / FINISH_AT_BIG_BLINDS
    deep = starting_stack / 100

    best: tuple[tuple[float, float], float, tuple[Row, ...], int | None] | None = None
    for growth, aim in _growths_and_aims():
        first = final_big_blind * aim / growth ** (levels - 1)
        first = min(max(first, starting_stack / 300), starting_stack / 25)
        first = max(first, 2 * chips[0])
        rows = _progression(
            first=first,
            growth=growth,
            chips=chips,
            total=total,
            level_minutes=level_minutes,
            break_every=break_every,
            break_minutes=break_minutes,
            ante_kind=ante_kind,
            antes_from_level=antes_from_level,
            for_limit=for_limit,
        )
        found = finish_index(rows, total)
        expected = row_offsets(rows)[found][1] if found is not None else None
        miss = abs(expected - target) if expected is not None else math.inf
        key = (miss, abs(math.log(first / deep)))
        if best is None or key < best[0]:
            best = (key, growth, rows, expected)
    assert best is not None  # the loop runs at least once
    _, growth, rows, expected = best
    check_rows(rows, for_limit=for_limit, chip_set=chips)
    return Proposal(rows=rows, growth=growth, expected_minutes=expected, target_minutes=target)


def _growths_and_aims() -> Iterator[tuple[float, float]]:
    """The growths tried (1.25 to 1.5 by 0.01), each aiming the target level's ideal big blind
    at the final one or a little above it, since rounding may land just below it."""
    for step in range(round((GROWTH_MAX - GROWTH_MIN) * 100) + 1):
        for aim in (1.0, 1.1, 1.2):
            yield GROWTH_MIN + step / 100, aim


def _check_generator_settings(
    starting_stack: int,
    players: int,
    hours: float,
    chips: Sequence[int],
    level_minutes: int,
    break_every: int,
    break_minutes: int,
) -> None:
    def problem(name: str, message: str) -> Problem:
        return Problem(None, name, message)

    problems = chip_set_problems(chips)
    if not chips:
        problems.append(problem("chip_set", _("Give the chip set: the values of your chips.")))
    if problems:
        raise BlindStructureError(problems)
    smallest = min(chips)
    if starting_stack % smallest:
        problems.append(
            problem(
                "starting_stack",
                _(
                    "The starting stack %(stack)d cannot be made with these chips: it is not "
                    "a multiple of %(chip)d, the smallest chip."
                )
                % {"stack": starting_stack, "chip": smallest},
            )
        )
    elif starting_stack < 40 * smallest:
        problems.append(
            problem(
                "starting_stack",
                _("A starting stack needs at least 40 of the smallest chip (%(least)d).")
                % {"least": 40 * smallest},
            )
        )
    if not 2 <= players <= 1000:
        problems.append(problem("players", _("Expect between 2 and 1000 players.")))
    if not 0.5 <= hours <= 24:
        problems.append(problem("hours", _("Aim for between half an hour and 24 hours.")))
    if not 1 <= level_minutes <= MAX_MINUTES:
        problems.append(
            problem(
                "level_minutes",
                _("Levels last between 1 and %(max)d minutes.") % {"max": MAX_MINUTES},
            )
        )
    if break_every < 0:
        problems.append(problem("break_every", _("Breaks come every 0 (never) or more levels.")))
    if break_every and not 1 <= break_minutes <= MAX_MINUTES:
        problems.append(
            problem(
                "break_minutes",
                _("Breaks last between 1 and %(max)d minutes.") % {"max": MAX_MINUTES},
            )
        )
    if problems:
        raise BlindStructureError(problems)


def _levels_in(target: int, level_minutes: int, break_every: int, break_minutes: int) -> int:
    """How many levels end nearest the target time, with the breaks between them."""
    best, best_miss = 2, math.inf
    for levels in range(2, MAX_LEVELS + 1):
        breaks = (levels - 1) // break_every if break_every else 0
        miss = abs(levels * level_minutes + breaks * break_minutes - target)
        if miss < best_miss:
            best, best_miss = levels, miss
    return best


def _progression(
    *,
    first: float,
    growth: float,
    chips: Sequence[int],
    total: int,
    level_minutes: int,
    break_every: int,
    break_minutes: int,
    ante_kind: AnteKind,
    antes_from_level: int,
    for_limit: bool,
) -> tuple[Row, ...]:
    rows: list[Row] = []
    in_play = list(chips)
    previous = 0
    for number in range(1, MAX_LEVELS + 1):
        ideal = first * growth ** (number - 1)
        antes = ante_kind != AnteKind.NONE and number >= antes_from_level
        if number > 1 and break_every and (number - 1) % break_every == 0:
            leaving: list[int] = []
            while len(in_play) > 1 and _chip_not_needed(in_play[1], ideal, antes, ante_kind):
                leaving.append(in_play.pop(0))
            rows.append(Row.pause(break_minutes, colour_up=leaving))
        chip = in_play[0]
        big_blind = round_big_blind(ideal, step=2 * chip, previous=previous)
        small_blind = big_blind // 2
        ante = 0
        if antes:
            ante = (
                small_blind
                if ante_kind == AnteKind.BIG_BLIND
                else round_ante(big_blind / 8, chip=chip, small_blind=small_blind)
            )
        rows.append(
            Row.level(
                small_blind,
                big_blind,
                level_minutes,
                ante=ante,
                ante_kind=ante_kind if antes else AnteKind.NONE,
                small_bet=big_blind if for_limit else None,
                big_bet=2 * big_blind if for_limit else None,
            )
        )
        previous = big_blind
        if big_blind * RUN_ON_TO_BIG_BLINDS >= total:
            break
    return tuple(rows)


def _chip_not_needed(next_chip: int, ideal_big_blind: float, antes: bool, kind: AnteKind) -> bool:
    """Whether the smallest chip can go: the next chip alone still makes the coming blinds in
    steps of 1.5x or finer, and the ante if any."""
    if ideal_big_blind < 4 * next_chip:
        return False
    return not (antes and kind == AnteKind.EACH and ideal_big_blind / 8 < next_chip)


def next_level(rows: Sequence[Row], *, for_limit: bool, chip_set: Sequence[int] = ()) -> Row:
    """A proposal for the level added after ``rows``: the last level's big blind grown 1.5x
    and rounded to the chips in play, the same minutes, the ante kept in proportion.

    >>> next_level([Row.level(100, 200, 15)], for_limit=False, chip_set=[25, 100])
    Row(kind=<RowKind.LEVEL: 'level'>, minutes=15, small_blind=150, big_blind=300, \
ante_kind=<AnteKind.NONE: 'none'>, ante=0, small_bet=None, big_bet=None, colour_up=(), id=None)
    """
    in_play = chips_in_play([*rows, Row.level(1, 1)], chip_set)[-1] if chip_set else ()
    chip = in_play[0] if in_play else 1
    levels = [row for row in rows if not row.is_break]
    if not levels:
        big_blind = 2 * chip if in_play else 100
        return Row.level(
            big_blind // 2,
            big_blind,
            20,
            small_bet=big_blind if for_limit else None,
            big_bet=2 * big_blind if for_limit else None,
        )
    last = levels[-1]
    big_blind = round_big_blind(last.big_blind * 1.5, step=2 * chip, previous=last.big_blind)
    small_blind = big_blind // 2
    ante = 0
    if last.ante_kind != AnteKind.NONE and last.ante:
        ante = round_ante(
            last.ante * big_blind / last.big_blind, chip=chip, small_blind=small_blind
        )
    small_bet = big_bet = None
    if for_limit:
        ratio = (last.big_bet / last.small_bet) if last.small_bet and last.big_bet else 2
        small_bet = big_blind
        big_bet = round(big_blind * ratio / chip) * chip
    return replace(
        last,
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        ante_kind=last.ante_kind if ante else AnteKind.NONE,
        small_bet=small_bet,
        big_bet=big_bet,
        id=None,
    )


# ---------------------------------------------------------------------------------------------
# Built-in templates


@dataclass(frozen=True, slots=True)
class Template:
    """A built-in blind structure every director may copy (stored with ``is_template=True``).

    Its description is stored in English, as the catalog's message id, and shown in the
    reader's language (``BlindStructure.description_text``).
    """

    name: str
    description: str
    for_limit: bool
    chip_set: tuple[int, ...]
    rows: tuple[Row, ...]


def _template_rows(
    groups: Sequence[Sequence[int]],
    colour_ups: Sequence[Sequence[int]],
    *,
    minutes: int,
    break_minutes: int,
    for_limit: bool = False,
) -> tuple[Row, ...]:
    """Groups of big blinds with a break (and its colour-up) between two groups."""
    rows: list[Row] = []
    for number, group in enumerate(groups):
        if number:
            rows.append(Row.pause(break_minutes, colour_up=colour_ups[number - 1]))
        for big_blind in group:
            rows.append(
                Row.level(
                    big_blind // 2,
                    big_blind,
                    minutes,
                    small_bet=big_blind if for_limit else None,
                    big_bet=2 * big_blind if for_limit else None,
                )
            )
    return tuple(rows)


HOME_CHIPS = (25, 100, 500, 1000, 5000)
_HOME_BLINDS = (
    (50, 100, 150, 200),
    (300, 400, 600, 800),
    (1000, 1200, 1600, 2000),
    (3000, 4000, 6000, 8000),
    (10000, 12000, 16000, 20000),
)
_HOME_COLOUR_UPS = ((), (25,), (100,), (500,))

BUILTIN_TEMPLATES: tuple[Template, ...] = (
    # docs/rules/sources/home-series-event-plo8.txt: "2007 Series Event 2 ... 20+5 Pot Limit
    # Omaha/8", "For the blind structure we used last year ... something similar, but with a
    # slightly larger starting stack", and its example "if the blinds are 25/50". The page gives no
    # level list, so the levels after 25/50 follow a common home progression for 10,000.
    Template(
        name="Home series PLO8",
        description=gettext_noop(
            "Pot-limit Omaha/8 for a 20+5 home-series event (the 2007 series, event 2): "
            "10,000 chips, blinds from 25/50, 20-minute levels, a 10-minute break every four "
            "levels with the small chips coloured up. About five and a half hours for ten "
            "players, five for eight."
        ),
        for_limit=False,
        chip_set=HOME_CHIPS,
        rows=_template_rows(_HOME_BLINDS, _HOME_COLOUR_UPS, minutes=20, break_minutes=10),
    ),
    Template(
        name="Limit Omaha/8",
        description=gettext_noop(
            "Limit Omaha/8: 10,000 chips, small bet = big blind and big bet = twice it, from "
            "25/50 (bets 50/100), 20-minute levels, a 10-minute break every four levels."
        ),
        for_limit=True,
        chip_set=HOME_CHIPS,
        rows=_template_rows(
            _HOME_BLINDS, _HOME_COLOUR_UPS, minutes=20, break_minutes=10, for_limit=True
        ),
    ),
    Template(
        name="Turbo",
        description=gettext_noop(
            "A pot-limit turbo: 10,000 chips, blinds from 25/50, 10-minute levels growing "
            "about 1.5x, a 5-minute break every six levels. About two and a half hours for "
            "ten players."
        ),
        for_limit=False,
        chip_set=HOME_CHIPS,
        rows=_template_rows(
            (
                (50, 100, 200, 300, 400, 600),
                (800, 1000, 1200, 1600, 2000, 3000),
                (4000, 6000, 8000, 10000, 15000, 20000),
                (30000, 40000, 60000),
            ),
            ((25,), (100,), (500,)),
            minutes=10,
            break_minutes=5,
        ),
    ),
)
