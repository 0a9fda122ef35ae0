"""Omaha hand values: two hole cards and three board cards, high and 8-or-better low."""

import random
from collections.abc import Sequence
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from phevaluator import evaluate_omaha_cards
from pokerkit import OmahaEightOrBetterLowHand, OmahaHoldemHand

from tables.engine.cards import Card, cards_str, parse_cards
from tables.engine.config import Game
from tables.engine.errors import RuleError
from tables.engine.evaluator import (
    FLUSH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    best_high,
    best_low,
    describe_high,
    describe_low,
    evaluate_many,
    five_card_high,
    five_card_low,
    high_category,
    high_low_values,
    high_value,
    low_value,
    prepare_tables,
    showdown_values,
)


def _sign(a: int, b: int) -> int:
    return (a > b) - (a < b)


def _high(hole: str, board: str) -> int:
    return high_value(parse_cards(hole), parse_cards(board))


def _low(hole: str, board: str) -> int | None:
    return low_value(parse_cards(hole), parse_cards(board))


def _deals(seed: int, count: int, board_sizes: Sequence[int] = (3, 4, 5)) -> list[list[Card]]:
    rng = random.Random(seed)
    return [rng.sample(range(52), 8 + rng.choice(board_sizes)) for _ in range(count)]


# Rules, each quoting the source line it checks (docs/rules/sources/, docs/rules.md).


def test_high_runs_from_royal_flush_down_to_seven_five_high() -> None:
    # docs/rules/sources/home-series-event-plo8.txt: "a high hand, which is ranked as in other poker
    # games, ranging from a Royal Flush down to 7-5-4-3-2"
    royal = five_card_high(parse_cards("AsKsQsJsTs"))
    worst = five_card_high(parse_cards("7c5d4h3s2c"))
    ladder = [
        "7c5d4h3s2c",  # high card
        "2c2d7h5s3c",  # pair
        "2c2d3h3s7c",  # two pair
        "2c2d2h7s5c",  # trips
        "Ac2d3h4s5c",  # the wheel, the lowest straight
        "2c3d4h5s6c",  # straight
        "2c3c4c5c7c",  # flush
        "2c2d2h3s3c",  # full house
        "2c2d2h2s3c",  # quads
        "Ac2c3c4c5c",  # the steel wheel
        "AsKsQsJsTs",  # royal flush
    ]
    values = [five_card_high(parse_cards(hand)) for hand in ladder]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert values[0] == worst and values[-1] == royal
    assert describe_high(royal) == "Royal flush"
    assert describe_high(worst) == "High card, seven high"


def test_exactly_two_hole_cards_and_three_board_cards() -> None:
    # docs/rules/sources/home-series-event-plo8.txt: "you must use exactly two of your four hole cards
    # to make a high hand"
    # Three hearts in the hole and two on the board make no flush.
    assert high_category(_high("AhKhQh2c", "JhTh3c4d8s")) != FLUSH
    # One hole card does not complete a four-card straight on the board.
    assert high_category(_high("9c2d2h3s", "5c6d7h8sKc")) != STRAIGHT
    # A board full house plays only with two hole cards: here three kings and two hole aces.
    assert describe_high(_high("AcAd2h3s", "KcKdKhQsQc")) == "Full house, kings full of aces"


def test_four_aces_in_the_hole_play_as_two_aces() -> None:
    # docs/rules/sources/home-series-event-plo8.txt: "If your hole cards contain, for example four
    # aces, you can only use two of the aces to make your hand."
    value, used = best_high(parse_cards("AcAdAhAs"), parse_cards("Kc7d2h9s5c"))
    assert describe_high(value) == "One pair, aces"
    assert sum(card >> 2 == 12 for card in used) == 2


def test_an_all_club_board_needs_two_clubs_in_the_hole() -> None:
    # docs/rules/sources/home-series-event-plo8.txt: "if the board is all clubs, you can only use
    # three of them (that is, you would still need at least two clubs in the hole to make the
    # flush)."
    board = "2c5c8cJcKc"
    assert high_category(_high("AcQdQh3s", board)) != FLUSH
    assert describe_high(_high("Ac3cQhQs", board)) == "Flush, ace high"


def test_four_flush_board_needs_two_of_that_suit_in_the_hole() -> None:
    # docs/rules.md: "a four-flush board needs two of that suit in the hole."
    board = "2h5h8hJh3c"
    assert high_category(_high("AhKcKdQs", board)) != FLUSH
    assert high_category(_high("Ah9hKdQs", board)) == FLUSH


def test_suits_never_break_a_tie() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "The suit order of the cards is not taken into
    # account while deciding on the winning cards."
    board = "Kc9d7h4s2c"
    assert _high("AsQs3d3h", board) == _high("AcQc3c3s", board)
    assert _high("AhKh5s6s", "2h3h4hJcQd") == _high("AdKd5c6c", "2d3d4dJsQh")


def test_wheel_is_the_best_low_and_eight_seven_six_five_four_the_worst() -> None:
    # docs/rules/sources/home-series-event-plo8.txt: "the best possible low hand is 5-4-3-2-A. The
    # worst possible qualifying low hand is 8-7-6-5-4."
    wheel = five_card_low(parse_cards("As2d3h4s5c"))
    worst = five_card_low(parse_cards("8s7d6h5s4c"))
    assert wheel is not None and worst is not None
    every_low = [
        five_card_low(parse_cards(hand))
        for hand in ("8s6d4h3s2c", "8s6d5h2sAc", "7s6d5h4s2c", "6s5d4h3s2c", "8s7d6h5sAc")
    ]
    assert all(value is not None and worst < value < wheel for value in every_low)
    assert five_card_low(parse_cards("9s5d4h3s2c")) is None
    assert describe_low(wheel) == "5-4-3-2-A"
    assert describe_low(worst) == "8-7-6-5-4"


def test_low_is_compared_from_the_highest_card_down() -> None:
    # docs/rules/sources/home-series-event-plo8.txt: "Low hands are compared one card at a time from
    # the highest card to lowest, so 8-6-4-3-2 beats 8-6-5-2-A"
    board = "8c6d2h9sKs"
    a, b = _low("4s3dQcJd", board), _low("5sAdQcJd", board)
    assert a is not None and b is not None
    assert describe_low(a) == "8-6-4-3-2" and describe_low(b) == "8-6-5-2-A"
    assert a > b


def test_lowest_high_card_wins_the_low() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "a player with a 2,4,5,6,7 would have a better
    # "Low" hand than someone with an A,2,4,6,8."
    assert (five_card_low(parse_cards("2c4d5h6s7c")) or 0) > (
        five_card_low(parse_cards("Ac2d4h6s8c")) or 0
    )


def test_a_hand_of_two_two_nine_king_makes_no_low() -> None:
    # docs/rules/sources/home-series-event-plo8.txt: "if your hole cards are 2-2-9-K, you cannot
    # make a low hand because your hand can only supply one low card."
    assert _low("2c2d9hKs", "Ac3d4h5s7c") is None
    assert best_low(parse_cards("2c2d9hKs"), parse_cards("Ac3d4h5s7c")) is None


def test_a_nine_jack_king_flop_makes_no_low() -> None:
    # docs/rules/sources/home-series-event-plo8.txt: "if the flop comes 9-J-K, no one can make a low
    # hand because the board cannot supply enough low cards."
    assert _low("As2d3h4s", "9cJdKh") is None
    # A paired low board is not three different low cards either.
    assert _low("As2d3h4s", "5c5dKh9s7c") is None


def test_straights_and_flushes_do_not_count_against_a_low() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "1) Straights and Flushes do NOT count against
    # you when qualifying for "Low"."
    high, low = high_low_values(parse_cards("Ac2cKdQd"), parse_cards("3c4c5c9hJs"))
    assert high_category(high) == STRAIGHT_FLUSH
    assert low is not None and describe_low(low) == "5-4-3-2-A"


def test_high_and_low_may_use_different_hole_cards() -> None:
    # docs/rules/sources/home-series-event-plo8.txt: "The two hole cards you use to make your high
    # hand may or may not be the same as the ones you use to make your low hand."
    hole, board = parse_cards("AsAd2c3h"), parse_cards("Ah7c8d9sKc")
    high, used_high = best_high(hole, board)
    found = best_low(hole, board)
    assert found is not None
    assert describe_high(high) == "Three of a kind, aces"
    assert describe_low(found[0]) == "8-7-3-2-A"
    assert set(used_high) & set(hole) != set(found[1]) & set(hole)


# Agreement with PokerKit and phevaluator on random hands.


def test_high_orders_like_pokerkit() -> None:
    for deal in _deals(3, 700):
        a, b, board = deal[:4], deal[4:8], deal[8:]
        theirs_a = OmahaHoldemHand.from_game(cards_str(a), cards_str(board))
        theirs_b = OmahaHoldemHand.from_game(cards_str(b), cards_str(board))
        expected = (theirs_a > theirs_b) - (theirs_a < theirs_b)
        assert _sign(high_value(a, board), high_value(b, board)) == expected, cards_str(deal)


def _pokerkit_low(hole: Sequence[Card], board: Sequence[Card]) -> OmahaEightOrBetterLowHand | None:
    try:
        return OmahaEightOrBetterLowHand.from_game(cards_str(hole), cards_str(board))
    except ValueError:
        return None


def test_low_orders_like_pokerkit() -> None:
    # Low boards more often than chance, so most deals have lows to compare.
    rng = random.Random(4)
    low_cards = [card for card in range(52) if card >> 2 in (12, 0, 1, 2, 3, 4, 5, 6)]
    for deal in _deals(4, 800):
        board = deal[8:]
        if rng.random() < 0.5:
            board = rng.sample([card for card in low_cards if card not in deal[:8]], len(board))
        a, b = deal[:4], deal[4:8]
        ours_a, ours_b = low_value(a, board), low_value(b, board)
        theirs_a, theirs_b = _pokerkit_low(a, board), _pokerkit_low(b, board)
        assert (ours_a is None) == (theirs_a is None), cards_str(a + board)
        assert (ours_b is None) == (theirs_b is None), cards_str(b + board)
        if ours_a is not None and ours_b is not None:
            assert theirs_a is not None and theirs_b is not None
            expected = (theirs_a > theirs_b) - (theirs_a < theirs_b)
            assert _sign(ours_a, ours_b) == expected, cards_str(a + b + board)


def test_high_orders_like_phevaluator() -> None:
    # phevaluator ranks are lower-is-better, so the signs are compared reversed.
    for deal in _deals(5, 5000, board_sizes=(5,)):
        a, b, board = deal[:4], deal[4:8], deal[8:]
        theirs = _sign(evaluate_omaha_cards(*board, *b), evaluate_omaha_cards(*board, *a))
        assert _sign(high_value(a, board), high_value(b, board)) == theirs, cards_str(deal)


def test_high_orders_like_phevaluator_on_flush_boards() -> None:
    # Two suits only: flushes, straight flushes and four-flush boards come up constantly.
    rng = random.Random(6)
    two_suits = [card for card in range(52) if card & 3 < 2]
    for _ in range(3000):
        deal = rng.sample(two_suits, 13)
        a, b, board = deal[:4], deal[4:8], deal[8:]
        theirs = _sign(evaluate_omaha_cards(*board, *b), evaluate_omaha_cards(*board, *a))
        assert _sign(high_value(a, board), high_value(b, board)) == theirs, cards_str(deal)


# The fast paths agree with trying all sixty combinations.


def test_table_values_match_all_sixty_combinations() -> None:
    rng = random.Random(8)
    two_suits = [card for card in range(52) if card & 3 < 2]
    deals = _deals(9, 1500) + [
        rng.sample(two_suits, 8 + rng.choice((3, 4, 5))) for _ in range(1500)
    ]
    for deal in deals:
        hole, board = deal[:4], deal[8:]
        found = best_low(hole, board)
        assert high_low_values(hole, board) == (
            best_high(hole, board)[0],
            found[0] if found else None,
        ), cards_str(deal)


@pytest.mark.parametrize("size", [3, 4, 5])
def test_every_board_of_ranks_matches_all_sixty_combinations(size: int) -> None:
    # Each board rank multiset once (its entry is built on first use), with a random hole.
    rng = random.Random(size)
    for ranks in combinations_with_replacement(range(13), size):
        if size == 5 and ranks[0] == ranks[4]:
            continue
        board = [rank * 4 + i % 4 for i, rank in enumerate(ranks)]
        hole = rng.sample([card for card in range(52) if card not in board], 4)
        found = best_low(hole, board)
        assert high_low_values(hole, board) == (
            best_high(hole, board)[0],
            found[0] if found else None,
        ), cards_str(hole + board)


def test_prepare_tables_builds_every_five_card_board() -> None:
    assert prepare_tables() == 6175
    hole, board = parse_cards("AsAd2c3h"), parse_cards("Ah7c8d9sKc")
    assert high_value(hole, board) == best_high(hole, board)[0]


def test_showdown_and_many_values_match_one_hand_values() -> None:
    rng = random.Random(10)
    for _ in range(300):
        size = rng.choice((3, 4, 5))
        players = rng.randint(2, 9)
        deal = rng.sample(range(52), 4 * players + size)
        holes = [deal[4 * i : 4 * i + 4] for i in range(players)]
        board = deal[4 * players :]
        one_by_one = [high_low_values(hole, board) for hole in holes]
        assert showdown_values(Game.OMAHA_HI_LO, holes, board) == one_by_one
        assert showdown_values(Game.OMAHA, holes, board) == [(h, None) for h, _ in one_by_one]
        assert showdown_values("omaha-hi-lo", holes, board) == one_by_one  # type: ignore[arg-type]
        assert evaluate_many([(hole, board) for hole in holes]) == one_by_one


@settings(max_examples=200, deadline=None)
@given(
    deal=st.permutations(range(52)).map(lambda cards: cards[:9]),
    suits=st.permutations(range(4)),
)
def test_values_ignore_card_order_and_suit_names(deal: list[int], suits: list[int]) -> None:
    hole, board = deal[:4], deal[4:]
    renamed = [card - (card & 3) + suits[card & 3] for card in deal]
    assert high_low_values(hole, board) == high_low_values(hole[::-1], board[::-1])
    assert high_low_values(hole, board) == high_low_values(renamed[:4], renamed[4:])


# Descriptions and errors.


@pytest.mark.parametrize(
    ("hole", "board", "text"),
    [
        ("AsKs2c3d", "QsJsTs4h5h", "Royal flush"),
        ("9s8s2c3d", "7s6s5s4h5h", "Straight flush, nine high"),
        ("KcKd2c3d", "KhKs5s4h9h", "Four of a kind, kings"),
        ("6c6d2c3d", "6h9s9c4hJh", "Full house, sixes full of nines"),
        ("Ah9h2c3d", "Qh6h5h4sJd", "Flush, ace high"),
        ("5c4dJcJd", "Ah3d2hTs8c", "Straight, five high"),
        ("QcQdTc3d", "Qh9s2h4s7c", "Three of a kind, queens"),
        ("JcJd2c3d", "Qh9s9h4s7c", "Two pair, jacks and nines"),
        ("JcTd2c3d", "Qh7s8h8s4c", "One pair, eights"),
        ("AcTd2c3d", "Qh9s8h6s4c", "High card, ace high"),
    ],
)
def test_describe_high_names_the_hand(hole: str, board: str, text: str) -> None:
    assert describe_high(_high(hole, board)) == text


def test_bad_hands_are_rule_errors() -> None:
    with pytest.raises(RuleError, match="four hole cards"):
        high_value(parse_cards("AsKs2c"), parse_cards("QsJsTs"))
    with pytest.raises(RuleError, match="3 to 5 cards"):
        high_value(parse_cards("AsKs2c3c"), parse_cards("QsJs"))
    with pytest.raises(RuleError, match="3 to 5 cards"):
        showdown_values(Game.OMAHA, [parse_cards("AsKs2c3c")], parse_cards("QsJsTs9s8s7s"))
    with pytest.raises(RuleError, match="3 to 5 cards"):
        best_high(parse_cards("AsKs2c3c"), parse_cards("QsJs"))
    with pytest.raises(RuleError, match="not a low value"):
        describe_low(0)


def test_a_board_met_once_is_evaluated_as_its_entry_would(monkeypatch: pytest.MonkeyPatch) -> None:
    """`showdown_values` builds a 5-card board's entry only when the board comes back; the
    first time it looks each hand up directly, and must find the same values."""
    import tables.engine.evaluator as evaluator

    monkeypatch.setattr(evaluator, "_BOARDS_5", {})
    monkeypatch.setattr(evaluator, "_BOARDS_SEEN", set())
    rng = random.Random(11)
    for k in range(3000):
        cards = rng.sample(range(52), 5 + 4 * (2 + k % 8))
        board, holes = cards[:5], [cards[i : i + 4] for i in range(5, len(cards), 4)]
        game = Game.OMAHA_HI_LO if k % 2 else Game.OMAHA
        first = showdown_values(game, holes, board)  # looked up directly
        again = showdown_values(game, holes, board)  # from the entry, built now
        assert first == again
        expected = [high_low_values(hole, board) for hole in holes]
        if game is Game.OMAHA:
            expected = [(high, None) for high, _ in expected]
        assert first == expected
