"""The console's seating and results sections: seat cards, moves to confirm, buttons,
eliminations, payouts, deals and the end of the tournament.

Thin views: each action is a director's POST (``director_action``: players get 403) that
calls one service. Without JavaScript it redirects back to the console with a message.
With htmx, a refused action answers with its section and the reason, changing nothing; a
done action answers 204 with the ``tournament-changed`` event, on which every section of
the console (the entries, the clock, these two) fetches itself again, since an elimination
changes the seats and a move changes the entries' cards. Each section shows the last
action of its kind, so what was just done stays on screen after the refresh. The finish
(or a deal, which ends the night) changes the console's header too: it asks for the whole
console again.

The two sections are included in the console page by ``_console_seating.html`` and
``_console_results.html`` with the context ``ops_context`` adds; each can be fetched alone
(GET, directors only) for that refresh, reading only what it shows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _

from core import amounts, request_values
from tournaments.errors import TournamentError
from tournaments.models import ActionKind, Entry, Tournament, TournamentAction
from tournaments.permissions import director_required
from tournaments.services import chips, entries, results, seating, undo
from tournaments.views.console import console_context
from tournaments.views.once import console_action

SEATING_SECTION = "tournaments/_console_seating_section.html"
RESULTS_SECTION = "tournaments/_console_results_section.html"
DEAL_PAGE = "tournaments/console_deal.html"
RESULTS_KINDS = (ActionKind.ELIMINATE, ActionKind.DEAL, ActionKind.FINISH)


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("event"), pk=tournament_id)


@console_context
def ops_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """What the seating and results sections show, for the console page."""
    last = undo.action_last(tournament.pk)
    return {**_seating_context(tournament, last), **_results_context(tournament, last)}


def _seating_context(tournament: Tournament, last: TournamentAction | None) -> dict[str, Any]:
    """What the seating section shows (``last``: the tournament's last action)."""
    seating_last = seating.seating_action_of(last)
    arrivals = seating.seating_moves_of(seating_last) if seating_last else []
    return {
        "tournament": tournament,
        "seating": seating.seating_overview(tournament),
        "seating_last": seating_last,
        "seating_arrivals": arrivals,
        "seating_opened": seating.seating_tables_opened(seating_last) if seating_last else [],
        "seating_button_unknown": any(m.must_wait is None for m in arrivals),
    }


def _results_context(tournament: Tournament, last: TournamentAction | None) -> dict[str, Any]:
    """What the results section (and the deal's page) shows."""
    overview = results.results_overview(tournament)
    return {
        "tournament": tournament,
        "results": overview,
        "results_last": last if last is not None and last.kind in RESULTS_KINDS else None,
        **_deal_context(overview),
    }


def _deal_context(
    overview: results.ResultsOverview,
    *,
    proposal: results.DealProposal | None = None,
    stacks: dict[str, str] | None = None,
    prizes: dict[str, str] | None = None,
    method: str = "icm",
) -> dict[str, Any]:
    """The deal forms' rows: chips to propose from, then the amounts to edit and record.

    A fresh form starts from each player's last chip count (``chips.counts_latest``)."""
    counted = {} if stacks else chips.counts_latest(overview.playing)
    last = {entry_id: count.chips for entry_id, count in counted.items()}
    stacks, prizes = stacks or {}, prizes or {}
    record_rows: list[dict[str, Any]] = []
    if proposal is not None:
        record_rows = [
            {"entry_id": line.entry_id, "name": line.name, "stack": line.stack, "prize": line.prize}
            for line in proposal.lines
        ]
    elif prizes:
        record_rows = [
            {
                "entry_id": e.pk,
                "name": e.player.name,
                "stack": stacks.get(str(e.pk), ""),
                "prize": prizes.get(str(e.pk), ""),
            }
            for e in overview.playing
        ]
    return {
        "proposal": proposal,
        "deal_method": method if method in results.DEAL_METHODS else "icm",
        "deal_open": bool(proposal or prizes or stacks),
        "deal_stack_rows": [
            {"entry": e, "stack": stacks.get(str(e.pk), "") or last.get(e.pk, "")}
            for e in overview.playing
        ],
        "deal_stacks_counted": bool(counted),
        "deal_record_rows": record_rows,
    }


def _section(
    request: HttpRequest,
    tournament_id: int,
    template: str,
    *,
    deal: dict[str, Any] | None = None,
    **extra: Any,
) -> HttpResponse:
    tournament = _tournament(tournament_id)
    last = undo.action_last(tournament.pk)
    # Each section reads only what it shows: the seating's refresh needs no payouts.
    if template == SEATING_SECTION:
        context = _seating_context(tournament, last)
    else:
        context = _results_context(tournament, last)
    if deal:
        context.update(_deal_context(context["results"], **deal))
    context.update(extra)
    return render(request, template, context)


def _done(request: HttpRequest, tournament_id: int, notice: str) -> HttpResponse:
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Trigger"] = "tournament-changed"
        return response
    messages.success(request, notice)
    return redirect("tournaments:console", tournament_id)


def _over(request: HttpRequest, tournament_id: int, notice: str) -> HttpResponse:
    """The tournament is over: every part of the console changes (its header's state and
    the final results to print with it), so with htmx the whole console comes again, with
    the notice, as after the start."""
    if not request.htmx:
        return _done(request, tournament_id, notice)
    messages.success(request, notice)
    response = HttpResponse(status=204)
    response["HX-Redirect"] = reverse("tournaments:console", args=[tournament_id])
    return response


def _refused(
    request: HttpRequest,
    tournament_id: int,
    template: str,
    error: TournamentError,
    *,
    deal: dict[str, Any] | None = None,
) -> HttpResponse:
    key = "seating_error" if template == SEATING_SECTION else "results_error"
    if request.htmx:
        return _section(request, tournament_id, template, deal=deal, **{key: error.message})
    if deal is not None:
        # Without JavaScript a deal's forms live on their own page, kept as typed.
        return _section(request, tournament_id, DEAL_PAGE, deal=deal, **{key: error.message})
    messages.error(request, error.message)
    return redirect("tournaments:console", tournament_id)


def _run(
    request: HttpRequest,
    tournament_id: int,
    template: str,
    action: Callable[[], str],
    done: Callable[[HttpRequest, int, str], HttpResponse] = _done,
) -> HttpResponse:
    """Run a service; answer with the change done, or the section and why it was refused."""
    _tournament(tournament_id)
    try:
        notice = action()
    except TournamentError as error:
        return _refused(request, tournament_id, template, error)
    return done(request, tournament_id, notice)


def _amounts(post: QueryDict, prefix: str) -> dict[str, str]:
    """Fields named ``<prefix><entry id>`` as {entry id: value}, empty ones left out."""
    return {
        name[len(prefix) :]: value.strip()
        for name, value in post.items()
        if name.startswith(prefix) and value.strip()
    }


# Sections -----------------------------------------------------------------------------------


@director_required
def console_seating(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _section(request, tournament_id, SEATING_SECTION)


@director_required
def console_results(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _section(request, tournament_id, RESULTS_SECTION)


# Seating --------------------------------------------------------------------------------


@console_action
def seating_draw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    def action() -> str:
        drawn = seating.seating_draw(_tournament(tournament_id), by=request.user)
        return _("Seats drawn for %(count)s players.") % {"count": len(drawn)}

    return _run(request, tournament_id, SEATING_SECTION, action)


@console_action
def seating_seat(request: HttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    entry = get_object_or_404(Entry, pk=entry_id, tournament_id=tournament_id)

    def action() -> str:
        placed = seating.seating_late_seat(entry, by=request.user)
        return _("%(name)s: table %(table)s seat %(seat)s.") % {
            "name": placed.name,
            "table": placed.to_table,
            "seat": placed.to_seat,
        }

    return _run(request, tournament_id, SEATING_SECTION, action)


@console_action
def seating_move(request: HttpRequest, tournament_id: int) -> HttpResponse:
    def action() -> str:
        moved = seating.seating_move_confirm(
            tournament_id,
            request.POST.get("entry"),
            request.POST.get("table"),
            request.POST.get("seat"),
            by=request.user,
        )
        return _("%(name)s moved to table %(table)s seat %(seat)s.") % {
            "name": moved.name,
            "table": moved.to_table,
            "seat": moved.to_seat,
        }

    return _run(request, tournament_id, SEATING_SECTION, action)


@console_action
def seating_button(request: HttpRequest, tournament_id: int, table_number: int) -> HttpResponse:
    def action() -> str:
        table = seating.table_button_set(
            tournament_id, table_number, request.POST.get("seat"), by=request.user
        )
        return _("Table %(table)s: button at seat %(seat)s.") % {
            "table": table.number,
            "seat": table.button,
        }

    return _run(request, tournament_id, SEATING_SECTION, action)


@console_action
def seating_break(request: HttpRequest, tournament_id: int, table_number: int) -> HttpResponse:
    def action() -> str:
        moves = seating.table_break(tournament_id, table_number, by=request.user)
        return _("Table %(table)s is broken; %(count)s players have new seats.") % {
            "table": table_number,
            "count": len(moves),
        }

    return _run(request, tournament_id, SEATING_SECTION, action)


@console_action
def seating_final_table(request: HttpRequest, tournament_id: int) -> HttpResponse:
    def action() -> str:
        drawn = seating.seating_final_table(
            tournament_id, by=request.user, seats=request.POST.get("seats")
        )
        return _("The final table is drawn: %(count)s players.") % {"count": len(drawn)}

    return _run(request, tournament_id, SEATING_SECTION, action)


# Results --------------------------------------------------------------------------------


@console_action
def results_eliminate(request: HttpRequest, tournament_id: int) -> HttpResponse:
    out = request.POST.getlist("out")
    typed = _amounts(request.POST, "stack_")
    stacks = {key: value for key, value in typed.items() if key in out}

    def action() -> str:
        # Only the stacks of the players going out count; one typed for another player
        # must still be a number of chips, or the director meant something else.
        for value in typed.values():
            try:
                request_values.whole_number(value, minimum=1, maximum=amounts.CHIPS_MAX)
            except request_values.BadValue:
                raise TournamentError(
                    _("Each stack typed must be a number of chips from 1 to %(max)s.")
                    % {"max": amounts.number(amounts.CHIPS_MAX)}
                ) from None
        placed, standings = entries.elimination_record(
            tournament_id,
            out,
            by=request.user,
            eliminated_by=request.POST.get("by") or None,
            stacks_at_hand_start=stacks,
        )
        notice = _("Out: %(names)s.") % {"names": ", ".join(e.player.name for e in placed)}
        if standings is not None:
            ended.append(True)
            notice = f"{notice} {_winner_notice(standings)}"
        return notice

    # The last one out ends the night when nobody can re-enter: the whole console changes.
    ended: list[bool] = []
    return _run(
        request,
        tournament_id,
        RESULTS_SECTION,
        action,
        done=lambda r, t, notice: (_over if ended else _done)(r, t, notice),
    )


def _winner_notice(standings: list[dict[str, Any]]) -> str:
    return _("The tournament is over: %(name)s wins.") % {
        "name": standings[0]["player_name"] if standings else ""
    }


@console_action
def results_deal_propose(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A proposal changes nothing: it is shown in the results section to be edited."""
    stacks = _amounts(request.POST, "stack_")
    method = request.POST.get("method", "icm")
    try:
        proposal = results.deal_propose(tournament_id, method=method, stacks=stacks)
    except TournamentError as error:
        return _refused(
            request,
            tournament_id,
            RESULTS_SECTION,
            error,
            deal={"stacks": stacks, "method": method},
        )
    return _section(
        request,
        tournament_id,
        RESULTS_SECTION if request.htmx else DEAL_PAGE,
        deal={"proposal": proposal, "stacks": stacks, "method": method},
    )


@console_action
def results_deal_record(request: HttpRequest, tournament_id: int) -> HttpResponse:
    prizes = _amounts(request.POST, "prize_")
    stacks = _amounts(request.POST, "stack_")
    try:
        results.deal_record(tournament_id, prizes, by=request.user, stacks=stacks or None)
    except TournamentError as error:
        # Keep what the director typed, so one wrong amount does not cost the whole form.
        return _refused(
            request,
            tournament_id,
            RESULTS_SECTION,
            error,
            deal={"prizes": prizes, "stacks": stacks, "method": request.POST.get("method", "")},
        )
    return _over(request, tournament_id, _("The deal is recorded; the tournament is over."))


@console_action
def results_finish(request: HttpRequest, tournament_id: int) -> HttpResponse:
    def action() -> str:
        return _winner_notice(results.tournament_finish(tournament_id, by=request.user))

    return _run(request, tournament_id, RESULTS_SECTION, action, done=_over)


urlpatterns: list[URLPattern] = [
    path("<int:tournament_id>/console/seating/", console_seating, name="console_seating"),
    path("<int:tournament_id>/console/results/", console_results, name="console_results"),
    path("<int:tournament_id>/console/seating/draw/", seating_draw, name="seating_draw"),
    path(
        "<int:tournament_id>/console/seating/seat/<int:entry_id>/",
        seating_seat,
        name="seating_seat",
    ),
    path("<int:tournament_id>/console/seating/move/", seating_move, name="seating_move"),
    path(
        "<int:tournament_id>/console/seating/tables/<int:table_number>/button/",
        seating_button,
        name="seating_button",
    ),
    path(
        "<int:tournament_id>/console/seating/tables/<int:table_number>/break/",
        seating_break,
        name="seating_break",
    ),
    path(
        "<int:tournament_id>/console/seating/final-table/",
        seating_final_table,
        name="seating_final_table",
    ),
    path(
        "<int:tournament_id>/console/results/eliminate/",
        results_eliminate,
        name="results_eliminate",
    ),
    path(
        "<int:tournament_id>/console/results/deal/propose/",
        results_deal_propose,
        name="results_deal_propose",
    ),
    path(
        "<int:tournament_id>/console/results/deal/record/",
        results_deal_record,
        name="results_deal_record",
    ),
    path("<int:tournament_id>/console/results/finish/", results_finish, name="results_finish"),
]
