"""House bots in the server: a bot to act plays its turn through the frame protocol.

``bot_move`` builds the bot's snapshot with ``table_state.table_snapshot``, decides with
``tables.botbrain.decide`` and passes the frame to ``protocol.handle_frame``, the function
every socket's frames go through; a Celery task runs it after the bot's thinking time, and
the periodic sweep re-runs it if that task was lost. Should the turn's deadline pass all the
same, the tick lets the bot decide there and then (``services.dealing``): a house bot never
times out, and is never left sitting out.
"""

from __future__ import annotations

from tables.botbrain import STYLES, BotClient, decide, strength
from tables.models import Hand, Seat
from tables.protocol import handle_frame
from tables.table_state import table_snapshot

__all__ = ["STYLES", "BotClient", "bot_move", "decide", "strength"]


def bot_move(table_id: int) -> bool:
    """If a house bot is to act at this table, let it act through ``handle_frame``."""
    hand = Hand.objects.filter(table_id=table_id, ended_at__isnull=True).order_by("-number").first()
    if hand is None or hand.to_act is None:
        return False
    seat = (
        Seat.objects.filter(table_id=table_id, number=hand.to_act)
        .exclude(bot_style="")
        .select_related("user")
        .first()
    )
    if seat is None or seat.user is None:
        return False
    snapshot = table_snapshot(table_id, seat.user)
    frame = decide(seat.bot_style, snapshot)
    if frame is None:
        return False
    return not handle_frame(table_id, seat.user, frame)
