"""What every table service shares: the rows a change reads, the checks, the cash-outs.

Every change to a table goes through the table state's one face,
``STATE.change(table_id, version, decide)`` (``tables.runtime.state``): a service's
``decide`` gets the rows (``Read``: the table, its seats by number with their players, the
hand in play) and says what it changed: a hand's move (``Moved``), another change
(``CHANGED``, its rows saved with ``read.save``) or nothing (None). The runtime reads, locks,
writes and publishes: a player's simple move is one write conditional on the version it
read, every other change runs in one transaction with the table row locked, so two daphne
processes, a Celery worker and the periodic sweep can all touch one table and changes are
applied one at a time in a single order. The database holds the truth: a hand is its list of
engine records, the turn clock is stored on the hand row.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_lazy as _

from core.permissions import is_director
from tables.engine.deal_in import rebuy_amount
from tables.engine.errors import RuleError
from tables.engine.state import Hand as EngineHand
from tables.errors import TableError
from tables.i18n import render, rule_message
from tables.models import LedgerKind, Seat, SeatState, Table, TableLedger
from tables.runtime import rows
from tables.runtime.state import Read
from tables.scheduling import schedule_tick
from tables.timing import next_hand_delay_seconds

TIMED_OUT = "timed out"
NO_CHIPS = "no chips"


def rule_words(exc: RuleError) -> str:
    """The engine's refusal ``exc`` in the active language, worded by its rule code
    (``tables.i18n``): for a setting the engine checks outside any table (a time bank)."""
    message, params = rule_message(exc)
    return render(message, params)


def cash_only(table: Table) -> None:
    """Buy-ins, cash-outs and the host's controls are a cash table's: a tournament runs its
    own tables (``tables.services.tournament``)."""
    if table.is_tournament:
        raise TableError("tournament", _("this table belongs to a tournament"))


def seat_in_hand(read: Read, seat: Seat) -> EngineHand | None:
    """When ``seat`` was dealt into the hand in play, its engine (a private copy): chips in
    that hand cannot change until it ends. None when the seat is not in it (no chips when it
    was dealt, or seated since), or between hands."""
    if read.hand is None:
        return None
    engine = read.engine_to_move(read.hand)
    return engine if seat.number in engine.seats else None


def seat_of(read: Read, user: AbstractBaseUser) -> Seat:
    """``user``'s seat among the rows read."""
    for seat in read.seats.values():
        if seat.user_id == user.pk:
            return seat
    raise TableError("not_seated", _("you have no seat at this table"))


def hosted(read: Read, user: Any) -> Table:
    """The table read, for its host's controls: a cash table (``cash_only``), ``user`` its
    host or a director (``require_host``), not closed."""
    table = read.table
    cash_only(table)
    require_host(table, user)
    if not table.is_open:
        raise TableError("closed", _("this table is closed"))
    return table


def require_open(table: Table) -> None:
    """Refused (``closed``) once the table is closed or closing: no new seat, no chips."""
    if not table.is_open or table.closing:
        raise TableError("closed", _("this table is closed"))


def require_user(user: Any) -> None:
    if user is None or not user.is_authenticated:
        raise TableError("auth_required", _("log in to sit or act at a table"))


def schedule_next_hand(table: Table, now: datetime) -> None:
    schedule_tick(table.pk, next_hand_time(table, now))


def next_hand_time(table: Table, now: datetime) -> float:
    """Set when the table deals its next hand; the delay, in seconds, for its tick."""
    delay = next_hand_delay_seconds()
    table.next_hand_at = now + timedelta(seconds=delay)
    return delay


def maybe_schedule_hand(read: Read, now: datetime) -> None:
    """Set the next hand's time when none is set and two players are ready for it."""
    table = read.table
    if table.next_hand_at is not None or read.hand is not None:
        return
    if table.paused or table.closing or not table.is_open:
        return
    ready = sum(
        1
        for s in read.seats.values()
        if s.user_id is not None
        and s.stack > 0
        and s.state in (SeatState.PLAYING, SeatState.WAITING)
    )
    if ready >= 2:
        schedule_next_hand(table, now)


def cash_out(table: Table, seat: Seat) -> None:
    if seat.user_id is not None and seat.stack > 0:
        TableLedger.objects.create(
            table=table,
            user_id=seat.user_id,
            seat=seat.number,
            kind=LedgerKind.CASH_OUT,
            amount=seat.stack,
        )
    seat_clear(seat)


def seat_clear(seat: Seat) -> None:
    """Empty ``seat`` and write it: no player, no chips, every flag back to its default."""
    seat.user = None
    seat.bot_style = ""
    seat.stack = 0
    seat.state = SeatState.EMPTY
    seat.sat_out_reason = ""
    seat.is_new = False
    seat.owes_small = seat.owes_big = seat.leaving = False
    seat.muck_losing = True
    seat.adding = 0
    seat.removing = False
    seat.straddle_next = seat.votes_bomb_pot = False
    seat.sockets = {}
    seat.time_bank_ms = seat.time_bank_level = 0
    seat.pre_action_clear()
    rows.save(seat)


def may_host(table: Table, user: Any) -> bool:
    """The table's host is its creator; directors may host every table."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return bool(table.created_by_id == user.pk or is_director(user))


def require_host(table: Table, user: Any) -> None:
    require_user(user)
    if not may_host(table, user):
        raise TableError("forbidden", _("only the table's host or a director may do that"))


def apply_adding(table: Table, seat: Seat) -> None:
    """Put the chips a player bought during a hand on their stack, in the ledger."""
    if seat.adding <= 0 or seat.user_id is None:
        return
    if table.is_tournament:
        # Tournament chips (a rebuy, an add-on) have no ledger and no table maximum.
        seat.stack += seat.adding
        seat.adding = 0
        return
    # Winnings during the hand may have brought the stack near the maximum: the engine
    # says how much of the rebuy still fits.
    amount = rebuy_amount(seat.adding, seat.stack, table.max_buy_in)
    seat.adding = 0
    if amount == 0:
        return
    TableLedger.objects.create(
        table=table, user_id=seat.user_id, seat=seat.number, kind=LedgerKind.REBUY, amount=amount
    )
    seat.stack += amount
    if seat.state == SeatState.SITTING_OUT and seat.sat_out_reason == NO_CHIPS:
        owes = seat.owes_small or seat.owes_big
        seat.state = SeatState.WAITING if owes else SeatState.PLAYING
        seat.sat_out_reason = ""
        if owes:
            # Back with missed blinds: nothing is posted unless the player asks (the page
            # offers "Post and play", a ``sit_in`` frame); until then the big blind brings
            # them in, whatever they chose when they first sat down.
            seat.wait_for_big_blind = True


def table_close_now(table: Table, seats: list[Seat], now: datetime) -> None:
    """Cash out every seat and close the table (no hand may be in play)."""
    for seat in seats:
        if seat.user_id is not None:
            apply_adding(table, seat)
            cash_out(table, seat)
    table.closed_at = now
    table.closing = False
    table.next_hand_at = None


def display_name(seat: Seat) -> str:
    """The name the felt shows: a house bot's given name ("Rivera"), else the username."""
    if seat.user is None:
        return f"seat {seat.number}"
    if seat.is_bot and seat.user.first_name:
        return seat.user.first_name
    return seat.user.get_username()
