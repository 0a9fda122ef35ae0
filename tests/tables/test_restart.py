"""A server killed with SIGKILL at random points of many hands loses nothing.

``manage.py serve`` (daphne with the embedded Celery worker and beat) runs on a file SQLite
database, or on a fresh PostgreSQL database when DATABASE_URL is PostgreSQL. Three players
play over real WebSockets; the server is killed at random moments (mid-move included) and
restarted; each player reconnects and first re-sends its last frame, as a retrying client
would. At the end every hand replays from its records on the engine (a move applied twice
would not), the moves stored are no more than the distinct frames sent, hands kept
finishing across restarts, and not a chip was made or lost.

The suite kills 5 times; ``make soak`` kills 50 times (TABLES_SOAK_KILLS).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import pytest

from tests.tables.servers import (
    BASE_DIR,
    PYTHON,
    Player,
    free_port,
    kill,
    migrate,
    server_env,
    start_serve,
    stop,
)

KILLS = int(os.environ.get("TABLES_SOAK_KILLS", "5"))


@pytest.fixture
def server_database(tmp_path: Path) -> Iterator[str]:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        yield f"sqlite:///{tmp_path / 'restart.sqlite3'}"
        return
    import psycopg

    name = f"tables_restart_{uuid.uuid4().hex[:10]}"
    parsed = urlparse(url)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunparse(parsed._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def helper(env: dict[str, str], *args: str) -> dict[str, object]:
    result = subprocess.run(
        [PYTHON, "-m", "tests.tables.restart_helpers", *args],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


async def play(players: list[Player], seconds: float, process: object, replay: bool) -> None:
    """Let the players play, then SIGKILL the server while they are still at it."""
    halt = asyncio.Event()
    tasks = [asyncio.create_task(p.run(halt, replay_last=replay)) for p in players]
    await asyncio.sleep(seconds)
    if process is not None:
        kill(process)  # type: ignore[arg-type]
    halt.set()
    await asyncio.gather(*tasks)


def max_hand_seen(players: list[Player]) -> int:
    numbers = [f["hand"]["number"] for p in players for f in p.frames if f.get("hand")]
    return max(numbers, default=0)


@pytest.mark.long(50)
def test_hands_survive_sigkill_at_random_points(server_database: str) -> None:
    env = server_env(DATABASE_URL=server_database, TABLES_NEXT_HAND_DELAY_MS="500")
    env.pop("REDIS_URL", None)  # embedded mode: the server runs its own Celery worker and beat
    migrate(env)
    setup = helper(env, "setup")
    table_id = int(setup["table"])  # type: ignore[call-overload]
    port = free_port()
    players = [
        Player(f"p{k}", port, table_id, cookie, seed=k)
        for k, cookie in enumerate(setup["cookies"])  # type: ignore[arg-type]
    ]
    rng = random.Random(20261122)
    hands_seen = []
    for k in range(KILLS):
        process = start_serve(env, port)
        # Long enough for a hand to start (3 s delay) and some moves; the kill lands anywhere.
        asyncio.run(play(players, rng.uniform(2.0, 4.0), process, replay=k > 0))
        hands_seen.append(max_hand_seen(players))

    process = start_serve(env, port)
    try:
        asyncio.run(play(players, 4.0, None, replay=True))
    finally:
        stop(process)
    result = helper(env, "check", str(table_id))

    assert not result["problems"], result["problems"]
    chips = result["chips"]
    assert chips["bought_in"] - chips["cashed_out"] == chips["seated"] == 300  # type: ignore[index]
    assert result["replayed"] == result["hands"]
    assert result["finished"] >= result["hands"] - 1  # the last may still be in play
    # Hands kept coming after every restart.
    assert max_hand_seen(players) > hands_seen[-1] >= hands_seen[0] >= 1
    assert result["hands"] >= KILLS
    sent = {(f["hand"], f["version"]) for p in players for f in p.sent}
    assert result["moves"] <= len(sent), "a move was applied more than once"
    # Each killed server's sockets were forgotten when the next one started: at most the
    # last server's one socket per player is still counted (its close may not have run).
    assert all(len(s) <= 1 and sum(s.values()) <= 1 for s in result["sockets"]), result["sockets"]
    refused = [f["code"] for p in players for f in p.frames if f["type"] == "error"]
    assert set(refused) <= {"stale", "not_your_turn"}, refused
