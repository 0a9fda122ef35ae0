"""The embedded mode's channel layer: Channels' in-memory layer, with its expiry sweep paced.

``InMemoryChannelLayer`` walks every channel and every group membership on each ``receive``
and ``group_send`` to drop expired messages. With one socket per channel that walk is
O(sockets) per message, so O(sockets^2) per second at a busy site: at 600 table sockets it
was a tenth of the process. Expiry is a safety net (messages live 60 seconds, group
memberships a day); sweeping at most once a second keeps it, at a constant cost.
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer

SWEEP_EVERY_SECONDS = 1.0


class PacedInMemoryChannelLayer(InMemoryChannelLayer):
    _swept_at = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept_at < SWEEP_EVERY_SECONDS:
            return
        self._swept_at = now
        super()._clean_expired()
