"""Load test of the live tables: N tables of six bot clients over real WebSockets.

    python benchmarks/tables_load.py                      # N = 10, 50, 100; both modes
    python benchmarks/tables_load.py --tables 10 --modes embedded --seconds 20
    python benchmarks/tables_load.py --baseline           # N = 10, 100, each also on the relay
    python benchmarks/tables_load.py --baseline --find-100ms --modes distributed
    python benchmarks/tables_load.py --baseline --modes distributed --tables 100 --warmup 30
    python benchmarks/tables_load.py --baseline --modes distributed --tables 100 --busy 2
    python benchmarks/tables_load.py --baseline --compare ../before --tables 10 --seconds 10

For each mode it starts its own servers on 127.0.0.1 with a fresh database:
- embedded: ``manage.py serve`` (daphne, in-memory channel layer, Celery in the process)
  on a SQLite file;
- distributed: two web processes (``manage.py serve``, a daphne each, as the Procfile starts
  them) on channels-redis, one Celery worker and beat, on a fresh PostgreSQL database (needs
  DATABASE_URL=postgres://... and REDIS_URL; the Redis database number is bumped to keep its
  keys apart).

Every table has six players, each a WebSocket client that logs in with its own session
and answers its turn after thinking ``--think`` seconds (1 s), choosing with the house bots'
``decide``. In distributed mode three of a table's sockets are on each daphne.

Measured, per N: the latency from a client sending a move until every one of the table's
six sockets has received a snapshot that includes it (p50, p99), and moves applied per
second. Traffic stays on 127.0.0.1; every run is bounded by --seconds.

``--baseline``: right after each round, the same clients drive the same number of tables on a
bare Channels relay (``benchmarks/relay_asgi.py``: one ``group_send`` per move of a snapshot
recorded in that round, no database), served the same way in that mode; the site's moves per
second, p50, p99, handshakes and CPU per move are printed as multiples of the relay's, a
yardstick taken in the same minute.

``--compare DIR``: a second checkout of the site (a ``git worktree`` of the commit before a
change, say) is served beside this one, on its own database and Redis database, and each
round drives it too with the same clients: this checkout, then DIR's, then the relay. For
every contender the CPU its server processes spent in the measured window (``/proc/<pid>/
stat``, user and system time) is printed per move.
So are the handshakes: how long each socket waited to be accepted (p99) and how many were
refused, a storm of connections as at a tournament's start or after a restart.
``--busy N``: N processes spin on the cores for the whole run (a laptop doing other things).
``--pauses``: the site deals the next hand at once and runs a run-out out without a pause
(``none``, the default: the relay has no hands, so the bots wait on nothing but the
servers), or with the product's pauses for people (``product``: 3 s, 1.5 s a street).
``--find-100ms``: after the --tables counts, rounds at the --steps counts (--step-seconds
each, ascending) on each side whose p99 could still pass 100 ms there, and say where it did.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(BASE_DIR))

PYTHON = sys.executable
SEATS = 6
# After a round: how long the sockets get to close, and a helper subprocess to finish.
STOP_SECONDS = 30.0
HELPER_SECONDS = 600.0


# --------------------------------------------------------------------------- server side


def setup_tables(count: int, prefix: str) -> dict[str, Any]:
    """Run in a subprocess with the server's DATABASE_URL: tables, players, sessions."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore

    from tables import services

    director, _ = User.objects.get_or_create(username=f"{prefix}-director", is_superuser=True)
    tables = []
    for t in range(count):
        table = services.table_create(
            created_by=director, name=f"{prefix} {t}", big_blind=2, check_permission=False
        )
        cookies = []
        for seat in range(1, SEATS + 1):
            user = User.objects.create_user(f"{prefix}-{t}-{seat}", password=None)
            services.seat_take(table.pk, user, seat, table.max_buy_in)
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.save()
            cookies.append(f"{settings.SESSION_COOKIE_NAME}={session.session_key}")
        tables.append({"id": table.pk, "cookies": cookies})
    return {"tables": tables}


def close_tables(prefix: str) -> None:
    import django

    django.setup()
    from django.db import transaction

    from tables.models import Table

    # Deleted, not just closed: a closed table still plays out its hand in play, and the
    # bots are gone, so its seats would time out one by one through the next round's
    # measurement (every 30 seconds, on all of them), which is not that round's load.
    # The table row is locked first, as every table service does, or a tick in the Celery
    # worker and the cascade deadlock.
    for pk in Table.objects.filter(name__startswith=f"{prefix} ").values_list("pk", flat=True):
        with transaction.atomic():
            Table.objects.select_for_update().get(pk=pk).delete()


def run_helper(env: dict[str, str], *args: str, base: Path = BASE_DIR) -> dict[str, Any]:
    """This script's ``_setup``/``_close`` in a subprocess, as the checkout ``base`` has it."""
    out = subprocess.run(
        [PYTHON, str(base / "benchmarks" / "tables_load.py"), *args],
        cwd=base,
        env=env,
        capture_output=True,
        text=True,
        timeout=HELPER_SECONDS,
    )
    if out.returncode:
        raise RuntimeError(out.stderr[-3000:])
    lines = out.stdout.strip().splitlines()
    return json.loads(lines[-1]) if lines else {}


class Servers:
    def __init__(
        self,
        mode: str,
        workdir: Path,
        redis_db: int = 7,
        base: Path = BASE_DIR,
        pauses: str = "none",
    ) -> None:
        from tests.tables.servers import (
            deployed_env,
            free_port,
            postgres_database_new,
            redis_url_on,
            server_env,
        )

        self.mode = mode
        # The checkout served: this one, or another (``--compare``) with the same Python.
        self.base = base
        self.kind = "site" if base == BASE_DIR else "before"
        workdir.mkdir(parents=True, exist_ok=True)
        self.processes: list[subprocess.Popen[bytes]] = []
        self.ports = [free_port()] if mode == "embedded" else [free_port(), free_port()]
        self.dropdb: str | None = None
        if mode == "embedded":
            env = server_env(DATABASE_URL=f"sqlite:///{workdir / 'load.sqlite3'}")
            env.pop("REDIS_URL", None)
        else:
            url = os.environ.get("DATABASE_URL", "")
            redis = os.environ.get("REDIS_URL", "")
            if not url.startswith(("postgres://", "postgresql://")) or not redis:
                raise SystemExit("distributed mode needs a PostgreSQL DATABASE_URL and REDIS_URL")
            database_url, self.dropdb = postgres_database_new(url, "tables_load")
            self.admin_url = url
            env = server_env(DATABASE_URL=database_url, REDIS_URL=redis_url_on(redis, redis_db))
        self.env = deployed_env(env, "tables-load")
        # The pauses people get to read a hand's end and a run-out (3 s between hands, 1.5 s
        # a street): the relay has no hands, so with them the bots would wait on the pacing,
        # not on the site (``--pauses``). The product's are the settings' own, whatever the
        # shell that started this says.
        for name in ("TABLES_NEXT_HAND_DELAY_MS", "TABLES_RUNOUT_STEP_MS"):
            if pauses == "none":
                self.env[name] = "0"
            else:
                self.env.pop(name, None)
        self.log = Path(os.environ.get("TABLES_LOAD_LOG", str(workdir / "servers.log")))

    def start(self) -> None:
        from tests.tables import servers

        # The test servers' helpers run everything from their checkout's directory
        # (``BASE_DIR``): pointed at the checkout served while they start it.
        here = servers.BASE_DIR
        servers.BASE_DIR = self.base
        try:
            self.processes += servers.start_site(self.env, self.mode, self.ports, self.log)
        finally:
            servers.BASE_DIR = here
        # Flush what earlier runs may have left in this Redis database's queue.
        time.sleep(2)

    def socket_url(self, index: int, table: dict[str, Any], seat: int) -> tuple[str, str]:
        """Where seat ``seat`` (0-5) of the ``index``-th table connects: URL and Origin."""
        port = self.ports[(index + seat) % len(self.ports)]
        return f"ws://127.0.0.1:{port}/ws/tables/{table['id']}/", f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        from tests.tables.servers import stop

        for process in self.processes:
            stop(process)
        if self.dropdb:
            from tests.tables.servers import postgres_database_drop

            postgres_database_drop(self.admin_url, self.dropdb)


class RelayServers:
    """The yardstick: ``benchmarks/relay_asgi.py``, a bare Channels relay, served as the site.

    Embedded: one daphne on the site's in-memory layer; distributed: two daphnes on the
    site's channels-redis pub/sub layer (the same settings module and environment as the
    real servers), three of a table's sockets on each. No database, no Celery.
    """

    def __init__(self, site: Servers, workdir: Path) -> None:
        from tests.tables.servers import free_port

        self.mode = site.mode
        self.ports = [free_port() for _ in site.ports]
        self.snapshot = workdir / "relay_snapshot.json"
        self.env = dict(site.env, RELAY_SNAPSHOT=str(self.snapshot))
        self.log = site.log
        self.processes: list[subprocess.Popen[bytes]] = []
        self.run = ""

    def start(self) -> None:
        from tests.tables.servers import wait_for_port

        daphne = str(Path(PYTHON).with_name("daphne"))
        for port in self.ports:
            with open(self.log, "ab") as log:
                process = subprocess.Popen(
                    [
                        daphne,
                        "-b",
                        "127.0.0.1",
                        "-p",
                        str(port),
                        "benchmarks.relay_asgi:application",
                    ],
                    cwd=BASE_DIR,
                    env=self.env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            self.processes.append(process)
            wait_for_port(port, process)

    def tables(self, count: int, like: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
        """``count`` relay tables; the cookies are the real ones' (the same request bytes)."""
        self.run = uuid.uuid4().hex[:8]
        cookie = like[0]["cookies"][0] if like else f"sessionid={'x' * 32}"
        return [{"id": t + 1, "cookies": [cookie] * SEATS} for t in range(count)]

    def record(self, text: str) -> None:
        """The real snapshot the relay's frames are made from (written before its round)."""
        partial = self.snapshot.with_suffix(".part")
        partial.write_text(text, encoding="utf-8")
        partial.replace(self.snapshot)

    def socket_url(self, index: int, table: dict[str, Any], seat: int) -> tuple[str, str]:
        port = self.ports[(index + seat) % len(self.ports)]
        return (
            f"ws://127.0.0.1:{port}/ws/relay/{self.run}/{table['id']}/{seat + 1}/",
            f"http://127.0.0.1:{port}",
        )

    def stop(self) -> None:
        from tests.tables.servers import stop

        for process in self.processes:
            stop(process)


def server_pids(processes: list[subprocess.Popen[bytes]]) -> list[int]:
    """The servers' processes and every process they started, still running."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found = {p.pid for p in processes if p.poll() is None}
    grew = True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in found} - found
        found |= more
        grew = bool(more)
    return sorted(found)


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """User plus system CPU time of each process (``/proc/<pid>/stat``), in seconds."""
    tick = os.sysconf("SC_CLK_TCK")
    times = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone
        # After the command: state is field 3, utime 14 and stime 15 (proc(5)).
        times[pid] = (int(fields[11]) + int(fields[12])) / tick
    return times


def process_name(pid: int) -> str:
    """daphne, serve, worker, beat (or the program's name)."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return "?"
    words = [Path(a.decode(errors="replace")).name for a in argv if a]
    for name in ("daphne", "serve", "worker", "beat"):
        if name in words:
            return name
    return words[0] if words else "?"


# --------------------------------------------------------------------------- clients


@dataclass
class TableWatch:
    """The six sockets of one table: the newest version each has seen, moves in flight."""

    latest: list[int] = field(default_factory=lambda: [0] * SEATS)
    pending: list[tuple[int, float]] = field(default_factory=list)

    def seen(self, seat: int, version: int, latencies: list[float], now: float) -> None:
        if version <= self.latest[seat]:
            return
        self.latest[seat] = version
        floor = min(self.latest)
        if self.pending and self.pending[0][0] < floor:
            keep = []
            for acted_on, sent_at in self.pending:
                if acted_on < floor:
                    latencies.append(now - sent_at)
                else:
                    keep.append((acted_on, sent_at))
            self.pending = keep


async def bot_socket(
    url: str,
    origin: str,
    cookie: str,
    seat: int,
    watch: TableWatch,
    think: float,
    state: dict[str, Any],
    rng: random.Random,
    table_index: int = 0,
) -> None:
    from websockets.asyncio.client import connect

    from tables.botbrain import STYLES, decide

    style = STYLES[seat % len(STYLES)]
    await asyncio.sleep(state["ramp"] * table_index / max(1, state["tables"]))
    opening = time.perf_counter()
    try:
        opened = await connect(
            url,
            origin=origin,
            additional_headers={"Cookie": cookie},
            open_timeout=60,
            max_size=2**20,
        )
    except Exception:
        # Refused or timed out before the server answered the handshake.
        state["refused"] += 1
        raise
    async with opened as ws:
        state["handshakes"].append(time.perf_counter() - opening)
        planned: asyncio.Task[None] | None = None

        async def act(frame: dict[str, Any]) -> None:
            await asyncio.sleep(think)
            if state["stop"].is_set():
                return
            if state["measuring"]:
                watch.pending.append((frame["version"], time.perf_counter()))
                state["sent"] += 1
            await ws.send(json.dumps(frame))

        while not state["stop"].is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                continue
            frame = json.loads(raw)
            if frame.get("type") != "snapshot":
                continue
            if state["measuring"]:
                watch.seen(seat, frame["version"], state["latencies"], time.perf_counter())
                _sample(state, raw, frame)
            else:
                watch.latest[seat] = max(watch.latest[seat], frame["version"])
            move = decide(style, frame, rng, samples=12)
            if move is not None:
                if planned is not None and not planned.done():
                    planned.cancel()
                planned = asyncio.create_task(act(move))


def _sample(state: dict[str, Any], raw: str | bytes, frame: dict[str, Any]) -> None:
    """Snapshot sizes, and every 16th text that asks for a betting move (the relay's model).

    Done for the relay's frames too, so both are read by the same client code.
    """
    state["bytes"] += len(raw)
    state["frames"] += 1
    legal = frame.get("you", {}).get("legal")
    if legal and not legal["show"] and not legal["muck"]:
        state["turns"] += 1
        if state["turns"] % 16 == 0 and len(state["samples"]) < 500:
            state["samples"].append(raw)


def _typical(samples: list[str | bytes]) -> str | None:
    """The sampled snapshot of median size."""
    if not samples:
        return None
    ordered = sorted(samples, key=len)
    found = ordered[len(ordered) // 2]
    return found if isinstance(found, str) else found.decode()


async def drive(
    servers: Servers | RelayServers,
    tables: list[dict[str, Any]],
    seconds: float,
    think: float,
    warmup: float = 6.0,
) -> dict[str, Any]:
    pids = server_pids(servers.processes)
    state: dict[str, Any] = {
        "stop": asyncio.Event(),
        "measuring": False,
        "latencies": [],
        "sent": 0,
        # Players arrive over a few seconds, not all in the same instant.
        "ramp": min(10.0, 0.1 * len(tables)),
        "tables": len(tables),
        "bytes": 0,
        "frames": 0,
        "turns": 0,
        "samples": [],
        # Seconds from each socket's TCP connect to its handshake's answer (daphne drops a
        # handshake not answered within five seconds: "did not receive a valid HTTP response").
        "handshakes": [],
        "refused": 0,
    }
    rng = random.Random(7)
    tasks = []
    for t, table in enumerate(tables):
        watch = TableWatch()
        for seat, cookie in enumerate(table["cookies"]):
            url, origin = servers.socket_url(t, table, seat)
            tasks.append(
                asyncio.create_task(
                    bot_socket(
                        url,
                        origin,
                        cookie,
                        seat,
                        watch,
                        think,
                        state,
                        random.Random(rng.random()),
                        t,
                    )
                )
            )
    # Everyone connected, and a few hands under way, before measuring.
    await asyncio.sleep(state["ramp"] + warmup)
    # The clients are one process holding every socket: its own garbage collections (100 ms
    # and more over that many objects) stalled all of them at once, which read as server
    # latency. Its collector is off while measuring (memory grows a little for 30 s), and
    # its event loop's lag is watched, so a stall on this side shows in the table.
    gc.collect()
    gc.freeze()
    gc.disable()
    lags: list[float] = []

    async def watch_lag() -> None:
        while not state["stop"].is_set():
            before = time.perf_counter()
            await asyncio.sleep(0.005)
            lags.append(time.perf_counter() - before - 0.005)

    lag_task = asyncio.create_task(watch_lag())
    state["measuring"] = True
    started = time.perf_counter()
    cpu = time.process_time()
    servers_cpu = cpu_seconds(pids)
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu
    servers_after = cpu_seconds(pids)
    state["measuring"] = False
    state["stop"].set()
    # Sockets notice the stop within half a second; one still opening or closing gets a
    # bounded wait, then is cancelled (and counted as an error), so a round always ends.
    _, stuck = await asyncio.wait(tasks, timeout=STOP_SECONDS)
    for task in stuck:
        task.cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    await lag_task
    gc.enable()
    gc.unfreeze()
    failures = [r for r in results if isinstance(r, Exception)]
    latencies = sorted(state["latencies"])
    return {
        "moves": len(latencies),
        "sent": state["sent"],
        "per_second": len(latencies) / elapsed,
        "p50": _percentile(latencies, 50) * 1000,
        "p90": _percentile(latencies, 90) * 1000,
        "p99": _percentile(latencies, 99) * 1000,
        "failures": len(failures),
        "client_lag": max(lags, default=0.0) * 1000,
        # Past about 90% the clients, not the servers, are what the latency measures.
        "client_cpu": 100 * cpu / elapsed,
        "first_failure": repr(failures[0]) if failures else "",
        "handshake_p50": _percentile(sorted(state["handshakes"]), 50),
        "handshake_p99": _percentile(sorted(state["handshakes"]), 99),
        "handshake_max": max(state["handshakes"], default=float("nan")),
        "refused": state["refused"],
        "frame_bytes": state["bytes"] / max(1, state["frames"]),
        "typical": _typical(state["samples"]),
        # The servers' CPU over the measured window, per process: (name, seconds).
        "server_cpu": [
            (process_name(pid), servers_after[pid] - before)
            for pid, before in servers_cpu.items()
            if pid in servers_after
        ],
    }


def _percentile(values: list[float], pct: float) -> float:
    if not values:
        return float("nan")
    k = min(len(values) - 1, max(0, round(pct / 100 * (len(values) - 1))))
    return values[k]


def load_average() -> float:
    return os.getloadavg()[0]


def host_speed_ms() -> float:
    """Milliseconds for a fixed pure-Python loop, best of three.

    The machine is a virtual one whose processor is shared: the same loop has taken from
    300 to 450 ms within a minute on an idle guest. Measured before and after each round,
    this column says how fast the host was around it.
    """
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        x = 0
        for i in range(1_000_000):
            x += i * i % 7
        best = min(best, time.perf_counter() - started)
    return best * 1000


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "_setup":
        print(json.dumps(setup_tables(int(sys.argv[2]), sys.argv[3])))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "_close":
        close_tables(sys.argv[2])
        print("{}")
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=None)
    parser.add_argument(
        "--modes",
        nargs="+",
        help="embedded, distributed (default: both, or embedded alone "
        "without DATABASE_URL=postgres://... and REDIS_URL)",
    )
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument(
        "--warmup",
        type=float,
        default=6.0,
        help="seconds of play after the last table's players arrived, before measuring (6); "
        "longer lets the servers' first garbage collection after every socket connected at "
        "once pass before the measured window (benchmarks/README.md)",
    )
    parser.add_argument(
        "--pauses",
        choices=["none", "product"],
        default="none",
        help="the site's pauses between hands and between a run-out's streets: none (the "
        "next hand dealt at once: the relay has no hands) or the product's (3 s and 1.5 s, "
        "for people to read the table)",
    )
    parser.add_argument(
        "--baseline",
        action="store_true",
        help="after each round of the real tables, the same round on a bare Channels relay",
    )
    parser.add_argument(
        "--compare",
        type=Path,
        metavar="DIR",
        help="another checkout of the site (a git worktree of the commit before a change) "
        "served beside this one and driven in every round, with the CPU per move of each",
    )
    parser.add_argument(
        "--find-100ms",
        action="store_true",
        help="after --tables, run --steps counts to narrow down where p99 passes 100 ms",
    )
    parser.add_argument("--steps", type=int, nargs="+", default=[50, 150, 200, 300])
    parser.add_argument(
        "--step-seconds", type=float, default=20.0, help="measuring time of the steps' rounds"
    )
    parser.add_argument(
        "--busy",
        type=int,
        default=0,
        help="processes spinning on the cores for the whole run, standing for a laptop "
        "doing other things (0)",
    )
    parser.add_argument(
        "--redis-db",
        type=int,
        default=7,
        help="the Redis database of the distributed servers (default 7)",
    )
    args = parser.parse_args()
    from tests.tables.servers import benchmark_modes

    args.modes = benchmark_modes(args.modes)
    if args.tables is None:
        args.tables = [10, 100] if args.baseline else [10, 50, 100]

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    spinners = busy_start(args.busy)
    try:
        _run(args)
    finally:
        busy_stop(spinners)


def busy_start(count: int) -> list[subprocess.Popen[bytes]]:
    """``count`` processes that spin on the cores until stopped (a host's other work)."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def busy_stop(spinners: list[subprocess.Popen[bytes]]) -> None:
    for spinner in spinners:
        spinner.kill()
        spinner.wait()


def _run(args: argparse.Namespace) -> None:
    began = time.perf_counter()
    rows: list[dict[str, Any]] = []
    print(_header(), flush=True)
    for mode in args.modes:
        with tempfile.TemporaryDirectory() as tmp:
            servers = Servers(mode, Path(tmp), args.redis_db, pauses=args.pauses)
            relay = RelayServers(servers, Path(tmp)) if args.baseline else None
            # On a Redis database of its own: the channel layer's prefix names it, so the
            # two sites' table groups stay apart on one Redis server.
            before = (
                Servers(
                    mode,
                    Path(tmp) / "compare",
                    args.redis_db + 1,
                    args.compare.resolve(),
                    pauses=args.pauses,
                )
                if args.compare is not None
                else None
            )
            try:
                servers.start()
                if before is not None:
                    before.start()
                if relay is not None:
                    relay.start()
                mine: list[dict[str, Any]] = []
                like: list[dict[str, Any]] | None = None
                for n, sides in _plan(args, relay is not None, mine):
                    if "site" in sides:
                        row, like = _site_round(servers, n, args)
                        mine.append(row)
                        if row["typical"] and relay is not None:
                            relay.record(row["typical"])
                        if before is not None:
                            mine.append(_site_round(before, n, args)[0])
                    if relay is not None and "relay" in sides:
                        mine.append(_relay_round(relay, n, like, args))
                rows += mine
            finally:
                if relay is not None:
                    relay.stop()
                if before is not None:
                    before.stop()
                servers.stop()
    print()
    print(_header())
    for row in rows:
        print(_row(row))
    if args.baseline:
        print()
        print(_ratio_header())
        for line in _ratios(rows):
            print(line)
        print()
        print(_handshake_header())
        for line in _handshake_ratios(rows):
            print(line)
    print()
    print(_cpu_header())
    for line in _cpu_per_move(rows):
        print(line)
    if args.find_100ms:
        print()
        for line in _crossings(rows, args.modes, bool(args.baseline)):
            print(line)
    print(f"\nwhole run: {time.perf_counter() - began:.0f} s")


LIMIT_MS = 100.0


def _plan(
    args: argparse.Namespace, baseline: bool, done: list[dict[str, Any]]
) -> Iterator[tuple[int, list[str]]]:
    """The rounds of one mode: (table count, which servers), reading the rows done so far.

    First every --tables count on both. With --find-100ms, then each --steps count in
    ascending order, on each side whose p99 has not yet been seen both under 100 ms at a
    higher count and over it at a lower one: the steps narrow down where it passes.
    """
    kinds = ["site", "relay"] if baseline else ["site"]
    for n in args.tables:
        yield n, kinds
    if not args.find_100ms:
        return
    for n in sorted(set(args.steps) - set(args.tables)):
        sides = []
        for kind in kinds:
            seen = [r for r in done if r["kind"] == kind]
            under = max((r["tables"] for r in seen if r["p99"] <= LIMIT_MS), default=0)
            over = min((r["tables"] for r in seen if not r["p99"] <= LIMIT_MS), default=None)
            if under < n and (over is None or n < over):
                sides.append(kind)
        if sides:
            yield n, sides


# The live tables' goals beside the relay (distributed, 100 tables): the bots never wait on
# the site (its moves per second within 5% of the relay's), p99 within 3x the relay's, and
# no client errors; handshakes below (GOAL_HANDSHAKE_P99), CPU per move in its own table.
GOAL_MOVES = 0.95
GOAL_P99 = 3.0


def _seconds(n: int, args: argparse.Namespace) -> float:
    return float(args.seconds if n in args.tables else args.step_seconds)


def _site_round(
    servers: Servers, n: int, args: argparse.Namespace
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    started = time.perf_counter()
    prefix = f"load{n}-{uuid.uuid4().hex[:6]}"
    setup = run_helper(servers.env, "_setup", str(n), prefix, base=servers.base)
    speed = host_speed_ms()
    result = asyncio.run(
        drive(servers, setup["tables"], _seconds(n, args), args.think, args.warmup)
    )
    run_helper(servers.env, "_close", prefix, base=servers.base)
    result["host"] = (speed + host_speed_ms()) / 2
    return _done(result, servers.mode, servers.kind, n, started), setup["tables"]


def _relay_round(
    relay: RelayServers, n: int, like: list[dict[str, Any]] | None, args: argparse.Namespace
) -> dict[str, Any]:
    started = time.perf_counter()
    tables = relay.tables(n, like)
    speed = host_speed_ms()
    result = asyncio.run(drive(relay, tables, _seconds(n, args), args.think, args.warmup))
    result["host"] = (speed + host_speed_ms()) / 2
    return _done(result, relay.mode, "relay", n, started)


def _done(result: dict[str, Any], mode: str, kind: str, n: int, started: float) -> dict[str, Any]:
    result.update(mode=mode, kind=kind, tables=n, sockets=n * SEATS, load=load_average())
    result["round_s"] = time.perf_counter() - started
    print(_row(result), flush=True)
    if result["first_failure"]:
        print(f"  first client failure: {result['first_failure'][:300]}", flush=True)
    print(
        f"  handshakes: median {result['handshake_p50']:.3f} s, p99 "
        f"{result['handshake_p99']:.3f} s, slowest {result['handshake_max']:.3f} s, "
        f"refused {result['refused']}",
        flush=True,
    )
    return result


def _header() -> str:
    return (
        f"{'mode':<12} {'server':<6} {'tables':>6} {'sockets':>7} {'moves':>6} {'moves/s':>8} "
        f"{'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'load1':>6} {'errors':>6} {'host ms':>7} "
        f"{'cl lag':>6} {'cl cpu':>6} {'frame B':>7} {'round s':>7}"
    )


def _row(r: dict[str, Any]) -> str:
    return (
        f"{r['mode']:<12} {r['kind']:<6} {r['tables']:>6} {r['sockets']:>7} {r['moves']:>6} "
        f"{r['per_second']:>8.1f} {r['p50']:>8.1f} {r['p90']:>8.1f} {r['p99']:>8.1f} "
        f"{r['load']:>6.2f} {r['failures']:>6} {r['host']:>7.0f} {r['client_lag']:>6.1f} "
        f"{r['client_cpu']:>5.0f}% {r['frame_bytes']:>7.0f} {r['round_s']:>7.0f}"
    )


def _ratio_header() -> str:
    return (
        f"{'mode':<12} {'server':<6} {'tables':>6} {'moves x':>7} {'site p50':>9} "
        f"{'relay p50':>9} {'p50 x':>6} {'site p99':>9} {'relay p99':>9} {'p99 x':>6} {'goal':>5}"
    )


def _ratios(rows: list[dict[str, Any]]) -> list[str]:
    """Per mode and table count measured on both: the site's moves per second and latency
    over the relay's.

    "goal" is the live tables' speed goal (stated for distributed mode at 100 tables): moves
    per second within 5% of the relay's (``GOAL_MOVES``), p99 within 3x, and no client
    errors in either round. With ``--compare`` the other checkout's rounds ("before") are
    measured against the same relay rounds.
    """
    lines = []
    relay = {(r["mode"], r["tables"]): r for r in rows if r["kind"] == "relay"}
    for site in rows:
        other = relay.get((site["mode"], site["tables"]))
        if site["kind"] == "relay" or other is None:
            continue
        moves = site["per_second"] / other["per_second"]
        p50 = site["p50"] / other["p50"]
        p99 = site["p99"] / other["p99"]
        met = moves >= GOAL_MOVES and p99 <= GOAL_P99 and not site["failures"] + other["failures"]
        lines.append(
            f"{site['mode']:<12} {site['kind']:<6} {site['tables']:>6} {moves:>7.3f} "
            f"{site['p50']:>9.1f} {other['p50']:>9.1f} "
            f"{p50:>6.1f} {site['p99']:>9.1f} {other['p99']:>9.1f} {p99:>6.1f} "
            f"{'met' if met else 'no':>5}"
        )
    return lines


def _cpu_header() -> str:
    return (
        f"{'mode':<12} {'server':<6} {'tables':>6} {'moves':>6} {'cpu s':>7} "
        f"{'cpu ms/move':>11} {'x relay':>7}  per process (ms/move)"
    )


def _cpu_per_move(rows: list[dict[str, Any]]) -> list[str]:
    """Per round, the CPU its server processes spent in the measured window, per move, and
    over the same count's relay round (the yardstick: a host's speed moves it as much)."""

    def per_move(r: dict[str, Any]) -> float:
        return 1000 * sum(seconds for _, seconds in r["server_cpu"]) / max(1, r["moves"])

    relay = {(r["mode"], r["tables"]): per_move(r) for r in rows if r["kind"] == "relay"}
    lines = []
    for r in rows:
        moves = max(1, r["moves"])
        ms = per_move(r)
        each = " ".join(f"{name} {1000 * seconds / moves:.2f}" for name, seconds in r["server_cpu"])
        yardstick = relay.get((r["mode"], r["tables"]))
        ratio = f"{ms / yardstick:>7.2f}" if yardstick else f"{'-':>7}"
        lines.append(
            f"{r['mode']:<12} {r['kind']:<6} {r['tables']:>6} {r['moves']:>6} "
            f"{ms * moves / 1000:>7.2f} {ms:>11.2f} {ratio}  {each}"
        )
    return lines


# Sockets accepted as fast as a bare relay's, within this factor at the 99th percentile, and
# none refused (a tournament's start and a reconnect wave after a restart are such storms).
GOAL_HANDSHAKE_P99 = 10.0


def _handshake_header() -> str:
    return (
        f"{'mode':<12} {'tables':>6} {'site hs p99':>11} {'relay hs p99':>12} {'x':>6} "
        f"{'refused':>7} {'goal':>5}"
    )


def _handshake_ratios(rows: list[dict[str, Any]]) -> list[str]:
    """Per mode and table count: the site's handshake p99 over the relay's, and refusals."""
    lines = []
    relay = {(r["mode"], r["tables"]): r for r in rows if r["kind"] == "relay"}
    for site in rows:
        other = relay.get((site["mode"], site["tables"]))
        if site["kind"] != "site" or other is None:
            continue
        ratio = site["handshake_p99"] / other["handshake_p99"]
        refused = site["refused"] + other["refused"]
        met = ratio <= GOAL_HANDSHAKE_P99 and not refused
        lines.append(
            f"{site['mode']:<12} {site['tables']:>6} {site['handshake_p99'] * 1000:>9.1f}ms "
            f"{other['handshake_p99'] * 1000:>10.1f}ms {ratio:>6.1f} {refused:>7} "
            f"{'met' if met else 'no':>5}"
        )
    return lines


def _crossings(rows: list[dict[str, Any]], modes: list[str], baseline: bool) -> list[str]:
    """Per mode and server: the lowest table count measured whose p99 passed 100 ms."""
    lines = []
    for mode in modes:
        for kind in ("site", "relay") if baseline else ("site",):
            mine = [r for r in rows if r["mode"] == mode and r["kind"] == kind]
            over = min(
                (r for r in mine if not r["p99"] <= LIMIT_MS),
                key=lambda r: r["tables"],
                default=None,
            )
            below = max(
                (
                    r
                    for r in mine
                    if r["p99"] <= LIMIT_MS and (over is None or r["tables"] < over["tables"])
                ),
                key=lambda r: r["tables"],
                default=None,
            )
            if over is not None:
                text = f"passes {LIMIT_MS:.0f} ms at {over['tables']} tables ({over['p99']:.1f} ms)"
            else:
                text = f"under {LIMIT_MS:.0f} ms up to {max(r['tables'] for r in mine)} tables"
            if below is not None and over is not None:
                text += f"; under it at {below['tables']} ({below['p99']:.1f} ms)"
            lines.append(f"{mode:<12} {kind:<6} p99 {text}")
    return lines


if __name__ == "__main__":
    main()
