"""Reads the pages and commands share: hand histories, what a player may see of a hand,
its replay, its PHH text, the fairness check, a table's chip count, and what a tournament
reads of its tables (the seats, the hands in play, whether open or held, a finished
hand's report).

The live, per-viewer snapshots of a table in play are ``tables.runtime.snapshots``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum

from core.names import name_key
from core.permissions import is_director
from tables import fairness
from tables.engine import phh
from tables.engine.cards import card_str
from tables.engine.records import (
    HandStarted,
    PotAwarded,
    record_from_json,
    records_visible_to,
)
from tables.engine.state import Hand as EngineHand
from tables.fairness import deck_from_text
from tables.models import SAT_OUT_BY_DIRECTOR, Hand, HandPlayer, Seat, SeatState, Table
from tables.runtime.state import engine_of

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


# ----------------------------------------------------------------------------- tournaments
# What a tournament reads of its live tables: the tournaments reach the tables only through
# this module, the services and the engine (docs/architecture.md). ``table_ids`` may be a
# queryset of ids: it is then a subquery of the one query each read makes.


@dataclass(frozen=True)
class SeatTaken:
    """A seat with a player in it: its number and the player's account."""

    number: int
    user_id: int


def table_find(table_id: int | None) -> Table | None:
    """The table ``table_id``, or None (no id, or no such table)."""
    return Table.objects.filter(pk=table_id).first() if table_id else None


def hands_in_play(table_ids: Iterable[int]) -> dict[int, int | None]:
    """The tables among ``table_ids`` in the middle of a hand: {table id: the seat to act,
    or None while nobody is (a run-out's next street, the showdown)}."""
    return dict(
        Hand.objects.filter(table_id__in=table_ids, ended_at__isnull=True).values_list(
            "table_id", "to_act"
        )
    )


@dataclass(frozen=True)
class TableStanding:
    """Where one of a tournament's live tables stands between two of its reads: ``held``
    (no new hand until the tournament releases it), the hands it has dealt, whether one is
    in play, and the seats of the last hand's button and blinds (which place the next)."""

    held: bool
    hand_count: int
    in_hand: bool
    button: int
    last_big_blind: int
    last_small_blind: int


def tables_standing(table_ids: Iterable[int]) -> dict[int, TableStanding]:
    """How each of these tables stands, by table id, in one query (a hand in play
    included, so the caller needs no ``hands_in_play`` beside it)."""
    in_hand = Exists(Hand.objects.filter(table_id=OuterRef("pk"), ended_at__isnull=True))
    return {
        pk: TableStanding(held, count, playing, button, big, small)
        for pk, held, count, playing, button, big, small in Table.objects.filter(pk__in=table_ids)
        .annotate(in_hand=in_hand)
        .values_list(
            "pk", "held", "hand_count", "in_hand", "button", "last_big_blind", "last_small_blind"
        )
    }


def table_open(table_id: str) -> Exists:
    """A condition for another app's rows that name a table in their column ``table_id``:
    that table is open (not closed). For ``filter()``, so the rows and the tables' state
    are read in one query without naming the tables' columns."""
    return Exists(Table.objects.filter(pk=OuterRef(table_id), closed_at__isnull=True))


def held_hand_count(table_id: str) -> Subquery:
    """For another app's rows that name a table in their column ``table_id``: the hands
    that table has dealt if it is held, else NULL. For ``annotate()``, read in the rows'
    own query."""
    return Subquery(Table.objects.filter(pk=OuterRef(table_id), held=True).values("hand_count")[:1])


def hands_dealt(table_ids: Iterable[int]) -> int:
    """How many hands these tables have dealt, the hand in play included."""
    return Hand.objects.filter(table_id__in=table_ids).count()


def tables_version_total(table_ids: Iterable[int]) -> int | None:
    """The sum of these tables' versions: it changes whenever any of them does (None: no
    table)."""
    total: int | None = Table.objects.filter(pk__in=table_ids).aggregate(total=Sum("version"))[
        "total"
    ]
    return total


def seat_sat_out_by_director(table_id: int, number: int) -> bool:
    """Whether seat ``number`` of the table sits out because the tournament's director sat
    it out (until its player sits back in)."""
    return Seat.objects.filter(
        table_id=table_id,
        number=number,
        state=SeatState.SITTING_OUT,
        sat_out_reason=SAT_OUT_BY_DIRECTOR,
    ).exists()


def seats_in_play(table_ids: Iterable[int]) -> dict[int, list[SeatTaken]]:
    """The players still in at these tables, by table, lowest seat first: a seat with no
    chips is left out, unless chips bought during the hand come to it when the hand ends
    (``Seat.adding``)."""
    by_table: dict[int, list[SeatTaken]] = {}
    for table_id, number, user_id in (
        Seat.objects.filter(table_id__in=table_ids, user__isnull=False)
        .filter(Q(stack__gt=0) | Q(adding__gt=0))
        .order_by("number")
        .values_list("table_id", "number", "user_id")
    ):
        by_table.setdefault(table_id, []).append(SeatTaken(number, user_id))
    return by_table


def seat_chips(table_ids: Iterable[int]) -> dict[tuple[int, int], int]:
    """Every seat's chips at these tables: {(table id, seat number): chips}, its stack plus
    the chips bought during the hand in play, which the table adds when it ends
    (``Seat.adding``)."""
    return {
        (table_id, number): stack + adding
        for table_id, number, stack, adding in Seat.objects.filter(
            table_id__in=table_ids
        ).values_list("table_id", "number", "stack", "adding")
    }


def hand_ended_report(table_id: int, number: int) -> dict[str, Any] | None:
    """What ``hand_ended`` said of the table's hand ``number``, rebuilt from its players'
    rows and its records (each pot's winners; a busted player's last pot with a winner), for
    whoever missed the signal; None if that hand has not ended."""
    hand = Hand.objects.filter(table_id=table_id, number=number, ended_at__isnull=False).first()
    if hand is None:
        return None
    seats = [
        {
            "seat": hp.seat,
            "user_id": hp.user_id,
            "before": hp.stack_before,
            "after": hp.stack_after or 0,
        }
        for hp in hand.handplayer_set.all()
    ]
    winners: dict[int, list[int]] = {}
    for record in engine_of(hand).records:
        if isinstance(record, PotAwarded) and record.seat not in winners.setdefault(record.pot, []):
            winners[record.pot].append(record.seat)
    last = max(winners) if winners else 0
    return {
        "hand_id": hand.pk,
        "seats": seats,
        "pots": [{"pot": k, "winners": w} for k, w in sorted(winners.items())],
        "eliminated_in": {row["seat"]: last for row in seats if row["after"] <= 0},
    }


@dataclass(frozen=True)
class FinishedHand:
    """A finished hand as the engine rebuilds it, with its players' names by seat."""

    table_id: int
    number: int
    level: int | None
    engine: EngineHand
    names: dict[int, str]


def hands_finished(table_ids: Iterable[int]) -> Iterator[FinishedHand]:
    """Every finished hand of these tables in the order dealt (two queries in all), each
    rebuilt as it is reached."""
    hands = (
        Hand.objects.filter(table_id__in=table_ids, ended_at__isnull=False)
        .prefetch_related(
            Prefetch("handplayer_set", queryset=HandPlayer.objects.select_related("user"))
        )
        .order_by("started_at", "pk")
    )
    for hand in hands:
        yield FinishedHand(
            table_id=hand.table_id,
            number=hand.number,
            level=hand.level,
            engine=engine_of(hand),
            names={
                hp.seat: hp.user.first_name or hp.user.username for hp in hand.handplayer_set.all()
            },
        )
