"""The settle-up's arithmetic on worked examples (series.settle, pure)."""

import random
from collections.abc import Iterator

import pytest

from series.settle import (
    EXACT_LIMIT,
    Payment,
    SettleError,
    _greedy,
    fewest_payments,
    settle,
    zero_sum_groups,
)


def balances_after(nets: dict[str, int], payments: list[Payment[str]]) -> dict[str, int]:
    left = dict(nets)
    for payment in payments:
        assert payment.amount > 0 and payment.payer != payment.payee
        left[payment.payer] += payment.amount
        left[payment.payee] -= payment.amount
    return left


def test_one_loser_pays_the_two_winners() -> None:
    # Ann won 30, Cal 10; Ben lost 40: two payments, both from Ben.
    payments = settle({"ann": 30, "ben": -40, "cal": 10})
    assert payments == [Payment("ben", "ann", 30), Payment("ben", "cal", 10)]


def test_everyone_square_means_no_payments() -> None:
    assert settle({"ann": 0, "ben": 0}) == []
    assert settle({}) == []


def test_the_greedy_is_not_always_the_fewest_but_the_exact_is() -> None:
    # Winners +30, +20, +20; losers -40, -30. The greedy pays the largest creditor from
    # the largest debtor: ben->ann 30, cal->dee 20, ben->eve 10, cal->eve 10: four payments.
    # Two groups sum to zero on their own, {ann +30, cal -30} and {dee +20, eve +20,
    # ben -40}: 5 players - 2 groups = 3 payments.
    nets = {"ann": 30, "ben": -40, "cal": -30, "dee": 20, "eve": 20}
    greedy = _greedy(list(nets), nets)
    assert len(greedy) == 4
    payments = settle(nets)
    assert len(payments) == 3 == fewest_payments(list(nets.values()))
    assert set(payments) == {
        Payment("cal", "ann", 30),
        Payment("ben", "dee", 20),
        Payment("ben", "eve", 20),
    }
    assert all(v == 0 for v in balances_after(nets, payments).values())


def test_pairs_that_cancel_pay_each_other() -> None:
    # Three pairs who each won and lost the same: three payments, not five.
    nets = {"a": 50, "b": -50, "c": 25, "d": -25, "e": 10, "f": -10}
    assert sorted((p.payer, p.payee, p.amount) for p in settle(nets)) == [
        ("b", "a", 50),
        ("d", "c", 25),
        ("f", "e", 10),
    ]


def test_nets_that_do_not_sum_to_zero_are_refused() -> None:
    with pytest.raises(SettleError, match="sum to 5"):
        settle({"ann": 30, "ben": -25})


def partitions(n: int) -> Iterator[list[int]]:
    """Every way to split players 0..n-1 into groups, once each: a player's group is one the
    players before them opened, or a new one (restricted growth strings)."""
    if n == 0:
        yield []
        return
    for labels in partitions(n - 1):
        for label in range(max(labels, default=-1) + 2):
            yield [*labels, label]


def brute_force_fewest(values: list[int]) -> int:
    """The most zero-sum groups by trying every split of the players into groups."""
    best = 0
    for labels in partitions(len(values)):
        sums: dict[int, int] = {}
        for label, value in zip(labels, values, strict=True):
            sums[label] = sums.get(label, 0) + value
        if all(s == 0 for s in sums.values()):
            best = max(best, len(sums))
    return len(values) - best


def test_partitions_are_every_split_once() -> None:
    # The Bell numbers: 1, 1, 2, 5, 15, 52, 203, 877 splits of 0 to 7 players.
    for n, bell in enumerate([1, 1, 2, 5, 15, 52, 203, 877]):
        splits = [tuple(labels) for labels in partitions(n)]
        assert len(splits) == len(set(splits)) == bell


def test_the_exact_search_matches_brute_force_on_small_fields() -> None:
    rng = random.Random(12)
    for _ in range(60):
        values = [rng.choice([-3, -2, -1, 1, 2, 3]) * 10 for _ in range(rng.randint(2, 6))]
        values.append(-sum(values))
        values = [v for v in values if v]
        if not values:
            continue
        fewest = brute_force_fewest(values)
        assert fewest_payments(values) == fewest, values
        nets = {f"p{i}": v for i, v in enumerate(values)}
        payments = settle(nets)
        assert len(payments) == fewest
        assert all(v == 0 for v in balances_after(nets, payments).values())


def test_fifteen_players_are_exact() -> None:
    # Seven pairs that cancel and a single player who is square: 7 payments.
    nets = {f"p{i}": (i + 1) * 10 for i in range(7)}
    nets |= {f"q{i}": -(i + 1) * 10 for i in range(7)}
    nets["z"] = 0
    nets["y"] = 5
    nets["q0"] -= 5
    assert len([n for n in nets.values() if n]) == EXACT_LIMIT
    payments = settle(nets)
    # {y +5, p0 +10, q0 -15} is one group, the six other pairs are six: 15 - 7 = 8.
    assert len(payments) == 8
    assert all(v == 0 for v in balances_after(nets, payments).values())


def test_beyond_fifteen_players_at_most_one_fewer_payments_than_players() -> None:
    rng = random.Random(7)
    for size in (16, 25, 40):
        values = [rng.randint(-200, 200) for _ in range(size - 1)]
        values.append(-sum(values))
        nets = {f"p{i}": v for i, v in enumerate(values)}
        payments = settle(nets)
        assert len(payments) <= len([v for v in values if v]) - 1
        assert all(v == 0 for v in balances_after(nets, payments).values())


def test_groups_cover_every_player_once() -> None:
    values = [30, -40, -30, 20, 20]
    groups = zero_sum_groups(values)
    assert sorted(i for g in groups for i in g) == [0, 1, 2, 3, 4]
    assert all(sum(values[i] for i in g) == 0 for g in groups) and len(groups) == 2


def test_the_same_nets_give_the_same_payments() -> None:
    nets = {"ann": 30, "ben": -40, "cal": -30, "dee": 20, "eve": 20}
    assert settle(nets) == settle(dict(nets))
