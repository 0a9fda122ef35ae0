"""Benchmark of an online tournament: N house bots played to one winner.

    python benchmarks/tournament.py                          # 300 bots, 50 tables of six
    python benchmarks/tournament.py --modes embedded --players 60
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/NAME REDIS_URL=redis://127.0.0.1:6379/N \\
        python benchmarks/tournament.py --modes distributed

Each mode runs ``simulate_tournament``'s machinery (``tournaments.services.simulate``): a
tournament of house bots through the real services, live tables and clock, with no pause
between hands and no sleeping.

- embedded: one process on a new SQLite file and the in-memory channel layer, as
  ``make run`` serves a home game;
- distributed: PostgreSQL (DATABASE_URL) and channels-redis (REDIS_URL), with the tables
  shared by ``--shards`` processes (2 by default), each playing the tables whose id falls
  to it, as several servers and workers would: hand-for-hand, the moves and the eliminations
  meet across processes through the database, and every change is broadcast through Redis
  with its snapshot (as to sockets in other processes).

Measured: hands per second (hands dealt / time to the winner), the latency of a bot's action
(``bot_act``: the bot's snapshot and decision, the move, the snapshot and the broadcast)
p50 and p99, the latency of a move of a player between tables (``seat_move``, balancing,
breaking and the final table) p50 and p99, the number of those moves, and the time to the
winner. Checked: every hand ends with the chips it started with (each hand's players' stacks
before and after), and the winner ends with every chip of the field.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(BASE_DIR))
PYTHON = sys.executable
STARTING_STACK = 10000


def _django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.conf import settings

    django.setup()
    # No Celery: the processes tick the tables and move the clock themselves.
    settings.TABLES_SCHEDULE_TASKS = False
    settings.TOURNAMENTS_SCHEDULE_TASKS = False
    settings.TABLES_NEXT_HAND_DELAY_MS = 0
    settings.TABLES_RUNOUT_STEP_MS = 0


def child_create(args: argparse.Namespace) -> None:
    _django()
    from tournaments.services.simulate import tournament_for_simulation

    tournament = tournament_for_simulation(
        players=args.players,
        seats_per_table=args.seats,
        seed=args.seed,
        starting_stack=STARTING_STACK,
    )
    print(tournament.pk)


def child_play(args: argparse.Namespace) -> None:
    _django()
    from tables import services as table_services
    from tables.runtime import broadcast
    from tournaments.models import Tournament
    from tournaments.services import online, simulate
    from tournaments.services.simulate import tournament_play

    def timed(func: Any, into: list[float]) -> Any:
        def wrapper(*a: Any, **k: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return func(*a, **k)
            finally:
                into.append(time.perf_counter() - t0)

        return wrapper

    # The tournament's services call ``tables.services.seat_move`` by attribute.
    moves: list[float] = []
    table_services.seat_move = timed(table_services.seat_move, moves)  # type: ignore[assignment]
    # The tournament's work at a hand's end (eliminations, moves, the release) runs inside
    # the action that ended the hand, after its news: timed apart to say where a tail is.
    hand_ends: list[float] = []
    online.online_hand_ended = timed(online.online_hand_ended, hand_ends)  # type: ignore[assignment]

    # A bot's action as its table sees it: from the frame until the table's news is out (the
    # first broadcast during the call, sent). The tournament's work at a hand's end comes after
    # that news (``Moved.hand_ended``), in the same call: the whole call is timed too.
    actions: list[float] = []
    calls: list[float] = []
    news: list[float] = []
    table_changed = broadcast.table_changed

    def noted_news(*a: Any, **k: Any) -> Any:
        try:
            return table_changed(*a, **k)
        finally:
            news.append(time.perf_counter())

    broadcast.table_changed = noted_news  # type: ignore[assignment]
    bot_move = simulate.bot_act

    def timed_bot_move(table_id: int) -> bool:
        news.clear()
        t0 = time.perf_counter()
        moved = bot_move(table_id)
        if moved:
            calls.append(time.perf_counter() - t0)
            actions.append((news[0] if news else time.perf_counter()) - t0)
        return moved

    simulate.bot_act = timed_bot_move  # type: ignore[assignment]
    sim = tournament_play(
        Tournament.objects.get(pk=args.tournament),
        level_seconds=args.level_seconds,
        shard=args.shard,
        shards=args.shards,
    )
    print(
        json.dumps(
            {
                "seconds": sim.seconds,
                "actions": actions,
                "calls": calls,
                "moves": moves,
                "hand_ends": hand_ends,
                "levels": sim.level_changes,
            }
        )
    )


def child_check(args: argparse.Namespace) -> None:
    _django()
    from django.db.models import Count, Sum

    from tables.models import Hand, HandPlayer
    from tournaments.models import Entry, Tournament
    from tournaments.services.results import payouts_compute

    tournament = Tournament.objects.get(pk=args.tournament)
    hands = Hand.objects.filter(table__tournament_table__tournament=tournament)
    sums = (
        HandPlayer.objects.filter(hand__in=hands)
        .values("hand")
        .annotate(before=Sum("stack_before"), after=Sum("stack_after"), n=Count("pk"))
    )
    unbalanced = [s for s in sums if s["before"] != s["after"]]
    last = hands.order_by("-ended_at", "-pk").first()
    final = (
        HandPlayer.objects.filter(hand=last).aggregate(total=Sum("stack_after"))["total"]
        if last
        else 0
    )
    places = Entry.objects.filter(tournament=tournament, place__isnull=False).count()
    print(
        json.dumps(
            {
                "state": tournament.state,
                "hands": hands.count(),
                "hands_unbalanced": len(unbalanced),
                "chips_at_the_end": final,
                "chips_issued": Entry.objects.filter(tournament=tournament).count()
                * STARTING_STACK,
                "places": places,
                "prize_pool": payouts_compute(tournament).pool,
                "prizes_paid": sum(
                    Entry.objects.filter(tournament=tournament).values_list("prize", flat=True)
                ),
            }
        )
    )


def _run(env: dict[str, str], *argv: str) -> str:
    done = subprocess.run(
        [PYTHON, __file__, *argv], env=env, cwd=BASE_DIR, capture_output=True, text=True
    )
    if done.returncode:
        raise RuntimeError(done.stderr[-4000:])
    return done.stdout.strip().splitlines()[-1]


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def run_mode(mode: str, args: argparse.Namespace) -> dict[str, Any]:
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings")
    shards = 1
    if mode == "embedded":
        env.pop("REDIS_URL", None)
        env["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp(prefix='bench-t-')}/db.sqlite3"
    else:
        if not env.get("DATABASE_URL", "").startswith("postgres") or not env.get("REDIS_URL"):
            raise SystemExit("distributed mode needs DATABASE_URL (PostgreSQL) and REDIS_URL")
        shards = args.shards
        # Deployed settings refuse to start without these; nothing here serves pages.
        env.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
        env.setdefault("ALLOWED_HOSTS", "127.0.0.1")
    subprocess.run(
        [PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"], env=env, cwd=BASE_DIR, check=True
    )
    common = ["--players", str(args.players), "--seats", str(args.seats), "--seed", str(args.seed)]
    tournament = _run(env, "--child", "create", *common)
    started = time.monotonic()
    players = [
        subprocess.Popen(
            [
                PYTHON,
                __file__,
                "--child",
                "play",
                "--tournament",
                tournament,
                "--shard",
                str(k),
                "--shards",
                str(shards),
                "--level-seconds",
                str(args.level_seconds),
            ],
            env=env,
            cwd=BASE_DIR,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for k in range(shards)
    ]
    outputs = []
    for process in players:
        out, err = process.communicate()
        if process.returncode:
            raise RuntimeError(err[-4000:])
        outputs.append(json.loads(out.strip().splitlines()[-1]))
    wall = time.monotonic() - started
    check = json.loads(_run(env, "--child", "check", "--tournament", tournament))
    actions = [a for o in outputs for a in o["actions"]]
    moves = [m for o in outputs for m in o["moves"]]
    hand_ends = [h for o in outputs for h in o["hand_ends"]]
    calls = [c for o in outputs for c in o["calls"]]
    return {
        "mode": mode,
        "processes": shards,
        "tournament": int(tournament),
        "players": args.players,
        "tables": -(-args.players // args.seats),
        "hands": check["hands"],
        "seconds_to_winner": round(wall, 1),
        "hands_per_second": round(check["hands"] / wall, 2),
        "actions": len(actions),
        "action_p50_ms": round(_pct(actions, 0.50), 1),
        "action_p99_ms": round(_pct(actions, 0.99), 1),
        "action_call_p99_ms": round(_pct(calls, 0.99), 1),
        "hand_end_p50_ms": round(_pct(hand_ends, 0.50), 1),
        "hand_end_p99_ms": round(_pct(hand_ends, 0.99), 1),
        "table_moves": len(moves),
        "table_move_p50_ms": round(_pct(moves, 0.50), 1),
        "table_move_p99_ms": round(_pct(moves, 0.99), 1),
        "level_changes": sum(o["levels"] for o in outputs),
        "finished": check["state"] == "finished",
        "hands_unbalanced": check["hands_unbalanced"],
        "chips_accounted": check["chips_at_the_end"] == check["chips_issued"]
        and check["hands_unbalanced"] == 0,
        "prizes_paid_equal_pool": check["prizes_paid"] == check["prize_pool"],
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--child", choices=["create", "play", "check"])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level-seconds", type=float, default=10.0)
    parser.add_argument(
        "--modes",
        nargs="+",
        help="embedded, distributed (default: both, or embedded alone "
        "without DATABASE_URL=postgres://... and REDIS_URL)",
    )
    parser.add_argument("--shards", type=int, default=2)
    parser.add_argument("--tournament", type=int)
    parser.add_argument("--shard", type=int, default=0)
    args = parser.parse_args()
    if args.child == "create":
        child_create(args)
    elif args.child == "play":
        child_play(args)
    elif args.child == "check":
        child_check(args)
    else:
        results = []
        from tests.tables.servers import benchmark_modes

        for mode in benchmark_modes(args.modes):
            result = run_mode(mode, args)
            results.append(result)
            print(json.dumps(result), flush=True)
        if len(results) > 1:
            print(
                "p99 of a bot's action, ms: "
                + ", ".join(f"{r['mode']} {r['action_p99_ms']}" for r in results)
            )


if __name__ == "__main__":
    main()
