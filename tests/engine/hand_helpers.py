"""Small builders for rule tests: a deck that deals given cards, and a table of seats 1..n.

Seats are numbered 1..n with the button on seat n, so the deal order is seat 1, 2, ..., n:
with three or more players seat 1 posts the small blind and seat 2 the big blind; heads-up
seat 2 (the button) posts the small blind and seat 1 the big blind.
"""

from __future__ import annotations

from collections.abc import Sequence

from tables.engine.cards import parse_cards
from tables.engine.config import Config, Game, Structure
from tables.engine.records import Record, SeatSpec
from tables.engine.state import Hand


def make_deck(holes: Sequence[str | None], board: str = "", burns: str = "") -> tuple[int, ...]:
    """A 52-card order that deals `holes[i]` to the i-th player in deal order, then burns
    and the board (flop, turn, river) in the order the dealer takes them; the rest filler."""
    n = len(holes)
    wanted: dict[int, int] = {}
    for i, hole in enumerate(holes):
        if hole:
            for k, card in enumerate(parse_cards(hole)):
                wanted[k * n + i] = card
    p = 4 * n
    board_cards = parse_cards(board) if board else ()
    burn_cards = parse_cards(burns) if burns else ()
    positions = [p + 1, p + 2, p + 3, p + 5, p + 7]
    for pos, card in zip(positions, board_cards, strict=False):
        wanted[pos] = card
    for pos, card in zip((p, p + 4, p + 6), burn_cards, strict=False):
        wanted[pos] = card
    used = set(wanted.values())
    assert len(used) == len(wanted), "a card is dealt twice"
    rest = iter(c for c in range(52) if c not in used)
    return tuple(wanted[k] if k in wanted else next(rest) for k in range(52))


def table(
    stacks: Sequence[int],
    *,
    game: Game = Game.OMAHA_HI_LO,
    structure: Structure = Structure.LIMIT,
    holes: Sequence[str | None] | None = None,
    board: str = "",
    specs: Sequence[SeatSpec] | None = None,
    **config: object,
) -> Hand:
    """A hand at seats 1..n (button on seat n) with `stacks` and the given cards."""
    options: dict[str, object] = {"big_blind": 10}
    options.update(config)
    cfg = Config(game, structure, **options)  # type: ignore[arg-type]
    n = len(stacks)
    seats = specs or [SeatSpec(i + 1, s) for i, s in enumerate(stacks)]
    deck = make_deck(holes or [None] * n, board)
    return Hand.start(cfg, seats, n, deck)


def kinds(records: Sequence[Record]) -> list[str]:
    return [type(r).__name__ for r in records]


def play(hand: Hand, *moves: str) -> None:
    """Apply moves written as "3 raise 40", "1 call", "2 fold"."""
    for move in moves:
        parts = move.split()
        amount = int(parts[2]) if len(parts) > 2 else None
        hand.act(int(parts[0]), parts[1], amount)
