"""The settle-up of a night: who pays whom, stored as ``Transfer`` rows, and "paid" marks.

The transfers settle the prize pool: each player's winnings (prize + bounties) against
what they put in it, paid in minus their fees ("to settle"). The fees (the event's fee per
entry, the season pot's share included) are kept outside the prize pool, so they are not
part of the transfers: each player pays their own to the host, and the page shows them as
a line of their own. The amounts to settle then sum to zero and ``series.settle`` finds
the fewest payments. The page also shows each player's net, defined once for the whole
site in ``series.net`` (received minus everything paid, fees included): to settle is net
plus fees.

The stored results are the truth: ``settle_up_night`` is idempotent and keeps every
stored transfer that the new computation repeats (with its paid mark), so it can run
whenever the results may have changed (a correction, the page being opened after a
finish) without losing what the host already marked.

The night's balances, its transfers and the debts it carries are counted in cents
(``core.amounts``), since a shared expense has cents (a pizza of 23.50): the results are in
whole units and enter the balances times ``CENTS``, so every sum is exact and no cent is
lost or made. ``SettleLine`` (the results) stays in units; ``BalanceLine``, ``Transfer``
and ``CarriedDebt`` are in cents.

Money across nights: a night's balance for each player is what they have to settle from the
results, plus the night's shared expenses (``series.services.expenses``: the payer is owed
the amount, each sharer owes their share) plus the debts carried into it. A debt is carried
when the director closes a night (``night_close``) with transfers not marked paid: each
becomes a ``CarriedDebt`` that the season's next night to compute its settle-up takes in,
so one set of fewest transfers covers both. A closed night is read-only; reopening it takes
its carried debts back (refused when the night that took them in is closed too), so closing
again never carries a debt twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _

from core import amounts
from core.names import NameOrder, name_key
from series.models import CarriedDebt, Event, Expense, ExpenseShare, NightClose, Result, Transfer
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
    # Tied places as the results table orders them: by place alone, the query plan chose.
    results = (
        Result.objects.filter(event=event)
        .select_related("player")
        .order_by("place", NameOrder("player__name"), "pk")
    )
    return [settle_line(result, event) for result in results]


def settle_line(result: Result, event: Event) -> SettleLine:
    """One result's money line (``event`` is the result's, passed to spare a query)."""
    entries = 1 + result.reentries
    # Fees are per entry (re-entries pay it again); never more than the player paid in.
    fees = min(event.fee * entries, result.paid_in)
    return SettleLine(
        player_id=result.player_id,
        player_name=result.player.name,
        paid_in=result.paid_in,
        fees=fees,
        prize=result.prize,
        bounties=result.bounties,
        entries=entries,
    )


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


@dataclass(frozen=True)
class BalanceLine:
    """One player's money for the night, in cents: to settle from the results, expenses
    (paid minus their shares) and carried debts (owed to them minus owed by them).
    ``balance`` is what the transfers settle: above zero the player is owed, below they
    owe."""

    player_id: int
    player_name: str
    to_settle: int = 0
    expenses: int = 0
    carried: int = 0

    @property
    def balance(self) -> int:
        return self.to_settle + self.expenses + self.carried


def night_is_closed(event: Event | int) -> bool:
    """Whether the night (an event or its id) is closed."""
    return NightClose.objects.filter(event=event).exists()


@dataclass(frozen=True)
class NightMoney:
    """A night's money as its settle-up reads it: its results' ``lines`` (best place
    first), its ``expenses`` (with their payer, and their shares with each sharer) and the
    debts ``carried_in`` from earlier nights (with their origin, payer and payee)."""

    lines: list[SettleLine]
    expenses: list[Expense]
    carried_in: list[CarriedDebt]

    @cached_property
    def balances(self) -> list[BalanceLine]:
        """Every player's balance, in cents: the players of the results first (best place
        first), then anyone who is only in the expenses or carried debts, by name."""
        names = {line.player_id: line.player_name for line in self.lines}
        to_settle = {line.player_id: line.to_settle * amounts.CENTS for line in self.lines}
        expenses: dict[int, int] = {}
        for expense in self.expenses:
            names.setdefault(expense.payer_id, expense.payer.name)
            paid = expense.amount_cents
            expenses[expense.payer_id] = expenses.get(expense.payer_id, 0) + paid
            for share in expense.shares.all():
                names.setdefault(share.player_id, share.player.name)
                expenses[share.player_id] = expenses.get(share.player_id, 0) - share.amount_cents
        carried: dict[int, int] = {}
        for debt in self.carried_in:
            names.setdefault(debt.payer_id, debt.payer.name)
            names.setdefault(debt.payee_id, debt.payee.name)
            carried[debt.payer_id] = carried.get(debt.payer_id, 0) - debt.amount_cents
            carried[debt.payee_id] = carried.get(debt.payee_id, 0) + debt.amount_cents
        order = [line.player_id for line in self.lines]
        order += sorted(
            (pk for pk in names if pk not in to_settle), key=lambda pk: (name_key(names[pk]), pk)
        )
        return [
            BalanceLine(
                player_id=pk,
                player_name=names[pk],
                to_settle=to_settle.get(pk, 0),
                expenses=expenses.get(pk, 0),
                carried=carried.get(pk, 0),
            )
            for pk in order
        ]


def night_money(event: Event, lines: list[SettleLine] | None = None) -> NightMoney:
    """``event``'s money (``lines``: its results' lines, when the caller has them): three
    queries besides the lines."""
    expenses = (
        Expense.objects.filter(event=event)
        .select_related("payer")
        .prefetch_related(
            Prefetch("shares", queryset=ExpenseShare.objects.select_related("player"))
        )
    )
    carried = CarriedDebt.objects.filter(settled_in=event).select_related(
        "origin", "payer", "payee"
    )
    return NightMoney(
        lines=settle_up_lines(event) if lines is None else lines,
        expenses=list(expenses),
        carried_in=list(carried),
    )


def settle_up_balances(event: Event, lines: list[SettleLine] | None = None) -> list[BalanceLine]:
    """Every player's balance for ``event`` (``NightMoney.balances``)."""
    return night_money(event, lines).balances


def settle_up_balance_problem(balances: list[BalanceLine]) -> str | None:
    """Why the balances cannot be settled (they do not sum to zero), or None."""
    total = sum(line.balance for line in balances)
    if total == 0:
        return None
    return _(
        "The night's money does not add up: the balances, expenses and carried debts "
        "included, come to %(total)s instead of 0."
    ) % {"total": amounts.money_cents(total)}


def transfers_problem(balances: list[BalanceLine], transfers: list[Transfer]) -> str | None:
    """Why the stored transfers do not settle the balances (someone would end up owing or
    owed after every payment), or None."""
    left = {line.player_id: line.balance for line in balances}
    names = {line.player_id: line.player_name for line in balances}
    for transfer in transfers:
        left[transfer.payer_id] = left.get(transfer.payer_id, 0) + transfer.amount_cents
        left[transfer.payee_id] = left.get(transfer.payee_id, 0) - transfer.amount_cents
        names.setdefault(transfer.payer_id, transfer.payer.name)
        names.setdefault(transfer.payee_id, transfer.payee.name)
    wrong = [pk for pk, amount in left.items() if amount]
    if not wrong:
        return None
    return _(
        "The payments do not match the balances (%(players)s). Open the settle-up again to "
        "recompute the payments."
    ) % {"players": ", ".join(sorted((names[pk] for pk in wrong), key=name_key))}


def _carried_take_in(event: Event) -> None:
    """The season's debts carried from earlier nights and not yet taken in by a night:
    ``event`` settles them now (the next night of the season to compute its settle-up)."""
    CarriedDebt.objects.filter(
        settled_in__isnull=True,
        origin__season_id=event.season_id,
        origin__starts_at__lt=event.starts_at,
    ).exclude(origin=event).update(settled_in=event)


@dataclass(frozen=True)
class SettleUp:
    """A night's settle-up as stored: its money and the transfers that settle it."""

    money: NightMoney
    transfers: list[Transfer]


@transaction.atomic
def settle_up_night(event_id: int) -> SettleUp:
    """Store the fewest transfers that settle ``event_id``'s money (in cents) and return
    them with the money they settle (what the settle-up page shows, read once).

    A stored transfer the new computation repeats (same payer, payee and amount) is kept
    with its paid mark; the others are replaced. Raises ``SettleUpError`` (and changes
    nothing) when the results do not balance.
    """
    # The event's row lock makes two computations of one night run one after the other.
    event = Event.objects.select_for_update().filter(pk=event_id).first()
    if event is None:
        raise SettleUpError(_("This event does not exist."))
    stored = list(
        Transfer.objects.filter(event=event).select_related("payer", "payee", "marked_by")
    )
    if night_is_closed(event):
        # Closed nights are read-only: what was closed stays as it was.
        return SettleUp(night_money(event), stored)
    lines = settle_up_lines(event)
    problem = settle_up_imbalance(lines)
    if problem:
        raise SettleUpError(problem)
    if lines:
        _carried_take_in(event)
    money = night_money(event, lines)
    problem = settle_up_balance_problem(money.balances)
    if problem:
        raise SettleUpError(problem)
    try:
        payments = settle({line.player_id: line.balance for line in money.balances})
    except SettleError as error:  # pragma: no cover - settle_up_imbalance checks first
        raise SettleUpError(str(error)) from error
    stale = list(stored)
    created: list[Transfer] = []
    for payment in payments:
        match = next(
            (
                t
                for t in stale
                if (t.payer_id, t.payee_id, t.amount_cents)
                == (payment.payer, payment.payee, payment.amount)
            ),
            None,
        )
        if match is not None:
            stale.remove(match)
        else:
            created.append(
                Transfer(
                    event=event,
                    payer_id=payment.payer,
                    payee_id=payment.payee,
                    amount_cents=payment.amount,
                )
            )
    if not stale and not created:
        return SettleUp(money, stored)
    if stale:
        Transfer.objects.filter(pk__in=[t.pk for t in stale]).delete()
    Transfer.objects.bulk_create(created)
    transfers = Transfer.objects.filter(event=event).select_related("payer", "payee", "marked_by")
    return SettleUp(money, list(transfers))


def settle_up_compute(event_id: int) -> list[Transfer]:
    """``settle_up_night``'s transfers."""
    return settle_up_night(event_id).transfers


def settle_up_refresh(event_id: int) -> str | None:
    """Bring the transfers up to date after the results changed; return why not, or None.

    When the results no longer balance the old transfers are wrong, so they go, and the
    page says why there are none until the results are corrected. A closed night keeps its
    transfers (it is read-only until the director reopens it).
    """
    if night_is_closed(event_id):
        return night_closed_message()
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
    if night_is_closed(transfer.event_id):
        raise SettleUpError(night_closed_message())
    if paid:
        if transfer.paid_at is None:
            transfer.paid_at = timezone.now()
            transfer.marked_by = by
    else:
        transfer.paid_at = None
        transfer.marked_by = by
    transfer.save(update_fields=["paid_at", "marked_by"])
    return transfer


def night_closed_message() -> str:
    return _("This night is closed: the director reopens it to change its money.")


@transaction.atomic
def night_close(event_id: int, *, by: User) -> NightClose:
    """Close a night's settle-up: its money becomes read-only and every transfer not marked
    paid is carried, as a ``CarriedDebt``, to the season's next night to be settled.

    Refused (``SettleUpError``, nothing changed) when the night is closed already, has no
    results, or its money does not add up: the balances (expenses and carried debts
    included) do not sum to zero, or the stored transfers do not settle them.
    """
    event = Event.objects.select_for_update().filter(pk=event_id).first()
    if event is None:
        raise SettleUpError(_("This event does not exist."))
    if night_is_closed(event):
        raise SettleUpError(_("This night is closed already."))
    lines = settle_up_lines(event)
    if not lines:
        raise SettleUpError(_("This night has no results yet: there is nothing to close."))
    problem = settle_up_imbalance(lines)
    balances = settle_up_balances(event, lines)
    problem = problem or settle_up_balance_problem(balances)
    transfers = list(Transfer.objects.filter(event=event).select_related("payer", "payee"))
    problem = problem or transfers_problem(balances, transfers)
    if problem:
        raise SettleUpError(_("The night cannot be closed: %(problem)s") % {"problem": problem})
    closed = NightClose.objects.create(event=event, closed_at=timezone.now(), closed_by=by)
    CarriedDebt.objects.bulk_create(
        CarriedDebt(
            origin=event, payer_id=t.payer_id, payee_id=t.payee_id, amount_cents=t.amount_cents
        )
        for t in transfers
        if t.paid_at is None
    )
    return closed


@transaction.atomic
def night_reopen(event_id: int, *, by: User) -> Event:
    """Reopen a closed night: the debts it carried are taken back (the night that had taken
    them in recomputes its transfers without them), so closing it again carries only what is
    unpaid then, never a debt twice.

    Refused when a night that took in its debts is closed too: that night settled them
    (and may have carried them on), so it is reopened first.
    """
    event = Event.objects.select_for_update().filter(pk=event_id).first()
    if event is None:
        raise SettleUpError(_("This event does not exist."))
    closed = NightClose.objects.filter(event=event).first()
    if closed is None:
        raise SettleUpError(_("This night is open already."))
    debts = list(CarriedDebt.objects.filter(origin=event).select_related("settled_in"))
    later = {d.settled_in for d in debts if d.settled_in is not None}
    closed_later = sorted(
        (night for night in later if night_is_closed(night)), key=lambda e: e.starts_at
    )
    if closed_later:
        raise SettleUpError(
            _(
                "%(event)s's unpaid payments were carried into %(later)s, which is closed: "
                "reopen %(later)s first."
            )
            % {"event": event.name, "later": closed_later[0].name}
        )
    CarriedDebt.objects.filter(origin=event).delete()
    closed.delete()
    for night in sorted(later, key=lambda e: e.starts_at):
        # Its transfers covered the debts taken back: compute them again without.
        settle_up_refresh(night.pk)
    return event
