"""What a table's socket needs from the database when it opens, read in one call.

A socket that opens asks five things: may its reader watch this table, count it as its
player's connection, the table as its reader sees it, where its player sits now if not
here, and what was told to the player while no page of theirs was open. Asked one by one,
each was a hop to a database thread and back to the event loop; in a storm of sockets
opening at once (a tournament's start, the reconnect wave after a restart) those hops
queued behind each other and behind the moves, and every hop back woke the loop that
answers the next handshakes. One call makes one hop.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tables.alerts import alerts_take
from tables.models import Table
from tables.runtime.state import STATE
from tables.selectors import may_watch
from tables.services.seats import seat_connection
from tables.services.tournament import seat_elsewhere


@dataclass(frozen=True)
class SocketOpened:
    """The answer to ``socket_open``; ``created_at`` is None when there is no such table."""

    created_at: datetime | None
    watchable: bool = False
    counted: bool = False
    version: int = 0
    text: str = ""
    elsewhere: tuple[int, int] | None = None
    alerts: list[dict[str, Any]] = field(default_factory=list)


def socket_open(table_id: int, user: Any, session: Any) -> SocketOpened:
    """Open a socket on table ``table_id`` for ``user`` (anonymous: a spectator).

    A table its reader may not watch (a private one, without the invite in ``session``)
    answers ``watchable=False`` and counts nothing. Otherwise a logged-in reader's socket
    counts as their connection (``seat_connection``, nothing when they have no seat here),
    before the snapshot is read, so the snapshot already shows them connected.
    """
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return SocketOpened(created_at=None)
    if not may_watch(table, user, session):
        return SocketOpened(created_at=table.created_at)
    player = user is not None and user.is_authenticated
    if player:
        seat_connection(table_id, user, 1)
    version, text = STATE.snapshot_text(table_id, user)
    return SocketOpened(
        created_at=table.created_at,
        watchable=True,
        counted=player,
        version=version,
        text=text,
        elsewhere=seat_elsewhere(table_id, user) if player else None,
        alerts=alerts_take(table_id, user.pk) if player else [],
    )
