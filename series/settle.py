"""Who pays whom after a night, with the fewest payments (pure Python, no Django).

Each player has a balance to settle: what they won minus what they put in the prize pool.
The balances sum to zero, and the settle-up is a list of payments from those below zero to
those above it. (A player's net result, fees included, is ``series.net``'s: a different
number, so it is not called a balance here.)

``n`` players with a nonzero balance can always settle in ``n - 1`` payments (each payment
settles at least one player, and the last settles two). Fewer are possible when the players
split into groups that each sum to zero on their own: each group of ``m`` settles in
``m - 1``, so the fewest payments are ``n - g`` for the largest number ``g`` of zero-sum
groups. Finding ``g`` is hard in general; for up to ``EXACT_LIMIT`` players a dynamic
programme over the subsets finds it exactly (2**15 subsets, a fraction of a second). Beyond
that, the greedy "largest debtor pays the largest creditor" keeps within ``n - 1``.

>>> [(p.payer, p.payee, p.amount) for p in settle({"ann": 30, "ben": -40, "cal": 10})]
[('ben', 'ann', 30), ('ben', 'cal', 10)]
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)

# Players with a nonzero balance up to which the fewest payments are found exactly.
EXACT_LIMIT = 15


class SettleError(ValueError):
    """The balances cannot be settled: they do not sum to zero."""


@dataclass(frozen=True)
class Payment(Generic[K]):
    payer: K
    payee: K
    amount: int


def settle(balances: Mapping[K, int]) -> list[Payment[K]]:
    """The payments that settle ``balances`` (player -> won minus put in), fewest first.

    Exact (the fewest possible) when at most ``EXACT_LIMIT`` players have a nonzero
    balance; at most one fewer payments than players otherwise. The order of ``balances``
    breaks ties, so the same balances always give the same payments. Raises
    ``SettleError`` when the balances do not sum to zero.
    """
    total = sum(balances.values())
    if total:
        raise SettleError(f"the balances sum to {total}, not 0: someone's result is missing")
    players = [player for player, balance in balances.items() if balance]
    if len(players) > EXACT_LIMIT:
        return _greedy(players, balances)
    payments: list[Payment[K]] = []
    for group in zero_sum_groups([balances[p] for p in players]):
        payments.extend(_greedy([players[i] for i in group], balances))
    return payments


def fewest_payments(balances: Sequence[int]) -> int:
    """The fewest payments that settle ``balances`` (exact; for the tests and small fields)."""
    values = [balance for balance in balances if balance]
    return len(values) - len(zero_sum_groups(values))


def zero_sum_groups(values: Sequence[int]) -> list[list[int]]:
    """Split the indexes of ``values`` (nonzero, summing to zero) into the most groups that
    each sum to zero.

    ``best[mask]`` is the most zero-sum groups that a sequence of the players in ``mask``
    can be cut into, counting a prefix each time it sums to zero: adding one player to a
    smaller set and counting one more group when the whole set sums to zero. Walking back
    from the full set gives the order, and the zero-sum prefixes of that order are the groups.
    """
    n = len(values)
    if n == 0:
        return []
    if n > EXACT_LIMIT:
        raise SettleError(f"{n} players is too many to search exactly (at most {EXACT_LIMIT})")
    size = 1 << n
    sums = [0] * size
    best = [0] * size
    for mask in range(1, size):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask ^ (1 << low)] + values[low]
        most = 0
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] > most:
                most = best[mask ^ bit]
        best[mask] = most + (sums[mask] == 0)
    order: list[int] = []
    mask = size - 1
    while mask:
        wanted = best[mask] - (sums[mask] == 0)
        for i in range(n):
            bit = 1 << i
            if mask & bit and best[mask ^ bit] == wanted:
                order.append(i)
                mask ^= bit
                break
    order.reverse()
    groups: list[list[int]] = []
    current: list[int] = []
    running = 0
    for i in order:
        current.append(i)
        running += values[i]
        if running == 0:
            groups.append(current)
            current = []
    return groups


def _greedy(players: Sequence[K], balances: Mapping[K, int]) -> list[Payment[K]]:
    """The largest debtor pays the largest creditor until everyone is square.

    Each payment settles at least one of the two, and the last settles both, so ``m``
    players with a nonzero balance (summing to zero) need at most ``m - 1`` payments.
    """
    left = {player: balances[player] for player in players}
    rank = {player: i for i, player in enumerate(players)}
    payments: list[Payment[K]] = []
    while True:
        creditors = [p for p in players if left[p] > 0]
        debtors = [p for p in players if left[p] < 0]
        if not creditors or not debtors:
            return payments
        payee = max(creditors, key=lambda p: (left[p], -rank[p]))
        payer = min(debtors, key=lambda p: (left[p], rank[p]))
        amount = min(left[payee], -left[payer])
        payments.append(Payment(payer, payee, amount))
        left[payee] -= amount
        left[payer] += amount
