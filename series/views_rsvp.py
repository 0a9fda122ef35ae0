"""Who is coming: the RSVP block of an event page and the answer it posts.

The form posts and redirects back to the event page without JavaScript; with htmx it swaps
the block in place. A player answers for themselves only: the form carries no player, and
a player id slipped into it is never read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core import request_values
from core.permissions import is_director
from series import selectors
from series.models import GUEST_NAMES_MAX, GUESTS_MAX, Event, Rsvp, RsvpAnswer
from series.services.rsvp import (
    RsvpError,
    rsvp_answer,
    rsvp_event_open,
    rsvp_fewer_would_fit,
)


@dataclass(frozen=True)
class RsvpLine:
    """One name of the lists: never an e-mail address; the guests' names only for the
    director and for the player who brings them."""

    name: str
    guests: int
    guest_names: str
    is_me: bool
    is_guest: bool


def _lines(rows: list[Rsvp], my_player_id: int | None, director: bool) -> list[RsvpLine]:
    return [
        RsvpLine(
            name=selectors.name_shown(row.player.name),
            guests=row.guests,
            guest_names=row.guest_names if director or row.player_id == my_player_id else "",
            is_me=row.player_id == my_player_id,
            is_guest=row.player.is_guest,
        )
        for row in rows
    ]


def rsvp_context(request: HttpRequest, event: Event) -> dict[str, Any]:
    """What ``series/_rsvp.html`` shows (the event page includes the same block)."""
    summary = selectors.rsvp_summary(event)
    player = selectors.player_of_user(request.user)
    my_id = player.pk if player else None
    mine = summary.of_player(my_id)
    director = is_director(request.user)
    # A visitor who is not logged in sees how many are coming, not who (unless the season
    # is public).
    names = selectors.names_shown_to(event.season, request.user)
    return {
        "event": event,
        "rsvp_open": rsvp_event_open(event, timezone.now()),
        "summary": summary,
        "mine": mine,
        "my_waiting_place": summary.waiting_place(mine) if mine else None,
        "my_fewer_fit": rsvp_fewer_would_fit(mine, summary.seats_left),
        "names_shown": names,
        "going_lines": _lines(summary.going, my_id, director) if names else [],
        "waiting_lines": _lines(summary.waiting, my_id, director) if names else [],
        "maybe_lines": _lines(summary.maybe, my_id, director) if names else [],
        "not_going_lines": _lines(summary.not_going, my_id, director) if names else [],
        "guest_choices": range(GUESTS_MAX + 1),
        "guest_names_max": GUEST_NAMES_MAX,
        "answers": RsvpAnswer,
    }


def _event_page(event_id: int) -> str:
    return reverse("series:event", args=[event_id]) + "#rsvp"


def _said(request: HttpRequest, rsvp: Rsvp) -> None:
    """The message after an answer (the block says the same, for the page without htmx)."""
    if rsvp.answer == RsvpAnswer.GOING and rsvp.waiting:
        messages.warning(request, _("Not enough seats are left: you are on the waiting list."))
    elif rsvp.answer == RsvpAnswer.GOING:
        messages.success(request, _("You are going. See you at the table!"))
    elif rsvp.answer == RsvpAnswer.MAYBE:
        messages.success(request, _("Noted: maybe."))
    else:
        messages.success(request, _("Noted: you are not going."))


@require_POST
def rsvp(request: HttpRequest, event_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(_event_page(event_id))
    event = selectors.event_for_page(event_id)
    if event is None or not selectors.event_shown_to(event, request.user):
        raise Http404(_("No such event."))
    try:
        guests = request_values.whole_number(
            request.POST.get("guests", "0") or "0", minimum=0, maximum=GUESTS_MAX
        )
        names = request_values.text(request.POST.get("guest_names"), max_length=GUEST_NAMES_MAX)
    except request_values.BadValue as error:
        messages.error(request, _("Guests: %(problem)s") % {"problem": error.message})
    else:
        try:
            answered = rsvp_answer(
                event.pk, request.user, request.POST.get("answer"), guests, names
            )
        except RsvpError as error:
            messages.error(request, error.message)
        else:
            _said(request, answered)
    if request.htmx:
        return render(request, "series/_rsvp.html", rsvp_context(request, event))
    return redirect(_event_page(event.pk))
