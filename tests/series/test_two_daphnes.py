"""Distributed mode: two daphne processes deliver one broadcast to sockets on both.

Runs only with REDIS_URL and a PostgreSQL DATABASE_URL, the distributed configuration; CI
sets both. The broadcast goes to the health group through channels-redis from this test
process, as a Celery worker or another daphne would send a table's "changed" message.
"""

import json
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from websockets.sync.client import ClientConnection, connect

from series.consumers import HEALTH_GROUP

BASE_DIR = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.distributed,
    pytest.mark.skipif(
        not settings.REDIS_URL
        or not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
        reason="distributed mode needs REDIS_URL and a PostgreSQL DATABASE_URL",
    ),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"daphne on port {port} exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"daphne on port {port} did not start in {timeout}s")


@pytest.fixture
def two_daphnes() -> Iterator[list[int]]:
    env = os.environ | {"DEBUG": "1", "DJANGO_SETTINGS_MODULE": "config.settings"}
    daphne = str(Path(sys.executable).with_name("daphne"))
    ports = [free_port(), free_port()]
    processes = [
        subprocess.Popen(
            [daphne, "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
            cwd=BASE_DIR,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port in ports
    ]
    try:
        for port, process in zip(ports, processes, strict=True):
            wait_for_port(port, process)
        yield ports
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def receive(ws: ClientConnection) -> dict[str, object]:
    message = json.loads(ws.recv(timeout=10))
    assert isinstance(message, dict)
    return message


def test_one_broadcast_reaches_sockets_on_both_daphnes(two_daphnes: list[int]) -> None:
    with ExitStack() as stack:
        sockets = [
            stack.enter_context(
                connect(f"ws://127.0.0.1:{port}/ws/health/", origin=f"http://127.0.0.1:{port}")
            )
            for port in two_daphnes
        ]
        pids = {receive(ws)["pid"] for ws in sockets}
        assert len(pids) == 2, "both sockets were served by the same process"

        text = f"table 7 changed, version {uuid.uuid4().hex}"
        async_to_sync(get_channel_layer().group_send)(
            HEALTH_GROUP, {"type": "health.broadcast", "text": text}
        )
        for ws in sockets:
            # Other test processes may broadcast to the same group; wait for ours.
            while (message := receive(ws)) != {"type": "broadcast", "text": text}:
                assert message["type"] == "broadcast"
