"""Signals the tournaments send to the rest of the site, always after commit.

``tournament_finished`` carries the results as plain data, so the series app can store its
standings without importing anything of the tournaments beyond this module (DESIGN.md:
"series reads no tournament internals beyond that result")::

    tournament_finished.send(
        sender=Tournament,
        tournament_id=7,
        event_id=12,
        results=[
            {
                "player_id": 3,
                "player_name": "Ann",
                "is_guest": False,
                "entry_numbers": [1, 2],
                "place": 1,
                "prize": 120,
                "bounties": 20,
                "knockouts": 2,
                "rebuys": 1,
                "addons": 1,
                "reentries": 1,
            },
            ...
        ],
    )

One dict per player, best place first. A director can undo the finish and finish again
(after correcting an elimination, say): ``tournament_reopened`` is sent when the finish is
undone and ``tournament_finished`` again with the corrected results, so a listener replaces
what it stored for that tournament id rather than adding to it.
"""

from __future__ import annotations

from django.dispatch import Signal

# Keyword arguments: tournament_id (int), event_id (int), results (list[dict]).
tournament_finished = Signal()

# Keyword arguments: tournament_id (int), event_id (int).
tournament_reopened = Signal()
