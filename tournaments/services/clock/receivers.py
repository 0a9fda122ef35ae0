"""What the rest of the tournament reaches by registration rather than by import.

Undo of every clock action (``services.undo``'s handler for ``ActionKind.CLOCK``), and the
action log's signal: the screens follow every other change, and an elimination may burst
the bubble. The package imports this module, so importing any clock module registers both.
"""

from __future__ import annotations

import logging
from typing import Any

from django.utils.translation import gettext as _

from tournaments.errors import TournamentError
from tournaments.models import ActionKind, Tournament, TournamentAction
from tournaments.services import undo
from tournaments.services.clock.hand_for_hand import clock_hand_for_hand_burst
from tournaments.services.clock.levels import levels_restore
from tournaments.services.clock.payload import clock_publish_now
from tournaments.services.clock.reads import CLOCK_STATES
from tournaments.services.clock.store import clock_restore

logger = logging.getLogger(__name__)


@undo.register(ActionKind.CLOCK)
def _undo_clock(tournament: Tournament, action: TournamentAction) -> None:
    """Every clock action (pause, resume, adjust, next, previous, break, the changes to the
    levels, hand-for-hand) is undone the same way: the rows and the clock as they were just
    before, projected to now like any stored clock, so undoing "+1 min" an hour later takes
    one minute off the schedule and nothing else."""
    saved = action.undo.get("clock")
    if not isinstance(saved, dict):
        raise TournamentError(_("This clock action kept nothing to undo it with."))
    if tournament.state not in CLOCK_STATES:
        raise TournamentError(_("The clock only runs while the tournament is in play."))
    levels = action.undo.get("levels")
    if levels is not None:
        if not isinstance(levels, dict):
            raise TournamentError(_("This clock action kept nothing to undo it with."))
        levels_restore(tournament, levels)
    clock_restore(tournament, saved)


def _on_tournament_changed(
    sender: Any, tournament_id: int, action: TournamentAction, **kwargs: Any
) -> None:
    # The action log's signal, sent after commit: the clock's own actions broadcast already.
    if action.kind != ActionKind.CLOCK:
        clock_publish_now(tournament_id)
    if action.kind == ActionKind.ELIMINATE and not kwargs.get("undone"):
        # The bubble may have burst on it: on hand 0 hand-for-hand ends now (a separate
        # action in the log, undone before the elimination can be); on a hand dealt
        # hand-for-hand the last table's "hand done" ends it. A failure must not undo the
        # elimination already committed; the director can still end hand-for-hand from the
        # console.
        try:
            clock_hand_for_hand_burst(tournament_id)
        except Exception:
            logger.exception("ending hand-for-hand of tournament %s failed", tournament_id)


undo.tournament_changed.connect(_on_tournament_changed, dispatch_uid="tournaments.clock.tv")
