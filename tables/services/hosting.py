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
from tables.runtime import rows
from tables.runtime.state import STATE
from tables.services.common import (
    cash_only,
    cash_out,
    changed,
    current_hand,
    lock,
    maybe_schedule_hand,
    require_host,
    table_close_now,
    table_write,
)
from tables.services.play import seats_locked


def _open_table(table_id: int, user: Any) -> Table:
    table = lock(table_id)
    cash_only(table)
    require_host(table, user)
    if not table.is_open:
        raise TableError("closed", _("this table is closed"))
    return table


@table_write
def table_pause(table_id: int, user: Any) -> Table:
    """No new hand is dealt until the host resumes; the hand in play plays on."""
    table = _open_table(table_id, user)
    if not table.paused:
        table.paused = True
        if current_hand(table) is None:
            table.next_hand_at = None
        changed(table)
    return table


@table_write
def table_resume(table_id: int, user: Any, *, now: datetime | None = None) -> Table:
    now = now or timezone.now()
    table = _open_table(table_id, user)
    if table.paused:
        table.paused = False
        maybe_schedule_hand(table, now)
        changed(table)
    return table


@table_write
def table_close(table_id: int, user: Any, *, now: datetime | None = None) -> Table:
    """Close the table: everyone is cashed out now, or when the hand in play ends."""
    now = now or timezone.now()
    table = _open_table(table_id, user)
    if current_hand(table) is None:
        table_close_now(table, list(seats_locked(table).values()), now)
    else:
        table.closing = True
    changed(table)
    return table


@table_write
def seat_remove(table_id: int, user: Any, seat_number: int) -> Seat:
    """Remove a player or a house bot: cashed out now, or when the hand they are in ends."""
    table = _open_table(table_id, user)
    seat = table.seats.select_for_update().filter(number=seat_number).first()
    if seat is None or seat.user_id is None:
        raise TableError("not_seated", _("seat %(n)d is empty"), {"n": seat_number})
    hand = current_hand(table)
    if hand is not None and seat.number in STATE.engine_to_move(hand).seats:
        # Told when the hand ends and the seat goes (play._hand_finish); meanwhile the
        # snapshot says so (``seats[].removing``).
        seat.removing = True
        rows.save(seat, ("removing",))
    else:
        if not seat.is_bot:
            alert_add(table.pk, seat.user_id, REMOVED, {"chips": seat.stack})  # type: ignore[arg-type]
        cash_out(table, seat)
    changed(table)
    return seat
