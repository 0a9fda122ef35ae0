"""A player's night on one phone page: what the page and its socket read and render.

``night_read`` gathers the viewer's night from the rows: their newest entry (the seat, the
state, the place and prize), the rebuy or add-on they may ask for now, and their asks to the
director. ``night_frame`` renders it for the socket, with a notice in words when one came
(``night_news``), in the language the socket asked for: a player's phone may be in French
while the director's is in English, so nothing a player reads is rendered by whoever
changed the night.

The page shows the clock and the payouts from the clock's own payload and socket
(``static/tournaments/clock.js``); this module has the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from core.ordinals import place_ordinal
from series.models import Player
from tournaments import selectors
from tournaments.errors import TournamentError
from tournaments.models import (
    Entry,
    EntryState,
    PurchaseKind,
    PurchaseRequest,
    PurchaseRequestState,
    Tournament,
    TournamentState,
)
from tournaments.night_access import night_player
from tournaments.services import entries, night_news, results

STATE_TEMPLATE = "tournaments/_night_state.html"
# An answered ask stays on the page this long, so the player sees how it ended.
ANSWER_SHOWN = timedelta(minutes=15)
LANGUAGE_CODES = {code for code, _name in settings.LANGUAGES}


@dataclass
class Night:
    """One player's night at one tournament, as their page shows it."""

    tournament: Tournament
    player: Player
    entry: Entry | None
    # "none", "registered", "waiting", "playing", "out", "won"
    status: str
    place_tied: bool = False
    prize: int = 0
    can_rebuy: bool = False
    can_addon: bool = False
    rebuy_limit: int = 0
    pending: dict[str, PurchaseRequest] = field(default_factory=dict)
    answered: list[PurchaseRequest] = field(default_factory=list)

    @property
    def seat(self) -> tuple[int, int] | None:
        entry = self.entry
        if entry is None or entry.state != EntryState.PLAYING or entry.table_number is None:
            return None
        return (entry.table_number, entry.seat_number or 0)

    @property
    def place_text(self) -> str:
        if self.entry is None or self.entry.place is None:
            return ""
        text = place_ordinal(self.entry.place)
        if self.place_tied:
            text = pgettext("a finishing place shared by players who tie", "%(place)s (tied)") % {
                "place": text
            }
        return text

    @property
    def asks_open(self) -> bool:
        return self.can_rebuy or self.can_addon or bool(self.pending)


def _newest_entry(tournament: Tournament, player: Player) -> Entry | None:
    return (
        tournament.entries.filter(player=player)
        .exclude(state=EntryState.UNREGISTERED)
        .select_related("player")
        .order_by("-number", "-pk")
        .first()
    )


def _status(tournament: Tournament, entry: Entry | None) -> str:
    if entry is None:
        return "none"
    if entry.state == EntryState.REGISTERED:
        return "registered"
    if entry.state == EntryState.WAITING:
        return "waiting"
    if entry.state == EntryState.PLAYING:
        if tournament.state == TournamentState.FINISHED and entry.place == 1:
            return "won"
        return "playing"
    if tournament.state == TournamentState.FINISHED and entry.place == 1:
        return "won"
    return "out"


def _prize(tournament: Tournament, entry: Entry) -> int:
    """The entry's prize: as recorded once the tournament is over, else its share of the
    payouts at the place it went out in (0 out of the money)."""
    if tournament.state == TournamentState.FINISHED or entry.place is None:
        return entry.prize
    try:
        payouts = results.payouts_compute(tournament)
    except TournamentError:
        return 0
    out = Entry.objects.filter(tournament=tournament, state=EntryState.OUT, place__isnull=False)
    return results.prizes_of_places(out, payouts.prizes, tournament.money_unit).get(entry.pk, 0)


def night_read(tournament: Tournament, player: Player) -> Night:
    """``player``'s night at ``tournament``: always "me", never another player's."""
    entry = _newest_entry(tournament, player)
    night = Night(tournament, player, entry, _status(tournament, entry))
    if entry is None:
        return night
    if entry.place is not None:
        night.place_tied = (
            Entry.objects.filter(tournament=tournament, place=entry.place)
            .exclude(pk=entry.pk)
            .exists()
        )
        night.prize = _prize(tournament, entry)
    asks = list(PurchaseRequest.objects.filter(entry=entry).order_by("-created_at", "-pk")[:10])
    night.pending = {a.kind: a for a in asks if a.state == PurchaseRequestState.PENDING}
    since = timezone.now() - ANSWER_SHOWN
    night.answered = [
        a
        for a in asks
        if a.state in (PurchaseRequestState.APPROVED, PurchaseRequestState.REFUSED)
        and a.decided_at is not None
        and a.decided_at >= since
    ][:2]
    if entry.state == EntryState.PLAYING and not tournament.online:
        rows = selectors.blind_structure_rows(tournament)
        night.can_rebuy = (
            PurchaseKind.REBUY not in night.pending
            and entries.rebuy_refusal(tournament, entry, rows) is None
        )
        night.can_addon = (
            PurchaseKind.ADDON not in night.pending
            and entries.addon_refusal(tournament, entry, rows) is None
        )
        night.rebuy_limit = entries.rebuy_limit(tournament)
    return night


def seat_move_text(from_seat: tuple[Any, Any], to_seat: tuple[Any, Any]) -> str:
    """ "Table 2 seat 5 → table 1 seat 3"."""
    return _("Table %(from_table)s seat %(from_seat)s → table %(to_table)s seat %(to_seat)s") % {
        "from_table": from_seat[0],
        "from_seat": from_seat[1],
        "to_table": to_seat[0],
        "to_seat": to_seat[1],
    }


def out_text(place: int | None) -> str:
    if place is None:
        return _("You are out.")
    return _("You finished %(place)s.") % {"place": place_ordinal(place)}


def answer_text(kind: str, state: str) -> str:
    """How the director answered an ask ("Rebuy approved: it is on the log")."""
    if kind == PurchaseKind.REBUY:
        if state == PurchaseRequestState.APPROVED:
            return _("Rebuy approved: take your chips from the director.")
        return _("Rebuy refused by the director.")
    if state == PurchaseRequestState.APPROVED:
        return _("Add-on approved: take your chips from the director.")
    return _("Add-on refused by the director.")


def notice_text(notice: dict[str, Any] | None) -> str:
    """A notice from ``night_news`` in words, in the active language ("" for none)."""
    if not notice:
        return ""
    kind = notice.get("kind")
    if kind == night_news.MOVED:
        return seat_move_text(tuple(notice["from"]), tuple(notice["to"]))
    if kind == night_news.SEATED:
        table, seat = notice["to"]
        return _("Your seat: table %(table)s seat %(seat)s.") % {"table": table, "seat": seat}
    if kind == night_news.OUT:
        return out_text(notice.get("place"))
    if kind == night_news.BACK:
        return _("Your elimination was undone: you are back in.")
    if kind == night_news.DECIDED and notice.get("state") != PurchaseRequestState.WITHDRAWN:
        return answer_text(str(notice.get("purchase")), str(notice.get("state")))
    return ""


def night_viewer(user: Any, session: Any, tournament_id: int) -> int | None:
    """The id of the player whose night a socket shows (``night_player``: the logged-in
    user's, or the guest's whose PIN the session proved), or None: no such tournament, or
    nobody it may show."""
    if not Tournament.objects.filter(pk=tournament_id).exists():
        return None
    player = night_player(user, session, tournament_id)
    return player.pk if player is not None else None


def night_socket_language(asked: str | None, player_id: int) -> str:
    """``night_language`` for a socket, which knows its player by id."""
    return night_language(asked, Player.objects.filter(pk=player_id).first())


def night_language(asked: str | None, player: Player | None) -> str:
    """The language a socket renders in: the page's (sent with the socket's address), else
    the player's own choice, else the site's."""
    if asked in LANGUAGE_CODES:
        return str(asked)
    if player is not None and player.language in LANGUAGE_CODES:
        return player.language
    return settings.LANGUAGE_CODE


def night_state_html(night: Night, request: HttpRequest | None = None, **context: Any) -> str:
    """The page's live part, as the page first paints it and the socket repaints it (the
    socket has no request: its forms post with htmx, which sends the page's CSRF token)."""
    return render_to_string(STATE_TEMPLATE, {"night": night, **context}, request=request)


def night_frame(
    tournament_id: int,
    player_id: int,
    language: str,
    notice: dict[str, Any] | None = None,
) -> dict[str, Any] | None:
    """What the night socket sends: the player's state rendered in ``language``, with the
    notice in words; None when the tournament or the player is gone."""
    tournament = (
        Tournament.objects.select_related("event", "blind_structure")
        .filter(pk=tournament_id)
        .first()
    )
    player = Player.objects.filter(pk=player_id).first()
    if tournament is None or player is None:
        return None
    with translation.override(language):
        night = night_read(tournament, player)
        seat = night.seat
        return {
            "type": "night",
            "status": night.status,
            "seat": list(seat) if seat else None,
            "place": night.entry.place if night.entry is not None else None,
            "html": night_state_html(night),
            "notice": {"kind": notice.get("kind"), "text": notice_text(notice)}
            if notice and notice_text(notice)
            else None,
            # For a change the page saw only on reconnecting (its phone asleep): the
            # page words the move itself, from the seat it showed before.
            "moved_format": _(
                "Table %(from_table)s seat %(from_seat)s → table %(to_table)s seat %(to_seat)s"
            ),
            "out_text": out_text(night.entry.place) if night.status == "out" else "",
        }
