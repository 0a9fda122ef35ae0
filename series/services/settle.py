"""The settle-up of a night: who pays whom, stored as ``Transfer`` rows, and "paid" marks.

The transfers settle the prize pool: each player's winnings (prize + bounties) against
what they put in it, paid in minus their fees ("to settle"). The fees (the event's fee per
entry, the season pot's share included) are kept outside the prize pool, so they are not
part of the transfers: each player pays their own to the host, and the page shows them as
a line of their own. The amounts to settle then sum to zero and ``series.settle`` finds
the fewest payments. The page also shows each player's net, defined once for the whole
site in ``series.net`` (received minus everything paid, fees included): to settle is net
plus fees.

The stored results are the truth: ``settle_up_compute`` is idempotent and keeps every
stored transfer that the new computation repeats (with its paid mark), so it can run
whenever the results may have changed (a correction, the page being opened after a
finish) without losing what the host already marked.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from series.models import Event, Result, Transfer
from series.net import net_result
from series.settle import SettleError, settle


class SettleUpError(Exception):
    """The settle-up cannot be computed or changed; the message says why, for the page."""


@dataclass(frozen=True)
class SettleLine:
    """One player's night in money: what they paid, what they won, their net."""

    player_id: int
    player_name: str
    paid_in: int
    fees: int
    prize: int
    bounties: int = 0
    entries: int = 1

    @property
    def won(self) -> int:
        return self.prize + self.bounties

    @property
    def net(self) -> int:
        """What the player received minus everything they paid, fees included
        (``series.net``): the same number as on their profile."""
        return net_result(prize=self.prize, bounties=self.bounties, paid_in=self.paid_in)

    @property
    def to_settle(self) -> int:
        """Won minus what went into the prize pool (fees apart): what the transfers settle."""
        return self.won - (self.paid_in - self.fees)


def settle_up_lines(event: Event) -> list[SettleLine]:
    """Every player's money line of ``event``, from its ``Result`` rows, best place first."""
    lines = []
    results = Result.objects.filter(event=event).select_related("player").order_by("place")
    for result in results:
        entries = 1 + result.reentries
        # Fees are per entry (re-entries pay it again); never more than the player paid in.
        fees = min(event.fee * entries, result.paid_in)
        lines.append(
            SettleLine(
                player_id=result.player_id,
                player_name=result.player.name,
                paid_in=result.paid_in,
                fees=fees,
                prize=result.prize,
                bounties=result.bounties,
                entries=entries,
            )
        )
    return lines


def settle_up_imbalance(lines: list[SettleLine]) -> str | None:
    """Why the lines cannot be settled (what they have to settle does not sum to zero), or
    None."""
    total = sum(line.to_settle for line in lines)
    if total == 0:
        return None
    won = sum(line.won for line in lines)
    pool = sum(line.paid_in - line.fees for line in lines)
    return _(
        "The results do not balance: prizes and bounties come to %(won)s but the players "
        "put %(pool)s in the prize pool. Correct the results, then the transfers follow."
    ) % {"won": won, "pool": pool}


@transaction.atomic
def settle_up_compute(event_id: int) -> list[Transfer]:
    """Store the fewest transfers that settle ``event_id``'s results and return them.

    A stored transfer the new computation repeats (same payer, payee and amount) is kept
    with its paid mark; the others are replaced. Raises ``SettleUpError`` (and changes
    nothing) when the results do not balance.
    """
    # The event's row lock makes two computations of one night run one after the other.
    event = Event.objects.select_for_update().filter(pk=event_id).first()
    if event is None:
        raise SettleUpError(_("This event does not exist."))
    lines = settle_up_lines(event)
    problem = settle_up_imbalance(lines)
    if problem:
        raise SettleUpError(problem)
    try:
        payments = settle({line.player_id: line.to_settle for line in lines})
    except SettleError as error:  # pragma: no cover - settle_up_imbalance checks first
        raise SettleUpError(str(error)) from error
    stored = list(Transfer.objects.filter(event=event))
    kept: list[Transfer] = []
    created: list[Transfer] = []
    for payment in payments:
        match = next(
            (
                t
                for t in stored
                if (t.payer_id, t.payee_id, t.amount)
                == (payment.payer, payment.payee, payment.amount)
            ),
            None,
        )
        if match is not None:
            stored.remove(match)
            kept.append(match)
        else:
            created.append(
                Transfer(
                    event=event,
                    payer_id=payment.payer,
                    payee_id=payment.payee,
                    amount=payment.amount,
                )
            )
    if stored:
        Transfer.objects.filter(pk__in=[t.pk for t in stored]).delete()
    Transfer.objects.bulk_create(created)
    return list(Transfer.objects.filter(event=event).select_related("payer", "payee", "marked_by"))


def settle_up_refresh(event_id: int) -> str | None:
    """Bring the transfers up to date after the results changed; return why not, or None.

    When the results no longer balance the old transfers are wrong, so they go, and the
    page says why there are none until the results are corrected.
    """
    try:
        with transaction.atomic():
            settle_up_compute(event_id)
    except SettleUpError as error:
        Transfer.objects.filter(event_id=event_id).delete()
        return str(error)
    return None


@transaction.atomic
def transfer_mark_paid(transfer_id: int, *, by: User, paid: bool = True) -> Transfer:
    """Mark a transfer paid (or, with ``paid=False``, not paid after all), by the host."""
    transfer = (
        Transfer.objects.select_for_update()
        .select_related("payer", "payee")
        .filter(pk=transfer_id)
        .first()
    )
    if transfer is None:
        raise SettleUpError(
            _("This transfer no longer exists: the results changed and the settle-up with them.")
        )
    if paid:
        if transfer.paid_at is None:
            transfer.paid_at = timezone.now()
            transfer.marked_by = by
    else:
        transfer.paid_at = None
        transfer.marked_by = by
    transfer.save(update_fields=["paid_at", "marked_by"])
    return transfer
