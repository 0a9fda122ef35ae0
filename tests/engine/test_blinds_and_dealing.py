"""Blinds, antes, the deal, streets and who acts first."""

from __future__ import annotations

import pytest

from tables.engine.config import AnteKind, Config, Game, Structure
from tables.engine.errors import RuleError
from tables.engine.records import (
    AntePosted,
    BlindPosted,
    BoardDealt,
    Burned,
    HoleDealt,
    SeatSpec,
    record_from_json,
    record_to_json,
)
from tables.engine.state import Action, Hand, Street
from tests.engine.hand_helpers import kinds, play, table

DECK = tuple(range(52))


def test_small_blind_is_half_the_big_blind_rounded_down_to_the_chip_unit() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "would post 2. However, as it is just a guideline, the amount of small blind"
    hand = table([100, 100, 100], big_blind=5)
    posted = [r for r in hand.records if isinstance(r, BlindPosted)]
    assert [(r.seat, r.amount, r.blind) for r in posted] == [(1, 2, "small"), (2, 5, "big")]


def test_a_house_small_blind_set_with_the_table_is_used() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "would post 2. However, as it is just a guideline, the amount of small blind"
    hand = table([100, 100, 100], big_blind=10, small_blind=4)
    assert hand.view()["seats"][0]["bet"] == 4


def test_heads_up_the_button_posts_the_small_blind_and_acts_first_before_the_flop() -> None:
    # docs/rules.md: "Heads-up: the button posts the small blind, acts first before the"
    hand = table([100, 100], big_blind=10)  # seat 2 is the button
    posted = {r.seat: r.blind for r in hand.records if isinstance(r, BlindPosted)}
    assert posted == {2: "small", 1: "big"}
    assert hand.to_act == 2
    play(hand, "2 call", "1 check")
    assert hand.street is Street.FLOP
    assert hand.to_act == 1  # the button acts last after the flop


def test_hole_cards_are_dealt_one_at_a_time_from_the_button_left_button_last() -> None:
    # docs/rules/sources/omaha-hi-lo-cardroom-rules.txt: "The Button (player with the Dealer-Button) is last to receive cards on the initial deal"
    hand = Hand.start(
        Config(Game.OMAHA, Structure.POT_LIMIT, big_blind=2),
        [SeatSpec(3, 100), SeatSpec(5, 100), SeatSpec(8, 100)],
        5,
        DECK,
    )
    dealt = [(r.seat, r.cards) for r in hand.records if isinstance(r, HoleDealt)]
    assert dealt == [(8, (0, 3, 6, 9)), (3, (1, 4, 7, 10)), (5, (2, 5, 8, 11))]


def test_a_card_is_burned_before_the_flop_the_turn_and_the_river() -> None:
    # docs/rules/sources/home-series-event-plo8.txt: "the dealer burns a card then deals three community cards (flop)"
    hand = Hand.start(
        Config(Game.OMAHA, Structure.LIMIT, big_blind=10),
        [SeatSpec(1, 100), SeatSpec(2, 100), SeatSpec(3, 100)],
        3,
        DECK,
    )
    play(hand, "3 call", "1 call", "2 check")
    for _ in range(3):
        play(hand, "1 check", "2 check", "3 check")
    streets = [r for r in hand.records if isinstance(r, Burned | BoardDealt)]
    assert streets == [
        Burned(12),
        BoardDealt("flop", (13, 14, 15)),
        Burned(16),
        BoardDealt("turn", (17,)),
        Burned(18),
        BoardDealt("river", (19,)),
    ]
    assert hand.board == (13, 14, 15, 17, 19)


def test_before_the_flop_the_player_left_of_the_big_blind_acts_first() -> None:
    # docs/rules/sources/omaha-hi-lo-cardroom-rules.txt: "Action is initiated on the first betting round by the player on the immediate left of the person who posted the furthest"
    hand = table([100] * 5)
    assert hand.to_act == 3


def test_after_the_flop_the_first_active_player_left_of_the_button_acts_first() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "After the flop and in each subsequent betting round, the first active player"
    hand = table([100] * 4)
    play(hand, "3 call", "4 call", "1 fold", "2 check")
    assert hand.street is Street.FLOP
    assert hand.to_act == 2  # seat 1, left of the button, folded


def test_blinds_are_live_the_big_blind_may_check_or_raise_when_limped_to() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "Blind in turn. All the blinds in Omaha 8 or Better poker are considered live"
    hand = table([100] * 3)
    play(hand, "3 call", "1 call")
    legal = hand.legal_actions()
    assert legal.seat == 2
    assert Action.CHECK in legal.actions and legal.bet_or_raise is Action.RAISE
    assert (legal.min_to, legal.max_to) == (20, 20)


def test_antes_from_every_player_are_dead_money_collected_before_the_blinds() -> None:
    # docs/rules.md: "Antes (tournament structures): an ante from every player, or a single big-blind ante. Antes"
    hand = table([100] * 3, structure=Structure.NO_LIMIT, ante=2)
    assert kinds(hand.records)[1:6] == ["AntePosted"] * 3 + ["BlindPosted"] * 2
    assert hand.pots() == [(6, (1, 2, 3))]
    # Dead money is not a bet: the big blind is still the bet to call.
    assert hand.legal_actions().call == 10


def test_a_big_blind_ante_is_paid_by_the_big_blind_alone() -> None:
    # docs/rules.md: "Antes (tournament structures): an ante from every player, or a single big-blind ante. Antes"
    hand = table([100] * 4, structure=Structure.NO_LIMIT, ante=10, ante_kind=AnteKind.BIG_BLIND)
    antes = [r for r in hand.records if isinstance(r, AntePosted)]
    assert antes == [AntePosted(2, 10, False)]
    assert hand.stacks()[2] == 80


def test_a_player_all_in_on_the_ante_still_plays_for_the_antes() -> None:
    # docs/rules.md: "are dead money, collected before the blinds."
    hand = table([1, 100, 100, 100], structure=Structure.NO_LIMIT, ante=2)
    assert hand.view()["seats"][0]["status"] == "all-in"
    assert hand.pots()[0] == (7, (1, 2, 3, 4))


def test_a_new_player_may_post_a_live_big_blind_which_acts_as_their_opening_bet() -> None:
    # docs/rules/sources/omaha-hi-lo-cardroom-rules.txt: "(3) post the big blind when he sits down. If he chooses the second or third option, the blind acts as his opening bet"
    specs = [SeatSpec(1, 100), SeatSpec(2, 100), SeatSpec(3, 100), SeatSpec(4, 100, live_post=10)]
    hand = table([100] * 4, specs=specs)
    posted = [(r.seat, r.amount, r.blind) for r in hand.records if isinstance(r, BlindPosted)]
    assert (4, 10, "live") in posted
    play(hand, "3 call")
    legal = hand.legal_actions()
    assert legal.seat == 4 and Action.CHECK in legal.actions  # may "call by rapping"
    assert legal.bet_or_raise is Action.RAISE


def test_a_dead_small_blind_goes_to_the_pot_and_is_not_a_bet() -> None:
    # docs/rules/sources/omaha-hi-lo-cardroom-rules.txt: "the small blind goes to the center of the pot while his big blind is live"
    specs = [SeatSpec(1, 100), SeatSpec(2, 100), SeatSpec(3, 100, live_post=10, dead_post=5)]
    hand = table([100] * 3, specs=specs)
    seat3 = hand.view()["seats"][2]
    assert seat3["bet"] == 10 and seat3["put_in"] == 15 and seat3["stack"] == 85
    assert hand.pots() == [(5, (1, 2, 3))]


@pytest.mark.parametrize(
    ("seats", "button", "deck", "message"),
    [
        ([SeatSpec(1, 100)], 1, DECK, "at least two players"),
        ([SeatSpec(1, 100), SeatSpec(2, 0)], 1, DECK, "no chips"),
        ([SeatSpec(1, 100), SeatSpec(2, 100)], 1, DECK[:51], "52 distinct cards"),
        ([SeatSpec(1, 100), SeatSpec(2, 100)], 1, (0,) * 52, "52 distinct cards"),
        ([SeatSpec(1, 100), SeatSpec(1, 100)], 1, DECK, "only once"),
        ([SeatSpec(1, 100), SeatSpec(2, 100)], -1, DECK, "seat number"),
    ],
)
def test_start_refuses_a_bad_setup(
    seats: list[SeatSpec], button: int, deck: tuple[int, ...], message: str
) -> None:
    config = Config(Game.OMAHA, Structure.LIMIT, big_blind=10)
    with pytest.raises(RuleError, match=message):
        Hand.start(config, seats, button, deck)


def test_a_short_blind_posts_all_in_and_the_hand_runs_out() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "A player who does not have enough chips to call a bet is declared All-In."
    hand = table([8, 100], structure=Structure.NO_LIMIT)
    # Heads-up the button (seat 2) posts the small blind; seat 1 is all-in on the big blind.
    assert hand.to_act == 2
    play(hand, "2 call")
    assert hand.is_complete
    assert sum(hand.final_stacks.values()) == 108  # type: ignore[union-attr]


def test_a_dead_small_blind_is_posted_by_nobody_and_the_next_seat_posts_the_big() -> None:
    # TDA 32 (docs/rules.md): "dead button: each player posts the big and small blind once per round"
    # Seat 3, the last big blind, has gone: the button is on seat 2 (the last small blind),
    # the small blind (seat 3) is dead and seat 4 posts the big blind.
    config = Config(Game.OMAHA, Structure.NO_LIMIT, big_blind=10, ante=1)
    seats = [SeatSpec(n, 100) for n in (1, 2, 4, 5)]
    hand = Hand.start(config, seats, 2, DECK, dead_small_blind=True)
    posted = [(r.seat, r.amount, r.blind) for r in hand.records if isinstance(r, BlindPosted)]
    assert posted == [(4, 10, "big")]
    assert hand.pots() == [(4, (4, 5, 1, 2))]  # only the antes: no small blind
    # docs/rules/sources/omaha-hi-lo-cardroom-rules.txt: "Action is initiated on the first betting round by the player on the immediate left of the person who posted the furthest"
    assert hand.to_act == 5
    play(hand, "5 call", "1 call", "2 call")
    legal = hand.legal_actions()
    assert legal.seat == 4 and Action.CHECK in legal.actions  # the big blind's option
    play(hand, "4 check")
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "After the flop and in each subsequent betting round, the first active player"
    assert hand.street is Street.FLOP and hand.to_act == 4


def test_a_big_blind_ante_goes_with_the_big_blind_when_the_small_blind_is_dead() -> None:
    # docs/rules.md: "Antes (tournament structures): an ante from every player, or a single big-blind ante."
    config = Config(
        Game.OMAHA, Structure.NO_LIMIT, big_blind=10, ante=10, ante_kind=AnteKind.BIG_BLIND
    )
    seats = [SeatSpec(n, 100) for n in (1, 3, 5)]
    hand = Hand.start(config, seats, 1, DECK, dead_small_blind=True)
    assert [r for r in hand.records if isinstance(r, AntePosted)] == [AntePosted(3, 10, False)]


def test_heads_up_the_small_blind_cannot_be_dead() -> None:
    # TDA 34B (docs/rules.md): "Heads-up, the small blind is the button and acts first before the flop"
    config = Config(Game.OMAHA, Structure.NO_LIMIT, big_blind=10)
    with pytest.raises(RuleError, match="heads-up the button posts the small blind"):
        Hand.start(config, [SeatSpec(1, 100), SeatSpec(2, 100)], 2, DECK, dead_small_blind=True)


def test_a_dead_small_blind_is_recorded_and_replays_exactly() -> None:
    config = Config(Game.OMAHA_HI_LO, Structure.POT_LIMIT, big_blind=10)
    seats = [SeatSpec(n, 100) for n in (2, 4, 6)]
    hand = Hand.start(config, seats, 6, DECK, dead_small_blind=True)
    play(hand, "4 call", "6 fold")
    started = record_to_json(hand.records[0])
    assert started["dead_small_blind"] is True
    records = [record_from_json(record_to_json(r)) for r in hand.records]
    again = Hand.from_records(records)
    assert again.records == hand.records and again.to_act == hand.to_act
    # A hand with both blinds writes the same JSON as before the option existed, and a
    # stored HandStarted without the field reads back as one with both blinds.
    usual = Hand.start(config, seats, 6, DECK)
    data = record_to_json(usual.records[0])
    assert "dead_small_blind" not in data
    assert record_from_json(data) == usual.records[0]
