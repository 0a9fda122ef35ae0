"""House bots in the server: a bot to act plays its turn through the frame protocol.

``bot_move`` asks ``services.bot_to_act`` for the bot's frame (decided by
``tables.botbrain.decide`` from its snapshot) and passes it to ``protocol.handle_frame``,
the function every socket's frames go through; a Celery task runs it after the bot's
thinking time, and the periodic sweep re-runs it if that task was lost. Should the turn's
deadline pass all the same, the tick lets the bot decide there and then
(``services.dealing``): a house bot never times out, and is never left sitting out.
"""

from __future__ import annotations

from tables import services
from tables.botbrain import STYLES, decide, strength
from tables.protocol import handle_frame

__all__ = ["STYLES", "bot_move", "decide", "strength"]


def bot_move(table_id: int) -> bool:
    """If a house bot is to act at this table, let it act through ``handle_frame``."""
    found = services.bot_to_act(table_id)
    if found is None:
        return False
    user, frame = found
    return not handle_frame(table_id, user, frame)
