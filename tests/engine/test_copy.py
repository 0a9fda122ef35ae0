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
