"""All-in equity read from a hand's records, as the live table shows it at a run-out."""

import random

import pytest

from tables.engine.cards import shuffled_deck
from tables.engine.config import Config, Game, Structure
from tables.engine.equity import equity, runout_equity, runout_pots
from tables.engine.records import BoardDealt, Shown
from tables.engine.state import Action, Hand, SeatSpec
from tests.engine.hand_helpers import table


def _heads_up(structure: Structure = Structure.NO_LIMIT) -> Hand:
    config = Config(Game.OMAHA_HI_LO, structure, big_blind=2)
    deck = shuffled_deck(random.Random(7))
    return Hand.start(config, [SeatSpec(1, 100), SeatSpec(2, 100)], 1, deck)


def _passive(options):
    return Action.CHECK if Action.CHECK in options.actions else Action.CALL


def _play_to_flop(hand: Hand) -> None:
    while hand.street == "preflop":
        options = hand.legal_actions()
        hand.act(options.seat, _passive(options))


def test_all_in_on_the_flop_shows_each_hands_exact_share_at_that_moment():
    # docs/rules.md: "When all but one are all-in and no betting can follow, every hand is
    # turned up before the board is run out."
    hand = _heads_up()
    _play_to_flop(hand)
    flop = list(hand.board)
    first = hand.legal_actions()
    hand.act(first.seat, Action.BET, first.max_to)
    hand.act(hand.legal_actions().seat, Action.CALL)
    assert hand.is_complete

    shown = {r.seat: r.cards for r in hand.records if isinstance(r, Shown)}
    expected = equity(Game.OMAHA_HI_LO, [shown[1], shown[2]], flop)
    shares = runout_equity(hand.records)

    assert shares == {1: expected.shares[0], 2: expected.shares[1]}
    assert abs(sum(shares.values()) - 1) < 1e-9


def test_a_hand_bet_to_the_river_has_no_run_out_equity():
    hand = _heads_up(Structure.POT_LIMIT)
    while not hand.is_complete:
        options = hand.legal_actions()
        if Action.SHOW in options.actions:
            hand.act(options.seat, Action.SHOW)
        else:
            hand.act(options.seat, _passive(options))
    assert sum(isinstance(r, BoardDealt) for r in hand.records) == 3
    assert runout_equity(hand.records) is None


def test_preflop_all_in_estimate_is_the_same_on_every_rebuild():
    hand = _heads_up()
    options = hand.legal_actions()
    hand.act(options.seat, Action.RAISE, options.max_to)
    hand.act(hand.legal_actions().seat, Action.CALL)
    assert hand.is_complete
    first = runout_equity(hand.records, samples=2000)
    again = runout_equity(Hand.from_records(hand.records).records, samples=2000)
    assert first is not None and first == again


# ------------------------------------------------------------ the run-out, street by street


def _all_in_on_the_flop() -> Hand:
    hand = _heads_up()
    _play_to_flop(hand)
    first = hand.legal_actions()
    hand.act(first.seat, Action.BET, first.max_to)
    hand.act(hand.legal_actions().seat, Action.CALL)
    return hand


def test_the_run_out_starts_where_the_hands_were_turned_up():
    # docs/rules.md: "every hand is turned up before the board is run out": a table deals the
    # rest of the board street by street from that moment.
    assert _all_in_on_the_flop().runout_from == 3
    bet_to_river = _heads_up(Structure.POT_LIMIT)
    while not bet_to_river.is_complete:
        options = bet_to_river.legal_actions()
        if Action.SHOW in options.actions:
            bet_to_river.act(options.seat, Action.SHOW)
        else:
            bet_to_river.act(options.seat, _passive(options))
    assert bet_to_river.runout_from is None


def test_a_run_out_view_shows_the_board_so_far_and_the_stacks_before_the_award():
    hand = _all_in_on_the_flop()
    final = hand.view(None)
    turn = hand.runout_view(None, 4)
    assert turn["board"] == final["board"][:4]
    assert turn["awards"] == [] and not turn["complete"] and turn["street"] == "turn"
    assert turn["to_act"] is None and turn["legal_actions"] is None
    start = hand.starting_stacks()
    for seat in turn["seats"]:
        # Both hands turned up, every chip they put in still in the middle.
        assert seat["cards"] is not None and seat["status"] == "all-in"
        assert seat["stack"] == start[seat["seat"]] - seat["put_in"]
    assert sum(p["amount"] for p in turn["pots"]) == sum(s["put_in"] for s in turn["seats"])


def test_run_out_equity_follows_the_board_as_it_is_dealt():
    hand = _all_in_on_the_flop()
    board = list(hand.board)
    shown = {r.seat: r.cards for r in hand.records if isinstance(r, Shown)}
    on_turn = equity(Game.OMAHA_HI_LO, [shown[1], shown[2]], board[:4])
    shares = runout_equity(hand.records, board_cards=4)
    assert shares == {1: on_turn.shares[0], 2: on_turn.shares[1]}
    assert runout_equity(hand.records, board_cards=3) == runout_equity(hand.records)


# ------------------------------------------------------------ side pots


def _short_stack_all_in_with_a_side_pot() -> Hand:
    """Seat 1 (30 chips) is all in before the flop with a royal flush to come; seats 2 and 3
    (200 each) put everything in on the flop: a main pot of 90 for all three, a side pot of
    340 for seats 2 and 3 alone."""
    hand = table(
        [30, 200, 200],
        game=Game.OMAHA,
        structure=Structure.NO_LIMIT,
        holes=["AsKs2c2d", "AhAdQhQd", "9h8h7c6c"],
        board="QsJsTs3d4c",
    )
    hand.act(3, Action.CALL)
    hand.act(1, Action.RAISE, 30)
    hand.act(2, Action.CALL)
    hand.act(3, Action.CALL)
    hand.act(2, Action.BET, 170)
    hand.act(3, Action.CALL)
    assert hand.is_complete and hand.runout_from == 3
    return hand


def test_a_player_with_no_chance_in_the_main_pot_still_shows_their_side_pot_equity():
    # The short stack's royal flush wins the main pot whatever comes; seats 2 and 3 are 0%
    # there, yet one of them wins the side pot, which the short stack cannot win.
    hand = _short_stack_all_in_with_a_side_pot()
    shown = {r.seat: r.cards for r in hand.records if isinstance(r, Shown)}
    flop = list(hand.board[:3])
    side = equity(Game.OMAHA, [shown[2], shown[3]], flop, dead=shown[1])

    main_pot, side_pot = runout_pots(hand.records)

    assert (main_pot.amount, main_pot.shares) == (90, {1: 1.0, 2: 0.0, 3: 0.0})
    assert (side_pot.amount, side_pot.shares) == (340, {2: side.shares[0], 3: side.shares[1]})
    shares = runout_equity(hand.records)
    # Each hand's worth is its expected chips over everything in the middle (430).
    assert shares == pytest.approx(
        {1: 90 / 430, 2: side.shares[0] * 340 / 430, 3: side.shares[1] * 340 / 430}
    )
    assert shares[2] > 0 and shares[3] > 0
    assert sum(shares.values()) == pytest.approx(1)


def test_side_pot_equity_follows_the_board_as_it_is_dealt():
    hand = _short_stack_all_in_with_a_side_pot()
    shown = {r.seat: r.cards for r in hand.records if isinstance(r, Shown)}
    turn = list(hand.board[:4])
    side = equity(Game.OMAHA, [shown[2], shown[3]], turn, dead=shown[1])
    _main, side_pot = runout_pots(hand.records, board_cards=4)
    assert side_pot.shares == {2: side.shares[0], 3: side.shares[1]}


def test_a_single_pot_keeps_its_shares_unchanged():
    hand = _all_in_on_the_flop()
    (pot,) = runout_pots(hand.records)
    assert pot.amount == hand.starting_stacks()[1] + hand.starting_stacks()[2]
    assert runout_equity(hand.records) == pot.shares
