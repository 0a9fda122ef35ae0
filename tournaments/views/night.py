"""A player's night on one phone page (``/tournaments/<id>/night/``), and their asks for a
rebuy or the add-on.

The page is always the viewer's own night: the player of the logged-in account, or the
guest whose PIN this browser proved (``tournaments.night_access.night_player``); no player
id is ever in the address or a form, so nobody can open another player's night. A visitor
who is nobody yet is offered the two ways in: log in, or a guest's PIN
(``tournaments:night_pin``).

The page paints the night once (``services.night``); ``static/tournaments/night.js`` then
keeps it live over the night socket (``tournaments.consumers.NightConsumer``), and the clock
and payouts over the clock's socket (``static/tournaments/clock.js``). The asks are POSTs
with CSRF: with htmx they answer with the night's live part and the message in it; without
JavaScript they redirect back to the page.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from series.models import Player
from tournaments.errors import TournamentError
from tournaments.models import PurchaseKind, Tournament
from tournaments.night_access import night_player
from tournaments.services import night as nights
from tournaments.services import purchase_requests


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related("event", "blind_structure"), pk=tournament_id
    )


def _viewer(request: HttpRequest, tournament: Tournament) -> Player | None:
    return night_player(request.user, request.session, tournament.pk)


@require_GET
def night(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    player = _viewer(request, tournament)
    here = reverse("tournaments:night", args=[tournament.pk])
    context = {"tournament": tournament, "event": tournament.event}
    if player is None:
        context.update(
            login_url=f"{reverse('login')}?{urlencode({'next': here})}",
            pin_url=reverse("tournaments:night_pin", args=[tournament.pk]),
        )
        return render(request, "tournaments/night.html", context)
    the_night = nights.night_read(tournament, player)
    context.update(
        night=the_night,
        state_html=nights.night_state_html(the_night, request),
        clock_socket=f"/ws/tournaments/{tournament.tv_token}/clock/",
        night_socket=f"/ws/tournaments/{tournament.pk}/night/?{urlencode({'lang': get_language()})}",
        moved_format=_(
            "Table %(from_table)s seat %(from_seat)s → table %(to_table)s seat %(to_seat)s"
        ),
    )
    return render(request, "tournaments/night.html", context)


def _back(request: HttpRequest, tournament: Tournament, player: Player) -> HttpResponse:
    """htmx: the night's live part with the message; without JavaScript: the page."""
    if request.htmx:
        the_night = nights.night_read(tournament, player)
        return HttpResponse(nights.night_state_html(the_night, request, show_messages=True))
    return redirect("tournaments:night", tournament.pk)


@require_POST
def night_ask(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The player asks for a rebuy (``stack``: their chips) or the add-on (``kind``)."""
    tournament = _tournament(tournament_id)
    player = _viewer(request, tournament)
    if player is None:
        return redirect("tournaments:night", tournament.pk)
    entry = nights.night_read(tournament, player).entry
    kind = request.POST.get("kind", "")
    try:
        if entry is None:
            raise TournamentError(_("You are not playing in this tournament."))
        purchase_requests.purchase_request_make(
            entry.pk, player, kind, stack=request.POST.get("stack")
        )
    except TournamentError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("Rebuy asked: waiting for the director.")
            if kind == PurchaseKind.REBUY
            else _("Add-on asked: waiting for the director."),
        )
    return _back(request, tournament, player)


@require_POST
def night_withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The player takes back a pending ask (``ask``: its id, one of their own)."""
    tournament = _tournament(tournament_id)
    player = _viewer(request, tournament)
    if player is None:
        return redirect("tournaments:night", tournament.pk)
    try:
        purchase_requests.purchase_request_withdraw(
            request.POST.get("ask"), player, tournament_id=tournament.pk
        )
    except TournamentError as error:
        messages.error(request, error.message)
    else:
        messages.info(request, _("Your ask is withdrawn."))
    return _back(request, tournament, player)


urlpatterns: list[URLPattern] = [
    path("<int:tournament_id>/night/", night, name="night"),
    path("<int:tournament_id>/night/ask/", night_ask, name="night_ask"),
    path("<int:tournament_id>/night/withdraw/", night_withdraw, name="night_withdraw"),
]
