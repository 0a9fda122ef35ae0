"""The director's console: one phone page to run the night.

The page shell holds the other areas' partials (the clock's controls, seat cards and moves,
results), each included only when its template exists, and this module's own parts: a
sticky bar (the clock, pause or resume, a menu of the sections), the players first, with
the last action and its Undo above them, walk-ins, and the action log at the end.

Each player's row carries the one-tap actions (late entry, rebuy of a busted player,
add-on, re-entry, remove) and opens the player's panel for those that need a choice or a
number: out (knocked out by whom), a rebuy with chips left (the stack), move (table and
seat). Every button is shown only when the
service would accept it, and posts to the endpoint that owns the action (the clock's, the
results', the seating's), so on a phone the night's commonest taps need no scrolling.

Every action is a POST with CSRF and the form's one-time token (``views.once``: a double
tap records once); Undo names the action it reverses. Without JavaScript it redirects back
to the console; with htmx it answers with the refreshed entries section
(``_console_entries.html``), which also carries the action's message, and the bar and the
log out of band (their keys and the clock's state follow each change). The start (seats
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
from django.utils.translation import pgettext

from core import request_values
from core.names import name_key
from series.elision import for_name
from series.models import Player
from tournaments import selectors
from tournaments.errors import NameInUse, TournamentError
from tournaments.forms import RebuyForm, WalkInForm
from tournaments.models import Entry, EntryState, Tournament, TournamentState
from tournaments.permissions import director_required
from tournaments.services import entries, lifecycle, purchases, results, undo
from tournaments.views.once import console_action

# The other areas' console partials, included when their template exists; each gets the
# console's context (``tournament`` at least, plus what ``console_context`` providers add).
PARTIALS = {
    "clock": "tournaments/_console_clock.html",
    "online": "tournaments/_console_online.html",
    "seating": "tournaments/_console_seating.html",
    "results": "tournaments/_console_results.html",
    "chips": "tournaments/_console_chips.html",
    "tv": "tournaments/_console_tv.html",
    "pins": "tournaments/_console_guest_pins.html",
}

# How many players' rows a phone shows under the console's bar; beyond, the list gets a
# search by name and a view table by table.
PLAYERS_ON_A_SCREEN = 10

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
    rows = selectors.blind_structure_rows(tournament)
    late_open = entries.late_refusal(tournament, rows) is None
    listed = [
        entry
        for entry in selectors.entries_of(tournament)
        if entry.state != EntryState.UNREGISTERED
    ]
    # Players who tie share a place, shown "3 (tied)" as on the results section.
    tied = results.places_tied(listed)
    waiting_place = {
        entry.pk: place
        for place, entry in enumerate((e for e in listed if e.state == EntryState.WAITING), start=1)
    }
    # A busted player re-enters from their newest entry only.
    newest: dict[int, Entry] = {}
    for entry in listed:
        if entry.player_id not in newest or entry.number > newest[entry.player_id].number:
            newest[entry.player_id] = entry
    listed.sort(key=lambda e: (STATE_ORDER.get(e.state, 9), name_key(e.player.name), e.number))
    # A player is put out from their own row once at least two are in play (the results
    # section's form for several out on one hand asks the same); moves are the room's.
    in_play = [entry for entry in listed if entry.state == EntryState.PLAYING]
    can_out = tournament.is_started and not tournament.is_over and len(in_play) > 1
    can_move = not tournament.online and tournament.is_started and not tournament.is_over
    # A place out can still change while the field may grow (a late entry, a re-entry: those
    # out move down) or while the hand-for-hand hand it was lost on is still in play (others
    # out on it tie): shown "for now" until then.
    field_open = (
        tournament.is_started
        and not tournament.is_over
        and (late_open or entries.reentry_still_open(tournament) is not None)
    )
    shared_hand = tournament.hand_for_hand_out_hand if tournament.hand_for_hand else None
    result = []
    for entry in listed:
        waiting = entry.state in (EntryState.REGISTERED, EntryState.WAITING)
        playing = entry.state == EntryState.PLAYING
        row = {
            "entry": entry,
            "waiting_place": waiting_place.get(entry.pk),
            "place_tied": entry.place in tied,
            "place_provisional": bool(entry.place)
            and not tournament.is_over
            and (field_open or (shared_hand is not None and entry.out_hand == shared_hand)),
            "can_late": late_open and waiting,
            "can_remove": waiting and not tournament.is_over,
            "can_rebuy": entries.rebuy_refusal(tournament, entry, rows) is None,
            "can_addon": entries.addon_refusal(tournament, entry, rows) is None,
            "can_reentry": newest[entry.player_id] is entry
            and entries.reentry_refusal(tournament, entry, rows) is None,
            "can_out": can_out and playing,
            "can_move": can_move and playing and entry.table_number is not None,
        }
        # Who may have knocked this player out: the others still in play, those at the
        # same table first (usually the one).
        rivals = [other for other in in_play if other.pk != entry.pk]
        here = entry.table_number
        row["rivals_here"] = [o for o in rivals if here is not None and o.table_number == here]
        row["rivals_elsewhere"] = [o for o in rivals if here is None or o.table_number != here]
        # The actions that need a choice or a number open in the player's own panel.
        row["has_panel"] = row["can_out"] or row["can_rebuy"] or row["can_move"]
        result.append(row)
    return result


def _console_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    last = undo.action_last(tournament.pk)
    counts = selectors.entry_counts(tournament)
    rows = _entry_rows(tournament)
    out_rows = [row for row in rows if row["entry"].state == EntryState.OUT]
    context: dict[str, Any] = {
        "tournament": tournament,
        "event": tournament.event,
        "counts": counts,
        # Those still in the tournament first; the players out below, folded away unless
        # one of them may re-enter.
        "entry_rows": [row for row in rows if row["entry"].state != EntryState.OUT],
        "out_rows": out_rows,
        "out_open": any(row["can_reentry"] or row["has_panel"] for row in out_rows),
        # A field larger than a phone's screen shows: a search and the list by table.
        "players_find": len(rows) > PLAYERS_ON_A_SCREEN,
        "walk_in_form": WalkInForm() if entries.registration_refusal(tournament) is None else None,
        "rebuy_form": RebuyForm(),
        "rebuy_limit": entries.rebuy_limit(tournament),
        "rebuy_chips": tournament.rebuy_chips,
        "last_action": last,
        "can_undo": undo.action_can_undo(last),
        "actions": selectors.actions_recent(tournament),
        "start_refusal": lifecycle.start_refusal(tournament),
        "seats_drawn": selectors.seats_drawn(tournament),
        **_end_context(tournament, rows),
        # The sections on the page, for the bar's jump menu (sent again with each refresh).
        "partials": partials_present(),
    }
    return context


def _end_context(tournament: Tournament, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The end at the top of the players: one player left while a player out may still
    re-enter asks whether to end it (the last elimination ended it otherwise); once over,
    who won, or that a deal shared the prizes."""
    playing = [row["entry"] for row in rows if row["entry"].state == EntryState.PLAYING]
    if tournament.state == TournamentState.FINISHED:
        overview = results.results_overview(tournament)
        return {
            "end_finished": True,
            "end_deal": ", ".join(
                e.player.name for e in overview.finished if e.state == EntryState.PLAYING
            )
            if overview.deal
            else "",
            "end_winner": overview.finished[0] if overview.finished else None,
        }
    if (
        tournament.is_started
        and not tournament.is_over
        and len(playing) == 1
        and results.overview_payable(tournament)
    ):
        return {"end_ask": {"winner": playing[0], "why": entries.reentry_still_open(tournament)}}
    return {}


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related("event", "event__season", "blind_structure"),
        pk=tournament_id,
    )


def console_render(
    request: HttpRequest, tournament: Tournament, extra: dict[str, Any] | None = None
) -> HttpResponse:
    """The entries section under htmx, else the whole console; ``extra`` adds to the
    entries section's context (the walk-in's "already a player of that name" choice)."""
    context = _console_context(request, tournament)
    context.update(extra or {})
    if request.htmx:
        return render(request, "tournaments/_console_entries.html", context)
    for provider in _context_providers:
        context.update(provider(request, tournament))
    return render(request, "tournaments/console.html", context)


@director_required
def console(request: HttpRequest, tournament_id: int) -> HttpResponse:
    # Under htmx, the entries section alone: a refresh when another screen changed something.
    return console_render(request, _tournament(tournament_id))


# Sent with the players section's answer: a walk-in, a rebuy or a re-entry changes the
# players to seat, the prize pool and the chips in play too, and those sections fetch
# themselves again on it (the players section, already fresh, does not listen).
ENTRIES_CHANGED = "entries-changed"


def _answer(request: HttpRequest, tournament_id: int) -> HttpResponse:
    if request.htmx:
        tournament = _tournament(tournament_id)
        response = render(
            request, "tournaments/_console_entries.html", _console_context(request, tournament)
        )
        response["HX-Trigger"] = ENTRIES_CHANGED
        return response
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


def _known_players(tournament: Tournament, players: list[Player]) -> list[dict[str, Any]]:
    """The players a typed name may mean, each with their entry if they are already in
    (then they cannot be added again, and the form shows why instead of a button)."""
    entered = selectors.entries_live_by_player(tournament, players)
    return [{"player": player, "entry": entered.get(player.pk)} for player in players]


@director_required
def console_walk_in_suggest(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The walk-in form's suggestions as the director types: the accounts and guests whose
    name holds the text, each a button that registers that player."""
    tournament = _tournament(tournament_id)
    # The walk-in form's own field checks the text (length, no NUL) before any query.
    form = WalkInForm(request.GET)
    players = selectors.players_matching(form.cleaned_data["name"]) if form.is_valid() else []
    return render(
        request,
        "tournaments/_walk_in_suggestions.html",
        {"tournament": tournament, "known": _known_players(tournament, players)},
    )


@console_action
def console_walk_in(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A walk-in: a suggested player (``player``, their id), or a new guest by name, which
    comes back as a choice when the series already has a player of that name."""
    if "player" in request.POST:
        player_id = request_values.id_or_none(request.POST.get("player"))
        if player_id is None:
            messages.error(request, _("This player does not exist."))
        else:
            _run(
                request,
                lambda: entries.entry_add_player(tournament_id, player_id, by=request.user),
                _("%(name)s is in."),
            )
        return _answer(request, tournament_id)
    form = WalkInForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Enter the player's name (at most 100 characters)."))
        return _answer(request, tournament_id)
    try:
        entry = entries.entry_add_walk_in(
            tournament_id,
            form.cleaned_data["name"],
            by=request.user,
            new_guest=form.cleaned_data["new_guest"],
        )
    except NameInUse as error:
        tournament = _tournament(tournament_id)
        choice = {
            "message": error.message,
            "name": " ".join(form.cleaned_data["name"].split()),
            "known": _known_players(tournament, error.players),
        }
        return console_render(request, tournament, {"walk_in_choice": choice})
    except TournamentError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("%(name)s is in.") % {"name": entry.player.name})
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
        # Online the stack is the live seat's, and the chips go on it (services.purchases).
        _run(
            request,
            lambda: purchases.director_take(entry.pk, "rebuy", by=request.user),
            _("Rebuy for %(name)s."),
        )
        return _answer(request, tournament_id)
    form = RebuyForm(request.POST)
    if form.has_error("stack", "max_value"):
        messages.error(request, form.errors["stack"][0])
    elif not form.is_valid():
        name = entry.player.name
        asked = for_name(
            name,
            _("Enter %(name)s's stack in chips."),
            pgettext("name starting with a vowel sound", "Enter %(name)s's stack in chips."),
        )
        messages.error(request, asked % {"name": name})
    else:
        _run(
            request,
            # No stack typed: the player has busted, the night's usual rebuy.
            lambda: entries.entry_rebuy(
                entry.pk, by=request.user, stack=form.cleaned_data["stack"] or 0
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
            purchases.director_take(entry.pk, "reentry", by=request.user)
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
            purchases.director_take(entry.pk, "addon", by=request.user)
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
        tournament = lifecycle.tournament_start(tournament_id, by=request.user)
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
    path(
        "<int:tournament_id>/console/walk-in/suggest/",
        console_walk_in_suggest,
        name="console_walk_in_suggest",
    ),
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
