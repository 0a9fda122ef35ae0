"""The provably fair deal: a commitment to every card of the deck before the first card,
and after the hand, openings of the cards that were seen.

Each of the 52 positions of the shuffled deck (dealing order, 0 first) is committed on its
own: ``leaf = sha256("<position>:<card>:<salt>")`` with a salt of 128 bits that only the
server knows (derived from the hand's secret, which never leaves the server). Before the
deal the table publishes ``commitment = sha256(leaf_0 + leaf_1 + ... + leaf_51)`` (the hex
leaves, concatenated). After the hand it publishes the 52 leaves and opens the positions
everyone saw (the board, the burns, the hands shown at the showdown, the cards a player
showed after the hand): an opening is the card and its salt. Each player also gets, on their
own socket, the openings of their own hole cards. Anyone can then check that every opened
card hashes to its leaf and that the leaves hash to the commitment published before the
deal, while a folded or mucked hand is never opened (but for the cards its player showed),
so it never leaves the server.

>>> deal = deal_new()
>>> leaves = deal_leaves(deal.deck_text, deal.secret)
>>> commitment_of_leaves(leaves) == deal.commitment
True
>>> opening = opening_of(deal.deck_text, deal.secret, 7)
>>> opening_matches(opening, leaves[7])
True
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from tables.engine.cards import card_str, cards_str, parse_cards, shuffled_deck
from tables.engine.records import BoardDealt, Burned, CardsShown, HoleDealt, Shown

DECK_SIZE = 52


@dataclass(frozen=True)
class Deal:
    deck: tuple[int, ...]
    deck_text: str
    secret: str
    commitment: str


def _cards(deck_text: str) -> list[str]:
    return [deck_text[k : k + 2] for k in range(0, len(deck_text), 2)]


def salt_of(secret: str, position: int) -> str:
    """The position's salt: 128 bits from the hand's secret (never revealed itself)."""
    return hmac.new(secret.encode(), f"salt:{position}".encode(), hashlib.sha256).hexdigest()[:32]


def leaf_of(position: int, card: str, salt: str) -> str:
    return hashlib.sha256(f"{position}:{card}:{salt}".encode()).hexdigest()


@functools.lru_cache(maxsize=256)
def _leaves(deck_text: str, secret: str) -> tuple[str, ...]:
    # 104 hashes; a finished hand's snapshot is rebuilt on every version until the next
    # hand (a chat line, a player sitting out), so each deck's are computed once.
    return tuple(leaf_of(k, card, salt_of(secret, k)) for k, card in enumerate(_cards(deck_text)))


def deal_leaves(deck_text: str, secret: str) -> list[str]:
    """The 52 leaves: each position's card, hidden behind its salt."""
    return list(_leaves(deck_text, secret))


def commitment_of_leaves(leaves: list[str]) -> str:
    return hashlib.sha256("".join(leaves).encode()).hexdigest()


def commitment_of(deck_text: str, secret: str) -> str:
    """What the table publishes before the first card."""
    return commitment_of_leaves(deal_leaves(deck_text, secret))


def deal_new() -> Deal:
    """A fresh deck from the operating system's CSPRNG, with its secret and commitment."""
    deck = shuffled_deck()
    deck_text = cards_str(deck)
    secret = secrets.token_hex(32)
    return Deal(deck, deck_text, secret, commitment_of(deck_text, secret))


def commitment_matches(deck_text: str, secret: str, commitment: str) -> bool:
    """The server's own check, with the whole deck and the secret."""
    return hmac.compare_digest(commitment_of(deck_text, secret), commitment)


def deck_from_text(deck_text: str) -> tuple[int, ...]:
    return parse_cards(deck_text)


def opening_of(deck_text: str, secret: str, position: int) -> dict[str, Any]:
    """Open one position: its card and salt, which hash to its leaf."""
    card = _cards(deck_text)[position]
    return {"position": position, "card": card, "salt": salt_of(secret, position)}


def opening_matches(opening: dict[str, Any], leaf: str) -> bool:
    try:
        position, card, salt = int(opening["position"]), str(opening["card"]), str(opening["salt"])
    except (KeyError, TypeError, ValueError):
        return False
    return hmac.compare_digest(leaf_of(position, card, salt), leaf)


def openings_verify(
    commitment: str, leaves: list[str], openings: list[dict[str, Any]]
) -> tuple[bool, bool]:
    """(the leaves hash to the commitment, every opening hashes to its leaf)."""
    leaves_ok = len(leaves) == DECK_SIZE and hmac.compare_digest(
        commitment_of_leaves(leaves), commitment
    )
    openings_ok = all(
        0 <= int(o.get("position", -1)) < len(leaves)
        and opening_matches(o, leaves[int(o["position"])])
        for o in openings
    )
    return leaves_ok, openings_ok


def positions_of(deck_text: str, cards: list[str]) -> list[int]:
    """Where these cards sit in the deck (dealing order)."""
    index = {card: k for k, card in enumerate(_cards(deck_text))}
    return [index[c] for c in cards]


def hand_reveal(deck_text: str, secret: str, records: Any) -> dict[str, Any]:
    """What everyone may check after the hand: the 52 leaves, and the openings of the cards
    the table saw (board, burns, hands shown, cards shown after the hand). Folded and mucked
    hands stay closed, but for the cards their players chose to show."""
    seen: list[str] = []
    for r in records:
        if isinstance(r, BoardDealt | Shown | CardsShown):
            seen += [card_str(c) for c in r.cards]
        elif isinstance(r, Burned):
            seen.append(card_str(r.card))
    return {
        "leaves": deal_leaves(deck_text, secret),
        "openings": [
            opening_of(deck_text, secret, k) for k in sorted(positions_of(deck_text, seen))
        ],
    }


def seat_openings(deck_text: str, secret: str, records: Any, seat: int) -> list[dict[str, Any]]:
    """The openings of one seat's own hole cards: for that player only."""
    for r in records:
        if isinstance(r, HoleDealt) and r.seat == seat:
            cards = [card_str(c) for c in r.cards]
            return [opening_of(deck_text, secret, k) for k in positions_of(deck_text, cards)]
    return []
