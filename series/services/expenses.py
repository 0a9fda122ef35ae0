"""A night's shared expenses (the pizza, the room): added and removed by the director on the
settle-up page.

An expense is counted in cents (``core.amounts``: a pizza of 23.50 is 2350) and split
among its sharers to the cent, as Splitwise splits one:

- equally: each pays ``amount // n`` cents and the odd cents left go one each to the first
  sharers in alphabetical order of their names, then by id (``expense_split``), so 10.00
  among Ann, Ben and Cal is 3.34, 3.33 and 3.33;
- by shares (a couple two shares, a guest who only had a drink a half... in whole shares):
  each pays their part rounded down to the cent, and the cents left go one each to the
  largest remainders, ties to the first in alphabetical order (``expense_split_by_shares``);
- by amounts: each sharer's amount as typed (with cents), which must add up to the expense.

Every way, the shares add up to the amount exactly, so the night's balances still sum to
zero and the settle-up balances. The default sharers are everyone who played the night. Payer and sharers are players of the night (a result in it):
an id from elsewhere is refused. Adding or removing an expense brings the night's transfers
up to date at once (``settle_up_refresh``).

>>> expense_split(1000, 3)
[334, 333, 333]
>>> expense_split_by_shares(1000, [2, 1, 1])
[500, 250, 250]
>>> expense_split_by_shares(1001, [2, 1, 1])
[501, 250, 250]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from core import amounts
from core.names import name_key
from series.models import Event, Expense, ExpenseShare
from series.selectors import night_players
from series.services.money_entries import Wording, money_entry_problem
from series.services.settle import (
    SettleUpError,
    night_closed_message,
    night_is_closed,
    settle_up_refresh,
)

DESCRIPTION_MAX = 100
EXPENSE_WORDING = Wording(
    not_positive=gettext_noop("An expense is a positive amount, to the cent."),
    too_much=gettext_noop("An expense is at most %(limit)s."),
    no_text=gettext_noop("Say what the expense was for, in at most %(count)s characters."),
)


def expense_split(amount: int, sharers: int) -> list[int]:
    """``amount`` (in cents) split among ``sharers`` people listed in alphabetical order:
    the first ``amount % sharers`` of them pay one cent more. The parts always add up to
    ``amount``: 1000 among three is 334, 333, 333."""
    base, remainder = divmod(amount, sharers)
    return [base + (1 if i < remainder else 0) for i in range(sharers)]


# The most shares one sharer may have (a split by shares is a handful of small numbers).
SHARES_MAX = 100


def expense_split_by_shares(amount: int, shares: list[int]) -> list[int]:
    """``amount`` (in cents) split in proportion to ``shares`` (each at least 1), for
    sharers listed in alphabetical order: each gets their part rounded down to the cent,
    then the cents left go one each to the largest remainders, the first in the list among
    equals. The parts always add up to ``amount``."""
    total = sum(shares)
    parts = [amount * share // total for share in shares]
    remainders = [amount * share % total for share in shares]
    left = amount - sum(parts)
    for index in sorted(range(len(shares)), key=lambda i: (-remainders[i], i))[:left]:
        parts[index] += 1
    return parts


def _night_open(event_id: int) -> Event:
    """The night, locked (its expenses change one at a time); refused when it is closed."""
    event = Event.objects.select_for_update().filter(pk=event_id).first()
    if event is None:
        raise SettleUpError(_("This event does not exist."))
    if night_is_closed(event):
        raise SettleUpError(night_closed_message())
    return event


@transaction.atomic
def expense_add(
    event_id: int,
    *,
    payer_id: int,
    amount_cents: int,
    description: str,
    sharer_ids: Iterable[int] | None = None,
    by_shares: Mapping[int, int] | None = None,
    by_amounts: Mapping[int, int] | None = None,
    by: User,
) -> Expense:
    """Add a shared expense of ``amount_cents`` to a night, split equally among
    ``sharer_ids`` (None: everyone who played), or ``by_shares`` (player id -> shares) or
    ``by_amounts`` (player id -> amount in cents), whose players are then the sharers.

    Refused (``SettleUpError``, nothing changed) when the night is closed, the amount is
    not a positive whole number of cents within the bound (``MONEY_MAX`` units), there is
    nobody to share it, the payer or a sharer is not a player of the night, a share is not
    a whole number from 1 to ``SHARES_MAX``, or the amounts are not whole numbers of cents
    that add up to the expense.
    """
    event = _night_open(event_id)
    description = description.strip()
    amount = amount_cents
    problem = money_entry_problem(
        amount,
        description,
        limit=amounts.MONEY_MAX * amounts.CENTS,
        text_max=DESCRIPTION_MAX,
        wording=EXPENSE_WORDING,
        shown=amounts.money_cents,
    )
    if problem:
        raise SettleUpError(problem)
    players = {player.pk: player for player in night_players(event)}
    if payer_id not in players:
        raise SettleUpError(_("The payer must be a player of this night."))
    if by_shares is not None and by_amounts is not None:
        raise SettleUpError(_("Split an expense either by shares or by amounts."))
    uneven = by_shares if by_shares is not None else by_amounts
    if uneven is not None:
        sharer_ids = list(uneven)
    sharers = list(players) if sharer_ids is None else list(dict.fromkeys(sharer_ids))
    if not sharers:
        raise SettleUpError(_("Choose at least one player to share the expense."))
    if any(pk not in players for pk in sharers):
        raise SettleUpError(_("Only players of this night can share its expenses."))
    # Alphabetical, then by id: two players of one name keep a stable order.
    ordered = sorted(sharers, key=lambda pk: (name_key(players[pk].name), pk))
    parts = _parts(amount, ordered, by_shares=by_shares, by_amounts=by_amounts)
    expense = Expense.objects.create(
        event=event,
        payer_id=payer_id,
        amount_cents=amount,
        description=description,
        created_by=by,
    )
    ExpenseShare.objects.bulk_create(
        ExpenseShare(expense=expense, player_id=pk, amount_cents=part)
        for pk, part in zip(ordered, parts, strict=True)
        # A sharer who owes nothing of it (an amount of 0) needs no row.
        if part or by_amounts is None
    )
    settle_up_refresh(event.pk)
    return expense


def parts_range_message(amount_cents: int) -> str:
    """Why a sharer's amount is refused: it is none between 0 and the expense's."""
    return _("Each amount is between 0 and %(amount)s, with at most 2 decimal places.") % {
        "amount": amounts.money_cents(amount_cents)
    }


def parts_total_message(total_cents: int, amount_cents: int) -> str:
    """Why the sharers' amounts are refused: they do not add up to the expense."""
    return _("The amounts add up to %(total)s, not %(amount)s.") % {
        "total": amounts.money_cents(total_cents),
        "amount": amounts.money_cents(amount_cents),
    }


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parts(
    amount: int,
    ordered: list[int],
    *,
    by_shares: Mapping[int, int] | None,
    by_amounts: Mapping[int, int] | None,
) -> list[int]:
    """Each sharer's part of ``amount`` (cents), in the order of ``ordered``, adding up to
    it."""
    if by_shares is not None:
        shares = by_shares
        if not all(_is_whole(shares[pk]) and 1 <= shares[pk] <= SHARES_MAX for pk in ordered):
            raise SettleUpError(
                _("Each share is a whole number from 1 to %(most)s.") % {"most": SHARES_MAX}
            )
        return expense_split_by_shares(amount, [shares[pk] for pk in ordered])
    if by_amounts is not None:
        cents = by_amounts
        if not all(_is_whole(cents[pk]) and 0 <= cents[pk] <= amount for pk in ordered):
            raise SettleUpError(parts_range_message(amount))
        total = sum(cents[pk] for pk in ordered)
        if total != amount:
            raise SettleUpError(parts_total_message(total, amount))
        return [cents[pk] for pk in ordered]
    return expense_split(amount, len(ordered))


@transaction.atomic
def expense_remove(event_id: int, expense_id: int, *, by: User) -> Expense:
    """Remove one of the night's expenses (and its shares); refused on a closed night or
    for an expense that is not the night's."""
    event = _night_open(event_id)
    expense = Expense.objects.filter(pk=expense_id, event=event).first()
    if expense is None:
        raise SettleUpError(_("This expense no longer exists."))
    expense.delete()
    settle_up_refresh(event.pk)
    return expense
