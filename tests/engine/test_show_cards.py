"""Showing cards after the hand: a player turns up some or all of their own cards once the
hand is over, and the hand's record (its views, its replays, its PHH) holds exactly those.

docs/rules.md, Home-game options: "a player may show any of their own cards after the hand ends
(won without a showdown or folded). What is shown becomes part of the hand's record; no
other card of a folded or mucked hand is ever revealed."
"""

from __future__ import annotations

import re

import pytest

from tables.engine.cards import parse_cards
from tables.engine.config import Game, Structure
from tables.engine.errors import RuleError
from tables.engine.phh import PhhError, hand_to_phh, hand_to_phh_for, parse_phh, replay
from tables.engine.records import (
    MOVE_RECORDS,
    CardsShown,
    HandEnded,
    record_from_json,
    record_to_json,
    records_visible_to,
)
from tables.engine.state import Action, Hand
from tests.engine.gen_phh_corpus import pokerkit_finishing_stacks
from tests.engine.hand_helpers import play, table

# Deal order is seat 1 (small blind), 2 (big blind), 3 (the button).
HOLES = ["AhKhQhJh", "2c3c4c5c", "7s8s9sTs"]
BOARD = "2d7d9hJcKs"


def won_without_a_showdown() -> Hand:
    """Seat 3 folds, seat 1 raises, seat 2 folds: seat 1 wins, nobody shows."""
    hand = table([100, 100, 100], game=Game.OMAHA, structure=Structure.POT_LIMIT, holes=HOLES)
    play(hand, "3 fold", "1 raise 30", "2 fold")
    assert hand.is_complete
    return hand


def shown_down_with_a_muck() -> Hand:
    """Checked to the river; at the showdown the hand that cannot win is mucked."""
    hand = table(
        [100, 100], game=Game.OMAHA, structure=Structure.POT_LIMIT, holes=HOLES[:2], board=BOARD
    )
    play(hand, "2 call", "1 check")
    while not hand.is_complete:
        seat = hand.to_act
        assert seat is not None
        if hand.street == "showdown":
            show = hand.showing_could_win(seat)
            hand.act(seat, Action.SHOW if show else Action.MUCK)
        else:
            hand.act(seat, Action.CHECK)
    return hand


def cards(text: str) -> tuple[int, ...]:
    return parse_cards(text)


def test_a_folded_player_shows_some_of_their_cards_once_the_hand_is_over() -> None:
    # docs/rules.md, Home-game options: "a player may show any of their own cards after the
    # hand ends (won without a showdown or folded)".
    hand = won_without_a_showdown()
    before = hand.records
    assert hand.can_show(3, cards("9s7s"))
    assert hand.show(3, cards("9s7s")) == [CardsShown(3, cards("9s7s"))]
    assert hand.records == (*before, CardsShown(3, cards("9s7s")))
    assert isinstance(hand.records[-2], HandEnded)
    # Shown cards are the record's: every viewer sees them, in the order dealt.
    for viewer in (None, 1, 2):
        seat3 = next(s for s in hand.view(viewer)["seats"] if s["seat"] == 3)
        assert seat3["shown_after"] == ["7s", "9s"]
        assert seat3["cards"] is None and seat3["status"] == "folded" and not seat3["shown"]
    # Showing changes no chips.
    assert hand.final_stacks == {1: 110, 2: 90, 3: 100}


def test_the_winner_without_a_showdown_shows_in_two_goes() -> None:
    hand = won_without_a_showdown()
    hand.show(1, cards("Ah"))
    hand.show(1, cards("JhKhQh"))
    seat1 = hand.view(None)["seats"][0]
    assert seat1["shown_after"] == ["Ah", "Kh", "Qh", "Jh"]
    assert not hand.can_show(1, cards("Kh"))


def test_a_hand_mucked_at_the_showdown_may_be_shown_afterwards() -> None:
    hand = shown_down_with_a_muck()
    mucked = {r.seat for r in hand.records if type(r).__name__ == "Mucked"}
    assert mucked == {2}
    hand.show(2, cards("5c"))
    seat2 = next(s for s in hand.view(None)["seats"] if s["seat"] == 2)
    assert seat2["status"] == "mucked" and seat2["shown_after"] == ["5c"]
    # The winner's hand was turned up at the showdown: nothing of it is left to show.
    with pytest.raises(RuleError, match="seat 1 has already shown Ah") as refused:
        hand.show(1, cards("Ah"))
    assert refused.value.code == "show_card_already_shown"


@pytest.mark.parametrize(
    ("seat", "shown", "code", "message"),
    [
        (4, "Ah", "seat_not_in_hand", "seat 4 is not in this hand"),
        (1, "2c", "show_card_not_held", "seat 1 does not hold 2c"),
        (1, "", "show_no_cards", "say which cards to show"),
        (1, "AhAh", "show_card_twice", "Ah is named twice"),
        (3, "7s", "show_card_already_shown", "seat 3 has already shown 7s"),
    ],
)
def test_a_show_that_breaks_the_rule_is_refused_and_changes_nothing(
    seat: int, shown: str, code: str, message: str
) -> None:
    hand = won_without_a_showdown()
    hand.show(3, cards("7s"))
    before = hand.records
    wanted = cards(shown) if shown else ()
    assert not hand.can_show(seat, wanted)
    with pytest.raises(RuleError, match=message) as refused:
        hand.show(seat, wanted)
    assert refused.value.code == code
    assert hand.records == before


def test_nothing_is_shown_before_the_hand_is_over() -> None:
    hand = table([100, 100, 100], game=Game.OMAHA, structure=Structure.POT_LIMIT, holes=HOLES)
    play(hand, "3 fold")  # folded, but the hand goes on
    with pytest.raises(RuleError, match="once the hand is over") as refused:
        hand.show(3, cards("7s"))
    assert refused.value.code == "show_before_hand_over"
    with pytest.raises(RuleError) as not_a_card:
        won_without_a_showdown().show(1, [52])
    assert not_a_card.value.code == "not_a_card"


def test_a_hand_with_shows_is_rebuilt_exactly_from_its_records() -> None:
    hand = won_without_a_showdown()
    hand.show(3, cards("Ts"))
    hand.show(1, cards("AhKhQhJh"))
    stored = [record_to_json(r) for r in hand.records]
    assert stored[-1] == {"kind": "CardsShown", "seat": 1, "cards": ["Ah", "Kh", "Qh", "Jh"]}
    again = Hand.from_records([record_from_json(r) for r in stored])
    assert again.records == hand.records and again.view(None) == hand.view(None)
    # A show is a move: a replayer steps through it after the hand, and a copy catches up.
    steps = list(Hand.replay_steps(hand.records))
    assert [move for move, _ in steps[-2:]] == [CardsShown(3, cards("Ts")), hand.records[-1]]
    assert isinstance(CardsShown(3, ()), MOVE_RECORDS)
    behind = Hand.from_records(hand.records[:-2])
    behind.catch_up(hand.records[-2:])
    assert behind.records == hand.records
    # A stored show of a card the seat did not hold does not replay.
    forged = [*hand.records[:-2], CardsShown(3, cards("Ah"))]
    with pytest.raises(RuleError, match="seat 3 does not hold Ah"):
        Hand.from_records(forged)


def test_no_other_card_of_a_folded_hand_is_ever_revealed() -> None:
    # docs/rules.md, Home-game options: "no other card of a folded or mucked hand is ever
    # revealed."
    hand = won_without_a_showdown()
    hand.show(3, cards("8s"))
    for viewer in (None, 1, 2):
        visible = records_visible_to(hand.records, viewer)
        dealt = next(r for r in visible if r["kind"] == "HoleDealt" and r["seat"] == 3)
        assert dealt["cards"] == ["??", "8s", "??", "??"]
        text = repr(visible) + repr(hand.view(viewer))
        for hidden in ("7s", "9s", "Ts"):
            assert hidden not in text, (viewer, hidden)
    # Only the player themselves still sees their whole hand.
    own = records_visible_to(hand.records, 3)
    dealt = next(r for r in own if r["kind"] == "HoleDealt" and r["seat"] == 3)
    assert dealt["cards"] == ["7s", "8s", "9s", "Ts"]


def test_the_phh_writes_a_whole_hand_shown_by_the_winner_as_sm() -> None:
    hand = won_without_a_showdown()
    hand.show(1, cards("QhAh"))
    hand.show(1, cards("KhJh"))
    text = hand_to_phh(hand)  # checked: it replays to the same stacks
    actions = parse_phh(text).actions
    assert [a.line for a in actions[-2:]] == [
        "# p1 shows QhAh after the hand",
        "p1 sm AhKhQhJh",
    ]
    # Our replay records the show; PokerKit reads it as its showdown after the hand.
    again = replay(parse_phh(text))
    assert again.records[-1] == CardsShown(1, cards("AhKhQhJh"))
    assert pokerkit_finishing_stacks(text) == [110, 90, 100]


def test_the_phh_puts_a_folded_hands_show_in_a_commentary_and_no_other_card() -> None:
    hand = won_without_a_showdown()
    hand.show(3, cards("9s"))
    spectator = hand_to_phh_for(hand, None)
    assert '"d dh p3 ????9s??"' in spectator
    assert '"# p3 shows 9s after the hand"' in spectator
    dealt = set(re.findall(r"[2-9TJQKA][cdhs]", spectator))
    assert dealt == {"9s"}  # nothing of seat 1's unshown winner, nor the rest of seat 3's
    # The full history still replays (a commentary is a no-op) in ours and PokerKit's.
    text = hand_to_phh(hand)
    assert replay(parse_phh(text)).final_stacks == hand.final_stacks
    assert pokerkit_finishing_stacks(text) == [110, 90, 100]


def test_a_phh_sm_after_the_hand_by_a_folded_player_is_refused() -> None:
    text = hand_to_phh(won_without_a_showdown())
    assert '"p2 f",' in text
    with pytest.raises(PhhError, match="'p3 sm 7s8s9sTs': the hand is over"):
        replay(parse_phh(text.replace('"p2 f",', '"p2 f",\n  "p3 sm 7s8s9sTs",')))
