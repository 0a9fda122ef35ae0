"""The systemd units of docs/deploy/, tested by starting the commands they name.

Each unit's ``ExecStart`` is read, its placeholders put to this machine (``/srv/homegame``:
this repository, its ``.venv/bin``: the Python running the tests, ``%i``: a free port,
``%S``: a temporary directory) and started with the environment its ``EnvironmentFile``
names (``homegame.env.example``, with a SQLite file for the database, a secret and loopback
hosts; the Redis of ``REDIS_URL`` when it is set, else none: embedded mode). Nothing else of
the caller's environment reaches it, as under systemd. Without ``REDIS_URL`` the worker and
beat, which meet through Redis, are skipped; the web process runs either way.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.tables.servers import BASE_DIR, free_port, migrate, server_env, stop, wait_for_port

UNITS = BASE_DIR / "docs" / "deploy"
SITE = "/srv/homegame"
VENV_BIN = Path(sys.executable).parent
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
needs_redis = pytest.mark.skipif(
    not REDIS_URL,
    reason="the worker and beat meet through Redis (distributed mode): set REDIS_URL",
)


def unit_service(name: str) -> dict[str, list[str]]:
    """The ``[Service]`` section of ``docs/deploy/<name>``: each key's values, in order."""
    section = ""
    service: dict[str, list[str]] = {}
    for raw in (UNITS / name).read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line
            continue
        if section == "[Service]":
            key, _, value = line.partition("=")
            service.setdefault(key.strip(), []).append(value.strip())
    return service


def env_file_read(path: Path) -> dict[str, str]:
    values = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            values[key.strip()] = value.strip()
    return values


def unit_commands(name: str, port: int = 0, state: Path | None = None) -> list[list[str]]:
    """The unit's ``ExecStart`` commands with its placeholders put to this machine."""
    commands = []
    for line in unit_service(name)["ExecStart"]:
        line = line.replace(f"{SITE}/.venv/bin/", f"{VENV_BIN}/").replace(SITE, str(BASE_DIR))
        line = line.replace("%i", str(port)).replace("%S", str(state or ""))
        assert "%" not in line, f"a placeholder this test does not know: {line}"
        commands.append(shlex.split(line))
    return commands


def unit_env(name: str, database: Path, redis_url: str | None = REDIS_URL) -> dict[str, str]:
    """The environment ``name`` runs with: its EnvironmentFile (the example, made local)."""
    service = unit_service(name)
    assert service["EnvironmentFile"] == ["/etc/homegame/homegame.env"]
    assert service["WorkingDirectory"] == [SITE]
    env = env_file_read(UNITS / "homegame.env.example")
    env.update(
        {
            "DATABASE_URL": f"sqlite:///{database}",
            "SECRET_KEY": os.urandom(16).hex(),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "LOG_LEVEL": "WARNING",
        }
    )
    if redis_url:
        env["REDIS_URL"] = redis_url
    else:
        env.pop("REDIS_URL")
    for line in service.get("Environment", []):
        for pair in shlex.split(line):
            key, _, value = pair.partition("=")
            env[key] = value
    # What systemd gives every service, and no more of this process's environment.
    env.update({"PATH": os.environ["PATH"], "LANG": "C.UTF-8", "HOME": str(database.parent)})
    return env


def start(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with open(log, "ab") as out:
        return subprocess.Popen(
            command,
            cwd=BASE_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def health(port: int, query: str = "") -> tuple[int, dict[str, Any]]:
    """``/health/`` as the proxy asks for it: over plain HTTP, saying the visitor's was TLS."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/health/{query}", headers={"X-Forwarded-Proto": "https"}
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file the migrate unit's own command has run on, with the unit's environment.
    The file comes migrated already (the suite's template, ``tests.tables.servers``): the
    unit's command must then start, read it and find nothing left to apply, where migrating
    an empty file again cost 20 s of a shared core. Its other command, collectstatic, is
    not run: it writes into this repository's staticfiles/, which the suite's other servers
    serve."""
    database = tmp_path_factory.mktemp("deploy") / "db.sqlite3"
    migrate(server_env(DATABASE_URL=f"sqlite:///{database}"))
    commands = unit_commands("homegame-migrate.service")
    assert [command[2:] for command in commands] == [
        ["migrate", "--noinput"],
        ["collectstatic", "--noinput"],
    ]
    env = unit_env("homegame-migrate.service", database)
    result = subprocess.run(commands[0], cwd=BASE_DIR, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No migrations to apply." in result.stdout, result.stdout
    return database


@pytest.fixture
def database(migrated: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "db.sqlite3"
    copy.write_bytes(migrated.read_bytes())
    return copy


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        stop(process)


def web_start(database: Path, log: Path, started: list[subprocess.Popen[bytes]], **env: str) -> int:
    port = free_port()
    [command] = unit_commands("homegame-web@.service", port=port)
    process = start(command, {**unit_env("homegame-web@.service", database), **env}, log)
    started.append(process)
    wait_for_port(port, process, timeout=30)
    return port


def test_the_units_name_the_commands_of_the_procfile() -> None:
    """The units run what the Procfile (and the README's distributed mode) run; only the
    address, the port and beat's schedule file differ."""
    lines = (BASE_DIR / "Procfile").read_text().splitlines()
    procfile = dict(line.split(": ", 1) for line in lines if line and not line.startswith("#"))

    def words(command: list[str] | str) -> list[str]:
        argv = shlex.split(command) if isinstance(command, str) else command
        argv = [Path(argv[0]).name, *argv[1:]]
        for option in ("--host", "--port", "--schedule"):
            if option in argv:
                at = argv.index(option)
                del argv[at : at + 2]
        return argv

    assert words(unit_commands("homegame-web@.service", port=8001)[0]) == words(procfile["web"])
    assert words(unit_commands("homegame-worker.service")[0]) == words(procfile["worker"])
    assert words(unit_commands("homegame-beat.service")[0]) == words(procfile["beat"])
    readme = (BASE_DIR / "README.md").read_text()
    for process in ("worker", "beat"):
        assert f".venv/bin/{procfile[process]}" in readme


def test_the_environment_file_names_only_what_the_settings_read() -> None:
    settings = (BASE_DIR / "config" / "settings.py").read_text()
    for name in env_file_read(UNITS / "homegame.env.example"):
        assert re.search(rf"""["']{name}["']""", settings), f"settings.py never reads {name}"


def test_the_web_unit_serves_the_site_and_its_health(
    database: Path, tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    port = web_start(database, tmp_path / "web.log", processes)
    status, report = health(port, "?check=database&check=channel_layer&check=broker")
    assert status == 200, (report, (tmp_path / "web.log").read_text())
    expected = "RedisPubSubChannelLayer" if REDIS_URL else "InMemoryChannelLayer"
    assert report["checks"]["channel_layer"]["backend"] == expected
    assert report["checks"]["broker"]["transport"] == ("redis" if REDIS_URL else "memory")


def test_the_web_unit_ends_on_sigterm_with_requests_in_flight(
    database: Path, tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    """Stopped as systemd stops it (SIGTERM, then SIGKILL after ``TimeoutStopSec``) while
    pages are being asked for, it ends on its own, at once. Daphne run directly did not
    (this test failed 5 runs of 5, on SQLite and on PostgreSQL and Redis): a request thread
    was left waiting on the stopped event loop, and the interpreter waits for it at exit;
    ``manage.py serve`` ends its process once daphne has stopped."""
    assert unit_service("homegame-web@.service")["TimeoutStopSec"] == ["15"]
    port = web_start(database, tmp_path / "web.log", processes)
    answered = threading.Event()
    stopping = threading.Event()

    def ask() -> None:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/", headers={"X-Forwarded-Proto": "https"}
        )
        while not stopping.is_set():
            try:
                with urllib.request.urlopen(request, timeout=15) as response:
                    response.read()
            except OSError:
                return  # the server went away
            answered.set()

    askers = [threading.Thread(target=ask, daemon=True) for _ in range(4)]
    for asker in askers:
        asker.start()
    assert answered.wait(30), (tmp_path / "web.log").read_text()
    time.sleep(0.3)  # pages in flight all along
    [process] = processes
    ended = stop(process)
    stopping.set()
    assert ended, "the web process did not end within 10 s of SIGTERM"
    assert process.returncode == 0, (tmp_path / "web.log").read_text()


def test_the_web_unit_says_503_at_once_when_redis_is_down(
    database: Path, tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    closed = f"redis://127.0.0.1:{free_port()}/0"
    port = web_start(database, tmp_path / "web.log", processes, REDIS_URL=closed)
    health(port, "?check=database")  # the first request loads the views
    status, report = health(port)
    assert status == 503
    assert {"channel_layer", "broker"} <= set(report["failing"])
    # Each check says the connection was refused: none waited for the time limit.
    for check in ("channel_layer", "broker"):
        assert "no answer within" not in report["checks"][check]["error"], report
    assert report["checks"]["database"]["ok"] is True


@needs_redis
def test_the_worker_and_beat_units_run_the_heartbeat(
    database: Path, tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    """Web, worker and beat together: /health/ turns 200 once beat has ticked and the
    worker has run the heartbeat it sent."""
    port = web_start(database, tmp_path / "web.log", processes)
    (tmp_path / "homegame").mkdir()  # StateDirectory=homegame, made by systemd
    for name in ("homegame-worker.service", "homegame-beat.service"):
        [command] = unit_commands(name, state=tmp_path)
        processes.append(start(command, unit_env(name, database), tmp_path / f"{name}.log"))
    deadline = time.monotonic() + 40
    status, report = health(port)
    while status != 200 and time.monotonic() < deadline:
        for process in processes:
            assert process.poll() is None, f"{process.args} exited with {process.returncode}"
        time.sleep(0.5)
        status, report = health(port)
    logs = "\n".join(path.read_text() for path in sorted(tmp_path.glob("*.log")))
    assert status == 200, f"{report}\n{logs}"
    assert report["checks"]["worker"]["hostname"]
    # Beat's schedule went to its state directory (shelve may add a suffix).
    assert list((tmp_path / "homegame").glob("celerybeat-schedule*"))
