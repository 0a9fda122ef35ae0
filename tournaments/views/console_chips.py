"""The console's chip counts: the chips section (the chip leader, the average stack, and the
newest counts against the chips in play) and the count page, one field per player still in,
grouped by table, for a count at a break or any time.

The count page is a plain form: it works the same on a phone with or without JavaScript.
A count is a director's POST with the form's one-time token (``console_action``); it goes
back to the console with what was saved and, once everyone is counted, how the total
compares with the chips in play. A refused count shows the page again with what was typed
and why, having recorded nothing. The section refreshes itself on ``tournament-changed``
like the console's other sections (an elimination changes the leader).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.translation import ngettext

from core.amounts import CHIPS_MAX
from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.permissions import director_required
from tournaments.services import chips
from tournaments.views.console import console_context
from tournaments.views.once import console_action

SECTION = "tournaments/_console_chips_section.html"
COUNT_PAGE = "tournaments/console_chips.html"
# The count form's fields: one per player still in, ``stack_<entry id>``.
PREFIX = "stack_"


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related("event", "blind_structure"), pk=tournament_id
    )


@console_context
def chips_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """What the console's chips section shows (nothing before the start or after the end)."""
    in_play = tournament.is_started and not tournament.is_over
    return {"chips": chips.chips_overview(tournament) if in_play else None}


def _typed(post: QueryDict) -> dict[str, str]:
    """The count form's fields as {entry id: value}, blank ones left out (not counted)."""
    return {
        name[len(PREFIX) :]: value.strip()
        for name, value in post.items()
        if name.startswith(PREFIX) and value.strip()
    }


def _count_page(
    request: HttpRequest,
    tournament: Tournament,
    typed: dict[str, str] | None = None,
    error: str | None = None,
) -> HttpResponse:
    overview = chips.chips_overview(tournament)
    typed = typed or {}
    tables = [
        {
            "number": table.number,
            "rows": [{"row": row, "typed": typed.get(str(row.entry_id), "")} for row in table.rows],
        }
        for table in overview.tables
    ]
    context = {
        "tournament": tournament,
        "chips": overview,
        "count_tables": tables,
        "count_error": error,
        "chips_max": CHIPS_MAX,
        "can_count": tournament.is_started and not tournament.is_over and overview.players,
    }
    return render(request, COUNT_PAGE, context)


@director_required
def console_chips(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The count page: one field per player still in, by table, each with their last count."""
    return _count_page(request, _tournament(tournament_id))


@director_required
def console_chips_section(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    return render(
        request, SECTION, {"tournament": tournament, **chips_context(request, tournament)}
    )


@console_action
def console_chips_count(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    typed = _typed(request.POST)
    try:
        counts = chips.chips_count(tournament_id, typed, by=request.user)
    except TournamentError as error:
        return _count_page(request, tournament, typed, error.message)
    saved = ngettext(
        "Saved the stack of %(count)s player.",
        "Saved the stacks of %(count)s players.",
        len(counts),
    ) % {"count": len(counts)}
    check = chips.chips_overview(tournament).check
    if check is not None:
        messages.success(request, f"{saved} {check.text}")
    else:
        messages.success(request, saved)
    return redirect(reverse("tournaments:console", args=[tournament_id]) + "#console-chips")


urlpatterns: list[URLPattern] = [
    path("<int:tournament_id>/console/chips/", console_chips, name="console_chips"),
    path(
        "<int:tournament_id>/console/chips/section/",
        console_chips_section,
        name="console_chips_section",
    ),
    path(
        "<int:tournament_id>/console/chips/count/", console_chips_count, name="console_chips_count"
    ),
]
