"""PHH reading, writing and replay: the format's rules and round trips through PokerKit."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest

from tables.engine.cards import parse_cards
from tables.engine.config import AnteKind, Config, Game, Structure
from tables.engine.errors import RuleError
from tables.engine.phh import (
    PhhError,
    build_deck,
    finishing_stacks,
    hand_to_fields,
    hand_to_phh,
    hand_to_phh_for,
    parse_action,
    parse_phh,
    read_hands,
    replay,
    replay_text,
    split_phhs,
)
from tables.engine.records import SeatSpec, Shown
from tables.engine.state import Action, Hand
from tests.engine.fuzz_hands import COMBOS, random_config, random_hand, random_move
from tests.engine.gen_phh_corpus import pokerkit_finishing_stacks, random_engine_hand

HEADS_UP = """
variant = "PO"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = [{actions}]
"""


def heads_up(*actions: str, variant: str = "PO", antes: str = "[0, 0]") -> str:
    text = HEADS_UP.format(actions=", ".join(f'"{a}"' for a in actions))
    text = text.replace('"PO"', f'"{variant}"').replace("antes = [0, 0]", f"antes = {antes}")
    if variant.startswith("F"):
        text = text.replace("min_bet = 2", "small_bet = 2\nbig_bet = 4")
    return text


DEAL = ("d dh p1 AhKhQhJh", "d dh p2 2c3c4c5c")


# --- actions and fields -------------------------------------------------------------------


def test_action_lines_read_as_pokerkit_reads_them() -> None:
    assert parse_action("  p2   cbr   40  ").amount == 40
    assert parse_action("p1 cc # thinks for a while").verb == "cc"
    assert parse_action("# the dealer exposes a card").verb == ""
    assert parse_action("p3 sm").show is False  # bare sm mucks
    assert parse_action("p3 sm -").show is True and parse_action("p3 sm -").cards == ()
    assert parse_action("d dh p1 ????Ah2c").cards == (None, None) + parse_cards("Ah2c")


@pytest.mark.parametrize(
    "line", ["p1 raise 40", "p1 cbr", "p1 cbr -5", "p1 cbr 4.5", "x1 cc", "p0 f", "d db Zz2c3c"]
)
def test_malformed_action_lines_are_refused(line: str) -> None:
    with pytest.raises(PhhError):
        parse_action(line)


def test_heads_up_blinds_and_big_blind_ante_land_reversed() -> None:
    # PHH writes heads-up forced bets in role order (small blind first); p1 is the big
    # blind, so a big-blind ante [0, 3] is p1's, and p2, the button, posts the small blind.
    text = heads_up(*DEAL, "p2 f", antes="[0, 3]")
    game = replay(parse_phh(text))
    assert finishing_stacks(game) == [101, 99]
    assert game.config.ante_kind is AnteKind.BIG_BLIND
    assert pokerkit_finishing_stacks(text) == [101, 99]


def test_uniform_antes_and_limit_fields_map_to_the_config() -> None:
    text = heads_up(*DEAL, "p2 f", variant="FO/8", antes="[1, 1]")
    config = parse_phh(text).config()
    assert (config.game, config.structure) == (Game.OMAHA_HI_LO, Structure.LIMIT)
    assert (config.big_blind, config.big_bet, config.raise_cap) == (2, 4, 4)
    assert (config.ante, config.ante_kind, config.uncapped_heads_up) == (1, AnteKind.EACH, False)


def test_a_second_straddle_or_one_of_another_size_is_refused_with_a_clear_error() -> None:
    # docs/rules.md, Home-game options: "a live straddle of exactly twice the big blind" ...
    # "Only one straddle a hand." (One is read: tests/engine/test_straddle_bomb_pot.py.)
    text = """
variant = "NO"
antes = [0, 0, 0, 0]
blinds_or_straddles = [1, 2, 4, 8]
min_bet = 2
starting_stacks = [100, 100, 100, 100]
actions = []
"""
    with pytest.raises(PhhError, match="only one straddle"):
        parse_phh(text).config()
    with pytest.raises(PhhError, match="twice the big blind"):
        parse_phh(text.replace("[1, 2, 4, 8]", "[1, 2, 6, 0]")).config()


def test_button_antes_are_refused() -> None:
    with pytest.raises(PhhError, match="antes"):
        parse_phh(heads_up(*DEAL, antes="[3, 0]")).config()


# --- the deck -----------------------------------------------------------------------------


def test_deck_deals_hole_cards_round_by_round_from_p1_and_burns_unused_cards() -> None:
    text = heads_up(*DEAL, "p2 cc", "p1 cc", "d db 7d8d9d")
    deck = build_deck(parse_phh(text)).deck
    assert deck[:8] == parse_cards("Ah2cKh3cQh4cJh5c")
    assert deck[9:12] == parse_cards("7d8d9d")
    assert len(set(deck)) == 52
    assert deck[8] == min(set(range(52)) - set(deck[:8]) - set(deck[9:12]))  # the burn


def test_unknown_hole_cards_are_fine_until_a_showdown_needs_them() -> None:
    folded = heads_up("d dh p1 ????????", "d dh p2 2c3c4c5c", "p2 f")
    assert finishing_stacks(replay(parse_phh(folded))) == [101, 99]
    checked_down = [
        "d dh p1 ????????",
        "d dh p2 2c3c4c5c",
        "p2 cc",
        "p1 cc",
        "d db 7d8d9d",
        "p1 cc",
        "p2 cc",
        "d db Td",
        "p1 cc",
        "p2 cc",
        "d db Jd",
        "p1 cc",
        "p2 cc",
    ]
    with pytest.raises(PhhError, match="unknown"):
        replay(parse_phh(heads_up(*checked_down, "p1 sm -", "p2 sm 2c3c4c5c")))
    # Shown at the showdown, the cards are known after all: they fill the gaps.
    shown = heads_up(*checked_down, "p1 sm AhKhQhJh", "p2 sm 2c3c4c5c")
    assert finishing_stacks(replay(parse_phh(shown))) == pokerkit_finishing_stacks(shown)
    # A player who mucks unknown cards needs no evaluation.
    mucked = heads_up(*checked_down, "p1 sm", "p2 sm 2c3c4c5c")
    assert finishing_stacks(replay(parse_phh(mucked))) == [98, 102]


# --- showdown -----------------------------------------------------------------------------

RIVER = (
    *DEAL,
    "p2 cc",
    "p1 cc",
    "d db 7d8d9d",
    "p1 cc",
    "p2 cc",
    "d db Td",
    "p1 cc",
    "p2 cc",
    "d db 2h",
    "p1 cc",
    "p2 cc",
)


def test_showdown_sm_lines_may_come_in_any_order_as_pokerkit_allows() -> None:
    first = heads_up(*RIVER, "p1 sm AhKhQhJh", "p2 sm 2c3c4c5c")
    second = heads_up(*RIVER, "p2 sm 2c3c4c5c", "p1 sm KhAhJhQh")
    assert finishing_stacks(replay(parse_phh(first))) == pokerkit_finishing_stacks(first)
    assert finishing_stacks(replay(parse_phh(second))) == pokerkit_finishing_stacks(second)


def test_a_showdown_without_sm_lines_has_not_awarded_the_pot() -> None:
    # PokerKit's reader does not automate showing: without sm lines it turns the hands up
    # as unknown cards and kills them, so the pot is never paid.
    with pytest.raises(PhhError, match="before the pot is awarded"):
        replay(parse_phh(heads_up(*RIVER)))


def test_a_muck_loses_and_sm_dash_shows() -> None:
    text = heads_up(*RIVER, "p1 sm", "p2 sm -")
    assert finishing_stacks(replay(parse_phh(text))) == pokerkit_finishing_stacks(text)


def test_all_in_hands_are_shown_before_the_runout() -> None:
    text = heads_up(
        *DEAL,
        "p2 cbr 6",
        "p1 cbr 18",
        "p2 cbr 54",
        "p1 cbr 100",
        "p2 cc",
        "p1 sm AhKhQhJh",
        "p2 sm 2c3c4c5c",
        "d db 7d8d9d",
        "d db Td",
        "d db 2h",
    )
    assert finishing_stacks(replay(parse_phh(text))) == pokerkit_finishing_stacks(text)


# --- files --------------------------------------------------------------------------------


def test_phhs_hands_are_named_by_their_tables_in_file_order() -> None:
    text = "\n".join(
        f"[{name}]\n{heads_up(*DEAL, 'p2 f')}" for name in ("b-2", "a-1", '"third hand"')
    )
    assert [e.name for e in split_phhs(text)] == ["b-2", "a-1", "third hand"]
    results = replay_text("x.phhs", text)
    assert [r["hand"] for r in results] == ["b-2", "a-1", "third hand"]
    assert all(r["finishing_stacks"] == [101, 99] for r in results)


def test_a_phh_file_is_named_by_its_file_name() -> None:
    [entry] = read_hands("some/dir/final-hand.phh", heads_up(*DEAL, "p2 f"))
    assert entry.name == "final-hand.phh"


def test_finishing_stacks_in_the_file_are_ignored_on_replay() -> None:
    text = heads_up(*DEAL, "p2 f") + "finishing_stacks = [1, 199]\n"
    assert replay_text("h.phh", text) == [{"hand": "h.phh", "finishing_stacks": [101, 99]}]


def test_optional_fields_pass_through() -> None:
    text = heads_up(*DEAL, "p2 f") + (
        'players = ["Ann", "Bo"]\nevent = "Tuesday"\ncurrency = "EUR"\nseats = [3, 5]\n'
        'seat_count = 6\ntable = 2\nhand = 17\nauthor = "dealer"\n_house = "x"\n'
    )
    phh = parse_phh(text)
    assert phh.fields["players"] == ["Ann", "Bo"] and phh.fields["_house"] == "x"
    assert finishing_stacks(replay(phh)) == [101, 99]


# --- export and round trips ---------------------------------------------------------------

CODES = {
    "FO": (Game.OMAHA, Structure.LIMIT),
    "FO/8": (Game.OMAHA_HI_LO, Structure.LIMIT),
    "PO": (Game.OMAHA, Structure.POT_LIMIT),
    "PO/8": (Game.OMAHA_HI_LO, Structure.POT_LIMIT),
    "NO": (Game.OMAHA, Structure.NO_LIMIT),
    "NO/8": (Game.OMAHA_HI_LO, Structure.NO_LIMIT),
}


def round_trip_cases() -> list[tuple[str, int]]:
    return [(code, seed) for code in CODES for seed in range(25)]


@pytest.mark.parametrize(("code", "seed"), round_trip_cases())
def test_round_trip_through_pokerkit_and_our_replay(code: str, seed: int) -> None:
    rng = random.Random(f"{code}-{seed}")
    game_kind, structure = CODES[code]
    players = 2 if seed % 4 == 0 else rng.randint(3, 6)
    ante_kind = (AnteKind.NONE, AnteKind.EACH, AnteKind.BIG_BLIND)[seed % 3]
    config = Config(
        game_kind,
        structure,
        big_blind=4,
        ante=0 if ante_kind is AnteKind.NONE else 2,
        ante_kind=ante_kind,
    )
    stacks = [rng.choice([rng.randint(15, 60), rng.randint(60, 500)]) for _ in range(players)]
    # Our seat numbers need not start at 1: the PHH keeps them in `seats`.
    game = random_engine_hand(rng, config, stacks, first_seat=3)
    text = hand_to_phh(game, table="round trip", hand=seed)
    expected = finishing_stacks(game)
    assert finishing_stacks(replay(parse_phh(text))) == expected
    if not odd_chips_split_three_ways(game):
        assert pokerkit_finishing_stacks(text) == expected


def odd_chips_split_three_ways(game: Hand) -> bool:
    # Our odd chips go one at a time from the button's left; PokerKit gives all the odd
    # chips of a split to the first winner. They agree unless a split leaves two or more.
    from tables.engine.records import PotAwarded

    shares: dict[tuple[int, str], list[int]] = {}
    for record in game.records:
        if isinstance(record, PotAwarded):
            shares.setdefault((record.pot, str(record.half)), []).append(record.amount)
    return any(len(a) >= 3 and max(a) != min(a) for a in shares.values())


def test_export_keeps_our_seat_numbers_and_puts_the_button_last() -> None:
    config = Config(Game.OMAHA, Structure.NO_LIMIT, big_blind=2)
    seats = [SeatSpec(2, 50), SeatSpec(5, 60), SeatSpec(9, 70)]
    game = Hand.start(config, seats, 5, tuple(range(52)))  # button 5: 9 is small blind
    game.act(5, Action.FOLD)
    game.act(9, Action.FOLD)
    fields = hand_to_fields(game, players=["Cy", "Ann", "Bo"])
    assert fields["seats"] == [9, 2, 5]
    assert fields["starting_stacks"] == [70, 50, 60]
    assert fields["finishing_stacks"] == [69, 51, 60]
    assert fields["actions"][-2:] == ["p3 f", "p1 f"]


def test_export_refuses_what_phh_cannot_write() -> None:
    config = Config(Game.OMAHA, Structure.NO_LIMIT, big_blind=2)
    seats = [SeatSpec(1, 50), SeatSpec(2, 50), SeatSpec(3, 50, live_post=2)]
    game = Hand.start(config, seats, 1, tuple(range(52)))
    with pytest.raises(PhhError, match="live"):
        hand_to_phh(game)


def test_export_refuses_a_hand_played_under_a_cap_phh_replays_do_not_follow() -> None:
    config = Config(Game.OMAHA, Structure.LIMIT, big_blind=2, raise_cap=5)
    game = Hand.start(config, [SeatSpec(1, 100), SeatSpec(2, 100)], 2, tuple(range(52)))
    for seat, to in ((2, 4), (1, 6), (2, 8), (1, 10)):
        game.act(seat, Action.RAISE, to)
    game.act(2, Action.FOLD)
    with pytest.raises(PhhError, match="does not replay"):
        hand_to_phh(game)


def test_rule_errors_carry_the_engines_message() -> None:
    text = heads_up(*DEAL, "p2 cbr 3")
    with pytest.raises(RuleError, match="below the minimum 4"):
        replay(parse_phh(text))


def test_dealing_one_card_per_line_as_pokerkit_writes_it_uncompressed() -> None:
    hole = [f"d dh p{p + 1} {cards[2 * r : 2 * r + 2]}" for r in range(4) for p, cards in
            enumerate(("AhKhQhJh", "2c3c4c5c"))]  # fmt: skip
    board = ["d db 7d", "d db 8d", "d db 9d"]
    text = heads_up(*hole, "p2 cc", "p1 cc", *board, "p1 cbr 2", "p2 f")
    assert finishing_stacks(replay(parse_phh(text))) == pokerkit_finishing_stacks(text)
    with pytest.raises(PhhError, match="the flop .* comes first"):
        replay(parse_phh(heads_up(*hole, "p2 cc", "p1 cc", "d db 7d", "p1 cc")))


def test_unknown_stacks_and_trimmed_antes_are_refused() -> None:
    with pytest.raises(PhhError, match="not a number of chips"):
        parse_phh(heads_up(*DEAL, "p2 f").replace("[100, 100]", "[inf, 100]"))
    trimmed = heads_up(*DEAL, "p2 f", antes="[0, 3]") + "ante_trimming_status = true\n"
    with pytest.raises(PhhError, match="trim"):
        parse_phh(trimmed).config()
    untrimmed = heads_up(*DEAL, "p2 f", antes="[3, 3]") + "ante_trimming_status = true\n"
    assert parse_phh(untrimmed).config().ante == 3


def test_a_variant_that_is_not_a_string_is_refused() -> None:
    with pytest.raises(PhhError, match="variant"):
        parse_phh(heads_up(*DEAL).replace('variant = "PO"', "variant = [1]"))


THREE_DEALT = ["d dh p1 AsJs7sTs", "d dh p2 7hTh4dAh", "d dh p3 2sKd5hKs"]


def three_handed(actions: list[str], stacks: list[int]) -> str:
    """A three-handed pot-limit Omaha hand's text, blinds 1 and 2."""
    return (
        'variant = "PO"\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n'
        f"starting_stacks = {stacks}\nactions = {actions!r}\n".replace("'", '"')
    )


def test_pokerkits_check_by_the_last_player_with_chips_is_accepted() -> None:
    # The button calls all-in, the small blind folds: nobody could call a raise, so the
    # engine closes the round; PokerKit still asks the big blind, whose file says "p2 cc".
    actions = [
        *THREE_DEALT,
        "p3 cc",
        "p1 f",
        "p2 cc",
        "p3 sm 2sKd5hKs",
        "p2 sm 7hTh4dAh",
        "d db 9cJd6s",
        "d db 4s",
        "d db 3d",
    ]
    text = three_handed(actions, [10, 10, 2])
    assert finishing_stacks(replay(parse_phh(text))) == pokerkit_finishing_stacks(text)
    without = text.replace('"p2 cc", ', "")
    assert finishing_stacks(replay(parse_phh(without))) == pokerkit_finishing_stacks(text)
    twice = text.replace('"p2 cc", ', '"p2 cc", "p2 cc", ')
    with pytest.raises(PhhError, match="comes first"):
        replay(parse_phh(twice))


def test_a_player_all_in_on_an_earlier_street_is_not_asked_for_that_check() -> None:
    # p3 is all in before the flop; on the flop p1 bets and p2 folds, which ends the
    # betting. p3 moved before the flop, and an all-in player is asked nothing: a "p3 cc"
    # there is no check PokerKit asks for, and is refused.
    actions = [
        *THREE_DEALT,
        "p3 cbr 7",
        "p1 cc",
        "p2 cc",
        "d db 9cJd6s",
        "p1 cbr 10",
        "p2 f",
        "p1 sm AsJs7sTs",
        "p3 sm 2sKd5hKs",
        "d db 4s",
        "d db 3d",
    ]
    text = three_handed(actions, [100, 100, 7])
    assert finishing_stacks(replay(parse_phh(text))) == pokerkit_finishing_stacks(text)
    asked = text.replace('"p2 f", ', '"p2 f", "p3 cc", ')
    with pytest.raises(PhhError, match="comes first"):
        replay(parse_phh(asked))


def test_a_hand_settled_by_its_forced_bets_alone() -> None:
    # p1, the big blind, is all-in on a 10-chip big-blind ante: the hands are turned up
    # and the board run out before anyone acts.
    text = heads_up(
        "d dh p1 Jc8h6d5d",
        "d dh p2 4c3dJd7h",
        "p1 sm Jc8h6d5d",
        "p2 sm 4c3dJd7h",
        "d db 8s5c2h",
        "d db 6c",
        "d db Kh",
        antes="[0, 10]",
    ).replace("[100, 100]", "[7, 31]")
    assert finishing_stacks(replay(parse_phh(text))) == pokerkit_finishing_stacks(text)


def test_pokerkits_unmodified_reader_replays_an_exported_pot_limit_hand() -> None:
    from pokerkit.notation import HandHistory

    rng = random.Random(5)
    config = Config(Game.OMAHA, Structure.POT_LIMIT, big_blind=2)
    for _ in range(10):
        game = random_engine_hand(rng, config, [rng.randint(20, 300) for _ in range(4)])
        text = hand_to_phh(game, players=["Ann", "Bo", "Cy", "Di"], event="Tuesday")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            states = list(HandHistory.loads(text))
        assert list(states[-1].stacks) == finishing_stacks(game)


def test_a_players_copy_hides_the_hole_cards_they_never_saw() -> None:
    rng = random.Random(11)
    config = Config(Game.OMAHA_HI_LO, Structure.POT_LIMIT, big_blind=2)
    for _ in range(30):
        game = random_engine_hand(rng, config, [rng.randint(20, 200) for _ in range(5)])
        text = hand_to_phh(game, reveal={2})  # replays to the same stacks (checked inside)
        shown = {r.seat for r in game.records if type(r).__name__ == "Shown"}
        for k, seat in enumerate(game.seats):
            hidden = f'"d dh p{k + 1} ????????"' in text
            assert hidden == (seat != 2 and seat not in shown)


def test_the_antonius_blom_hand_replays_as_pokerkit_plays_it() -> None:
    path = Path(__file__).parent / "data" / "antonius-blom-2009.phh"
    [result] = replay_text(str(path), path.read_text())
    assert result == {"hand": "antonius-blom-2009.phh", "finishing_stacks": [1937923, 0]}
    assert pokerkit_finishing_stacks(path.read_text()) == [1937923, 0]


# --- a viewer's copy and the hands only a live table plays ----------------------------------


def known_cards(text: str) -> set[int]:
    """Every card a PHH text names."""
    return {c for a in parse_phh(text).actions for c in a.cards if c is not None}


def test_a_viewers_copy_shows_only_the_cards_that_viewer_saw() -> None:
    # docs/rules.md: "Others show or muck in turn; a mucked hand wins nothing." Hands stop at
    # random, finished or not; the cards a viewer never saw are unknown ("??" in PHH).
    rng = random.Random(93)
    for k in range(120):
        config = random_config(rng, *COMBOS[k % len(COMBOS)])
        hand = random_hand(rng, config)
        while not hand.is_complete and rng.random() < 0.97:
            legal = hand.legal_actions()
            assert legal.seat is not None
            action, amount = random_move(rng, legal, config.chip_unit)
            hand.act(legal.seat, action, amount)
        shown = {r.seat for r in hand.records if isinstance(r, Shown)}
        for viewer in (None, *hand.seats):
            text = hand_to_phh_for(hand, viewer, table="T", hand=k)
            for i, seat in enumerate(hand.seats):
                hidden = f'"d dh p{i + 1} ????????"' in text
                assert hidden == (seat != viewer and seat not in shown)
            holders = shown if viewer is None else shown | {viewer}
            seen = set(hand.board) | {c for s in holders for c in hand.hole_cards(s)}
            assert known_cards(text) <= seen  # never the deck, the burns or a mucked hand
            assert "deck" not in text


def test_a_viewers_copy_is_written_for_hands_phh_cannot_replay() -> None:
    # Live and dead posts, a player treated as all-in after a time-out, a hand not finished:
    # the copy is written (the strict export refuses them) and reads back as PHH.
    config = Config(Game.OMAHA, Structure.NO_LIMIT, big_blind=10, all_in_on_timeout=True)
    seats = [SeatSpec(1, 300), SeatSpec(2, 300), SeatSpec(3, 300), SeatSpec(5, 300, 10, 5)]
    hand = Hand.start(config, seats, 1, tuple(range(52)))
    hand.act(5, Action.CHECK)
    hand.act(1, Action.CALL)
    hand.declare_all_in(2)  # the small blind times out
    with pytest.raises(PhhError):
        hand_to_phh(hand)
    text = hand_to_phh_for(hand, 5)
    phh = parse_phh(text)
    # PHH order: seats 2, 3, 5, 1. Seat 5 owes a dead small blind (written as its ante: dead
    # money) and posts a live big blind; seats 2 and 3 post the blinds.
    assert phh.antes == (0, 0, 5, 0) and phh.blinds_or_straddles == (5, 10, 10, 0)
    assert '"# p1 timed out and plays on all-in for what is in"' in text
    assert '"d dh p3 ????????"' not in text and '"d dh p4 ????????"' in text
    assert "finishing_stacks" not in phh.fields
    hand.act(3, Action.CHECK)
    while not hand.is_complete:
        legal = hand.legal_actions()
        assert legal.seat is not None
        hand.act(legal.seat, Action.SHOW if Action.SHOW in legal.actions else Action.CHECK)
    phh = parse_phh(hand_to_phh_for(hand, None))
    assert phh.fields["finishing_stacks"] == [hand.final_stacks[s] for s in hand.seats]  # type: ignore[index]


def test_a_viewers_copy_of_an_ordinary_hand_still_replays() -> None:
    rng = random.Random(94)
    for code, (game_kind, structure) in CODES.items():
        config = Config(game_kind, structure, big_blind=4)
        for _ in range(5):
            game = random_engine_hand(rng, config, [rng.randint(15, 300) for _ in range(4)])
            text = hand_to_phh_for(game, game.seats[0])
            assert finishing_stacks(replay(parse_phh(text))) == finishing_stacks(game), code


@pytest.mark.parametrize("code", sorted(CODES))
def test_a_dead_small_blind_round_trips_through_pokerkit_and_our_replay(code: str) -> None:
    # TDA 32 (docs/rules.md): "dead button: each player posts the big and small blind once per round"
    rng = random.Random(f"dead-{code}")
    game_kind, structure = CODES[code]
    for k in range(12):
        ante_kind = (AnteKind.NONE, AnteKind.EACH, AnteKind.BIG_BLIND)[k % 3]
        config = Config(
            game_kind, structure, big_blind=4, ante=0 if k % 3 == 0 else 1, ante_kind=ante_kind
        )
        stacks = [rng.randint(10, 300) for _ in range(rng.randint(3, 6))]
        game = random_engine_hand(rng, config, stacks, dead_small_blind=True)
        text = hand_to_phh(game)  # replayed inside: the same stacks or PhhError
        parsed = parse_phh(text)
        assert parsed.dead_small_blind and parsed.blinds_or_straddles[:2] == (4, 0)
        if not odd_chips_split_three_ways(game):
            assert pokerkit_finishing_stacks(text) == finishing_stacks(game)


def test_strings_are_written_as_json_writes_them() -> None:
    """`_toml_string` writes most strings itself (the engine does not import `json`); what
    it writes is what `json.dumps(..., ensure_ascii=False)` would, escapes and all."""
    import json

    from tables.engine.phh import _toml_string

    rng = random.Random(5)
    alphabet = [chr(c) for c in range(0x180)] + ["\u2028", "\ufeff", "\ud800", "\U0001f600"]
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(6)))
        assert _toml_string(text) == json.dumps(text, ensure_ascii=False)
