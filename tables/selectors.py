"""Reads the pages and commands share: hand histories, what a player may see of a hand,
its replay, its PHH text, the fairness check, a table's chip count.

The live, per-viewer snapshots of a table in play are ``tables.live``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet, Sum

from tables.engine.cards import card_str
from tables.engine.records import (
    BoardDealt,
    HandStarted,
    HoleDealt,
    Mucked,
    Shown,
    record_from_json,
    record_to_json,
)
from tables.engine.state import Hand as EngineHand
from tables.fairness import commitment_matches, deck_from_text
from tables.models import Hand, HandPlayer, Table

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
    """The hand's records as ``user`` was allowed to see them.

    The deck in HandStarted is dropped; other players' hole cards become "????" unless they
    were shown; burns become "??". Who mucked is public, what they held is not.
    """
    seat = _seat_in(hand, user)
    records = [record_from_json(r) for r in hand.records]
    shown = {r.seat for r in records if isinstance(r, Shown)}
    out: list[dict[str, Any]] = []
    for r in records:
        data = record_to_json(r)
        if isinstance(r, HandStarted):
            data.pop("deck", None)
        elif isinstance(r, HoleDealt):
            if r.seat != seat and r.seat not in shown:
                data["cards"] = ["??"] * len(r.cards)
        elif data.get("kind") == "Burned":
            data["card"] = "??"
        out.append(data)
    return out


def hand_phh_for(hand: Hand, user: Any) -> str:
    """A PHH text of the hand with only what ``user`` could see.

    The engine's exporter writes every hole card; the deal lines of players whose cards
    this user never saw (not theirs, not shown) are rewritten to unknown cards ("????????",
    "??" per card, as PHH spells an unknown card).
    """
    seat = _seat_in(hand, user)
    records = [record_from_json(r) for r in hand.records]
    shown = {r.seat for r in records if isinstance(r, Shown)}
    from tables.engine import phh

    try:
        engine = EngineHand.from_records(records)
        text = phh.hand_to_phh(engine, check=False, table=hand.table.name, hand=hand.number)
    except Exception:
        return _phh_fallback(hand, records, seat, shown)
    started = records[0]
    assert isinstance(started, HandStarted)
    order = _clockwise_after(started.button, [s.seat for s in started.seats])
    hidden = {
        f"p{k + 1}" for k, number in enumerate(order) if number != seat and number not in shown
    }
    lines = []
    for line in text.splitlines():
        parts = line.strip().strip('",').split()
        if len(parts) == 4 and parts[:2] == ["d", "dh"] and parts[2] in hidden:
            line = line.replace(parts[3], "??" * (len(parts[3]) // 2))
        lines.append(line)
    return "\n".join(lines) + "\n"


def _phh_fallback(hand: Hand, records: list[Any], seat: int | None, shown: set[int]) -> str:
    started = records[0]
    assert isinstance(started, HandStarted)
    config = started.config
    order = _clockwise_after(started.button, [s.seat for s in started.seats])
    index = {s: k + 1 for k, s in enumerate(order)}
    variant = {
        ("omaha", "pot-limit"): "PO",
        ("omaha", "limit"): "FO",
        ("omaha", "no-limit"): "NO",
        ("omaha-hi-lo", "pot-limit"): "PO/8",
        ("omaha-hi-lo", "limit"): "FO/8",
        ("omaha-hi-lo", "no-limit"): "NO/8",
    }.get((str(config.game), str(config.structure)), "PO")
    stacks = {s.seat: s.stack for s in started.seats}
    actions: list[str] = []
    for r in records:
        name = type(r).__name__
        if isinstance(r, HoleDealt):
            visible = r.seat == seat or r.seat in shown
            cards = "".join(card_str(c) for c in r.cards) if visible else "????????"
            actions.append(f"d dh p{index[r.seat]} {cards}")
        elif isinstance(r, BoardDealt):
            actions.append("d db " + "".join(card_str(c) for c in r.cards))
        elif name == "Folded":
            actions.append(f"p{index[r.seat]} f")
        elif name in ("Checked", "Called"):
            actions.append(f"p{index[r.seat]} cc")
        elif name in ("Bet", "Raised"):
            actions.append(f"p{index[r.seat]} cbr {r.to}")
        elif isinstance(r, Shown):
            actions.append(f"p{index[r.seat]} sm " + "".join(card_str(c) for c in r.cards))
        elif isinstance(r, Mucked):
            actions.append(f"p{index[r.seat]} sm -")
    lines = [
        f'variant = "{variant}"',
        f"antes = [{', '.join('0' for _ in order)}]",
        f"blinds_or_straddles = [{', '.join(_blind_for(records, s) for s in order)}]",
        f"min_bet = {config.big_blind}",
        f"starting_stacks = [{', '.join(str(stacks[s]) for s in order)}]",
        "actions = [",
        *[f'  "{a}",' for a in actions],
        "]",
        f"seats = [{', '.join(str(s) for s in order)}]",
        f"hand = {hand.number}",
        f'table = "{hand.table.name}"',
    ]
    return "\n".join(lines) + "\n"


def _blind_for(records: list[Any], seat: int) -> str:
    total = sum(
        r.amount
        for r in records
        if type(r).__name__ == "BlindPosted" and r.seat == seat and r.blind != "dead"
    )
    return str(total)


def _clockwise_after(button: int, seats: list[int]) -> list[int]:
    ordered = sorted(seats)
    first = next((k for k, s in enumerate(ordered) if s > button), 0)
    return ordered[first:] + ordered[:first]


def hand_verification(hand: Hand) -> dict[str, Any]:
    """What a "verify this hand" page shows: the commitment, the reveal and the checks.

    Before the hand ends only the commitment is public. After it: the hash recomputed from
    the revealed deck and secret, and whether replaying the stored moves on that deck gives
    exactly the stored hand (same hole cards, board and awards).
    """
    out: dict[str, Any] = {
        "hand": hand.pk,
        "table": hand.table_id,
        "number": hand.number,
        "commitment": hand.commitment,
        "complete": hand.is_complete,
        "deck": None,
        "secret": None,
        "hash_matches": None,
        "deal_matches": None,
        "board": None,
    }
    if not hand.is_complete:
        return out
    records = [record_from_json(r) for r in hand.records]
    started = records[0]
    deck_ok = False
    replay_ok = False
    board: list[str] = []
    try:
        deck = deck_from_text(hand.deck)
        deck_ok = isinstance(started, HandStarted) and tuple(started.deck) == tuple(deck)
        replay = EngineHand.from_records(records)
        replay_ok = deck_ok and replay.is_complete and list(replay.records) == records
        board = [card_str(c) for c in replay.board]
    except Exception:
        replay_ok = False
    out.update(
        deck=hand.deck,
        secret=hand.secret,
        hash_matches=commitment_matches(hand.deck, hand.secret, hand.commitment),
        deal_matches=replay_ok,
        board=board,
    )
    return out


def table_chip_count(table: Table) -> dict[str, int]:
    """Buy-ins, cash-outs and the chips seated: buy-ins - cash-outs == seated, always."""
    sums = {
        kind: table.ledger.filter(kind=kind).aggregate(total=Sum("amount"))["total"] or 0
        for kind in ("buy_in", "cash_out")
    }
    seated = table.seats.aggregate(total=Sum("stack"))["total"] or 0
    return {"bought_in": sums["buy_in"], "cashed_out": sums["cash_out"], "seated": seated}
