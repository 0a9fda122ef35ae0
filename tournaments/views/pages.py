"""Pages of a tournament: its settings (directors), and its public page with registration.

Thin views: check who may do it, call a selector or a service, render. Registering and
unregistering post and redirect without JavaScript; with htmx they swap the registration
block in place.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from core import request_values
from series import selectors as series_selectors
from series.access import event_refusal
from series.models import Event, Player
from tournaments import selectors
from tournaments.errors import TournamentError
from tournaments.forms import TournamentForm
from tournaments.models import EntryState, Tournament
from tournaments.permissions import director_required, is_director
from tournaments.services import entries, lifecycle


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related("event", "event__season", "blind_structure"),
        pk=tournament_id,
    )


@director_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    existing = Tournament.objects.filter(event=event).first()
    if existing is not None:
        return redirect("tournaments:edit", existing.pk)
    form = TournamentForm(request.POST or None, instance=Tournament(event=event), event=event)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = lifecycle.tournament_create(event, by=request.user, **form.settings())
        except TournamentError as error:
            form.add_service_error(error.field, error.message)
        else:
            messages.success(
                request, _("The tournament of “%(event)s” is set up.") % {"event": event.name}
            )
            return redirect(tournament.get_absolute_url())
    status = 400 if request.method == "POST" else 200
    context = {"form": form, "event": event, "tournament": None}
    return render(request, "tournaments/tournament_form.html", context, status=status)


@director_required
@require_http_methods(["GET", "POST"])
def tournament_edit(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    form = TournamentForm(request.POST or None, instance=tournament, event=tournament.event)
    if request.method == "POST" and form.is_valid():
        try:
            lifecycle.tournament_update(tournament.pk, by=request.user, **form.settings())
        except TournamentError as error:
            form.add_service_error(error.field, error.message)
        else:
            messages.success(request, _("Settings saved."))
            return redirect(tournament.get_absolute_url())
    status = 400 if request.method == "POST" else 200
    context = {"form": form, "event": tournament.event, "tournament": tournament}
    return render(request, "tournaments/tournament_form.html", context, status=status)


def registration_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """What ``_registration.html`` shows; public because the series' event page shows the
    same block (``tournaments.event_section``)."""
    player = (
        Player.objects.filter(user=request.user).first() if request.user.is_authenticated else None
    )
    mine = selectors.entry_live_of(tournament, player) if player else None
    refusal = entries.registration_refusal(tournament)
    waiting = list(selectors.entries_waiting(tournament))
    return {
        "tournament": tournament,
        # Who registered is "who is coming": names for members, a count for a visitor.
        "names_shown": series_selectors.names_shown_to(tournament.event.season, request.user),
        "registered": list(selectors.entries_registered(tournament)),
        "waiting": waiting,
        "mine": mine,
        "my_waiting_place": waiting.index(mine) + 1 if mine in waiting else None,
        "registration_refusal": refusal,
        "can_register": refusal is None and mine is None,
        "can_unregister": mine is not None and mine.state != EntryState.PLAYING,
        "places_taken": selectors.places_taken(tournament),
    }


def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    # A draft's tournament is the directors' (404), a members-only season's asks to log in.
    refusal = event_refusal(request, tournament.event)
    if refusal is not None:
        return refusal
    context = registration_context(request, tournament)
    mine = context["mine"]
    context.update(
        {
            # A seated player's table and seat, at the top where a phone shows it first.
            "seat_in_header": mine is not None
            and mine.state == EntryState.PLAYING
            and mine.table_number is not None
            and not tournament.is_over,
            "event": tournament.event,
            "levels": selectors.blind_structure_table(tournament),
            "level_number": selectors.current_level_number(tournament),
            "rebuy_limit": entries.rebuy_limit(tournament),
            "is_director": is_director(request.user),
        }
    )
    return render(request, "tournaments/detail.html", context)


def _next_url(request: HttpRequest) -> str | None:
    """Where the form came from when it was not this tournament's page (the series' event
    page posts here too), if it is an address of this site."""
    return request_values.next_path(request, request.POST.get("next"))


def _registration_response(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    next_url = _next_url(request)
    if request.htmx:
        context = registration_context(request, tournament)
        context["next_url"] = next_url
        return render(request, "tournaments/_registration.html", context)
    return redirect(next_url or tournament.get_absolute_url())


@require_POST
def tournament_register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("tournaments:detail", args=[tournament_id]))
    try:
        entry = entries.entry_register(tournament_id, request.user)
    except TournamentError as error:
        messages.error(request, error.message)
    else:
        if entry.state == EntryState.WAITING:
            messages.warning(request, _("The tournament is full: you are on the waiting list."))
        else:
            messages.success(request, _("You are registered. See you at the table!"))
    return _registration_response(request, tournament_id)


@require_POST
def tournament_unregister(request: HttpRequest, tournament_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("tournaments:detail", args=[tournament_id]))
    try:
        entries.entry_unregister(tournament_id, request.user)
    except TournamentError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("You are no longer registered."))
    return _registration_response(request, tournament_id)


urlpatterns: list[URLPattern] = [
    path("event/<int:event_id>/new/", tournament_new, name="new"),
    path("<int:tournament_id>/", tournament_detail, name="detail"),
    path("<int:tournament_id>/edit/", tournament_edit, name="edit"),
    path("<int:tournament_id>/register/", tournament_register, name="register"),
    path("<int:tournament_id>/unregister/", tournament_unregister, name="unregister"),
]
