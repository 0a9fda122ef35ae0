"""Benchmark of the blind clock: N tournaments with one-minute levels, over real sockets.

    python benchmarks/clock.py                                   # 50 tournaments, both modes
    python benchmarks/clock.py --modes embedded --seconds 240
    DATABASE_URL=postgres://.../h_NAME REDIS_URL=redis://127.0.0.1:6379/N \\
        python benchmarks/clock.py --modes distributed --wipe-database

For each mode it starts its own servers on 127.0.0.1 with a fresh database:
- embedded: ``manage.py serve`` (daphne, the in-memory channel layer, Celery's worker and beat
  as threads in the process) on a new SQLite file;
- distributed: two web processes (``manage.py serve``, a daphne each) on channels-redis, one
  Celery worker (threads pool) and beat, on PostgreSQL and Redis. The database named by
  DATABASE_URL is emptied first (every table in its public schema is dropped), so the run
  needs ``--wipe-database`` to say that is wanted; the Redis database of REDIS_URL is
  flushed (stale tasks of an earlier run).

Every tournament's structure is one-minute levels (breaks included: a break is a row like
any other). Each tournament has ``--screens`` clock pages (WebSocket clients of
``/ws/tournaments/<token>/clock/``; in distributed mode spread over both daphnes). The
clocks are started through the director's HTTP control, spread evenly over the first
``--stagger`` seconds (60: one level change somewhere every 1.2 s with 50 tournaments; 0: all
at once, so every level change of the evening comes in a burst of N).

Measured: for every level change, how late it reached each screen after its scheduled time
(the stored end of the level it ends): p50, p99 and max. Checked: no change lost (each screen
saw every row in order, none skipped) and none applied twice (each change bumped the clock's
version once, and at the end every clock is on the row its start time says, with its end
exactly on the schedule). Traffic stays on 127.0.0.1; the run is bounded by ``--seconds``.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(BASE_DIR))

PYTHON = sys.executable
LEVEL_SECONDS = 60
ROWS = 40  # one-minute rows: more than any run lasts
BREAK_EVERY = 4  # every fourth row is a break


# --------------------------------------------------------------------------- server side


def setup(count: int, run: str) -> dict[str, Any]:
    """Run in a subprocess with the servers' environment: tournaments and a director."""
    import django

    django.setup()
    from datetime import timedelta

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore
    from django.utils import timezone

    from series.models import Event, Season
    from series.services import director_grant
    from tournaments.models import BlindLevel, BlindStructure, Tournament, TournamentState

    director = director_grant(User.objects.create_user("bench-director", password=None))
    session = SessionStore()
    session[SESSION_KEY] = str(director.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = director.get_session_auth_hash()
    session.save()
    today = timezone.localdate()
    season = Season.objects.create(
        name="Benchmark", starts_on=today, ends_on=today + timedelta(days=1)
    )
    blind_structure = BlindStructure.objects.create(name="One-minute levels")
    BlindLevel.objects.bulk_create(
        BlindLevel(
            blind_structure=blind_structure,
            position=row,
            kind="break" if row % BREAK_EVERY == BREAK_EVERY - 1 else "level",
            minutes=LEVEL_SECONDS // 60,
            small_blind=25 * (row + 1),
            big_blind=50 * (row + 1),
        )
        for row in range(ROWS)
    )
    tournaments = []
    for n in range(count):
        event = Event.objects.create(
            season=season, name=f"Clock {n} {run}", starts_at=timezone.now(), buy_in=20
        )
        tournament = Tournament.objects.create(
            event=event, blind_structure=blind_structure, state=TournamentState.RUNNING
        )
        tournaments.append({"id": tournament.pk, "token": tournament.tv_token, "name": event.name})
    cookie = f"{settings.SESSION_COOKIE_NAME}={session.session_key}"
    return {"tournaments": tournaments, "cookie": cookie}


def final_clocks() -> dict[str, Any]:
    """Run in a subprocess: every clock as stored, and the database's now."""
    import django

    django.setup()
    from django.utils import timezone

    from tournaments.models import Tournament

    rows = Tournament.objects.values("pk", "level_index", "level_ends_at", "clock_version")
    return {
        "now": timezone.now().timestamp(),
        "clocks": {
            str(r["pk"]): {
                "index": r["level_index"],
                "ends_at": r["level_ends_at"].timestamp() if r["level_ends_at"] else None,
                "version": r["clock_version"],
            }
            for r in rows
        },
    }


def run_helper(env: dict[str, str], *args: str) -> dict[str, Any]:
    out = subprocess.run(
        [PYTHON, __file__, *args], cwd=BASE_DIR, env=env, capture_output=True, text=True
    )
    if out.returncode:
        raise RuntimeError(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


class Servers:
    def __init__(self, mode: str, workdir: Path, wipe: bool) -> None:
        from tests.tables.servers import deployed_env, free_port, server_env

        self.mode = mode
        self.processes: list[subprocess.Popen[bytes]] = []
        self.ports = [free_port()] if mode == "embedded" else [free_port(), free_port()]
        if mode == "embedded":
            env = server_env(DATABASE_URL=f"sqlite:///{workdir / 'clock.sqlite3'}")
            env.pop("REDIS_URL", None)
        else:
            url = os.environ.get("DATABASE_URL", "")
            redis_url = os.environ.get("REDIS_URL", "")
            if not url.startswith(("postgres://", "postgresql://")) or not redis_url:
                raise SystemExit("distributed mode needs a PostgreSQL DATABASE_URL and REDIS_URL")
            if not wipe:
                raise SystemExit(
                    "distributed mode empties the database of DATABASE_URL: "
                    "say --wipe-database if that is what you want"
                )
            import psycopg
            import redis

            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute("DROP SCHEMA public CASCADE")
                conn.execute("CREATE SCHEMA public")
            redis.Redis.from_url(redis_url).flushdb()
            env = server_env(DATABASE_URL=url, REDIS_URL=redis_url)
        self.env = deployed_env(env, "clock-bench")
        self.log = Path(os.environ.get("CLOCK_BENCH_LOG", str(workdir / "servers.log")))

    def start(self) -> None:
        from tests.tables.servers import start_site

        self.processes += start_site(self.env, self.mode, self.ports, self.log)
        time.sleep(3)  # the worker connects to the broker before the first clock starts

    def stop(self) -> None:
        from tests.tables.servers import stop

        for process in self.processes:
            stop(process)


# --------------------------------------------------------------------------- clients


@dataclass
class Screen:
    """One clock page: every change of the stored row it saw, and when."""

    tournament: int
    port: int
    name: str
    # (stored row, version, received at (epoch s), the row's end (epoch ms)) per state.
    seen: list[tuple[int, int, float, int | None]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    # Messages for another site's tournament of the same id: channels-redis's pub/sub
    # channels are global to the Redis server (not per database number), so another
    # process on the same Redis (a test run) can publish to a group of the same name.
    foreign: int = 0


async def watch(screen: Screen, token: str, stop: asyncio.Event) -> None:
    from websockets.asyncio.client import connect

    url = f"ws://127.0.0.1:{screen.port}/ws/tournaments/{token}/clock/"
    try:
        async with connect(url, origin=f"http://127.0.0.1:{screen.port}", open_timeout=60) as ws:
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
                except TimeoutError:
                    continue
                received = time.time()
                state = json.loads(raw)
                if state["tournament"]["name"] != screen.name:
                    screen.foreign += 1
                    continue
                clock = state["clock"]
                screen.seen.append(
                    (clock["stored_index"], state["version"], received, clock["ends_at_ms"])
                )
    except Exception as error:  # noqa: BLE001 - reported as a failed screen
        screen.errors.append(repr(error))


def start_clock(port: int, tournament_id: int, cookie: str) -> float:
    """The director's start control over HTTP; when it returned (epoch s)."""
    csrf = secrets.token_hex(16)  # double-submit: any 32 characters, in cookie and header
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request(
        "POST",
        f"/tournaments/{tournament_id}/clock/start/",
        body="",
        headers={
            "Cookie": f"{cookie}; csrftoken={csrf}",
            "X-CSRFToken": csrf,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    response = connection.getresponse()
    response.read()
    connection.close()
    if response.status != 200:
        raise RuntimeError(f"starting the clock of {tournament_id}: HTTP {response.status}")
    return time.time()


async def run_mode(mode: str, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        servers = Servers(mode, Path(tmp), args.wipe_database)
        servers.start()
        try:
            made = run_helper(servers.env, "--setup", str(args.tournaments), secrets.token_hex(4))
            stop = asyncio.Event()
            screens: list[Screen] = []
            tasks = []
            for n, tournament in enumerate(made["tournaments"]):
                for s in range(args.screens):
                    port = servers.ports[(n + s) % len(servers.ports)]
                    screen = Screen(tournament["id"], port, tournament["name"])
                    screens.append(screen)
                    tasks.append(asyncio.create_task(watch(screen, tournament["token"], stop)))
            await asyncio.sleep(2)  # every screen connected and painted
            began = time.monotonic()
            gap = args.stagger / max(1, args.tournaments)
            for n, tournament in enumerate(made["tournaments"]):
                wait = began + n * gap - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                port = servers.ports[n % len(servers.ports)]
                await asyncio.to_thread(start_clock, port, tournament["id"], made["cookie"])
            remaining = args.seconds - (time.monotonic() - began)
            await asyncio.sleep(max(0.0, remaining))
            stop.set()
            await asyncio.gather(*tasks)
            final = run_helper(servers.env, "--final")
        finally:
            servers.stop()
    return judge(mode, args, screens, final)


def judge(
    mode: str, args: argparse.Namespace, screens: list[Screen], final: dict[str, Any]
) -> dict[str, Any]:
    latencies: list[float] = []
    lost = twice = late_resync = 0
    problems: list[str] = []
    for screen in screens:
        problems += [f"screen of {screen.tournament}: {e}" for e in screen.errors]
        previous: tuple[int, int, float, int | None] | None = None
        for entry in screen.seen:
            index, version, received, _ends = entry
            if previous is not None and index != previous[0]:
                step = index - previous[0]
                if step != 1:
                    lost += max(0, step - 1)
                    problems.append(f"screen of {screen.tournament}: row {previous[0]} -> {index}")
                if version - previous[1] != step:
                    twice += 1
                    problems.append(
                        f"screen of {screen.tournament}: version {previous[1]} -> {version}"
                        f" for {step} row(s)"
                    )
                scheduled = previous[3]
                if scheduled is not None and previous[0] >= 0:
                    latencies.append(received * 1000 - scheduled)
            previous = entry
    # The database: each clock exactly on the schedule its start set, one version per change.
    now = final["now"]
    for tournament_id, clock in final["clocks"].items():
        if clock["ends_at"] is None:
            problems.append(f"tournament {tournament_id}: its clock never started")
            continue
        started = clock["ends_at"] - (clock["index"] + 1) * LEVEL_SECONDS
        due = int((now - started) // LEVEL_SECONDS)
        if clock["index"] not in (due, due - 1) or (
            clock["index"] == due - 1 and now - (started + due * LEVEL_SECONDS) > 2.5
        ):
            lost += 1
            problems.append(f"tournament {tournament_id}: on row {clock['index']}, due {due}")
        if clock["version"] != 2 + clock["index"]:
            twice += 1
            problems.append(
                f"tournament {tournament_id}: version {clock['version']} on row {clock['index']}"
            )
    late_resync = sum(1 for value in latencies if value > 2500)
    ordered = sorted(latencies)

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else float("nan")

    return {
        "mode": mode,
        "tournaments": args.tournaments,
        "screens": len(screens),
        "stagger_s": args.stagger,
        "seconds": args.seconds,
        "changes_seen": len(latencies),
        "p50_ms": round(pct(0.50), 1),
        "p99_ms": round(pct(0.99), 1),
        "max_ms": round(ordered[-1], 1) if ordered else None,
        "mean_ms": round(statistics.fmean(ordered), 1) if ordered else None,
        "over_2_5_s": late_resync,
        "foreign_ignored": sum(screen.foreign for screen in screens),
        "lost": lost,
        "applied_twice": twice,
        "problems": problems[:20],
    }


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--setup":
        print(json.dumps(setup(int(sys.argv[2]), sys.argv[3])))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--final":
        print(json.dumps(final_clocks()))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tournaments", type=int, default=50)
    parser.add_argument("--screens", type=int, default=2, help="clock pages per tournament")
    parser.add_argument(
        "--modes",
        nargs="+",
        help="embedded, distributed (default: both, or embedded alone "
        "without DATABASE_URL=postgres://... and REDIS_URL)",
    )
    parser.add_argument("--seconds", type=float, default=240.0, help="from the first start")
    parser.add_argument(
        "--stagger", type=float, default=60.0, help="spread the starts over this many seconds"
    )
    parser.add_argument("--wipe-database", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from tests.tables.servers import benchmark_modes

    args.modes = benchmark_modes(args.modes)
    for mode in args.modes:
        load = os.getloadavg()
        result = asyncio.run(run_mode(mode, args))
        result["load_before"] = [round(x, 2) for x in load]
        result["load_after"] = [round(x, 2) for x in os.getloadavg()]
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
