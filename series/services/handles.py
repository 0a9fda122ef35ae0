"""A player's payment handle ("IBAN …, PayPal …"): set by the player on their own page,
shown only to a player who owes them (``series.ledgers``, the settle-up's transfers)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from series.models import PaymentHandle, Player

HANDLE_MAX = 200


class HandleError(Exception):
    """A refused handle; the message says why, for the player."""


@transaction.atomic
def payment_handle_set(user: User, text: str) -> PaymentHandle | None:
    """Set (or, with empty text, remove) the handle of the account's player."""
    player = Player.objects.select_for_update().filter(user=user).first()
    if player is None:
        raise HandleError(
            _("Your account has no results yet: the handle is set once you have played.")
        )
    text = text.strip()
    if "\x00" in text or len(text) > HANDLE_MAX:
        raise HandleError(
            _("A payment handle is text of at most %(count)s characters.") % {"count": HANDLE_MAX}
        )
    if not text:
        PaymentHandle.objects.filter(player=player).delete()
        return None
    handle, _created = PaymentHandle.objects.update_or_create(
        player=player, defaults={"text": text}
    )
    return handle
