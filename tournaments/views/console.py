"""The director's console: one phone page to run the night.

The page shell holds the other areas' partials (the clock's controls, seat cards and moves,
results), each included only when its template exists, and this module's own section: quick
actions (walk-ins), the entries with one-tap buttons for late entries, rebuys, re-entries
and add-ons (each shown only when the service would accept it), the action log and Undo.

Every action is a POST with CSRF and the form's one-time token (``views.once``: a double
tap records once); Undo names the action it reverses. Without JavaScript it redirects back
to the console; with htmx it answers with the refreshed entries section
(``_console_entries.html``), which also carries the action's message. The start (seats
and clock) and Undo (which may reverse any area's action) change every area, so with htmx
they ask for a full repaint.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.errors import TournamentError
from tournaments.forms import RebuyForm, WalkInForm
from tournaments.models import Entry, EntryState, Tournament
from tournaments.permissions import director_required
from tournaments.services import entries, offers, undo
from tournaments.views.once import console_action

# The other areas' console partials, included when their template exists; each gets the
# console's context (``tournament`` at least, plus what ``console_context`` providers add).
PARTIALS = {
    "clock": "tournaments/_console_clock.html",
    "online": "tournaments/_console_online.html",
    "seating": "tournaments/_console_seating.html",
    "results": "tournaments/_console_results.html",
}

ContextProvider = Callable[[HttpRequest, Tournament], dict[str, Any]]
_context_providers: list[ContextProvider] = []


def console_context(provider: ContextProvider) -> ContextProvider:
    """Register a function adding context for a console partial (another area's view
    module calls this at import, which ``tournaments.urls`` does)."""
    if provider not in _context_providers:
        _context_providers.append(provider)
    return provider


def partials_present() -> dict[str, str]:
    """The partials whose template exists, by area."""
    present: dict[str, str] = {}
    for area, name in PARTIALS.items():
        try:
            get_template(name)
        except TemplateDoesNotExist:
            continue
        present[area] = name
    return present


STATE_ORDER = {
    EntryState.PLAYING: 0,
    EntryState.REGISTERED: 1,
    EntryState.WAITING: 2,
    EntryState.OUT: 3,
}


def _entry_rows(tournament: Tournament) -> list[dict[str, Any]]:
    """Each entry with the buttons the services would accept now."""
    rows = selectors.structure_rows(tournament)
    late_open = entries.late_refusal(tournament, rows) is None
    listed = [
        entry
        for entry in selectors.entries_of(tournament)
        if entry.state != EntryState.UNREGISTERED
    ]
    waiting_place = {
        entry.pk: place
        for place, entry in enumerate((e for e in listed if e.state == EntryState.WAITING), start=1)
    }
    # A busted player re-enters from their newest entry only.
    newest: dict[int, Entry] = {}
    for entry in listed:
        if entry.player_id not in newest or entry.number > newest[entry.player_id].number:
            newest[entry.player_id] = entry
    listed.sort(key=lambda e: (STATE_ORDER.get(e.state, 9), e.player.name.casefold(), e.number))
    result = []
    for entry in listed:
        waiting = entry.state in (EntryState.REGISTERED, EntryState.WAITING)
        result.append(
            {
                "entry": entry,
                "waiting_place": waiting_place.get(entry.pk),
                "can_late": late_open and waiting,
                "can_remove": waiting and not tournament.is_over,
                "can_rebuy": entries.rebuy_refusal(tournament, entry, rows) is None,
                "can_addon": entries.addon_refusal(tournament, entry, rows) is None,
                "can_reentry": newest[entry.player_id] is entry
                and entries.reentry_refusal(tournament, entry, rows) is None,
            }
        )
    return result


def _console_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    last = undo.action_last(tournament.pk)
    counts = selectors.entry_counts(tournament)
    context: dict[str, Any] = {
        "tournament": tournament,
        "event": tournament.event,
        "counts": counts,
        "level_number": selectors.current_level_number(tournament),
        "entry_rows": _entry_rows(tournament),
        "walk_in_form": WalkInForm() if entries.registration_refusal(tournament) is None else None,
        "rebuy_form": RebuyForm(),
        "rebuy_limit": entries.rebuy_limit(tournament),
        "last_action": last,
        "can_undo": undo.action_can_undo(last),
        "actions": selectors.actions_recent(tournament),
        "start_refusal": entries.start_refusal(tournament),
    }
    return context


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related("event", "event__season", "blind_structure"),
        pk=tournament_id,
    )


@director_required
def console(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    context = _console_context(request, tournament)
    if request.htmx:
        # The entries section alone, for a refresh when another screen changed something.
        return render(request, "tournaments/_console_entries.html", context)
    context["partials"] = partials_present()
    for provider in _context_providers:
        context.update(provider(request, tournament))
    return render(request, "tournaments/console.html", context)


def _answer(request: HttpRequest, tournament_id: int) -> HttpResponse:
    if request.htmx:
        tournament = _tournament(tournament_id)
        return render(
            request, "tournaments/_console_entries.html", _console_context(request, tournament)
        )
    return redirect("tournaments:console", tournament_id)


def _run(request: HttpRequest, action: Callable[[], Entry], success: str) -> None:
    try:
        entry = action()
    except TournamentError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, success % {"name": entry.player.name})


def _entry(tournament_id: int, entry_id: int) -> Entry:
    return get_object_or_404(
        Entry.objects.select_related("player"), pk=entry_id, tournament_id=tournament_id
    )


@console_action
def console_walk_in(request: HttpRequest, tournament_id: int) -> HttpResponse:
    form = WalkInForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Enter the player's name (at most 100 characters)."))
    else:
        _run(
            request,
            lambda: entries.entry_add_walk_in(
                tournament_id, form.cleaned_data["name"], by=request.user
            ),
            _("%(name)s is in."),
        )
    return _answer(request, tournament_id)


@console_action
def console_late(request: HttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    entry = _entry(tournament_id, entry_id)
    _run(
        request,
        lambda: entries.entry_late(tournament_id, entry.player_id, by=request.user),
        _("Late entry: %(name)s plays."),
    )
    return _answer(request, tournament_id)


def _online(entry: Entry) -> bool:
    return Tournament.objects.filter(pk=entry.tournament_id, online=True).exists()


@console_action
def console_rebuy(request: HttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    entry = _entry(tournament_id, entry_id)
    if _online(entry):
        # Online the stack is the live seat's, and the chips go on it (services.offers).
        _run(
            request,
            lambda: offers.director_take(entry.pk, "rebuy", by=request.user),
            _("Rebuy for %(name)s."),
        )
        return _answer(request, tournament_id)
    form = RebuyForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Enter %(name)s's stack in chips.") % {"name": entry.player.name})
    else:
        _run(
            request,
            lambda: entries.entry_rebuy(
                entry.pk, by=request.user, stack=form.cleaned_data["stack"]
            ),
            _("Rebuy for %(name)s."),
        )
    return _answer(request, tournament_id)


@console_action
def console_reentry(request: HttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    entry = _entry(tournament_id, entry_id)
    _run(
        request,
        lambda: (
            offers.director_take(entry.pk, "reentry", by=request.user)
            if _online(entry)
            else entries.entry_reentry(entry.pk, by=request.user)
        ),
        _("%(name)s re-enters."),
    )
    return _answer(request, tournament_id)


@console_action
def console_addon(request: HttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    entry = _entry(tournament_id, entry_id)
    _run(
        request,
        lambda: (
            offers.director_take(entry.pk, "addon", by=request.user)
            if _online(entry)
            else entries.entry_addon(entry.pk, by=request.user)
        ),
        _("Add-on for %(name)s."),
    )
    return _answer(request, tournament_id)


@console_action
def console_remove(request: HttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    entry = _entry(tournament_id, entry_id)
    _run(
        request,
        lambda: entries.entry_remove(entry.pk, by=request.user),
        _("%(name)s is no longer registered."),
    )
    return _answer(request, tournament_id)


def _repaint(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The whole console again: an action that changed every area (the start, an undo)."""
    url = reverse("tournaments:console", args=[tournament_id])
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


@console_action
def console_start(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        tournament = entries.tournament_start(tournament_id, by=request.user)
    except TournamentError as error:
        messages.error(request, error.message)
        return _answer(request, tournament_id)
    messages.success(
        request,
        _("%(event)s has started: the seats are drawn and the clock runs.")
        % {"event": tournament.event.name},
    )
    return _repaint(request, tournament_id)


@console_action
def console_undo(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        # The form names the action it showed: a second tap, or another director's
        # Undo of the same action, is refused rather than undoing the one before it.
        action = undo.action_undo(tournament_id, request.POST.get("action"), by=request.user)
    except TournamentError as error:
        messages.error(request, error.message)
        return _answer(request, tournament_id)
    messages.success(request, _("Undone: %(action)s") % {"action": action.summary_text})
    # Any area's action may have been reversed (the clock, seats, results).
    return _repaint(request, tournament_id)


urlpatterns: list[URLPattern] = [
    path("<int:tournament_id>/console/", console, name="console"),
    path("<int:tournament_id>/console/walk-in/", console_walk_in, name="console_walk_in"),
    path("<int:tournament_id>/console/undo/", console_undo, name="console_undo"),
    path("<int:tournament_id>/console/start/", console_start, name="console_start"),
    path(
        "<int:tournament_id>/console/entries/<int:entry_id>/late/",
        console_late,
        name="console_late",
    ),
    path(
        "<int:tournament_id>/console/entries/<int:entry_id>/rebuy/",
        console_rebuy,
        name="console_rebuy",
    ),
    path(
        "<int:tournament_id>/console/entries/<int:entry_id>/reentry/",
        console_reentry,
        name="console_reentry",
    ),
    path(
        "<int:tournament_id>/console/entries/<int:entry_id>/addon/",
        console_addon,
        name="console_addon",
    ),
    path(
        "<int:tournament_id>/console/entries/<int:entry_id>/remove/",
        console_remove,
        name="console_remove",
    ),
]
