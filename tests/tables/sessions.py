"""Seeded sessions at a table for the replay tests: the same deals and decisions every run.

Players decide with the house bots' ``decide`` on their own snapshots (tables/bots.py) and
some let their clock run out, so a session holds every way a hand ends.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime, timedelta

from tables import services
from tables.bots import decide
from tables.engine.cards import cards_str, shuffled_deck
from tables.fairness import Deal, commitment_of
from tables.models import Hand, Seat, SeatState, Table
from tables.runtime.state import table_snapshot
from tests.tables.conftest import later

STYLES = ("maniac", "loose", "station", "tight")


def seeded_deal_new(seed: int) -> Callable[[], Deal]:
    """A stand-in for ``fairness.deal_new`` dealing every deck from one seeded generator."""
    rng = random.Random(seed)

    def deal_new() -> Deal:
        deck = shuffled_deck(rng)
        text = cards_str(deck)
        secret = f"{rng.getrandbits(128):032x}"
        return Deal(deck, text, secret, commitment_of(text, secret))

    return deal_new


def refill(table: Table, now: datetime) -> None:
    """Between hands: a timed-out player comes back, a broke one buys in again."""
    for seat in Seat.objects.filter(table=table, user__isnull=False).select_related("user"):
        if seat.stack <= 0:
            services.seat_leave(table.pk, seat.user, now=now)
            services.seat_take(table.pk, seat.user, seat.number, table.min_buy_in, False, now=now)
        elif seat.state == SeatState.SITTING_OUT:
            services.seat_sit_in(table.pk, seat.user, wait_for_big_blind=False, now=now)


def play_session(table: Table, hands: int, seed: int, time_out: float) -> list[Hand]:
    """Deal ``hands`` hands at ``table``; each turn the player lets the clock run out with
    chance ``time_out``, else acts as its style decides. Returns the table's hands."""
    rng = random.Random(seed)
    styles = {s.number: STYLES[s.number % len(STYLES)] for s in table.seats.all()}
    now = later(0)
    for _ in range(hands):
        table.refresh_from_db()
        refill(table, now)
        table.refresh_from_db()
        now = max(now, table.next_hand_at or now) + timedelta(seconds=1)
        assert services.table_tick(table.pk, now=now), "the next hand was not dealt"
        hand = Hand.objects.filter(table=table).order_by("-number").first()
        assert hand is not None
        now = play_out(
            hand,
            now,
            lambda seat: decide(styles[seat.number], table_snapshot(table, seat.user), rng, 20),
            rng,
            time_out,
        )
    return list(Hand.objects.filter(table=table).order_by("number"))


def play_out(
    hand: Hand,
    now: datetime,
    choose: Callable[[Seat], dict[str, object] | None],
    rng: random.Random | None = None,
    time_out: float = 0,
) -> datetime:
    """Play ``hand`` to its end: deal each street of a run-out when due, let a turn time out
    with chance ``time_out``, else send the frame ``choose`` makes for the seat to act.
    Returns the clock at the end."""
    table = hand.table
    for _ in range(200):
        hand.refresh_from_db()
        if hand.is_complete:
            return now
        if hand.reveal_at is not None:  # an all-in run-out, dealt street by street
            now = hand.reveal_at
            assert services.table_tick(table.pk, now=now)
        elif rng is not None and rng.random() < time_out:
            now = hand.deadline  # type: ignore[assignment]
            assert services.table_tick(table.pk, now=now)
        else:
            seat = Seat.objects.select_related("user").get(table=table, number=hand.to_act)
            frame = choose(seat)
            assert frame is not None
            now += timedelta(seconds=2)
            services.table_act(
                table.pk,
                seat.user,
                frame["hand"],  # type: ignore[arg-type]
                frame["version"],  # type: ignore[arg-type]
                frame["action"],  # type: ignore[arg-type]
                frame.get("amount"),  # type: ignore[arg-type]
                now=now,
            )
    raise AssertionError("the hand did not end")
