"""Dealing and the table's clock: what is due at a given moment (a time-out, the next street
of a run-out, the next hand), deciding who is dealt in, and the sweep's queries.

Everything is derived from timestamps stored on the rows, so a tick that runs twice, late, or
after a restart does the right thing once.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q
from django.utils import timezone

from tables.botbrain import decide
from tables.engine.deal_in import ButtonMode, deal_in
from tables.engine.errors import RuleError
from tables.engine.state import Hand as EngineHand
from tables.fairness import deal_new
from tables.models import Hand, HandPlayer, Seat, SeatState, Table
from tables.runtime import rows
from tables.runtime.state import CHANGED, STATE, Moved, Outcome, Read
from tables.services.common import TIMED_OUT
from tables.services.forced_bets import (
    bomb_pot_vote_lapse,
    forced_bets_choose,
    forced_bets_spent,
)
from tables.services.play import (
    after_moves,
    reveal_street,
    run_twice_time_out,
    timeout_move,
)

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
    times = rows.tick_times(table_id)
    if times is None:
        return True  # the locked read says "no such table"
    if times.bomb_pot_vote_until is not None and times.bomb_pot_vote_until <= now:
        return True
    if times.in_hand:
        if times.reveal_at is not None:
            return bool(times.reveal_at <= now)
        if times.vote_until is not None:
            return bool(times.vote_until <= now)
        return times.deadline is not None and times.deadline <= now and times.to_act is not None
    return times.next_hand_at is not None and times.next_hand_at <= now and times.closed_at is None


def _table_tick(table_id: int, now: datetime) -> bool:
    ticked = False

    def decide(read: Read) -> Outcome:
        nonlocal ticked
        # A bomb pot vote whose time is up lapses first (silence is no), so a hand dealt
        # now is an ordinary one; then whatever else is due.
        lapsed = bomb_pot_vote_lapse(read.table, list(read.seats.values()), now)
        ticked, outcome = _tick_due(read, now)
        if lapsed:
            ticked = True
            return outcome or CHANGED
        return outcome

    STATE.change(table_id, None, decide)
    return ticked


def _tick_due(read: Read, now: datetime) -> tuple[bool, Outcome]:
    """What is due at ``now`` on the rows read, and whether it was a tick's work."""
    table, hand = read.table, read.hand
    if hand is not None and hand.reveal_at is not None:
        if hand.reveal_at > now:
            return False, None
        return True, reveal_street(read, hand, now)
    if hand is not None and hand.vote_until is not None:
        # The players still in were asked to run it twice: their time to answer is up.
        if hand.vote_until > now:
            return False, None
        return True, run_twice_time_out(read, hand, now)
    if hand is not None:
        if hand.deadline is None or hand.deadline > now or hand.to_act is None:
            return False, None
        return True, _turn_timed_out(read, hand, now)
    if table.next_hand_at is None or table.next_hand_at > now or not table.is_open:
        return False, None
    if table.paused or table.held:
        # The host paused the table, or its tournament holds it: no hand is dealt until
        # they resume or release it.
        table.next_hand_at = None
        return True, CHANGED
    moved = _hand_start(read, now)
    if moved is None:
        # Not enough players any more; the next sit or sit-in schedules a hand again.
        table.next_hand_at = None
        return False, CHANGED
    return True, moved


def _turn_timed_out(read: Read, hand: Hand, now: datetime) -> Moved:
    """The turn's time is up: the time-out rule's move, and the player sits out; a house
    bot decides instead."""
    table = read.table
    engine = read.engine_to_move(hand)
    seat = read.seats[hand.to_act]  # type: ignore[index]
    if seat.is_bot:
        # A house bot never times out: its task was lost or late (a worker restarted,
        # its frame was refused), so it decides now, and it stays in.
        new = _bot_turn(table, engine, seat)
    else:
        new = timeout_move(engine, seat)
        seat.state = SeatState.SITTING_OUT
        seat.sat_out_reason = TIMED_OUT
        if table.turn_bank_ms(seat):
            # The deadline included the player's time bank: it is spent.
            seat.time_bank_ms = 0
        read.save(seat)
    return after_moves(table, hand, engine, new, now, read.seats)


def _bot_turn(table: Table, engine: EngineHand, seat: Seat) -> list[Any]:
    """The house bot's own move at its turn's deadline, decided from its snapshot as
    ``tables.bots.bot_move`` decides it; the time-out rule's move (check if free, else fold)
    only when it has none the engine accepts."""
    try:
        frame = decide(seat.bot_style, STATE.snapshot(table.pk, seat.user))
    except Exception:  # noqa: BLE001 - a bot's bug must not stall the hand: the rule plays
        logger.exception("table %s: the bot at seat %s could not decide", table.pk, seat.number)
        frame = None
    if frame is not None:
        try:
            return engine.act(seat.number, frame.get("action", ""), frame.get("amount"))
        except (RuleError, ValueError, TypeError):
            logger.warning(
                "table %s: the bot at seat %s sent a move the rules refuse: %s",
                table.pk,
                seat.number,
                frame,
            )
    return timeout_move(engine, seat)


def _bots_back(table: Table, seats: list[Seat]) -> None:
    """A house bot is never away: one sitting out with chips (timed out before bots decided
    at their deadline, or moved here while away) is back for the next hand."""
    for seat in seats:
        if seat.is_bot and seat.state == SeatState.SITTING_OUT and seat.stack > 0:
            if seat.leaving or seat.removing:
                continue
            owes = not table.is_tournament and (seat.owes_small or seat.owes_big)
            seat.state = SeatState.WAITING if owes else SeatState.PLAYING
            seat.sat_out_reason = ""
            rows.save(seat, ("state", "sat_out_reason"))


def _banks_refill_per_level(table: Table, seats: list[Seat]) -> None:
    """A tournament table's time banks refill once for each level their players have not
    been refilled for (``Seat.time_bank_level``, which follows a moved player), before the
    first hand of the level: between hands, so no turn is drawing on a bank meanwhile."""
    if not table.is_tournament or not table.time_bank_cap_seconds:
        return
    bank = table.time_bank
    for seat in seats:
        if seat.user_id is None or seat.is_bot or seat.time_bank_level >= table.time_bank_level:
            continue
        levels = table.time_bank_level - seat.time_bank_level
        seat.time_bank_ms = bank.refilled(seat.time_bank_ms, levels)
        seat.time_bank_level = table.time_bank_level
        rows.save(seat, ("time_bank_ms", "time_bank_level"))


def _hand_start(read: Read, now: datetime) -> Moved | None:
    """Ask the engine who is dealt in and who posts what, then shuffle, commit and deal."""
    table = read.table
    seats = list(read.seats.values())
    _bots_back(table, seats)
    _banks_refill_per_level(table, seats)
    config = table.config
    plan = deal_in(
        [s.deal_status for s in seats if s.user_id is not None],
        previous_button=table.button,
        last_big_blind=table.last_big_blind,
        last_small_blind=table.last_small_blind,
        big_blind=config.big_blind,
        small_blind=config.small_blind or 0,
        mode=ButtonMode.TOURNAMENT if table.is_tournament else ButtonMode.CASH,
    )
    if plan is None:
        return None
    deal = deal_new()
    straddle, bomb_pot = forced_bets_choose(table, plan, seats)
    try:
        engine = plan.start_hand(config, deal.deck, straddle=straddle, bomb_pot=bomb_pot)
    except RuleError:
        logger.exception("table %s: the engine refused to start a hand", table.pk)
        return None
    forced_bets_spent(table, seats, bomb_pot=bomb_pot)
    by_number = read.seats
    # The seats the deal changes, written together below (one statement on PostgreSQL).
    dealt_seats: dict[int, Seat] = {}
    # Missed blinds: a seated player sitting out whom the big blind passed owes both.
    for number in plan.owe_missed_blinds:
        s = by_number[number]
        s.owes_small = s.owes_big = True
        dealt_seats[number] = s
    table.hand_count += 1
    table.button = plan.button
    table.last_big_blind = plan.big_blind
    table.last_small_blind = plan.positions.small_blind
    table.next_hand_at = None
    hand = Hand.objects.create(
        table=table,
        number=table.hand_count,
        records=[],
        button=plan.button,
        deck=deal.deck_text,
        secret=deal.secret,
        commitment=deal.commitment,
        started_at=now,
        level=table.stakes_level,
    )
    HandPlayer.objects.bulk_create(
        HandPlayer(
            hand=hand, user_id=by_number[spec.seat].user_id, seat=spec.seat, stack_before=spec.stack
        )
        for spec in plan.seats
    )
    for number in plan.dealt:
        s = by_number[number]
        s.is_new = False
        s.owes_small = s.owes_big = False
        if number not in plan.absent:
            # The engine deals a tournament's absent player in, still sitting out.
            s.state = SeatState.PLAYING
        dealt_seats[number] = s
    for number in plan.waiting:
        s = by_number[number]
        if s.state != SeatState.WAITING:
            s.state = SeatState.WAITING
            dealt_seats[number] = s
    rows.save_many(list(dealt_seats.values()))
    return after_moves(table, hand, engine, list(engine.records), now, by_number)


def tables_due(now: datetime | None = None) -> list[int]:
    """Tables with a time-out or a next hand due: what the periodic sweep ticks."""
    now = now or timezone.now()
    timed_out = Hand.objects.filter(
        Q(deadline__lte=now) | Q(reveal_at__lte=now) | Q(vote_until__lte=now),
        ended_at__isnull=True,
    ).values_list("table_id", flat=True)
    due = Table.objects.filter(
        Q(next_hand_at__lte=now, closed_at__isnull=True)
        | Q(bomb_pot_vote_until__lte=now, closed_at__isnull=True)
        | Q(pk__in=timed_out)
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
