"""Importing 200 nights saved by The Tournament Director, against reading them alone.

    .venv/bin/python benchmarks/td_import.py                    # the kept saves, copied
    TD_SAVES=/path/to/tdtfiles .venv/bin/python benchmarks/td_import.py

The nights: with ``TD_SAVES`` naming a folder of real saves (the ``tdwpimport``
repository's ``tdtfiles``), its first NIGHTS final saves (``*.tdt``, TD's automatic saves
``*.tdt.<time>`` left out); else the saves kept with the tests (``tests/series/data/td``),
each copy given its own TD id and title so that NIGHTS distinct nights are read.

Measured, side by side, each the median of RUNS:

- ``parse``: the reader alone, ``tdt_read`` of every file's bytes (already in memory);
- ``nights``: the reader and what each night becomes (``td_night``);
- ``import``: ``manage.py import_results FOLDER --season-name ...`` into a fresh database
  (the embedded default: a SQLite file), the files read from disk, the preview made, the
  one transaction written and the standings recomputed. Each run imports into an empty
  database again.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

KEPT = Path(__file__).resolve().parents[1] / "tests" / "series" / "data" / "td"


def nights(count: int) -> list[tuple[str, bytes]]:
    folder = os.environ.get("TD_SAVES")
    if folder:
        paths = sorted(p for p in Path(folder).rglob("*.tdt") if p.is_file())
        return [(p.name, p.read_bytes()) for p in paths[:count]]
    kept = [p for p in sorted(KEPT.glob("*.tdt")) if p.name != "sample.tdt"]
    files = []
    for index in range(count):
        path = kept[index % len(kept)]
        text = path.read_bytes()
        # Its own TD id and title: a night of its own.
        text = re.sub(rb'T: new Tournament\(\{UUID: "[^"]*"', b'T: new Tournament({UUID: "'
                      + str(uuid.uuid4()).encode() + b'"', text, count=1)  # fmt: skip
        text = re.sub(rb'Title: "([^"]*)"', rb'Title: "\1 #' + str(index).encode() + b'"',
                      text, count=1)  # fmt: skip
        files.append((f"{index:03d}-{path.name}", text))
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    import django

    tmp = tempfile.TemporaryDirectory()
    if "DATABASE_URL" not in os.environ:
        os.environ["DATABASE_URL"] = f"sqlite:///{Path(tmp.name) / 'unused.sqlite3'}"
    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from series.models import Event, Player, Result, Season
    from series.td_nights import td_night
    from series.tdt import tdt_read

    files = nights(args.nights)
    folder = Path(tmp.name) / "saves"
    folder.mkdir()
    for name, data in files:
        (folder / name).write_bytes(data)
    megabytes = sum(len(data) for _name, data in files) / 1e6

    def parse() -> None:
        for _name, data in files:
            tdt_read(data)

    def read_nights() -> None:
        for name, data in files:
            td_night(tdt_read(data), name)

    if connection.vendor == "sqlite":
        connection.settings_dict["TEST"]["NAME"] = str(Path(tmp.name) / "bench.sqlite3")
    database = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    imported = [0]

    def import_all() -> None:
        Result.objects.all().delete()
        Event.objects.all().delete()
        Season.objects.all().delete()
        Player.objects.all().delete()
        out = io.StringIO()
        call_command(
            "import_results", str(folder), "--season-name", "Benchmark", stdout=out, stderr=out
        )
        imported[0] = Result.objects.count()

    try:
        timings = {}
        for label, work in (("parse", parse), ("nights", read_nights), ("import", import_all)):
            runs = []
            for _run in range(args.runs):
                started = time.perf_counter()
                work()
                runs.append(time.perf_counter() - started)
            timings[label] = statistics.median(runs)
        print(
            f"{len(files)} nights, {megabytes:.1f} MB, {imported[0]} results, "
            f"{connection.vendor}, median of {args.runs}"
        )
        print(f"{'step':<8} {'seconds':>8} {'ms/night':>9} {'x parse':>8}")
        for label, seconds in timings.items():
            print(
                f"{label:<8} {seconds:>8.2f} {seconds * 1000 / len(files):>9.1f} "
                f"{seconds / timings['parse']:>8.2f}"
            )
        print(f"load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    finally:
        connection.creation.destroy_test_db(database, verbosity=0)
        tmp.cleanup()


if __name__ == "__main__":
    main()
