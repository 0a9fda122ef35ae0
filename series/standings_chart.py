"""The leaderboard's chart: the top players' points after each counted event, as SVG
coordinates for ``templates/series/_standings_chart.html``.

Drawn on the server as a picture (polylines on two axes), so the page needs no JavaScript
and no chart library. Coordinates are numbers for the browser, written unlocalized by the
template (``{% localize off %}``); the axis labels are text for the reader, written here in
the active language ("2,5" in French). A player's points change only at the events they play, so their line
holds level across the events they missed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.utils.formats import number_format

from series.models import Event, Standing, StandingPoint

WIDTH = 640
HEIGHT = 320
LEFT = 50
RIGHT = 16
TOP = 14
BOTTOM = 42
# Colour-blind-safe (Okabe-Ito) and the site's felt green, one per line.
COLOURS = (
    "#0f5132",
    "#d55e00",
    "#0072b2",
    "#cc79a7",
    "#e69f00",
    "#56b4e9",
    "#009e73",
    "#6b4c9a",
)
TOP_PLAYERS = len(COLOURS)


@dataclass(frozen=True)
class Tick:
    position: float
    label: str


@dataclass(frozen=True)
class Line:
    name: str
    colour: str
    points: str  # the polyline's "x,y x,y ..."
    end_x: float
    end_y: float
    total: Decimal
    rank: int


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    right: float
    top: int
    bottom: float
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    lines: list[Line]


def _label(value: float) -> str:
    """An axis value as the reader writes it: "100", "2.5" ("2,5" in French)."""
    return number_format(Decimal(f"{value:g}"), use_l10n=True, force_grouping=True)


def _nice_step(top: float, steps: int = 4) -> float:
    """A round step (1, 2, 2.5 or 5 times a power of ten) giving about ``steps`` ticks."""
    raw = max(top, 1.0) / steps
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * power:
            return factor * power
    return 10 * power


def chart_build(
    events: Sequence[Event], top: Sequence[Standing], history: Sequence[StandingPoint]
) -> Chart | None:
    """The chart of ``top`` players over ``events`` (None before two events have points)."""
    if len(events) < 2 or not top:
        return None
    index = {event.pk: i for i, event in enumerate(events)}
    by_player: dict[int, dict[int, Decimal]] = {}
    for point in history:
        if point.event_id in index:
            by_player.setdefault(point.player_id, {})[index[point.event_id]] = point.points
    highest = max((float(p) for series in by_player.values() for p in series.values()), default=0)
    step = _nice_step(highest)
    y_max = step * math.ceil(max(highest, 1.0) / step)
    plot_right = WIDTH - RIGHT
    plot_bottom = HEIGHT - BOTTOM

    def x(i: int) -> float:
        return round(LEFT + (plot_right - LEFT) * i / (len(events) - 1), 1)

    def y(value: float) -> float:
        return round(plot_bottom - (plot_bottom - TOP) * value / y_max, 1)

    every = max(1, math.ceil(len(events) / 10))
    x_ticks = [
        Tick(x(i), str(event.number or i + 1))
        for i, event in enumerate(events)
        if i % every == 0 or i == len(events) - 1
    ]
    y_ticks = []
    value = 0.0
    while value <= y_max + 1e-9:
        y_ticks.append(Tick(y(value), _label(value)))
        value += step

    lines = []
    for standing, colour in zip(top, COLOURS, strict=False):
        series = by_player.get(standing.player_id, {})
        if not series:
            continue
        coords = []
        current: Decimal | None = None
        for i in range(len(events)):
            current = series.get(i, current)
            if current is not None:
                coords.append((x(i), y(float(current))))
        lines.append(
            Line(
                name=standing.player.name,
                colour=colour,
                points=" ".join(f"{cx},{cy}" for cx, cy in coords),
                end_x=coords[-1][0],
                end_y=coords[-1][1],
                total=standing.points,
                rank=standing.rank,
            )
        )
    return Chart(WIDTH, HEIGHT, LEFT, plot_right, TOP, plot_bottom, x_ticks, y_ticks, lines)
