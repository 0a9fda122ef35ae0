"""Prize pools, the built-in payout table, rounding to the money unit and shared places."""

from __future__ import annotations

import doctest
import random
from decimal import Decimal

import pytest

from tournaments import payouts as payouts_module
from tournaments.payouts import (
    FULL,
    MAX_TABLE_ENTRIES,
    PayoutError,
    parse_percentages,
    payout_percentages,
    payouts,
    prize_pool,
    shared_prizes,
    validate_percentages,
)


def test_docstring_examples() -> None:
    result = doctest.testmod(payouts_module)
    assert result.attempted > 0
    assert result.failed == 0


# ----------------------------------------------------------------------------- prize pool


def test_pool_counts_buy_ins_rebuys_and_add_ons() -> None:
    # 15 entries at 20, 4 rebuys at 20, 9 add-ons at 10: 300 + 80 + 90.
    assert prize_pool(buy_ins=15, buy_in=20, rebuys=4, addons=9, addon=10) == 470


def test_pool_leaves_fees_out_because_callers_pass_the_prize_part() -> None:
    # A "20+5" event: the 5 is the house's and never reaches the pool.
    assert prize_pool(buy_ins=10, buy_in=20) == 200


def test_rebuy_and_add_on_default_to_the_buy_in() -> None:
    assert prize_pool(buy_ins=10, buy_in=20, rebuys=2, addons=3) == 300


def test_guarantee_is_a_floor_not_an_addition() -> None:
    assert prize_pool(buy_ins=2, buy_in=20, guarantee=100) == 100
    assert prize_pool(buy_ins=20, buy_in=20, guarantee=100) == 400


@pytest.mark.parametrize(
    "kwargs",
    [
        {"buy_ins": -1, "buy_in": 20},
        {"buy_ins": 2, "buy_in": -20},
        {"buy_ins": 2, "buy_in": 20, "rebuys": -1},
        {"buy_ins": 2, "buy_in": 20.5},
        {"buy_ins": True, "buy_in": 20},
    ],
)
def test_pool_refuses_negative_or_fractional_money(kwargs: dict[str, object]) -> None:
    with pytest.raises(PayoutError):
        prize_pool(**kwargs)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- the table


@pytest.mark.parametrize(
    ("entries", "expected"),
    [
        (1, [10000]),
        (3, [10000]),
        (4, [6500, 3500]),
        (6, [6500, 3500]),
        # The example: 50/30/20 up to 12 entries.
        (7, [5000, 3000, 2000]),
        (12, [5000, 3000, 2000]),
        (13, [4500, 2700, 1800, 1000]),
        (20, [4500, 2700, 1800, 1000]),
        (21, [4000, 2500, 1600, 1100, 800]),
    ],
)
def test_small_fields_pay_the_home_game_sheet(entries: int, expected: list[int]) -> None:
    assert payout_percentages(entries) == expected


def test_every_row_is_a_valid_table_that_widens_with_the_field() -> None:
    places_before = 0
    for entries in range(1, MAX_TABLE_ENTRIES + 1):
        shares = payout_percentages(entries)
        validate_percentages(shares)
        assert places_before <= len(shares) <= entries
        places_before = len(shares)
    assert places_before == 45


def test_about_one_in_nine_is_paid_in_big_fields() -> None:
    for entries in (100, 150, 200, 300, 400, 500):
        assert 0.08 <= len(payout_percentages(entries)) / entries <= 0.13


def test_the_last_place_paid_gets_more_than_its_buy_in_back() -> None:
    # Checked at every field size, so at each row's smallest field too, where the same shares
    # are spread over the fewest buy-ins: the home sheet's last place gets 1.3 buy-ins or more,
    # and from 21 entries on at least 1.5.
    for entries in range(4, MAX_TABLE_ENTRIES + 1):
        least = 1.5 if entries >= 21 else 1.3
        assert payout_percentages(entries)[-1] * entries >= least * FULL


def test_fields_past_the_table_ask_for_the_directors_percentages() -> None:
    with pytest.raises(PayoutError, match="enter your own percentages for 501"):
        payout_percentages(MAX_TABLE_ENTRIES + 1)


@pytest.mark.parametrize("entries", [0, -3])
def test_no_entries_no_payouts(entries: int) -> None:
    with pytest.raises(PayoutError, match="at least one entry"):
        payout_percentages(entries)


# ----------------------------------------------------------------------------- validation


def test_a_table_that_does_not_add_up_to_100_percent_gets_a_clear_error() -> None:
    with pytest.raises(PayoutError, match=r"add up to 95.00%, not 100%"):
        validate_percentages([5000, 3000, 1500])
    with pytest.raises(PayoutError, match=r"add up to 100.01%, not 100%"):
        validate_percentages([5001, 3000, 2000])


def test_a_negative_or_zero_share_is_refused() -> None:
    with pytest.raises(PayoutError, match=r"place 3 pays -5.00%"):
        validate_percentages([7000, 3500, -500])
    with pytest.raises(PayoutError, match=r"place 2 pays 0.00%"):
        validate_percentages([10000, 0])


def test_a_lower_place_may_not_pay_more() -> None:
    with pytest.raises(PayoutError, match=r"place 2 pays 60.00%, more than place 1's 40.00%"):
        validate_percentages([4000, 6000])


def test_equal_neighbouring_shares_are_fine() -> None:
    validate_percentages([4000, 2000, 2000, 2000])


def test_an_empty_table_is_refused() -> None:
    with pytest.raises(PayoutError, match="at least one place"):
        validate_percentages([])


def test_directors_percentages_are_read_exactly() -> None:
    assert parse_percentages(["50%", " 30.25 ", Decimal("19.75")]) == [5000, 3025, 1975]
    assert parse_percentages([100]) == [10000]


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (["50", "30", "20.001"], "more than two decimals"),
        (["50", "thirty", "20"], "'thirty' is not a percentage"),
        (["50", "NaN", "20"], "is not a percentage"),
        ([50.0, 50.0], "as text or a Decimal"),
        (["60", "30"], r"add up to 90.00%"),
    ],
)
def test_directors_percentages_that_cannot_be_paid(values: list[object], message: str) -> None:
    with pytest.raises(PayoutError, match=message):
        parse_percentages(values)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- rounding


def test_prizes_round_down_to_the_unit_with_the_remainder_to_first() -> None:
    # 470 at 50/30/20 with a unit of 5: 235, 141 -> 140, 94 -> 90; first gets 235 + 5.
    assert payouts(470, [5000, 3000, 2000], unit=5) == [240, 140, 90]


def test_prizes_always_add_up_to_the_pool_and_stay_in_order() -> None:
    rng = random.Random(11)
    for _ in range(2000):
        entries = rng.randint(1, MAX_TABLE_ENTRIES)
        pool = rng.randint(0, 10**7)
        unit = rng.choice([1, 5, 25, 100, 500, 1000])
        prizes = payouts(pool, payout_percentages(entries), unit)
        assert sum(prizes) == pool
        assert all(prize % unit == 0 for prize in prizes[1:])
        assert prizes == sorted(prizes, reverse=True)


def test_payouts_check_the_table_first() -> None:
    with pytest.raises(PayoutError, match="add up to"):
        payouts(1000, [5000, 4000], unit=1)


@pytest.mark.parametrize("unit", [0, -5, 2.5])
def test_the_money_unit_is_a_positive_whole_number(unit: object) -> None:
    with pytest.raises(PayoutError, match="money unit"):
        payouts(1000, [10000], unit=unit)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- ties


def test_players_tied_for_places_share_those_places_prizes() -> None:
    # docs/rules.md, Eliminations: "equal stacks share the places and their prizes".
    # Tied for 2nd and 3rd: (300 + 200) / 2 each.
    assert shared_prizes([500, 300, 200], places=[1, 2, 2]) == [500, 250, 250]


def test_a_tie_across_the_bubble_shares_the_last_prize() -> None:
    # Three paid; two players out together in 3rd and 4th share 3rd's prize with 4th's 0.
    assert shared_prizes([500, 300, 200], places=[1, 2, 3, 3]) == [500, 300, 100, 100]


def test_the_odd_unit_of_a_shared_prize_goes_to_the_first_tied_player_listed() -> None:
    # 300 + 200 + 100 = 600 among 3 is 200 each; 301 + 200 + 100 = 601 is 200, 200, 200 and 1.
    assert shared_prizes([301, 200, 100], places=[1, 1, 1]) == [201, 200, 200]
    # With a unit of 25: 500 / 2 = 250, 510 / 2 = 255 -> 250 each and 10 over to the first.
    assert shared_prizes([300, 210], places=[1, 1], unit=25) == [260, 250]
    assert shared_prizes([300, 210], places=[1, 1], unit=25)[::-1] == [250, 260]


def test_sharing_never_creates_or_loses_money() -> None:
    rng = random.Random(5)
    for _ in range(500):
        prizes = sorted((rng.randint(0, 5000) for _ in range(rng.randint(1, 9))), reverse=True)
        places: list[int] = []
        place = 1
        while place <= len(prizes) + 2:
            tied = rng.choice([1, 1, 1, 2, 3])
            places += [place] * tied
            place += tied
        won = shared_prizes(prizes, places, unit=rng.choice([1, 5, 25]))
        assert sum(won) == sum(prizes)


def test_players_not_listed_are_not_affected() -> None:
    assert shared_prizes([500, 300, 200], places=[3, 3]) == [100, 100]


def test_overlapping_places_are_refused() -> None:
    # Two players tied for 2nd take 2nd and 3rd: nobody can also be 3rd.
    with pytest.raises(PayoutError, match="place 3 is taken by the players tied for place 2"):
        shared_prizes([500, 300, 200], places=[1, 2, 2, 3])


def test_a_place_below_one_is_refused() -> None:
    with pytest.raises(PayoutError, match="1 or more"):
        shared_prizes([500, 300], places=[0, 1])
