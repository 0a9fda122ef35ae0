"""Pre-actions: a move chosen before the turn, and what it becomes when the turn comes."""

from __future__ import annotations

import pytest

from tables.engine import preactions
from tables.engine.config import Structure
from tables.engine.errors import RuleError
from tables.engine.preactions import (
    PreAction,
    pre_action_choose,
    pre_action_kinds,
    pre_action_move,
    pre_action_stands,
)
from tables.engine.state import Action, Hand, Street
from tests.engine.hand_helpers import play, table


def pot_limit(stacks: list[int]) -> Hand:
    # Seats 1..n, the button on seat n: seat 1 posts 5, seat 2 posts 10, seat 3 acts first.
    return table(stacks, structure=Structure.POT_LIMIT, big_blind=10)


def chosen_by(
    hand: Hand, seat: int, kind: str, amount: int | None = None
) -> preactions.PreActionChoice:
    return pre_action_choose(kind, amount, street=hand.street, to_call=hand.to_call(seat))


def move_for(hand: Hand, chosen: preactions.PreActionChoice) -> tuple[Action, None] | None:
    return pre_action_move(chosen, hand.street, hand.legal_actions())


def test_the_five_pre_actions_are_the_rule_s() -> None:
    # docs/rules.md, Home-game options: "(check/fold, check, call any, call an exact amount, fold)"
    assert {str(k) for k in PreAction} == {"check_fold", "check", "call_any", "call", "fold"}
    assert pre_action_kinds(0) == (PreAction.CHECK_FOLD, PreAction.CHECK, PreAction.CALL_ANY)
    assert pre_action_kinds(40) == (PreAction.FOLD, PreAction.CALL, PreAction.CALL_ANY)


def test_a_call_of_an_exact_amount_is_made_when_the_bet_is_unchanged() -> None:
    # docs/rules.md, Home-game options: "a player may choose their action before their turn"
    hand = pot_limit([500] * 4)
    chosen = chosen_by(hand, 4, "call", 10)  # seat 4 sees 10 to call while seat 3 thinks
    play(hand, "3 call")
    assert hand.to_act == 4
    assert move_for(hand, chosen) == (Action.CALL, None)


def test_a_raise_drops_a_call_of_an_exact_amount() -> None:
    # docs/rules.md, Home-game options: "a pre-action is dropped when the amount to call changes
    # from what it was chosen against"
    hand = pot_limit([500] * 4)
    chosen = chosen_by(hand, 4, "call", 10)
    play(hand, "3 raise 35")
    assert hand.to_call(4) == 35
    assert not pre_action_stands(chosen, hand.street, hand.to_call(4))
    assert move_for(hand, chosen) is None


def test_call_any_is_kept_through_a_raise_and_calls_it() -> None:
    # docs/rules.md, Home-game options: '(except "call any" and "check/fold")'
    hand = pot_limit([500] * 4)
    chosen = chosen_by(hand, 4, "call_any")
    play(hand, "3 raise 35")
    assert pre_action_stands(chosen, hand.street, hand.to_call(4))
    assert move_for(hand, chosen) == (Action.CALL, None)


def test_call_any_checks_when_there_is_nothing_to_call() -> None:
    hand = pot_limit([500] * 3)
    play(hand, "3 call", "1 call")  # seat 2, the big blind, has nothing to call
    chosen = pre_action_choose("call_any", None, street=Street.PREFLOP, to_call=0)
    assert move_for(hand, chosen) == (Action.CHECK, None)


def test_check_fold_checks_when_free_and_folds_to_a_bet() -> None:
    # docs/rules.md, Home-game options: '(except "call any" and "check/fold")'
    hand = pot_limit([500] * 3)
    play(hand, "3 call", "1 call", "2 check")
    assert hand.street is Street.FLOP and hand.to_act == 1
    chosen = chosen_by(hand, 3, "check_fold")
    play(hand, "1 check", "2 check")
    assert move_for(hand, chosen) == (Action.CHECK, None)
    hand = pot_limit([500] * 3)
    play(hand, "3 call", "1 call", "2 check")
    chosen = chosen_by(hand, 3, "check_fold")
    play(hand, "1 bet 30", "2 call")
    assert pre_action_stands(chosen, hand.street, hand.to_call(3))
    assert move_for(hand, chosen) == (Action.FOLD, None)


def test_a_bet_drops_a_check_and_a_raise_drops_a_fold() -> None:
    # docs/rules.md, Home-game options: "a pre-action is dropped when the amount to call changes"
    hand = pot_limit([500] * 3)
    play(hand, "3 call", "1 call", "2 check")
    check = chosen_by(hand, 3, "check")
    play(hand, "1 bet 30")
    assert move_for(hand, check) is None
    fold = chosen_by(hand, 3, "fold")
    play(hand, "2 raise 120")
    assert hand.to_call(3) == 120
    assert move_for(hand, fold) is None


def test_a_check_and_a_fold_are_made_when_nothing_changed() -> None:
    hand = pot_limit([500] * 3)
    play(hand, "3 call", "1 call", "2 check")
    check = chosen_by(hand, 3, "check")
    play(hand, "1 check", "2 check")
    assert move_for(hand, check) == (Action.CHECK, None)
    hand = pot_limit([500] * 3)
    play(hand, "3 call", "1 call", "2 check", "1 bet 30")
    fold = chosen_by(hand, 3, "fold")
    play(hand, "2 call")
    assert move_for(hand, fold) == (Action.FOLD, None)


def test_a_pre_action_is_for_the_betting_round_it_was_chosen_in() -> None:
    # The big blind checks its option after choosing "call any" in the round before: the
    # flop's bet is another situation (the issue: "each cleared when the situation changes").
    hand = pot_limit([500] * 3)
    play(hand, "3 call", "1 call")
    chosen = pre_action_choose("call_any", None, street=Street.PREFLOP, to_call=0)
    play(hand, "2 check", "1 bet 30", "2 call")
    assert hand.street is Street.FLOP and hand.to_act == 3
    assert not pre_action_stands(chosen, hand.street, hand.to_call(3))
    assert move_for(hand, chosen) is None


def test_a_short_stack_s_call_of_all_it_has_stands_through_a_re_raise() -> None:
    # The amount to call is at most the stack: a re-raise does not change it for a player
    # whose call is already all of their chips.
    hand = pot_limit([30, 500, 500, 500])  # seat 1 posts 5 and has 25 behind
    play(hand, "3 raise 35")
    chosen = chosen_by(hand, 1, "call", 25)
    play(hand, "4 raise 100")
    assert hand.to_act == 1 and hand.to_call(1) == 25
    assert hand.legal_actions().call_all_in
    assert move_for(hand, chosen) == (Action.CALL, None)


def test_what_cannot_be_chosen_is_refused_with_the_rule() -> None:
    with pytest.raises(RuleError, match="'raise' is not a pre-action") as found:
        pre_action_choose("raise", None, street=Street.FLOP, to_call=0)
    assert found.value.code == "pre_action_unknown"
    with pytest.raises(RuleError, match="there is a bet of 40 to call") as found:
        pre_action_choose("check", None, street=Street.FLOP, to_call=40)
    assert found.value.code == "pre_action_facing_bet"
    with pytest.raises(RuleError, match="there is no bet to call") as found:
        pre_action_choose("fold", None, street=Street.FLOP, to_call=0)
    assert found.value.code == "pre_action_no_bet"
    with pytest.raises(RuleError, match="the call is 120 now, not 40") as found:
        pre_action_choose("call", 40, street=Street.TURN, to_call=120)
    assert found.value.code == "pre_action_call_amount"
    with pytest.raises(RuleError) as found:
        pre_action_choose("call", None, street=Street.TURN, to_call=120)
    assert found.value.code == "pre_action_call_needs_amount"
    with pytest.raises(RuleError, match="the betting is over"):
        pre_action_choose("check", None, street=Street.SHOWDOWN, to_call=0)


def test_the_engine_says_each_seat_s_amount_to_call_and_who_may_still_bet() -> None:
    hand = pot_limit([500, 500, 500, 30])
    assert [hand.to_call(s) for s in (1, 2, 3, 4)] == [5, 0, 10, 10]
    assert hand.current_bet == 10
    play(hand, "3 raise 35", "4 call", "1 fold")
    assert hand.to_call(2) == 25
    assert not hand.may_bet_later(1)  # folded
    assert not hand.may_bet_later(4)  # all-in
    assert hand.may_bet_later(2) and hand.may_bet_later(3)
    assert not hand.may_bet_later(9)  # not dealt in
