"""Cards as small ints, their two-character text form, and the shuffled deck.

A card is `rank * 4 + suit`: ranks ``"23456789TJQKA"`` are 0..12 (deuce 0, ace 12), suits
``"cdhs"`` are 0..3. Ints make the evaluator's tables cheap to index; the text form is what
players, records and PHH files read.

>>> parse_card("Ah")
50
>>> card_str(50)
'Ah'
>>> cards_str(parse_cards("AhKd7c"))
'AhKd7c'
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from tables.engine.errors import RuleError

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    import random

Card = int
"""`rank * 4 + suit`, 0..51."""

RANKS = "23456789TJQKA"
SUITS = "cdhs"

FULL_DECK: tuple[Card, ...] = tuple(range(52))
"""The 52 cards in order: 2c 2d 2h 2s 3c ... As."""


def rank_of(card: Card) -> int:
    """The card's rank, 0 (deuce) to 12 (ace)."""
    return card >> 2


def suit_of(card: Card) -> int:
    """The card's suit, 0..3 for clubs, diamonds, hearts, spades."""
    return card & 3


def parse_card(text: str) -> Card:
    """The card written as two characters, rank then suit.

    >>> parse_card("Tc"), parse_card("2c"), parse_card("As")
    (32, 0, 51)
    """
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise RuleError(
            f"{text!r} is not a card: a rank of {RANKS} then a suit of {SUITS}",
            code="not_a_card",
            params={"card": text},
        )
    return RANKS.index(text[0]) * 4 + SUITS.index(text[1])


def card_str(card: Card) -> str:
    """The two-character text of a card.

    >>> card_str(0), card_str(51)
    ('2c', 'As')
    """
    if not 0 <= card < 52:
        raise RuleError(
            f"{card} is not a card: cards are 0..51", code="not_a_card", params={"card": card}
        )
    return RANKS[card >> 2] + SUITS[card & 3]


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Cards from one string of two-character cards or from an iterable of card strings.

    Spaces and commas between cards are allowed in the single-string form.

    >>> parse_cards("AhKd 7c")
    (50, 45, 20)
    >>> parse_cards(["Ah", "Kd"])
    (50, 45)
    """
    if isinstance(text, str):
        compact = text.replace(" ", "").replace(",", "")
        if len(compact) % 2:
            raise RuleError(
                f"{text!r} is not a list of two-character cards",
                code="not_cards",
                params={"cards": text},
            )
        return tuple(parse_card(compact[i : i + 2]) for i in range(0, len(compact), 2))
    return tuple(parse_card(item) for item in text)


def cards_str(cards: Iterable[Card]) -> str:
    """The cards written one after another.

    >>> cards_str((50, 45, 20))
    'AhKd7c'
    """
    return "".join(card_str(card) for card in cards)


_ORDERS = math.factorial(52)
_ORDER_BITS = _ORDERS.bit_length()


def shuffled_deck(rng: random.Random | None = None) -> tuple[Card, ...]:
    """A fresh 52-card order for one hand, dealt from the front.

    `rng` defaults to a new `random.SystemRandom` (the operating system's CSPRNG, the class
    `secrets` exports, without the cost of importing `secrets`), so nothing of one hand's
    shuffle is reused in the next; tests pass `random.Random(seed)`.

    >>> import random
    >>> shuffled_deck(random.Random(1))[:3] == shuffled_deck(random.Random(1))[:3]
    True
    """
    if rng is None:
        # Imported here: a process that replays hands never shuffles (`random`: 1 ms).
        from random import SystemRandom  # noqa: PLC0415

        rng = SystemRandom()
    # One draw, uniform over the 52! orders (rejection keeps it exact), whose mixed-radix
    # digits are the swaps of a Fisher-Yates shuffle. It is the same uniform shuffle as
    # `rng.shuffle`, with one call to the generator instead of 51: with SystemRandom that is
    # one read of the OS's CSPRNG per hand rather than 51, about nine times faster.
    while True:
        draw = rng.getrandbits(_ORDER_BITS)
        if draw < _ORDERS:
            break
    deck = list(FULL_DECK)
    for i in range(51, 0, -1):
        draw, j = divmod(draw, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)
