"""The console's "Requests" section: the players' asks for a rebuy or the add-on from their
night pages, each with one-tap Approve and Refuse (``services.purchase_requests``).

The section sits at the top of the console and shows only while an ask waits. Players ask
from their phones, not from this console, so it fetches itself every ``POLL_SECONDS`` as
well as on the console's ``tournament-changed`` event. Approve and Refuse are director's
POSTs with the form's one-time token (``console_action``): an approval records the rebuy or
add-on as the player's row would, so a double tap records once; a second tap on an answered
ask is refused with "already answered". With htmx a done tap answers 204 with
``tournament-changed`` (the players, the prize pool and the log follow); a refused one
answers with the section and the reason. Without JavaScript each goes back to the console
with its message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path
from django.utils.translation import gettext as _

from tournaments.errors import TournamentError
from tournaments.models import PurchaseKind, PurchaseRequest, Tournament
from tournaments.permissions import director_required
from tournaments.services import purchase_requests
from tournaments.views.console import console_context
from tournaments.views.once import console_action

SECTION = "tournaments/_console_requests_section.html"
POLL_SECONDS = 5


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("event"), pk=tournament_id)


@console_context
def requests_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    return {
        "purchase_asks": purchase_requests.purchase_requests_pending(tournament),
        "purchase_asks_poll": POLL_SECONDS,
    }


def _section(
    request: HttpRequest, tournament: Tournament, *, refused: bool = False
) -> HttpResponse:
    """The section alone; ``refused``: with the tap's message (the console page shows its
    messages itself)."""
    context = {
        "tournament": tournament,
        "show_messages": refused,
        **requests_context(request, tournament),
    }
    return render(request, SECTION, context)


@director_required
def console_requests_section(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _section(request, _tournament(tournament_id))


def _answer(
    request: HttpRequest,
    tournament_id: int,
    decide: Callable[[], PurchaseRequest],
    done: dict[str, str],
) -> HttpResponse:
    try:
        asked = decide()
    except TournamentError as error:
        messages.error(request, error.message)
        if request.htmx:
            return _section(request, _tournament(tournament_id), refused=True)
        return redirect("tournaments:console", tournament_id)
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Trigger"] = "tournament-changed"
        return response
    messages.success(request, done[asked.kind] % {"name": asked.entry.player.name})
    return redirect("tournaments:console", tournament_id)


@console_action
def console_request_approve(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _answer(
        request,
        tournament_id,
        lambda: purchase_requests.purchase_request_approve(
            request.POST.get("ask"), by=request.user, tournament_id=tournament_id
        ),
        {
            PurchaseKind.REBUY: _("Rebuy for %(name)s."),
            PurchaseKind.ADDON: _("Add-on for %(name)s."),
        },
    )


@console_action
def console_request_refuse(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _answer(
        request,
        tournament_id,
        lambda: purchase_requests.purchase_request_refuse(
            request.POST.get("ask"), by=request.user, tournament_id=tournament_id
        ),
        {
            PurchaseKind.REBUY: _("%(name)s's rebuy refused."),
            PurchaseKind.ADDON: _("%(name)s's add-on refused."),
        },
    )


urlpatterns: list[URLPattern] = [
    path(
        "<int:tournament_id>/console/requests/",
        console_requests_section,
        name="console_requests",
    ),
    path(
        "<int:tournament_id>/console/requests/approve/",
        console_request_approve,
        name="console_request_approve",
    ),
    path(
        "<int:tournament_id>/console/requests/refuse/",
        console_request_refuse,
        name="console_request_refuse",
    ),
]
