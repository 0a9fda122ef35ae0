"""What other apps add to a live table's page: a tournament's offers and deal, say.

The tables know nothing of tournaments (docs/architecture.md; import-linter forbids the
import), yet a tournament table's page must show a player their rebuy or the deal on offer.
So the dependency is inverted, as ``series.event_sections`` does for the event page: an app
that knows those things registers a provider here at start-up (its ``AppConfig.ready``), and
the table page asks every provider for the panels of the table and viewer.

A provider's ``claims(table)`` says whether the table is one of its own; the page then
refreshes its panels (``tables.views.table_panels``) when a hand ends and every
``PANELS_REFRESH_SECONDS``, which a cash table, claimed by nobody, never does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from django.http import HttpRequest

    from tables.models import Table

Panel = tuple[str, dict[str, Any]]

# A hand's end refreshes the panels at once; this catches what happens between hands (a
# deal offered while the tables are held, the add-on break starting). A tournament's panel
# is 14 small queries whatever the field (tests/tournaments/test_lobby_cost.py): 300 players
# cost 15 requests a second at most.
PANELS_REFRESH_SECONDS = 20


class TablePanelProvider(Protocol):
    def claims(self, table: Table) -> bool:
        """Whether ``table`` is one of this app's tables (its page then refreshes panels)."""

    def panels(self, table: Table, request: HttpRequest) -> list[Panel]:
        """(template name, context) pairs rendered in order on the table's page."""

    def lobby_url(self, table: Table) -> str | None:
        """Where the table page's "Lobby" leads for one of this app's tables (a
        tournament's own lobby), or None for the cash tables' list."""


_providers: list[TablePanelProvider] = []


def register(provider: TablePanelProvider) -> TablePanelProvider:
    """Add ``provider``; registering the same one again changes nothing."""
    if provider not in _providers:
        _providers.append(provider)
    return provider


def unregister(provider: TablePanelProvider) -> None:
    if provider in _providers:
        _providers.remove(provider)


def claimed(table: Table) -> bool:
    return any(provider.claims(table) for provider in _providers)


def lobby_url_for(table: Table) -> str | None:
    for provider in _providers:
        if provider.claims(table):
            url = provider.lobby_url(table)
            if url:
                return url
    return None


def panels_for(table: Table, request: HttpRequest) -> list[Panel]:
    out: list[Panel] = []
    for provider in _providers:
        if provider.claims(table):
            out.extend(provider.panels(table, request))
    return out
