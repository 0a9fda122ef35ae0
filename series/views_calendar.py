"""The season calendar, event pages, and their exports (iCal, results CSV, hands PHH).

Thin views: a selector or an export function does the work. The tournament's part of an
event page comes from ``series.event_sections`` (the tournaments register it), so the
series never imports tournament internals.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_GET, require_POST

from core import request_values
from core.permissions import is_director
from series import event_sections, exports, ledgers, selectors
from series.access import event_refusal, season_refusal
from series.elision import for_name
from series.models import Event, Season
from series.services.calendar import player_calendar_token_renew
from series.services.languages import language_is_supported
from series.views_rsvp import rsvp_context

# No calendar token is longer (``Player.calendar_token``).
TOKEN_MAX_LENGTH = 64


def _event(event_id: int) -> Event:
    event = selectors.event_for_page(event_id)
    if event is None:
        raise Http404(_("No such event."))
    return event


def _my_feed_url(request: HttpRequest) -> str | None:
    player = selectors.player_of_user(request.user)
    if player is None or not player.calendar_token:
        return None
    path = reverse("series:my_ical") + "?token=" + player.calendar_token
    return request.build_absolute_uri(path)


@require_GET
def season_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "series/season_list.html",
        {
            "seasons": selectors.seasons_listed(request.user),
            "current": selectors.season_current(request.user),
            "is_director": is_director(request.user),
        },
    )


@require_GET
def season_calendar(request: HttpRequest, season_id: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=season_id)
    refusal = season_refusal(request, season)
    if refusal is not None:
        return refusal
    events = selectors.season_events(season, request.user)
    now = timezone.now()
    next_event = next((e for e in events if e.starts_at >= now and not e.finished_at), None)
    return render(
        request,
        "series/season_calendar.html",
        {
            "season": season,
            "events": events,
            "next_event": next_event,
            "now": now,
            "my_feed_url": _my_feed_url(request),
            "is_director": is_director(request.user),
            "names_shown": selectors.names_shown_to(season, request.user),
            "pot": ledgers.season_pot(season),
        },
    )


@require_GET
def event_detail(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    refusal = event_refusal(request, event)
    if refusal is not None:
        return refusal
    names_shown = selectors.names_shown_to(event.season, request.user)
    director = is_director(request.user)
    sections = [
        mark_safe(render_to_string(template, context, request=request))  # noqa: S308
        for template, context in event_sections.sections_for(event, request)
    ]
    results = list(selectors.event_results(event)) if event.finished_at and names_shown else []
    has_online_tables = bool(event_sections.live_table_ids(event))
    return render(
        request,
        "series/event_detail.html",
        {
            "event": event,
            "season": event.season,
            "sections": sections,
            "results": results,
            # A column of dashes only widens the table on a phone: bounties show when the
            # event had any.
            "has_bounties": any(result.bounties for result in results),
            "tied_places": selectors.places_tied(results),
            "has_online_tables": has_online_tables,
            "too_small": selectors.event_not_counted(event) == selectors.TOO_SMALL,
            "is_director": director,
            # The hosts' log of the night: directors only.
            "actions": selectors.event_actions(event) if director else [],
            "names_shown": names_shown,
            # Who is coming: shown while answers are taken.
            **rsvp_context(request, event),
        },
    )


def _ical_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@require_GET
def season_ical(request: HttpRequest, season_id: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=season_id)
    # A calendar app fetches the feed without a session: it is what a visitor may see,
    # whoever downloads it (a member's own feed is ``my_ical``, behind its token).
    visitor = AnonymousUser()
    if not selectors.season_shown_to(season, visitor):
        raise Http404(_("This season's calendar is for members: use your own calendar address."))
    content = exports.events_ical(
        season.name,
        selectors.season_events(season, visitor),
        lambda event: request.build_absolute_uri(reverse("series:event", args=[event.pk])),
        names=selectors.names_shown_to(season, visitor),
    )
    return _ical_response(content, f"{slugify(season.name) or 'season'}.ics")


@require_GET
def my_ical(request: HttpRequest) -> HttpResponse:
    """The events the token's player registered for: no session, the token is the key."""
    token = request_values.text_or_none(request.GET.get("token"), max_length=TOKEN_MAX_LENGTH)
    player = selectors.player_by_calendar_token(token or "")
    if player is None:
        raise Http404(_("No calendar at this address."))
    events = selectors.events_by_ids(event_sections.registered_event_ids(player))
    # A calendar app fetches the feed with no session and seldom says which language it
    # wants: the feed is written in the language the player chose on the site, if any.
    language = player.language if language_is_supported(player.language) else None
    with translation.override(language or translation.get_language()):
        content = exports.events_ical(
            for_name(
                player.name,
                _("%(name)s's poker nights"),
                pgettext("name starting with a vowel sound", "%(name)s's poker nights"),
            )
            % {"name": player.name},
            events,
            lambda event: request.build_absolute_uri(reverse("series:event", args=[event.pk])),
        )
    return _ical_response(content, "my-poker-nights.ics")


@require_POST
def my_calendar_link(request: HttpRequest) -> HttpResponse:
    """Make (or replace) the logged-in player's feed address, then go back to the page."""
    target = request_values.next_path(request, request.POST.get("next")) or reverse(
        "series:seasons"
    )
    if not request.user.is_authenticated:
        return redirect_to_login(target)
    player_calendar_token_renew(request.user)
    messages.success(
        request,
        _("Your calendar address is ready. Any address you had before no longer works."),
    )
    return redirect(target)


@require_GET
def event_results_csv(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    refusal = event_refusal(request, event)
    if refusal is not None:
        return refusal
    if not selectors.names_shown_to(event.season, request.user):
        return redirect_to_login(request.get_full_path())
    if not event.finished_at:
        raise Http404(_("This event has no results yet."))
    response = HttpResponse(exports.event_results_csv(event), content_type="text/csv")
    name = slugify(event.name) or f"event-{event.pk}"
    response["Content-Disposition"] = f'attachment; filename="{name}-results.csv"'
    return response


@require_GET
def event_hands(request: HttpRequest, event_id: int) -> HttpResponse:
    """The logged-in player's hands of the event's online tables, as they saw them."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    event = _event(event_id)
    refusal = event_refusal(request, event)
    if refusal is not None:
        return refusal
    response = HttpResponse(
        exports.event_hands_phhs(event, request.user), content_type="text/plain; charset=utf-8"
    )
    name = slugify(event.name) or f"event-{event.pk}"
    response["Content-Disposition"] = f'attachment; filename="{name}-hands.phhs"'
    return response
