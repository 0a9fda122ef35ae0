"""Words for one player alone: why their seat went, that the host refused their request, or
that the move they chose before their turn was dropped.

A snapshot is the same for every viewer of a version (docs/protocol.md), so what only one
player should read travels apart, as an ``alert`` frame on that player's own sockets:

- a service files the alert with ``alert_add`` inside its transaction; once it commits,
  the alert is kept for that player and table in the site's cache (Redis in distributed
  mode, so every process finds it) and announced to the table's group, where only that
  player's sockets pass it on (``TableConsumer.table_alert``): the pages they have open
  say it at once;
- a socket that opens takes the player's alerts still kept (``alerts_take``) and sends
  them after its first snapshot: a player who had no page open reads it on their next
  visit. Shown once: a page that showed an alert forgets it.

An alert is a code and numbers, worded by the socket that sends it in its reader's language
(``alert_frame``), never in the language of the host who caused it.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tables.i18n import render
from tables.runtime import broadcast

REMOVED = "removed"
REQUEST_REFUSED = "request_refused"

# What an alert says, by its code; a removal with chips also says where they went.
_MESSAGES = {
    REMOVED: _("The host removed you from this table."),
    REQUEST_REFUSED: _("The host refused your request for seat %(seat)d."),
}
_REMOVED_WITH_CHIPS = _(
    "The host removed you from this table. Your %(chips)d chips were cashed out."
)
# A pre-action dropped because the amount to call changed (docs/rules.md, Home-game options),
# by its kind; ``bet`` is the bet to match now.
PRE_ACTION_CLEARED = "pre_action_cleared"
_PRE_ACTION_CLEARED = {
    "call": _("Your call %(amount)d was cleared: the bet is now %(bet)d."),
    "check": _("Your check was cleared: the bet is now %(bet)d."),
    "fold": _("Your fold was cleared: the bet is now %(bet)d."),
}

# An alert nobody came back to read is forgotten after a week; a player keeps the last few.
KEEP_SECONDS = 7 * 24 * 3600
KEEP_AT_MOST = 10


def _key(table_id: int, user_id: int) -> str:
    return f"tables:alerts:{table_id}:{user_id}"


def alert_add(table_id: int, user_id: int, code: str, params: dict[str, Any] | None = None) -> None:
    """Tell the player ``user_id`` at this table something, once the transaction commits
    (nothing if it rolls back)."""
    alert = {"id": secrets.token_hex(8), "code": code, "params": dict(params or {})}
    transaction.on_commit(lambda: _keep_and_send(table_id, user_id, alert))


def _keep_and_send(table_id: int, user_id: int, alert: dict[str, Any]) -> None:
    key = _key(table_id, user_id)
    kept = cache.get(key) or []
    cache.set(key, [*kept, alert][-KEEP_AT_MOST:], KEEP_SECONDS)
    broadcast.table_alert(table_id, user_id, alert)


def alerts_take(table_id: int, user_id: int, ids: list[str] | None = None) -> list[dict[str, Any]]:
    """The player's alerts at this table not shown yet (only those of ``ids``, if given),
    forgotten now: a page shows each once."""
    key = _key(table_id, user_id)
    kept = cache.get(key) or []
    if not kept:
        return []
    taken = [n for n in kept if ids is None or n["id"] in ids]
    left = [n for n in kept if n not in taken]
    if left:
        cache.set(key, left, KEEP_SECONDS)
    else:
        cache.delete(key)
    return taken


def alert_frame(alert: dict[str, Any]) -> dict[str, Any]:
    """The ``alert`` frame for a kept alert, worded in the active language."""
    code = alert["code"]
    params = alert.get("params") or {}
    if code == PRE_ACTION_CLEARED:
        message = _PRE_ACTION_CLEARED[params["kind"]]
    else:
        message = _MESSAGES[code]
    if code == REMOVED and params.get("chips"):
        message = _REMOVED_WITH_CHIPS
    return {"type": "alert", "code": code, "message": render(message, params)}
