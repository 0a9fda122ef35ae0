"""A player's ask for a rebuy or the add-on from their night page, and the director's one
tap that approves or refuses it, at a tournament played in person.

The player asks (``purchase_request_make``) when the rules allow it now
(``entries.rebuy_refusal`` / ``addon_refusal``: the same checks as the console's buttons);
a rebuy carries the chips the player says they have, since the rebuy rule is about the
stack. The ask shows at the top of the director's console; one tap approves it
(``purchase_request_approve``), which records the purchase through ``entries.rebuy_take``
or ``addon_take``, so every rule, the action log, its Undo and the console form's one-time
token apply as if the director had tapped Rebuy in the player's row. A rule that no longer
holds (the rebuy levels ended meanwhile) refuses the approval with its reason and leaves
the ask pending, for the director to refuse.

Everything runs under the tournament's row lock (``entries.entry_lock``), the lock of every
entries action: two taps, two directors' phones or a player's second tab are applied one
after the other, and the second finds the ask already decided ("already approved")
instead of recording a second purchase. At most one ask of a kind is pending per entry (a
constraint; a second ask is refused with a message). The player's night pages hear every
change after commit (``night_news``).

Online tournaments have none of this: there the player takes a purchase themselves
(``services.purchases``).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import amounts, request_values
from series.models import Player
from tournaments.errors import TournamentError
from tournaments.models import (
    Entry,
    PurchaseKind,
    PurchaseRequest,
    PurchaseRequestState,
    Tournament,
)
from tournaments.permissions import require_director
from tournaments.services import entries, night_news

KINDS = tuple(PurchaseKind.values)


def _kind(value: Any) -> str:
    if value not in KINDS:
        raise TournamentError(_("Choose a rebuy or the add-on."))
    return str(value)


def _stack(value: Any) -> int:
    """The chips a player says they have, as typed ("3 000", "3,000" and "3000" alike)."""
    text = "".join(str(value if value is not None else "").split()).replace(",", "")
    text = text.replace(".", "").replace("\u202f", "")
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(amounts.CHIPS_MAX)):
        raise TournamentError(_("Enter your stack in chips, to ask for a rebuy."))
    stack = int(text)
    if stack > amounts.CHIPS_MAX:
        raise TournamentError(_("Enter your stack in chips, to ask for a rebuy."))
    return stack


def purchase_request_refusal(
    tournament: Tournament, entry: Entry, kind: str, *, stack: int | None = None
) -> str | None:
    """Why ``entry`` cannot ask for ``kind`` now (None: it can); ``stack`` None checks all
    but the stack, for the night page to decide whether to offer the button."""
    if tournament.online:
        return _("At an online tournament, take rebuys and the add-on yourself at your table.")
    if kind == PurchaseKind.REBUY:
        return entries.rebuy_refusal(tournament, entry, stack=stack)
    return entries.addon_refusal(tournament, entry)


def purchase_request_make(
    entry_id: int, player: Player, kind: Any, *, stack: Any = None
) -> PurchaseRequest:
    """``player`` asks for a rebuy (with their ``stack``) or the add-on on their entry."""
    kind = _kind(kind)
    chips = _stack(stack) if kind == PurchaseKind.REBUY else None
    with transaction.atomic():
        tournament, entry = entries.entry_lock(entry_id)
        if entry.player_id != player.pk:
            raise TournamentError(_("This is not your entry."))
        refusal = purchase_request_refusal(tournament, entry, kind, stack=chips)
        if refusal:
            raise TournamentError(refusal)
        if PurchaseRequest.objects.filter(
            entry=entry, kind=kind, state=PurchaseRequestState.PENDING
        ).exists():
            raise TournamentError(_already_asked(kind))
        try:
            with transaction.atomic():
                request = PurchaseRequest.objects.create(entry=entry, kind=kind, stack=chips)
        except IntegrityError:
            raise TournamentError(_already_asked(kind)) from None
        night_news.night_tell(tournament.pk, entry.player_id)
    return request


def _already_asked(kind: str) -> str:
    if kind == PurchaseKind.REBUY:
        return _("You have already asked for a rebuy: the director has not answered yet.")
    return _("You have already asked for the add-on: the director has not answered yet.")


def _pending(
    request_id: Any, tournament_id: int | None = None, *, player: Player | None = None
) -> tuple[Tournament, PurchaseRequest]:
    """The request (of ``tournament_id``, of ``player``'s entries when given), read again
    under its tournament's lock; refused unless still pending."""
    pk = request_id if type(request_id) is int else request_values.id_or_none(request_id)
    if pk is None:
        raise TournamentError(_("This request does not exist."))
    found = PurchaseRequest.objects.filter(pk=pk)
    if tournament_id is not None:
        found = found.filter(entry__tournament_id=tournament_id)
    if player is not None:
        found = found.filter(entry__player=player)
    entry_id = found.values_list("entry_id", flat=True).first()
    if entry_id is None:
        raise TournamentError(_("This request does not exist."))
    tournament, _entry = entries.entry_lock(entry_id)
    request = PurchaseRequest.objects.select_related("entry__player").get(pk=pk)
    if request.state != PurchaseRequestState.PENDING:
        raise TournamentError(
            _("This request was already answered: %(state)s.")
            % {"state": request.get_state_display().lower()}
        )
    return tournament, request


def _decide(request: PurchaseRequest, state: str, by: Any) -> None:
    request.state = state
    request.decided_at = timezone.now()
    request.decided_by = by if getattr(by, "is_authenticated", False) else None
    request.save(update_fields=["state", "decided_at", "decided_by"])
    night_news.night_tell(
        request.entry.tournament_id,
        request.entry.player_id,
        {"kind": night_news.DECIDED, "purchase": request.kind, "state": state},
    )


def purchase_request_approve(
    request_id: Any, *, by: Any, tournament_id: int | None = None
) -> PurchaseRequest:
    """The director approves the ask: the rebuy or add-on is recorded as from the console."""
    require_director(by)
    with transaction.atomic():
        tournament, request = _pending(request_id, tournament_id)
        if request.kind == PurchaseKind.REBUY:
            entries.rebuy_take(tournament, request.entry, stack=request.stack, by=by)
        else:
            entries.addon_take(tournament, request.entry, by=by)
        _decide(request, PurchaseRequestState.APPROVED, by)
    return request


def purchase_request_refuse(
    request_id: Any, *, by: Any, tournament_id: int | None = None
) -> PurchaseRequest:
    """The director refuses the ask; nothing is recorded but the answer."""
    require_director(by)
    with transaction.atomic():
        _tournament, request = _pending(request_id, tournament_id)
        _decide(request, PurchaseRequestState.REFUSED, by)
    return request


def purchase_request_withdraw(
    request_id: Any, player: Player, *, tournament_id: int | None = None
) -> PurchaseRequest:
    """The player takes back their own ask while it is pending."""
    with transaction.atomic():
        _tournament, request = _pending(request_id, tournament_id, player=player)
        _decide(request, PurchaseRequestState.WITHDRAWN, None)
    return request


def purchase_requests_pending(tournament: Tournament) -> list[PurchaseRequest]:
    """The asks waiting for the director, oldest first, for the console."""
    return list(
        PurchaseRequest.objects.filter(
            entry__tournament=tournament, state=PurchaseRequestState.PENDING
        )
        .select_related("entry__player")
        .order_by("created_at", "pk")
    )
