"""Where the test suite's time goes: the whole suite run once, its CPU counted three ways.

    python benchmarks/suite_time.py                      # pytest -n 4, the whole suite
    python benchmarks/suite_time.py -- -n 4 tests/tables # any pytest arguments after --
    python benchmarks/suite_time.py --files 60           # list more files than 25

A run of the suite on two cores keeps both busy from start to end, so its length is its CPU
divided by two: what costs CPU is what to cut. ``time make test`` misses a large part of
it: Chromium's renderers are forked by its zygote and handed to init when the browser
closes, so their CPU never reaches the shell's ``time``. This script counts:

- **the host**: the cores' busy time from ``/proc/stat`` over the run (everything, the
  host's own background work too: measure a quiet host, or read it against ``idle``, the
  same count over a few seconds before the run);
- **the pytest tree**: the CPU of pytest, its workers and every process they waited for
  (servers, ``manage.py`` commands, Playwright's driver and Chromium's browser process);
- **outside the tree**: the difference, Chromium's renderers for the most part;

and, per test (a plugin in each worker): its wall time, the CPU of its own process (the
test, the ``live_server`` thread) and of the processes it started and waited for. It
prints the totals, the share of the cores busy minute by minute, and the test files with
the most wall time; pytest's own output (a failure's traceback) is kept in
``test-artifacts/suite-time.log``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OUT = "SUITE_TIME_DIR"
# pytest's output of the last run (test-artifacts/, which git ignores).
LOG = ROOT / "test-artifacts" / "suite-time.log"


def host_busy() -> float:
    """Seconds of CPU the host's cores have been busy since boot (all but idle and iowait)."""
    with open("/proc/stat") as stat:
        ticks = [int(v) for v in stat.readline().split()[1:9]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    waited = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, waited.ru_utime + waited.ru_stime


# -- the plugin, in each worker ----------------------------------------------------------

_TESTS: list[tuple[str, float, float, float]] = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):  # type: ignore[no-untyped-def]
    own, waited = _cpu()
    start = time.perf_counter()
    yield
    own_after, waited_after = _cpu()
    _TESTS.append(
        (item.nodeid, time.perf_counter() - start, own_after - own, waited_after - waited)
    )


def pytest_sessionfinish(session: pytest.Session) -> None:
    folder = os.environ.get(OUT)
    if folder:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        Path(folder, f"{worker}.json").write_text(json.dumps(_TESTS))


# -- the run -----------------------------------------------------------------------------


def _sample(samples: list[tuple[float, float]], done: threading.Event) -> None:
    while not done.wait(5):
        samples.append((time.monotonic(), host_busy()))


def main(args: list[str]) -> int:
    ours, pytest_args = (
        (args[: args.index("--")], args[args.index("--") + 1 :])
        if "--" in args
        else (args, ["-n", "3"])
    )
    parser = argparse.ArgumentParser(
        usage="%(prog)s [--files N] [-- PYTEST ARGUMENTS]",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--files", type=int, default=25, help="how many test files to list")
    options = parser.parse_args(ours)
    folder = tempfile.mkdtemp(prefix="suite-time-")
    env = {**os.environ, OUT: folder, "PYTHONPATH": f"{ROOT / 'benchmarks'}:{ROOT}"}
    quiet_from = host_busy()
    time.sleep(5)
    idle = (host_busy() - quiet_from) / 5
    samples: list[tuple[float, float]] = [(time.monotonic(), host_busy())]
    done = threading.Event()
    threading.Thread(target=_sample, args=(samples, done), daemon=True).start()
    command = [sys.executable, "-m", "pytest", "-q", "-p", "suite_time", *pytest_args]
    result = subprocess.run(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    done.set()
    samples.append((time.monotonic(), host_busy()))
    wall = samples[-1][0] - samples[0][0]
    busy = samples[-1][1] - samples[0][1]
    _own, tree = _cpu()
    lines = result.stdout.strip().splitlines()
    # pytest's whole output is kept, so a failure seen once can be read (its traceback).
    LOG.parent.mkdir(exist_ok=True)
    LOG.write_text(result.stdout)
    # The failures first (a failed run's times are no figure to quote), then pytest's summary.
    failures = [line for line in lines if line.startswith(("FAILED", "ERROR"))]
    for line in failures:
        print(line)
    if failures:
        print(f"(their tracebacks in {LOG.relative_to(ROOT)})")
    print(lines[-1] if lines else "(no output)")

    tests: list[tuple[str, float, float, float]] = []
    for path in Path(folder).glob("*.json"):
        tests += [tuple(row) for row in json.loads(path.read_text())]  # type: ignore[misc]
    cores = os.cpu_count() or 1
    print(f"\nwall {wall:.0f} s on {cores} cores; the host busy {busy:.0f} core-s")
    print(f"  before the run, idle: {idle:.2f} cores busy (the host's own background)")
    print(f"  the pytest tree: {tree:.0f} core-s; outside it: {busy - tree:.0f} core-s")
    own = sum(t[2] for t in tests)
    waited = sum(t[3] for t in tests)
    print(f"  in the tests: {own:.0f} core-s in their own processes, {waited:.0f} in processes")
    print("  they started and waited for; the rest of the tree: start-up, collection, the")
    print("  browser and its driver (waited for when a worker ends)")

    print("\ncores busy, minute by minute:")
    start_time = samples[0][0]
    minutes: dict[int, list[float]] = defaultdict(list)
    for (t0, b0), (t1, b1) in zip(samples, samples[1:], strict=False):
        if t1 > t0:
            minutes[int((t0 - start_time) // 60)].append((b1 - b0) / (t1 - t0))
    print("  " + " ".join(f"{sum(v) / len(v):.1f}" for _m, v in sorted(minutes.items())))

    by_file: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    for nodeid, seconds, own_cpu, waited_cpu in tests:
        row = by_file[nodeid.split("::")[0]]
        row[0] += seconds
        row[1] += own_cpu
        row[2] += waited_cpu
        row[3] += 1
    print(f"\n{len(tests)} tests, {sum(t[1] for t in tests):.0f} s of test time in all; the files:")
    print(f"  {'wall s':>7} {'own cpu':>7} {'waited':>7} {'tests':>5}  file")
    for name, (seconds, own_cpu, waited_cpu, count) in sorted(
        by_file.items(), key=lambda item: -item[1][0]
    )[: options.files]:
        print(f"  {seconds:7.0f} {own_cpu:7.0f} {waited_cpu:7.0f} {int(count):5d}  {name}")
    return result.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
