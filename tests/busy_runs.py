"""The tests most likely to flake, run several times in a row on a busy machine.

A home host's laptop is doing other things: two processes spin on the cores (as many as
``--spinners``) while pytest runs the browser tests and the whole-run ones (``-m "browser or
long"`` unless other arguments follow ``--``) ``--runs`` times in a row. Each run's summary
line is printed as it ends, and the failures of all runs at the end; each run's whole output
(the failures' tracebacks, the captured logs) is kept in ``test-artifacts/busy-run-N.log``,
so that a flake seen once can be read, not only counted. The exit status is pytest's
worst. ``make flakes`` runs it.

    .venv/bin/python tests/busy_runs.py --runs 5
    .venv/bin/python tests/busy_runs.py --runs 2 -- -n 4 tests/series/test_pwa_browser.py
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPIN = "while True: pass"
LOGS = ROOT / "test-artifacts"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--spinners", type=int, default=2)
    parser.add_argument("pytest_args", nargs="*")
    options = parser.parse_args()
    args = options.pytest_args or ["-n", "4", "-m", "browser or long"]
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(options.spinners)]
    worst = 0
    failures: list[str] = []
    try:
        for run in range(1, options.runs + 1):
            began = time.monotonic()
            done = subprocess.run(
                [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=False,
            )
            LOGS.mkdir(exist_ok=True)
            log = LOGS / f"busy-run-{run}.log"
            log.write_text(done.stdout + done.stderr)
            lines = done.stdout.splitlines()
            summary = next((line for line in reversed(lines) if " in " in line), "(no summary)")
            print(
                f"run {run}: {summary.strip('= ')} ({time.monotonic() - began:.0f} s wall;"
                f" {log.relative_to(ROOT)})"
            )
            failures += [
                f"run {run}: {line}" for line in lines if line.startswith(("FAILED", "ERROR"))
            ]
            worst = max(worst, done.returncode)
            sys.stdout.flush()
    finally:
        for spinner in spinners:
            spinner.kill()
    for line in failures:
        print(line)
    return worst


if __name__ == "__main__":
    sys.exit(main())
