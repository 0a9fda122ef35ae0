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
from tables.services.common import (
    changed,
    lock,
    require_user,
    table_write,
)

CHAT_MAX_LENGTH = 300


@table_write
def chat_post(table_id: int, user: Any, text: str) -> dict[str, Any]:
    require_user(user)
    text = text.strip()[:CHAT_MAX_LENGTH]
    if not text:
        raise TableError("malformed", _("say something"))
    table = lock(table_id)
    message = ChatMessage.objects.create(table_id=table_id, user=user, text=text)
    frame = {
        "type": "chat",
        "name": user.get_username(),
        "text": text,
        "at": int(message.created_at.timestamp() * 1000),
    }
    transaction.on_commit(lambda: broadcast.table_chat(table_id, frame))
    # The snapshot carries the last lines too, for sockets that join later.
    changed(table)
    return frame
