"""What other apps add to a series event: page sections, live tables, registrations, a
part of the new-night forms (the tournament, set up in the same step), and what they keep
of a night imported from another tool (its levels, as a blind structure).

The series reads no tournament internals (docs/architecture.md), yet an event page shows the
tournament's blind structure table and registration, the hands export needs the event's online
tables, and a player's calendar feed needs the events they registered for. So the
dependency is inverted: an app that knows those things (the tournaments) registers a
provider here at start-up (its ``AppConfig.ready``), and the series asks every provider.
With no provider registered the series pages still work: they just show the series' own
parts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from django import forms
    from django.http import HttpRequest, QueryDict

    from series.models import Event, Player, Season

Section = tuple[str, dict[str, Any]]


class EventSectionProvider(Protocol):
    """One app's contribution to series events."""

    def sections(self, event: Event, request: HttpRequest) -> list[Section]:
        """(template name, context) pairs rendered in order on the event's page."""

    def live_table_ids(self, event: Event) -> list[int]:
        """Ids of the ``tables.Table`` rows the event was played on (empty: in person)."""

    def registered_event_ids(self, player: Player) -> list[int]:
        """Ids of the events ``player`` holds a place for or waits for (not those left)."""

    def fields_held(self, event: Event) -> dict[str, str]:
        """The event's fields that what this app runs on it was built on and that may not
        change now (a started tournament's buy-in, say), each with why, in the reader's
        language; empty when the host may change any."""

    def deletion_refused(self, event_id: int) -> str | None:
        """Why the draft night ``event_id`` may not be deleted: what this app runs on it
        holds people (a tournament with players registered, say), whose places would go
        with it; in the reader's language, None when it may. Asked inside the deletion's
        transaction before the series locks the event: a provider locks its own rows here
        first, in the order its own workflows take them (theirs, then the event), so a
        deletion and such a workflow go one after the other and never deadlock."""


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


def fields_held(event: Event) -> dict[str, str]:
    """The event's fields some provider holds as they are, each with why (the first
    provider's reason when two hold one)."""
    held: dict[str, str] = {}
    for provider in _providers:
        for name, why in provider.fields_held(event).items():
            held.setdefault(name, why)
    return held


def deletion_refused(event_id: int) -> str | None:
    """The first provider's reason not to delete the draft night ``event_id``, if any (each
    provider is asked: each locks its own rows)."""
    reasons = [provider.deletion_refused(event_id) for provider in _providers]
    return next((reason for reason in reasons if reason), None)


# -- parts of the new-night forms ----------------------------------------------------------
#
# A night is set up in one step: the new-night page (and the recurring nights' page) shows
# every registered part below the night's own fields, and the season's page the same parts
# as the defaults of its new nights. The series saves the night and then each part inside
# one transaction, so a part that refuses leaves no night behind.


class PartError(Exception):
    """A part refused what it was given: ``message`` in the reader's language, on ``field``
    of the part's form (None: the whole part)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class EventFormPart(Protocol):
    """One app's part of the new-night forms."""

    template: str  # rendered with ``part`` (this) and ``form`` (its form) in the context

    def form(self, data: QueryDict | None, initial: dict[str, Any]) -> forms.Form:
        """The part's form: bound to ``data`` when given, else showing ``initial``."""

    def initial(self, season: Season, source: Event | None = None) -> dict[str, Any]:
        """What a new night of ``season`` starts from: like ``source`` (a night being
        duplicated) when given, else the season's defaults for this part when it has
        them, else the same as its last night."""

    def wanted(self, form: forms.Form) -> bool:
        """Whether the host asked for this part (a form may be left off)."""

    def defaults(self, form: forms.Form) -> dict[str, Any]:
        """A valid form's values as the season keeps them (JSON), for ``initial``."""

    def save(self, form: forms.Form, event: Event, by: Any) -> None:
        """Make the part for the new ``event`` from a valid form; raises ``PartError``."""


_form_parts: dict[str, EventFormPart] = {}


def form_part_register(name: str, part: EventFormPart) -> EventFormPart:
    """Add ``part`` under ``name`` (the key of its defaults in the season)."""
    _form_parts[name] = part
    return part


def form_parts() -> dict[str, EventFormPart]:
    return dict(_form_parts)


# -- what other apps keep of an imported night ---------------------------------------------
#
# A night imported from The Tournament Director brings its levels and breaks. The series
# keeps results, not blind structures: each registered keeper is called, inside the import's
# transaction, with the night's name and its levels (``series.td_nights``: dicts with
# "kind" "level" or "break", "minutes", and for a level "small_blind", "big_blind", "ante"),
# and answers what it made of them, in the reader's language (shown after the import).

LevelsKeeper = Callable[[str, list[dict[str, Any]], Any], str]
_levels_keepers: list[LevelsKeeper] = []


def levels_keeper_register(keeper: LevelsKeeper) -> LevelsKeeper:
    if keeper not in _levels_keepers:
        _levels_keepers.append(keeper)
    return keeper


def levels_keep(name: str, levels: list[dict[str, Any]], by: Any) -> list[str]:
    """What every keeper made of ``levels`` (none registered: nothing is kept)."""
    return [keeper(name, levels, by) for keeper in _levels_keepers]
