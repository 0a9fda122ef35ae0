"""Real server processes for the restart, two-daphne and load tests: start, wait, kill.

Also a small asyncio player that speaks the protocol over a real WebSocket and remembers
every frame it sent, so the tests can replay frames after a restart.
"""

from __future__ import annotations

import asyncio
import fcntl
import hashlib
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from importlib import metadata
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parents[2]
PYTHON = sys.executable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server on port {port} exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"server on port {port} did not start in {timeout}s")


# The product's settings with a fast password hasher (``tests/served_settings.py`` says why).
SERVED_SETTINGS = "tests.served_settings"


def server_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update({"DEBUG": "1", "DJANGO_SETTINGS_MODULE": SERVED_SETTINGS, "LOG_LEVEL": "WARNING"})
    env.update(extra)
    return env


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [PYTHON, "manage.py", *args], cwd=BASE_DIR, env=env, capture_output=True, text=True
    )
    if result.returncode:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stderr}")
    return result.stdout


def migrate(env: dict[str, str]) -> None:
    """Migrate ``env``'s database. A SQLite file is copied from one migrated once for these
    migrations (the suite starts a dozen servers, each on a file of its own: migrating each
    took seconds of a shared core); any other database is migrated as usual."""
    url = env.get("DATABASE_URL", "")
    if not url.startswith("sqlite:///"):
        manage(env, "migrate", "--noinput", "-v", "0")
        return
    shutil.copyfile(migrated_sqlite(env), Path(url.removeprefix("sqlite:///")))


def migrations_key() -> str:
    """Changes whenever a migration, Python or Django does: what the migrated schema and rows
    depend on."""
    key = hashlib.sha256(sys.version.encode())
    for path in sorted(BASE_DIR.glob("*/migrations/*.py")):
        key.update(str(path.relative_to(BASE_DIR)).encode() + path.read_bytes())
    for name in ("django", "django-celery-beat", "django-celery-results"):
        try:
            key.update(metadata.version(name).encode())
        except metadata.PackageNotFoundError:
            pass
    return key.hexdigest()[:16]


def migrated_sqlite(env: dict[str, str]) -> Path:
    """A SQLite file migrated once for these migrations, to copy (never to write to)."""
    template = Path(tempfile.gettempdir()) / f"poker-migrated-{migrations_key()}.sqlite3"
    # The suite's workers build it once between them: the first to come builds, the others wait.
    with open(template.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not template.exists():
            building = template.with_suffix(".building")
            building.unlink(missing_ok=True)
            manage(
                {**env, "DATABASE_URL": f"sqlite:///{building}"}, "migrate", "--noinput", "-v", "0"
            )
            # Everything in the one file (no write-ahead log beside it), so a copy is whole.
            with closing(sqlite3.connect(building)) as db:
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            Path(f"{building}-wal").unlink(missing_ok=True)
            Path(f"{building}-shm").unlink(missing_ok=True)
            building.replace(template)
    return template


@contextmanager
def served_table(tmp_path: Path, setup: str, **extra: str) -> Iterator[tuple[str, int]]:
    """``manage.py serve`` (daphne and the embedded Celery that deals and moves the bots) on
    a SQLite file of its own, after ``setup`` (a ``manage.py shell`` script whose output ends
    with the table's id) made the table; its address and the table's id. ``extra``: more
    environment (``TABLES_BOT_THINK_MS``, ``TABLES_NEXT_HAND_DELAY_MS``...)."""
    env = server_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", **extra)
    env.pop("REDIS_URL", None)  # embedded mode: one process, the in-memory broker
    migrate(env)
    table_id = int(manage(env, "shell", "-c", setup).split()[-1])
    port = free_port()
    process = start_serve(env, port, log=tmp_path / "serve.log")
    try:
        yield f"http://127.0.0.1:{port}", table_id
    finally:
        stop(process)


def _log(path: Path | None) -> Any:
    return open(path, "ab") if path is not None else subprocess.DEVNULL  # noqa: SIM115


def start_serve(env: dict[str, str], port: int, log: Path | None = None) -> subprocess.Popen[bytes]:
    """``manage.py serve``: daphne plus, in embedded mode, the Celery worker and beat; in
    distributed mode (``REDIS_URL`` set) daphne alone, one web process as the Procfile and
    the systemd unit start them."""
    process = subprocess.Popen(
        [PYTHON, "manage.py", "serve", "--port", str(port)],
        cwd=BASE_DIR,
        env=env,
        stdout=_log(log),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    wait_for_port(port, process)
    return process


@contextmanager
def web_processes(
    env: dict[str, str], ports: list[int], log_dir: Path | None = None
) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``manage.py serve`` on each port, as the distributed mode runs its web processes (the
    Procfile, the systemd unit), each logging to ``log_dir/web<port>.log`` when given. They
    are stopped as systemd stops them, and each must end on SIGTERM, with no SIGKILL."""
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for port in ports:
            log = log_dir / f"web{port}.log" if log_dir is not None else None
            processes.append(start_serve(env, port, log=log))
        yield processes
    finally:
        ended = [stop(process) for process in processes]
    assert all(ended), f"web processes that did not end on SIGTERM: {ended}"


def kill(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the server and everything it started: no cleanup, as in a crash."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(timeout=10)


def stop(process: subprocess.Popen[bytes]) -> bool:
    """SIGTERM, as Ctrl-C or a service manager stops a server; SIGKILL after 10 s. True when
    the server ended on its own."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            kill(process)
            return False
    return True


def choose(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    roll = rng.random()
    if legal["raise"] and roll < 0.15:
        return {"action": "raise", "amount": legal["raise"]["min"]}
    if legal["bet"] and roll < 0.2:
        return {"action": "bet", "amount": legal["bet"]["min"]}
    if legal["check"]:
        return {"action": "check"}
    if roll > 0.9:
        return {"action": "fold"}
    return {"action": "call"}


class Player:
    """One player's socket: acts on every snapshot that gives it a turn, ``think`` seconds
    later. A tenth of a second is a person as quick as fingers go: a bot acting at once
    sends some seven frames a second at a table dealt every half second, and in a burst
    meets the flood limit (20 frames in 2 s), which no person reaches."""

    def __init__(
        self, name: str, port: int, table_id: int, cookie: str, seed: int, think: float = 0.1
    ) -> None:
        self.think = think
        self.name = name
        self.port = port
        self.table_id = table_id
        self.cookie = cookie
        self.rng = random.Random(seed)
        self.sent: list[dict[str, Any]] = []
        self.frames: list[dict[str, Any]] = []
        self.versions: list[int] = []

    async def run(self, stop: asyncio.Event, replay_last: bool = False) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        url = f"ws://127.0.0.1:{self.port}/ws/tables/{self.table_id}/"
        try:
            async with connect(
                url,
                origin=f"http://127.0.0.1:{self.port}",
                additional_headers={"Cookie": self.cookie},
                open_timeout=10,
            ) as ws:
                if replay_last and self.sent:
                    # A client that retries its last frame after a reconnect: must do nothing.
                    await ws.send(json.dumps(self.sent[-1]))
                while not stop.is_set():
                    try:
                        raw = await asyncio.wait_for(ws.recv(), timeout=0.2)
                    except TimeoutError:
                        continue
                    frame = json.loads(raw)
                    self.frames.append(frame)
                    if frame["type"] != "snapshot":
                        continue
                    self.versions.append(frame["version"])
                    legal = frame["you"]["legal"]
                    if legal is None:
                        continue
                    move = {
                        "type": "act",
                        "hand": legal["hand"],
                        "version": legal["version"],
                        **choose(legal, self.rng),
                    }
                    await asyncio.sleep(self.think)
                    self.sent.append(move)
                    await ws.send(json.dumps(move))
        except (ConnectionClosed, OSError):
            return


def benchmark_modes(asked: list[str] | None) -> list[str]:
    """The modes a benchmark runs: those asked for (``--modes``, spaces or commas), else
    embedded, and distributed too when PostgreSQL (``DATABASE_URL``) and ``REDIS_URL`` are
    set; without them it says so, so ``make bench-*`` works on a machine with neither."""
    if asked:
        return [mode for part in asked for mode in part.split(",") if mode]
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")) and os.environ.get("REDIS_URL"):
        return ["embedded", "distributed"]
    print(
        "distributed mode skipped: it needs DATABASE_URL=postgres://... and REDIS_URL",
        file=sys.stderr,
        flush=True,
    )
    return ["embedded"]


def deployed_env(env: dict[str, str], name: str) -> dict[str, str]:
    """``env`` as a deployed site runs: DEBUG off (with it on, Django records every query's
    SQL), its own secret, loopback hosts, plain HTTP, quiet logs."""
    return {
        **env,
        "DEBUG": "0",
        "SECRET_KEY": f"{name}-{os.urandom(16).hex()}",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "LOG_LEVEL": "ERROR",
    }


def start_site(
    env: dict[str, str],
    mode: str,
    ports: list[int],
    log: Path | None = None,
    *,
    celery_log: Path | None = None,
    celery_loglevel: str = "ERROR",
) -> list[subprocess.Popen[bytes]]:
    """Migrate, then serve the site: embedded, ``manage.py serve`` on the first port;
    distributed, a web process (``manage.py serve``) on every port, one Celery worker
    (threads) and one beat, whose output goes to ``celery_log`` when given (at
    ``celery_loglevel``)."""
    migrate(env)
    if mode == "embedded":
        return [start_serve(env, ports[0], log=log)]
    processes = [start_serve(env, port, log=log) for port in ports]
    celery = str(Path(PYTHON).with_name("celery"))
    worker = ["worker", "--pool", "threads", "--concurrency", "4", "--without-gossip"]
    worker += ["--without-mingle", "--without-heartbeat", "--loglevel", celery_loglevel]
    schedule = str(Path(tempfile.mkdtemp()) / "beat")
    beat = ["beat", "--loglevel", celery_loglevel, "--schedule", schedule]
    for args in (worker, beat):
        processes.append(
            subprocess.Popen(
                [celery, "-A", "config", *args],
                cwd=BASE_DIR,
                env=env,
                stdout=_log(celery_log),
                stderr=subprocess.STDOUT if celery_log is not None else subprocess.DEVNULL,
                start_new_session=True,
            )
        )
    return processes


def postgres_database_new(url: str, prefix: str) -> tuple[str, str]:
    """A new empty database on the PostgreSQL server of ``url``: its URL and its name (for
    ``postgres_database_drop``), so a run never touches the database ``url`` names."""
    import uuid
    from urllib.parse import urlparse, urlunparse

    import psycopg

    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunparse(urlparse(url)._replace(path=f"/{name}")), name


def postgres_database_drop(url: str, name: str) -> None:
    """Drop the database ``postgres_database_new`` made (``url``: the server's admin URL)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def start_redis(port: int, log: Path | None = None) -> subprocess.Popen[bytes]:
    """A private ``redis-server`` on ``port`` (no persistence), for a run that must not
    share a Redis server: channels-redis's pub/sub channels are the server's, whatever the
    database number, so two sites on one server hear each other's table groups."""
    import shutil

    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is not installed")
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=_log(log),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    wait_for_port(port, process, timeout=20)
    return process


def redis_url_on(url: str, db: int) -> str:
    """``url`` (``redis://host:port/n``) moved to Redis database ``db``."""
    from urllib.parse import urlparse, urlunparse

    return urlunparse(urlparse(url)._replace(path=f"/{db}"))
