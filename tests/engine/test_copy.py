"""Hand.copy: a server keeps a hand between moves while readers hold the previous state."""

import random

from tables.engine.cards import shuffled_deck
from tables.engine.config import Config, Game, Structure
from tables.engine.state import Action, Hand, SeatSpec


def _move(hand: Hand, rng: random.Random) -> None:
    options = hand.legal_actions()
    if Action.SHOW in options.actions:
        hand.act(options.seat, rng.choice([Action.SHOW, Action.MUCK]))
    elif options.bet_or_raise is not None and rng.random() < 0.3:
        hand.act(options.seat, options.bet_or_raise, rng.randint(options.min_to, options.max_to))
    elif Action.CHECK in options.actions:
        hand.act(options.seat, Action.CHECK)
    else:
        hand.act(options.seat, rng.choice([Action.CALL, Action.CALL, Action.FOLD]))


def test_a_copy_plays_on_like_a_rebuilt_hand_and_leaves_the_original_alone() -> None:
    rng = random.Random(5)
    for structure in Structure:
        config = Config(Game.OMAHA_HI_LO, structure, big_blind=2)
        for _ in range(40):
            seats = [SeatSpec(n, rng.randint(5, 300)) for n in range(1, rng.randint(3, 7))]
            hand = Hand.start(config, seats, 1, shuffled_deck(rng))
            while not hand.is_complete:
                before = hand.records
                view = hand.view(None)
                twin = hand.copy()
                seed = rng.random()
                _move(twin, random.Random(seed))
                # The original saw nothing of the copy's move ...
                assert hand.records == before and hand.view(None) == view
                # ... and the copy is exactly the hand its records rebuild.
                assert Hand.from_records(twin.records).view(None) == twin.view(None)
                _move(hand, random.Random(seed))
                assert hand.records == twin.records


def test_a_hand_behind_its_records_catches_up_with_the_moves_it_missed() -> None:
    """A server process keeps a hand; another process moves it; the first applies only the
    records it has not seen, and gets the hand those records rebuild."""
    rng = random.Random(9)
    for structure in Structure:
        config = Config(Game.OMAHA, structure, big_blind=2)
        for _ in range(30):
            seats = [SeatSpec(n, rng.randint(5, 300)) for n in range(1, rng.randint(3, 7))]
            kept = Hand.start(config, seats, 1, shuffled_deck(rng))
            elsewhere = kept.copy()
            while not elsewhere.is_complete:
                for _ in range(rng.randint(1, 3)):
                    if not elsewhere.is_complete:
                        _move(elsewhere, rng)
                kept.catch_up(elsewhere.records[len(kept.records) :])
                assert kept.records == elsewhere.records
                assert kept.view(None) == elsewhere.view(None)
                assert kept.view(1) == elsewhere.view(1)


def test_catching_up_refuses_records_that_do_not_follow() -> None:
    import pytest

    from tables.engine.errors import RuleError

    rng = random.Random(3)
    config = Config(Game.OMAHA, Structure.POT_LIMIT, big_blind=2)
    seats = [SeatSpec(n, 100) for n in range(1, 4)]
    hand = Hand.start(config, seats, 1, shuffled_deck(rng))
    with pytest.raises(RuleError):
        hand.catch_up(hand.records[:1])  # a second start
    other = Hand.start(config, seats, 1, shuffled_deck(rng))  # the same seats, another deck
    while not other.board:
        options = other.legal_actions()
        other.act(options.seat, Action.CHECK if Action.CHECK in options.actions else Action.CALL)
    later = other.records[len(hand.records) :]
    with pytest.raises(RuleError, match="does not follow"):
        hand.catch_up(later)  # the same moves, but the flop is another deck's
