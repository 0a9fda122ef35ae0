"""A house bot's turn made at once: its move decided from its snapshot, and applied.

In play a bot moves through the frame protocol after its thinking time
(``tables.bots.bot_move``, run by a Celery task), as a person's socket would. A harness
that plays a whole tournament in one process as fast as the machine allows
(``tournaments.services.simulate``) asks here instead: the same decision and the same
service call, without the flood limit of a person's sockets (``tables.throttle``), which a
bot moving every few milliseconds would run into.
"""

from __future__ import annotations

from typing import Any

from tables.botbrain import decide
from tables.errors import TableError
from tables.models import Hand, Seat
from tables.runtime.state import table_snapshot
from tables.services.play import run_twice_vote, table_act


def bot_to_act(table_id: int) -> tuple[Any, dict[str, Any]] | None:
    """The house bot to act at this table and the frame it sends now (its move, or its
    answer when asked to run the board twice), or None: no hand, no bot to act, or nothing
    for it to say."""
    hand = Hand.objects.filter(table_id=table_id, ended_at__isnull=True).order_by("-number").first()
    if hand is None or hand.to_act is None:
        return None
    seat = (
        Seat.objects.filter(table_id=table_id, number=hand.to_act)
        .exclude(bot_style="")
        .select_related("user")
        .first()
    )
    if seat is None or seat.user is None:
        return None
    frame = decide(seat.bot_style, table_snapshot(table_id, seat.user))
    return None if frame is None else (seat.user, frame)


def bot_act(table_id: int) -> bool:
    """If a house bot is to act at this table, make its move now. False when none is, or
    when the table refused the move (something changed since its snapshot)."""
    found = bot_to_act(table_id)
    if found is None:
        return False
    user, frame = found
    try:
        if frame["type"] == "run_twice":
            run_twice_vote(table_id, user, frame["hand"], frame["agree"])
        else:
            table_act(
                table_id,
                user,
                frame["hand"],
                frame["version"],
                frame["action"],
                frame.get("amount"),
            )
    except TableError:
        return False
    return True
