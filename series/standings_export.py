"""The season's standings as CSV: the command-line contract, and the file the
leaderboard page offers, written by this one function so the two cannot differ.

    rank,player,points,events,wins,best_finish
    1,Ann,152.40,6,2,1

One row per player who played, in rank order; points with two decimals; ``best_finish``
empty for a player with no counted event. A name that would start a formula in a
spreadsheet is written as text (``core.csv_safe``).
"""

from __future__ import annotations

import io
from decimal import Decimal

from core import csv_safe
from series import selectors
from series.models import Season

HEADER = ("rank", "player", "points", "events", "wins", "best_finish")
# Points as a number with two decimals (not text: text is guarded by ``csv_safe``).
CENT = Decimal("0.01")


def standings_csv(season: Season) -> str:
    out = io.StringIO()
    writer = csv_safe.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for line in selectors.standings_of(season):
        writer.writerow(
            (
                line.rank,
                line.player.name,
                line.points.quantize(CENT),
                line.events,
                line.wins,
                "" if line.best_finish is None else line.best_finish,
            )
        )
    return out.getvalue()
