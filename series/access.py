"""The pages' side of who sees what (the rules are in ``series.selectors``): a draft event
answers as if it did not exist to anyone but a director, and a members-only season asks a
visitor who is not logged in to log in."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from series import selectors
from series.models import Event, Season


def season_refusal(request: HttpRequest, season: Season) -> HttpResponse | None:
    """None when ``request.user`` may see the season, else the answer to send instead."""
    if selectors.season_shown_to(season, request.user):
        return None
    return redirect_to_login(request.get_full_path())


def event_refusal(request: HttpRequest, event: Event) -> HttpResponse | None:
    """None when ``request.user`` may see the event; raises 404 for a draft."""
    if selectors.event_shown_to(event, request.user):
        return None
    if event.is_draft:
        raise Http404(_("No such event."))
    return redirect_to_login(request.get_full_path())


def names_refusal(request: HttpRequest, event: Event) -> HttpResponse | None:
    """None when ``request.user`` may see the event and the names of who plays in it (a
    live lobby is nothing but names), else the answer to send instead: a draft answers
    404, a visitor who is not logged in is asked to."""
    refusal = event_refusal(request, event)
    if refusal is not None or selectors.names_shown_to(event.season, request.user):
        return refusal
    return redirect_to_login(request.get_full_path())
