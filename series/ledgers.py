"""Money across a season, read: each player's ledger and the season pot's.

A player's ledger lists, night by night, what moves their balance: the night's result (what
they have to settle from the prize pool, fees apart), expenses they paid and their shares of
expenses, and payments marked paid (paying raises the balance, receiving lowers it). A debt
carried at a night's close is shown too but counts nothing: it is the same money, still
owed, moving to the next night's settle-up. The balance is what the player is owed across
the season (below zero: what they owe). A ledger counts in cents, as the night's money does
(``series.services.settle``): a result's whole amount times ``CENTS``, expenses, shares,
payments and debts as stored.

The season pot takes ``Season.season_pot_per_entry`` from each entry's fee of every
finished event (never more than the event's fees) and pays out what the director enters
(``SeasonPotPayout``: the final event's added prize, a trophy).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import F, Q, Sum
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core import amounts
from series.models import (
    CarriedDebt,
    Event,
    Expense,
    ExpenseShare,
    NightClose,
    PaymentHandle,
    Player,
    Result,
    Season,
    SeasonPotPayout,
    Transfer,
)
from series.services.settle import SettleLine, settle_line


@dataclass(frozen=True)
class LedgerEntry:
    event: Event
    text: str
    # In cents, from the player's side: above zero they are owed more (or owe less).
    amount: int
    # A carried debt is shown, not counted: the same money moves to the next night.
    counts: bool
    balance: int


@dataclass(frozen=True)
class Debt:
    """Money owed now, from a night not yet closed or carried and not yet taken in (in
    cents)."""

    event: Event
    other: Player
    amount: int
    carried: bool
    # The payee's payment handle: only on a debt the reader owes.
    handle: str = ""


@dataclass
class Ledger:
    player: Player
    season: Season
    entries: list[LedgerEntry] = field(default_factory=list)
    owes: list[Debt] = field(default_factory=list)
    owed: list[Debt] = field(default_factory=list)

    @property
    def balance(self) -> int:
        return self.entries[-1].balance if self.entries else 0


def handles_of(player_ids: set[int]) -> dict[int, str]:
    """The payment handles of ``player_ids``: only for the payees of a debt the reader owes."""
    return dict(
        PaymentHandle.objects.filter(player_id__in=player_ids).values_list("player_id", "text")
    )


def player_ledger(player: Player, season: Season, *, with_handles: bool = False) -> Ledger:
    """``player``'s ledger of ``season``. ``with_handles``: the reader is the player, so the
    debts they owe show how to pay each payee."""
    debts = list(
        CarriedDebt.objects.filter(
            Q(payer=player) | Q(payee=player), origin__season=season
        ).select_related("origin", "payer", "payee", "settled_in")
    )
    rows = _money_rows(player, season, debts)
    rows.sort(key=lambda row: (row[0].starts_at, row[0].pk, row[1]))
    ledger = Ledger(player=player, season=season)
    balance = 0
    for event, _kind, text, amount, counts in rows:
        if counts:
            balance += amount
        ledger.entries.append(LedgerEntry(event, text, amount, counts, balance))
    _debts_open(ledger, debts)
    if with_handles and ledger.owes:
        handles = handles_of({d.other.pk for d in ledger.owes})
        ledger.owes = [
            Debt(d.event, d.other, d.amount, d.carried, handles.get(d.other.pk, ""))
            for d in ledger.owes
        ]
    return ledger


# A line of a ledger before the lines are put in order: its night, its kind's place in the
# night, its text, its amount in cents (positive: the player is owed it) and whether it
# counts in the balance (a carried debt only reminds: its night's lines counted it).
_Row = tuple[Event, int, str, int, bool]


def _money_rows(player: Player, season: Season, debts: list[CarriedDebt]) -> list[_Row]:
    """Every line of money ``player`` has in ``season``: each night's result, what they paid
    for and their shares, the transfers paid, and the debts carried at a close."""
    rows: list[_Row] = []
    results = Result.objects.filter(player=player, event__season=season).select_related(
        "event", "player"
    )
    for result in results:
        line = settle_line(result, result.event)
        text = _("Result of the night (prize pool, fees apart)")
        rows.append((result.event, 0, text, line.to_settle * amounts.CENTS, True))
    expenses = Expense.objects.filter(payer=player, event__season=season).select_related("event")
    for expense in expenses:
        text = _("Paid for “%(what)s”") % {"what": expense.description}
        rows.append((expense.event, 1, text, expense.amount_cents, True))
    shares = ExpenseShare.objects.filter(
        player=player, expense__event__season=season
    ).select_related("expense__event")
    for share in shares:
        text = _("Share of “%(what)s”") % {"what": share.expense.description}
        rows.append((share.expense.event, 2, text, -share.amount_cents, True))
    transfers = Transfer.objects.filter(
        Q(payer=player) | Q(payee=player), event__season=season, paid_at__isnull=False
    ).select_related("event", "payer", "payee")
    for t in transfers:
        if t.payer_id == player.pk:
            text = _("Paid %(name)s") % {"name": t.payee.name}
            rows.append((t.event, 3, text, t.amount_cents, True))
        else:
            text = _("Received from %(name)s") % {"name": t.payer.name}
            rows.append((t.event, 3, text, -t.amount_cents, True))
    for debt in debts:
        text = _("Unpaid at the close, carried: %(payer)s owes %(payee)s") % {
            "payer": debt.payer.name,
            "payee": debt.payee.name,
        }
        amount = -debt.amount_cents if debt.payer_id == player.pk else debt.amount_cents
        rows.append((debt.origin, 4, text, amount, False))
    return rows


def _debts_open(ledger: Ledger, debts: list[CarriedDebt]) -> None:
    """Fill ``ledger.owes`` and ``ledger.owed``: the transfers of nights not yet closed that
    are still unpaid, and the debts carried at a close that no later night has covered."""
    player, season = ledger.player, ledger.season
    closed = set(NightClose.objects.filter(event__season=season).values_list("event_id", flat=True))
    unpaid = Transfer.objects.filter(
        Q(payer=player) | Q(payee=player), event__season=season, paid_at__isnull=True
    ).select_related("event", "payer", "payee")
    for t in unpaid:
        if t.event_id in closed:
            continue  # carried: listed below as a carried debt if not taken in yet
        if t.payer_id == player.pk:
            ledger.owes.append(Debt(t.event, t.payee, t.amount_cents, carried=False))
        else:
            ledger.owed.append(Debt(t.event, t.payer, t.amount_cents, carried=False))
    for debt in debts:
        if debt.settled_in_id is not None:
            continue  # a later night's transfers cover it
        if debt.payer_id == player.pk:
            ledger.owes.append(Debt(debt.origin, debt.payee, debt.amount_cents, carried=True))
        else:
            ledger.owed.append(Debt(debt.origin, debt.payer, debt.amount_cents, carried=True))


def ledger_balances(player: Player) -> list[tuple[Season, int]]:
    """The player's balance in each season they played (``player_ledger``'s last balance,
    in cents), latest season first: two queries, whatever the number of seasons."""
    seasons: dict[int, Season] = {}
    balances: dict[int, int] = {}
    results = Result.objects.filter(player=player).select_related("event__season", "player")
    for result in results:
        season = seasons.setdefault(result.event.season_id, result.event.season)
        line = settle_line(result, result.event)
        balances[season.pk] = balances.get(season.pk, 0) + line.to_settle * amounts.CENTS
    # What else counts in a ledger, from the player's side, as (season, amount): a carried
    # debt counts nothing (the same money moves to the next night's settle-up).
    paid = Expense.objects.filter(payer=player).values_list("event__season_id", "amount_cents")
    shares = ExpenseShare.objects.filter(player=player).values_list(
        "expense__event__season_id", -F("amount_cents")
    )
    done = Transfer.objects.filter(paid_at__isnull=False)
    sent = done.filter(payer=player).values_list("event__season_id", "amount_cents")
    received = done.filter(payee=player).values_list("event__season_id", -F("amount_cents"))
    moves = paid.order_by().union(shares.order_by(), sent.order_by(), received.order_by(), all=True)
    for season_id, amount in moves:
        if season_id in balances:
            balances[season_id] += amount
    ordered = sorted(seasons.values(), key=lambda season: (season.starts_on, season.pk))
    return [(season, balances[season.pk]) for season in reversed(ordered)]


@dataclass(frozen=True)
class PotIntake:
    """What one finished event put in the season pot: ``amount`` from its ``entries``."""

    event: Event
    entries: int
    amount: int


def pot_intake_of(lines: list[SettleLine], per_entry: int) -> int:
    """What a night's money lines put in the season pot: ``per_entry`` from each entry's fee
    (re-entries too), never more than the night's fees, since the pot is taken from them."""
    if not per_entry:
        return 0
    entries = sum(line.entries for line in lines)
    return min(sum(line.fees for line in lines), per_entry * entries)


def season_pot_intake(season: Season) -> list[PotIntake]:
    """What each finished event of ``season`` put in its pot, in calendar order (events that
    put nothing in are left out): one query, whatever the number of events."""
    per_entry = season.season_pot_per_entry
    if not per_entry:
        return []
    results = (
        Result.objects.filter(event__season=season, event__finished_at__isnull=False)
        .select_related("event", "player")
        .order_by("event__starts_at", "event__pk", "pk")
    )
    nights: dict[int, tuple[Event, list[SettleLine]]] = {}
    for result in results:
        nights.setdefault(result.event_id, (result.event, []))[1].append(
            settle_line(result, result.event)
        )
    intake = [
        PotIntake(event, sum(line.entries for line in lines), pot_intake_of(lines, per_entry))
        for event, lines in nights.values()
    ]
    return [item for item in intake if item.amount]


@dataclass(frozen=True)
class SeasonPot:
    """The season pot in sum: what its events put in, what the director paid out, what it
    holds (the pot page's last balance)."""

    per_entry: int
    entries: int
    taken_in: int
    paid_out: int

    @property
    def balance(self) -> int:
        return self.taken_in - self.paid_out


def season_pot(season: Season) -> SeasonPot:
    """The season pot of ``season`` in sum (the calendar's figure, the payouts' limit): two
    queries."""
    intake = season_pot_intake(season)
    paid_out = SeasonPotPayout.objects.filter(season=season).aggregate(total=Sum("amount"))
    return SeasonPot(
        per_entry=season.season_pot_per_entry,
        entries=sum(item.entries for item in intake),
        taken_in=sum(item.amount for item in intake),
        paid_out=paid_out["total"] or 0,
    )


@dataclass(frozen=True)
class PotLine:
    event: Event | None
    text: str
    amount: int  # above zero: into the pot; below: paid out
    balance: int
    payout: SeasonPotPayout | None = None
    entries: int = 0


def season_pot_ledger(season: Season) -> list[PotLine]:
    """The season pot, event by event: what each finished event's entries put in, what the
    director paid out of it (after its event when that event is finished, else at the end),
    and the balance after each line."""
    per_entry = season.season_pot_per_entry
    payouts = SeasonPotPayout.objects.filter(season=season).select_related("player", "event")
    # By the event's date and id, its intake before its payouts (the sort is stable: payouts
    # keep their order); a payout of an event not finished, or of none, after every event.
    moves: list[tuple[tuple[datetime, int, int], PotIntake | SeasonPotPayout]] = [
        ((item.event.starts_at, item.event.pk, 0), item) for item in season_pot_intake(season)
    ]
    at_end: list[SeasonPotPayout] = []
    for payout in payouts:
        event = payout.event
        if event is not None and event.finished_at is not None:
            moves.append(((event.starts_at, event.pk, 1), payout))
        else:
            at_end.append(payout)
    moves.sort(key=lambda move: move[0])
    lines: list[PotLine] = []
    balance = 0
    for move in [move for _at, move in moves] + at_end:
        if isinstance(move, PotIntake):
            balance += move.amount
            text = ngettext(
                "%(count)s entry × %(share)s", "%(count)s entries × %(share)s", move.entries
            ) % {"count": move.entries, "share": per_entry}
            lines.append(PotLine(move.event, text, move.amount, balance, entries=move.entries))
        else:
            balance -= move.amount
            text = _("Paid to %(name)s: %(reason)s") % {
                "name": move.player.name,
                "reason": move.reason,
            }
            lines.append(PotLine(move.event, text, -move.amount, balance, payout=move))
    return lines


def carried_user_ids(event: Event) -> set[int]:
    """The accounts in the debts ``event`` took in (they may read its settle-up, where
    those debts are settled, even when they did not play that night)."""
    debts = CarriedDebt.objects.filter(settled_in=event)
    return {
        pk
        for pair in debts.values_list("payer__user_id", "payee__user_id")
        for pk in pair
        if pk is not None
    }
