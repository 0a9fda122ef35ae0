"""The fewest transfers stay exact up to 15 non-zero balances, carried debts included:
n − (the most zero-sum groups), checked against a brute force on random cases."""

from __future__ import annotations

import random
from functools import cache

from series.settle import EXACT_LIMIT, Payment, fewest_payments, settle
from tests.work import python_lines


def most_zero_sum_groups(values: tuple[int, ...]) -> int:
    """By brute force over set partitions: the block holding the first remaining player is
    tried with every subset of the others."""

    @cache
    def best(mask: int) -> int:
        if not mask:
            return 0
        low = mask & -mask
        rest = mask ^ low
        most = -1
        sub = rest
        while True:
            block = sub | low
            if sum(v for i, v in enumerate(values) if block >> i & 1) == 0:
                after = best(mask ^ block)
                if after >= 0:
                    most = max(most, after + 1)
            if not sub:
                return most
            sub = (sub - 1) & rest

    return best((1 << len(values)) - 1)


def squared(balances: dict[int, int], payments: list[Payment[int]]) -> bool:
    left = dict(balances)
    for p in payments:
        assert p.amount > 0 and p.payer != p.payee
        left[p.payer] += p.amount
        left[p.payee] -= p.amount
    return not any(left.values())


def random_balances(rng: random.Random, size: int, spread: int) -> list[int]:
    values = [rng.choice([-1, 1]) * rng.randint(1, spread) for _ in range(size - 1)]
    values.append(-sum(values))
    return [v for v in values if v]


def test_fewest_payments_match_the_brute_force_on_random_cases() -> None:
    rng = random.Random(2026)
    for _ in range(300):
        # Small spreads make many zero-sum groups, the hard cases for a search.
        values = random_balances(rng, rng.randint(2, 11), rng.choice([3, 6, 20]))
        if not values:
            continue
        exact = len(values) - most_zero_sum_groups(tuple(values))
        assert fewest_payments(values) == exact, values
        balances = dict(enumerate(values))
        payments = settle(balances)
        assert len(payments) == exact and squared(balances, payments), values


def test_carried_debts_are_covered_by_the_same_fewest_payments() -> None:
    # Tonight Cal won 20 of Ann's money; from last time Cal still owes Ann 20: square.
    tonight = {"ann": -20, "cal": 20, "dee": 0}
    carried = {"ann": 20, "cal": -20, "dee": 0}
    assert settle({k: tonight[k] + carried[k] for k in tonight}) == []
    # Tonight Ann +30 and Ben -30; carried, Dee owes Ben 30: one payment, Dee to Ann,
    # where settling each apart would take two.
    tonight = {"ann": 30, "ben": -30, "dee": 0}
    carried = {"ann": 0, "ben": 30, "dee": -30}
    together = {k: tonight[k] + carried[k] for k in tonight}
    assert settle(together) == [Payment("dee", "ann", 30)]


def test_fifteen_balances_are_exact_and_fast() -> None:
    rng = random.Random(15)
    for spread in (2, 3, 5, 50, 500):
        for _ in range(4):
            values = random_balances(rng, EXACT_LIMIT, spread)
            while len(values) < EXACT_LIMIT:
                values = random_balances(rng, EXACT_LIMIT, spread)
            balances = dict(enumerate(values))
            payments = settle(balances)
            assert squared(balances, payments)
            assert len(payments) == fewest_payments(values)
    # The search looks at 2**15 subsets: the widest of these fields runs 1,259,452 lines of
    # Python today (about 0.03 s); counted, not timed, so only a slower search fails it.
    with python_lines(3_000_000, "settling fifteen balances does more work than it should"):
        settle(balances)
