"""The provably fair deal: commit to the shuffled deck before the first card, reveal after.

Before a hand is dealt the table publishes ``sha256(deck + ":" + secret)``, where ``deck``
is the 52 cards in dealing order as text ("AhKd7c...") and ``secret`` 32 random bytes in
hex. After the hand both are revealed; anyone can recompute the hash, and replaying the
hand's moves on that deck (``Hand.from_records``) must give exactly the stored hand.

>>> commitment_of("AhKd", "x") == hashlib.sha256(b"AhKd:x").hexdigest()
True
"""

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from tables.engine.cards import cards_str, parse_cards, shuffled_deck


@dataclass(frozen=True)
class Deal:
    deck: tuple[int, ...]
    deck_text: str
    secret: str
    commitment: str


def commitment_of(deck_text: str, secret: str) -> str:
    return hashlib.sha256(f"{deck_text}:{secret}".encode()).hexdigest()


def deal_new() -> Deal:
    """A fresh deck from the operating system's CSPRNG, with its secret and commitment."""
    deck = shuffled_deck()
    deck_text = cards_str(deck)
    secret = secrets.token_hex(32)
    return Deal(deck, deck_text, secret, commitment_of(deck_text, secret))


def commitment_matches(deck_text: str, secret: str, commitment: str) -> bool:
    return hmac.compare_digest(commitment_of(deck_text, secret), commitment)


def deck_from_text(deck_text: str) -> tuple[int, ...]:
    return parse_cards(deck_text)
