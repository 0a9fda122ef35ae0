"""The engine against PokerKit and phevaluator, measured in one run on one machine.

    make bench                                   # a few minutes of CPU
    .venv/bin/python benchmarks/engine.py --seconds 1 --seed 7

Prints one table: metric, ours, reference, ratio, goal, met?. What each line measures is in
benchmarks/README.md. PokerKit and phevaluator are test-only dependencies; the engine never
imports them.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script (make bench): make the project importable
    sys.path.insert(0, str(ROOT))

STACK = 200
BIG_BLIND = 2
PLAYERS = 6


# --- the random policy both engines play -----------------------------------------------------


def choose(
    rng: random.Random, facing: bool, raise_range: tuple[int, int] | None
) -> tuple[str, int]:
    """One decision: ("f" | "cc" | "cbr", amount). Facing a bet: fold 25%, raise 20% (when
    allowed), else call; with nothing to call: bet 20%, else check. A bet or raise goes to
    the minimum, the maximum or a uniform amount between, a third of the time each. Plain
    `random()` draws keep the policy's own cost small next to the engines'."""
    draw = rng.random()
    if raise_range is not None and draw >= 0.8:
        low, high = raise_range
        pick = rng.random()
        if pick < 1 / 3:
            return "cbr", low
        if pick < 2 / 3:
            return "cbr", high
        return "cbr", low + int((high - low + 1) * rng.random())
    if facing and draw < 0.25:
        return "f", 0
    return "cc", 0


# --- full random hands ------------------------------------------------------------------------


def ours_hand_player(seed: int) -> Callable[[], None]:
    from tables.engine.cards import shuffled_deck
    from tables.engine.config import Config, Game, Structure
    from tables.engine.evaluator import prepare_tables
    from tables.engine.records import SeatSpec
    from tables.engine.state import Action, Hand, Street

    # Steady state, as a server runs: the ASGI application builds the evaluator's board
    # entries once at start (config/asgi.py), so no hand here pays for a first use.
    prepare_tables()
    rng = random.Random(seed)
    config = Config(Game.OMAHA_HI_LO, Structure.POT_LIMIT, big_blind=BIG_BLIND)
    seats = [SeatSpec(seat, STACK) for seat in range(1, PLAYERS + 1)]
    button = [0]
    # The members the policy answers with, read once: an enum's member read from its class
    # costs ten times a local's (Python 3.11), one or two a move: the driver's cost, not the
    # engine's.
    showdown = Street.SHOWDOWN
    show_, muck, fold, call, check = (
        Action.SHOW,
        Action.MUCK,
        Action.FOLD,
        Action.CALL,
        Action.CHECK,
    )

    def play() -> None:
        button[0] = button[0] % PLAYERS + 1
        hand = Hand.start(config, seats, button[0], shuffled_deck(rng))
        while not hand.is_complete:
            legal = hand.legal_actions()
            seat = legal.seat
            assert seat is not None
            if hand.street is showdown:
                show = hand.showing_could_win(seat)
                hand.act(seat, show_ if show else muck)
                continue
            can_raise = legal.bet_or_raise is not None
            verb, amount = choose(
                rng, legal.call > 0, (legal.min_to, legal.max_to) if can_raise else None
            )
            if verb == "f":
                hand.act(seat, fold)
            elif verb == "cc":
                hand.act(seat, call if legal.call else check)
            else:
                assert legal.bet_or_raise is not None
                hand.act(seat, legal.bet_or_raise, amount)

    return play


def pokerkit_hand_player(seed: int) -> Callable[[], None]:
    from pokerkit import (
        Automation,
        BettingStructure,
        Deck,
        Mode,
        OmahaEightOrBetterLowHand,
        OmahaHoldemHand,
        Opening,
        State,
        Street,
    )

    rng = random.Random(seed)
    automations = tuple(Automation)  # every automation: PokerKit deals, shows and pays
    streets = tuple(
        Street(i > 0, (False,) * 4 if i == 0 else (), (0, 3, 1, 1)[i], False, Opening.POSITION,
               BIG_BLIND, None)
        for i in range(4)
    )  # fmt: skip

    def play() -> None:
        state = State(
            automations,
            Deck.STANDARD,
            (OmahaHoldemHand, OmahaEightOrBetterLowHand),
            streets,
            BettingStructure.POT_LIMIT,
            False,
            0,
            (BIG_BLIND // 2, BIG_BLIND),
            0,
            STACK,
            PLAYERS,
            mode=Mode.CASH_GAME,
        )
        while state.status:
            if state.actor_index is None:  # pragma: no cover - automations leave none
                raise AssertionError("PokerKit is waiting on something not automated")
            can_raise = state.can_complete_bet_or_raise_to()
            raise_range = None
            if can_raise:
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                assert low is not None and high is not None
                raise_range = (low, high)
            verb, amount = choose(rng, bool(state.checking_or_calling_amount), raise_range)
            if verb == "f":
                state.fold()
            elif verb == "cc":
                state.check_or_call()
            else:
                state.complete_bet_or_raise_to(amount)

    return play


def rate(fn: Callable[[], Any], seconds: float) -> float:
    """Calls per CPU second of `fn`, run for at least `seconds` of this process's CPU time.

    CPU time, not wall time: the machine may be shared (tests, other benchmarks), and
    what is compared is the work each engine needs, not who got the processor.
    """
    fn()  # warm up (imports, caches)
    count = 0
    clock = time.process_time
    start = clock()
    elapsed = 0.0
    while elapsed < seconds:
        fn()
        count += 1
        elapsed = clock() - start
    return count / elapsed


def rate_pair(
    ours: Callable[[], Any], reference: Callable[[], Any], seconds: float, rounds: int = 3
) -> tuple[float, float]:
    """Both rates, measured in alternating rounds; the best round of each counts, the one
    least disturbed by anything else running."""
    best_ours = best_reference = 0.0
    for _ in range(rounds):
        best_ours = max(best_ours, rate(ours, seconds / rounds))
        best_reference = max(best_reference, rate(reference, seconds / rounds))
    return best_ours, best_reference


# --- PHH replay -------------------------------------------------------------------------------


def corpus_texts() -> list[str]:
    from tables.engine.phh import dumps_fields, split_phhs

    texts = []
    for path in sorted((ROOT / "tests" / "engine" / "data").glob("corpus-*.phhs")):
        for entry in split_phhs(path.read_text()):
            assert entry.data is not None
            texts.append(dumps_fields(entry.data))
    return texts


def replay_rates(seconds: float) -> tuple[float, float, int]:
    """Hands per second replayed from PHH text (TOML parsing included), cycling through the
    corpus in the same order for both: ours `parse_phh` + `replay`, PokerKit its own
    `HandHistory` reader and state loop (with the state built for our six codes)."""
    from tables.engine.phh import parse_phh, replay
    from tests.engine.gen_phh_corpus import pokerkit_final_state

    texts = corpus_texts()

    def cycling(play: Callable[[str], object]) -> Callable[[], None]:
        position = [0]

        def one() -> None:
            play(texts[position[0] % len(texts)])
            position[0] += 1

        return one

    ours, pokerkit = rate_pair(
        cycling(lambda text: replay(parse_phh(text))), cycling(pokerkit_final_state), seconds
    )
    return ours, pokerkit, len(texts)


# --- the command line: a whole process replaying a file ------------------------------------

CLI_HANDS = 300

POKERKIT_REPLAY = """
import json, sys, warnings
from collections import deque
from tests.engine.gen_phh_corpus import OmahaHandHistory
warnings.simplefilter("ignore")
with open(sys.argv[1], encoding="utf-8") as handle:
    text = handle.read()
for history in OmahaHandHistory.loads_all(text):
    state = deque(history, maxlen=1)[0]
    print(json.dumps({"finishing_stacks": list(state.stacks)}))
"""
"""PokerKit's side of the command-line replay: its own `.phhs` reader and state loop (with
the state built for our six codes by the test helper, which also imports our engine)."""


def cli_file(directory: Path) -> Path:
    """The first `CLI_HANDS` hands of the corpus, as written there, in one `.phhs` file."""
    from tables.engine.phh import dumps_phhs, split_phhs

    hands: list[tuple[str, str]] = []
    for path in sorted((ROOT / "tests" / "engine" / "data").glob("corpus-*.phhs")):
        text = path.read_text()
        # Cut at the table headers, keeping each hand's text as the file has it.
        parts = re.split(r"^\[([^\]]+)\]\n", text, flags=re.M)[1:]
        names = [entry.name for entry in split_phhs(text)]
        assert parts[0::2] == names
        hands.extend(zip(parts[0::2], parts[1::2], strict=True))
    target = directory / f"corpus-{CLI_HANDS}.phhs"
    target.write_text(dumps_phhs(hands[:CLI_HANDS]))
    return target


def child_cpu_seconds(command: list[str], env: dict[str, str] | None = None) -> float:
    """CPU seconds (user + system) a child process spends running `command` to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _cached_bytecode_env(directory: Path) -> dict[str, str]:
    """The environment of a child process that caches its modules' compiled bytecode in
    `directory`, as an installed program does, even where `PYTHONDONTWRITEBYTECODE` is set
    (where it is, every start would compile every module from its source)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(directory / "pycache")
    return env


def import_ms(runs: int = 7) -> float:
    """Milliseconds of CPU that `import tables.engine.phh` (what the replay command line
    imports: the whole engine but `equity`) adds to a bare interpreter's start: the least
    over `runs` processes of each, bytecode cached."""
    with tempfile.TemporaryDirectory() as directory:
        env = _cached_bytecode_env(Path(directory))
        bare = [sys.executable, "-c", "pass"]
        engine = [sys.executable, "-c", "import tables.engine.phh"]
        child_cpu_seconds(engine, env)
        least_bare = min(child_cpu_seconds(bare, env) for _ in range(runs))
        least_engine = min(child_cpu_seconds(engine, env) for _ in range(runs))
    return max(0.0, least_engine - least_bare) * 1000


def cli_replay_seconds(rounds: int = 3) -> tuple[float, float]:
    """CPU seconds of a whole `python -m tables.engine replay FILE` process on `CLI_HANDS`
    hands, and of PokerKit's reading and playing the same file in its own process: the
    least of `rounds` alternating runs of each.

    Both run with their modules' bytecode cached (`_cached_bytecode_env`): a first run of
    each, not counted, writes the cache.
    """
    with tempfile.TemporaryDirectory() as directory:
        path = str(cli_file(Path(directory)))
        env = _cached_bytecode_env(Path(directory))
        ours = [sys.executable, "-m", "tables.engine", "replay", path]
        theirs = [sys.executable, "-c", POKERKIT_REPLAY, path]
        child_cpu_seconds(ours, env)
        child_cpu_seconds(theirs, env)
        best_ours = best_theirs = math.inf
        for _ in range(rounds):
            best_ours = min(best_ours, child_cpu_seconds(ours, env))
            best_theirs = min(best_theirs, child_cpu_seconds(theirs, env))
    return best_ours, best_theirs


# --- evaluation and equity --------------------------------------------------------------------


def showdown_eval_rates(seconds: float, seed: int) -> tuple[float, float]:
    """hi+lo evaluations per second (ours) and Omaha-high evaluations (phevaluator), on the
    same random (four hole cards, five board cards) deals."""
    try:
        from benchmarks.bench_eval import bench_showdown_evals  # the evaluator's own
    except ImportError:
        pass
    else:
        # It times four variants, each for `seconds`: half keeps the run short.
        result = bench_showdown_evals(seed=seed, seconds=seconds / 2)
        return float(result[0]), float(result[1])
    from phevaluator import evaluate_omaha_cards

    from tables.engine.evaluator import evaluate_many

    rng = random.Random(seed)
    deals = []
    for _ in range(2000):
        cards = rng.sample(range(52), 9)
        deals.append((tuple(cards[:4]), tuple(cards[4:])))

    def ours() -> None:
        evaluate_many(deals)

    def phevaluator() -> None:
        for hole, board in deals:
            evaluate_omaha_cards(*board, *hole)

    ours_rate, reference_rate = rate_pair(ours, phevaluator, seconds)
    return ours_rate * len(deals), reference_rate * len(deals)


def flop_equity_ms(seed: int) -> float | None:
    """Median milliseconds for the exact hi/lo equity of three hands on a random flop."""
    try:
        from benchmarks.bench_eval import bench_flop_equity  # the evaluator's own
    except ImportError:
        pass
    else:
        return float(bench_flop_equity(seed=seed))
    try:
        from tables.engine.config import Game
        from tables.engine.equity import equity
    except ImportError:
        return None
    rng = random.Random(seed)
    times = []
    for _ in range(5):
        cards = rng.sample(range(52), 15)
        holes = [tuple(cards[0:4]), tuple(cards[4:8]), tuple(cards[8:12])]
        start = time.perf_counter()
        result = equity(Game.OMAHA_HI_LO, holes, tuple(cards[12:15]))
        times.append(time.perf_counter() - start)
        assert result.exact
    return statistics.median(times) * 1000


# --- the table --------------------------------------------------------------------------------


HANDS_METRIC = "random 6-max PLO8 hands/s (vs PokerKit)"
EVALS_METRIC = "hi+lo showdown evals/s (vs phevaluator high only)"
REPLAY_METRIC = "PHH replay hands/s"
IMPORT_METRIC = "import tables.engine.phh, CPU ms over a bare interpreter"
CLI_METRIC = f"replay CLI, {CLI_HANDS} hands, whole process (CPU s, vs PokerKit)"
EQUITY_METRIC = "exact hi/lo equity, 3 hands on the flop (ms)"
METRICS = (HANDS_METRIC, EVALS_METRIC, REPLAY_METRIC, IMPORT_METRIC, CLI_METRIC, EQUITY_METRIC)
LINES = ("hands", "evals", "replay", "import", "cli", "equity")
"""`--only`'s names of the lines, in `METRICS`' order."""


def met(ok: bool) -> str:
    return "yes" if ok else "NO"


@dataclass(frozen=True)
class Row:
    metric: str
    ours: str
    reference: str
    ratio: str
    goal: str
    met: str


def fmt(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=4.0, help="CPU seconds per metric and side"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--only",
        nargs="+",
        choices=LINES,
        metavar="LINE",
        help=f"measure only these lines, in the table's order ({', '.join(LINES)})",
    )
    args = parser.parse_args(argv)
    only = set(args.only or LINES)
    warnings.simplefilter("ignore")  # PokerKit's warnings about its own deck order
    seconds, seed = args.seconds, args.seed
    rows: list[Row] = []
    failed = False

    def measure(metric: str, goal: str, run: Callable[[], Row]) -> None:
        # One broken measurement (a module mid-rewrite) must not hide the others.
        nonlocal failed
        if LINES[METRICS.index(metric)] not in only:
            return
        try:
            rows.append(run())
        except Exception as exc:  # noqa: BLE001
            failed = True
            rows.append(
                Row(metric, f"error: {type(exc).__name__}: {exc}"[:60], "-", "-", goal, "?")
            )

    def hands() -> Row:
        ours, theirs = rate_pair(ours_hand_player(seed), pokerkit_hand_player(seed), seconds)
        ratio = ours / theirs
        return Row(
            HANDS_METRIC, fmt(ours), fmt(theirs), f"{ratio:,.1f}x", ">= 150x", met(ratio >= 150)
        )

    def evals() -> Row:
        ours, phe = showdown_eval_rates(seconds, seed)
        ratio = ours / phe
        return Row(
            EVALS_METRIC, fmt(ours), fmt(phe), f"{ratio:,.2f}x", ">= 1.5x", met(ratio >= 1.5)
        )

    def phh_replay() -> Row:
        ours, pokerkit, count = replay_rates(seconds)
        ratio = ours / pokerkit
        return Row(
            f"{REPLAY_METRIC}, {count}-hand corpus (vs PokerKit)",
            fmt(ours),
            fmt(pokerkit),
            f"{ratio:,.1f}x",
            ">= 30x",
            met(ratio >= 30),
        )

    def import_time() -> Row:
        millis = import_ms()
        return Row(IMPORT_METRIC, f"{millis:.1f}", "-", "-", "< 30 ms", met(millis < 30))

    def cli_replay() -> Row:
        ours, pokerkit = cli_replay_seconds()
        ratio = pokerkit / ours
        return Row(
            CLI_METRIC, f"{ours:.3f}", f"{pokerkit:.2f}", f"{ratio:,.1f}x", ">= 50x",
            met(ratio >= 50),
        )  # fmt: skip

    def flop_equity() -> Row:
        millis = flop_equity_ms(seed)
        if millis is None:
            return Row(EQUITY_METRIC, "n/a", "-", "-", "< 100 ms", "n/a")
        return Row(EQUITY_METRIC, f"{millis:,.1f}", "-", "-", "< 100 ms", met(millis < 100))

    measure(HANDS_METRIC, ">= 150x", hands)
    measure(EVALS_METRIC, ">= 1.5x", evals)
    measure(REPLAY_METRIC, ">= 30x", phh_replay)
    measure(IMPORT_METRIC, "< 30 ms", import_time)
    measure(CLI_METRIC, ">= 50x", cli_replay)
    measure(EQUITY_METRIC, "< 100 ms", flop_equity)

    headers = Row("metric", "ours", "reference", "ratio", "goal", "met?")
    table = [headers, *rows]
    widths = [max(len(getattr(r, f)) for r in table) for f in Row.__dataclass_fields__]
    for k, row in enumerate(table):
        cells = [getattr(row, f) for f in Row.__dataclass_fields__]
        print(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(cells, widths, strict=True))
            )
        )
        if k == 0:
            print("  ".join("-" * w for w in widths))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
