"""The season's standings as CSV: the command-line contract, and the file the
leaderboard page offers, written by this one function so the two cannot differ.

    rank,player,points,events,wins,best_finish
    1,Ann,152.40,6,2,1

One row per player who played, in rank order; points with two decimals; ``best_finish``
empty for a player with no counted event.
"""

from __future__ import annotations

import csv
import io

from series import selectors
from series.models import Season

HEADER = ("rank", "player", "points", "events", "wins", "best_finish")


def standings_csv(season: Season) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for line in selectors.standings_of(season):
        writer.writerow(
            (
                line.rank,
                line.player.name,
                f"{line.points:.2f}",
                line.events,
                line.wins,
                "" if line.best_finish is None else line.best_finish,
            )
        )
    return out.getvalue()
