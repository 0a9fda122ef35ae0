"""Run it twice, a cash table's house option (`Config.run_it_twice`).

docs/rules.md, Home-game options: "Run it twice: offered when all but at most one player still
in are all-in and cards are still to come, and no betting can follow. Every player still in
must agree (silence is no). The remaining board cards are dealt twice from the same
shuffled deck, in order, with the usual burns; each pot (main and side) is split into two
halves, the odd chip to the first run; each half is settled on its own run's board by the
showdown rules above (hi/lo halves and odd chips included). Shown hands are shown once."
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from tables.engine.cards import cards_str, parse_cards
from tables.engine.config import Config, Game, Structure
from tables.engine.equity import runout_pots
from tables.engine.errors import RuleError
from tables.engine.phh import hand_to_phh, parse_phh, replay
from tables.engine.records import (
    BoardDealt,
    Burned,
    Half,
    PotAwarded,
    RunTwiceOffered,
    RunTwiceVoted,
    SeatSpec,
    Shown,
    record_from_json,
    record_to_json,
)
from tables.engine.state import Action, Hand, RunTwiceVote, Street
from tests.engine.hand_helpers import kinds, make_deck, play

# Where the second run's new cards sit in the deck, after the 4n hole cards (p): the first
# run takes p..p+7 (a burn before each street), the second run's burns come between.
_SECOND_RUN_SPOTS = {"preflop": (9, 10, 11, 13, 15), "flop": (9, 11), "turn": (9,)}


def twice_deck(holes: Sequence[str], board: str, second: str, street: str) -> tuple[int, ...]:
    """`make_deck`, with the second run's new cards (`second`) where a run twice from
    `street` deals them."""
    deck = list(make_deck(holes, board))
    p = 4 * len(holes)
    for offset, card in zip(_SECOND_RUN_SPOTS[street], parse_cards(second), strict=True):
        k = deck.index(card)
        deck[k], deck[p + offset] = deck[p + offset], deck[k]
    return tuple(deck)


def start(
    stacks: Sequence[int],
    deck: Sequence[int],
    *,
    game: Game = Game.OMAHA_HI_LO,
    run_it_twice: bool = True,
    big_blind: int = 10,
    chip_unit: int = 1,
) -> Hand:
    """A no-limit hand at seats 1..n, the button on seat n (seat 1 the small blind)."""
    config = Config(
        game,
        Structure.NO_LIMIT,
        big_blind=big_blind,
        chip_unit=chip_unit,
        run_it_twice=run_it_twice,
    )
    seats = [SeatSpec(i + 1, stack) for i, stack in enumerate(stacks)]
    return Hand.start(config, seats, len(stacks), deck)


def awards(hand: Hand) -> list[tuple[int, int, int, str, int]]:
    """(pot, seat, amount, half, run) of every award, in the order made."""
    return [
        (r.pot, r.seat, r.amount, str(r.half), r.run)
        for r in hand.records
        if isinstance(r, PotAwarded)
    ]


def three_all_in_hi_lo() -> Hand:
    """Omaha Hi/Lo, all in before the flop: a short stack of 51 and two of 200.

    Main pot 153 (all three), side pot 298 (seats 2 and 3). First run 5h 6s 8d Js 9h: aces
    (seat 3) win high, and the low goes to seat 1 in the main pot, seat 2 in the side pot.
    Second run Qd Kc 7c 3h 2h: no low can be made; three kings (seat 1) win the main pot,
    three queens (seat 2) the side pot.
    """
    deck = twice_deck(["Ac2cKdKh", "3d4dQsQc", "AsAhJcTc"], "5h6s8dJs9h", "QdKc7c3h2h", "preflop")
    hand = start([51, 200, 200], deck)
    play(hand, "3 raise 200", "1 call", "2 call")
    return hand


def test_the_players_still_in_are_asked_once_the_hands_are_turned_up() -> None:
    # docs/rules.md, Home-game options: "offered when all but at most one player still in are
    # all-in and cards are still to come, and no betting can follow."
    hand = three_all_in_hi_lo()
    assert kinds(hand.records[-4:]) == ["Shown", "Shown", "Shown", "RunTwiceOffered"]
    assert hand.records[-1] == RunTwiceOffered((1, 2, 3))
    assert hand.run_twice_vote == RunTwiceVote((1, 2, 3), ())
    assert hand.run_twice_vote.waiting == (1, 2, 3)
    # Nobody acts and nothing is dealt while the vote is open.
    assert hand.to_act is None and hand.board == () and not hand.is_complete
    assert hand.street is Street.PREFLOP
    assert hand.legal_actions().seat is None
    view = hand.view(None)
    assert view["run_twice"] == {"asked": [1, 2, 3], "agreed": []} and view["boards"] is None


def test_both_runs_settle_their_own_half_of_each_pot_hi_lo_and_side_pots() -> None:
    # docs/rules.md, Home-game options: "each pot (main and side) is split into two halves, the
    # odd chip to the first run; each half is settled on its own run's board by the
    # showdown rules above (hi/lo halves and odd chips included)." And docs/rules.md,
    # Showdown: "An odd chip between the halves goes to the high half."
    hand = three_all_in_hi_lo()
    hand.vote_run_twice(2, True)
    assert hand.run_twice_vote == RunTwiceVote((1, 2, 3), (2,))
    assert not hand.is_complete
    hand.vote_run_twice(3, True)
    hand.vote_run_twice(1, True)
    assert hand.is_complete and hand.run_twice_vote is None
    assert [cards_str(b) for b in hand.boards] == ["5h6s8dJs9h", "QdKc7c3h2h"]
    assert hand.board == parse_cards("5h6s8dJs9h")
    # Main pot 153: 77 to the first run (39 high, 38 low), 76 to the second (no low: the
    # high takes it all). Side pot 298: 149 a run (75 high, 74 low; then 149 whole).
    assert awards(hand) == [
        (0, 3, 39, "high", 1),
        (0, 1, 38, "low", 1),
        (0, 1, 76, "whole", 2),
        (1, 3, 75, "high", 1),
        (1, 2, 74, "low", 1),
        (1, 2, 149, "whole", 2),
    ]
    assert hand.final_stacks == {1: 114, 2: 223, 3: 114}
    # Shown hands are shown once: the vote and the second run add no Shown.
    assert sum(isinstance(r, Shown) for r in hand.records) == 3


def test_the_second_run_comes_from_the_same_deck_in_order_with_its_burns() -> None:
    # docs/rules.md, Home-game options: "The remaining board cards are dealt twice from the
    # same shuffled deck, in order, with the usual burns".
    hand = three_all_in_hi_lo()
    for seat in (1, 2, 3):
        hand.vote_run_twice(seat, True)
    started = hand.records[0]
    deck = started.deck  # type: ignore[union-attr]
    dealt = [r for r in hand.records if isinstance(r, Burned | BoardDealt)]
    cards: list[int] = []
    for r in dealt:
        cards += [r.card] if isinstance(r, Burned) else list(r.cards)
    # Three players: the hole cards are the deck's first 12; both runs follow in order.
    assert cards == list(deck[12:28])
    runs = [(r.street, r.run) for r in dealt if isinstance(r, BoardDealt)]
    assert runs == [("flop", 1), ("turn", 1), ("river", 1), ("flop", 2), ("turn", 2), ("river", 2)]


def test_a_tie_in_one_run_splits_that_half_with_the_odd_chip_left_of_the_button() -> None:
    # docs/rules.md, Showdown: "Ties split a pot or a half equally; odd chips go one by one to
    # the tied winners closest to the left of the button."
    deck = twice_deck(["2c3c4d5d", "AhKh7c7d", "AdKd8c8h"], "AsKs9h6c2d", "3h2s", "flop")
    hand = start([51, 200, 200], deck, game=Game.OMAHA)
    play(hand, "3 call", "1 call", "2 check")
    play(hand, "1 bet 41", "2 raise 190", "3 call")
    hand.vote_run_twice(1, True)
    hand.vote_run_twice(2, True)
    hand.vote_run_twice(3, True)
    assert [cards_str(b) for b in hand.boards] == ["AsKs9h6c2d", "AsKs9h3h2s"]
    # Main pot 153: 77 to the first run, where seats 2 and 3 tie (aces and kings): 39 to
    # seat 2 (first left of the button), 38 to seat 3; 76 to the second, where seat 1's
    # wheel wins. Side pot 298: 149 a run, tied both times (75 and 74).
    assert awards(hand) == [
        (0, 2, 39, "whole", 1),
        (0, 3, 38, "whole", 1),
        (0, 1, 76, "whole", 2),
        (1, 2, 75, "whole", 1),
        (1, 3, 74, "whole", 1),
        (1, 2, 75, "whole", 2),
        (1, 3, 74, "whole", 2),
    ]
    assert hand.final_stacks == {1: 76, 2: 189, 3: 186}


def test_with_one_player_covering_the_rest_the_second_run_shares_the_flop() -> None:
    # "all but at most one": heads-up, the caller has chips behind.
    deck = twice_deck(["AhAd2c3c", "KhKd4c5c"], "7s8s9dTcJc", "2s3d", "flop")
    hand = start([60, 300], deck, game=Game.OMAHA)
    play(hand, "2 call", "1 check")
    play(hand, "1 bet 50", "2 call")
    assert hand.run_twice_vote == RunTwiceVote((1, 2), ())
    hand.vote_run_twice(1, True)
    hand.vote_run_twice(2, True)
    first, second = hand.boards
    assert first[:3] == second[:3] and cards_str(second[3:]) == "2s3d"
    assert hand.final_stacks is not None and sum(hand.final_stacks.values()) == 360


def test_one_no_runs_the_board_once_as_without_the_option() -> None:
    # docs/rules.md, Home-game options: "Every player still in must agree".
    hand = three_all_in_hi_lo()
    hand.vote_run_twice(1, True)
    new = hand.vote_run_twice(3, False)
    assert new[0] == RunTwiceVoted(3, False)
    assert hand.is_complete and len(hand.boards) == 1
    assert all(r.run == 1 for r in hand.records if isinstance(r, BoardDealt | PotAwarded))
    assert "run" not in hand.view(None)["awards"][0]
    plain = start([51, 200, 200], hand.records[0].deck, run_it_twice=False)  # type: ignore[union-attr]
    play(plain, "3 raise 200", "1 call", "2 call")
    assert plain.final_stacks == hand.final_stacks
    assert [r for r in plain.records if isinstance(r, PotAwarded)] == [
        r for r in hand.records if isinstance(r, PotAwarded)
    ]


def test_silence_is_no() -> None:
    # docs/rules.md, Home-game options: "Every player still in must agree (silence is no)."
    hand = three_all_in_hi_lo()
    hand.vote_run_twice(1, True)
    with pytest.raises(RuleError, match="silence is no") as refused:
        hand.vote_run_twice(2, True, silent=True)
    assert refused.value.code == "silence_is_no"
    hand.vote_run_twice(2, False, silent=True)
    assert hand.is_complete and len(hand.boards) == 1
    voted = [r for r in hand.records if isinstance(r, RunTwiceVoted)]
    assert voted == [RunTwiceVoted(1, True), RunTwiceVoted(2, False, True)]
    assert record_to_json(voted[1]) == {
        "kind": "RunTwiceVoted",
        "seat": 2,
        "agree": False,
        "silent": True,
    }
    assert record_to_json(voted[0]) == {"kind": "RunTwiceVoted", "seat": 1, "agree": True}


def test_bad_votes_are_refused_and_change_nothing() -> None:
    deck = make_deck(["AhAd2c3c", "KhKd4c5c", "QhQd6c7c"], "7s8s9dTcJc")
    hand = start([100, 100, 100], deck)
    with pytest.raises(RuleError, match="no vote on running it twice is open") as refused:
        hand.vote_run_twice(1, True)
    assert refused.value.code == "no_run_twice_vote"
    play(hand, "3 fold", "1 raise 100", "2 call")
    assert hand.run_twice_vote == RunTwiceVote((1, 2), ())
    before = (hand.records, hand.view(None))
    cases = [
        (9, "seat_not_in_hand"),  # not dealt in
        (3, "not_asked_run_twice"),  # folded: not still in
    ]
    for seat, code in cases:
        assert not hand.can_vote_run_twice(seat)
        with pytest.raises(RuleError) as refused:
            hand.vote_run_twice(seat, True)
        assert refused.value.code == code
    hand.vote_run_twice(1, True)
    with pytest.raises(RuleError, match="seat 1 has already agreed") as refused:
        hand.vote_run_twice(1, False)
    assert refused.value.code == "run_twice_answered"
    # Nobody acts during the vote.
    with pytest.raises(RuleError) as refused:
        hand.act(2, Action.CHECK)
    assert refused.value.code == "run_twice_vote_open"
    assert hand.can_vote_run_twice(2) and not hand.can_vote_run_twice(1)
    assert hand.records == (*before[0], RunTwiceVoted(1, True))


def test_not_offered_without_the_option_on_the_river_or_when_the_deck_is_short() -> None:
    deck = make_deck(["AhAd2c3c", "KhKd4c5c"], "7s8s9dTcJc")
    off = start([100, 100], deck, run_it_twice=False)
    play(off, "2 raise 100", "1 call")
    assert off.is_complete and off.run_twice_vote is None
    # All in on the river: no card is still to come.
    river = start([100, 100], deck)
    play(river, "2 call", "1 check", "1 check", "2 check", "1 check", "2 check")
    play(river, "1 bet 90", "2 call")
    assert river.street is Street.SHOWDOWN and river.run_twice_vote is None
    assert not any(isinstance(r, RunTwiceOffered) for r in river.records)
    # Ten players all in before the flop: 40 hole cards leave 12, and two runs with their
    # burns need 16. Nine leave 16: offered.
    for players, offered in ((10, False), (9, True)):
        full = start([10] * players, tuple(range(52)))
        for seat in [*range(3, players + 1), 1]:
            full.act(seat, Action.CALL)
        assert (full.run_twice_vote is not None) is offered, players
        assert full.is_complete is not offered


def test_the_records_rebuild_the_hand_exactly_at_every_step() -> None:
    hand = three_all_in_hi_lo()
    mid = Hand.from_records(hand.records)
    assert mid.run_twice_vote == hand.run_twice_vote
    hand.vote_run_twice(1, True)
    hand.vote_run_twice(2, True)
    # A copy kept at the vote catches up with the answers another process made.
    mid.catch_up(hand.records[len(mid.records) :])
    assert mid.run_twice_vote == RunTwiceVote((1, 2, 3), (1, 2))
    hand.vote_run_twice(3, True)
    stored = json.loads(json.dumps([record_to_json(r) for r in hand.records]))
    again = Hand.from_records([record_from_json(r) for r in stored])
    assert again.records == hand.records and again.boards == hand.boards
    assert again.view(None) == hand.view(None) and again.view(2) == hand.view(2)
    assert {"kind": "BoardDealt", "street": "river", "cards": ["2h"], "run": 2} in stored
    assert {"kind": "BoardDealt", "street": "river", "cards": ["9h"]} in stored
    steps = list(Hand.replay_steps(hand.records))
    assert [type(move).__name__ for move, _ in steps[-3:]] == ["RunTwiceVoted"] * 3
    # A stored second run that the deck does not deal is refused.
    changed = list(hand.records)
    k = next(i for i, r in enumerate(changed) if isinstance(r, PotAwarded) and r.run == 2)
    award = changed[k]
    assert isinstance(award, PotAwarded)
    changed[k] = PotAwarded(award.pot, award.seat, award.amount, award.half, award.hand, 1)
    with pytest.raises(RuleError) as refused:
        Hand.from_records(changed)
    assert refused.value.code == "record_breaks_rules"


def test_the_run_out_view_deals_both_boards_street_by_street() -> None:
    hand = three_all_in_hi_lo()
    for seat in (1, 2, 3):
        hand.vote_run_twice(seat, True)
    assert hand.runout_from == 0
    flop = hand.runout_view(None, 3)
    assert flop["boards"] == [["5h", "6s", "8d"], ["Qd", "Kc", "7c"]]
    assert flop["awards"] == [] and flop["board"] == ["5h", "6s", "8d"]
    final = hand.view(None)
    assert final["boards"] == [["5h", "6s", "8d", "Js", "9h"], ["Qd", "Kc", "7c", "3h", "2h"]]
    assert [a["run"] for a in final["awards"]] == [1, 1, 2, 1, 1, 2]
    assert final["awards"][0]["half"] == Half.HIGH


def test_each_runs_equity_counts_its_own_cards() -> None:
    hand = three_all_in_hi_lo()
    # While the players answer: the equity of the moment the hands were turned up.
    voting = runout_pots(hand.records, samples=200)
    assert voting is not None and [p.amount for p in voting] == [153, 298]
    for seat in (1, 2, 3):
        hand.vote_run_twice(seat, True)
    first = runout_pots(hand.records, board_cards=5, run=1)
    second = runout_pots(hand.records, board_cards=5, run=2)
    assert first is not None and second is not None
    # Known boards: each run's shares are its own showdown's.
    assert first[0].shares == {1: 0.5, 2: 0.0, 3: 0.5}
    assert second[0].shares == {1: 1.0, 2: 0.0, 3: 0.0}


def test_phh_writes_each_runs_board_and_replays_it() -> None:
    hand = three_all_in_hi_lo()
    for seat in (1, 2, 3):
        hand.vote_run_twice(seat, True)
    text = hand_to_phh(hand)  # checked: replayed from the text to the same stacks
    assert "_runout_count = 2" in text
    assert '"# p1 agrees to run it twice",' in text
    lines = parse_phh(text).actions
    boards = [a.line for a in lines if a.verb == "db"]
    assert boards == [
        "d db 5h6s8d",
        "d db Js",
        "d db 9h",
        "d db QdKc7c",
        "d db 3h",
        "d db 2h",
    ]
    assert replay(parse_phh(text)).final_stacks == hand.final_stacks
    # A vote that ends in one run is an ordinary hand with the answers as commentary.
    once = three_all_in_hi_lo()
    once.vote_run_twice(1, False)
    text = hand_to_phh(once)
    assert "_runout_count" not in text
    assert '"# p1 does not agree to run it twice: once",' in text
