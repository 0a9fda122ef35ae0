"""The tournament's part of a series event: registered with ``series.event_sections``.

The series shows events without importing tournament internals; this provider gives it
the tournament's own page parts (the blind structure table and the registration block,
with the same register/unregister forms posting to the tournament's views), the event's
online tables, the events a player registered for, and the event's fields a started
tournament holds (its money rules: the series' edit page may not change them).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from series.event_sections import Section
from series.models import Event, Player
from tournaments import selectors
from tournaments.models import EntryState, Tournament, TournamentTable
from tournaments.permissions import is_director
from tournaments.services import lifecycle
from tournaments.views.pages import registration_context

# Entries that mean "I am (or was) in this event": not a registration taken back.
_REGISTERED_STATES = (
    EntryState.REGISTERED,
    EntryState.WAITING,
    EntryState.PLAYING,
    EntryState.OUT,
)


class TournamentEventSection:
    """``series.event_sections.EventSectionProvider`` for the tournaments."""

    def sections(self, event: Event, request: HttpRequest) -> list[Section]:
        tournament = (
            Tournament.objects.select_related("event", "event__season", "blind_structure")
            .filter(event_id=event.pk)
            .first()
        )
        director = is_director(request.user)
        if tournament is None:
            if director:
                return [("tournaments/_event_section_none.html", {"event": event})]
            return []
        context: dict[str, Any] = registration_context(request, tournament)
        over = tournament.is_over
        levels = selectors.blind_structure_table(tournament)
        if over:
            levels = [{**level, "current": False} for level in levels]
        context.update(
            {
                "event": event,
                "levels": levels,
                # After the event the series shows its results: no registration block, and
                # no "now: level 1" on a blind structure that is not running.
                "show_registration": not over,
                "level_number": None if over else selectors.current_level_number(tournament),
                "is_director": director,
                "next_url": request.get_full_path(),
            }
        )
        return [("tournaments/_event_section.html", context)]

    def live_table_ids(self, event: Event) -> list[int]:
        return list(
            TournamentTable.objects.filter(tournament__event_id=event.pk, live_table__isnull=False)
            .order_by("number")
            .values_list("live_table_id", flat=True)
        )

    def fields_held(self, event: Event) -> dict[str, str]:
        tournament = Tournament.objects.filter(event_id=event.pk).first()
        return {} if tournament is None else lifecycle.event_fields_held(tournament)

    def deletion_refused(self, event_id: int) -> str | None:
        return lifecycle.event_deletion_refused(event_id)

    def registered_event_ids(self, player: Player) -> list[int]:
        return list(
            Tournament.objects.filter(entries__player=player, entries__state__in=_REGISTERED_STATES)
            .order_by("event__starts_at")
            .values_list("event_id", flat=True)
            .distinct()
        )


provider = TournamentEventSection()
