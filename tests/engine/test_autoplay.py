"""The moves a table makes for a player without waiting: the time-out's move and the
showdown's show or muck (``tables.engine.autoplay``)."""

from __future__ import annotations

from tables.engine.autoplay import TimeOutMove, show_or_muck, time_out, time_out_move
from tables.engine.config import Game, Structure
from tables.engine.records import AllInDeclared, Checked, Folded, Mucked
from tables.engine.state import Action, Hand, Street
from tests.engine.hand_helpers import play, table

TRIPS = "KhQd9s9c"  # kings full of nines on the board below
LOW_JACKS = "Ah3sJdJc"  # kings and jacks: beaten, and the board makes no low
BOARD = "2cTd9hKcKs"


def _showdown() -> Hand:
    """Seat 2 (TRIPS) and seat 3 (LOW_JACKS) checked down to the showdown; seat 1 folded."""
    hand = table([500] * 3, holes=[None, TRIPS, LOW_JACKS], board=BOARD)
    play(hand, "3 call", "1 fold", "2 check")
    while hand.street in (Street.FLOP, Street.TURN, Street.RIVER):
        play(hand, f"{hand.to_act} check")
    assert hand.street is Street.SHOWDOWN
    return hand


def test_a_time_out_checks_when_checking_is_free() -> None:
    # docs/rules.md: "On time-out a player checks if checking is free, else folds, and is then sat out."
    hand = table([500] * 3)
    play(hand, "3 call", "1 call")
    assert hand.to_act == 2 and hand.to_call(2) == 0
    assert time_out_move(hand, 2) is TimeOutMove.CHECK
    assert time_out(hand, 2)[0] == Checked(2)
    assert hand.street is Street.FLOP


def test_a_time_out_folds_facing_a_bet() -> None:
    # docs/rules.md: "On time-out a player checks if checking is free, else folds, and is then sat out."
    hand = table([500] * 3)
    assert hand.to_act == 3 and hand.to_call(3) == 10
    assert time_out_move(hand, 3) is TimeOutMove.FOLD
    assert isinstance(time_out(hand, 3)[0], Folded)
    assert hand.to_act == 1


def test_a_disconnected_player_with_chips_in_the_pot_is_all_in_where_the_house_says_so() -> None:
    # docs/rules.md: "a player who times out while disconnected, with chips in the pot, is treated as all-in."
    hand = table([500] * 3, structure=Structure.NO_LIMIT, game=Game.OMAHA, all_in_on_timeout=True)
    play(hand, "3 call", "1 call", "2 raise 50")
    assert time_out_move(hand, 3, disconnected=True) is TimeOutMove.ALL_IN
    assert time_out(hand, 3, disconnected=True) == [AllInDeclared(3)]
    assert hand.to_act == 1


def test_a_player_still_connected_is_not_all_in_but_folds() -> None:
    # docs/rules.md: "On time-out a player checks if checking is free, else folds, and is then sat out."
    hand = table([500] * 3, structure=Structure.NO_LIMIT, game=Game.OMAHA, all_in_on_timeout=True)
    play(hand, "3 call", "1 call", "2 raise 50")
    assert time_out_move(hand, 3) is TimeOutMove.FOLD


def test_the_house_all_in_needs_chips_in_the_pot_and_the_option() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "The user goes all-in if he has contributed some"
    hand = table([500] * 3, structure=Structure.NO_LIMIT, game=Game.OMAHA, all_in_on_timeout=True)
    # The button has put nothing in: "otherwise his hand is folded".
    assert time_out_move(hand, 3, disconnected=True) is TimeOutMove.FOLD
    without = table([500] * 3, structure=Structure.NO_LIMIT, game=Game.OMAHA)
    play(without, "3 call", "1 call", "2 raise 50")
    assert time_out_move(without, 3, disconnected=True) is TimeOutMove.FOLD


def test_a_time_out_at_showdown_mucks() -> None:
    # docs/rules.md: "Others show or muck in turn; a mucked hand wins nothing."
    hand = _showdown()
    assert hand.to_act == 2
    assert time_out_move(hand, 2) is TimeOutMove.MUCK
    assert time_out(hand, 2)[0] == Mucked(2)


def test_a_hand_that_could_win_is_shown_whatever_its_player_chose() -> None:
    # docs/rules/sources/omaha-hi-lo-cardroom-rules.txt: "CARDS SPEAK. Winning hand must show all cards prior to pot being awarded."
    hand = _showdown()
    assert hand.to_act == 2  # first left of the button, with no river bet: nothing to beat yet
    assert show_or_muck(hand, 2, muck_losing=True) is Action.SHOW
    assert show_or_muck(hand, 2, muck_losing=False) is Action.SHOW


def test_a_beaten_hand_is_mucked_or_shown_as_its_player_chose() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "they have the best hand, the remaining players may/may not show their cards"
    hand = _showdown()
    play(hand, "2 show")
    assert show_or_muck(hand, 3, muck_losing=True) is Action.MUCK
    assert show_or_muck(hand, 3, muck_losing=False) is Action.SHOW
