"""A night's shared expenses (the pizza, the room): added and removed by the director on the
settle-up page.

An expense is split among its sharers in whole units: each pays ``amount // n`` and the
remainder goes one unit each to the first sharers in alphabetical order of their names
(``expense_split``), so 10 among Ann, Ben and Cal is 4, 3 and 3. The default sharers are
everyone who played the night. Payer and sharers are players of the night (a result in it):
an id from elsewhere is refused. Adding or removing an expense brings the night's transfers
up to date at once (``settle_up_refresh``).

>>> expense_split(10, 3)
[4, 3, 3]
"""

from __future__ import annotations

from collections.abc import Iterable

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
    not_positive=gettext_noop("An expense is a positive whole amount."),
    too_much=gettext_noop("An expense is at most %(limit)s."),
    no_text=gettext_noop("Say what the expense was for, in at most %(count)s characters."),
)


def expense_split(amount: int, sharers: int) -> list[int]:
    """``amount`` split in whole units among ``sharers`` people listed in alphabetical
    order: the first ``amount % sharers`` of them pay one unit more."""
    base, remainder = divmod(amount, sharers)
    return [base + (1 if i < remainder else 0) for i in range(sharers)]


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
    amount: int,
    description: str,
    sharer_ids: Iterable[int] | None = None,
    by: User,
) -> Expense:
    """Add a shared expense to a night; ``sharer_ids`` None means everyone who played.

    Refused (``SettleUpError``, nothing changed) when the night is closed, the amount is
    not a positive whole number within the bounds, there is nobody to share it, or the
    payer or a sharer is not a player of the night.
    """
    event = _night_open(event_id)
    description = description.strip()
    problem = money_entry_problem(
        amount,
        description,
        limit=amounts.MONEY_MAX,
        text_max=DESCRIPTION_MAX,
        wording=EXPENSE_WORDING,
    )
    if problem:
        raise SettleUpError(problem)
    players = {player.pk: player for player in night_players(event)}
    if payer_id not in players:
        raise SettleUpError(_("The payer must be a player of this night."))
    sharers = list(players) if sharer_ids is None else list(dict.fromkeys(sharer_ids))
    if not sharers:
        raise SettleUpError(_("Choose at least one player to share the expense."))
    if any(pk not in players for pk in sharers):
        raise SettleUpError(_("Only players of this night can share its expenses."))
    expense = Expense.objects.create(
        event=event,
        payer_id=payer_id,
        amount=amount,
        description=description,
        created_by=by,
    )
    # Alphabetical, then by id: two players of one name keep a stable order.
    ordered = sorted(sharers, key=lambda pk: (name_key(players[pk].name), pk))
    ExpenseShare.objects.bulk_create(
        ExpenseShare(expense=expense, player_id=pk, amount=share)
        for pk, share in zip(ordered, expense_split(amount, len(ordered)), strict=True)
    )
    settle_up_refresh(event.pk)
    return expense


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
