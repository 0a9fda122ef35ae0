"""Side pots, uncalled bets, hi/lo splits, odd chips and the order of the showdown."""

from __future__ import annotations

import pytest

from tables.engine.config import Game, Structure
from tables.engine.errors import RuleError
from tables.engine.records import (
    BoardDealt,
    Half,
    PotAwarded,
    Shown,
    UncalledReturned,
)
from tables.engine.state import Action, Hand, Street
from tests.engine.hand_helpers import kinds, play, table

BOARD = "2c4d7hKcKs"
TRIPS = "KhQd9s9c"  # trip kings, no low
LOW_JACKS = "Ah3sJdJc"  # kings and jacks; low 7-4-3-2-A
LOW_TENS = "Ad3cThTc"  # kings and tens; the same low


def awards(hand: Hand) -> list[tuple[int, int, int, str]]:
    return [
        (r.pot, r.seat, r.amount, str(r.half)) for r in hand.records if isinstance(r, PotAwarded)
    ]


def check_down(hand: Hand) -> None:
    while hand.street in (Street.FLOP, Street.TURN, Street.RIVER):
        legal = hand.legal_actions()
        assert legal.seat is not None
        hand.act(legal.seat, Action.CHECK)


def show_all(hand: Hand) -> None:
    while hand.street is Street.SHOWDOWN:
        assert hand.to_act is not None
        hand.act(hand.to_act, Action.SHOW)


def test_the_odd_chip_between_the_halves_goes_to_the_high_half() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "and "Low" sides. In a split pot, any leftover odd chip goes to the "High""
    hand = table([500] * 3, holes=[None, LOW_JACKS, TRIPS], board=BOARD)
    play(hand, "3 call", "1 fold", "2 check")  # 5 + 10 + 10 = 25
    check_down(hand)
    show_all(hand)
    assert awards(hand) == [(0, 3, 13, "high"), (0, 2, 12, "low")]


def test_with_no_qualifying_low_the_best_high_takes_the_whole_pot() -> None:
    # docs/rules/sources/omaha-hi-lo-cardroom-rules.txt: "If no player can make a low hand of 8 or better, the high hand wins the entire pot."
    hand = table([500] * 3, holes=[None, LOW_JACKS, TRIPS], board="2cTd9hKcKs")
    play(hand, "3 call", "1 fold", "2 check")
    check_down(hand)
    show_all(hand)
    assert awards(hand) == [(0, 3, 25, "whole")]


def test_a_tied_low_is_quartered_and_its_odd_chip_goes_left_of_the_button() -> None:
    # docs/rules/sources/home-series-event-plo8.txt: "Split pots: If there's a qualifying low hand, half of the pot is awarded to the high hand, even if two players tie for low."
    hand = table([500] * 3, holes=[LOW_JACKS, LOW_TENS, TRIPS], board=BOARD)
    play(hand, "3 call", "1 call", "2 check")  # 30
    check_down(hand)
    show_all(hand)
    assert awards(hand) == [(0, 3, 15, "high"), (0, 1, 8, "low"), (0, 2, 7, "low")]


def test_odd_chips_go_one_by_one_to_the_tied_winners_closest_left_of_the_button() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "portions. If there is an odd chip(s), it will go to the person(s) closest to"
    holes = [None, "QcTc7h7d", "QdTd6h6c", "QhTh8h8c"]  # three king-high straights
    hand = table([500] * 4, game=Game.OMAHA, big_blind=2, ante=1, holes=holes, board="9cJdKh2s3c")
    play(hand, "3 call", "4 call", "1 fold", "2 check")  # 4 antes + 1 + 2 + 2 + 2 = 11
    check_down(hand)
    show_all(hand)
    # 11 = 3 x 3 + 2 odd chips: one each to seats 2 and 3 (PokerKit gives both to seat 2).
    assert awards(hand) == [(0, 2, 4, "whole"), (0, 3, 4, "whole"), (0, 4, 3, "whole")]


def test_side_pots_go_to_the_best_hand_among_the_players_who_put_into_them() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "are placed in a side pot, over which only the contributing players have"
    hand = table(
        [50, 500, 500],
        game=Game.OMAHA,
        structure=Structure.NO_LIMIT,
        holes=[TRIPS, LOW_JACKS, LOW_TENS],
        board=BOARD,
    )
    play(hand, "3 raise 100", "1 call", "2 call")
    assert hand.pots() == [(150, (1, 2, 3)), (100, (2, 3))]
    play(hand, "2 bet 100", "3 call")
    check_down(hand)
    show_all(hand)
    assert awards(hand) == [(0, 1, 150, "whole"), (1, 2, 300, "whole")]
    assert hand.final_stacks == {1: 150, 2: 600, 3: 300}


def test_a_hi_lo_side_pot_is_split_among_its_own_players() -> None:
    # docs/rules.md: "Each pot (main and every side pot) is settled on its own among the players eligible for"
    hand = table(
        [20, 500, 500],
        structure=Structure.NO_LIMIT,
        holes=[LOW_JACKS, TRIPS, "QcQh8s8c"],
        board=BOARD,
    )
    play(hand, "3 raise 40", "1 call", "2 call")
    check_down(hand)
    show_all(hand)
    # Main pot 60: high to seat 2, low to seat 1. Side pot 40: seats 2 and 3 have no
    # low, so seat 2's high takes it all.
    assert awards(hand) == [(0, 2, 30, "high"), (0, 1, 30, "low"), (1, 2, 40, "whole")]


def test_an_uncalled_bet_is_returned_before_the_showdown() -> None:
    # docs/rules.md: "An uncalled part of a bet goes back to its bettor before the showdown."
    hand = table([500, 100], structure=Structure.NO_LIMIT, game=Game.OMAHA)
    play(hand, "2 call", "1 check", "1 bet 300", "2 call")  # seat 2 has only 90 left
    returned = [r for r in hand.records if isinstance(r, UncalledReturned)]
    assert returned == [UncalledReturned(1, 210)]
    assert hand.pots() == [(200, (1, 2))]


def test_the_last_player_left_wins_without_showing() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "the cards from all players (though this is optional for the player, he/she"
    hand = table([500] * 3, structure=Structure.NO_LIMIT, game=Game.OMAHA)
    play(hand, "3 raise 50", "1 fold", "2 fold")
    assert hand.is_complete
    assert "Shown" not in kinds(hand.records)
    assert awards(hand) == [(0, 3, 25, "whole")]
    assert UncalledReturned(3, 40) in hand.records


def test_the_last_to_bet_or_raise_on_the_river_shows_first() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "as they wish. The aggressors’ hand is only turned over first if he was the"
    hand = table([500] * 3, game=Game.OMAHA)
    play(hand, "3 call", "1 call", "2 check")
    for _ in range(2):
        play(hand, "1 check", "2 check", "3 check")
    play(hand, "1 check", "2 bet 20", "3 raise 40", "1 call", "2 call")
    assert hand.street is Street.SHOWDOWN
    assert hand.legal_actions().actions == (Action.SHOW, Action.MUCK)
    order = []
    while hand.to_act is not None:
        order.append(hand.to_act)
        hand.act(hand.to_act, Action.SHOW)
    assert order == [3, 1, 2]


def test_with_no_river_bet_the_first_player_left_of_the_button_shows_first() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "On the final round of betting, the player who bets first (or checks first if"
    hand = table([500] * 4, game=Game.OMAHA)
    play(hand, "3 call", "4 call", "1 fold", "2 check")
    check_down(hand)
    assert hand.to_act == 2  # seat 1 folded


def test_a_mucked_hand_wins_nothing() -> None:
    # docs/rules.md: "bet, the first active player left of the button. Others show or muck in turn; a mucked hand"
    hand = table([500] * 3, holes=[None, TRIPS, LOW_JACKS], board="2cTd9hKcKs")
    play(hand, "3 call", "1 fold", "2 check")
    check_down(hand)
    play(hand, "2 muck")  # the best hand, mucked
    assert hand.to_act is None and hand.is_complete
    assert awards(hand) == [(0, 3, 25, "whole")]  # seat 3 wins without showing


def test_showing_could_win_lets_a_table_auto_muck_a_beaten_hand() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "they have the best hand, the remaining players may/may not show their cards"
    hand = table([500] * 3, holes=[None, TRIPS, LOW_JACKS], board="2cTd9hKcKs")
    play(hand, "3 call", "1 fold", "2 check")
    check_down(hand)
    assert hand.showing_could_win(2)
    play(hand, "2 show")
    assert not hand.showing_could_win(3)
    play(hand, "3 muck")
    assert awards(hand) == [(0, 2, 25, "whole")]


def test_when_no_betting_can_follow_every_hand_is_shown_before_the_board_is_run_out() -> None:
    # docs/rules.md: "When all but one are all-in and no betting can follow, every"
    hand = table([100, 300], structure=Structure.NO_LIMIT, game=Game.OMAHA)
    play(hand, "2 raise 300", "1 call")
    names = kinds(hand.records)
    first_board = next(i for i, r in enumerate(hand.records) if isinstance(r, BoardDealt))
    shown = [i for i, r in enumerate(hand.records) if isinstance(r, Shown)]
    assert len(shown) == 2 and max(shown) < first_board
    assert hand.is_complete and names[-1] == "HandEnded"


def test_a_player_treated_as_all_in_plays_on_for_what_is_in_the_pot() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "The user goes all-in if he has contributed some"
    hand = table([500] * 3, structure=Structure.NO_LIMIT, game=Game.OMAHA, all_in_on_timeout=True)
    play(hand, "3 call", "1 call", "2 raise 50")
    hand.declare_all_in(3)  # timed out with 10 in the pot
    play(hand, "1 call")
    assert hand.pots() == [(30, (1, 2, 3)), (80, (1, 2))]
    assert hand.view()["seats"][2]["status"] == "all-in"
    check_down(hand)
    show_all(hand)
    assert hand.is_complete
    assert sum(hand.final_stacks.values()) == 1500  # type: ignore[union-attr]


def test_declaring_all_in_is_off_unless_the_table_chooses_it() -> None:
    # docs/rules.md: "House option from the online"
    hand = table([500] * 3, structure=Structure.NO_LIMIT)
    with pytest.raises(RuleError, match="does not treat a timed-out player as all-in"):
        hand.declare_all_in(1)


def test_chips_always_add_up_with_pots_by_half() -> None:
    # docs/rules.md: "Ties split a pot or a half equally; odd chips go one by one to the tied winners closest to"
    hand = table([500] * 3, holes=[LOW_JACKS, LOW_TENS, TRIPS], board=BOARD)
    play(hand, "3 call", "1 call", "2 check")
    check_down(hand)
    show_all(hand)
    halves = {r.half for r in hand.records if isinstance(r, PotAwarded)}
    assert halves == {Half.HIGH, Half.LOW}
    assert sum(hand.final_stacks.values()) == 1500  # type: ignore[union-attr]


def test_a_player_who_disconnects_out_of_turn_is_all_in_when_the_table_says_so() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "reconnects back and he has some seconds left for his turn, then he is given"
    hand = table([500] * 3, structure=Structure.NO_LIMIT, game=Game.OMAHA, all_in_on_timeout=True)
    play(hand, "3 raise 50")
    hand.declare_all_in(2)  # the big blind drops while seat 1 is to act
    assert hand.to_act == 1
    play(hand, "1 call")
    assert hand.street is Street.FLOP
    assert hand.pots() == [(30, (1, 2, 3)), (80, (1, 3))]
    assert not hand.can_act(2, Action.CHECK)
