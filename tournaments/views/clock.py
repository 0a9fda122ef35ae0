"""Views of the tournaments: the TV clock, its JSON for overlays, the console's clock controls.

The TV clock is public behind the tournament's unguessable ``tv_token`` (no login: the
laptop on the TV, the players' phones, a stream overlay). The page is painted from
``clock_payload`` so it shows before its socket connects; static/tournaments/clock.js then
counts down locally from the stored end time and follows the socket.

The controls are POST only and for directors: each calls one clock service and re-renders
the console's clock partial (htmx) or goes back to the page it came from: the clock itself,
quick changes to the night's levels, and hand-for-hand. The TV's layout (what it shows
besides the clock, its theme) is a console action too, with its own section.

A table's dealer page (``clock_dealer``) needs no login: the director opens its link on the
dealer's phone, and its key opens that table's "hand done" page only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import URLPattern, path, reverse
from django.utils.crypto import constant_time_compare
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core import request_values
from core.permissions import is_director
from core.site_address import WIFI_COMMAND, is_loopback, url_is_loopback
from tournaments.blind_structures import MAX_MINUTES
from tournaments.clock import MOST_CHIPS
from tournaments.errors import TournamentError
from tournaments.models import Tournament, TvTheme
from tournaments.permissions import director_required
from tournaments.services import tv as tv_services
from tournaments.services.clock.controls import (
    clock_adjust,
    clock_next,
    clock_pause,
    clock_previous,
    clock_resume,
    clock_start,
)
from tournaments.services.clock.hand_for_hand import (
    clock_hand_done,
    clock_hand_for_hand_start,
    clock_hand_for_hand_stop,
)
from tournaments.services.clock.levels import (
    clock_break_add,
    clock_break_now,
    clock_level_add,
    clock_levels_minutes,
    clock_row_remove,
)
from tournaments.services.clock.payload import clock_ahead, clock_payload
from tournaments.services.clock.reads import clock_dealer_key, clock_hand_for_hand_read
from tournaments.views.console import console_context
from tournaments.views.once import console_action, once

# The chip counts' block of the TV (another area's), included when the layout shows it.
TV_CHIPS = "tournaments/_tv_chips.html"
# The console's section with the TV's layout form.
TV_SECTION = "tournaments/_console_tv.html"
# States in which the TV shows the end instead of the clock.
OVER = ("finished", "cancelled")


def _payload(token: str) -> dict[str, Any]:
    tournament_id = Tournament.objects.filter(tv_token=token).values_list("pk", flat=True).first()
    payload = clock_payload(tournament_id) if tournament_id is not None else None
    if payload is None:
        raise Http404(_("No tournament has this clock link."))
    return payload


def _chips_template() -> str | None:
    """The chip counts' block of the TV, when the tree has it."""
    try:
        get_template(TV_CHIPS)
    except TemplateDoesNotExist:
        return None
    return TV_CHIPS


@require_GET
def tv_clock(request: HttpRequest, token: str) -> HttpResponse:
    """The full-screen clock for a TV or a phone, laid out as the director chose."""
    payload = _payload(token)
    chips_template = _chips_template()
    context = {
        "payload": payload,
        "layout": payload["tv"]["layout"],
        "results": payload["tv"]["results"],
        "over": payload["tournament"]["state"] in OVER,
        "chips_template": chips_template,
        # Included only when the layout shows it (and the tree has it).
        "chips_shown": bool(chips_template and payload["tv"]["layout"]["show_chips"]),
        "token": token,
        "socket_path": f"/ws/tournaments/{token}/clock/",
        "json_url": reverse("tournaments:tv_clock_json", args=[token]),
        "ahead": clock_ahead(payload["tournament"]["id"]),
    }
    address = _night_address(request, payload["tournament"]["id"])
    context["night_qr"] = _night_qr(address)
    # A loopback address in the code: no phone can open it, and the TV says how to serve on
    # the Wi-Fi instead.
    host = urlsplit(address).hostname or ""
    context["loopback_host"] = host if is_loopback(host) else None
    context["wifi_command"] = WIFI_COMMAND
    return render(request, "tournaments/tv_clock.html", context)


def _night_address(request: HttpRequest, tournament_id: int) -> str:
    """The players' night page as phones reach it: the TV's own address, unless that is a
    loopback one and the site knows a better (``SITE_URL``, which ``make run`` derives from
    the address it serves on)."""
    path = reverse("tournaments:night", args=[tournament_id])
    url = request.build_absolute_uri(path)
    if url_is_loopback(url) and not url_is_loopback(settings.SITE_URL):
        return settings.SITE_URL + path
    return url


def _night_qr(url: str) -> str:
    """The QR code of the players' night page, as inline SVG for the TV's corner.

    Drawn here by segno (SVG, no image file): a phone that scans it opens the night page,
    which asks for a login or a guest's PIN. Error correction M survives a glare on the
    screen; the quiet zone of 4 modules is the standard's, which phones need to find it.
    """
    svg = segno.make(url, error="m").svg_inline(
        scale=1,
        border=4,
        omitsize=True,
        svgclass="tv-qr-code",
        title=_("Scan for your seat and the clock"),
        dark="#000",
        light="#fff",
    )
    # segno escapes the title and writes the URL as modules, not text.
    return mark_safe(svg)


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
            context = {
                "tournament": tournament,
                "clock_error": error,
                # The panel the form came from stays open (the night's levels).
                "clock_panel": request.POST.get("panel"),
            }
            # A refusal answers 200 like every console section: htmx swaps no 4xx answer.
            response = render(request, "tournaments/_console_clock.html", context)
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
    clock_start(tournament.pk, by=request.user)


def pause(tournament: Tournament, request: HttpRequest) -> None:
    """Pause the clock."""
    clock_pause(tournament.pk, by=request.user)


def resume(tournament: Tournament, request: HttpRequest) -> None:
    """Resume the clock."""
    clock_resume(tournament.pk, by=request.user)


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
    clock_adjust(tournament.pk, seconds, by=request.user)


def next_level(tournament: Tournament, request: HttpRequest) -> None:
    """Go to the next level."""
    clock_next(tournament.pk, by=request.user)


def previous_level(tournament: Tournament, request: HttpRequest) -> None:
    """Go back to the previous level."""
    clock_previous(tournament.pk, by=request.user)


# The console's "Break now" buttons (``rest``): keep the rest of the level in play for after
# the break, or skip it. A form without the field (a console page served before the choice
# was offered) meant the break after the level: skip.
BREAK_REST = {"keep": True, "skip": False}


def break_now(tournament: Tournament, request: HttpRequest) -> None:
    """Start a break now; then the rest of the level in play (``rest=keep``) or the level
    after it (``rest=skip``)."""
    choice = request.POST.get("rest", "skip")
    if choice not in BREAK_REST:
        raise TournamentError(_("Choose to keep the rest of the level or skip it."))
    clock_break_now(tournament.pk, by=request.user, keep_rest=BREAK_REST[choice])


# ---------------------------------------------------------------------------- quick changes


def _number(request: HttpRequest, name: str, refusal: str, *, minimum: int, maximum: int) -> int:
    try:
        return request_values.whole_number(request.POST.get(name), minimum=minimum, maximum=maximum)
    except request_values.BadValue:
        raise TournamentError(refusal) from None


def _optional(request: HttpRequest, name: str, refusal: str, *, maximum: int) -> int | None:
    if not (request.POST.get(name) or "").strip():
        return None
    return _number(request, name, refusal, minimum=0, maximum=maximum)


def _seen(request: HttpRequest) -> dict[str, int | None]:
    """What the form showed: the clock's version and the row in play (the services refuse
    a form shown before the clock moved on). A form that sends them must send numbers."""
    refusal = _("This form is out of date: reload the console and try again.")
    seen: dict[str, int | None] = {"version": None, "expected_index": None}
    for name, key, most in (
        ("version", "version", request_values.BIGINT_MAX),
        ("at", "expected_index", request_values.INTEGER_MAX),
    ):
        if name in request.POST:
            seen[key] = _number(request, name, refusal, minimum=0, maximum=most)
    return seen


def _minutes(request: HttpRequest) -> int:
    refusal = _("Say how many minutes, from 1 to %(most)s.") % {"most": MAX_MINUTES}
    return _number(request, "minutes", refusal, minimum=1, maximum=MAX_MINUTES)


def level_add(tournament: Tournament, request: HttpRequest) -> None:
    """Add a level after the row in play: its blinds, ante and (limit games) bets."""
    refusal = _("Say the small blind, the big blind and the ante in whole chips.")
    amounts = {
        name: _optional(request, name, refusal, maximum=MOST_CHIPS)
        for name in ("small_blind", "big_blind", "ante", "small_bet", "big_bet")
    }
    if amounts["small_blind"] is None or amounts["big_blind"] is None:
        raise TournamentError(refusal)
    clock_level_add(
        tournament.pk,
        by=request.user,
        small_blind=amounts["small_blind"],
        big_blind=amounts["big_blind"],
        ante=amounts["ante"] or 0,
        ante_kind=request.POST.get("ante_kind", "none"),
        small_bet=amounts["small_bet"],
        big_bet=amounts["big_bet"],
        minutes=_minutes(request) if (request.POST.get("minutes") or "").strip() else None,
        **_seen(request),
    )


def row_remove(tournament: Tournament, request: HttpRequest) -> None:
    """Remove a level or a break still to come."""
    row = _number(
        request,
        "row",
        _("Choose the row to remove."),
        minimum=0,
        maximum=request_values.INTEGER_MAX,
    )
    clock_row_remove(tournament.pk, row, by=request.user, **_seen(request))


def levels_minutes(tournament: Tournament, request: HttpRequest) -> None:
    """Give the levels after the one in play a new length."""
    clock_levels_minutes(tournament.pk, _minutes(request), by=request.user)


def break_add(tournament: Tournament, request: HttpRequest) -> None:
    """Add a break after a level (the one in play or one to come)."""
    minutes = _minutes(request)
    after = _number(
        request,
        "after",
        _("Choose the level the break follows."),
        minimum=0,
        maximum=request_values.INTEGER_MAX,
    )
    clock_break_add(tournament.pk, minutes, after=after, by=request.user, **_seen(request))


# ---------------------------------------------------------------------------- hand-for-hand


def hand_for_hand_start(tournament: Tournament, request: HttpRequest) -> None:
    """Turn hand-for-hand on: the clock stops."""
    clock_hand_for_hand_start(tournament.pk, by=request.user)


def hand_for_hand_stop(tournament: Tournament, request: HttpRequest) -> None:
    """Turn hand-for-hand off: the clock runs again."""
    clock_hand_for_hand_stop(tournament.pk, by=request.user)


def _hand(request: HttpRequest) -> int:
    return _number(
        request,
        "hand",
        _("This page is out of date: reload it and try again."),
        minimum=0,
        maximum=request_values.INTEGER_MAX,
    )


def hand_done(tournament: Tournament, request: HttpRequest) -> None:
    """A table (``table``, or "all": every table) is done with the hand-for-hand hand."""
    hand = _hand(request)
    table: int | None = None
    if request.POST.get("table") != "all":
        table = _number(request, "table", _("Say which table is done."), minimum=1, maximum=32767)
    clock_hand_done(tournament.pk, table, hand=hand, by=request.user)


@director_required
@require_GET
def clock_panel(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The console's clock section alone: it fetches itself again when another section
    changed the tournament (an elimination may burst the bubble) or when hand-for-hand
    moved on from a dealer's phone."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(request, "tournaments/_console_clock.html", {"tournament": tournament})


def _dealer_table(tournament_id: int, table: int, key: str) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("event"), pk=tournament_id)
    if not constant_time_compare(key, clock_dealer_key(tournament, table)):
        raise Http404(_("This dealer link does not work."))
    return tournament


@require_http_methods(["GET", "POST"])
@once
def clock_dealer(
    request: HttpRequest, tournament_id: int, table_number: int, key: str
) -> HttpResponse:
    """A table's dealer page: "hand done" during hand-for-hand, without a login.

    The director opens the link (shown on the console) on the dealer's phone; the key in it
    opens this table's page only (``clock_dealer_key``). A tap posts the hand the page
    showed, so a second tap, or a page left open from the hand before, is refused. The page
    looks again every few seconds (htmx) for the other tables and the next hand.
    """
    table = table_number
    tournament = _dealer_table(tournament_id, table, key)
    if request.method == "POST":
        try:
            clock_hand_done(tournament.pk, table, hand=_hand(request), by=None)
        except TournamentError as refused:
            messages.error(request, str(refused))
        return redirect(request.path)
    context = {
        "tournament": tournament,
        "table": table,
        "hand_for_hand": clock_hand_for_hand_read(tournament),
    }
    return render(request, "tournaments/clock_dealer.html", context)


# ---------------------------------------------------------------------------- the TV's layout


@console_context
def tv_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """What the console's TV section offers."""
    return {"tv_themes": TvTheme.choices}


@console_action
def tv_layout(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The director's choice of what the TV shows and its theme (checkboxes: on when sent)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    error = None
    try:
        tournament = tv_services.tv_layout_set(
            tournament.pk,
            theme=request.POST.get("theme", ""),
            show_payouts="show_payouts" in request.POST,
            show_chips="show_chips" in request.POST,
            show_next_levels="show_next_levels" in request.POST,
            by=request.user,
        )
    except TournamentError as refused:
        error = str(refused)
    if request.htmx:
        context = {"tournament": tournament, "tv_error": error, "tv_done": not error}
        context.update(tv_context(request, tournament))
        # A refusal answers 200 like every console section: htmx swaps no 4xx answer.
        response = render(request, TV_SECTION, context)
        if not error:
            response["HX-Trigger"] = "tournament-changed"
        return response
    if error:
        messages.error(request, error)
    else:
        messages.success(request, _("The TV shows the new layout."))
    return redirect("tournaments:console", tournament_id=tournament.pk)


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
    path("<int:tournament_id>/clock/panel/", clock_panel, name="clock_panel"),
    path("<int:tournament_id>/clock/levels/add/", _control(level_add), name="clock_level_add"),
    path("<int:tournament_id>/clock/levels/remove/", _control(row_remove), name="clock_row_remove"),
    path(
        "<int:tournament_id>/clock/levels/minutes/",
        _control(levels_minutes),
        name="clock_levels_minutes",
    ),
    path("<int:tournament_id>/clock/levels/break/", _control(break_add), name="clock_break_add"),
    path(
        "<int:tournament_id>/clock/hand-for-hand/start/",
        _control(hand_for_hand_start),
        name="clock_hand_for_hand_start",
    ),
    path(
        "<int:tournament_id>/clock/hand-for-hand/stop/",
        _control(hand_for_hand_stop),
        name="clock_hand_for_hand_stop",
    ),
    path(
        "<int:tournament_id>/clock/hand-for-hand/done/",
        _control(hand_done),
        name="clock_hand_done",
    ),
    path(
        "<int:tournament_id>/dealer/<int:table_number>/<slug:key>/",
        clock_dealer,
        name="clock_dealer",
    ),
    path("<int:tournament_id>/tv/layout/", tv_layout, name="tv_layout"),
]
