"""The soak's short version: a small online tournament per mode played to the end through the
real servers, people and house bots, with every goal of ``make soak-tournaments`` met.

``benchmarks/soak_tournaments.py`` holds the soak (imported here: the repository's root is
on pytest's path, and the soak imports no Django at module level, so this process's test
settings and database stay out of it). Each tournament is set up on the director's pages,
filled with house bots, and played by two people over the table sockets who let their turn
clock run out once (and sit in again), take rebuys, close their socket
mid-hand, open a second tab and follow moves to other tables. Six players at tables of four:
a table breaks and the final table is drawn.

Embedded mode on a SQLite file always, Omaha Hi/Lo pot-limit with an ICM deal offered at the
end; distributed mode (two daphnes, a Celery worker and beat, a new PostgreSQL database, a
private redis-server), Omaha no-limit, when DATABASE_URL is PostgreSQL and REDIS_URL is set,
as in CI.
"""

from __future__ import annotations

import os
import shutil
from types import SimpleNamespace
from typing import Any

import pytest

from benchmarks import soak_tournaments
from benchmarks.soak_tournaments import (
    Counts,
    Options,
    Plan,
    Tournament,
    print_report,
    soak_mode,
)

# Room for a shared, busy machine: the tournaments themselves end in two or three minutes.
TOURNAMENT_SECONDS = 300.0

DISTRIBUTED = (
    os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
    and bool(os.environ.get("REDIS_URL"))
    and shutil.which("redis-server") is not None
)


def short_plan(mode: str, seed: int) -> Plan:
    """Omaha Hi/Lo pot-limit (embedded) or Omaha no-limit (distributed), six players (two people who each let their
    clock run out once), five big blinds each, the blinds doubling every one-minute level, and
    no break (the suite's minutes are dear: ``make soak-tournaments`` plays the add-on at a
    break)."""
    common = {
        "humans": 2,
        "bots": 4,
        "seats_per_table": 4,
        "starting_stack": 1000,
        "growth": 2.0,
        "time_outs": 2,
        "time_outs_each": 1,
        "deal_silence": 0.0,
        "break_every": 0,
        "think": 1.5,
        "first_small_blind": 100,
    }
    if mode == "embedded":
        return Plan(
            index=0, game="omaha-hi-lo", structure="pot-limit", deal="icm", seed=seed, **common
        )
    return Plan(index=0, game="omaha", structure="no-limit", deal=None, seed=seed, **common)


@pytest.mark.long(150)
@pytest.mark.parametrize(
    "mode",
    [
        "embedded",
        pytest.param(
            "distributed",
            marks=[
                pytest.mark.distributed,
                pytest.mark.skipif(
                    not DISTRIBUTED,
                    reason="needs a PostgreSQL DATABASE_URL, REDIS_URL and redis-server",
                ),
            ],
        ),
    ],
)
def test_a_short_tournament_ends_with_every_goal_met(mode: str) -> None:
    report = soak_mode(
        mode,
        Options(
            plans=[short_plan(mode, 20261125)],
            parallel=1,
            tournament_timeout=TOURNAMENT_SECONDS,
            next_hand_ms=500,
            # The people's clock runs out in 8 s, not 30: both of them wait it out, and the
            # suite's minutes are dear.
            turn_seconds=8,
        ),
    )

    print_report(report)  # shown with -s, and with a failure
    assert not report.soak_problems(), report.soak_problems()
    failed = [(goal, seen) for goal, met, seen in report.goals() if not met]
    assert not failed, (failed, report.details())
    assert [o.finished for o in report.outcomes] == [True]
    assert all(o.hands_started > 0 for o in report.outcomes)
    # The people played: each one's first turn ran out on the clock.
    assert sum(o.time_outs for o in report.outcomes) >= 2


# The soak's own checks, on snapshots made up here: what they flag and what they let pass.

PLAN = Plan(
    index=0,
    game="omaha",
    structure="pot-limit",
    humans=0,
    bots=2,
    seats_per_table=6,
    starting_stack=1000,
    growth=2.0,
    deal=None,
    time_outs=0,
    seed=1,
)
NOW = 1_800_000_000_000  # ms


def watched() -> Tournament:
    site = SimpleNamespace(run="r", mode="embedded", verbose=False, ports=[8000])
    tournament = Tournament(PLAN, site, Counts(), director=None)  # type: ignore[arg-type]
    tournament.outcome.entries = 2  # 2000 chips in play
    return tournament


def seat(number: int, stack: int, bet: int = 0, cards: int = 4, **more: Any) -> dict[str, Any]:
    return {
        "seat": number,
        "player": {"id": 100 + number, "name": f"p{number}"},
        "stack": stack,
        "bet": bet,
        "card_count": cards,
        "folded": False,
        "state": "playing",
        **more,
    }


def snapshot(
    version: int,
    seats: list[dict[str, Any]],
    hand: dict[str, Any] | None = None,
    *,
    now: int = NOW,
    next_hand_at: int | None = None,
) -> dict[str, Any]:
    return {
        "type": "snapshot",
        "version": version,
        "now": now,
        "table": {
            "name": "Soak r t0 omaha pot-limit, table 1",
            "next_hand_at": next_hand_at,
            "closed": False,
            "held": False,
            "small_blind": 5,
            "big_blind": 10,
        },
        "seats": seats,
        "hand": hand,
    }


def hand(number: int, pots: int, **more: Any) -> dict[str, Any]:
    return {
        "id": 500 + number,
        "number": number,
        "pots": [{"amount": pots, "eligible": [1, 2]}] if pots else [],
        "to_act": None,
        "deadline": None,
        "complete": False,
        **more,
    }


def test_a_player_seated_during_a_hand_is_not_counted_in_its_chips() -> None:
    t = watched()
    view = t.views.setdefault(1, soak_tournaments.TableView(1))
    t.seen(view, snapshot(1, [seat(1, 490, 10), seat(2, 495, 5)], hand(1, 0)))
    moved_in = seat(3, 700, cards=0)  # "playing" to the seats table, not dealt in
    t.seen(view, snapshot(2, [seat(1, 480, 0), seat(2, 480, 0), moved_in], hand(1, 40)))

    assert t.counts.chip_failures == []
    assert t.counts.hand_checks == 1


def test_chips_that_appear_during_a_hand_are_a_failure() -> None:
    t = watched()
    view = t.views.setdefault(1, soak_tournaments.TableView(1))
    t.seen(view, snapshot(1, [seat(1, 490, 10), seat(2, 495, 5)], hand(1, 0)))
    t.seen(view, snapshot(2, [seat(1, 580, 0), seat(2, 480, 0)], hand(1, 40)))

    assert len(t.counts.chip_failures) == 1
    assert "hold 1100, 1000 at the hand's start" in t.counts.chip_failures[0]


def test_a_deal_and_a_turn_past_their_time_are_measured_in_the_servers_clock() -> None:
    t = watched()
    view = t.views.setdefault(1, soak_tournaments.TableView(1))
    t.seen(view, snapshot(1, [seat(1, 1000, cards=0), seat(2, 1000, cards=0)], next_hand_at=NOW))
    t.seen(
        view,
        snapshot(
            2,
            [seat(1, 995, 5), seat(2, 990, 10)],
            hand(1, 0, to_act=1, deadline=NOW + 30_000),
            now=NOW + 12_000,
        ),
    )
    t.seen(
        view,
        snapshot(
            3,
            [seat(1, 995, 0, cards=0, folded=True), seat(2, 1005, 0)],
            hand(1, 0, complete=True),
            now=NOW + 43_500,
        ),
    )

    assert [late for late, _ in t.counts.deal_late] == [12.0]
    assert [late for late, _ in t.counts.turn_late] == [13.5]


def test_a_chip_sum_off_for_longer_than_the_settling_time_is_a_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(soak_tournaments, "SETTLE_SECONDS", -1.0)
    t = watched()
    view = t.views.setdefault(1, soak_tournaments.TableView(1))
    # 2100 at the table for 2000 in play: a rebuy the soak did not count, say.
    t.seen(view, snapshot(1, [seat(1, 1090, 10), seat(2, 995, 5)], hand(1, 0)))
    t.seen(view, snapshot(2, [seat(1, 1080, 0), seat(2, 980, 0)], hand(1, 40)))
    assert t.counts.chip_failures == []  # off twice: perhaps two passing moments
    t.seen(view, snapshot(3, [seat(1, 1060, 20), seat(2, 980, 0)], hand(1, 40)))

    assert len(t.counts.chip_failures) == 1
    assert "the tables hold 2100 chips, 2000 in play" in t.counts.chip_failures[0]


def test_a_chip_sum_that_comes_right_while_settling_is_no_failure() -> None:
    t = watched()
    first = t.views.setdefault(1, soak_tournaments.TableView(1))
    second = t.views.setdefault(2, soak_tournaments.TableView(2))
    # A player moved from table 2 to table 1: table 1's news came first.
    t.seen(second, snapshot(1, [seat(2, 1000, cards=0)]))
    t.seen(first, snapshot(1, [seat(1, 990, 10), seat(2, 995, 5)], hand(1, 0)))
    assert t.off_since is not None
    t.seen(second, snapshot(2, []))

    assert t.off_since is None
    assert t.counts.chip_failures == []
