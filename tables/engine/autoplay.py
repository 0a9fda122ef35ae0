"""The moves a table makes for a player without waiting for them: what a time-out becomes,
and whether a hand at showdown is shown or mucked.

The time-out (docs/rules.md, Time and disconnection): "On time-out a player checks if
checking is free, else folds, and is then sat out." House option from the online rooms: "a
player who times out while disconnected, with chips in the pot, is treated as all-in. A
player still connected who times out checks or folds as above".

>>> from tables.engine.config import Config, Game, Structure
>>> from tables.engine.state import Hand, SeatSpec
>>> config = Config(Game.OMAHA, Structure.NO_LIMIT, big_blind=10, all_in_on_timeout=True)
>>> hand = Hand.start(config, [SeatSpec(1, 500), SeatSpec(2, 500), SeatSpec(3, 500)], 3,
...                   tuple(range(52)))
>>> hand.to_act, hand.to_call(3)
(3, 10)
>>> time_out_move(hand, 3)  # a bet to call: folded
<TimeOutMove.FOLD: 'fold'>
>>> time_out_move(hand, 3, disconnected=True)  # gone, but nothing in the pot yet: folded
<TimeOutMove.FOLD: 'fold'>
>>> _ = hand.act(3, "call")
>>> time_out_move(hand, 1, disconnected=True)  # gone with the small blind in the pot
<TimeOutMove.ALL_IN: 'all_in'>
>>> [type(r).__name__ for r in time_out(hand, 1, disconnected=True)]
['AllInDeclared']

At showdown a hand that could win something is shown; one that cannot is mucked or shown
as its player chose beforehand (docs/rules.md, Showdown: "Others show or muck in turn; a mucked
hand wins nothing. Cards speak.").

>>> import random
>>> from tables.engine.cards import cards_str, shuffled_deck
>>> hand = Hand.start(Config(Game.OMAHA, Structure.POT_LIMIT, big_blind=2),
...                   [SeatSpec(1, 200), SeatSpec(2, 200)], 2, shuffled_deck(random.Random(2)))
>>> while hand.street != "showdown":
...     _ = hand.act(hand.to_act, "check" if hand.can_act(hand.to_act, "check") else "call")
>>> cards_str(hand.board), cards_str(hand.hole_cards(1)), cards_str(hand.hole_cards(2))
('TdThAcQhTc', '5h2h6h6c', '4s4c8h5d')
>>> show_or_muck(hand, 1, muck_losing=True)  # first to show: nothing shown to beat yet
<Action.SHOW: 'show'>
>>> _ = hand.act(1, "show")  # tens full of sixes: fours full cannot win
>>> show_or_muck(hand, 2, muck_losing=True), show_or_muck(hand, 2, muck_losing=False)
(<Action.MUCK: 'muck'>, <Action.SHOW: 'show'>)
"""

from __future__ import annotations

from enum import StrEnum

from tables.engine.records import Action, Record
from tables.engine.state import Hand, Street

__all__ = ["TimeOutMove", "show_or_muck", "time_out", "time_out_move"]


class TimeOutMove(StrEnum):
    """What a player's time-out becomes: a move of `Hand.act`, or the house all-in
    (`Hand.declare_all_in`)."""

    CHECK = "check"
    FOLD = "fold"
    MUCK = "muck"
    ALL_IN = "all_in"


def time_out_move(hand: Hand, seat: int, *, disconnected: bool = False) -> TimeOutMove:
    """The move `seat`'s time-out makes: a check when checking is free, else a fold; a
    hand waited on at showdown is mucked (it was never shown, so it claims nothing).

    `disconnected`: the player has gone from the table. Where the house treats such a
    player as all-in (`Config.all_in_on_timeout`) and they have chips in the pot, they are
    all-in for those chips instead (`Hand.can_declare_all_in` says when).
    """
    if disconnected and hand.can_declare_all_in(seat):
        return TimeOutMove.ALL_IN
    if hand.street == Street.SHOWDOWN:
        return TimeOutMove.MUCK
    if hand.can_act(seat, Action.CHECK):
        return TimeOutMove.CHECK
    return TimeOutMove.FOLD


def time_out(hand: Hand, seat: int, *, disconnected: bool = False) -> list[Record]:
    """Make the move `time_out_move` decides for `seat` and return its records."""
    move = time_out_move(hand, seat, disconnected=disconnected)
    if move is TimeOutMove.ALL_IN:
        return hand.declare_all_in(seat)
    return hand.act(seat, Action(move.value))


def show_or_muck(hand: Hand, seat: int, *, muck_losing: bool) -> Action:
    """Whether `seat` shows or mucks its hand at showdown, so a showdown never waits on
    anybody: a hand that could still win part of a pot is shown (cards speak); one that can
    only lose is mucked when its player chose to muck losing hands (`muck_losing`), else
    shown."""
    if hand.showing_could_win(seat) or not muck_losing:
        return Action.SHOW
    return Action.MUCK
