"""The tournament's lobby, and the player's own taps: rebuy, re-entry, add-on, the deal.

The lobby (``/tournaments/<id>/lobby/``) is public: the clock, level, players left, average
stack and payouts come from the blind clock's payload and follow its socket
(static/tournaments/clock.js, the same feed as the TV clock); the tables with their players
and stacks, the entrants and who went out where are the "public" fragment, the viewer's own
entry, purchases and deal the "mine" fragment, each refreshed by htmx polling.

Cost with 300 players at 34 tables (tests/tournaments/test_lobby_cost.py, SQLite): the
public fragment is the same for every viewer, so it is rendered once per
``PUBLIC_CACHE_SECONDS`` per tournament (6 queries, about 100 ms) and served from the cache
in between (1 query, under 2 ms), stacks on a lobby being at most seconds old; 300 viewers
polling every 10 s are 30 cache reads a second and one render per 5 s. The "mine" fragment
is 11 small queries per logged-in viewer every ``MINE_POLL_SECONDS``, whatever the field.

The taps are POSTs with CSRF from the lobby or a live table's panel (``tables.panels``).
Without JavaScript they redirect back; with htmx they answer with the refreshed panel,
the action's message in it.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import URLPattern, path, reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from redis.exceptions import RedisError

from core import amounts, request_values
from core.names import NameOrder, name_key
from series.access import names_refusal
from tables.selectors import table_find
from tournaments import player_panel, selectors
from tournaments.errors import TournamentError
from tournaments.models import (
    DealOffer,
    DealState,
    Entry,
    EntryState,
    Tournament,
    TournamentState,
    TournamentTable,
)
from tournaments.permissions import is_director
from tournaments.services import deals, purchases, results

PUBLIC_CACHE_SECONDS = 5
PUBLIC_POLL_SECONDS = 10
MINE_POLL_SECONDS = 15


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related("event", "event__season", "blind_structure"),
        pk=tournament_id,
    )


def lobby_public_context(tournament: Tournament) -> dict[str, Any]:
    """The lobby's part that is the same for every viewer: tables, entrants, who is out."""
    listed = list(
        Entry.objects.filter(
            tournament=tournament,
            state__in=(EntryState.REGISTERED, EntryState.PLAYING, EntryState.OUT),
        )
        .select_related("player")
        .order_by(NameOrder("player__name"), "number")
    )
    chips = selectors.live_chips_of(tournament)
    live_ids = selectors.live_tables_of(tournament)
    tables: dict[int, list[dict[str, Any]]] = {number: [] for number in sorted(live_ids)}
    for entry in listed:
        if entry.state != EntryState.PLAYING or entry.table_number not in tables:
            continue
        tables[entry.table_number].append(
            {
                "seat": entry.seat_number,
                "name": entry.player.name,
                "chips": chips.get((entry.table_number, entry.seat_number or 0)),
            }
        )
    table_rows = [
        {
            "number": number,
            "url": reverse("tables:table", args=[live_ids[number]]),
            "players": sorted(players, key=lambda p: p["seat"] or 0),
            "chips": sum(p["chips"] or 0 for p in players),
        }
        for number, players in tables.items()
    ]
    try:
        payouts: results.Payouts | None = results.payouts_compute(tournament)
    except TournamentError:
        payouts = None
    finished = tournament.state == TournamentState.FINISHED
    out = sorted(
        (e for e in listed if e.state == EntryState.OUT or (finished and e.place)),
        # Tied players in the order of the TV's places (``services.tv``): by name as read.
        key=lambda e: (e.place or 10**9, name_key(e.player.name), e.number),
    )
    prizes = payouts.prizes if payouts is not None else []
    # Players who tie show one place and their share of its prizes ("3 (tied)").
    tied = results.places_tied(out)
    shares = {} if finished else results.prizes_of_places(out, prizes, tournament.money_unit)
    out_rows = [
        {
            "entry": entry,
            "place": entry.place,
            "tied": entry.place in tied,
            "prize": entry.prize if finished else shares.get(entry.pk, 0),
        }
        for entry in out
    ]
    playing = sum(1 for e in listed if e.state == EntryState.PLAYING)
    return {
        "tournament": tournament,
        "tables": table_rows,
        "entrants": listed,
        "playing_count": playing,
        "bubble": player_panel.lobby_bubble_note(
            tournament, playing=playing, paid=sum(1 for p in prizes if p > 0)
        ),
        "out_rows": out_rows,
        "finished": finished,
        "payouts": payouts,
    }


def _public_html(request: HttpRequest, tournament: Tournament) -> str:
    """The public fragment, rendered once per tournament, language and few seconds.

    With Redis away (the cache in distributed mode; a restart, say) it is rendered for each
    viewer with a note that live updates are paused: the clock's socket needs Redis too.
    The next poll once Redis is back serves the cached fragment, without the note.
    """
    bucket = int(time.time() // PUBLIC_CACHE_SECONDS)
    key = f"tournaments:lobby:{tournament.pk}:{get_language()}:{bucket}"
    try:
        html = cache.get(key)
    except RedisError:
        html = render_to_string("tournaments/_live_paused.html") + render_to_string(
            "tournaments/_lobby_public.html", lobby_public_context(tournament)
        )
        return mark_safe(html)  # noqa: S308 - our own templates' output, escaped when rendered
    if html is None:
        html = render_to_string("tournaments/_lobby_public.html", lobby_public_context(tournament))
        # Redis gone since the read: this viewer still gets the page, uncached.
        with contextlib.suppress(RedisError):
            cache.set(key, html, PUBLIC_CACHE_SECONDS * 2)
    return mark_safe(html)  # noqa: S308 - our own template's output, escaped when rendered


def _mine_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    return {
        "panel": player_panel.panel_context(tournament, request),
        "mine_poll": MINE_POLL_SECONDS,
    }


def lobby(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    # A draft's tournament is the directors' (404); a visitor who may not read the names of
    # who plays (a live lobby is nothing else) is asked to log in.
    refusal = names_refusal(request, tournament.event)
    if refusal is not None:
        return refusal
    context = {
        "tournament": tournament,
        "event": tournament.event,
        "public_html": _public_html(request, tournament),
        "public_poll": PUBLIC_POLL_SECONDS,
        "is_director": is_director(request.user),
        "socket_path": f"/ws/tournaments/{tournament.tv_token}/clock/",
        **_mine_context(request, tournament),
    }
    return render(request, "tournaments/lobby.html", context)


@require_GET
def lobby_public(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    refusal = names_refusal(request, tournament.event)
    if refusal is not None:
        return refusal
    return HttpResponse(_public_html(request, tournament))


@require_GET
def lobby_mine(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    return render(request, "tournaments/_my_panel.html", _mine_context(request, tournament))


# The player's taps --------------------------------------------------------------------------


def _back(request: HttpRequest, tournament: Tournament, level: int, text: str) -> HttpResponse:
    """The answer to a tap, with its notice: htmx gets the refreshed panel (of the live table
    it was tapped on when that table is this tournament's, else the lobby's) with the notice
    in it, so it shows where it was asked and never on another tournament's page; without
    JavaScript, the notice waits for the page the tap came from (this tournament's)."""
    if request.htmx:
        table_id = request_values.id_or_none(request.POST.get("table"))
        ours = TournamentTable.objects.filter(tournament=tournament, live_table_id=table_id)
        table = table_find(table_id) if table_id is not None and ours.exists() else None
        context = {
            "panel": player_panel.panel_context(tournament, request, table=table),
            "mine_poll": MINE_POLL_SECONDS,
            "notices": [{"tags": messages.DEFAULT_TAGS[level], "message": text}],
        }
        return render(request, "tournaments/_my_panel.html", context)
    messages.add_message(request, level, text)
    target = request_values.next_path(request, request.POST.get("next"))
    if target and _ours(tournament, target):
        return redirect(target)
    return redirect("tournaments:lobby", tournament.pk)


def _ours(tournament: Tournament, path: str) -> bool:
    """Whether ``path`` is a page of this tournament: its own, or one of its live tables."""
    if path.startswith(reverse("tournaments:lobby", args=[tournament.pk]).rsplit("lobby/", 1)[0]):
        return True
    live_ids = TournamentTable.objects.filter(
        tournament=tournament, live_table__isnull=False
    ).values_list("live_table_id", flat=True)
    return any(path == reverse("tables:table", args=[live_id]) for live_id in live_ids)


# ``chips`` is "10,000 chips" (``core.amounts``), worded and counted in the reader's way.
PURCHASE_DONE = {
    "rebuy": gettext_lazy(
        "Rebuy taken: %(chips)s for %(price)s, on your stack from the next hand."
    ),
    "addon": gettext_lazy(
        "Add-on taken: %(chips)s for %(price)s, on your stack from the next hand."
    ),
    "reentry": gettext_lazy("You are back in: %(chips)s for %(price)s, at a new seat."),
}


@require_POST
def purchase_take(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    kind = request.POST.get("kind", "")
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("tournaments:lobby", args=[tournament.pk]))
    entry_id = request_values.id_or_none(request.POST.get("entry"))
    if entry_id is None or not Entry.objects.filter(pk=entry_id, tournament=tournament).exists():
        return _back(request, tournament, messages.ERROR, _("This entry does not exist."))
    try:
        purchases.purchase_take(entry_id, request.user, kind, seen=request.POST.get("seen"))
    except TournamentError as error:
        return _back(request, tournament, messages.ERROR, error.message)
    chips = {
        "rebuy": tournament.rebuy_chips,
        "addon": tournament.addon_chips,
        "reentry": tournament.event.starting_stack,
    }[kind]
    price = {
        "rebuy": tournament.rebuy_price,
        "addon": tournament.addon_price,
        "reentry": tournament.event.buy_in + tournament.event.fee,
    }[kind]
    done = str(PURCHASE_DONE[kind]) % {"chips": amounts.chips(chips), "price": amounts.money(price)}
    return _back(request, tournament, messages.SUCCESS, done)


@require_POST
def deal_answer(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("tournaments:lobby", args=[tournament.pk]))
    offer_id = request_values.id_or_none(request.POST.get("offer"))
    if (
        offer_id is None
        or not DealOffer.objects.filter(pk=offer_id, tournament=tournament).exists()
    ):
        return _back(request, tournament, messages.ERROR, _("This deal does not exist."))
    answer = request.POST.get("answer", "")
    try:
        offer = deals.deal_answer(offer_id, request.user, answer)
    except TournamentError as error:
        return _back(request, tournament, messages.ERROR, error.message)
    if offer.state == DealState.ACCEPTED:
        return _back(
            request, tournament, messages.SUCCESS, _("Everyone accepted: the deal is recorded.")
        )
    if answer == "decline":
        return _back(request, tournament, messages.INFO, _("You declined the deal; play goes on."))
    return _back(
        request, tournament, messages.SUCCESS, _("You accepted the deal; waiting for the others.")
    )


urlpatterns: list[URLPattern] = [
    path("<int:tournament_id>/lobby/", lobby, name="lobby"),
    path("<int:tournament_id>/lobby/public/", lobby_public, name="lobby_public"),
    path("<int:tournament_id>/lobby/mine/", lobby_mine, name="lobby_mine"),
    # What is taken or answered is in the form (kind, entry, seen; offer, answer).
    path("<int:tournament_id>/take/", purchase_take, name="purchase_take"),
    path("<int:tournament_id>/deal/answer/", deal_answer, name="deal_answer"),
]
