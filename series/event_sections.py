"""What other apps add to a series event: page sections, live tables, registrations.

The series reads no tournament internals (DESIGN.md), yet an event page shows the
tournament's structure table and registration, the hands export needs the event's online
tables, and a player's calendar feed needs the events they registered for. So the
dependency is inverted: an app that knows those things (the tournaments) registers a
provider here at start-up (its ``AppConfig.ready``), and the series asks every provider.
With no provider registered the series pages still work: they just show the series' own
parts.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from django.http import HttpRequest

    from series.models import Event, Player

Section = tuple[str, dict[str, Any]]


class EventSectionProvider(Protocol):
    """One app's contribution to series events."""

    def sections(self, event: Event, request: HttpRequest) -> list[Section]:
        """(template name, context) pairs rendered in order on the event's page."""

    def live_table_ids(self, event: Event) -> list[int]:
        """Ids of the ``tables.Table`` rows the event was played on (empty: in person)."""

    def registered_event_ids(self, player: Player) -> list[int]:
        """Ids of the events ``player`` holds a place for or waits for (not those left)."""


_providers: list[EventSectionProvider] = []


def register(provider: EventSectionProvider) -> EventSectionProvider:
    """Add ``provider``; registering the same one again (``ready`` runs twice in some test
    set-ups) changes nothing."""
    if provider not in _providers:
        _providers.append(provider)
    return provider


def unregister(provider: EventSectionProvider) -> None:
    """Take ``provider`` out (tests that show a page without it)."""
    if provider in _providers:
        _providers.remove(provider)


def providers() -> tuple[EventSectionProvider, ...]:
    return tuple(_providers)


def sections_for(event: Event, request: HttpRequest) -> list[Section]:
    """Every provider's sections for the event's page, in registration order."""
    out: list[Section] = []
    for provider in _providers:
        out.extend(provider.sections(event, request))
    return out


def _union(lists: Iterable[list[int]]) -> list[int]:
    seen: dict[int, None] = {}
    for values in lists:
        for value in values:
            seen.setdefault(value, None)
    return list(seen)


def live_table_ids(event: Event) -> list[int]:
    """The live tables the event was played on, according to every provider."""
    return _union(provider.live_table_ids(event) for provider in _providers)


def registered_event_ids(player: Player) -> list[int]:
    """The events ``player`` registered for, according to every provider."""
    return _union(provider.registered_event_ids(player) for provider in _providers)
