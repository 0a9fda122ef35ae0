"""What a viewer of an online tournament sees of their own: their entry, the rebuy, re-entry
or add-on they may take now, the deal on offer and their answer, and their table.

One context for the two places it shows, the tournament's lobby and each of its live
tables (through ``tables.panels``, registered in ``TournamentsConfig.ready``), rendered by
``tournaments/_my_panel.html``. A viewer with no entry (a spectator) sees the deal's lines
but no buttons.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any, Protocol

from django.urls import reverse
from django.utils import timezone

from core.names import name_key
from tables.selectors import seat_sat_out_by_director, table_open
from tournaments import selectors
from tournaments.models import (
    ActionKind,
    DealOffer,
    DealState,
    Entry,
    EntryState,
    Tournament,
    TournamentAction,
    TournamentTable,
)
from tournaments.services import purchases

if TYPE_CHECKING:
    from django.http import HttpRequest


class LiveTable(Protocol):
    """What the panels read of a live table (``tables.panels`` hands them the table): its
    id, and whether its tournament holds it."""

    pk: int
    held: bool


# A settled deal stays on the players' screens this long, so they see how it ended.
SETTLED_SHOWN = timedelta(minutes=10)


def _newest_entry(tournament: Tournament, user: Any) -> Entry | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return (
        tournament.entries.filter(player__user=user, state__in=(EntryState.PLAYING, EntryState.OUT))
        .select_related("player")
        .order_by("-number", "-pk")
        .first()
    )


def _place_shared(entry: Entry | None) -> bool:
    """Whether another entry finished in the viewer's place (players who tie)."""
    if entry is None or entry.place is None:
        return False
    others = Entry.objects.filter(tournament_id=entry.tournament_id, place=entry.place)
    return others.exclude(pk=entry.pk).exists()


def deal_view(offer: DealOffer | None, entry: Entry | None) -> dict[str, Any] | None:
    """A deal offer as the screens show it: each player's chips, prize and answer."""
    if offer is None:
        return None
    if not offer.is_pending and (
        offer.settled_at is None or timezone.now() - offer.settled_at > SETTLED_SHOWN
    ):
        return None
    answers = list(offer.answers.all())
    lines = [
        {
            "entry_id": answer.entry_id,
            "name": answer.entry.player.name,
            "stack": offer.stacks.get(str(answer.entry_id)),
            "prize": offer.amounts.get(str(answer.entry_id)),
            "answer": answer.answer,
            "mine": entry is not None and answer.entry_id == entry.pk,
        }
        for answer in answers
    ]
    lines.sort(
        key=lambda line: (-(line["prize"] or 0), -(line["stack"] or 0), name_key(line["name"]))
    )
    mine = next((line for line in lines if line["mine"]), None)
    return {
        "offer": offer,
        "lines": lines,
        "mine": mine,
        "can_answer": offer.state == DealState.OPEN and mine is not None and not mine["answer"],
        "waiting": sum(1 for line in lines if not line["answer"]),
        "waiting_names": sorted(
            (line["name"] for line in lines if not line["answer"]), key=name_key
        ),
    }


def _ended_unmade(offer: DealOffer | None) -> bool:
    """A deal declined, withdrawn or lapsed (no answer in time)."""
    return offer is not None and offer.state in (DealState.DECLINED, DealState.CANCELLED)


def _winner(tournament: Tournament) -> str | None:
    if not tournament.is_over:
        return None
    first = tournament.entries.filter(place=1).select_related("player").order_by("number").first()
    return first.player.name if first is not None else None


def my_table_url(tournament: Tournament, entry: Entry | None) -> str | None:
    """The live table page of the viewer's seat, while they play."""
    if (
        entry is None
        or tournament.is_over
        or entry.state != EntryState.PLAYING
        or entry.table_number is None
    ):
        return None
    live_id = (
        TournamentTable.objects.filter(
            tournament=tournament, number=entry.table_number, live_table__isnull=False
        )
        .filter(table_open("live_table_id"))
        .values_list("live_table_id", flat=True)
        .first()
    )
    return reverse("tables:table", args=[live_id]) if live_id else None


def panel_context(
    tournament: Tournament, request: HttpRequest, *, table: LiveTable | None = None
) -> dict[str, Any]:
    """The viewer's own part of an online tournament (``table``: shown on that live table)."""
    entry = _newest_entry(tournament, request.user)
    offer = selectors.deal_latest(tournament)
    rebuy_until = (
        entry.rebuy_offer_until
        if entry is not None and entry.state == EntryState.PLAYING and not tournament.is_over
        else None
    )
    return {
        # Why the director sat the player out (while they are away) or removed them.
        "director_note": _director_note(tournament, entry),
        # Busted with a rebuy open: the seat is kept until then (``services.online``).
        "rebuy_offer_until": rebuy_until,
        "rebuy_seconds_left": (
            max(0, int((rebuy_until - timezone.now()).total_seconds())) if rebuy_until else None
        ),
        "tournament": tournament,
        "my_entry": entry,
        # A place shared with others reads "3 (tied)", as on the results.
        "my_place_tied": _place_shared(entry),
        "my_purchases": purchases.purchases_for(tournament, request.user) if entry else [],
        # A table's panel shows a deal while it is pending or once accepted; one declined or
        # lapsed leaves it (play goes on there), the lobby tells how it ended.
        "deal": deal_view(offer, entry) if table is None or not _ended_unmade(offer) else None,
        # A finished tournament's table names its winner.
        "winner": _winner(tournament),
        "my_table_url": my_table_url(tournament, entry),
        "lobby_url": reverse("tournaments:lobby", args=[tournament.pk]),
        "on_table": table.pk if table is not None else None,
        # Where a form of the panel comes back to without htmx: the page it is shown on,
        # never the fragment that refreshed it (``tables:table_panels``).
        "back_url": reverse("tables:table", args=[table.pk])
        if table is not None
        else reverse("tournaments:lobby", args=[tournament.pk]),
        "bubble": table_bubble_note(tournament, table),
    }


def _director_note(tournament: Tournament, entry: Entry | None) -> dict[str, str] | None:
    """The director's reason the player reads: "removed" once the director removed them,
    "sat-out" while their seat sits out because the director sat it out."""
    if entry is None or not entry.director_note:
        return None
    if entry.state == EntryState.OUT:
        removed = TournamentAction.objects.filter(
            tournament=tournament, kind=ActionKind.REMOVE, undo__entry=entry.pk
        ).exists()
        return {"kind": "removed", "reason": entry.director_note} if removed else None
    if entry.table_number is None or entry.seat_number is None:
        return None
    live_id = (
        TournamentTable.objects.filter(tournament=tournament, number=entry.table_number)
        .values_list("live_table_id", flat=True)
        .first()
    )
    if live_id is None or not seat_sat_out_by_director(live_id, entry.seat_number):
        return None
    return {"kind": "sat-out", "reason": entry.director_note}


def table_bubble_note(tournament: Tournament, table: LiveTable | None) -> str | None:
    """What a live table says of the bubble: "waiting" while hand-for-hand holds it for the
    other tables, "hand-for-hand" while it plays the hand every table plays, "burst" once
    hand-for-hand has ended with every player left in the money."""
    if tournament.is_over or not tournament.online:
        return None
    if tournament.hand_for_hand:
        return "waiting" if table is not None and table.held else "hand-for-hand"
    return "burst" if tournament.hand_for_hand_hand > 0 else None


def lobby_bubble_note(tournament: Tournament, *, playing: int, paid: int) -> str | None:
    """The lobby's word on the bubble: hand-for-hand while it lasts, then "burst" once
    everyone left is paid (with or without hand-for-hand: one table never needs it)."""
    if tournament.is_over or not tournament.online or not tournament.is_started:
        return None
    if tournament.hand_for_hand:
        return "hand-for-hand"
    return "burst" if paid and playing <= paid else None


class TournamentTablePanels:
    """``tables.panels.TablePanelProvider`` for the live tables of online tournaments."""

    def _tournament(self, table: LiveTable) -> Tournament | None:
        tournament_table = (
            TournamentTable.objects.select_related("tournament__event")
            .filter(live_table_id=table.pk)
            .first()
        )
        return tournament_table.tournament if tournament_table is not None else None

    def claims(self, table: LiveTable) -> bool:
        return TournamentTable.objects.filter(live_table_id=table.pk).exists()

    def panels(self, table: LiveTable, request: HttpRequest) -> list[tuple[str, dict[str, Any]]]:
        tournament = self._tournament(table)
        if tournament is None:
            return []
        return [("tournaments/_my_panel.html", panel_context(tournament, request, table=table))]

    def lobby_url(self, table: LiveTable) -> str | None:
        tournament = self._tournament(table)
        return reverse("tournaments:lobby", args=[tournament.pk]) if tournament else None


provider = TournamentTablePanels()
