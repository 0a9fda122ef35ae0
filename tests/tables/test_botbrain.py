"""The house bots' decisions (tables/botbrain.py). Played on the engine alone, seeded, every
hand between bots ends in a bounded number of moves, in each game and betting structure: a
bot raises the opening bet once with an ordinary hand, re-raises only a strong one (by the
pot), and only calls once a round holds four bets. The live snapshot tells it the count."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tables import services
from tables.botbrain import bets_this_round, decide
from tables.engine.cards import shuffled_deck
from tables.engine.config import Config, Game, Structure
from tables.engine.records import Bet, BoardDealt, Called, Checked, Folded, Raised, Record, SeatSpec
from tables.engine.state import Hand
from tables.models import Table
from tables.runtime.state import table_snapshot
from tests.tables.conftest import deal
from tests.tables.test_services import current, user_at

DEEP = 100_000
BIG_BLIND = 100
# The bots stop raising once a round holds this many bets (the opening bet included).
MOST_BETS = 4
BETTING_MOVES = (Folded, Checked, Called, Bet, Raised)


def bot_snapshot(hand: Hand, seat: int) -> dict[str, Any]:
    """What the seat to act receives, in the live snapshot's shape (tables/runtime/snapshots.py), with
    only the parts ``decide`` reads."""
    view = hand.view(seat)
    legal = hand.legal_actions()
    names = {str(a) for a in legal.actions}
    kind = None if legal.bet_or_raise is None else str(legal.bet_or_raise)
    span = {"min": legal.min_to, "max": legal.max_to}
    return {
        "table": {"game": str(hand.config.game), "big_blind": hand.config.big_blind},
        "seats": view["seats"],
        "hand": {"street": view["street"], "board": view["board"], "pots": view["pots"]},
        "you": {
            "seat": seat,
            "legal": {
                "hand": 1,
                "version": len(hand.records),
                "fold": "fold" in names,
                "check": "check" in names,
                "call": legal.call if "call" in names else None,
                "bet": span if kind == "bet" else None,
                "raise": span if kind == "raise" else None,
                "show": "show" in names,
                "muck": "muck" in names,
                "bets": bets_this_round(hand.records),
            },
        },
    }


def bot_hand(config: Config, styles: list[str], button: int, rng: random.Random) -> Hand:
    """One hand between bots of ``styles`` (seat k + 1 plays ``styles[k]``), deep stacked,
    played to its end; fails if it runs past any sane length."""
    hand = Hand.start(
        config, [SeatSpec(k + 1, DEEP) for k in range(len(styles))], button, shuffled_deck(rng)
    )
    for _ in range(500):
        seat = hand.to_act
        if seat is None:
            return hand
        frame = decide(styles[seat - 1], bot_snapshot(hand, seat), rng, samples=60)
        assert frame is not None
        hand.act(seat, frame["action"], frame.get("amount"))
    raise AssertionError(f"{config.structure} {config.game}: a hand passed 500 moves")


def bets_per_round(records: tuple[Record, ...]) -> list[int]:
    """Bets in each betting round of a hand, the big blind counted before the flop."""
    rounds = [1]
    for record in records:
        if isinstance(record, BoardDealt):
            rounds.append(0)
        elif isinstance(record, (Bet, Raised)):
            rounds[-1] += 1
    return rounds


@pytest.mark.parametrize("game", list(Game))
@pytest.mark.parametrize("structure", list(Structure))
@pytest.mark.parametrize(
    "styles",
    [
        ["tight", "maniac"],
        ["maniac", "maniac"],
        ["tight", "loose", "station", "maniac", "maniac", "loose"],
    ],
    ids=["heads-up", "heads-up-maniacs", "six-handed"],
)
def test_bots_stop_raising_so_every_deep_stacked_hand_ends_soon(
    game: Game, structure: Structure, styles: list[str]
) -> None:
    # A probe: two bots re-raised each other by the minimum whenever their hand looked better
    # than average; one pot-limit hand with 100,000-chip stacks ran 711 records.
    config = Config(game, structure, big_blind=BIG_BLIND, small_blind=BIG_BLIND // 2)
    rng = random.Random(f"{game}-{structure}-{len(styles)}-{styles[0]}")
    players = len(styles)
    # Each round: everyone acts once, then each bet or raise lets the others act once more.
    most_moves = 4 * (players + MOST_BETS * (players - 1))
    for number in range(30):
        hand = bot_hand(config, styles, number % players + 1, rng)
        moves = sum(1 for r in hand.records if isinstance(r, BETTING_MOVES))
        if players == 2:
            assert len(hand.records) <= 60
        assert moves <= most_moves
        assert max(bets_per_round(hand.records)) <= MOST_BETS


def heads_up(structure: Structure = Structure.POT_LIMIT, *raises: int) -> Hand:
    """Heads-up, deep: seat 2 (the button) posts the small blind and acts first; then each
    of ``raises`` in turn, starting with seat 2."""
    config = Config(Game.OMAHA, structure, big_blind=BIG_BLIND, small_blind=BIG_BLIND // 2)
    deck = shuffled_deck(random.Random(7))
    hand = Hand.start(config, [SeatSpec(1, DEEP), SeatSpec(2, DEEP)], 2, deck)
    for to in raises:
        hand.act(hand.to_act, "raise", to)  # type: ignore[arg-type]
    return hand


def test_the_big_blind_is_the_opening_bet_and_each_street_starts_again() -> None:
    hand = heads_up()
    assert bets_this_round(hand.records) == 1
    hand.act(2, "raise", 300)
    assert bets_this_round(hand.records) == 2
    hand.act(1, "call")
    assert str(hand.street) == "flop" and bets_this_round(hand.records) == 0
    hand.act(1, "bet", 100)
    assert bets_this_round(hand.records) == 1


def test_a_round_of_four_bets_is_only_called_even_with_the_nuts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("tables.botbrain.strength", lambda *args, **kwargs: 1.0)
    hand = heads_up(Structure.POT_LIMIT, 300, 900, 2700)
    assert bot_snapshot(hand, 1)["you"]["legal"]["bets"] == 4
    for style in ("tight", "loose", "station", "maniac"):
        assert decide(style, bot_snapshot(hand, 1))["action"] == "call"  # type: ignore[index]


def test_a_strong_hand_re_raises_by_the_pot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tables.botbrain.strength", lambda *args, **kwargs: 0.9)
    hand = heads_up(Structure.POT_LIMIT, 300)
    frame = decide("tight", bot_snapshot(hand, 1))
    # Calling 200 more makes the pot 600; the pot-size raise adds that to the 300: to 900.
    assert frame is not None and frame["action"] == "raise" and frame["amount"] == 900
    assert hand.legal_actions().max_to == 900
    no_limit = heads_up(Structure.NO_LIMIT, 300)
    frame = decide("tight", bot_snapshot(no_limit, 1))
    assert frame is not None and frame["action"] == "raise" and frame["amount"] == 900


def test_an_ordinary_hand_raises_the_opening_bet_once_and_then_only_calls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Better than tight's raise threshold (0.72), short of its re-raise threshold (0.85).
    monkeypatch.setattr("tables.botbrain.strength", lambda *args, **kwargs: 0.75)
    hand = heads_up()
    frame = decide("tight", bot_snapshot(hand, 2))
    assert frame is not None and frame["action"] == "raise" and frame["amount"] == 200
    hand.act(2, "raise", 200)
    assert decide("tight", bot_snapshot(hand, 1))["action"] == "call"  # type: ignore[index]


def test_the_live_snapshot_tells_the_player_to_act_the_bets_of_the_round(
    seated_table: Table,
) -> None:
    deal(seated_table)
    hand = current(seated_table)
    legal = table_snapshot(seated_table, user_at(seated_table, hand.to_act))["you"]["legal"]
    assert legal["bets"] == 1
    services.table_act(
        seated_table.pk,
        user_at(seated_table, hand.to_act),
        legal["hand"],
        legal["version"],
        "raise",
        legal["raise"]["min"],
    )
    hand = current(seated_table)
    legal = table_snapshot(seated_table, user_at(seated_table, hand.to_act))["you"]["legal"]
    assert legal["bets"] == 2
