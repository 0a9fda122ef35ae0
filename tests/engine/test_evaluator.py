"""Omaha hand values: two hole cards and three board cards, high and 8-or-better low."""

import random

from pokerkit import OmahaEightOrBetterLowHand, OmahaHoldemHand

from tables.engine.cards import cards_str, parse_cards
from tables.engine.evaluator import (
    best_high,
    best_low,
    describe_high,
    describe_low,
    high_value,
    low_value,
)


def _sign(a: int, b: int) -> int:
    return (a > b) - (a < b)


def test_high_orders_like_pokerkit_on_random_hands() -> None:
    rng = random.Random(3)
    for _ in range(1500):
        deck = list(range(52))
        rng.shuffle(deck)
        board = deck[8 : 8 + rng.choice((3, 4, 5))]
        a, b = deck[:4], deck[4:8]
        ours = _sign(high_value(a, board), high_value(b, board))
        theirs_a = OmahaHoldemHand.from_game(cards_str(a), cards_str(board))
        theirs_b = OmahaHoldemHand.from_game(cards_str(b), cards_str(board))
        assert ours == (theirs_a > theirs_b) - (theirs_a < theirs_b), cards_str(a + b + board)


def _pokerkit_low(hole: list[int], board: list[int]) -> OmahaEightOrBetterLowHand | None:
    try:
        return OmahaEightOrBetterLowHand.from_game(cards_str(hole), cards_str(board))
    except ValueError:
        return None


def test_low_orders_like_pokerkit_on_random_hands() -> None:
    rng = random.Random(4)
    for _ in range(1500):
        deck = list(range(52))
        rng.shuffle(deck)
        board = deck[8 : 8 + rng.choice((3, 4, 5))]
        a, b = deck[:4], deck[4:8]
        ours_a, ours_b = low_value(a, board), low_value(b, board)
        theirs_a, theirs_b = _pokerkit_low(a, board), _pokerkit_low(b, board)
        assert (ours_a is None) == (theirs_a is None), cards_str(a + board)
        if ours_a is not None and ours_b is not None:
            assert theirs_a is not None and theirs_b is not None
            expected = (theirs_a > theirs_b) - (theirs_a < theirs_b)
            assert _sign(ours_a, ours_b) == expected, cards_str(a + b + board)


def test_best_high_names_the_five_cards() -> None:
    value, used = best_high(parse_cards("AsAdKc2h"), parse_cards("AhKdKh7c"))
    assert describe_high(value) == "Full house, aces full of kings"
    assert sorted(used) == sorted(parse_cards("AsAdAhKdKh"))


def test_best_low_names_the_five_cards() -> None:
    found = best_low(parse_cards("As2d9c9h"), parse_cards("3h5d8cKs"))
    assert found is not None
    value, used = found
    assert describe_low(value) == "8-5-3-2-A"
    assert sorted(used) == sorted(parse_cards("As2d3h5d8c"))
