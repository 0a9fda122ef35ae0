"""Play many random hands across every game and structure and check the engine's invariants.

    python tests/engine/fuzz_hands.py --hands 100000 [--seed 1] [--check-every 10]

Each hand has random stakes, seats (2-10), stacks, antes and caps and is played with random
legal moves. Checked for every hand: chips are conserved after every move, every offered
action is accepted, the hand ends, views never show another player's unshown cards; for
every `--check-every`-th hand also: a sample of illegal moves raises RuleError and changes
nothing, and `Hand.from_records` (also through JSON) rebuilds an identical hand. Prints one
summary line and exits non-zero on any failure.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tables.engine.config import AnteKind, Config, Game, Structure
from tables.engine.errors import RuleError
from tables.engine.records import SeatSpec, record_from_json, record_to_json
from tables.engine.state import Action, Hand, LegalActions

COMBOS = [(g, s) for g in Game for s in Structure]


def random_config(rng: random.Random, game: Game, structure: Structure) -> Config:
    unit = rng.choice((1, 1, 1, 5))
    bb = unit * rng.choice((2, 2, 4, 10, 20))
    ante_kind = rng.choice((AnteKind.NONE, AnteKind.NONE, AnteKind.EACH, AnteKind.BIG_BLIND))
    ante = 0 if ante_kind is AnteKind.NONE else rng.choice((1, bb // 2, bb))
    return Config(
        game,
        structure,
        big_blind=bb,
        chip_unit=unit,
        ante=ante,
        ante_kind=ante_kind,
        raise_cap=rng.choice((4, 5, None)),
        uncapped_heads_up=rng.random() < 0.3,
        all_in_on_timeout=rng.random() < 0.1,
    )


def random_hand(rng: random.Random, config: Config) -> Hand:
    n = rng.randint(2, 10)
    seat_numbers = sorted(rng.sample(range(1, 11), n))
    bb = config.big_blind
    seats = []
    for seat in seat_numbers:
        stack = rng.choice((rng.randint(1, 3 * bb), rng.randint(bb, 100 * bb), 100 * bb))
        live = bb if rng.random() < 0.05 else 0
        dead = (config.small_blind or 0) if rng.random() < 0.03 else 0
        seats.append(SeatSpec(seat, stack, live, dead))
    deck = list(range(52))
    rng.shuffle(deck)
    button = rng.choice(seat_numbers) if rng.random() < 0.95 else rng.randint(0, 11)
    # A tournament's dead small blind (seating.deal_in decides when), three players or more.
    dead_small_blind = n > 2 and rng.random() < 0.1
    return Hand.start(config, seats, button, deck, dead_small_blind=dead_small_blind)


def random_move(
    rng: random.Random, legal: LegalActions, unit: int = 1
) -> tuple[Action, int | None]:
    actions = legal.actions
    if Action.SHOW in actions:
        return (Action.SHOW if rng.random() < 0.8 else Action.MUCK), None
    r = rng.random()
    if legal.bet_or_raise is not None and r < 0.3:
        lo, hi = legal.min_to, legal.max_to
        x = rng.random()
        amount = lo if x < 0.4 else hi if x < 0.6 else rng.randint(lo, hi)
        if lo < amount < hi:
            amount = max(lo, amount - amount % unit)
        return legal.bet_or_raise, amount
    if Action.CHECK in actions:
        return (Action.CHECK if r < 0.95 else Action.FOLD), None
    return (Action.CALL if r < 0.75 else Action.FOLD), None


def _chips(hand: Hand) -> int:
    return sum(hand.stacks().values()) + hand.pot_total


def _state_key(hand: Hand) -> tuple[object, ...]:
    return (len(hand.records), repr(hand.view(None)), hand.legal_actions())


def illegal_moves(
    rng: random.Random, hand: Hand, legal: LegalActions
) -> list[tuple[int, str, int | None]]:
    """A few moves the rules forbid right now."""
    assert legal.seat is not None
    other = [s for s in hand.seats if s != legal.seat]
    moves: list[tuple[int, str, int | None]] = [(rng.choice(other), Action.CHECK, None)]
    me = next(s for s in hand.view(None)["seats"] if s["seat"] == legal.seat)
    all_in = me["stack"] + me["bet"]
    for a in Action:
        if a not in legal.actions:
            amount = rng.randint(0, 10**4) if a in (Action.BET, Action.RAISE) else None
            if amount == all_in:
                continue  # an all-in for less is accepted as a call at the stack total
            moves.append((legal.seat, a, amount))
    if legal.bet_or_raise is not None:
        if legal.min_to > 0:
            moves.append((legal.seat, legal.bet_or_raise, legal.min_to - 1))
        moves.append((legal.seat, legal.bet_or_raise, legal.max_to + 1))
    moves.append((legal.seat, "dance", None))
    return moves


def check_no_leak(hand: Hand) -> None:
    shown: set[int] = set()
    for record in hand.records:
        if type(record).__name__ == "Shown":
            shown.add(record.seat)  # type: ignore[union-attr]
    for viewer in (None, *hand.seats):
        view = hand.view(viewer)
        for s in view["seats"]:
            if s["cards"] is not None and s["seat"] != viewer and s["seat"] not in shown:
                raise AssertionError(f"view for {viewer} shows seat {s['seat']}'s cards")
        text = repr(view)
        if "deck" in text:
            raise AssertionError("a view mentions the deck")


def play_one(rng: random.Random, config: Config, deep: bool) -> int:
    """Play one random hand, checking invariants; returns the number of moves."""
    hand = random_hand(rng, config)
    total = sum(hand.starting_stacks().values())
    moves = 0
    while not hand.is_complete:
        legal = hand.legal_actions()
        assert legal.seat is not None, "an unfinished hand has nobody to act"
        if deep:
            for seat, action, amount in illegal_moves(rng, hand, legal):
                before = _state_key(hand)
                try:
                    hand.act(seat, action, amount)
                except RuleError:
                    pass
                else:
                    raise AssertionError(f"illegal {seat} {action} {amount} was accepted")
                if _state_key(hand) != before:
                    raise AssertionError("a rejected move changed the hand")
        if config.all_in_on_timeout and rng.random() < 0.02 and legal.bet_or_raise is not None:
            try:
                hand.declare_all_in(legal.seat)
            except RuleError:
                pass
            else:
                moves += 1
                continue
        action, amount = random_move(rng, legal, config.chip_unit)
        if not hand.can_act(legal.seat, action, amount):
            raise AssertionError(f"offered move {legal.seat} {action} {amount} refused")
        hand.act(legal.seat, action, amount)
        moves += 1
        if _chips(hand) != total:
            raise AssertionError("chips not conserved")
        if moves > 500:
            raise AssertionError("hand does not end")
    final = hand.final_stacks
    assert final is not None
    if sum(final.values()) != total:
        raise AssertionError("final stacks do not add up")
    if deep:
        check_no_leak(hand)
        records = hand.records
        again = Hand.from_records(records)
        if again.records != records or again.view(None) != hand.view(None):
            raise AssertionError("from_records did not rebuild the hand")
        from_json = [record_from_json(record_to_json(r)) for r in records]
        if tuple(from_json) != records:
            raise AssertionError("records do not survive JSON")
    return moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check-every", type=int, default=10)
    parser.add_argument("--progress", type=int, default=50000, help="report every N hands")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    failures = 0
    moves = 0
    started = time.perf_counter()
    for k in range(args.hands):
        if k and not k % args.progress:
            elapsed = time.perf_counter() - started
            print(
                f"... hands={k} actions={moves} hands/s={k / elapsed:.0f} failures={failures}",
                file=sys.stderr,
                flush=True,
            )
        game, structure = COMBOS[k % len(COMBOS)]
        try:
            config = random_config(rng, game, structure)
            moves += play_one(rng, config, k % args.check_every == 0)
        except Exception:
            failures += 1
            if failures <= 5:
                print(f"hand {k} failed:", file=sys.stderr)
                traceback.print_exc()
    elapsed = time.perf_counter() - started
    print(
        f"hands={args.hands} actions={moves} hands/s={args.hands / elapsed:.0f}"
        f" failures={failures} seconds={elapsed:.1f}"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
