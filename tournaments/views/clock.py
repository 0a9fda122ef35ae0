"""Views of the tournaments: the TV clock, its JSON for overlays, the console's clock controls.

The TV clock is public behind the tournament's unguessable ``tv_token`` (no login: the
laptop on the TV, the players' phones, a stream overlay). The page is painted from
``clock_payload`` so it shows before its socket connects; static/tournaments/clock.js then
counts down locally from the stored end time and follows the socket.

The controls are POST only and for directors: each calls one clock service and re-renders
the console's clock partial (htmx) or goes back to the page it came from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from series import request_values
from series.permissions import is_director
from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.services import clock as clock_services
from tournaments.views.once import once


def _payload(token: str) -> dict[str, Any]:
    tournament_id = Tournament.objects.filter(tv_token=token).values_list("pk", flat=True).first()
    payload = clock_services.clock_payload(tournament_id) if tournament_id is not None else None
    if payload is None:
        raise Http404(_("No tournament has this clock link."))
    return payload


@require_GET
def tv_clock(request: HttpRequest, token: str) -> HttpResponse:
    """The full-screen clock for a TV or a phone."""
    payload = _payload(token)
    context = {
        "payload": payload,
        "token": token,
        "socket_path": f"/ws/tournaments/{token}/clock/",
        "json_url": reverse("tournaments:tv_clock_json", args=[token]),
    }
    return render(request, "tournaments/tv_clock.html", context)


@require_GET
def tv_clock_json(request: HttpRequest, token: str) -> JsonResponse:
    """The TV clock's data for stream overlays: instants in epoch milliseconds, with the
    server's ``now_ms``, so an overlay counts down locally and re-reads now and then."""
    response = JsonResponse(_payload(token))
    response["Cache-Control"] = "no-store"
    # An overlay is a page of its own origin (a streaming tool's browser source): the data
    # is public to whoever holds the token, so any origin may read it.
    response["Access-Control-Allow-Origin"] = "*"
    return response


# ---------------------------------------------------------------------------- controls

Action = Callable[[Tournament, HttpRequest], None]


def _back(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    target = request_values.next_path(request, request.POST.get("next"))
    if target:
        return redirect(target)
    return redirect("tournaments:console", tournament_id=tournament.pk)


def _control(action: Action) -> Callable[[HttpRequest, int], HttpResponse]:
    """A director's clock control: POST only, then the partial (htmx) or back.

    Not marked ``director_only`` (the director-page walk opens pages with GET); the check is
    the same: anonymous visitors log in, players get 403. Like every console form, a
    control is recorded once per form token (``once``).
    """

    @require_POST
    @once
    def view(request: HttpRequest, tournament_id: int) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(
                request_values.next_path(request, request.POST.get("next"))
                or request.get_full_path()
            )
        if not is_director(request.user):
            raise PermissionDenied(_("Only directors may run the clock."))
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        error = None
        try:
            action(tournament, request)
        except TournamentError as refused:
            error = str(refused)
        if request.htmx:
            tournament.refresh_from_db()
            context = {"tournament": tournament, "clock_error": error}
            status = 400 if error else 200
            response = render(request, "tournaments/_console_clock.html", context, status=status)
            if not error:
                # The console's other sections (the action log, Undo) listen for this.
                response["HX-Trigger"] = "tournament-changed"
            return response
        if error:
            messages.error(request, error)
        return _back(request, tournament)

    view.__name__ = view.__qualname__ = f"clock_{action.__name__}"
    view.__doc__ = action.__doc__
    return view


def start(tournament: Tournament, request: HttpRequest) -> None:
    """Start the clock (a tournament already in play whose clock has not started)."""
    clock_services.clock_start(tournament.pk, by=request.user)


def pause(tournament: Tournament, request: HttpRequest) -> None:
    """Pause the clock."""
    clock_services.clock_pause(tournament.pk, by=request.user)


def resume(tournament: Tournament, request: HttpRequest) -> None:
    """Resume the clock."""
    clock_services.clock_resume(tournament.pk, by=request.user)


def adjust(tournament: Tournament, request: HttpRequest) -> None:
    """Add or remove time: ``seconds`` in the form, negative to remove."""
    try:
        seconds = request_values.whole_number(
            request.POST.get("seconds"),
            minimum=-request_values.INTEGER_MAX,
            maximum=request_values.INTEGER_MAX,
        )
    except request_values.BadValue:
        raise TournamentError(_("Say how many seconds to add or remove.")) from None
    clock_services.clock_adjust(tournament.pk, seconds, by=request.user)


def next_level(tournament: Tournament, request: HttpRequest) -> None:
    """Go to the next level."""
    clock_services.clock_next(tournament.pk, by=request.user)


def previous_level(tournament: Tournament, request: HttpRequest) -> None:
    """Go back to the previous level."""
    clock_services.clock_previous(tournament.pk, by=request.user)


def break_now(tournament: Tournament, request: HttpRequest) -> None:
    """Start the next break now."""
    clock_services.clock_break_now(tournament.pk, by=request.user)


urlpatterns: list[URLPattern] = [
    path("tv/<slug:token>/", tv_clock, name="tv_clock"),
    path("tv/<slug:token>.json", tv_clock_json, name="tv_clock_json"),
    path("<int:tournament_id>/clock/start/", _control(start), name="clock_start"),
    path("<int:tournament_id>/clock/pause/", _control(pause), name="clock_pause"),
    path("<int:tournament_id>/clock/resume/", _control(resume), name="clock_resume"),
    path("<int:tournament_id>/clock/adjust/", _control(adjust), name="clock_adjust"),
    path("<int:tournament_id>/clock/next/", _control(next_level), name="clock_next"),
    path("<int:tournament_id>/clock/previous/", _control(previous_level), name="clock_previous"),
    path("<int:tournament_id>/clock/break/", _control(break_now), name="clock_break"),
]
