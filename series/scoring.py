"""A season's standings from its results: pure functions, no database.

``season_score`` takes the season's rules and its events in order, each with its results,
and returns every player's standing line, the points of every result, and each player's
points and rank after every counted event they played (the chart, and the movement).

The rules, as the leaderboard explains them:

- points per result: the square-root formula 10·√n/√k·(1 + log10(b + 0.25)), a table of
  points by place, or the director's formula (``series.formula``); n is the number of
  players in the event, k the place, b the buy-in without the fee (0 in a freeroll);
- an event counts unless the director left it out (``counts=False``) or it had fewer
  players than the season's smallest field: such an event scores 0 and appears nowhere in
  the standings (events, wins, best finish, cashes and net all come from counted events);
- best N of M: only a player's N best results add up;
- minimum events: players with fewer counted events are ranked after every qualified
  player (and marked ``qualified=False``);
- ties: more points, then more wins, then the better best finish, then more events; players
  equal on all four share the rank (1, 2, 2, 4).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from django.utils.translation import gettext as _

from core.names import name_key
from series.formula import Formula, FormulaError
from series.net import net_result

SQUARE_ROOT = "sqrt"
PLACES = "places"
CUSTOM = "custom"

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


@dataclass(frozen=True)
class Rules:
    formula: str = SQUARE_ROOT
    place_points: tuple[Decimal, ...] = ()
    custom: Formula | None = None
    best_of: int | None = None
    min_events: int = 0
    min_field: int = 0


@dataclass(frozen=True)
class ResultIn:
    result_id: int
    player_id: int
    place: int
    prize: int = 0
    bounties: int = 0
    knockouts: int = 0
    rebuys: int = 0
    addons: int = 0
    paid_in: int = 0


@dataclass(frozen=True)
class EventIn:
    event_id: int
    buy_in: int
    results: Sequence[ResultIn]
    counts: bool = True
    points_only: bool = False


@dataclass(frozen=True)
class Line:
    """One player's line of the leaderboard."""

    player_id: int
    rank: int
    points: Decimal
    events: int
    wins: int
    best_finish: int | None
    cashes: int
    knockouts: int
    net: int
    qualified: bool
    # Places gained since the standings before the last counted event (+ up, - down);
    # None for a player whose first counted event was that last one.
    movement: int | None


@dataclass(frozen=True)
class HistoryPoint:
    event_id: int
    player_id: int
    points: Decimal
    rank: int


@dataclass(frozen=True)
class SeasonScore:
    lines: list[Line]
    points: dict[int, Decimal]  # result id -> points
    history: list[HistoryPoint]
    counted_events: list[int]


def _cents(value: float) -> Decimal:
    if math.isnan(value) or math.isinf(value):
        raise FormulaError(_("the formula gives no number"))
    return Decimal(repr(value)).quantize(CENT, rounding=ROUND_HALF_UP)


def square_root_points(n: int, k: int, b: float) -> Decimal:
    """10·√n/√k·(1 + log10(b + 0.25)), to the cent."""
    return _cents(10 * math.sqrt(n) / math.sqrt(k) * (1 + math.log10(b + 0.25)))


def formula_variables(event: EventIn, result: ResultIn, entrants: int) -> dict[str, float]:
    return {
        "n": entrants,
        "k": result.place,
        "b": 0 if event.points_only else event.buy_in,
        "rebuys": result.rebuys,
        "addons": result.addons,
        "knockouts": result.knockouts,
        "prize": result.prize,
        "bounties": result.bounties,
    }


def result_points(rules: Rules, event: EventIn, result: ResultIn, entrants: int) -> Decimal:
    """The points of one result under the season's formula (FormulaError if it fails)."""
    if rules.formula == PLACES:
        index = result.place - 1
        return rules.place_points[index] if 0 <= index < len(rules.place_points) else ZERO
    if rules.formula == CUSTOM:
        if rules.custom is None:
            raise FormulaError(_("the formula is empty"), 1)
        return _cents(rules.custom.evaluate(formula_variables(event, result, entrants)))
    b = 0 if event.points_only else event.buy_in
    return square_root_points(entrants, max(1, result.place), b)


def field_counts(field: int, min_field: int) -> bool:
    """Whether an event of ``field`` players is big enough to count, ``min_field`` being the
    season's smallest field that counts (an event nobody played never counts)."""
    return field >= max(1, min_field)


def event_counts(rules: Rules, event: EventIn) -> bool:
    return event.counts and field_counts(len(event.results), rules.min_field)


@dataclass
class _Tally:
    """A player's running totals over the counted events so far."""

    scores: list[Decimal] = field(default_factory=list)
    points: Decimal = ZERO
    events: int = 0
    wins: int = 0
    best_finish: int | None = None
    cashes: int = 0
    knockouts: int = 0
    net: int = 0

    def add(self, result: ResultIn, points: Decimal, best_of: int | None) -> None:
        self.scores.append(points)
        kept = sorted(self.scores, reverse=True)[:best_of] if best_of else self.scores
        self.points = sum(kept, ZERO)
        self.events += 1
        self.wins += result.place == 1
        if self.best_finish is None or result.place < self.best_finish:
            self.best_finish = result.place
        self.cashes += result.prize > 0
        self.knockouts += result.knockouts
        self.net += net_result(prize=result.prize, bounties=result.bounties, paid_in=result.paid_in)


def _ranks(
    tallies: Mapping[int, _Tally], min_events: int, names: Mapping[int, str]
) -> list[tuple[int, int, bool]]:
    """(player id, rank, qualified) in rank order."""
    keys: dict[int, tuple[bool, Decimal, int, float, int]] = {}
    for player_id, t in tallies.items():
        best = t.best_finish if t.best_finish is not None else math.inf
        keys[player_id] = (t.events < min_events, -t.points, -t.wins, best, -t.events)
    order = sorted(keys, key=lambda p: (keys[p], name_key(names.get(p, "")), p))
    ranked: list[tuple[int, int, bool]] = []
    previous: tuple[bool, Decimal, int, float, int] | None = None
    rank = 0
    for position, player_id in enumerate(order, start=1):
        current = keys[player_id]
        if current != previous:
            rank = position
            previous = current
        ranked.append((player_id, rank, not current[0]))
    return ranked


def season_score(
    rules: Rules, events: Sequence[EventIn], names: Mapping[int, str] | None = None
) -> SeasonScore:
    """Score every result and rank the season's players; events in the order they were
    played. ``names`` only orders players who share a rank. Raises FormulaError when the
    director's formula cannot be computed on a result."""
    names = names or {}
    tallies: dict[int, _Tally] = {}
    points: dict[int, Decimal] = {}
    history: list[HistoryPoint] = []
    counted: list[int] = []
    previous_ranks: dict[int, int] = {}
    ranks: dict[int, int] = {}
    for event in events:
        for result in event.results:
            tallies.setdefault(result.player_id, _Tally())
        if not event_counts(rules, event):
            for result in event.results:
                points[result.result_id] = ZERO
            continue
        entrants = len(event.results)
        for result in event.results:
            try:
                score = result_points(rules, event, result, entrants)
            except FormulaError as error:
                error.event_id, error.player_id = event.event_id, result.player_id
                error.place = result.place
                raise
            points[result.result_id] = score
            tallies[result.player_id].add(result, score, rules.best_of)
        counted.append(event.event_id)
        played = {r.player_id for r in event.results}
        in_play = {p: t for p, t in tallies.items() if t.events}
        previous_ranks = ranks
        ranks = {p: rank for p, rank, _q in _ranks(in_play, rules.min_events, names)}
        for player_id in sorted(played):
            history.append(
                HistoryPoint(event.event_id, player_id, tallies[player_id].points, ranks[player_id])
            )

    lines = []
    for player_id, rank, qualified in _ranks(tallies, rules.min_events, names):
        t = tallies[player_id]
        before = previous_ranks.get(player_id)
        now = ranks.get(player_id)
        lines.append(
            Line(
                player_id=player_id,
                rank=rank,
                points=t.points,
                events=t.events,
                wins=t.wins,
                best_finish=t.best_finish,
                cashes=t.cashes,
                knockouts=t.knockouts,
                net=t.net,
                qualified=qualified,
                movement=before - now if before is not None and now is not None else None,
            )
        )
    return SeasonScore(lines=lines, points=points, history=history, counted_events=counted)
