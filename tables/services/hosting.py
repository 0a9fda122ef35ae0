"""The host's controls: pause after this hand and resume, close the table, remove a player
or a bot after the hand.

The host is the table's creator; directors may host every table (``common.may_host``).
Nothing here cuts a hand short: a pause stops the next deal, a close or a removal waits for
the hand in play to end (``play._hand_finish`` does it then), and every chip that leaves the
table is a cash-out in its ledger.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tables.alerts import REMOVED, alert_add
from tables.errors import TableError
from tables.models import Seat, Table
from tables.runtime.state import CHANGED, STATE, Outcome, Read
from tables.services.common import (
    cash_out,
    hosted,
    maybe_schedule_hand,
    table_close_now,
)


def table_pause(table_id: int, user: Any) -> Table:
    """No new hand is dealt until the host resumes; the hand in play plays on."""

    def decide(read: Read) -> Outcome:
        table = hosted(read, user)
        if table.paused:
            return None
        table.paused = True
        if read.hand is None:
            table.next_hand_at = None
        return CHANGED

    return STATE.change(table_id, None, decide)[0].table


def table_resume(table_id: int, user: Any, *, now: datetime | None = None) -> Table:
    at = now or timezone.now()

    def decide(read: Read) -> Outcome:
        table = hosted(read, user)
        if not table.paused:
            return None
        table.paused = False
        maybe_schedule_hand(read, at)
        return CHANGED

    return STATE.change(table_id, None, decide)[0].table


def table_close(table_id: int, user: Any, *, now: datetime | None = None) -> Table:
    """Close the table: everyone is cashed out now, or when the hand in play ends."""
    at = now or timezone.now()

    def decide(read: Read) -> Outcome:
        table = hosted(read, user)
        if read.hand is None:
            table_close_now(table, list(read.seats.values()), at)
        else:
            table.closing = True
        return CHANGED

    return STATE.change(table_id, None, decide)[0].table


def seat_remove(table_id: int, user: Any, seat_number: int) -> Seat:
    """Remove a player or a house bot: cashed out now, or when the hand they are in ends."""

    def decide(read: Read) -> Outcome:
        table = hosted(read, user)
        seat = read.seats.get(seat_number)
        if seat is None or seat.user_id is None:
            raise TableError("not_seated", _("seat %(n)d is empty"), {"n": seat_number})
        if read.hand is not None and seat.number in read.engine_to_move(read.hand).seats:
            # Told when the hand ends and the seat goes (play._hand_finish); meanwhile the
            # snapshot says so (``seats[].removing``).
            seat.removing = True
            read.save(seat, ("removing",))
        else:
            if not seat.is_bot:
                alert_add(table.pk, seat.user_id, REMOVED, {"chips": seat.stack})  # type: ignore[arg-type]
            cash_out(table, seat)
        return CHANGED

    return STATE.change(table_id, None, decide)[0].seats[seat_number]
