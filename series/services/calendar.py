"""The player's own calendar feed: the secret address calendar apps subscribe to."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction

from series.models import Player


def calendar_token_new() -> str:
    """An unguessable token for a feed address (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


@transaction.atomic
def player_calendar_token_renew(user: Any) -> Player:
    """Give the account's player a new feed address; the old one stops working at once.

    The first time it also makes the account's series player (as registering for a
    tournament would), so a player can subscribe before registering for anything.
    """
    if user is None or not getattr(user, "is_authenticated", False):
        raise PermissionError("Only a logged-in player has a calendar feed.")
    player, _created = Player.objects.select_for_update().get_or_create(
        user=user, defaults={"name": user.get_username()}
    )
    player.calendar_token = calendar_token_new()
    player.save(update_fields=["calendar_token"])
    return player
