"""Recomputing a season's standings: time and SQL queries, for 50 and 25 events.

    .venv/bin/python benchmarks/standings.py                 # SQLite file, fresh
    DATABASE_URL=postgres://... .venv/bin/python benchmarks/standings.py --runs 30

Builds a season of EVENTS events and PLAYERS players in a fresh database (Django's test
database: a new SQLite file, or ``test_<name>`` on the server DATABASE_URL names, dropped at
the end), each event a field of 20 to 60 of the players with places, prizes, knockouts,
rebuys and add-ons. Then it recomputes the standings (``standings_recompute``) RUNS times and
prints the median and the slowest wall time, the median CPU time of this process (the
Python side; the database server's work is in the wall time only), and the number of SQL
queries of one run
(``django.test.utils.CaptureQueriesContext``), after a first run that scores every result
(reported apart: it writes every result's points, later runs write none). The same for half
as many events, to show the query count does not grow with them. Last, the task's real
work: the recompute just after the season's last event finished (its results not yet
scored, the chart without it), median of RUNS. The goal: under
200 ms for 50 events and 200 players.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def build(events: int, players: int, seed: int) -> int:
    """A season with ``events`` finished events among ``players`` players; its id."""
    from series.models import Event, Player, Result, Season

    rng = random.Random(seed)
    season = Season.objects.create(
        name=f"Benchmark {events}x{players}",
        starts_on=date(2026, 1, 1),
        ends_on=date(2026, 12, 31),
        best_of=events * 2 // 3,
        min_events=3,
    )
    people = Player.objects.bulk_create(
        Player(name=f"Player {index:03d}") for index in range(players)
    )
    first = datetime(2026, 1, 1, 19, 30, tzinfo=UTC)
    rows = []
    for number in range(1, events + 1):
        event = Event.objects.create(
            season=season,
            name=f"Event {number}",
            number=number,
            starts_at=first + timedelta(days=7 * number),
            buy_in=rng.choice((20, 30, 50)),
            fee=5,
            counts=number % 17 != 0,
            points_only=number % 11 == 0,
            finished_at=first + timedelta(days=7 * number, hours=4),
        )
        field = rng.sample(people, rng.randint(20, 60))
        for place, player in enumerate(field, start=1):
            rows.append(
                Result(
                    event=event,
                    player=player,
                    place=place,
                    prize=max(0, 400 - 100 * place),
                    knockouts=rng.choice((0, 0, 1, 2)),
                    rebuys=rng.choice((0, 0, 1)),
                    addons=rng.choice((0, 1)),
                    paid_in=event.buy_in + event.fee,
                )
            )
    Result.objects.bulk_create(rows, batch_size=500)
    return season.pk


def measure(season_id: int, runs: int) -> dict[str, float]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from series.services.standings import standings_recompute

    with CaptureQueriesContext(connection) as first:
        started = time.perf_counter()
        standings_recompute(season_id)
        first_ms = (time.perf_counter() - started) * 1000
    times = []
    cpu = []
    queries = 0
    for _ in range(runs):
        with CaptureQueriesContext(connection) as captured:
            started, started_cpu = time.perf_counter(), time.process_time()
            standings_recompute(season_id)
            times.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
        queries = len(captured.captured_queries)
    # The task's real work: the season's last event has just finished, so its results have
    # no points and the chart has no points for it yet.
    from series.models import Event, Result, StandingPoint

    last = Event.objects.filter(season_id=season_id).order_by("-starts_at").first()
    after_event = []
    after_queries = 0
    for _ in range(runs):
        Result.objects.filter(event=last).update(points=0)
        StandingPoint.objects.filter(event=last).delete()
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            standings_recompute(season_id)
            after_event.append((time.perf_counter() - started) * 1000)
        after_queries = len(captured.captured_queries)
    return {
        "event_ms": statistics.median(after_event),
        "event_queries": after_queries,
        "first_ms": first_ms,
        "first_queries": len(first.captured_queries),
        "median_ms": statistics.median(times),
        "cpu_ms": statistics.median(cpu),
        "max_ms": max(times),
        "queries": queries,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=50)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()

    import django

    tmp = tempfile.TemporaryDirectory()
    if "DATABASE_URL" not in os.environ:
        os.environ["DATABASE_URL"] = f"sqlite:///{Path(tmp.name) / 'unused.sqlite3'}"
    django.setup()
    from django.db import connection

    if connection.vendor == "sqlite":
        # A file, as the site uses, rather than the test runner's in-memory database.
        connection.settings_dict["TEST"]["NAME"] = str(Path(tmp.name) / "bench.sqlite3")
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        print(
            f"database: {connection.vendor} ({Path(name).name}), {args.players} players, "
            f"{args.runs} runs"
        )
        print(
            f"{'events':>6} {'results':>7} {'first ms':>9} {'first q':>7} "
            f"{'median ms':>9} {'cpu ms':>6} {'max ms':>7} {'queries':>7} "
            f"{'new event ms':>12} {'queries':>7}"
        )
        from series.models import Result

        for events in (args.events, args.events // 2):
            season_id = build(events, args.players, args.seed + events)
            results = Result.objects.filter(event__season_id=season_id).count()
            row = measure(season_id, args.runs)
            print(
                f"{events:>6} {results:>7} {row['first_ms']:>9.1f} {row['first_queries']:>7} "
                f"{row['median_ms']:>9.1f} {row['cpu_ms']:>6.1f} {row['max_ms']:>7.1f} "
                f"{row['queries']:>7} {row['event_ms']:>12.1f} {row['event_queries']:>7}"
            )
        print(f"load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)
        tmp.cleanup()


if __name__ == "__main__":
    main()
