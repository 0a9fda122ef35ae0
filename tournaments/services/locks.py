"""The lock every tournament workflow takes first: the tournament's row, for its transaction.

Entries, the clock, seating, results, chips, deals, the TV's settings and Undo all change a
tournament under this one lock, so two directors' phones, a player registering from home
and the clock's task are applied one at a time, each reading what the one before wrote.
By default only the tournament's own row is locked (``of=("self",)``): its event and blind
structure come in the same query, unlocked, as a series page may change the event
meanwhile. The one workflow that writes the event under this lock, saving the settings,
writes back only the event's fields the settings own (``lifecycle.tournament_update``).

The start locks the event too (``with_event``): it seats the players on the event's money
and stack, so a host saving the night on the series' page (which locks the event first)
and the director starting it go one after the other. Whichever comes second sees the
first's work: the save finds the tournament started and is refused if it changes the money
(a new venue still saves), or the start reads the stack the save committed, not the one it
would have read while the save was under way.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.errors import TournamentError
from tournaments.models import Tournament


def tournament_locked(tournament_id: int, *, with_event: bool = False) -> Tournament:
    """The tournament row, locked until this transaction ends, with its event and blind
    structure (the event's row locked too ``with_event``); ``TournamentError`` if there is
    no such tournament."""
    try:
        return (
            Tournament.objects.select_for_update(of=("self", "event") if with_event else ("self",))
            .select_related("event", "blind_structure")
            .get(pk=tournament_id)
        )
    except Tournament.DoesNotExist:
        raise TournamentError(_("This tournament does not exist.")) from None
