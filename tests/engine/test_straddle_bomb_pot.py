"""The straddle and the bomb pot (docs/rules.md, Home-game options): who posts what, who acts
first, pot-limit sizes, the records, and PHH (our replay and PokerKit's)."""

from __future__ import annotations

import random

import pytest

from tables.engine.config import Config, Game, Straddle, Structure
from tables.engine.errors import RuleError
from tables.engine.phh import (
    PhhError,
    finishing_stacks,
    hand_to_fields,
    hand_to_phh,
    parse_phh,
    replay,
)
from tables.engine.records import (
    AntePosted,
    BlindPosted,
    BoardDealt,
    HandStarted,
    PotAwarded,
    SeatSpec,
    record_from_json,
    record_to_json,
)
from tables.engine.state import Action, Hand, Street, straddle_seat
from tests.engine.gen_phh_corpus import pokerkit_finishing_stacks, shuffled_deck

DECK = tuple(range(52))


def six(stack: int = 200) -> list[SeatSpec]:
    """Seats 1-6; with the button on 6, seat 1 is the small blind, 2 the big, 3 left of it."""
    return [SeatSpec(seat, stack) for seat in range(1, 7)]


def pot_limit(straddle: Straddle = Straddle.UNDER_THE_GUN, **options: object) -> Config:
    return Config(Game.OMAHA, Structure.POT_LIMIT, big_blind=2, straddle=straddle, **options)  # type: ignore[arg-type]


def bomb(structure: Structure = Structure.POT_LIMIT, ante: int = 4) -> Config:
    return Config(Game.OMAHA_HI_LO, structure, big_blind=2, bomb_pot_ante=ante)


# --- the straddle --------------------------------------------------------------------------


def test_the_straddle_is_twice_the_big_blind_and_the_action_starts_on_its_left() -> None:
    # docs/rules.md, Home-game options: "the player left of the big blind may post a live
    # straddle of exactly twice the big blind. Before the flop the straddler acts last (the
    # action starts on their left)"
    config = pot_limit()
    assert straddle_seat(config, six(), 6) == 3
    hand = Hand.start(config, six(), 6, DECK, straddle=3)
    posted = [(r.seat, r.amount, r.blind) for r in hand.records if isinstance(r, BlindPosted)]
    assert posted == [(1, 1, "small"), (2, 2, "big"), (3, 4, "straddle")]
    assert hand.straddle == 3 and hand.view(None)["straddle"] == 3
    assert hand.to_act == 4


def test_in_pot_limit_the_straddle_is_the_last_bet() -> None:
    # docs/rules.md, Home-game options: "In pot-limit the straddle counts as the last bet: the
    # pot is counted with it, and the smallest raise is one straddle more."
    hand = Hand.start(pot_limit(), six(), 6, DECK, straddle=3)
    legal = hand.legal_actions()
    # Call 4, then the pot 1 + 2 + 4 + 4 = 11 on top: to 15. Smallest: 4 + 4 = 8.
    assert (legal.seat, legal.call, legal.min_to, legal.max_to) == (4, 4, 8, 15)
    with pytest.raises(RuleError, match="raise to 6 is below the minimum 8"):
        hand.act(4, Action.RAISE, 6)
    hand.act(4, Action.CALL)
    legal = hand.legal_actions()
    # 1 + 2 + 4 + 4 = 11 in the middle; call 4 and raise 15: to 19.
    assert (legal.seat, legal.min_to, legal.max_to) == (5, 8, 19)
    hand.act(5, Action.RAISE, 8)
    # The raise was one straddle (4): the next smallest raise is 4 more again.
    assert hand.legal_actions().min_to == 12


def test_the_straddler_may_raise_when_the_action_comes_back() -> None:
    # docs/rules.md, Home-game options: the straddle is live; the straddler "may raise when it
    # comes back to them".
    hand = Hand.start(pot_limit(), six(), 6, DECK, straddle=3)
    for seat in (4, 5, 6, 1, 2):
        hand.act(seat, Action.CALL)
    legal = hand.legal_actions()
    assert legal.seat == 3 and legal.actions == (Action.FOLD, Action.CHECK, Action.RAISE)
    # Six players in for 4 each: 24; the straddler may raise it to 4 + 24 = 28.
    assert (legal.min_to, legal.max_to) == (8, 28)
    hand.act(3, Action.CHECK)
    assert hand.street is Street.FLOP and hand.to_act == 1


def test_the_button_straddle_acts_last_and_the_blinds_first() -> None:
    # docs/rules.md, Home-game options: 'Button straddle ("Mississippi", second option): the
    # button posts it and acts last before the flop; the blinds act first.'
    config = pot_limit(Straddle.BUTTON)
    assert straddle_seat(config, six(), 6) == 6
    hand = Hand.start(config, six(), 6, DECK, straddle=6)
    order = []
    while hand.street is Street.PREFLOP:
        seat = hand.to_act
        assert seat is not None
        order.append(seat)
        hand.act(seat, Action.CHECK if seat == 6 else Action.CALL)
    assert order == [1, 2, 3, 4, 5, 6]
    with pytest.raises(RuleError, match="only seat 6 may straddle this hand, not seat 3"):
        Hand.start(config, six(), 6, DECK, straddle=3)


def test_no_straddle_heads_up_nor_out_of_position_nor_short_nor_in_limit() -> None:
    # docs/rules.md, Home-game options: "the player left of the big blind may post a live
    # straddle of exactly twice the big blind" ... "Only one straddle a hand."
    # Heads-up the button posts the small blind: common practice is no straddle there.
    config = pot_limit()
    two = [SeatSpec(1, 100), SeatSpec(2, 100)]
    assert straddle_seat(config, two, 2) is None
    with pytest.raises(RuleError, match="no straddle heads-up") as caught:
        Hand.start(config, two, 2, DECK, straddle=1)
    assert caught.value.code == "straddle_heads_up"
    with pytest.raises(RuleError, match="only seat 3 may straddle") as caught:
        Hand.start(config, six(), 6, DECK, straddle=4)
    assert caught.value.params == {"position": 3, "seat": 4}
    short = [SeatSpec(1, 100), SeatSpec(2, 100), SeatSpec(3, 3), SeatSpec(4, 100)]
    assert straddle_seat(config, short, 4) is None
    with pytest.raises(RuleError, match="seat 3 has 3"):
        Hand.start(config, short, 4, DECK, straddle=3)
    coming_in = [SeatSpec(1, 100), SeatSpec(2, 100), SeatSpec(3, 100, live_post=2), SeatSpec(4, 9)]
    assert straddle_seat(config, coming_in, 4) is None
    with pytest.raises(RuleError, match="no straddle"):
        Hand.start(pot_limit(Straddle.NONE), six(), 6, DECK, straddle=3)
    with pytest.raises(RuleError, match="pot-limit and no-limit only"):
        Config(Game.OMAHA, Structure.LIMIT, big_blind=2, straddle=Straddle.UNDER_THE_GUN)


def test_three_handed_the_straddle_left_of_the_big_blind_is_the_button() -> None:
    three = [SeatSpec(1, 100), SeatSpec(2, 100), SeatSpec(3, 100)]
    for kind in (Straddle.UNDER_THE_GUN, Straddle.BUTTON):
        hand = Hand.start(pot_limit(kind), three, 3, DECK, straddle=3)
        assert straddle_seat(pot_limit(kind), three, 3) == 3
        assert hand.to_act == 1  # the small blind, left of the straddler


# --- the bomb pot --------------------------------------------------------------------------


@pytest.mark.parametrize("structure", list(Structure))
def test_a_bomb_pot_has_antes_no_blinds_and_starts_on_the_flop_left_of_the_button(
    structure: Structure,
) -> None:
    # docs/rules.md, Home-game options: "every player dealt in posts the agreed ante (in big
    # blinds); no blinds, no betting before the flop; the first betting round is on the
    # flop, starting left of the button"
    hand = Hand.start(bomb(structure), six(), 6, DECK, bomb_pot=True)
    assert [r.amount for r in hand.records if isinstance(r, AntePosted)] == [4] * 6
    assert not any(isinstance(r, BlindPosted) for r in hand.records)
    assert hand.street is Street.FLOP and len(hand.board) == 3
    assert hand.to_act == 1 and hand.bomb_pot and hand.view(1)["bomb_pot"]
    assert hand.pots() == [(24, (1, 2, 3, 4, 5, 6))]
    legal = hand.legal_actions()
    assert legal.bet_or_raise is Action.BET and legal.min_to == 2
    for seat in (1, 2, 3, 4, 5, 6):
        hand.act(seat, Action.CHECK)
    assert hand.street is Street.TURN and hand.to_act == 1


def test_pot_limit_counts_the_bomb_pot_antes_as_the_pot() -> None:
    # docs/rules.md, Home-game options: "Pot-limit counts the antes as the pot."
    hand = Hand.start(bomb(), six(), 6, DECK, bomb_pot=True)
    assert hand.legal_actions().max_to == 24
    hand.act(1, Action.BET, 24)
    # 24 + 24 in the middle, call 24 and raise 72: to 96.
    assert hand.legal_actions().max_to == 96


def test_heads_up_the_bomb_pot_flop_starts_with_the_big_blind_seat() -> None:
    hand = Hand.start(bomb(), [SeatSpec(3, 50), SeatSpec(8, 50)], 8, DECK, bomb_pot=True)
    assert hand.to_act == 3  # left of the button


def test_a_short_ante_plays_only_for_what_it_put_in() -> None:
    # docs/rules.md, Home-game options: "every player dealt in posts the agreed ante": one who
    # has less is all-in on it, and wins no more from each player than they put in.
    seats = [SeatSpec(1, 3), SeatSpec(2, 100), SeatSpec(3, 100)]
    hand = Hand.start(bomb(), seats, 3, DECK, bomb_pot=True)
    assert hand.pots() == [(9, (1, 2, 3)), (2, (2, 3))]
    assert hand.to_act == 2


def test_a_bomb_pot_is_refused_when_off_with_a_straddle_or_with_blinds() -> None:
    with pytest.raises(RuleError, match="no bomb pots"):
        Hand.start(pot_limit(Straddle.NONE), six(), 6, DECK, bomb_pot=True)
    with pytest.raises(RuleError, match="no straddle") as caught:
        Hand.start(pot_limit(bomb_pot_ante=4), six(), 6, DECK, straddle=3, bomb_pot=True)
    assert caught.value.code == "bomb_pot_straddle"
    posting = [*six()[:5], SeatSpec(6, 100, live_post=2)]
    with pytest.raises(RuleError, match="no blinds"):
        Hand.start(bomb(), posting, 5, DECK, bomb_pot=True)


# --- records -------------------------------------------------------------------------------


@pytest.mark.parametrize(("straddle", "bomb_pot"), [(3, False), (None, True)])
def test_a_straddle_or_a_bomb_pot_is_rebuilt_exactly_from_its_records(
    straddle: int | None, bomb_pot: bool
) -> None:
    config = pot_limit(bomb_pot_ante=4)
    hand = Hand.start(config, six(), 6, DECK, straddle=straddle, bomb_pot=bomb_pot)
    while not hand.is_complete:
        legal = hand.legal_actions()
        assert legal.seat is not None
        hand.act(legal.seat, legal.actions[1])  # check, call, or show
    stored = [record_to_json(r) for r in hand.records]
    assert stored[0].get("straddle") == straddle and stored[0].get("bomb_pot", False) == bomb_pot
    assert stored[0]["config"]["straddle"] == "under-the-gun"
    rebuilt = Hand.from_records([record_from_json(r) for r in stored])
    assert rebuilt.records == hand.records
    assert (rebuilt.straddle, rebuilt.bomb_pot) == (straddle, bomb_pot)


def test_records_without_a_straddle_or_a_bomb_pot_are_written_as_before() -> None:
    hand = Hand.start(Config(Game.OMAHA, Structure.POT_LIMIT, big_blind=2), six(), 6, DECK)
    started = record_to_json(hand.records[0])
    assert not {"straddle", "bomb_pot"} & set(started)
    assert not {"straddle", "bomb_pot_ante"} & set(started["config"])
    assert isinstance(record_from_json(started), HandStarted)


# --- PHH -----------------------------------------------------------------------------------


def test_phh_writes_the_straddle_in_blinds_or_straddles() -> None:
    for kind, straddler, expected in (
        (Straddle.UNDER_THE_GUN, 3, [1, 2, 4, 0, 0, 0]),
        (Straddle.BUTTON, 6, [1, 2, 0, 0, 0, 4]),
    ):
        hand = Hand.start(pot_limit(kind), six(), 6, DECK, straddle=straddler)
        for seat in (4, 5, 6, 1, 2) if straddler == 3 else (1, 2, 3, 4, 5):
            hand.act(seat, Action.FOLD)
        fields = hand_to_fields(hand)
        assert fields["blinds_or_straddles"] == expected
        parsed = parse_phh(hand_to_phh(hand))  # replayed inside: the same stacks
        assert parsed.config().straddle is kind and parsed.straddle_index == expected.index(4)


def test_phh_writes_a_bomb_pot_as_antes_no_blinds_and_checks_before_the_flop() -> None:
    hand = Hand.start(bomb(), six(), 6, DECK, bomb_pot=True)
    hand.act(1, Action.BET, 2)
    for seat in (2, 3, 4, 5, 6):
        hand.act(seat, Action.FOLD)
    fields = hand_to_fields(hand)
    assert fields["antes"] == [4] * 6 and fields["blinds_or_straddles"] == [0] * 6
    assert fields["ante_trimming_status"] is True
    checks = [f"p{k} cc" for k in range(1, 7)]
    first_flop = next(k for k, line in enumerate(fields["actions"]) if line.startswith("d db"))
    assert fields["actions"][first_flop - 6 : first_flop] == checks
    text = hand_to_phh(hand)
    assert finishing_stacks(replay(parse_phh(text))) == pokerkit_finishing_stacks(text)
    betting = text.replace('"p1 cc",', '"p1 cbr 4",', 1)
    with pytest.raises(RuleError, match="no betting before the flop"):
        replay(parse_phh(betting))
    with pytest.raises(PhhError, match="p1 checks"):
        replay(parse_phh(text.replace('"p1 cc",\n', "", 1)))


def _play(rng: random.Random, hand: Hand) -> Hand:
    while not hand.is_complete:
        legal = hand.legal_actions()
        seat = legal.seat
        assert seat is not None
        if hand.street is Street.SHOWDOWN:
            hand.act(seat, Action.SHOW if hand.showing_could_win(seat) else Action.MUCK)
            continue
        moves = [("cc", 0.5)] + ([("f", 0.25)] if legal.call else [])
        if legal.bet_or_raise is not None and not legal.raise_all_in:
            moves.append(("cbr", 0.35))
        verb = rng.choices([m for m, _ in moves], [w for _, w in moves])[0]
        if verb == "f":
            hand.act(seat, Action.FOLD)
        elif verb == "cc":
            hand.act(seat, Action.CHECK if Action.CHECK in legal.actions else Action.CALL)
        else:
            low, high = legal.min_to, legal.max_to
            hand.act(seat, legal.bet_or_raise, rng.choice([low, high, rng.randint(low, high)]))
    return hand


def _odd_chips_split(hand: Hand) -> bool:
    # PokerKit gives every odd chip of a split to the first winner and merges pots won by
    # the same players (tests/engine/test_pokerkit_crosscheck.py): equal shares only.
    shares: dict[tuple[int, str], list[int]] = {}
    for record in hand.records:
        if isinstance(record, PotAwarded):
            shares.setdefault((record.pot, str(record.half)), []).append(record.amount)
    return any(len(a) > 1 and max(a) != min(a) for a in shares.values())


@pytest.mark.parametrize("kind", ["under-the-gun", "button", "bomb-pot"])
def test_random_straddles_and_bomb_pots_replay_the_same_here_and_in_pokerkit(kind: str) -> None:
    rng = random.Random(f"forced-{kind}")
    for k in range(16):
        structure = [Structure.POT_LIMIT, Structure.NO_LIMIT, Structure.LIMIT][k % 3]
        if kind == "bomb-pot":
            config = Config(Game.OMAHA, structure, big_blind=4, bomb_pot_ante=8)
        else:
            structure = Structure.NO_LIMIT if structure is Structure.LIMIT else structure
            config = Config(Game.OMAHA, structure, big_blind=4, straddle=Straddle(kind))
        count = rng.randint(2 if kind == "bomb-pot" else 3, 6)
        stacks = [rng.choice([rng.randint(5, 40), rng.randint(40, 400)]) for _ in range(count)]
        seats = [SeatSpec(seat + 1, stack) for seat, stack in enumerate(stacks)]
        straddler = None if kind == "bomb-pot" else straddle_seat(config, seats, count)
        hand = _play(
            rng,
            Hand.start(
                config,
                seats,
                count,
                shuffled_deck(rng),
                straddle=straddler,
                bomb_pot=kind == "bomb-pot",
            ),
        )
        text = hand_to_phh(hand)  # replayed here inside: the same stacks or PhhError
        if not _odd_chips_split(hand):
            assert pokerkit_finishing_stacks(text) == finishing_stacks(hand), text
        if kind == "bomb-pot" and any(isinstance(r, BoardDealt) for r in hand.records):
            assert parse_phh(text).bomb_pot
