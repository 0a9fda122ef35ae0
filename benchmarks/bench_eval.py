"""The evaluator and equity against phevaluator, on identical random inputs.

    .venv/bin/python benchmarks/bench_eval.py [--seconds 2] [--seed 2026]

What each number means:
- "per input": N independent deals, each four hole cards and its own five-card board.
  phevaluator is timed through its public `evaluate_omaha_cards(*board, *hole)`, Omaha high
  only, one call per deal; ours through `evaluate_many(deals)` (high AND low, one call for
  all deals) and through `high_low_values(hole, board)` (one call per deal).
- "9-handed showdown": N/9 boards with nine hands each. phevaluator is called once per hand
  (it has no shared-board form); ours is `showdown_values(Game.OMAHA_HI_LO, holes, board)`,
  which looks the board up once.
- phevaluator's public function is a Python wrapper around its C extension; the raw C
  function (`phevaluator._pheval.evaluate_omaha_cards`) is timed too, for context.
- Rates are evaluations per second of CPU time (`time.process_time`, this process only),
  the median of several interleaved rounds, the order reversed every round: on a shared
  machine, wall-clock time mostly measures who else got the processor. A neighbour's load
  still slows a process (shared caches), so the headline ratio is also given round by
  round, ours and phevaluator back to back, with its quartiles.
- Board entries are built the first time a board's ranks come up (~60 us each, 6,175 at
  most): the warm-up round builds them, and the cold line shows a fresh process's first
  pass over the deals against its second.
- Flop equity: milliseconds for the exact hi/lo equity of three hands on a random flop
  (all 666 turn-and-river boards), the mean over a few spots.

`benchmarks/engine.py` imports `bench_showdown_evals` and `bench_flop_equity`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: make the project importable
    sys.path.insert(0, str(ROOT))

Deal = tuple[tuple[int, ...], tuple[int, ...]]


class ShowdownRates(NamedTuple):
    """Evaluations per second; the first two are the headline comparison (per input)."""

    ours_hi_lo: float
    """`evaluate_many` on the independent deals: high and low of each."""
    phevaluator_high: float
    """phevaluator's public `evaluate_omaha_cards` on the same deals: high only."""
    ours_hi_lo_per_call: float
    """`high_low_values(hole, board)` called once per deal."""
    phevaluator_c_high: float
    """phevaluator's C function without its Python wrapper: high only."""
    ours_showdown_hi_lo: float
    """`showdown_values` on 9-handed showdowns: hands per second, high and low."""
    phevaluator_showdown_high: float
    """phevaluator once per hand of the same showdowns: high only."""
    deals: int
    paired_ratio: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """`evaluate_many` over phevaluator's public API, round by round: median, quartiles."""


def random_deals(count: int, seed: int) -> list[Deal]:
    """`count` independent (hole, board) deals of nine different cards."""
    rng = random.Random(seed)
    deals = []
    for _ in range(count):
        cards = rng.sample(range(52), 9)
        deals.append((tuple(cards[:4]), tuple(cards[4:])))
    return deals


Showdown = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]


def random_showdowns(count: int, seed: int, players: int = 9) -> list[Showdown]:
    """`count` showdowns: `players` holes and one board, all cards different."""
    rng = random.Random(seed)
    showdowns = []
    for _ in range(count):
        cards = rng.sample(range(52), 4 * players + 5)
        holes = tuple(tuple(cards[4 * i : 4 * i + 4]) for i in range(players))
        showdowns.append((holes, tuple(cards[-5:])))
    return showdowns


def _round_times(runs: dict[str, Callable[[], object]], seconds: float) -> dict[str, list[float]]:
    """CPU seconds of each function per round, over interleaved rounds.

    Each round runs every function once, in the listed order and then reversed on the next
    round, so no side always runs first after the other (cache state, a neighbour's load).
    """
    for fn in runs.values():
        fn()  # warm up: imports, caches
    times: dict[str, list[float]] = {name: [] for name in runs}
    order = list(runs.items())
    deadline = time.process_time() + seconds * len(runs)
    while time.process_time() < deadline or min(len(t) for t in times.values()) < 5:
        for name, fn in order:
            start = time.process_time()
            fn()
            times[name].append(time.process_time() - start)
        order.reverse()
    return times


def _median_rates(
    runs: dict[str, Callable[[], object]], per_run: int, seconds: float
) -> dict[str, float]:
    """Items per CPU second of each function, the median of interleaved rounds."""
    times = _round_times(runs, seconds)
    return {name: per_run / statistics.median(spent) for name, spent in times.items()}


def _paired_ratio(ours: list[float], theirs: list[float]) -> tuple[float, float, float]:
    """Our rate over theirs per round (the two ran back to back, under the same load of the
    machine): the median and the quartiles of those ratios."""
    ratios = sorted(their / our for our, their in zip(ours, theirs, strict=True))
    low, median, high = statistics.quantiles(ratios, n=4)
    return median, low, high


def bench_showdown_evals(
    n: int = 20_000, seed: int = 2026, *, seconds: float = 2.0
) -> ShowdownRates:
    """Our hi+lo evaluations per second against phevaluator's high-only, same inputs."""
    from phevaluator import _pheval, evaluate_omaha_cards

    from tables.engine.config import Game
    from tables.engine.evaluator import evaluate_many, high_low_values, showdown_values

    deals = random_deals(n, seed)
    showdowns = random_showdowns(max(1, n // 9), seed + 1)

    def ours_many() -> None:
        evaluate_many(deals)

    def ours_per_call() -> None:
        for hole, board in deals:
            high_low_values(hole, board)

    def phevaluator() -> None:
        for hole, board in deals:
            evaluate_omaha_cards(*board, *hole)

    raw = _pheval.evaluate_omaha_cards

    def phevaluator_c() -> None:
        for hole, board in deals:
            raw(*board, *hole)

    per_input_times = _round_times(
        {
            "ours": ours_many,
            "phe": phevaluator,
            "ours_call": ours_per_call,
            "phe_c": phevaluator_c,
        },
        seconds,
    )
    per_input = {
        name: len(deals) / statistics.median(spent) for name, spent in per_input_times.items()
    }

    def ours_showdown() -> None:
        for holes, board in showdowns:
            showdown_values(Game.OMAHA_HI_LO, holes, board)

    def phevaluator_showdown() -> None:
        for holes, board in showdowns:
            for hole in holes:
                evaluate_omaha_cards(*board, *hole)

    hands = 9 * len(showdowns)
    showdown = _median_rates({"ours": ours_showdown, "phe": phevaluator_showdown}, hands, seconds)
    return ShowdownRates(
        ours_hi_lo=per_input["ours"],
        phevaluator_high=per_input["phe"],
        ours_hi_lo_per_call=per_input["ours_call"],
        phevaluator_c_high=per_input["phe_c"],
        ours_showdown_hi_lo=showdown["ours"],
        phevaluator_showdown_high=showdown["phe"],
        deals=len(deals),
        paired_ratio=_paired_ratio(per_input_times["ours"], per_input_times["phe"]),
    )


def bench_flop_equity(seed: int = 2026, spots: int = 5) -> float:
    """Mean CPU milliseconds for the exact hi/lo equity of three hands on a random flop."""
    from tables.engine.config import Game
    from tables.engine.equity import equity

    rng = random.Random(seed)
    times = []
    for _ in range(spots):
        cards = rng.sample(range(52), 15)
        holes = [tuple(cards[0:4]), tuple(cards[4:8]), tuple(cards[8:12])]
        start = time.process_time()
        result = equity(Game.OMAHA_HI_LO, holes, tuple(cards[12:15]))
        times.append(time.process_time() - start)
        assert result.exact and result.boards == 666
    return statistics.fmean(times) * 1000


def bench_preflop_equity(seed: int = 2026, players: int = 9) -> float:
    """CPU milliseconds for a 20,000-board Monte Carlo hi/lo equity of `players` hands."""
    from tables.engine.config import Game
    from tables.engine.equity import equity

    rng = random.Random(seed)
    cards = rng.sample(range(52), 4 * players)
    holes = [tuple(cards[4 * i : 4 * i + 4]) for i in range(players)]
    start = time.process_time()
    equity(Game.OMAHA_HI_LO, holes, rng=rng)
    return (time.process_time() - start) * 1000


def bench_cold_evals(n: int = 20_000, seed: int = 2026) -> dict[str, float]:
    """A fresh interpreter's first pass over `n` deals, when board entries are built on
    first use, then a second pass; and the CPU time of `prepare_tables()` (build them all).
    """
    code = (
        "import sys, time; sys.path.insert(0, 'benchmarks');"
        "from bench_eval import random_deals;"
        f"deals = random_deals({n}, {seed});"
        "from tables.engine.evaluator import evaluate_many, prepare_tables;"
        "t0 = time.process_time(); evaluate_many(deals); t1 = time.process_time();"
        "evaluate_many(deals); t2 = time.process_time(); prepare_tables();"
        "t3 = time.process_time(); print(t1 - t0, t2 - t1, t3 - t2)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    first, second, rest = (float(part) for part in out.split())
    return {"first_pass_per_s": n / first, "second_pass_per_s": n / second, "rest_ms": rest * 1000}


def bench_import_ms(repeats: int = 5) -> float:
    """Median CPU milliseconds to import the evaluator (its tables) in a fresh interpreter."""
    code = (
        "import time; t = time.process_time(); import tables.engine.evaluator;"
        " print(time.process_time() - t)"
    )
    spent = [
        float(
            subprocess.run(
                [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(repeats)
    ]
    return statistics.median(spent) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("-n", type=int, default=20_000, help="deals per round")
    args = parser.parse_args(argv)
    rates = bench_showdown_evals(args.n, args.seed, seconds=args.seconds)
    print(f"{rates.deals:,} independent deals (4 hole + 5 board), evaluations/s:")
    print(f"  ours hi+lo, evaluate_many        {rates.ours_hi_lo:>12,.0f}")
    print(f"  ours hi+lo, high_low_values      {rates.ours_hi_lo_per_call:>12,.0f}")
    print(f"  phevaluator high, public API     {rates.phevaluator_high:>12,.0f}")
    print(f"  phevaluator high, raw C function {rates.phevaluator_c_high:>12,.0f}")
    print(
        f"  ratio ours hi+lo / phevaluator high (public): "
        f"{rates.ours_hi_lo / rates.phevaluator_high:.2f}x"
        f" (per call {rates.ours_hi_lo_per_call / rates.phevaluator_high:.2f}x)"
    )
    median, low, high = rates.paired_ratio
    print(
        f"  same ratio round by round (back to back): median {median:.2f}x,"
        f" quartiles {low:.2f}x-{high:.2f}x"
    )
    print("9-handed showdowns (one board, nine hands), hands/s:")
    print(f"  ours hi+lo, showdown_values      {rates.ours_showdown_hi_lo:>12,.0f}")
    print(f"  phevaluator high, per hand       {rates.phevaluator_showdown_high:>12,.0f}")
    print(f"  ratio: {rates.ours_showdown_hi_lo / rates.phevaluator_showdown_high:.2f}x")
    cold = bench_cold_evals(args.n, args.seed)
    print(
        f"  fresh process, board entries built on first use: first pass"
        f" {cold['first_pass_per_s']:,.0f}/s, second pass {cold['second_pass_per_s']:,.0f}/s"
        f" (then prepare_tables() for the other boards: {cold['rest_ms']:.0f} ms)"
    )
    print(f"exact hi/lo flop equity, 3 hands:  {bench_flop_equity(args.seed):.1f} ms (mean of 5)")
    print(f"preflop hi/lo equity, 9 hands, 20,000 boards: {bench_preflop_equity(args.seed):.0f} ms")
    print(f"import tables.engine.evaluator:    {bench_import_ms():.0f} ms (median of 5)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
