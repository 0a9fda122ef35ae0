"""The director's own pages for a season and its nights: new, edit, duplicate, delete a
draft, publish. Thin views: ``series.forms_events`` reads the form, ``series.services.events``
does the work and refuses what would leave a night half-made."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from core import request_values
from core.permissions import director_required
from series import selectors
from series.forms_events import EventForm, NightParts, PartRefused, RecurringForm, SeasonForm
from series.models import Event, Season
from series.services.events import (
    EventError,
    event_cancel,
    event_cancel_undo,
    event_copy_values,
    event_create,
    event_defaults,
    event_draft_delete,
    event_move_back,
    event_moved_told,
    event_publish,
    event_update,
    events_recurring_create,
    recurrence_days,
    season_close,
    season_has_defaults,
    season_reopen,
    season_save,
    venues_remembered,
)

Made = TypeVar("Made")

# The submit buttons of a new night: kept as a draft, or published at once.
PUBLISH = "publish"


@director_required
@require_http_methods(["GET", "POST"])
def season_new(request: HttpRequest) -> HttpResponse:
    return _season_page(request, Season())


@director_required
@require_http_methods(["GET", "POST"])
def season_edit(request: HttpRequest, season_id: int) -> HttpResponse:
    return _season_page(request, get_object_or_404(Season, pk=season_id))


def _season_page(request: HttpRequest, season: Season) -> HttpResponse:
    new = season.pk is None
    form = SeasonForm(request.POST or None, instance=season)
    parts = NightParts.for_season(request.POST or None, season)
    if request.method == "POST" and all([form.is_valid(), parts.is_valid()]):
        values = {**form.cleaned_data, "night_part_defaults": parts.defaults()}
        saved = season_save(season, values)
        if new:
            messages.success(
                request,
                _("The season “%(name)s” is ready: add its nights.") % {"name": saved.name},
            )
        else:
            messages.success(request, _("Saved."))
        return redirect("series:season", season_id=saved.pk)
    status = 400 if request.method == "POST" else 200
    context = {
        "form": form,
        "parts": parts,
        "season": season,
        "new": new,
        "venues": venues_remembered(),
    }
    return render(request, "series/season_form.html", context, status=status)


@director_required
@require_http_methods(["GET", "POST"])
def season_close_now(request: HttpRequest, season_id: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=season_id)
    if request.method == "GET":
        question = _(
            "Close “%(name)s”? No night can be added to it, answers close for the nights "
            "still ahead, and the standings are final. You can reopen it."
        ) % {"name": season.name}
        return _season_confirm(request, season, question, _("Close the season"))
    try:
        season_close(season.pk)
    except EventError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request, _("“%(name)s” is closed: its standings are final.") % {"name": season.name}
        )
    return redirect("series:season", season_id=season.pk)


@director_required
@require_http_methods(["GET", "POST"])
def season_reopen_now(request: HttpRequest, season_id: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=season_id)
    if request.method == "GET":
        question = _(
            "Reopen “%(name)s”? Nights may be added and published again, and answers open "
            "again for the published nights still ahead."
        ) % {"name": season.name}
        return _season_confirm(request, season, question, _("Reopen the season"))
    try:
        season_reopen(season.pk)
    except EventError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("“%(name)s” is open again.") % {"name": season.name})
    return redirect("series:season", season_id=season.pk)


def _season_confirm(
    request: HttpRequest, season: Season, question: str, button: str
) -> HttpResponse:
    context = {"season": season, "question": question, "button": button}
    return render(request, "series/season_confirm.html", context)


def _season_closed(request: HttpRequest, season: Season) -> HttpResponse | None:
    """A closed season takes no new night: back to its page, saying so."""
    if season.closed_at is None:
        return None
    messages.error(request, _("This season is closed: reopen it to add or publish a night."))
    return redirect("series:season", season_id=season.pk)


def _event_page(
    request: HttpRequest,
    form: EventForm,
    season: Season,
    event: Event | None,
    status: int,
    *,
    recurring: bool = False,
    parts: NightParts | None = None,
) -> HttpResponse:
    context: dict[str, Any] = {
        "form": form,
        "parts": parts,
        "season": season,
        "event": event,
        "venues": venues_remembered(),
        "recurring": recurring,
        "season_defaults": season_has_defaults(season),
    }
    return render(request, "series/event_form.html", context, status=status)


def _copied_from(request: HttpRequest, season: Season) -> Event | None:
    """The night duplicated (``?from=<event id>``): an event of this season only."""
    raw = request.GET.get("from")
    if raw is None:
        return None
    try:
        source_id = request_values.whole_number(raw, minimum=1, maximum=2**31 - 1)
    except request_values.BadValue:
        source_id = None
    source = Event.objects.filter(pk=source_id, season=season).first() if source_id else None
    if source is None:
        messages.error(request, _("That night is not one of this season's: nothing was copied."))
        return None
    return source


def _made(form: forms.Form, parts: NightParts, make: Callable[[Any], Made], by: Any) -> Made | None:
    """``make(then)`` with the tournament part's maker as ``then``: what it made, or None
    with the refusal on the form (the night's) or on the part (its tournament's)."""
    try:
        return make(parts.make(by))
    except EventError as error:
        form.add_error(error.field, error.message)
    except PartRefused as refusal:
        parts.refused(refusal)
    return None


@director_required
@require_http_methods(["GET", "POST"])
def event_new(request: HttpRequest, season_id: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=season_id)
    closed = _season_closed(request, season)
    if closed is not None:
        return closed
    if request.method == "GET":
        source = _copied_from(request, season)
        initial = event_copy_values(source) if source else event_defaults(season)
        parts = NightParts.for_night(None, season, source)
        return _event_page(request, EventForm(initial=initial), season, None, 200, parts=parts)
    form = EventForm(request.POST)
    parts = NightParts.for_night(request.POST, season)
    if all([form.is_valid(), parts.is_valid()]):
        publish = request.POST.get("save") == PUBLISH
        event = _made(
            form,
            parts,
            lambda then: event_create(
                season, form.values(), publish=publish, by=request.user, then=then
            ),
            request.user,
        )
        if event is not None:
            if publish:
                messages.success(
                    request,
                    _("“%(name)s” is published: the players are invited by e-mail.")
                    % {"name": event.name},
                )
            else:
                messages.success(
                    request,
                    _("“%(name)s” is saved as a draft: only directors see it.")
                    % {"name": event.name},
                )
            return redirect("series:event", event_id=event.pk)
    return _event_page(request, form, season, None, 400, parts=parts)


@director_required
@require_http_methods(["GET", "POST"])
def event_edit(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event.objects.select_related("season"), pk=event_id)
    form = EventForm(request.POST or None, instance=event)
    if request.method == "POST" and form.is_valid():
        before = event.starts_at
        try:
            saved = event_update(event.pk, form.values(), by=request.user)
        except EventError as error:
            form.add_error(error.field, error.message)
        else:
            told = event_moved_told(saved) if saved.starts_at != before else 0
            if told and not saved.is_draft:
                messages.success(
                    request,
                    ngettext(
                        "Moved. %(count)s person who answered is told by e-mail; the answers "
                        "are kept, and each may change theirs.",
                        "Moved. %(count)s people who answered are told by e-mail; the answers "
                        "are kept, and each may change theirs.",
                        told,
                    )
                    % {"count": told},
                )
            else:
                messages.success(request, _("Saved."))
            return redirect("series:event", event_id=event.pk)
    status = 400 if request.method == "POST" else 200
    event.refresh_from_db()
    return _event_page(request, form, event.season, event, status)


def _confirm(
    request: HttpRequest, event: Event, question: str, button: str, status: int = 200
) -> HttpResponse:
    """The page that asks before a night changes for everyone (a tap too fast on a phone
    changes nothing): the question, one button."""
    context = {"event": event, "question": question, "button": button}
    return render(request, "series/event_confirm.html", context, status=status)


@director_required
@require_http_methods(["GET", "POST"])
def event_delete(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    if request.method == "GET":
        question = _("Delete the draft “%(name)s”? Nobody else has seen it.") % {"name": event.name}
        return _confirm(request, event, question, _("Delete the draft"))
    try:
        season = event_draft_delete(event.pk)
    except EventError as error:
        messages.error(request, error.message)
        return redirect("series:event", event_id=event.pk)
    messages.success(request, _("The draft “%(name)s” is deleted.") % {"name": event.name})
    return redirect("series:season", season_id=season.pk)


def _asked_then_done(
    request: HttpRequest,
    event: Event,
    *,
    question: str,
    button: str,
    change: Callable[[], object],
    done: str,
) -> HttpResponse:
    """A change to a night for everyone: asked first (GET), made on the answer (POST), and
    said, or refused with the reason, on the night's page."""
    if request.method == "GET":
        return _confirm(request, event, question, button)
    try:
        change()
    except EventError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, done)
    return redirect("series:event", event_id=event.pk)


@director_required
@require_http_methods(["GET", "POST"])
def event_publish_now(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    name = {"name": event.name}
    return _asked_then_done(
        request,
        event,
        question=_(
            "Publish “%(name)s”? Everyone who may see the season sees it, and the "
            "players are invited by e-mail."
        )
        % name,
        button=_("Publish and invite"),
        change=lambda: event_publish(event.pk, by=request.user),
        done=_("“%(name)s” is published: the players are invited by e-mail.") % name,
    )


@director_required
@require_http_methods(["GET", "POST"])
def event_cancel_now(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    name = {"name": event.name}
    return _asked_then_done(
        request,
        event,
        question=_(
            "Cancel “%(name)s”? Answers close, and everyone who answered is told by e-mail. "
            "You can undo it until the night."
        )
        % name,
        button=_("Cancel the night"),
        change=lambda: event_cancel(event.pk, by=request.user),
        done=_("“%(name)s” is cancelled: everyone who answered is told.") % name,
    )


@director_required
@require_http_methods(["GET", "POST"])
def event_uncancel(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    name = {"name": event.name}
    return _asked_then_done(
        request,
        event,
        question=_(
            "Undo the cancellation of “%(name)s”? Answers open again as they were; the "
            "cancellation e-mails not sent yet are not sent."
        )
        % name,
        button=_("Undo the cancellation"),
        change=lambda: event_cancel_undo(event.pk, by=request.user),
        done=_("“%(name)s” is on again.") % name,
    )


@director_required
@require_http_methods(["GET", "POST"])
def event_moved_back(request: HttpRequest, event_id: int, action_id: int) -> HttpResponse:
    """The log's "Move back": the night returns to the time it had before that move."""
    event = get_object_or_404(Event, pk=event_id)
    if request.method == "GET":
        move = selectors.event_move(event, action_id)
        if move is None:
            messages.error(request, _("That is not a move of this night: nothing changed."))
            return redirect("series:event", event_id=event.pk)
        question = _(
            "Move “%(name)s” back to %(when)s? Everyone who answered is told by e-mail; the "
            "answers are kept."
        ) % {
            "name": event.name,
            "when": date_format(localtime(move.starts_before), "DATETIME_FORMAT"),
        }
        return _confirm(request, event, question, _("Move it back"))
    try:
        saved = event_move_back(event.pk, action_id, by=request.user)
    except EventError as error:
        messages.error(request, error.message)
    else:
        told = event_moved_told(saved) if not saved.is_draft else 0
        messages.success(
            request,
            ngettext(
                "Moved back. %(count)s person who answered is told by e-mail.",
                "Moved back. %(count)s people who answered are told by e-mail.",
                told,
            )
            % {"count": told},
        )
    return redirect("series:event", event_id=event.pk)


@director_required
@require_http_methods(["GET", "POST"])
def events_recurring(request: HttpRequest, season_id: int) -> HttpResponse:
    """Many nights in one step, all made or none."""
    season = get_object_or_404(Season, pk=season_id)
    closed = _season_closed(request, season)
    if closed is not None:
        return closed
    if request.method == "GET":
        form = RecurringForm(initial=event_defaults(season))
        parts = NightParts.for_night(None, season)
        return _event_page(request, form, season, None, 200, recurring=True, parts=parts)
    form = RecurringForm(request.POST)
    parts = NightParts.for_night(request.POST, season)
    if all([form.is_valid(), parts.is_valid()]):
        publish = request.POST.get("save") == PUBLISH
        data = form.cleaned_data

        def make(then: Any) -> list[Event]:
            days = recurrence_days(
                data["date"], data["last_day"], data["every_weeks"], data["skip"]
            )
            return events_recurring_create(
                season,
                form.values(),
                days,
                data["time"],
                publish=publish,
                by=request.user,
                then=then,
            )

        made = _made(form, parts, make, request.user)
        if made is not None:
            if publish:
                text = ngettext(
                    "%(count)s night is published: the players are invited by e-mail.",
                    "%(count)s nights are published: the players are invited by e-mail.",
                    len(made),
                )
            else:
                text = ngettext(
                    "%(count)s night is saved as a draft: only directors see it.",
                    "%(count)s nights are saved as drafts: only directors see them.",
                    len(made),
                )
            messages.success(request, text % {"count": len(made)})
            return redirect("series:season", season_id=season.pk)
    return _event_page(request, form, season, None, 400, recurring=True, parts=parts)
