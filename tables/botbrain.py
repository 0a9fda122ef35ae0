"""How the house bots play: a few simple styles that decide from the legal actions and their
hand's strength. Pure Python on the engine (no Django), so a bot client outside the site (the
load benchmark's) plays exactly as the house bots in the server do (``tables.bots``).

``decide(style, snapshot)`` reads the snapshot a seat receives (its own cards, the board,
``you.legal``) and returns an ``act`` frame. Strength is the hand's share against one
random hand, sampled on random boards with the engine's evaluator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tables.engine.cards import FULL_DECK, parse_cards
from tables.engine.config import Game
from tables.engine.evaluator import high_value, low_value
from tables.engine.records import Bet, BoardDealt, HoleDealt, Raised, Record

STYLES = ("tight", "loose", "station", "maniac")

# (play threshold, raise threshold, bluff rate, re-raise threshold): how strong a hand must
# be to continue, to bet or raise, how often to raise anyway, and how strong to raise again
# once the round holds a raise (then by the pot).
_STYLE_TABLE = {
    "tight": (0.55, 0.72, 0.02, 0.85),
    "loose": (0.40, 0.65, 0.08, 0.80),
    "station": (0.0, 0.95, 0.0, 0.95),
    "maniac": (0.35, 0.50, 0.25, 0.70),
}

# Past this many bets in a round (the opening bet included) a bot only calls or folds, as
# the online rooms cap limit betting at a bet and three raises. Without it two bots whose
# hands looked better than average re-raised each other by the minimum: one pot-limit hand
# with 100,000-chip stacks ran 711 records and 88 s, and a director's pause waited for it.
MOST_BETS = 4


def bets_this_round(records: Sequence[Record]) -> int:
    """Bets made in the betting round in play, the opening bet included: before the flop the
    big blind is that bet, as ``Config.raise_cap`` counts them.

    Public: anyone watching the table can count them. The live snapshot carries it in
    ``you.legal["bets"]`` for the bots.
    """
    bets = 0
    for record in reversed(records):
        if isinstance(record, (Bet, Raised)):
            bets += 1
        elif isinstance(record, BoardDealt):
            return bets
        elif isinstance(record, HoleDealt):
            return bets + 1
    return bets


def strength(
    hole: list[str], board: list[str], hi_lo: bool, samples: int = 60, rng: Any = None
) -> float:
    """This hand's expected share of a pot against one random hand (0..1)."""
    rng = rng or random.Random()
    mine = parse_cards(hole)
    known = parse_cards(board)
    rest = [c for c in FULL_DECK if c not in set(mine) | set(known)]
    total = 0.0
    for _ in range(samples):
        draw = rng.sample(rest, 4 + 5 - len(known))
        theirs = tuple(draw[:4])
        full = tuple(known) + tuple(draw[4:])
        a, b = high_value(mine, full), high_value(theirs, full)
        hi_share = 1.0 if a > b else 0.5 if a == b else 0.0
        if not hi_lo:
            total += hi_share
            continue
        la, lb = low_value(mine, full), low_value(theirs, full)
        if la is None and lb is None:
            total += hi_share
            continue
        lo_share = 1.0 if lb is None or (la is not None and la > lb) else 0.5 if la == lb else 0.0
        total += (hi_share + lo_share) / 2
    return total / samples


def run_twice_answer(style: str) -> bool:
    """A house bot's answer when the players still in are asked to run the board twice:
    always yes, whatever its style. Running twice changes nobody's expected share of the
    pot, only how much it swings, and a bot that answers at once never keeps a table
    waiting for the vote's time to run out."""
    return True


def decide(
    style: str, snapshot: dict[str, Any], rng: Any = None, samples: int = 60
) -> dict[str, Any] | None:
    """The frame this style sends for the snapshot: an act frame on its turn, its answer
    when asked to run it twice (``run_twice_answer``), else None."""
    rng = rng or random.Random()
    hand = snapshot.get("hand") or {}
    vote = hand.get("run_twice")
    me = snapshot.get("you", {}).get("seat")
    if vote and me in vote["asked"] and me not in vote["agreed"]:
        return {"type": "run_twice", "hand": hand["id"], "agree": run_twice_answer(style)}
    legal = snapshot.get("you", {}).get("legal")
    if not legal:
        return None
    frame: dict[str, Any] = {"type": "act", "hand": legal["hand"], "version": legal["version"]}
    if legal["show"] or legal["muck"]:
        return {**frame, "action": "show"}
    me = snapshot["you"]["seat"]
    seat = next(s for s in snapshot["seats"] if s["seat"] == me)
    board = snapshot["hand"]["board"]
    hi_lo = snapshot["table"]["game"] == Game.OMAHA_HI_LO
    play, raise_at, bluff, reraise_at = _STYLE_TABLE.get(style, _STYLE_TABLE["tight"])
    power = strength(seat.get("cards") or [], board, hi_lo, samples=samples, rng=rng)
    span = legal["raise"] or legal["bet"]
    kind = "raise" if legal["raise"] else "bet"
    bets = legal.get("bets", 0)
    if span and bets < MOST_BETS:
        strong = power >= reraise_at
        # An ordinary hand (or a bluff) bets, or raises the opening bet once; only a strong
        # one raises a raise.
        if strong or (bets <= 1 and (power >= raise_at or rng.random() < bluff)):
            low, high = span["min"], span["max"]
            amount = _pot_raise(snapshot, seat, legal, low, high) if strong else low
            return {**frame, "action": kind, "amount": amount}
    if legal["check"]:
        return {**frame, "action": "check"}
    if legal["call"] is not None and (power >= play or style == "station"):
        return {**frame, "action": "call"}
    return {**frame, "action": "fold"}


def _pot_raise(
    snapshot: dict[str, Any], seat: dict[str, Any], legal: dict[str, Any], low: int, high: int
) -> int:
    """A pot-sized bet or raise (the pot after calling, on top of the call) within the legal
    span: a strong hand puts the stacks in quickly. Rounded down to whole big blinds, so it
    is a multiple of the table's chip unit (the engine takes the span's ends as they are)."""
    pot = sum(p["amount"] for p in snapshot["hand"]["pots"])
    pot += sum(s.get("bet", 0) for s in snapshot["seats"])
    call = legal["call"] or 0
    to: int = seat.get("bet", 0) + call + pot + call
    to -= to % (snapshot["table"].get("big_blind") or 1)
    return max(low, min(high, to))


def votes_bomb_pot(style: str) -> bool:
    """A house bot's answer to a bomb pot vote at its table: yes, whatever its style (a
    bomb pot is one more hand to play, and the bots are there to play)."""
    return True
