"""Reads the pages and commands share: hand histories, what a player may see of a hand,
its replay, its PHH text, the fairness check, a table's chip count.

The live, per-viewer snapshots of a table in play are ``tables.live``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet, Sum

from core.names import name_key
from core.permissions import is_director
from tables import fairness
from tables.engine import phh
from tables.engine.cards import card_str
from tables.engine.records import (
    HandStarted,
    record_from_json,
    records_visible_to,
)
from tables.engine.state import Hand as EngineHand
from tables.fairness import deck_from_text
from tables.models import Hand, HandPlayer, Table
from tables.table_state import engine_of

# ----------------------------------------------------------------------------- histories


def hands_played_by(user: Any) -> QuerySet[Hand]:
    """Finished hands ``user`` was dealt into, newest first."""
    return (
        Hand.objects.filter(handplayer__user=user, ended_at__isnull=False)
        .select_related("table")
        .order_by("-ended_at", "-id")
    )


def _seat_in(hand: Hand, user: Any) -> int | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    row = HandPlayer.objects.filter(hand=hand, user=user).first()
    return None if row is None else row.seat


def hand_records_for(hand: Hand, user: Any) -> list[dict[str, Any]]:
    """The hand's records as ``user`` was allowed to see them (the engine decides)."""
    records = [record_from_json(r) for r in hand.records]
    return records_visible_to(records, _seat_in(hand, user))


def hand_phh_for(hand: Hand, user: Any) -> str:
    """A PHH text of the hand with only what ``user`` could see: the engine's one writer,
    asked for that viewer (another player's hole cards unknown unless shown; never the
    deck or the burns)."""
    engine = engine_of(hand)
    return phh.hand_to_phh_for(
        engine, _seat_in(hand, user), table=hand.table.name, hand=hand.number
    )


def hand_verification(hand: Hand, user: Any = None) -> dict[str, Any]:
    """What a "verify this hand" page shows: the commitment, the openings and the checks.

    Before the hand ends only the commitment is public. After it: the 52 leaves and the
    openings of the cards the table saw (board, burns, shown hands), plus ``user``'s own
    hole cards if they played it; whether the leaves hash to the commitment and every
    opening to its leaf; and whether replaying the stored moves on the stored deck gives
    exactly the stored hand (checked here, with the deck, which is never shown).
    """
    out: dict[str, Any] = {
        "hand": hand.pk,
        "table": hand.table_id,
        "number": hand.number,
        "commitment": hand.commitment,
        "complete": hand.is_complete,
        "leaves": None,
        "openings": None,
        "own_openings": None,
        "hash_matches": None,
        "deal_matches": None,
        "board": None,
        "boards": None,
    }
    if not hand.is_complete:
        return out
    records = [record_from_json(r) for r in hand.records]
    started = records[0]
    replay_ok = False
    board: list[str] = []
    # A hand run twice: both runs' boards (the first is ``board``), all their cards opened.
    boards: list[list[str]] | None = None
    try:
        deck = deck_from_text(hand.deck)
        deck_ok = isinstance(started, HandStarted) and tuple(started.deck) == tuple(deck)
        replay = EngineHand.from_records(records)
        replay_ok = deck_ok and replay.is_complete and list(replay.records) == records
        board = [card_str(c) for c in replay.board]
        if len(replay.boards) == 2:
            boards = [[card_str(c) for c in run] for run in replay.boards]
    except Exception:  # noqa: BLE001 - a stored hand that does not replay does not verify
        replay_ok = False
    reveal = fairness.hand_reveal(hand.deck, hand.secret, records)
    seat = _seat_in(hand, user)
    own = fairness.seat_openings(hand.deck, hand.secret, records, seat) if seat is not None else []
    leaves_ok, openings_ok = fairness.openings_verify(
        hand.commitment, reveal["leaves"], reveal["openings"] + own
    )
    out.update(
        leaves=reveal["leaves"],
        openings=reveal["openings"],
        own_openings=own or None,
        hash_matches=leaves_ok and openings_ok,
        deal_matches=replay_ok,
        board=board,
        boards=boards,
    )
    return out


def table_chip_count(table: Table) -> dict[str, int]:
    """Buy-ins (rebuys included), cash-outs and the chips seated: buy-ins - cash-outs ==
    seated, always."""
    sums = {
        kind: table.ledger.filter(kind=kind).aggregate(total=Sum("amount"))["total"] or 0
        for kind in ("buy_in", "rebuy", "cash_out")
    }
    seated = table.seats.aggregate(total=Sum("stack"))["total"] or 0
    return {
        "bought_in": sums["buy_in"] + sums["rebuy"],
        "cashed_out": sums["cash_out"],
        "seated": seated,
    }


# ----------------------------------------------------------------------------- the ledger


def may_see_ledger(table: Table, user: Any) -> bool:
    """The players of the table (anyone with a line in its ledger), its host and directors."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if table.created_by_id == user.pk or is_director(user):
        return True
    return bool(table.ledger.filter(user=user).exists())


# The session key under which a viewer's invite links are kept (ids of private tables).
INVITES_SESSION_KEY = "table_invites"


def may_watch(table: Table, user: Any, session: Any) -> bool:
    """Anyone may watch an open table; a private one only its host (and directors), its
    players (anyone in its ledger) and whoever came with its invite link (``session``)."""
    if not table.is_private:
        return True
    if session is not None and table.pk in session.get(INVITES_SESSION_KEY, []):
        return True
    return bool(
        user is not None
        and getattr(user, "is_authenticated", False)
        and (table.created_by_id == user.pk or may_see_ledger(table, user))
    )


def _ledger_name(user: Any) -> str:
    return (
        str(user.first_name)
        if user.username.startswith("bot-") and user.first_name
        else str(user.username)
    )


def table_ledger(table: Table) -> dict[str, Any]:
    """Every buy-in, rebuy and cash-out, and per player what they bought, took away, hold,
    and their net result (cashed out + current stack - bought in), biggest winner first.

    Totals always balance: the nets sum to zero (chips only move between players).
    """
    entries = list(table.ledger.select_related("user").order_by("created_at", "id"))
    stacks = {
        s.user_id: s.stack for s in table.seats.filter(user__isnull=False).only("user", "stack")
    }
    players: dict[int, dict[str, Any]] = {}
    for entry in entries:
        row = players.setdefault(
            entry.user_id,
            {
                "user_id": entry.user_id,
                "name": _ledger_name(entry.user),
                "buy_in": 0,
                "rebuy": 0,
                "cash_out": 0,
            },
        )
        row[entry.kind] += entry.amount
    for user_id, row in players.items():
        row["bought_in"] = row["buy_in"] + row["rebuy"]
        row["stack"] = stacks.get(user_id, 0)
        row["seated"] = user_id in stacks
        row["net"] = row["cash_out"] + row["stack"] - row["bought_in"]
    rows_out = sorted(players.values(), key=lambda r: (-r["net"], name_key(r["name"])))
    return {
        "entries": [
            {
                "at": e.created_at,
                "name": _ledger_name(e.user),
                "seat": e.seat,
                "kind": e.kind,
                "kind_label": e.get_kind_display(),
                "amount": e.amount,
            }
            for e in entries
        ],
        "players": rows_out,
        "totals": {
            key: sum(r[key] for r in rows_out)
            for key in ("buy_in", "rebuy", "bought_in", "cash_out", "stack", "net")
        },
    }
