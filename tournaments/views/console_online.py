"""The console's online section: start on the live tables, house bots, pause and resume the
tournament, sit a seated player out or remove them (with a reason they read), offer a deal
on the players' screens, the lobby link.

Shown for an online tournament only (``_console_online.html``, included by the console
when the tournament is online). Each action is a director's POST calling one service.
Without JavaScript it redirects back to the console with a message; with htmx a refused
action answers with the section and the reason (nothing changed), a done one with the
``tournament-changed`` event on which every console section fetches itself again, since a
start or a deal changes the seats, the clock and the results too. Pause and resume repaint
the whole console.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core import request_values
from tournaments import player_panel, selectors
from tournaments.errors import TournamentError
from tournaments.forms import DealOfferForm
from tournaments.models import DealOffer, DealState, EntryState, Tournament
from tournaments.permissions import director_required
from tournaments.services import deals, lifecycle, online, results
from tournaments.views.console import _repaint, console_context
from tournaments.views.once import console_action

SECTION = "tournaments/_console_online_section.html"
BOTS_MAX = 300


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("event"), pk=tournament_id)


@console_context
def online_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """What the online section shows (nothing for a tournament played in person)."""
    if not tournament.online:
        return {"online": None}
    live = selectors.live_tables_of(tournament)
    latest = selectors.deal_latest(tournament)
    return {
        "online": {
            "tables": [
                {"number": number, "live_id": live_id} for number, live_id in sorted(live.items())
            ],
            "hands_in_play": selectors.hands_in_play(tournament) if live else 0,
            "start_refusal": lifecycle.start_refusal(tournament),
            "deal": player_panel.deal_view(latest, None),
            "deal_pending": latest if latest is not None and latest.is_pending else None,
            "deal_refusal": deals.offer_refusal(tournament),
            "deal_methods": results.DEAL_METHODS,
            "deal_form": DealOfferForm(),
            "bots_max": BOTS_MAX,
            # Who the director may sit out or remove: the players at a live seat.
            "seated": list(
                tournament.entries.filter(
                    state=EntryState.PLAYING, table_number__isnull=False, seat_number__isnull=False
                )
                .select_related("player")
                .order_by("table_number", "seat_number")
            )
            if live and tournament.is_started and not tournament.is_over
            else [],
            "reason_max": online.REASON_MAX,
        }
    }


def _section(request: HttpRequest, tournament_id: int, error: str | None = None) -> HttpResponse:
    tournament = _tournament(tournament_id)
    context = {
        "tournament": tournament,
        "online_error": error,
        **online_context(request, tournament),
    }
    return render(request, SECTION, context)


def _run(request: HttpRequest, tournament_id: int, action: Callable[[], str]) -> HttpResponse:
    _tournament(tournament_id)
    try:
        notice = action()
    except TournamentError as error:
        if request.htmx:
            return _section(request, tournament_id, error.message)
        messages.error(request, error.message)
        return redirect("tournaments:console", tournament_id)
    if request.htmx:
        response = _section(request, tournament_id)
        response["HX-Trigger"] = "tournament-changed"
        return response
    messages.success(request, notice)
    return redirect("tournaments:console", tournament_id)


@director_required
def console_online(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _section(request, tournament_id)


@console_action
def online_start(request: HttpRequest, tournament_id: int) -> HttpResponse:
    def action() -> str:
        # The start of an online tournament draws the seats, starts the clock and opens the
        # live tables (``tournament_start`` calls ``online.online_start`` in its transaction).
        lifecycle.tournament_start(tournament_id, by=request.user)
        return _("The tournament has started on the live tables.")

    return _run(request, tournament_id, action)


@console_action
def online_bots(request: HttpRequest, tournament_id: int) -> HttpResponse:
    def action() -> str:
        try:
            count = request_values.whole_number(
                request.POST.get("count"), minimum=-BOTS_MAX, maximum=BOTS_MAX
            )
        except request_values.BadValue:
            raise TournamentError(_("Say how many bots to seat.")) from None
        if not 1 <= count <= BOTS_MAX:
            raise TournamentError(
                _("Seat between 1 and %(max)s bots at a time.") % {"max": BOTS_MAX}
            )
        added = online.online_bots_fill(tournament_id, count, by=request.user)
        seated = len(added) if added is not None else count
        return ngettext("%(count)s house bot joined.", "%(count)s house bots joined.", seated) % {
            "count": seated
        }

    return _run(request, tournament_id, action)


@console_action
def console_online_pause(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Pause the tournament: the clock stops, each table finishes its hand and waits. The
    whole console is repainted (the clock changes too)."""
    try:
        online.online_pause(tournament_id, by=request.user)
    except TournamentError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request, _("Paused: each table finishes its hand, then waits for you to resume.")
        )
    return _repaint(request, tournament_id)


@console_action
def console_online_resume(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Resume the tournament: the clock runs and the tables deal."""
    try:
        deals.resume_withdrawing(
            tournament_id, by=request.user, withdraw=request.POST.get("withdraw_deal")
        )
    except TournamentError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Resumed: the clock runs and the tables deal."))
    return _repaint(request, tournament_id)


@console_action
def online_deal_offer(request: HttpRequest, tournament_id: int) -> HttpResponse:
    def action() -> str:
        form = DealOfferForm(request.POST)
        if not form.is_valid():
            raise TournamentError(form.first_error())
        offer = deals.deal_offer(
            tournament_id,
            form.cleaned_data["method"],
            by=request.user,
            answer_minutes=form.cleaned_data["answer_minutes"],
        )
        if offer.state == DealState.HELD:
            return _("Deal offered: the players see it when the hands in play have ended.")
        return _("Deal offered: the players answer on their screens.")

    return _run(request, tournament_id, action)


@console_action
def online_deal_cancel(request: HttpRequest, tournament_id: int) -> HttpResponse:
    def action() -> str:
        offer_id = request_values.id_or_none(request.POST.get("offer"))
        if (
            offer_id is None
            or not DealOffer.objects.filter(pk=offer_id, tournament_id=tournament_id).exists()
        ):
            raise TournamentError(_("This deal does not exist."))
        deals.deal_cancel(offer_id, by=request.user)
        return _("The deal is withdrawn; the tables play on.")

    return _run(request, tournament_id, action)


PLAYER_ACTIONS = ("sit-out", "remove")


@console_action
def online_player(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The director sits a seated player out, or removes them, with a reason they read."""

    def action() -> str:
        what = request.POST.get("action")
        if what not in PLAYER_ACTIONS:
            raise TournamentError(_("Choose to sit the player out or to remove them."))
        entry_id = request_values.id_or_none(request.POST.get("entry"))
        if entry_id is None:
            raise TournamentError(_("Choose a player."))
        reason = request.POST.get("reason", "")
        if what == "sit-out":
            entry = online.online_entry_sit_out(tournament_id, entry_id, reason, by=request.user)
            return _("%(name)s sits out; they read your reason.") % {"name": entry.player.name}
        entry = online.online_entry_remove(tournament_id, entry_id, reason, by=request.user)
        return _("%(name)s is out (place %(place)s); they read your reason.") % {
            "name": entry.player.name,
            "place": entry.place,
        }

    return _run(request, tournament_id, action)


urlpatterns: list[URLPattern] = [
    path("<int:tournament_id>/console/online/", console_online, name="console_online"),
    path("<int:tournament_id>/console/online/start/", online_start, name="online_start"),
    path("<int:tournament_id>/console/online/bots/", online_bots, name="online_bots"),
    path(
        "<int:tournament_id>/console/online/pause/",
        console_online_pause,
        name="console_online_pause",
    ),
    path(
        "<int:tournament_id>/console/online/resume/",
        console_online_resume,
        name="console_online_resume",
    ),
    path("<int:tournament_id>/console/online/player/", online_player, name="online_player"),
    path("<int:tournament_id>/console/online/deal/", online_deal_offer, name="online_deal_offer"),
    path(
        "<int:tournament_id>/console/online/deal/cancel/",
        online_deal_cancel,
        name="online_deal_cancel",
    ),
]
