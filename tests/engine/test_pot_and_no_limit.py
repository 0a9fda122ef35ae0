"""Pot-limit and no-limit minimums and maximums, own-bet and short all-in rules."""

from __future__ import annotations

import random

import pytest

from tables.engine.config import Game, Structure
from tables.engine.errors import RuleError
from tables.engine.state import Action, Hand, Street
from tests.engine.hand_helpers import play, table


def flop_with_pot_200(structure: Structure = Structure.POT_LIMIT) -> Hand:
    """Four players call 50 before the flop: the pot is 200 and seat 1 acts first."""
    hand = table([5000] * 4, structure=structure, big_blind=50, game=Game.OMAHA)
    play(hand, "3 call", "4 call", "1 call", "2 check")
    assert hand.street is Street.FLOP and hand.pots() == [(200, (1, 2, 3, 4))]
    return hand


def test_pot_limit_maximum_is_the_pot_after_calling_seed_example_800() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "third player has a maximum eligible total bet of 800. The 800 total is made"
    hand = flop_with_pot_200()
    play(hand, "1 bet 150", "2 call")
    legal = hand.legal_actions()
    assert legal.seat == 3 and legal.call == 150 and legal.max_to == 800
    with pytest.raises(RuleError, match="raise to 801 is above the maximum 800"):
        hand.act(3, Action.RAISE, 801)
    play(hand, "3 raise 800")


def test_pot_limit_first_bet_is_at_most_the_pot() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "Maximum eligible raise: The size of the pot: The size of the pot"
    hand = flop_with_pot_200()
    assert hand.legal_actions().max_to == 200


def test_pot_limit_before_the_flop_the_blinds_count_as_bets_on_the_table() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "is defined as the total of the active Pot (which can be either the main"
    hand = table([5000] * 4, structure=Structure.POT_LIMIT, big_blind=50)
    # 25 + 50 on the table + 50 to call = 125 raise: 175 in all.
    assert hand.legal_actions().max_to == 175


def test_the_first_bet_is_at_least_the_big_blind() -> None:
    # docs/rules.md: "**Pot-Limit**: the first bet is at least the big blind; a raise is at least the previous bet"
    hand = flop_with_pot_200()
    assert hand.legal_actions().min_to == 50
    with pytest.raises(RuleError, match="bet to 40 is below the minimum 50"):
        hand.act(1, Action.BET, 40)


def test_a_raise_is_at_least_the_previous_bet_or_raise_in_the_round() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "much as the previous bet or raise in the same round. As an example, if the"
    hand = flop_with_pot_200(Structure.NO_LIMIT)
    play(hand, "1 bet 100")
    assert hand.legal_actions().min_to == 200
    with pytest.raises(RuleError, match="raise to 150 is below the minimum 200"):
        hand.act(2, Action.RAISE, 150)
    play(hand, "2 raise 350")  # a raise of 250
    assert hand.legal_actions().min_to == 600


def test_no_limit_maximum_is_the_stack() -> None:
    # docs/rules/sources/omaha-high-partypoker.txt: "Maximum eligible raise: The size of your stack (your"
    hand = flop_with_pot_200(Structure.NO_LIMIT)
    legal = hand.legal_actions()
    assert legal.max_to == 4950 and legal.raise_all_in
    with pytest.raises(RuleError, match="more than the 4950"):
        hand.act(1, Action.BET, 4951)


def test_nobody_may_raise_their_own_bet() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "a player can make. The only criteria being that you cannot raise yourself,"
    hand = flop_with_pot_200()
    play(hand, "1 bet 100", "2 call", "3 call", "4 call")
    # Everyone called: the betting is over and seat 1 gets no new option.
    assert hand.street is Street.TURN


def test_a_short_all_in_raise_does_not_reopen_the_betting_for_players_who_acted() -> None:
    # docs/rules.md: "An all-in that is short of a full raise does not reopen betting"
    hand = table(
        [5000, 5000, 330, 5000], structure=Structure.NO_LIMIT, big_blind=50, game=Game.OMAHA
    )
    play(hand, "3 call", "4 call", "1 call", "2 check")
    play(hand, "1 bet 200", "2 call", "3 raise 280")  # all-in, 80 more: short of a 200 raise
    legal = hand.legal_actions()
    assert legal.seat == 4 and legal.bet_or_raise is Action.RAISE and legal.min_to == 480
    play(hand, "4 call")
    legal = hand.legal_actions()
    assert legal.seat == 1 and legal.bet_or_raise is None and legal.call == 80
    with pytest.raises(RuleError, match="nobody may raise their own bet"):
        hand.act(1, Action.RAISE, 500)
    play(hand, "1 call")
    with pytest.raises(RuleError, match="short of a full raise does not reopen"):
        hand.act(2, Action.RAISE, 500)


def test_an_error_names_the_rule_and_changes_nothing() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "Minimum eligible raise: The raise amount must be at least as"
    hand = table([500] * 3, structure=Structure.NO_LIMIT, big_blind=20)
    before = (hand.records, hand.view(3))
    with pytest.raises(RuleError, match="raise to 30 is below the minimum 40"):
        hand.act(3, Action.RAISE, 30)
    with pytest.raises(RuleError, match="it is seat 3's turn, not seat 1's"):
        hand.act(1, Action.FOLD)
    assert (hand.records, hand.view(3)) == before


def test_a_call_for_more_than_the_stack_is_all_in_for_the_stack() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "the player cannot get additional chips from his account while he is in the"
    hand = table([500, 500, 30], structure=Structure.NO_LIMIT, big_blind=20)
    play(hand, "3 call", "1 raise 200")
    legal = hand.legal_actions()
    assert legal.seat == 2
    play(hand, "2 call")
    legal = hand.legal_actions()
    assert legal.seat == 3 and legal.call == 10 and legal.call_all_in


def test_house_option_the_pot_counts_the_small_blinds_call_before_the_first_raise() -> None:
    # docs/rules/sources/home-series-event-plo8.txt: "if the blinds are 25/50 and the button wants
    # to raise the pot, the total bet will be 200 (Small blind 25 + assumed small blind completion
    # 25 + Large blind 50 + raiser's call 50 = raise of 150; 50 call + 150 raise = 200 to go)".
    from tables.engine.cards import shuffled_deck
    from tables.engine.config import Config, Game, Structure
    from tables.engine.records import SeatSpec
    from tables.engine.state import Action, Hand

    def hand(option: bool) -> Hand:
        config = Config(
            Game.OMAHA_HI_LO,
            Structure.POT_LIMIT,
            big_blind=50,
            small_blind=25,
            pot_assumes_small_blind_call=option,
        )
        seats = [SeatSpec(n, 10_000) for n in (1, 2, 3)]
        return Hand.start(config, seats, 3, shuffled_deck(random.Random(4)))

    with_rule = hand(True)  # the button (seat 3) acts first, three-handed
    assert with_rule.to_act == 3
    assert with_rule.legal_actions().max_to == 200
    assert hand(False).legal_actions().max_to == 175  # the usual pot: 75 + 50 + 50
    # After the first raise the rule no longer applies: the pot is what it is.
    with_rule.act(3, Action.RAISE, 200)
    assert with_rule.legal_actions().max_to == 25 + 50 + 200 + 175 + 200  # SB: call 175, pot
    # The small blind's own raise counts its call once, as usual.
    sb_first = hand(True)
    sb_first.act(3, Action.CALL)
    plain = hand(False)
    plain.act(3, Action.CALL)
    assert sb_first.legal_actions().seat == 1
    assert sb_first.legal_actions().max_to == plain.legal_actions().max_to == 200
