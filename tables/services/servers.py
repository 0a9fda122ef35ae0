"""The processes serving sockets: each says it is alive, and the sockets counted by one that
stopped saying so (killed outright: SIGKILL, a crash, a lost machine) are forgotten, so the
disconnection rules apply to its players again.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.utils import timezone

from tables.models import Seat, ServerProcess
from tables.runtime.state import CHANGED, STATE, Outcome, Read
from tables.timing import SERVER_GONE_SECONDS

# This process, as the seats' socket counts name it.
SERVER_NAME = uuid.uuid4().hex


def server_heartbeat(server: str | None = None, now: datetime | None = None) -> None:
    """Say that this process (or ``server``) is alive and serving sockets."""
    ServerProcess.objects.update_or_create(
        name=server or SERVER_NAME, defaults={"seen_at": now or timezone.now()}
    )


def servers_forget_gone(now: datetime | None = None, *, all_but: str | None = None) -> int:
    """Forget the sockets counted by processes that stopped saying they are alive.

    A process killed outright (SIGKILL, a crash, a lost machine) never closes its sockets,
    so its players would look connected for ever, and the disconnection rules would never
    apply to them. ``all_but``: forget every other process at once (the embedded server
    starting: it is the only one). Returns how many seats changed.
    """
    now = now or timezone.now()
    gone = ServerProcess.objects.all()
    if all_but is not None:
        gone = gone.exclude(name=all_but)
    else:
        gone = gone.filter(seen_at__lt=now - timedelta(seconds=SERVER_GONE_SECONDS))
    names = set(gone.values_list("name", flat=True))
    if all_but is not None:
        # Counts under names no heartbeat ever recorded (a process killed before its first).
        names |= {
            name
            for sockets in Seat.objects.exclude(sockets={}).values_list("sockets", flat=True)
            for name in sockets
            if name != all_but
        }
    count = 0
    for name in sorted(names):
        tables = set(Seat.objects.filter(sockets__has_key=name).values_list("table_id", flat=True))
        for table_id in sorted(tables):
            count += _forget_server_at(table_id, name)
        ServerProcess.objects.filter(name=name).delete()
    return count


def _forget_server_at(table_id: int, name: str) -> int:
    forgotten = 0

    def decide(read: Read) -> Outcome:
        nonlocal forgotten
        for seat in read.seats.values():
            if name in seat.sockets:
                seat.sockets = {k: n for k, n in seat.sockets.items() if k != name}
                read.save(seat, ("sockets",))
                forgotten += not seat.sockets
        return CHANGED if forgotten else None

    STATE.change(table_id, None, decide)
    return forgotten
