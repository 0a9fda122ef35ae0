"""Properties of every hand, on random hands drawn by hypothesis.

- chips are conserved after every move;
- every move `legal_actions` offers is accepted, and the hand always ends;
- illegal moves (out of turn, wrong amount, wrong action) raise RuleError and change nothing;
- `Hand.from_records(records)` (also through JSON) rebuilds an identical hand;
- views never show another player's unshown cards, the deck or the burns.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engine.config import Game, Structure
from tables.engine.errors import RuleError
from tables.engine.records import Burned, Called, HandStarted, record_from_json, record_to_json
from tables.engine.state import Action, Hand
from tests.engine.fuzz_hands import COMBOS, play_one, random_config, random_hand, random_move


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), combo=st.sampled_from(COMBOS))
def test_random_hands_keep_every_invariant(seed: int, combo: tuple[Game, Structure]) -> None:
    rng = random.Random(seed)
    config = random_config(rng, *combo)
    play_one(rng, config, deep=True)


def _random_finished_hand(seed: int, combo: tuple[Game, Structure]) -> Hand:
    rng = random.Random(seed)
    config = random_config(rng, *combo)
    hand = random_hand(rng, config)
    while not hand.is_complete:
        legal = hand.legal_actions()
        assert legal.seat is not None
        action, amount = random_move(rng, legal, config.chip_unit)
        hand.act(legal.seat, action, amount)
    return hand


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32), combo=st.sampled_from(COMBOS))
def test_records_survive_json_text_and_rebuild_the_hand(
    seed: int, combo: tuple[Game, Structure]
) -> None:
    hand = _random_finished_hand(seed, combo)
    text = json.dumps([record_to_json(r) for r in hand.records])
    records = [record_from_json(d) for d in json.loads(text)]
    again = Hand.from_records(records)
    assert again.records == hand.records
    assert again.final_stacks == hand.final_stacks
    for seat in (None, *hand.seats):
        assert again.view(seat) == hand.view(seat)


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32), combo=st.sampled_from(COMBOS), cut=st.floats(0, 1))
def test_a_prefix_of_the_records_rebuilds_the_hand_so_far(
    seed: int, combo: tuple[Game, Structure], cut: float
) -> None:
    rng = random.Random(seed)
    config = random_config(rng, *combo)
    hand = random_hand(rng, config)
    snapshots = [hand.records]
    while not hand.is_complete:
        legal = hand.legal_actions()
        assert legal.seat is not None
        action, amount = random_move(rng, legal, config.chip_unit)
        hand.act(legal.seat, action, amount)
        snapshots.append(hand.records)
    prefix = snapshots[int(cut * (len(snapshots) - 1))]
    again = Hand.from_records(prefix)
    assert again.records == prefix
    assert again.legal_actions() == Hand.from_records(prefix).legal_actions()


def test_a_record_that_does_not_follow_the_rules_is_refused() -> None:
    hand = _random_finished_hand(7, (Game.OMAHA_HI_LO, Structure.POT_LIMIT))
    records = list(hand.records)
    burn = next(i for i, r in enumerate(records) if isinstance(r, Burned))
    records[burn] = Burned((records[burn].card + 1) % 52)  # type: ignore[union-attr]
    with pytest.raises(RuleError, match=f"record {burn} does not follow the rules"):
        Hand.from_records(records)
    with pytest.raises(RuleError):
        Hand.from_records(list(hand.records)[1:])


def test_a_forged_move_is_refused() -> None:
    hand = _random_finished_hand(11, (Game.OMAHA, Structure.NO_LIMIT))
    records = list(hand.records)
    call = next((i for i, r in enumerate(records) if isinstance(r, Called)), None)
    assert call is not None, "the hand of seed 11 has a call to forge"
    forged = dataclasses.replace(records[call], amount=records[call].amount + 1)  # type: ignore[type-var]
    records[call] = forged
    with pytest.raises(RuleError):
        Hand.from_records(records)


def test_views_are_json_and_hide_unshown_cards() -> None:
    hand = _random_finished_hand(3, (Game.OMAHA_HI_LO, Structure.LIMIT))
    for seat in (None, *hand.seats):
        view = hand.view(seat)
        json.dumps(view)
        assert "deck" not in view and "burns" not in view
    first = hand.records[0]
    assert isinstance(first, HandStarted)
    started = Hand.start(first.config, first.seats, first.button, first.deck)
    spectator = started.view(None)
    assert all(s["cards"] is None for s in spectator["seats"])
    legal = started.legal_actions()
    mine = started.view(legal.seat)
    assert mine["legal_actions"]["seat"] == legal.seat
    assert Action.FOLD in legal.actions
