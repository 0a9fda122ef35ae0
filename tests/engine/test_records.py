"""Records recognised by type: the moves among them, and replaying a hand move by move."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tables.engine._frozen import Frozen
from tables.engine.config import Game, Structure
from tables.engine.errors import RuleError
from tables.engine.records import (
    MOVE_RECORDS,
    RECORD_TYPES,
    Action,
    AllInDeclared,
    Bet,
    BoardDealt,
    Called,
    CardsShown,
    Checked,
    Folded,
    HandStarted,
    Mucked,
    PotAwarded,
    Raised,
    RunTwiceOffered,
    RunTwiceVoted,
    Shown,
    record_action,
)
from tables.engine.state import Hand
from tests.engine.fuzz_hands import COMBOS, random_config, random_hand, random_move
from tests.engine.hand_helpers import play, table


def test_the_moves_are_exactly_the_records_a_player_makes() -> None:
    moves = {
        Folded,
        Checked,
        Called,
        Bet,
        Raised,
        AllInDeclared,
        Shown,
        Mucked,
        CardsShown,
        RunTwiceVoted,
    }
    assert set(MOVE_RECORDS) == moves
    assert all(cls in RECORD_TYPES.values() for cls in MOVE_RECORDS)


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        (Folded(1), (Action.FOLD, None)),
        (Checked(1), (Action.CHECK, None)),
        (Called(1, 30, False), (Action.CALL, None)),
        (Bet(1, 20, False), (Action.BET, 20)),
        (Raised(1, 60, True), (Action.RAISE, 60)),
        (Shown(1, (0, 1, 2, 3)), (Action.SHOW, None)),
        (Mucked(1), (Action.MUCK, None)),
        (AllInDeclared(1), None),  # not an Action: Hand.declare_all_in (Hand.apply)
        (BoardDealt("flop", (0, 1, 2)), None),
    ],
)
def test_record_action_gives_what_act_takes(record: object, expected: object) -> None:
    assert record_action(record) == expected  # type: ignore[arg-type]


def played_hands(count: int) -> list[Hand]:
    """Random finished hands, some with players treated as all-in after a time-out."""
    rng = random.Random(15)
    hands = []
    for k in range(count):
        config = random_config(rng, *COMBOS[k % len(COMBOS)])
        hand = random_hand(rng, config)
        while not hand.is_complete:
            legal = hand.legal_actions()
            assert legal.seat is not None
            if config.all_in_on_timeout and rng.random() < 0.05 and legal.call:
                try:
                    hand.declare_all_in(legal.seat)
                    continue
                except RuleError:
                    pass
            action, amount = random_move(rng, legal, config.chip_unit)
            hand.act(legal.seat, action, amount)
        hands.append(hand)
    return hands


def test_a_hand_replays_step_by_step_with_the_records_each_move_brings() -> None:
    for hand in played_hands(80):
        steps = []
        for move, again in Hand.replay_steps(hand.records):
            steps.append((move, len(again.records), again.view(None)))
        assert steps[0][0] is None
        assert all(isinstance(move, MOVE_RECORDS) for move, _, _ in steps[1:])
        assert steps[-1][1] == len(hand.records) and steps[-1][2] == hand.view(None)
        moves = [r for r in hand.records[steps[0][1] :] if isinstance(r, MOVE_RECORDS)]
        # Hands the engine turns up itself (an all-in before the river) are not moves.
        assert len(steps) - 1 <= len(moves)


def test_apply_makes_each_move_a_record_describes() -> None:
    for hand in played_hands(40):
        started = hand.records[0]
        assert isinstance(started, HandStarted)
        again = Hand.from_started(started)
        k = len(again.records)
        while k < len(hand.records):
            record = hand.records[k]
            assert isinstance(record, MOVE_RECORDS)
            new = again.apply(record)
            assert new[0] == record
            k += len(new)
        assert again.records == hand.records


def test_a_replay_refuses_records_that_do_not_follow_the_rules() -> None:
    hand = table([100, 100, 100], structure=Structure.NO_LIMIT)
    play(hand, "3 raise 30", "1 fold", "2 fold")
    forged = list(hand.records)
    k, award = next((k, r) for k, r in enumerate(forged) if isinstance(r, PotAwarded))
    forged[k] = replace(award, amount=award.amount + 1)
    with pytest.raises(RuleError, match=f"record {k} does not follow the rules"):
        list(Hand.replay_steps(forged))
    first_move = next(k for k, r in enumerate(hand.records) if isinstance(r, MOVE_RECORDS))
    with pytest.raises(RuleError, match="HandEnded.* is not a move"):
        list(Hand.replay_steps([*hand.records[:first_move], hand.records[-1]]))


def test_apply_refuses_a_record_that_is_not_a_move_and_changes_nothing() -> None:
    hand = table([100, 100, 100], game=Game.OMAHA, structure=Structure.POT_LIMIT, big_blind=2)
    before = hand.records
    with pytest.raises(RuleError, match="BoardDealt is not a move"):
        hand.apply(BoardDealt("flop", (0, 1, 2)))  # type: ignore[arg-type]
    with pytest.raises(RuleError):
        hand.apply(Folded(1))  # not seat 1's turn
    assert hand.records == before
    play(hand, "3 fold")
    assert hand.apply(Folded(1)) == [Folded(1), *hand.records[len(before) + 2 :]]


def test_records_behave_as_the_frozen_dataclasses_they_were() -> None:
    """Records and `Config` are plain slotted classes (`_frozen.Frozen`), which import far
    faster than dataclasses; everything the dataclasses gave still holds."""
    import copy
    import dataclasses
    import pickle

    seen: dict[type, Frozen] = {}
    for hand in played_hands(60):
        for record in hand.records:
            seen.setdefault(type(record), record)
    seen.setdefault(RunTwiceVoted, RunTwiceVoted(seat=2, agree=True))
    seen.setdefault(RunTwiceOffered, RunTwiceOffered(asked=(2, 5)))
    seen.setdefault(CardsShown, CardsShown(seat=2, cards=(4, 50)))
    assert set(seen) == set(RECORD_TYPES.values()), "a kind was not made"
    started = seen[HandStarted]
    assert isinstance(started, HandStarted)
    values: list[Frozen] = [*seen.values(), started.config, *started.seats]
    for value in values:
        cls = type(value)
        names = [f.name for f in dataclasses.fields(value)]
        assert names == list(cls.__slots__) == list(cls.__match_args__)
        assert dataclasses.is_dataclass(cls)
        assert dataclasses.replace(value) == value
        as_dict = dataclasses.asdict(value)
        assert cls(**{n: getattr(value, n) for n in names}) == value
        assert list(as_dict) == names
        for clone in (
            copy.copy(value),
            copy.deepcopy(value),
            pickle.loads(pickle.dumps(value)),
            pickle.loads(pickle.dumps(value, protocol=0)),
        ):
            assert clone == value and hash(clone) == hash(value) and clone is not value
        assert value != object() and not (value == object())
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, names[0], 99)  # noqa: B010
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(value, names[0])  # noqa: B010
        assert not hasattr(value, "__dict__")
        fields = ", ".join(f"{name}={getattr(value, name)!r}" for name in names)
        assert repr(value) == f"{cls.__name__}({fields})"
    # Same fields, another kind: not equal (a bet is not a raise).
    assert Bet(1, 20, False) != Raised(1, 20, False)
    assert Folded(1) == Folded(1) and Folded(1) != Folded(2) and Folded(1) != Checked(1)
    assert len({Folded(1), Folded(1), Checked(1)}) == 2
    changed = dataclasses.replace(seen[Called], amount=7)
    assert isinstance(changed, Called) and changed.amount == 7
    match seen[Raised]:
        case Raised(seat, to, all_in):
            assert (seat, to, all_in) == (seen[Raised].seat, seen[Raised].to, seen[Raised].all_in)  # type: ignore[attr-defined]
        case _:
            pytest.fail("a record matches by position")
