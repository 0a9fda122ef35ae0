"""Rebuys, re-entries and add-ons a player takes themselves at an online tournament: the
player's purchases ("offer" is the deal's word, ``services.deals``).

A purchase shows on the player's table and in the lobby while it applies (``purchases_for``):
a rebuy while their live stack is at or below the rebuy limit within the rebuy levels, a
re-entry once they are out within the re-entry levels, the add-on at the add-on break. One
tap takes it. The rules are the entries' (``entries.rebuy_refusal``, ``reentry_refusal``,
``addon_refusal``), the money is recorded by the same code as the director's one-tap
buttons (``entries.rebuy_take`` ...), and the chips reach the live seat through the online
core (``online.online_chips_add``, ``online.online_entry_seat``) in the same transaction,
so a rebuy is never paid without its chips nor given chips without being paid.

Two taps (a double tap, two tabs, a phone and a laptop) are applied one after the other
under the tournament's row lock. A rebuy carries the number of rebuys the screen showed
(``seen``): the second tap finds one more and changes nothing, where a check of the stack
alone would not do (the first rebuy's chips may wait for the hand in play to end). A second
add-on or re-entry is refused by the entries' own rules (already taken, already playing).
No purchase shows while a deal is pending: the deal shares out the prize pool as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from series.models import Player
from tournaments import selectors
from tournaments.errors import TournamentError
from tournaments.models import BlindLevel, Entry, EntryState, Tournament
from tournaments.permissions import require_director
from tournaments.services import entries, online

KINDS = ("rebuy", "reentry", "addon")


@dataclass(frozen=True)
class Purchase:
    """One purchase a player may take now: what it is, its price and its chips."""

    kind: str
    entry_id: int
    price: int
    chips: int
    # For a rebuy: the rebuys taken so far, sent back with the tap.
    seen: int = 0


def _mine(user: Any, tournament: Tournament) -> list[Entry]:
    """The user's entries of the tournament, newest first."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    return list(
        tournament.entries.filter(player__user=user)
        .select_related("player")
        .order_by("-number", "-pk")
    )


def purchases_for(
    tournament: Tournament,
    user: Any,
    rows: Sequence[BlindLevel] | None = None,
    *,
    stack: int | None = None,
) -> list[Purchase]:
    """What ``user`` may take now at an online tournament (nothing in person, where the
    director takes the money at the table). ``stack`` is their live chips when the caller
    has them already (the lobby reads every seat at once)."""
    if not tournament.online or not tournament.is_started or tournament.is_over:
        return []
    if selectors.deal_pending(tournament) is not None:
        return []
    mine = _mine(user, tournament)
    if not mine:
        return []
    newest = mine[0]
    rows = selectors.blind_structure_rows(tournament) if rows is None else rows
    purchases: list[Purchase] = []
    if newest.state == EntryState.PLAYING:
        if entries.rebuy_refusal(tournament, newest, rows) is None:
            chips = selectors.entry_live_stack(newest) if stack is None else stack
            if (
                chips is not None
                and entries.rebuy_refusal(tournament, newest, rows, stack=chips) is None
            ):
                purchases.append(
                    Purchase(
                        "rebuy",
                        newest.pk,
                        tournament.rebuy_price,
                        tournament.rebuy_chips,
                        seen=newest.rebuys,
                    )
                )
        if entries.addon_refusal(tournament, newest, rows) is None:
            purchases.append(
                Purchase("addon", newest.pk, tournament.addon_price, tournament.addon_chips)
            )
    elif (
        newest.state == EntryState.OUT and entries.reentry_refusal(tournament, newest, rows) is None
    ):
        purchases.append(
            Purchase(
                "reentry",
                newest.pk,
                tournament.event.buy_in + tournament.event.fee,
                tournament.event.starting_stack,
            )
        )
    return purchases


def _own(user: Any, entry: Entry) -> None:
    player = (
        Player.objects.filter(user=user).first()
        if user is not None and getattr(user, "is_authenticated", False)
        else None
    )
    if player is None or entry.player_id != player.pk:
        raise TournamentError(_("This is not your entry."))


def _online_only(tournament: Tournament) -> None:
    if not tournament.online:
        raise TournamentError(
            _("At a tournament played in person, the director takes rebuys and add-ons.")
        )


def purchase_take(entry_id: Any, user: Any, kind: str, *, seen: Any = None) -> Entry:
    """``user`` takes the ``kind`` purchase ("rebuy", "reentry", "addon") on their entry.

    Returns the entry that plays on (the new one for a re-entry). Refused, changing
    nothing, when the purchase does not apply now or was already taken by another tap.
    """
    entry_id = _checked(entry_id, kind)
    if user is None or not getattr(user, "is_authenticated", False):
        raise TournamentError(_("Log in to play."))
    with transaction.atomic():
        tournament, entry = entries.entry_lock(entry_id)
        _own(user, entry)
        if kind == "rebuy" and str(seen) != str(entry.rebuys):
            raise TournamentError(_("That rebuy is already taken."))
        # The player's own tap: no director's seat action to log (``seat_by`` None).
        return _take(tournament, entry, kind, by=user, seat_by=None)


def director_take(entry_id: Any, kind: str, *, by: Any) -> Entry:
    """The director takes a rebuy, re-entry or add-on for a player of an online tournament
    from the console: the same rules and money as the player's own tap, the rebuy checked
    at the live seat's chips (no count to type), and the chips or the seat on the tables."""
    require_director(by)
    entry_id = _checked(entry_id, kind)
    with transaction.atomic():
        tournament, entry = entries.entry_lock(entry_id)
        return _take(tournament, entry, kind, by=by, seat_by=by)


def _checked(entry_id: Any, kind: str) -> int:
    if kind not in KINDS:
        raise TournamentError(_("Choose a rebuy, a re-entry or the add-on."))
    try:
        return int(entry_id)
    except (TypeError, ValueError):
        raise TournamentError(_("This entry does not exist.")) from None


def _take(tournament: Tournament, entry: Entry, kind: str, *, by: Any, seat_by: Any) -> Entry:
    """Record the money of ``kind`` and put its chips (or the new entry) on the live tables,
    the tournament row locked by the caller."""
    _online_only(tournament)
    if selectors.deal_pending(tournament) is not None:
        # The deal shares out the prize pool as it stands; money in now would change it.
        raise TournamentError(
            _("A deal is on the table: rebuys, re-entries and the add-on wait until it is settled.")
        )
    if kind == "rebuy":
        stack = selectors.entry_live_stack(entry)
        if stack is None:
            raise TournamentError(
                _("%(name)s has no seat at a live table.") % {"name": entry.player.name}
            )
        entry = entries.rebuy_take(tournament, entry, stack=stack, by=by)
        online.online_chips_add(entry.pk, tournament.rebuy_chips, by=by)
    elif kind == "addon":
        entry = entries.addon_take(tournament, entry, by=by)
        online.online_chips_add(entry.pk, tournament.addon_chips, by=by)
    else:
        entry = entries.reentry_take(tournament, entry, by=by, seat=False)
        online.online_entry_seat(entry.pk, by=seat_by)
    return entry
