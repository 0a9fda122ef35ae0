"""Who is looking at a night page: the player of a logged-in account, or a guest who
proved their PIN in this browser session.

A guest's proof lives in the session, one per tournament (``night_pin_remember``), with
the expiry of the PIN it was proved with, and holds while the guest has a PIN that has
not expired. Reprinting the seat cards gives new PINs (the old ones stop opening new
sessions) but keeps the guests' phones open: a reprint after a table breaks must not send
everyone back to the PIN page.

Both functions are cheap reads the night page, its socket and the PIN page share; the
throttled check of a typed PIN is ``tournaments.services.guest_pins.guest_pin_check``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.sessions.backends.base import SessionBase
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from series.models import Player
from tournaments.models import GuestPin

SESSION_KEY = "night_pins"


def night_player(user: Any, session: SessionBase, tournament_id: int) -> Player | None:
    """The player whose night this visitor may see in ``tournament_id``, else None.

    A logged-in account is its own player (none yet: None, since this only reads); an
    anonymous visitor is the guest whose PIN this session proved, while it has not expired.
    """
    if user is not None and user.is_authenticated:
        return Player.objects.filter(user=user).first()
    proof = session.get(SESSION_KEY, {}).get(str(tournament_id))
    if not isinstance(proof, dict):
        return None
    player_id = proof.get("player")
    expires_at = parse_datetime(str(proof.get("expires_at", "")))
    if not isinstance(player_id, int) or expires_at is None or expires_at <= timezone.now():
        return None
    # The guest's PIN still running: one the director has not let expire, and a player the
    # series has not since merged into an account (who then logs in).
    pin = (
        GuestPin.objects.filter(
            tournament_id=tournament_id,
            player_id=player_id,
            expires_at__gt=timezone.now(),
            player__user__isnull=True,
        )
        .select_related("player")
        .first()
    )
    return pin.player if pin is not None else None


def night_pin_remember(
    session: SessionBase, tournament_id: int, player_id: int, expires_at: datetime
) -> None:
    """Remember in ``session`` that it proved ``player_id``'s PIN for ``tournament_id``."""
    proofs = dict(session.get(SESSION_KEY, {}))
    now = timezone.now()
    # Forget the proofs of past nights, so the session does not grow night after night.
    proofs = {
        key: proof
        for key, proof in proofs.items()
        if isinstance(proof, dict)
        and (when := parse_datetime(str(proof.get("expires_at", "")))) is not None
        and when > now
    }
    proofs[str(tournament_id)] = {"player": player_id, "expires_at": expires_at.isoformat()}
    session[SESSION_KEY] = proofs
