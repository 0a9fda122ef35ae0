"""The table's chat: a line is stored, broadcast to the table after commit, and the snapshot
(for sockets that join later) carries the last lines.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tables.errors import TableError
from tables.models import ChatMessage
from tables.runtime import broadcast
from tables.runtime.state import CHANGED, STATE, Outcome, Read
from tables.services.common import require_user

CHAT_MAX_LENGTH = 300


def chat_post(table_id: int, user: Any, text: str) -> dict[str, Any]:
    require_user(user)
    text = text.strip()[:CHAT_MAX_LENGTH]
    if not text:
        raise TableError("malformed", _("say something"))
    frame: dict[str, Any] = {"type": "chat", "name": user.get_username(), "text": text}

    def decide(read: Read) -> Outcome:
        message = ChatMessage.objects.create(table_id=read.table.pk, user=user, text=text)
        frame["at"] = int(message.created_at.timestamp() * 1000)
        transaction.on_commit(lambda: broadcast.table_chat(table_id, frame))
        # The snapshot carries the last lines too, for sockets that join later.
        return CHANGED

    STATE.change(table_id, None, decide)
    return frame
