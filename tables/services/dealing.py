"""Dealing and the table's clock: what is due at a given moment (a time-out, the next street
of a run-out, the next hand), deciding who is dealt in, and the sweep's queries.

Everything is derived from timestamps stored on the rows, so a tick that runs twice, late, or
after a restart does the right thing once.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from tables import rows
from tables.engine.errors import RuleError
from tables.engine.records import BlindPosted, SeatSpec
from tables.engine.state import Hand as EngineHand
from tables.engines import engine_to_move
from tables.fairness import deal_new
from tables.models import Hand, HandPlayer, Seat, SeatState, Table
from tables.services.common import (
    TIMED_OUT,
    Moved,
    changed,
    current_hand,
    lock,
    table_write,
)
from tables.services.play import after_moves, reveal_street, timeout_move

logger = logging.getLogger(__name__)


def table_tick(table_id: int, now: datetime | None = None) -> bool:
    """Apply what is due at ``now``: a time-out, or the next hand. Idempotent.

    Everything is derived from stored timestamps, so running it twice, late, or after a
    restart does the right thing once; it returns whether it changed the table. Most ticks
    find nothing due (a move came first), and say so from a plain read, without the lock.
    """
    now = now or timezone.now()
    if not _tick_may_be_due(table_id, now):
        return False
    return _table_tick(table_id, now)


def _tick_may_be_due(table_id: int, now: datetime) -> bool:
    # Stored deadlines and next-hand times are only ever set in the future, so "not due"
    # read without the lock stays true until the next read.
    row = (
        Hand.objects.filter(table_id=table_id, ended_at__isnull=True)
        .values_list("deadline", "to_act", "reveal_at")
        .first()
    )
    if row is not None:
        deadline, to_act, reveal_at = row
        if reveal_at is not None:
            return bool(reveal_at <= now)
        return deadline is not None and deadline <= now and to_act is not None
    table = Table.objects.filter(pk=table_id).values_list("next_hand_at", "closed_at").first()
    if table is None:
        return True  # the locked read says "no such table"
    next_hand_at, closed_at = table
    return next_hand_at is not None and next_hand_at <= now and closed_at is None


@table_write
def _table_tick(table_id: int, now: datetime) -> bool:
    table = lock(table_id)
    hand = current_hand(table)
    if hand is not None and hand.reveal_at is not None:
        if hand.reveal_at > now:
            return False
        changed(table, reveal_street(table, hand, now))
        return True
    if hand is not None:
        if hand.deadline is None or hand.deadline > now or hand.to_act is None:
            return False
        engine = engine_to_move(hand)
        seat = table.seats.select_for_update().get(number=hand.to_act)
        new = timeout_move(table, engine, seat)
        seat.state = SeatState.SITTING_OUT
        seat.sat_out_reason = TIMED_OUT
        seat.save()
        changed(table, after_moves(table, hand, engine, new, now))
        return True
    if table.next_hand_at is None or table.next_hand_at > now or not table.is_open:
        return False
    moved = _hand_start(table, now)
    if moved is None:
        # Not enough players any more; the next sit or sit-in schedules a hand again.
        table.next_hand_at = None
        changed(table)
        return False
    changed(table, moved)
    return True


def _clockwise(after: int, seats: list[int]) -> list[int]:
    """``seats`` in dealing order, starting with the first seat after ``after``."""
    ordered = sorted(seats)
    first = next((k for k, s in enumerate(ordered) if s > after), 0)
    return ordered[first:] + ordered[:first]


def _blind_positions(button: int, dealt: list[int]) -> tuple[int, int]:
    """(small blind seat, big blind seat) the engine will use for these seats."""
    order = _clockwise(button, dealt)
    if len(order) == 2:
        return order[1], order[0]
    return order[0], order[1]


def _between(start: int, end: int, seat: int) -> bool:
    """Whether ``seat`` lies clockwise after ``start`` up to and including ``end``."""
    if start < end:
        return start < seat <= end
    return seat > start or seat <= end


def _hand_start(table: Table, now: datetime) -> Moved | None:
    """Decide who is dealt in, post what is owed, shuffle, commit and deal."""
    seats = list(table.seats.select_for_update(of=("self",)).select_related("user"))
    candidates = [
        s
        for s in seats
        if s.user_id is not None
        and s.stack > 0
        and not s.leaving
        and s.state in (SeatState.PLAYING, SeatState.WAITING)
    ]
    if len(candidates) < 2:
        return None
    established = [s for s in candidates if not (s.is_new or s.owes_small or s.owes_big)]
    if len(established) < 2:
        # A fresh game: nobody has a blind to catch up on, everyone is dealt in free.
        established = candidates
    button = _clockwise(table.button, [s.number for s in established])[0]
    dealt = {s.number: SeatSpec(s.number, s.stack) for s in established}
    for s in candidates:
        if s.number in dealt:
            continue
        trial = [*dealt, s.number]
        small, big = _blind_positions(button, trial)
        if s.number == big:
            dealt[s.number] = SeatSpec(s.number, s.stack)  # the big blind reached them
        elif s.number == small or s.number == button or s.wait_for_big_blind:
            continue  # waits: nobody is dealt in between the button and the big blind
        else:
            owes_small = s.owes_small and not s.is_new
            dealt[s.number] = SeatSpec(
                s.number,
                s.stack,
                live_post=table.config.big_blind,
                dead_post=(table.config.small_blind or 0) if owes_small else 0,
            )
    if len(dealt) < 2:
        return None
    small, big = _blind_positions(button, list(dealt))
    # Missed blinds: a seated player sitting out whom the big blind passed owes both blinds.
    if table.last_big_blind:
        for s in seats:
            if (
                s.user_id is not None
                and s.number not in dealt
                and s.state == SeatState.SITTING_OUT
                and _between(table.last_big_blind, big, s.number)
                and not s.is_new
            ):
                s.owes_small = s.owes_big = True
                s.save(update_fields=["owes_small", "owes_big"])
    deal = deal_new()
    try:
        engine = EngineHand.start(table.config, list(dealt.values()), button, deal.deck)
    except RuleError:
        logger.exception("table %s: the engine refused to start a hand", table.pk)
        return None
    table.hand_count += 1
    table.button = button
    table.last_big_blind = next(
        (r.seat for r in engine.records if isinstance(r, BlindPosted) and r.blind == "big"), big
    )
    table.next_hand_at = None
    hand = Hand.objects.create(
        table=table,
        number=table.hand_count,
        records=[],
        button=button,
        deck=deal.deck_text,
        secret=deal.secret,
        commitment=deal.commitment,
        started_at=now,
    )
    by_number = {s.number: s for s in seats}
    HandPlayer.objects.bulk_create(
        HandPlayer(
            hand=hand, user_id=by_number[number].user_id, seat=number, stack_before=spec.stack
        )
        for number, spec in dealt.items()
    )
    for number in dealt:
        s = by_number[number]
        s.is_new = False
        s.owes_small = s.owes_big = False
        s.state = SeatState.PLAYING
        rows.save(s, ("is_new", "owes_small", "owes_big", "state"))
    for s in candidates:
        if s.number not in dealt and s.state != SeatState.WAITING:
            s.state = SeatState.WAITING
            rows.save(s, ("state",))
    return after_moves(table, hand, engine, list(engine.records), now)


def tables_due(now: datetime | None = None) -> list[int]:
    """Tables with a time-out or a next hand due: what the periodic sweep ticks."""
    now = now or timezone.now()
    timed_out = Hand.objects.filter(
        Q(deadline__lte=now) | Q(reveal_at__lte=now), ended_at__isnull=True
    ).values_list("table_id", flat=True)
    due = Table.objects.filter(
        Q(next_hand_at__lte=now, closed_at__isnull=True) | Q(pk__in=timed_out)
    ).values_list("pk", flat=True)
    return list(due)


def tables_waiting_on_bots(now: datetime | None = None, after_seconds: float = 1.0) -> list[int]:
    """Tables where a bot has been to act longer than its thinking time (a lost task)."""
    now = now or timezone.now()
    hands = Hand.objects.filter(
        ended_at__isnull=True,
        turn_started_at__lte=now - timedelta(seconds=after_seconds),
        to_act__isnull=False,
    ).values_list("table_id", "to_act")
    out = []
    for table_id, number in hands:
        if Seat.objects.filter(table_id=table_id, number=number).exclude(bot_style="").exists():
            out.append(table_id)
    return out
