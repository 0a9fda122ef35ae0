"""The geometry of a player's results chart, drawn as SVG by the profile's template.

One column per event, oldest first: a bar the height of the field (1st at the top, last
at the bottom) and a dot at the player's place, gold when they cashed. Places are plotted
on one scale (the biggest field of the chart) so a 3rd of 6 and a 3rd of 16 sit at the same
height and the bar shows how big the field was. Pure Python: the numbers in, coordinates
out, so the template only writes them into ``<rect>`` and ``<circle>``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# Drawn in these units and scaled to the page's width: 480 wide keeps the 14-unit labels
# readable (about 10 px) on a 390 px phone.
WIDTH = 480
HEIGHT = 220
LEFT = 34  # room for the place labels
RIGHT = 10
TOP = 14
BOTTOM = 30  # room for the event labels
LABEL_ROOM = 26


@dataclass(frozen=True)
class Column:
    label: str
    title: str
    x: float
    bar_x: float
    bar_y: float
    bar_height: float
    bar_width: float
    dot_y: float
    cashed: bool
    won: bool


@dataclass(frozen=True)
class Tick:
    label: str
    y: float


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    plot_right: int
    columns: list[Column]
    ticks: list[Tick]
    label_every: int


@dataclass(frozen=True)
class Finish:
    """What the chart needs of one result."""

    label: str  # under the column: the event's number
    title: str  # the tooltip: "Event 3: 2nd of 12"
    place: int
    field: int
    cashed: bool


def results_chart(finishes: Sequence[Finish]) -> Chart | None:
    """Coordinates for ``finishes`` (oldest first); None when there is nothing to draw."""
    if not finishes:
        return None
    biggest = max(max(f.field, f.place) for f in finishes)
    plot_height = HEIGHT - TOP - BOTTOM
    plot_width = WIDTH - LEFT - RIGHT
    step = plot_width / len(finishes)

    def y(place: float) -> float:
        # Place 1 at the top, the biggest field at the bottom.
        if biggest == 1:
            return TOP + plot_height / 2
        return TOP + (place - 1) / (biggest - 1) * plot_height

    bar_width = max(2.0, min(18.0, step * 0.5))
    columns = []
    for index, finish in enumerate(finishes):
        centre = LEFT + step * (index + 0.5)
        top, bottom = y(1), y(max(finish.field, finish.place))
        columns.append(
            Column(
                label=finish.label,
                title=finish.title,
                x=round(centre, 1),
                bar_x=round(centre - bar_width / 2, 1),
                bar_y=round(top - 4, 1),
                bar_height=round(bottom - top + 8, 1),
                bar_width=round(bar_width, 1),
                dot_y=round(y(finish.place), 1),
                cashed=finish.cashed,
                won=finish.place == 1,
            )
        )
    ticks = [Tick("1", round(y(1), 1))]
    if biggest >= 4:
        middle = (biggest + 1) // 2
        ticks.append(Tick(str(middle), round(y(middle), 1)))
    if biggest > 1:
        ticks.append(Tick(str(biggest), round(y(biggest), 1)))
    # A label under every column while they fit (about 26 units each), else every n-th.
    label_every = max(1, math.ceil(LABEL_ROOM / step))
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        plot_right=WIDTH - RIGHT,
        columns=columns,
        ticks=ticks,
        label_every=label_every,
    )
