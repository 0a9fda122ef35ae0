"""Guest PINs: how a guest (a player with no account) opens their night page on a phone.

The director prints the seat cards; each guest's card carries their PIN for the night
(``guest_pins_for``: the PIN already given while it holds, a new one for a guest who has
none, so a reprint or a second look at the sheet changes nothing on the cards already
printed). ``guest_pin_issue`` replaces a guest's PIN (a lost card): the old one stops
working. On the night's PIN page the guest picks their name and types it
(``guest_pin_check``), and the session remembers the proof until the PIN expires
(``tournaments.night_access``).

A PIN is six digits drawn from an HMAC, keyed with the site's secret key, of the
tournament, the player and a random nonce kept in the row: the database holds no PIN
anyone can type, and without the key a stolen table gives none. A PIN lasts one night
(``PIN_LIFETIME``).

Six digits are guessable online, so wrong tries are throttled three times, the address
first: per client address at one name (a few tries, then that address waits for that name),
per client address (no one can try a few PINs against each of many guests), and per name
(no one can try many PINs against one guest from many addresses). A try refused for its
address is not counted against the name, so one person typing wrong PINs stops themselves
and never locks the guest out of their own night page: the guest's phone, on another
address, still gets in. Only tries from several addresses lock a name; the director then
gives the guest a new PIN (``guest_pin_reissue``), which ends the lock: the counts of a
name are kept per PIN. A try is counted before the PIN is compared, so tries made at once
in several processes all count. The counts live in Django's cache, which is Redis
in the distributed run mode, so every web process counts the same tries, and expire by
themselves. django-axes, which throttles the password logins, does not fit: it counts
failed ``authenticate`` calls of a username, and a guest has no account to authenticate.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from series.models import Player
from tournaments import selectors
from tournaments.errors import TournamentError
from tournaments.models import GuestPin, Tournament

PIN_DIGITS = 6
# One night: a PIN printed at seven in the evening still opens the page at dawn, and is
# useless the next day.
PIN_LIFETIME = timedelta(hours=12)
# Wrong PINs allowed in a window: per client address at one name (a guest's own slips),
# per client address (a little more, since several guests at one table may share the
# house's Wi-Fi and each mistype once or twice), and per name, which only tries from
# several addresses reach (the address is stopped first).
WRONG_TRIES_PER_ADDRESS_AT_NAME = 3
WRONG_TRIES_PER_ADDRESS = 10
WRONG_TRIES_PER_PLAYER = 10
TRY_WINDOW = timedelta(minutes=15)

_HMAC_SALT = "tournaments.services.guest_pins"


@dataclass(frozen=True)
class GuestPass:
    """A PIN proved: who the guest is, and until when the proof holds."""

    player: Player
    expires_at: datetime


def _pin(tournament_id: int, player_id: int, nonce: str) -> str:
    # The tournament and the player are part of the message, so a row's nonce copied to
    # another row gives another PIN there.
    value = f"{tournament_id}:{player_id}:{nonce}"
    digest = salted_hmac(_HMAC_SALT, value, algorithm="sha256").digest()
    return f"{int.from_bytes(digest[:8], 'big') % 10**PIN_DIGITS:0{PIN_DIGITS}d}"


def _check_guest(tournament: Tournament, player: Player) -> None:
    if player.user_id is not None:
        raise TournamentError(_("Only guests get a PIN: players with an account log in."))
    if not selectors.guest_entrants(tournament).filter(pk=player.pk).exists():
        raise TournamentError(_("%(name)s is not in this tournament.") % {"name": player.name})


def guest_pin_issue(tournament: Tournament, player: Player) -> str:
    """A new PIN for ``player``, a guest entered in ``tournament``, replacing any older one
    (which stops working); returns it."""
    _check_guest(tournament, player)
    row, _created = GuestPin.objects.update_or_create(
        tournament=tournament,
        player=player,
        defaults={
            "nonce": secrets.token_hex(16),
            "expires_at": timezone.now() + PIN_LIFETIME,
        },
    )
    return _pin(tournament.pk, player.pk, row.nonce)


def guest_pins_for(tournament: Tournament, players: list[Player]) -> dict[int, str]:
    """The PINs of the guests among ``players`` (the seat cards), by player id: the PIN a
    guest already has while it holds, a new one for a guest who has none (or whose PIN has
    expired). Printing the cards again shows the same PINs."""
    guests = [player for player in players if player.user_id is None]
    with transaction.atomic():
        held = {
            row.player_id: row
            for row in GuestPin.objects.select_for_update().filter(
                tournament=tournament,
                player__in=guests,
                expires_at__gt=timezone.now(),
            )
        }
        return {
            player.pk: (
                _pin(tournament.pk, player.pk, held[player.pk].nonce)
                if player.pk in held
                else guest_pin_issue(tournament, player)
            )
            for player in guests
        }


def _counter_key(kind: str, value: str) -> str:
    # Hashed: an address or id of any shape makes a short key every cache backend accepts.
    return "guest-pin:" + kind + ":" + hashlib.sha256(value.encode()).hexdigest()[:32]


def _wait_minutes(key: str, limit: int) -> int | None:
    """Whole minutes left before ``key`` may try again, or None if it may try now."""
    if cache.get(f"{key}:count", 0) < limit:
        return None
    until = cache.get(f"{key}:until")
    seconds = (until - time.time()) if until is not None else TRY_WINDOW.total_seconds()
    return max(1, -(-int(seconds) // 60))


def _count_wrong_try(key: str) -> int:
    """Count one try against ``key`` (taken back when the PIN was right); the count of its
    window so far."""
    window = int(TRY_WINDOW.total_seconds())
    # ``add`` only starts a window that is not running; ``incr`` is atomic in Redis, so two
    # processes counting at once both count.
    cache.add(f"{key}:until", time.time() + window, window)
    cache.add(f"{key}:count", 0, window)
    try:
        return cache.incr(f"{key}:count")
    except ValueError:  # the window ended between ``add`` and ``incr``
        cache.set(f"{key}:count", 1, window)
        return 1


def _uncount_try(key: str) -> None:
    try:
        cache.decr(f"{key}:count")
    except ValueError:  # the window ended meanwhile: nothing to take back
        pass


def _wait_message(minutes: int) -> str:
    return ngettext(
        "Too many wrong PINs. Try again in %(minutes)s minute.",
        "Too many wrong PINs. Try again in %(minutes)s minutes.",
        minutes,
    ) % {"minutes": minutes}


def _keys(tournament_id: int, player_id: int, nonce: str, client_key: str) -> dict[str, str]:
    """The counters a try at this guest's PIN from ``client_key`` counts in. Those of the
    name carry the PIN's nonce: a new PIN starts them afresh."""
    name = f"{tournament_id}:{player_id}:{nonce}"
    return {
        "address_at_name": _counter_key("address-at-name", f"{client_key}|{name}"),
        "address": _counter_key("address", client_key),
        "player": _counter_key("player", name),
    }


def _limits(keys: dict[str, str]) -> list[tuple[str, int]]:
    # The address first: a try it refuses is never counted against the name.
    return [
        (keys["address_at_name"], WRONG_TRIES_PER_ADDRESS_AT_NAME),
        (keys["address"], WRONG_TRIES_PER_ADDRESS),
        (keys["player"], WRONG_TRIES_PER_PLAYER),
    ]


def _refuse_wait(limits: list[tuple[str, int]]) -> TournamentError:
    waits = [minutes for key, limit in limits if (minutes := _wait_minutes(key, limit))]
    return TournamentError(_wait_message(max(waits, default=1)), field="pin")


def guest_pin_check(tournament_id: int, player_id: int, pin: str, client_key: str) -> GuestPass:
    """The guest ``player_id`` of ``tournament_id`` if ``pin`` is theirs, else a refusal.

    ``client_key`` is the client's address. Raises ``TournamentError`` with a message for
    the guest: a name not on the list, a PIN of the wrong shape, no PIN issued, a wrong PIN
    (with the tries left), or too many wrong PINs (with the minutes to wait). Only a wrong
    PIN counts as a try: the others reveal nothing a guest's card does not.
    """
    player = selectors.guest_entrants(tournament_id).filter(pk=player_id).first()
    if player is None:
        raise TournamentError(_("Pick your name from the list."), field="player")
    row = GuestPin.objects.filter(
        tournament_id=tournament_id, player_id=player_id, expires_at__gt=timezone.now()
    ).first()
    keys = _keys(tournament_id, player_id, row.nonce if row else "", client_key)
    limits = _limits(keys)
    for key, limit in limits:
        if _wait_minutes(key, limit) is not None:
            raise _refuse_wait(limits)
    typed = "".join(pin.split())
    if len(typed) != PIN_DIGITS or not typed.isascii() or not typed.isdigit():
        raise TournamentError(
            _("The PIN is the %(digits)s digits on your seat card.") % {"digits": PIN_DIGITS},
            field="pin",
        )
    if row is None:
        raise TournamentError(
            _("There is no PIN for you tonight: ask the director to print your seat card."),
            field="pin",
        )
    # Counted first, then compared: tries made at once in several processes all count, and
    # one over the limit is refused even when it is right. The address's counts first: a
    # try over the address's limit stops there, uncounted against the name.
    counts: dict[str, int] = {}
    for key, limit in limits:
        counts[key] = _count_wrong_try(key)
        if counts[key] > limit:
            raise _refuse_wait(limits)
    if not constant_time_compare(_pin(tournament_id, player_id, row.nonce), typed):
        left = min(limit - counts[key] for key, limit in limits)
        if left <= 0:
            raise _refuse_wait(limits)
        raise TournamentError(
            ngettext(
                "Wrong PIN. %(left)s try left before a wait.",
                "Wrong PIN. %(left)s tries left before a wait.",
                left,
            )
            % {"left": left},
            field="pin",
        )
    # The guest got it right: their own slips are forgiven, and this try is not one. The
    # address's count across names is kept (less this try), or one known PIN would let its
    # holder keep guessing the others'.
    cache.delete_many(
        [
            f"{keys[kind]}:{part}"
            for kind in ("player", "address_at_name")
            for part in ("count", "until")
        ]
    )
    _uncount_try(keys["address"])
    return GuestPass(player=player, expires_at=row.expires_at)


def guest_pins_locked(tournament: Tournament) -> dict[int, int]:
    """The guests of ``tournament`` locked out by wrong PINs typed from several addresses,
    by player id: the minutes left before the lock ends by itself."""
    rows = GuestPin.objects.filter(
        tournament=tournament,
        player__in=selectors.guest_entrants(tournament),
        expires_at__gt=timezone.now(),
    )
    locked = {}
    for row in rows:
        key = _keys(tournament.pk, row.player_id, row.nonce, "")["player"]
        minutes = _wait_minutes(key, WRONG_TRIES_PER_PLAYER)
        if minutes is not None:
            locked[row.player_id] = minutes
    return locked


def guest_pin_reissue(tournament: Tournament, player_id: int) -> tuple[Player, str]:
    """The director's answer to a guest locked out, or who lost their card: a new PIN,
    which ends the lock (the counts are kept per PIN) and stops the old one working.
    Returns the guest and the new PIN, to tell them."""
    player = selectors.guest_entrants(tournament).filter(pk=player_id).first()
    if player is None:
        raise TournamentError(_("Pick a guest of this tournament."), field="player")
    return player, guest_pin_issue(tournament, player)
