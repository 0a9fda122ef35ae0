"""ICM and chip-chop deals: exact equities, and amounts that add up to the prizes left."""

from __future__ import annotations

import doctest
import itertools
import random
from collections.abc import Sequence
from fractions import Fraction

import pytest

from tests.work import python_lines
from tournaments import icm as icm_module
from tournaments.icm import MAX_ICM_PLAYERS, chip_chop, icm, icm_deal
from tournaments.payouts import PayoutError


def test_docstring_examples() -> None:
    result = doctest.testmod(icm_module)
    assert result.attempted > 0
    assert result.failed == 0


def brute_force_icm(stacks: Sequence[int], prizes: Sequence[int]) -> list[Fraction]:
    """Malmuth-Harville by the definition: every finishing order, one at a time."""
    equity = [Fraction(0)] * len(stacks)
    for order in itertools.permutations(range(len(stacks))):
        chance = Fraction(1)
        left = sum(stacks)
        for player in order:
            chance *= Fraction(stacks[player], left)
            left -= stacks[player]
        for place, player in enumerate(order[: len(prizes)]):
            equity[player] += chance * prizes[place]
    return equity


def test_two_players_by_hand() -> None:
    # 6000 v 4000 for 300 and 200: the big stack wins 60% of the time.
    # 0.6 * 300 + 0.4 * 200 = 260; 0.4 * 300 + 0.6 * 200 = 240.
    assert icm([6000, 4000], [300, 200]) == [260, 240]


def test_three_players_by_hand() -> None:
    # Stacks A 5000, B 3000, C 2000 (10000 in play) for 500, 300 and 200.
    # First:  A 1/2, B 3/10, C 1/5.
    # Second: A = 3/10 * 5/7 + 1/5 * 5/8 = 3/14 + 1/8 = 19/56
    #         B = 1/2 * 3/5 + 1/5 * 3/8 = 3/10 + 3/40 = 3/8
    #         C = 1/2 * 2/5 + 3/10 * 2/7 = 1/5 + 3/35 = 2/7
    # Third:  A = 1 - 1/2 - 19/56 = 9/56; B = 1 - 3/10 - 3/8 = 13/40; C = 1 - 1/5 - 2/7 = 18/35
    # A: 500/2 + 300 * 19/56 + 200 * 9/56 = 250 + 5700/56 + 1800/56 = 250 + 7500/56 = 5375/14
    # B: 150 + 112.5 + 65 = 327.5
    # C: 100 + 600/7 + 720/7 = 100 + 1320/7 = 2020/7 (about 288.57)
    assert icm([5000, 3000, 2000], [500, 300, 200]) == [
        Fraction(5375, 14),
        Fraction(655, 2),
        Fraction(2020, 7),
    ]


def test_a_bubble_with_fewer_prizes_than_players() -> None:
    # Equal stacks, three players, two prizes: each has a third of 500.
    assert icm([100, 100, 100], [300, 200]) == [Fraction(500, 3)] * 3
    # 2 of 3 paid, stacks 2:1:1 for 200 and 100. A wins 1/2; A second: 1/4*2/3 * 2 = 1/3.
    # A = 100 + 100/3 = 400/3; B and C split the rest: (300 - 400/3) / 2 = 250/3.
    assert icm([2, 1, 1], [200, 100]) == [Fraction(400, 3), Fraction(250, 3), Fraction(250, 3)]


def test_matches_every_finishing_order_on_random_cases() -> None:
    rng = random.Random(3)
    for _ in range(60):
        players = rng.randint(1, 6)
        stacks = [rng.randint(1, 50_000) for _ in range(players)]
        prizes = sorted(rng.randint(0, 10_000) for _ in range(rng.randint(1, players)))[::-1]
        assert icm(stacks, prizes) == brute_force_icm(stacks, prizes)


def test_equities_add_up_to_the_prizes_and_follow_the_stacks() -> None:
    rng = random.Random(4)
    for _ in range(30):
        players = rng.randint(2, 8)
        stacks = [rng.randint(1, 10**6) for _ in range(players)]
        prizes = sorted((rng.randint(0, 10**5) for _ in range(players)), reverse=True)
        equity = icm(stacks, prizes)
        assert sum(equity) == sum(prizes)
        by_stack = sorted(range(players), key=lambda i: stacks[i])
        assert [equity[i] for i in by_stack] == sorted(equity)


def test_ten_players_take_a_bounded_amount_of_work() -> None:
    # Ten stacks of up to a million chips: 52,474 lines of Python today (25-50 ms on the
    # 2-core box); counted, not timed, so a busy neighbour cannot fail it and a slower
    # algorithm (a walk over every finishing order, 3.6 million of them) cannot pass it.
    rng = random.Random(10)
    stacks = [rng.randint(1, 10**6) for _ in range(10)]
    prizes = sorted((rng.randint(1, 10**5) for _ in range(10)), reverse=True)
    with python_lines(200_000, "ICM of ten players does more work than it should"):
        equity = icm(stacks, prizes)
    assert sum(equity) == sum(prizes)


def test_more_than_ten_players_are_refused_with_a_reason() -> None:
    with pytest.raises(PayoutError, match="at most 10 players, not 11"):
        icm([100] * (MAX_ICM_PLAYERS + 1), [500, 300, 200])


@pytest.mark.parametrize(
    ("stacks", "prizes", "message"),
    [
        ([], [100], "at least one player"),
        ([100, 0], [100], "needs chips"),
        ([100, -5], [100], "needs chips"),
        ([100, 100], [300, 200, 100], "3 prizes left for 2 players"),
        ([100, 100], [300, -1], "0 or more"),
    ],
)
def test_bad_deals_are_refused(stacks: list[int], prizes: list[int], message: str) -> None:
    with pytest.raises(PayoutError, match=message):
        icm(stacks, prizes)


# ----------------------------------------------------------------------------- deals


def test_icm_deal_rounds_to_the_unit_and_adds_up_exactly() -> None:
    # 5375/14 = 383.93, 327.5, 288.57: 383 + 327 + 288 = 998, and the two units left go to the
    # largest remainders (.93, .57).
    assert icm_deal([5000, 3000, 2000], [500, 300, 200], unit=1) == [384, 327, 289]
    # In tens: 380 + 320 + 280 = 980; remainders 3.93, 7.5, 8.57 take the 20 left to C and B.
    assert icm_deal([5000, 3000, 2000], [500, 300, 200], unit=10) == [380, 330, 290]


def test_equal_stacks_split_evenly_and_the_odd_unit_goes_to_the_first() -> None:
    assert icm_deal([100, 100, 100], [600, 300, 100], unit=1) == [334, 333, 333]


def test_prizes_that_are_not_a_multiple_of_the_unit_leave_the_odd_amount_to_the_leader() -> None:
    deal = icm_deal([3000, 7000], [503, 300], unit=5)
    assert sum(deal) == 803
    assert deal[0] % 5 == 0 and deal[1] % 5 == 3


def test_deals_always_add_up_and_keep_bigger_stacks_ahead() -> None:
    rng = random.Random(8)
    for _ in range(200):
        players = rng.randint(1, 7)
        stacks = [rng.randint(1, 10**5) for _ in range(players)]
        prizes = sorted(rng.randint(0, 10**5) for _ in range(rng.randint(1, players)))[::-1]
        unit = rng.choice([1, 5, 25, 100])
        for deal in (icm_deal(stacks, prizes, unit), chip_chop(stacks, prizes, unit)):
            assert sum(deal) == sum(prizes)
            by_stack = sorted(range(players), key=lambda i: (stacks[i], -i))
            amounts = [deal[i] for i in by_stack]
            if sum(prizes) % unit == 0:
                assert amounts == sorted(amounts)


def test_chip_chop_guarantees_the_last_prize_and_splits_the_rest_by_chips() -> None:
    # 7000/2000/1000 for 500/300/200: 200 each, then 400 by chips: 280, 80, 40.
    assert chip_chop([7000, 2000, 1000], [500, 300, 200], unit=1) == [480, 280, 240]


def test_chip_chop_with_unpaid_places_splits_everything_by_chips() -> None:
    # Four left, three paid: the last place pays 0, so it is a pure chip split of 1000.
    assert chip_chop([4000, 3000, 2000, 1000], [500, 300, 200], unit=1) == [400, 300, 200, 100]


def test_chip_chop_rounds_like_icm() -> None:
    # 1000 by chips 1:1:1 = 333.33 each; units of 10: 330 each and 10 to the first.
    assert chip_chop([5, 5, 5], [500, 300, 200], unit=10) == [340, 330, 330]


def test_chip_chop_can_pay_a_big_leader_more_than_first_prize() -> None:
    # Which is why it is only a proposal: ICM never pays more than first.
    stacks, prizes = [98, 1, 1], [500, 300, 200]
    assert chip_chop(stacks, prizes)[0] > 500
    assert icm_deal(stacks, prizes)[0] <= 500


@pytest.mark.parametrize("unit", [0, -1, 2.5])
def test_deals_need_a_positive_unit(unit: object) -> None:
    with pytest.raises(PayoutError, match="money unit"):
        icm_deal([100, 100], [100], unit=unit)  # type: ignore[arg-type]
    with pytest.raises(PayoutError, match="money unit"):
        chip_chop([100, 100], [100], unit=unit)  # type: ignore[arg-type]
