"""Printable sheets of a tournament: seat cards, the blind structure, payouts, final results.

Each is a page of its own, made for the browser's Print: ``tournaments/sheet_base.html`` has
none of the site's navigation, only a toolbar that ``static/tournaments/sheets.css`` hides
in print. The page size (``@page``) is A4 unless ``?paper=letter`` asks for US Letter; the
layouts fit the smaller printable area of both (Letter is shorter, A4 narrower), so a sheet
made for one still prints whole on the other.

The seat cards, blind structure and payouts are the director's (linked from the console); the
final results are public, as the series' results are, and linked from the tournament page.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import URLPattern, path, reverse
from django.views.decorators.cache import never_cache
from django.views.generic import RedirectView

from tables.engine.config import AnteKind, Structure
from tournaments import selectors
from tournaments.errors import TournamentError
from tournaments.models import LevelKind, Tournament, TournamentState
from tournaments.permissions import director_required, is_director
from tournaments.services import guest_pins, results
from tournaments.services.blind_structures import duration_text

# The papers a sheet prints on: ``?paper=`` value to the CSS ``@page`` size.
PAPERS = {"a4": "A4", "letter": "letter"}
PAPER_DEFAULT = "a4"

# Seat cards on one sheet: two across, two down, each about 93 x 125 mm, big enough to
# read across a table and cut apart along the dashed lines.
SEAT_CARDS_PER_PAGE = 4


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related("event", "event__season", "blind_structure"),
        pk=tournament_id,
    )


def _sheet(
    request: HttpRequest, tournament: Tournament, template: str, context: dict[str, Any]
) -> HttpResponse:
    paper = request.GET.get("paper", PAPER_DEFAULT)
    if paper not in PAPERS:
        paper = PAPER_DEFAULT
    return render(
        request,
        template,
        {
            "tournament": tournament,
            "event": tournament.event,
            "paper": paper,
            "paper_size": PAPERS[paper],
            "is_director": is_director(request.user),
            **context,
        },
    )


def _elapsed(minutes: int) -> str:
    """Time since the start of play as a clock reads it: "0:40", "2:10"."""
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}"


def _percent(basis_points: int) -> int | Decimal:
    """Basis points as the percentage people read: 5000 -> 50, 1250 -> 12.5 (the template
    localizes it: "12,5" in French)."""
    if basis_points % 100 == 0:
        return basis_points // 100
    return Decimal(basis_points) / 100


@director_required
@never_cache
def sheet_seats(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    seated = selectors.entries_seated(tournament)
    # Each guest's card carries their PIN for the night page: the one already given while it
    # holds, so a reprint shows the same PINs.
    pins = guest_pins.guest_pins_for(tournament, [entry.player for entry in seated])
    cards = [{"entry": entry, "pin": pins.get(entry.player_id)} for entry in seated]
    pages = [
        cards[start : start + SEAT_CARDS_PER_PAGE]
        for start in range(0, len(cards), SEAT_CARDS_PER_PAGE)
    ]
    pin_address = request.build_absolute_uri(reverse("tournaments:night_pin", args=[tournament.pk]))
    return _sheet(
        request,
        tournament,
        "tournaments/sheet_seats.html",
        {"pages": pages, "pin_address": pin_address.split("://", 1)[-1]},
    )


@director_required
def sheet_blind_structure(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    rows = []
    elapsed = 0
    for level in selectors.blind_structure_table(tournament):
        row = level["row"]
        rows.append({**level, "starts": _elapsed(elapsed)})
        elapsed += row.minutes
    levels = [r for r in rows if r["row"].kind == LevelKind.LEVEL]
    return _sheet(
        request,
        tournament,
        "tournaments/sheet_blind_structure.html",
        {
            "rows": rows,
            "limit": tournament.event.structure == Structure.LIMIT,
            "has_antes": any(r["row"].ante and r["row"].ante_kind != AnteKind.NONE for r in levels),
            "total": duration_text(elapsed),
        },
    )


@director_required
def sheet_payouts(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    try:
        payouts = results.payouts_compute(tournament)
        prizes = results.prizes_now(tournament)
        error = ""
    except TournamentError as exc:
        payouts, prizes, error = None, [], exc.message
    # The table's shares, unless places nobody can take were folded into first (re-entries
    # can pay more places than there are players): then the shares no longer match.
    shares = (
        payouts.percentages if payouts is not None and len(prizes) == len(payouts.prizes) else []
    )
    places = [
        {
            "place": place,
            "prize": prize,
            "percent": _percent(shares[place - 1]) if place <= len(shares) else None,
        }
        for place, prize in enumerate(prizes, start=1)
        if prize > 0
    ]
    paid: list[dict[str, Any]] = []
    deal = False
    if tournament.state == TournamentState.FINISHED:
        # Over: the amounts paid to whom, a deal's included, instead of the schedule.
        overview = results.results_overview(tournament)
        deal = overview.deal
        paid = [
            {"place": e.place, "name": e.player.name, "prize": e.prize}
            for e in overview.finished
            if e.prize
        ]
    return _sheet(
        request,
        tournament,
        "tournaments/sheet_payouts.html",
        {
            "payouts": payouts,
            "places": places,
            "paid": paid,
            "deal": deal,
            "shares": bool(shares) and not paid,
            "error": error,
            # Until the finish, late entries, rebuys and add-ons may still change the amounts.
            "provisional": tournament.state != TournamentState.FINISHED,
        },
    )


def sheet_results(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    finished = tournament.state == TournamentState.FINISHED
    overview = results.results_overview(tournament) if finished else None
    return _sheet(
        request,
        tournament,
        "tournaments/sheet_results.html",
        {
            "finished": finished,
            "entries": overview.finished if overview else [],
            "tied_places": overview.tied_places if overview else frozenset(),
            "payouts": overview.payouts if overview else None,
            "bounties": bool(tournament.bounty),
        },
    )


urlpatterns: list[URLPattern] = [
    path("<int:tournament_id>/print/seats/", sheet_seats, name="sheet_seats"),
    path(
        "<int:tournament_id>/print/blind-structure/",
        sheet_blind_structure,
        name="sheet_blind_structure",
    ),
    path("<int:tournament_id>/print/payouts/", sheet_payouts, name="sheet_payouts"),
    path("<int:tournament_id>/print/results/", sheet_results, name="sheet_results"),
    # The address before "blind structure" was spelt out: bookmarks and printed links keep
    # working, with the paper asked for.
    path(
        "<int:tournament_id>/print/structure/",
        RedirectView.as_view(
            pattern_name="tournaments:sheet_blind_structure", permanent=True, query_string=True
        ),
        name="sheet_blind_structure_moved",
    ),
]
