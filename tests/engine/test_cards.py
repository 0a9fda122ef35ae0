"""Cards: the int form, the two-character text form and their round trips."""

import pytest

from tables.engine.cards import (
    FULL_DECK,
    card_str,
    cards_str,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from tables.engine.errors import RuleError


def test_card_is_rank_times_four_plus_suit() -> None:
    assert parse_card("2c") == 0
    assert parse_card("2s") == 3
    assert parse_card("Tc") == 32
    assert parse_card("Ah") == 50
    assert rank_of(parse_card("Kd")) == 11
    assert suit_of(parse_card("Kd")) == 1


def test_every_card_round_trips_through_text() -> None:
    assert [parse_card(card_str(card)) for card in FULL_DECK] == list(FULL_DECK)
    assert len({card_str(card) for card in FULL_DECK}) == 52


def test_parse_cards_takes_a_string_or_a_list() -> None:
    assert parse_cards("AhKd7c") == parse_cards(["Ah", "Kd", "7c"]) == (50, 45, 20)
    assert parse_cards("Ah Kd, 7c") == (50, 45, 20)
    assert cards_str((50, 45, 20)) == "AhKd7c"
    assert parse_cards("") == ()


@pytest.mark.parametrize("text", ["", "A", "1h", "Ax", "ah", "10h", "AhK"])
def test_bad_card_text_is_a_rule_error(text: str) -> None:
    with pytest.raises(RuleError):
        parse_card(text)


@pytest.mark.parametrize("text", ["AhK", "Ah1c", "AhKx"])
def test_bad_card_list_is_a_rule_error(text: str) -> None:
    with pytest.raises(RuleError):
        parse_cards(text)


def test_card_str_rejects_ints_outside_the_deck() -> None:
    with pytest.raises(RuleError):
        card_str(52)
    with pytest.raises(RuleError):
        card_str(-1)
