"""What every table service shares: the transaction, the lock, the broadcast.

Every change but a player's simple move runs in one transaction with the table row locked
(``select_for_update``), so two daphne processes, a Celery worker and the periodic sweep can
all touch one table and changes are applied one at a time in a single order; a simple move
is one write conditional on the version it read (``play.table_act``). The database holds
the truth: a hand is its list of engine records, the turn clock is stored on the hand row.
Every change is written and published through the table state (``tables.runtime.state``,
``changed``): after commit the new state is filed and a thin ``table.changed`` message goes
to the table's group.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, ParamSpec, TypeVar

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_lazy as _

from core.permissions import is_director
from tables.engine.deal_in import rebuy_amount
from tables.engine.errors import RuleError
from tables.engine.state import Hand as EngineHand
from tables.errors import TableError
from tables.i18n import render, rule_message
from tables.models import Hand, LedgerKind, Seat, SeatState, Table, TableLedger
from tables.runtime import rows
from tables.runtime.state import STATE, Moved
from tables.scheduling import schedule_tick
from tables.timing import next_hand_delay_seconds

TIMED_OUT = "timed out"
NO_CHIPS = "no chips"

P = ParamSpec("P")
R = TypeVar("R")


def table_write(func: Callable[P, R]) -> Callable[P, R]:
    """``transaction.atomic`` for the table services, one writer at a time on SQLite."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with rows.writing():
            return func(*args, **kwargs)

    return wrapper


def rule_words(exc: RuleError) -> str:
    """The engine's refusal ``exc`` in the active language, worded by its rule code
    (``tables.i18n``): for a setting the engine checks outside any table (a time bank)."""
    message, params = rule_message(exc)
    return render(message, params)


def lock(table_id: int) -> Table:
    # The table row, its seats and its hand in play are read and written with the lean SQL
    # of tables.runtime.rows: every move goes through them (see that module for why).
    table = rows.table_locked(table_id)
    if table is None:
        raise TableError("not_found", _("there is no table %(table)s"), {"table": table_id})
    return table


def cash_only(table: Table) -> None:
    """Buy-ins, cash-outs and the host's controls are a cash table's: a tournament runs its
    own tables (``tables.services.tournament``)."""
    if table.is_tournament:
        raise TableError("tournament", _("this table belongs to a tournament"))


def current_hand(table: Table) -> Hand | None:
    return rows.current_hand(table.pk)


def seat_in_hand(table: Table, seat: Seat) -> tuple[Hand | None, EngineHand | None]:
    """The hand in play at ``table`` and, when ``seat`` was dealt into it, its engine: chips
    in that hand cannot change until it ends. The hand and None when the seat is not in it
    (no chips when it was dealt, or seated since); (None, None) between hands."""
    hand = current_hand(table)
    if hand is None:
        return None, None
    engine = STATE.engine_to_move(hand)
    if seat.number not in engine.seats:
        return hand, None
    return hand, engine


def changed(
    table: Table,
    moved: Moved | None = None,
    *,
    table_columns: tuple[str, ...] | None = None,
    gathered: bool = False,
) -> None:
    """Write the change and publish it once the transaction has committed: the table state's
    ``commit`` (``Stale``, a ``TableError``, if the table moved on since it was read)."""
    STATE.commit(table, moved, table_columns=table_columns, gathered=gathered)


def seat_of(table: Table, user: AbstractBaseUser) -> Seat:
    seat = table.seats.select_for_update().filter(user=user).first()
    if seat is None:
        raise TableError("not_seated", _("you have no seat at this table"))
    return seat


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


def maybe_schedule_hand(table: Table, now: datetime) -> None:
    if table.next_hand_at is not None or current_hand(table) is not None:
        return
    if table.paused or table.closing or not table.is_open:
        return
    ready = table.seats.filter(
        user__isnull=False, stack__gt=0, state__in=[SeatState.PLAYING, SeatState.WAITING]
    ).count()
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
