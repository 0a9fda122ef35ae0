"""Signals the tournaments send to the rest of the site, always after commit.

``tournament_finished`` carries the results as plain data, for the tournaments' own listeners
(online play releases its tables). The series is not one of them: the results reach it by a
call down, ``series.services.standings.event_results_store``, made after commit just before
the signal is sent (docs/architecture.md)::

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
                "paid_in": 95,
            },
            ...
        ],
    )

One dict per player, best place first. ``paid_in`` is what the player paid in: entries x
(buy-in + fee) + rebuys x rebuy price + add-ons x add-on price (2 x (20 + 5) + 25 + 20
above, with a rebuy at 25 and an add-on at 20). A director can undo the finish and finish again
(after correcting an elimination, say): the undone finish's results leave the series by a call
down (``series.services.standings.event_results_remove``), and ``tournament_finished`` is sent
again with the corrected results, so a listener replaces what it stored for that tournament id
rather than adding to it.
"""

from __future__ import annotations

from django.dispatch import Signal

# Keyword arguments: tournament_id (int), event_id (int), results (list[dict]).
tournament_finished = Signal()

# Inside the tournaments app: a clock was stored that ends its row ``index`` at ``ends_at``
# (None: paused or stopped) at ``version``. ``tournaments.tasks`` listens and schedules the
# level change, so the services need not import the tasks above them.
# Keyword arguments: tournament_id (int), index (int), ends_at (datetime | None), version (int).
clock_stored = Signal()

# Inside the tournaments app: a deal offer waits for the hands in play to end
# (``tournaments.services.deals``); ``tournaments.tasks`` listens and retries its release.
# Keyword arguments: offer_id (int).
deal_held = Signal()
