"""The console's guest PINs: who is locked out by wrong PINs, and a new PIN for a guest.

Wrong PINs typed from one address only make that address wait
(``tournaments.services.guest_pins``); a guest's name is locked only by tries from several
addresses. The section lists those locked, and gives any guest a new PIN (a lost card, or
a lock to end now): the director reads it to the guest, whose old PIN stops working. The
PIN is shown in the answer only, never kept in a message or the log.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import URLPattern, path

from tournaments import selectors
from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.services import guest_pins
from tournaments.views.console import console_context, console_render
from tournaments.views.once import console_action

SECTION = "tournaments/_console_guest_pins.html"


@console_context
def guest_pins_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """What the console's guest PIN section shows: nothing for an online tournament (no seat
    cards) or one without guests."""
    if tournament.online:
        return {"pin_guests": []}
    locked = guest_pins.guest_pins_locked(tournament)
    guests = list(selectors.guest_entrants(tournament))
    # The locked first: they are the reason the director opened the section.
    guests.sort(key=lambda guest: guest.pk not in locked)
    return {
        "pin_guests": [{"player": guest, "locked": locked.get(guest.pk)} for guest in guests],
        "pin_locked": len(locked),
    }


@console_action
def console_guest_pin(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A new PIN for the guest chosen: the lock on their name ends, their old PIN stops."""
    tournament = get_object_or_404(Tournament.objects.select_related("event"), pk=tournament_id)
    extra: dict[str, Any] = {}
    raw = request.POST.get("player", "")
    # Not a number is no guest's id either: the service refuses it like any other.
    player_id = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 12 else 0
    try:
        player, pin = guest_pins.guest_pin_reissue(tournament, player_id)
    except TournamentError as refused:
        extra["pin_error"] = refused.message
    else:
        extra["pin_issued"] = {"player": player, "pin": pin}
    if request.htmx:
        context = {"tournament": tournament, **guest_pins_context(request, tournament), **extra}
        # A refusal answers 200 like every console section: htmx swaps no 4xx answer.
        return render(request, SECTION, context)
    return console_render(request, tournament, extra)


urlpatterns: list[URLPattern] = [
    path("<int:tournament_id>/console/guest-pin/", console_guest_pin, name="console_guest_pin"),
]
