"""The season pot's payouts: the director pays money out of the pot to a player (the final
event's added prize, a trophy). What goes in is derived from the entries' fees
(``series.ledgers.season_pot_intake``); a payout is refused beyond what the pot holds."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from core import amounts
from series.ledgers import season_pot
from series.models import Event, Result, Season, SeasonPotPayout
from series.services.money_entries import Wording, money_entry_problem

REASON_MAX = 100
PAYOUT_WORDING = Wording(
    not_positive=gettext_noop("A payout is a positive whole amount."),
    too_much=gettext_noop("A payout is at most %(limit)s."),
    no_text=gettext_noop("Say what the payout is for, in at most %(count)s characters."),
)


class PotError(Exception):
    """A refused payout; the message says why, for the director."""


@transaction.atomic
def season_pot_payout_add(
    season_id: int,
    *,
    player_id: int,
    amount: int,
    reason: str,
    event_id: int | None = None,
    by: User,
) -> SeasonPotPayout:
    """Pay ``amount`` out of the season pot to a player of the season (a result in one of
    its events). Refused, changing nothing, beyond the pot's balance."""
    # The season's row lock makes two payouts check the balance one after the other.
    season = Season.objects.select_for_update().filter(pk=season_id).first()
    if season is None:
        raise PotError(_("This season does not exist."))
    reason = reason.strip()
    problem = money_entry_problem(
        amount, reason, limit=amounts.PRIZE_MAX, text_max=REASON_MAX, wording=PAYOUT_WORDING
    )
    if problem:
        raise PotError(problem)
    if not Result.objects.filter(player_id=player_id, event__season=season).exists():
        raise PotError(_("The season pot pays only players of this season."))
    if event_id is not None and not Event.objects.filter(pk=event_id, season=season).exists():
        raise PotError(_("Choose an event of this season."))
    balance = season_pot(season).balance
    if amount > balance:
        raise PotError(
            _("The season pot holds %(balance)s: it cannot pay out %(amount)s.")
            % {"balance": amounts.money(balance), "amount": amounts.money(amount)}
        )
    return SeasonPotPayout.objects.create(
        season=season,
        player_id=player_id,
        amount=amount,
        reason=reason,
        event_id=event_id,
        created_by=by,
    )


@transaction.atomic
def season_pot_payout_remove(season_id: int, payout_id: int, *, by: User) -> SeasonPotPayout:
    """Take back a payout entered by mistake (the pot holds its amount again)."""
    payout = (
        SeasonPotPayout.objects.select_for_update()
        .filter(pk=payout_id, season_id=season_id)
        .first()
    )
    if payout is None:
        raise PotError(_("This payout no longer exists."))
    payout.delete()
    return payout
