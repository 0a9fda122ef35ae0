"""Who pays whom after a night, with the fewest payments (pure Python, no Django).

Each player has a net result: what they won minus what they paid in. The nets sum to zero,
and the settle-up is a list of payments from those below zero to those above it.

``n`` players with a nonzero net can always settle in ``n - 1`` payments (each payment
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

# Players with a nonzero net up to which the fewest payments are found exactly.
EXACT_LIMIT = 15


class SettleError(ValueError):
    """The nets cannot be settled: they do not sum to zero."""


@dataclass(frozen=True)
class Payment(Generic[K]):
    payer: K
    payee: K
    amount: int


def settle(nets: Mapping[K, int]) -> list[Payment[K]]:
    """The payments that settle ``nets`` (player -> won minus paid in), fewest first.

    Exact (the fewest possible) when at most ``EXACT_LIMIT`` players have a nonzero net; at
    most one fewer payments than players otherwise. The order of ``nets`` breaks ties, so
    the same nets always give the same payments. Raises ``SettleError`` when the nets do not
    sum to zero.
    """
    total = sum(nets.values())
    if total:
        raise SettleError(f"the nets sum to {total}, not 0: someone's result is missing")
    players = [player for player, net in nets.items() if net]
    if len(players) > EXACT_LIMIT:
        return _greedy(players, nets)
    payments: list[Payment[K]] = []
    for group in zero_sum_groups([nets[p] for p in players]):
        payments.extend(_greedy([players[i] for i in group], nets))
    return payments


def fewest_payments(nets: Sequence[int]) -> int:
    """The fewest payments that settle ``nets`` (exact; for the tests and small fields)."""
    values = [net for net in nets if net]
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


def _greedy(players: Sequence[K], nets: Mapping[K, int]) -> list[Payment[K]]:
    """The largest debtor pays the largest creditor until everyone is square.

    Each payment settles at least one of the two, and the last settles both, so ``m``
    players with a nonzero net (summing to zero) need at most ``m - 1`` payments.
    """
    left = {player: nets[player] for player in players}
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
