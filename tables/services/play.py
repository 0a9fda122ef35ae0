"""Playing a hand: a player's move, the moves nobody has to wait for, the turn clock, the
all-in run-out dealt street by street, and the end of the hand.

No rule of poker lives here: who acts, what is legal, who wins all come from the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Case, Value, When
from django.utils import timezone

from tables import rows
from tables.engine.errors import RuleError
from tables.engine.records import MOVE_RECORDS, PotAwarded, record_to_json
from tables.engine.state import Action, Street
from tables.engine.state import Hand as EngineHand
from tables.engines import engine_of, engine_to_move
from tables.models import Hand, HandPlayer, LedgerKind, Seat, SeatState, Table, TableLedger
from tables.scheduling import schedule_bot, schedule_tick
from tables.services.common import (
    NO_CHIPS,
    TIMED_OUT,
    Moved,
    TableError,
    apply_adding,
    cash_out,
    changed,
    display_name,
    require_user,
    schedule_next_hand,
    table_close_now,
    table_write,
)
from tables.timing import RUNOUT_STEP_SECONDS, TURN_SECONDS


@dataclass(frozen=True)
class ActResult:
    version: int
    records: int


@table_write
def table_act(
    table_id: int,
    user: Any,
    hand_id: int,
    version: int,
    action: str,
    amount: int | None = None,
    *,
    now: datetime | None = None,
) -> ActResult:
    """Apply one move for ``user``'s seat if ``hand_id``/``version`` are still current.

    The version check makes a double click or a replayed frame a no-op ("stale"); the
    engine decides whose turn it is and what is legal.
    """
    require_user(user)
    now = now or timezone.now()
    # The table row (locked), its seats (locked) and its hand in play, in one round trip.
    table, seat_rows, hand = rows.move_rows(table_id)
    if table is None:
        raise TableError("not_found", f"there is no table {table_id}")
    seats = {s.number: s for s in seat_rows}
    seat = next((s for s in seats.values() if s.user_id == user.pk), None)
    if seat is None:
        raise TableError("not_seated", "you have no seat at this table")
    if hand is None or hand.pk != hand_id or table.version != version:
        raise TableError(
            "stale", f"that was for version {version}; the table is at version {table.version}"
        )
    engine = engine_to_move(hand)
    if engine.to_act != seat.number:
        raise TableError("not_your_turn", "it is not your turn")
    try:
        new = engine.act(seat.number, action, amount)
    except RuleError as exc:
        raise TableError("illegal_action", str(exc)) from None
    if seat.state == SeatState.SITTING_OUT and seat.sat_out_reason == TIMED_OUT:
        # Acting again shows the player is back: they play the next hand too.
        seat.state = SeatState.PLAYING
        seat.sat_out_reason = ""
        rows.save(seat, ("state", "sat_out_reason"))
    changed(table, after_moves(table, hand, engine, new, now, seats))
    return ActResult(table.version, len(hand.records))


def timeout_move(table: Table, engine: EngineHand, seat: Seat) -> list[Any]:
    """RULES.md: on time-out check if checking is free, else fold (or the house all-in)."""
    if table.all_in_on_disconnect and not seat.connected:
        try:
            return engine.declare_all_in(seat.number)
        except RuleError:
            pass
    legal = engine.legal_actions()
    if legal.seat is not None and engine.street == Street.SHOWDOWN:
        return engine.act(seat.number, Action.MUCK)
    if Action.CHECK in legal.actions:
        return engine.act(seat.number, Action.CHECK)
    return engine.act(seat.number, Action.FOLD)


def seats_locked(table: Table) -> dict[int, Seat]:
    """The table's seats by number, with their players, locked with the table."""
    return {s.number: s for s in rows.seats_locked(table.pk)}


def after_moves(
    table: Table,
    hand: Hand,
    engine: EngineHand,
    new: list[Any],
    now: datetime,
    seats: dict[int, Seat] | None = None,
) -> Moved:
    """Store the new records, make the moves nobody has to wait for, and set the clock.

    ``seats`` (from ``seats_locked``, saved since any change) saves reading them again.
    """
    new = list(new)
    if seats is None:
        seats = seats_locked(table)
    while not engine.is_complete and engine.to_act is not None:
        seat = seats[engine.to_act]
        if engine.street == Street.SHOWDOWN:
            # Cards speak: a hand that could win something is shown; one that cannot is
            # mucked or shown as its player chose beforehand (Seat.muck_losing), so a
            # showdown never waits on anybody (the engine says which hands could win).
            show = engine.showing_could_win(seat.number) or not seat.muck_losing
            new += engine.act(seat.number, Action.SHOW if show else Action.MUCK)
        elif seat.leaving or (
            seat.state == SeatState.SITTING_OUT and seat.sat_out_reason == TIMED_OUT
        ):
            new += timeout_move(table, engine, seat)
        else:
            break
    added = [record_to_json(r) for r in new]
    hand.records = hand.records + added
    if engine.is_complete and engine.runout_from is not None and hand.board_shown is None:
        # The engine has run the board out; the table deals it street by street (ticks
        # move it on), and the chips move when the river is out.
        hand.board_shown = engine.runout_from
        _next_reveal(table, hand, now)
    elif engine.is_complete:
        _hand_finish(table, hand, engine, seats, now)
    else:
        if hand.to_act != engine.to_act or any(_is_move(r) for r in new):
            hand.to_act = engine.to_act
            hand.turn_started_at = now
            hand.deadline = now + timedelta(seconds=TURN_SECONDS)
            hand.turn_extended = False
            # No timer task per turn: the sweep (every second) applies a passed deadline, so
            # a move costs no scheduling and a restart forgets nothing.
            actor = seats.get(engine.to_act) if engine.to_act is not None else None
            if actor is not None and actor.is_bot:
                schedule_bot(table.pk)
    return Moved(hand, engine, seats, tuple(added))


def _next_reveal(table: Table, hand: Hand, now: datetime) -> None:
    hand.to_act = None
    hand.deadline = None
    hand.turn_started_at = None
    hand.reveal_at = now + timedelta(seconds=RUNOUT_STEP_SECONDS)
    schedule_tick(table.pk, RUNOUT_STEP_SECONDS)


def reveal_street(table: Table, hand: Hand, now: datetime) -> Moved:
    """Deal the next street of a run-out to the table; with the river, settle the hand."""
    engine = engine_of(hand)
    seats = seats_locked(table)
    shown = hand.board_shown or 0
    hand.board_shown = 3 if shown < 3 else shown + 1
    if hand.board_shown >= len(engine.board):
        hand.reveal_at = None
        _hand_finish(table, hand, engine, seats, now)
    else:
        _next_reveal(table, hand, now)
    return Moved(hand, engine, seats)


def _is_move(record: Any) -> bool:
    # A player's own move (not the dealer's records) restarts the turn clock.
    return isinstance(record, MOVE_RECORDS)


def _hand_finish(
    table: Table, hand: Hand, engine: EngineHand, seats: dict[int, Seat], now: datetime
) -> None:
    final = engine.final_stacks or {}
    hand.ended_at = now
    hand.to_act = None
    hand.deadline = None
    hand.turn_started_at = None
    names = {n: display_name(s) for n, s in seats.items()}
    hand.summary = hand_summary(engine.records, names)[:300]
    # Every player's finishing stack in one UPDATE, not one round trip per player.
    if final:
        HandPlayer.objects.filter(hand=hand.pk, seat__in=list(final)).update(
            stack_after=Case(*(When(seat=n, then=Value(s)) for n, s in final.items()))
        )
    for number, stack in final.items():
        seat = seats[number]
        seat.stack = stack
        # Chips bought during the hand play from the next one (docs/protocol.md, rebuy).
        apply_adding(table, seat)
        if seat.leaving or seat.removing:
            cash_out(table, seat)
            continue
        if seat.stack <= 0 and seat.is_bot:
            # A house bot buys in again, so a demo table plays on for ever instead of
            # stalling with one bot holding every chip.
            TableLedger.objects.create(
                table=table,
                user_id=seat.user_id,
                seat=number,
                kind=LedgerKind.BUY_IN,
                amount=table.max_buy_in,
            )
            seat.stack = table.max_buy_in
        elif seat.stack <= 0:
            seat.state = SeatState.SITTING_OUT
            seat.sat_out_reason = NO_CHIPS
        rows.save(seat)
    if table.closing:
        # The host closed the table during this hand: everyone is cashed out now.
        table_close_now(table, [s for s in seats.values() if s.user_id is not None], now)
        return
    schedule_next_hand(table, now)


def hand_summary(records: Any, names: dict[int, str]) -> str:
    """ "ann wins 24 with a flush": who won what, from the PotAwarded records."""
    won: dict[tuple[int, str], int] = {}
    texts: dict[tuple[int, str], str] = {}
    for r in records:
        if isinstance(r, PotAwarded):
            key = (r.seat, str(r.half))
            won[key] = won.get(key, 0) + r.amount
            texts[key] = r.hand
    parts = []
    for (seat, half), amount in won.items():
        text = f"{names.get(seat, f'seat {seat}')} wins {amount}"
        if half != "whole":
            text += f" ({half})"
        if texts[(seat, half)]:
            text += f" with {texts[(seat, half)]}"
        parts.append(text)
    return "; ".join(parts) or "no award"
