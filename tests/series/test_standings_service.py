"""Standings recomputed from the stored results: from the tournaments' signal, the same table
on every run and on two runs at once, corrections and new formulas re-scoring the season."""

import threading
import time
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection, connections
from django.utils import timezone

from series import scoring
from series.formula import FormulaError
from series.models import Event, Player, PointsFormula, Result, Season, Standing, StandingPoint
from series.services.standings import (
    event_results_remove,
    event_results_store,
    season_scoring_update,
    standings_recompute,
    standings_schedule,
)
from series.tasks import standings_recompute_task
from tests.series.season_fixture import build_season
from tournaments.models import Tournament


def snapshot(season: Season) -> tuple[list[Any], list[Any], list[Any]]:
    standings = list(
        Standing.objects.filter(season=season)
        .order_by("rank", "player_id")
        .values_list(
            "player_id",
            "rank",
            "points",
            "events",
            "wins",
            "best_finish",
            "cashes",
            "net",
            "qualified",
            "movement",
        )
    )
    points = list(
        StandingPoint.objects.filter(season=season)
        .order_by("event_id", "player_id")
        .values_list("event_id", "player_id", "points", "rank")
    )
    results = list(
        Result.objects.filter(event__season=season).order_by("pk").values_list("pk", "points")
    )
    return standings, points, results


@pytest.fixture
def season(db: None) -> Season:
    season = build_season(events=8, players=14, seed=7)
    standings_recompute(season.pk)
    return season


def results_dicts(players: list[Player], **extra: Any) -> list[dict[str, Any]]:
    return [
        {
            "player_id": player.pk,
            "player_name": player.name,
            "is_guest": player.is_guest,
            "entry_numbers": [1],
            "place": place,
            "prize": 100 if place == 1 else 0,
            "bounties": 0,
            "knockouts": 0,
            "rebuys": 0,
            "addons": 0,
            "reentries": 0,
            "paid_in": 25,
            **extra,
        }
        for place, player in enumerate(players, start=1)
    ]


def test_the_recompute_fills_the_leaderboard_from_the_results(season: Season) -> None:
    standings, points, results = snapshot(season)
    players = Result.objects.filter(event__season=season).values("player").distinct().count()
    assert len(standings) == players
    assert standings[0][1] == 1
    counted = Result.objects.filter(event__season=season, event__counts=True)
    assert all(p > 0 for p in counted.values_list("points", flat=True)) and points and results
    # The builder's director left one finished event out: its results score nothing.
    left_out = Event.objects.get(season=season, counts=False, finished_at__isnull=False)
    assert set(Result.objects.filter(event=left_out).values_list("points", flat=True)) == {0}
    assert not StandingPoint.objects.filter(event=left_out).exists()


def test_repeated_runs_give_the_same_table(season: Season) -> None:
    first = snapshot(season)
    standings_recompute(season.pk)
    standings_recompute_task.run(season.pk)
    assert snapshot(season) == first


def test_a_correction_re_scores_the_season(season: Season) -> None:
    event = Event.objects.filter(season=season, number=1).get()
    winner = Result.objects.get(event=event, place=1)
    last = Result.objects.filter(event=event).order_by("-place").first()
    assert last is not None
    before = Standing.objects.get(season=season, player=last.player).points
    # The director swaps first and last place.
    winner_place, last_place = winner.place, last.place
    Result.objects.filter(pk=winner.pk).update(place=last_place)
    Result.objects.filter(pk=last.pk).update(place=winner_place)

    standings_recompute(season.pk)

    last.refresh_from_db()
    assert Standing.objects.get(season=season, player=last.player).points > before
    assert Standing.objects.get(season=season, player=last.player).wins >= 1
    assert last.points == max(Result.objects.filter(event=event).values_list("points", flat=True))


def test_a_finished_tournaments_results_are_stored_and_re_scored(
    season: Season, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.SERIES_STANDINGS_INLINE = True
    event = Event.objects.filter(season=season, finished_at__isnull=True).first()
    assert event is not None
    tournament = Tournament.objects.get(event=event)
    players = list(Player.objects.order_by("pk")[:6])

    with django_capture_on_commit_callbacks(execute=True):
        event_results_store(tournament.pk, event.pk, results_dicts(players, paid_in=45))
    event.refresh_from_db()
    assert event.finished_at is not None
    stored = list(Result.objects.filter(event=event).order_by("place"))
    assert [r.player_id for r in stored] == [p.pk for p in players]
    assert {r.paid_in for r in stored} == {45} and stored[0].prize == 100
    assert stored[0].points > 0  # the recompute ran after commit
    assert StandingPoint.objects.filter(event=event).count() == 6

    # Finished again after an undo, with the order corrected: replaced, not added.
    with django_capture_on_commit_callbacks(execute=True):
        event_results_store(tournament.pk, event.pk, results_dicts(players[::-1]))
    assert Result.objects.filter(event=event).count() == 6
    assert Result.objects.get(event=event, place=1).player_id == players[-1].pk

    with django_capture_on_commit_callbacks(execute=True):
        event_results_remove(tournament.pk, event.pk)
    event.refresh_from_db()
    assert event.finished_at is None
    assert not Result.objects.filter(event=event).exists()
    assert not StandingPoint.objects.filter(event=event).exists()


def test_scheduling_sends_the_task_by_name_after_commit(
    season: Season, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[tuple[str, tuple[int, ...], dict[str, Any]]] = []
    from celery import current_app

    monkeypatch.setattr(
        current_app,
        "send_task",
        lambda name, args, **options: sent.append((name, args, options)),
    )
    with django_capture_on_commit_callbacks(execute=True):
        standings_schedule(season.pk)
        assert sent == []
    assert sent == [
        ("series.tasks.standings_recompute_task", (season.pk,), {"ignore_result": True})
    ]


def test_a_new_formula_re_scores_and_says_what_moved(season: Season) -> None:
    before = dict(Standing.objects.filter(season=season).values_list("player_id", "rank"))
    change = season_scoring_update(
        season,
        {"points_formula": PointsFormula.CUSTOM, "custom_formula": "knockouts * 10"},
    )
    season.refresh_from_db()
    assert season.points_formula == PointsFormula.CUSTOM
    after = dict(Standing.objects.filter(season=season).values_list("player_id", "rank"))
    moved = {m.player_name for m in change.moves if m.change}
    names = dict(Player.objects.values_list("pk", "name"))
    assert moved == {names[p] for p in after if after[p] != before.get(p)}
    assert moved  # knockouts rank players differently from places


def test_a_formula_dividing_by_zero_on_a_real_result_is_not_stored(season: Season) -> None:
    first = snapshot(season)
    with pytest.raises(FormulaError, match="division by zero at column 5"):
        season_scoring_update(
            season,
            {"points_formula": PointsFormula.CUSTOM, "custom_formula": "100 / (k - 1)"},
        )
    season.refresh_from_db()
    assert season.points_formula == PointsFormula.SQUARE_ROOT and season.custom_formula == ""
    assert snapshot(season) == first


def test_min_events_and_best_of_apply(season: Season) -> None:
    season_scoring_update(season, {"min_events": 3, "best_of": 2})
    lines = list(Standing.objects.filter(season=season).order_by("rank"))
    qualified = [s.qualified for s in lines]
    assert qualified == sorted(qualified, reverse=True)  # every qualified player first
    assert all(s.qualified == (s.events >= 3) for s in lines)


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_runs_give_the_same_table(monkeypatch: pytest.MonkeyPatch) -> None:
    if connection.vendor != "postgresql":
        pytest.skip(
            "SQLite has no row locks (select_for_update is a no-op) and one writer at a time; "
            "run with a PostgreSQL DATABASE_URL"
        )
    season = build_season(events=8, players=14, seed=11, now=timezone.now())
    standings_recompute(season.pk)
    expected = snapshot(season)
    # Stale standings; the results' points stay right, so neither run writes a result (whose
    # row locks would order the two runs by accident).
    Standing.objects.filter(season=season).update(points=Decimal(0), rank=99)
    StandingPoint.objects.filter(season=season).delete()

    # Slow the scoring down so the two runs overlap inside their transactions (without the
    # season's row lock, the second one's inserts then collide with the first one's).
    real_score = scoring.season_score

    def slow_score(*args: Any, **kwargs: Any) -> scoring.SeasonScore:
        time.sleep(0.3)
        return real_score(*args, **kwargs)

    monkeypatch.setattr(scoring, "season_score", slow_score)
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def run() -> None:
        try:
            barrier.wait(timeout=10)
            standings_recompute(season.pk)
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert snapshot(season) == expected
