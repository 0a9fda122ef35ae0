"""What the clock's screens receive: the TV clock, its sockets, the console and the lobby.

``clock_payloads`` reads everything a screen shows of a tournament in a fixed number of
queries; ``clock_ahead`` the rows its TV page carries to move on by itself. Publishing
sends the payloads to each tournament's clock group (``tournaments.broadcast``): after
every stored clock (``store``, ``sweep``) and after every other change a screen shows (an
entry, a rebuy, an elimination: ``clock_publish``). Reads only the rows and hand-for-hand
(``reads``), never a workflow.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Count, Q, Sum
from django.utils import timezone

from tournaments import broadcast, payouts
from tournaments.clock import ClockRow, clock_state
from tournaments.clock import ahead as clock_rows_ahead
from tournaments.models import DealOffer, DealState, Entry, EntryState, Tournament
from tournaments.services import chips as chip_counts
from tournaments.services import tv
from tournaments.services.clock.reads import clock_hand_for_hand_many, clock_rows_many

logger = logging.getLogger(__name__)


def _fields(tournaments: list[Tournament]) -> dict[int, dict[str, Any]]:
    """Players left, entries, chips in play, the chip leader and money of each tournament,
    in two queries."""
    counted = [EntryState.REGISTERED, EntryState.PLAYING, EntryState.OUT]
    totals = {
        row["tournament_id"]: row
        for row in Entry.objects.filter(
            tournament_id__in=[t.pk for t in tournaments], state__in=counted
        )
        .order_by()
        .values("tournament_id")
        .annotate(
            entries=Count("pk"),
            left=Count("pk", filter=Q(state__in=[EntryState.REGISTERED, EntryState.PLAYING])),
            rebuys=Sum("rebuys"),
            addons=Count("pk", filter=Q(addon=True)),
        )
    }
    leaders = chip_counts.chip_leaders(t.pk for t in tournaments)
    fields = {}
    for tournament in tournaments:
        row = totals.get(tournament.pk, {})
        entries = row.get("entries") or 0
        left = row.get("left") or 0
        rebuys = row.get("rebuys") or 0
        addons = row.get("addons") or 0
        chips = chip_counts.chips_total(tournament, entries=entries, rebuys=rebuys, addons=addons)
        prize_pool = payouts.prize_pool(
            buy_ins=entries,
            buy_in=tournament.prize_per_entry,
            rebuys=rebuys,
            rebuy=tournament.rebuy_price,
            addons=addons,
            addon=tournament.addon_price,
        )
        fields[tournament.pk] = {
            "entries": entries,
            "players_left": left,
            "rebuys": rebuys,
            "addons": addons,
            "chips_in_play": chips,
            "average_stack": round(chips / left) if left else None,
            # From the director's newest chip counts (None until someone is counted).
            "chip_leader": leaders.get(tournament.pk),
            "prize_pool": prize_pool,
            "payouts": _payouts(tournament, entries, prize_pool),
            "bounty": tournament.bounty,
        }
    return fields


def _payouts(tournament: Tournament, entries: int, prize_pool: int) -> list[dict[str, int]]:
    """Each paid place and its prize: the director's percentages, or the built-in table for
    the field, rounded to the money unit with the remainder to first (``payouts``)."""
    if not entries or not prize_pool:
        return []
    try:
        shares = [int(p) for p in tournament.payout_basis_points or []]
        shares = shares or payouts.payout_percentages(entries)
        prizes = payouts.payouts(prize_pool, shares, unit=tournament.money_unit)
    except (payouts.PayoutError, TypeError, ValueError):
        # Percentages the settings should have refused, or a field beyond the built-in
        # table: the screens show the pool without a payout list rather than fail.
        return []
    return [{"place": place, "prize": prize} for place, prize in enumerate(prizes, start=1)]


def clock_payloads(
    tournament_ids: Iterable[int],
    now: datetime | None = None,
    rows_by_blind_structure: dict[int, tuple[ClockRow, ...]] | None = None,
) -> dict[int, dict[str, Any]]:
    """Everything the TV clock, its sockets and the overlay JSON show, for each tournament
    that exists, in a fixed number of queries whatever their number
    (``rows_by_blind_structure``: rows the caller has just read). Public: counts and money, and no player's name but the
    chip leader's (once the director has counted chips) until a tournament is finished
    (then its places, ``services.tv``)."""
    now = now or timezone.now()
    tournaments = list(Tournament.objects.select_related("event").filter(pk__in=tournament_ids))
    rows_by_blind_structure = dict(rows_by_blind_structure or {})
    missing = {t.blind_structure_id for t in tournaments} - set(rows_by_blind_structure)
    if missing:
        rows_by_blind_structure.update(clock_rows_many(missing))
    states = {
        t.pk: clock_state(t, rows_by_blind_structure.get(t.blind_structure_id, ()), now)
        for t in tournaments
    }
    fields = _fields(tournaments)
    tv_parts = tv.tv_parts(
        tournaments, rows_by_blind_structure, {pk: state.index for pk, state in states.items()}
    )
    hand_for_hand = clock_hand_for_hand_many(tournaments)
    # A deal offered online holds the tables and stops the clock: its screens say so,
    # apart from a director's pause.
    deal_held = set(
        DealOffer.objects.filter(
            tournament_id__in=[t.pk for t in tournaments if t.online_paused],
            state__in=(DealState.HELD, DealState.OPEN),
        ).values_list("tournament_id", flat=True)
    )
    payloads = {}
    for tournament in tournaments:
        state = states[tournament.pk]
        event = tournament.event
        payloads[tournament.pk] = {
            "type": "clock",
            "version": tournament.clock_version,
            "tournament": {
                "id": tournament.pk,
                "name": event.name,
                "venue": event.venue,
                "game": event.game,
                "game_label": event.game_label,
                "structure": event.structure,
                "state": tournament.state,
                "state_label": tournament.get_state_display(),
                "starts_at_ms": round(event.starts_at.timestamp() * 1000),
            },
            "clock": state.as_dict(),
            "field": fields[tournament.pk],
            "tv": tv_parts[tournament.pk],
            # Table numbers only: which tables are still playing the hand-for-hand hand.
            "hand_for_hand": hand_for_hand[tournament.pk].as_dict(),
            "deal_held": tournament.pk in deal_held,
        }
    return payloads


def clock_ahead(tournament_id: int, now: datetime | None = None) -> list[dict[str, Any]]:
    """The rows a tournament's running clock comes to after the one in play, each with its
    start (``tournaments.clock.ahead``) and the chips no longer used from it on
    (``leaving``, the TV's ``colour_up`` then). The TV page carries them, so a screen whose
    server is away, or the service worker's copy reloaded without a network, moves on to
    the level the clock is at now. Not in ``clock_payloads``: a socket sends that on every
    change, and the rows ahead change only with the clock."""
    now = now or timezone.now()
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return []
    blind_structure_id = tournament.blind_structure_id
    rows = clock_rows_many([blind_structure_id]).get(blind_structure_id, ())
    colours = tv.tv_colour_ups({blind_structure_id}, {blind_structure_id: rows})[blind_structure_id]
    return [
        {**row.as_dict(), "leaving": tv.tv_colour_up(colours, row.row.index)}
        for row in clock_rows_ahead(tournament, rows, now)
    ]


def clock_payload(tournament_id: int, now: datetime | None = None) -> dict[str, Any] | None:
    """``clock_payloads`` of one tournament; None if there is no such tournament."""
    return clock_payloads([tournament_id], now).get(tournament_id)


def clock_publish_many(
    tournament_ids: list[int],
    rows_by_blind_structure: dict[int, tuple[ClockRow, ...]] | None = None,
) -> None:
    try:
        payloads = clock_payloads(tournament_ids, rows_by_blind_structure=rows_by_blind_structure)
    except Exception:
        logger.exception("reading the clocks of %s to broadcast failed", tournament_ids)
        return
    for tournament_id, payload in payloads.items():
        broadcast.clock_changed(tournament_id, payload)


def clock_publish_now(tournament_id: int) -> None:
    """Send the tournament's current state to its clock screens (call after commit)."""
    clock_publish_many([tournament_id])


def clock_publish(tournament_id: int) -> None:
    """Tell the clock screens after commit that the tournament changed (an entry, a rebuy,
    an elimination): players left, the average stack and the prize pool follow."""
    transaction.on_commit(lambda: clock_publish_now(tournament_id))
