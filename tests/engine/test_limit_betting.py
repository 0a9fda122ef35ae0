"""Limit betting: bet sizes, raises of exactly one bet, the cap and the half-bet all-in rule."""

from __future__ import annotations

import pytest

from tables.engine.config import Structure
from tables.engine.errors import RuleError
from tables.engine.records import Bet, Raised
from tables.engine.state import Action, Street
from tests.engine.hand_helpers import play, table


def test_bets_are_the_lower_limit_before_the_flop_and_on_the_flop() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "round, which is set at the lower limit of the stakes structure. For example"
    hand = table([500] * 3, big_blind=10)
    legal = hand.legal_actions()
    assert (legal.bet_or_raise, legal.min_to, legal.max_to) == (Action.RAISE, 20, 20)
    play(hand, "3 call", "1 call", "2 check")
    legal = hand.legal_actions()
    assert (legal.bet_or_raise, legal.min_to, legal.max_to) == (Action.BET, 10, 10)


def test_bets_are_the_upper_limit_on_the_turn_and_river() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "bets and raises are limited to the upper limit of the stake structure (10/20"
    hand = table([500] * 3, big_blind=10)
    play(hand, "3 call", "1 call", "2 check", "1 check", "2 check", "3 check")
    assert hand.street is Street.TURN
    legal = hand.legal_actions()
    assert (legal.min_to, legal.max_to) == (20, 20)
    play(hand, "1 bet 20")
    assert (hand.legal_actions().min_to, hand.legal_actions().max_to) == (40, 40)


def test_a_raise_is_exactly_one_more_bet() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "“RAISE” would be 20 – includes one additional bet and a call on the previous"
    hand = table([500] * 3, big_blind=10)
    with pytest.raises(RuleError, match="exactly one more bet: to 20"):
        hand.act(3, Action.RAISE, 30)
    with pytest.raises(RuleError, match="raise to 15 is below the minimum 20"):
        hand.act(3, Action.RAISE, 15)


def test_a_bet_and_three_raises_is_the_cap_before_the_flop_the_big_blind_being_the_bet() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "A maximum of four bets, which includes one bet, and three raises are allowed"
    hand = table([500] * 4, big_blind=10, raise_cap=4)
    play(hand, "3 raise 20", "4 raise 30", "1 raise 40")
    legal = hand.legal_actions()
    assert legal.seat == 2 and legal.bet_or_raise is None
    with pytest.raises(RuleError, match="a bet and three raises is the cap in this round"):
        hand.act(2, Action.RAISE, 50)


def test_a_bet_and_three_raises_is_the_cap_after_the_flop() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "A maximum of four bets, which includes one bet, and three raises are allowed"
    hand = table([500] * 4, big_blind=10, raise_cap=4)
    play(hand, "3 call", "4 call", "1 call", "2 check")
    play(hand, "1 bet 10", "2 raise 20", "3 raise 30", "4 raise 40")
    assert hand.legal_actions().bet_or_raise is None
    assert hand.can_act(1, Action.CALL) and not hand.can_act(1, Action.RAISE, 50)


def test_the_card_room_allows_a_bet_and_four_raises() -> None:
    # docs/rules/sources/omaha-hi-lo-cardroom-rules.txt: "A bet and four raises are allowed."
    hand = table([500] * 4, big_blind=10, raise_cap=5)
    play(hand, "3 raise 20", "4 raise 30", "1 raise 40", "2 raise 50")
    assert hand.legal_actions().bet_or_raise is None
    with pytest.raises(RuleError, match="a bet and four raises is the cap"):
        hand.act(3, Action.RAISE, 60)


def test_no_cap_when_the_cap_is_none() -> None:
    # docs/rules.md: "Cap, house rule: the online rooms allow **a bet and three raises** per round; the card"
    hand = table([500] * 2, big_blind=10, raise_cap=None)
    play(hand, *[f"{2 - k % 2} raise {20 + 10 * k}" for k in range(8)])
    assert hand.legal_actions().bet_or_raise is Action.RAISE


def test_no_cap_when_only_two_players_remain_before_the_cap_is_reached() -> None:
    # docs/rules/sources/omaha-hi-lo-cardroom-rules.txt: "No limit on raises when only two players remain before the fourth raise has been made."
    hand = table([500] * 3, big_blind=10, raise_cap=5, uncapped_heads_up=True)
    play(hand, "3 raise 20", "1 fold", "2 raise 30", "3 raise 40", "2 raise 50")
    assert hand.legal_actions().bet_or_raise is Action.RAISE
    play(hand, "3 raise 60", "2 raise 70")
    assert hand.legal_actions().bet_or_raise is Action.RAISE


def test_the_cap_stays_when_it_was_reached_before_only_two_remained() -> None:
    # docs/rules/sources/omaha-hi-lo-cardroom-rules.txt: "No limit on raises when only two players remain before the fourth raise has been made."
    hand = table([500] * 3, big_blind=10, raise_cap=4, uncapped_heads_up=True)
    play(hand, "3 raise 20", "1 raise 30", "2 raise 40", "3 fold")
    assert hand.legal_actions().seat == 1
    assert hand.legal_actions().bet_or_raise is None


def test_an_all_in_for_less_than_half_a_bet_does_not_reopen_the_betting() -> None:
    # docs/rules/sources/omaha-hi-lo-cardroom-rules.txt: "An all-in wager of less than half a bet does not reopen the betting for any player who has already acted"
    # Turn, 10/20: seat 1 bets 20, seat 2 calls, seat 3 is all-in for 29 (9 more: less than half).
    hand = table([500, 500, 39, 500], big_blind=10)
    play(hand, "3 call", "4 call", "1 call", "2 check")
    play(hand, *["1 check", "2 check", "3 check", "4 check"])
    assert hand.street is Street.TURN
    play(hand, "1 bet 20", "2 call", "3 raise 29")
    assert hand.records[-1] == Raised(3, 29, True)
    # The next player, who has not acted, may fold, call or complete to a full raise.
    legal = hand.legal_actions()
    assert legal.seat == 4 and legal.complete and (legal.min_to, legal.max_to) == (40, 40)
    play(hand, "4 call")
    # Seats 1 and 2 already acted: they may only fold or call.
    legal = hand.legal_actions()
    assert legal.seat == 1 and legal.bet_or_raise is None and legal.call == 9
    with pytest.raises(RuleError, match="nobody may raise their own bet"):
        hand.act(1, Action.RAISE, 40)
    play(hand, "1 call")
    with pytest.raises(RuleError, match="less than half a bet does not reopen"):
        hand.act(2, Action.RAISE, 40)


def test_a_player_facing_less_than_half_a_bet_may_complete_it() -> None:
    # docs/rules/sources/omaha-hi-lo-cardroom-rules.txt: "A player facing less than half a bet may fold, call or complete the wager."
    hand = table([500, 500, 14, 500], big_blind=10)
    play(hand, "3 call", "4 call", "1 call", "2 check")
    play(hand, *["1 check", "2 check", "3 check", "4 check"])
    play(hand, "1 check", "2 check", "3 bet 4")  # all-in for 4 of a 20 bet
    assert hand.records[-1] == Bet(3, 4, True)
    legal = hand.legal_actions()
    assert legal.complete and legal.bet_or_raise is Action.RAISE
    assert (legal.call, legal.min_to) == (4, 20)
    play(hand, "4 raise 20")
    # Completing made it a full bet: the checkers may now raise one more bet.
    legal = hand.legal_actions()
    assert legal.seat == 1 and (legal.min_to, legal.max_to) == (40, 40)


def test_an_all_in_of_half_a_bet_or_more_is_a_full_bet() -> None:
    # docs/rules/sources/omaha-hi-lo-cardroom-rules.txt: "An all-in wager of half a bet or more is treated as a full bet and a player may fold, call or make a full raise"
    hand = table([500, 500, 45, 500], big_blind=10)
    play(hand, "3 call", "4 call", "1 call", "2 check")
    play(hand, *["1 check", "2 check", "3 check", "4 check"])
    play(hand, "1 bet 20", "2 call", "3 raise 35")  # 15 more: at least half of 20
    play(hand, "4 call")
    legal = hand.legal_actions()
    assert legal.seat == 1 and legal.bet_or_raise is Action.RAISE
    assert (legal.min_to, legal.max_to) == (55, 55)


def test_an_all_in_for_less_is_accepted_as_a_raise_at_the_stack_total() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "A player who does not have enough chips to call a bet is declared All-In."
    hand = table([500, 500, 15], big_blind=10, structure=Structure.LIMIT)
    legal = hand.legal_actions()
    assert (legal.min_to, legal.max_to, legal.raise_all_in) == (15, 15, True)
    play(hand, "3 raise 15")
    assert hand.view()["seats"][2]["status"] == "all-in"
