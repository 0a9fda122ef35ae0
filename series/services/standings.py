"""A season's standings, recomputed whole from the stored results.

Nothing here increments a total: ``standings_recompute`` reads every ``Result`` of the
season, scores them with ``series.scoring`` and replaces the ``Standing`` and
``StandingPoint`` rows, so a second run (or a lost and redelivered task) gives the same
table. The season row is locked first, so two runs at once take turns instead of
interleaving their deletes and inserts.

The number of queries does not depend on the number of events: one read each of the season,
its events, its results and its chart points, then at most one write of each kind per table
(see ``_store``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import connection, transaction
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext as _

from series import scoring
from series.formula import Formula, FormulaError
from series.models import Event, Player, PointsFormula, Result, Season, Standing, StandingPoint

logger = logging.getLogger(__name__)

RECOMPUTE_TASK = "series.tasks.standings_recompute_task"


def season_rules(
    season: Season,
    *,
    formula: str | None = None,
    place_points: Sequence[Any] | None = None,
    custom_formula: str | None = None,
) -> scoring.Rules:
    """The season's scoring rules, or the same with some settings replaced (the preview).

    Raises FormulaError when the custom formula is chosen and cannot be read.
    """
    formula = formula or season.points_formula
    places = season.place_points if place_points is None else place_points
    text = season.custom_formula if custom_formula is None else custom_formula
    return scoring.Rules(
        formula=formula,
        place_points=tuple(Decimal(str(p)).quantize(scoring.CENT) for p in places or ()),
        custom=Formula.parse(text) if formula == PointsFormula.CUSTOM else None,
        best_of=season.best_of or None,
        min_events=season.min_events,
        min_field=season.min_field,
    )


@dataclass(frozen=True)
class SeasonResults:
    events: list[scoring.EventIn]
    names: dict[int, str]  # player id -> name
    points: dict[int, Decimal]  # result id -> the points stored now


def season_events(season_id: int) -> SeasonResults:
    """The season's events with results, in the order they were played, the players' names
    and the points stored now: two queries whatever the number of events."""
    events = list(
        Event.objects.filter(season_id=season_id)
        .order_by("starts_at", "number", "pk")
        .values_list("pk", "buy_in", "counts", "points_only")
    )
    by_event: dict[int, list[scoring.ResultIn]] = {pk: [] for pk, *_rest in events}
    names: dict[int, str] = {}
    stored: dict[int, Decimal] = {}
    rows = Result.objects.filter(event__season_id=season_id).values_list(
        "pk",
        "event_id",
        "player_id",
        "player__name",
        "place",
        "prize",
        "bounties",
        "knockouts",
        "rebuys",
        "addons",
        "paid_in",
        "points",
    )
    for row in rows:
        pk, event_id, player_id, name, place, prize, bounties, kos, rebuys, addons, paid, now = row
        names[player_id] = name
        stored[pk] = now
        by_event[event_id].append(
            scoring.ResultIn(pk, player_id, place, prize, bounties, kos, rebuys, addons, paid)
        )
    inputs = [
        scoring.EventIn(pk, buy_in, by_event[pk], counts=counts, points_only=points_only)
        for pk, buy_in, counts, points_only in events
        if by_event[pk]
    ]
    return SeasonResults(inputs, names, stored)


def standings_recompute(season_id: int) -> scoring.SeasonScore:
    """Recompute the season's standings from its stored results, in one transaction.

    Raises FormulaError (and changes nothing) when the season's own formula cannot be
    computed on one of its results.
    """
    with transaction.atomic():
        # Two runs at once serialise here; the second then reads what the first wrote.
        season = Season.objects.select_for_update().get(pk=season_id)
        data = season_events(season_id)
        score = scoring.season_score(season_rules(season), data.events, data.names)
        _store(season, data, score)
    return score


def _store(season: Season, data: SeasonResults, score: scoring.SeasonScore) -> None:
    # Only the results whose points changed are written: after an event finishes that is
    # the new event's results, and nothing at all on a repeated run.
    changed = [(points, pk) for pk, points in score.points.items() if data.points.get(pk) != points]
    _execute_many(
        f"UPDATE {_table(Result)} SET {_column(Result, 'points')} = %s "
        f"WHERE {_column(Result, 'id')} = %s",
        changed,
    )
    Standing.objects.filter(season=season).delete()
    _insert_many(
        Standing,
        (
            "season",
            "player",
            "rank",
            "points",
            "events",
            "wins",
            "best_finish",
            "cashes",
            "knockouts",
            "net",
            "qualified",
            "movement",
        ),
        [
            (
                season.pk,
                line.player_id,
                line.rank,
                line.points,
                line.events,
                line.wins,
                line.best_finish,
                line.cashes,
                line.knockouts,
                line.net,
                line.qualified,
                line.movement,
            )
            for line in score.lines
        ],
    )
    # The chart's points after an event never change when a later event is added, so only
    # the rows that differ from the new history are replaced: after an event finishes that is
    # the new event's rows, on a repeated run none. (Deleting and inserting all 2,000 rows
    # of 50 events cost PostgreSQL 35-150 ms, mostly checking their three foreign keys.)
    stored = {
        (event_id, player_id): (pk, points, rank)
        for pk, event_id, player_id, points, rank in StandingPoint.objects.filter(
            season=season
        ).values_list("pk", "event_id", "player_id", "points", "rank")
    }
    fresh = []
    for point in score.history:
        old = stored.pop((point.event_id, point.player_id), None)
        if old is not None and (old[1], old[2]) == (point.points, point.rank):
            continue
        if old is not None:
            stored[(point.event_id, point.player_id)] = old  # stale: deleted below
        fresh.append((season.pk, point.event_id, point.player_id, point.points, point.rank))
    stale = [pk for pk, _points, _rank in stored.values()]
    for start in range(0, len(stale), MAX_PARAMETERS):
        StandingPoint.objects.filter(pk__in=stale[start : start + MAX_PARAMETERS]).delete()
    _insert_many(StandingPoint, ("season", "event", "player", "points", "rank"), fresh)


# Rows are written with hand-made statements rather than Django's bulk methods, measured with
# benchmarks/standings.py (50 events, 200 players): on SQLite Django splits a bulk insert into
# statements of 999 parameters (ten of them for the chart points) and building them field by
# field took 300 of the 430 ms a recompute took; on PostgreSQL ``executemany`` of the 2,000
# chart points took 70-90 ms. One multi-row INSERT per table (split only beyond
# MAX_PARAMETERS, some 6,000 chart points) is a query count that does not grow with the
# events, and takes a few milliseconds. Results' points changed on a re-score are updated
# with one ``executemany`` (none on a repeated run).
MAX_PARAMETERS = 30_000  # under SQLite's 32,766 and PostgreSQL's 65,535


def _table(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _column(model: type[Model], field: str) -> str:
    return connection.ops.quote_name(model._meta.get_field(field).column)


def _execute_many(sql: str, rows: Sequence[Sequence[Any]]) -> None:
    if rows:
        with connection.cursor() as cursor:
            cursor.executemany(sql, rows)


def _insert_many(model: type[Model], fields: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    columns = ", ".join(_column(model, name) for name in fields)
    row_sql = "(" + ", ".join(["%s"] * len(fields)) + ")"
    per_statement = max(1, MAX_PARAMETERS // len(fields))
    with connection.cursor() as cursor:
        for start in range(0, len(rows), per_statement):
            chunk = rows[start : start + per_statement]
            cursor.execute(
                f"INSERT INTO {_table(model)} ({columns}) VALUES "
                + ", ".join([row_sql] * len(chunk)),
                [value for row in chunk for value in row],
            )


def standings_schedule(season_id: int) -> None:
    """Recompute the season's standings after the current transaction commits.

    The task lives in ``series.tasks``, above the services, so it is sent by name. With
    ``SERIES_STANDINGS_INLINE`` (the tests, the demo builder) it runs in this process
    instead, still after commit. Nothing waits for the task's result, so it is sent with
    ``ignore_result``: otherwise the sender subscribes to a result channel on the broker
    that nothing would ever read.
    """
    if getattr(settings, "SERIES_STANDINGS_INLINE", False):
        transaction.on_commit(lambda: _recompute_logged(season_id))
    else:
        transaction.on_commit(
            lambda: current_app.send_task(RECOMPUTE_TASK, (season_id,), ignore_result=True)
        )


def _recompute_logged(season_id: int) -> None:
    try:
        standings_recompute(season_id)
    except FormulaError as error:
        logger.warning("season %s: standings not recomputed: %s", season_id, error)


# What moved when the rules change ---------------------------------------------------------


@dataclass(frozen=True)
class Move:
    player_name: str
    rank_before: int | None
    rank_after: int
    points_before: Decimal | None
    points_after: Decimal

    @property
    def change(self) -> int | None:
        """Places gained (+) or lost (-)."""
        return None if self.rank_before is None else self.rank_before - self.rank_after

    @property
    def size(self) -> int:
        return abs(self.change or 0)


def standings_moves(
    before: Mapping[int, tuple[int, Decimal]],
    after: scoring.SeasonScore,
    names: Mapping[int, str],
) -> list[Move]:
    """Each player whose rank or points changed, in the new rank order."""
    moves = []
    for line in after.lines:
        old = before.get(line.player_id)
        if old is not None and old == (line.rank, line.points):
            continue
        moves.append(
            Move(
                player_name=names.get(line.player_id, ""),
                rank_before=old[0] if old else None,
                rank_after=line.rank,
                points_before=old[1] if old else None,
                points_after=line.points,
            )
        )
    return moves


@dataclass(frozen=True)
class SettingsChange:
    moves: list[Move]


def season_scoring_update(season: Season, changes: Mapping[str, Any]) -> SettingsChange:
    """Save new scoring settings and re-score the season at once, returning what moved.

    The new formula is computed on every stored result before anything is saved, so a
    formula that fails on a real result (a division by zero, say) raises FormulaError and
    the season keeps its old settings.
    """
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        before = {
            player_id: (rank, points)
            for player_id, rank, points in Standing.objects.filter(season=locked).values_list(
                "player_id", "rank", "points"
            )
        }
        for name, value in changes.items():
            setattr(locked, name, value)
        data = season_events(locked.pk)
        score = scoring.season_score(season_rules(locked), data.events, data.names)
        locked.full_clean()
        locked.save()
        _store(locked, data, score)
    return SettingsChange(standings_moves(before, score, data.names))


# Results from the tournaments ---------------------------------------------------------------

RESULT_FIELDS = ("prize", "bounties", "knockouts", "rebuys", "addons", "reentries", "paid_in")


def event_results_store(
    tournament_id: int, event_id: int, results: Sequence[Mapping[str, Any]]
) -> list[Result]:
    """Store a finished tournament's results as the event's results and re-score the season.

    A tournament finished again after an undo replaces what its first finish stored (the
    event's results are its tournament's), so the rows never add up twice.
    """
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event_id)
        Result.objects.filter(event=event).delete()
        rows = [
            Result(
                event=event,
                player_id=int(result["player_id"]),
                place=int(result["place"]),
                tournament_id=tournament_id,
                **{name: int(result.get(name) or 0) for name in RESULT_FIELDS},
            )
            for result in results
            if result.get("place") is not None
        ]
        Result.objects.bulk_create(rows)
        if event.finished_at is None:
            event.finished_at = timezone.now()
            event.save(update_fields=["finished_at"])
        standings_schedule(event.season_id)
    return rows


def event_results_remove(tournament_id: int, event_id: int) -> None:
    """A reopened tournament's results leave the event and the standings."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event_id)
        Result.objects.filter(event=event, tournament_id=tournament_id).delete()
        event.finished_at = None
        event.save(update_fields=["finished_at"])
        standings_schedule(event.season_id)


# The director's preview of new settings -------------------------------------------------------

SCORING_FIELDS = (
    "points_formula",
    "place_points",
    "custom_formula",
    "best_of",
    "min_events",
    "min_field",
)


@dataclass(frozen=True)
class EventPreview:
    name: str
    number: int | None
    entrants: int
    counts: bool
    # The points of 1st, 2nd, 3rd and last place (None where the field is smaller).
    points: list[Decimal | None]


@dataclass(frozen=True)
class Preview:
    events: list[EventPreview]
    moves: list[Move]


def formula_error_text(error: FormulaError, season: Season) -> str:
    """The error, with the event and player it failed on when it failed on a result."""
    if error.event_id is None:
        return error.message
    event = Event.objects.filter(pk=error.event_id, season=season).first()
    player = Player.objects.filter(pk=error.player_id).first()
    return _("%(event)s, %(player)s (place %(place)s): %(error)s") % {
        "event": event.name if event else "?",
        "player": player.name if player else "?",
        "place": error.place,
        "error": error.message,
    }


def standings_preview(season: Season, changes: Mapping[str, Any]) -> Preview:
    """What the season's past events would score under new settings, and who would move;
    nothing is saved. Raises FormulaError when the formula fails on a stored result."""
    proposed = Season(**{f.attname: getattr(season, f.attname) for f in Season._meta.fields})
    for name, value in changes.items():
        setattr(proposed, name, value)
    data = season_events(season.pk)
    rules = season_rules(proposed)
    score = scoring.season_score(rules, data.events, data.names)
    before = {
        player_id: (rank, points)
        for player_id, rank, points in Standing.objects.filter(season=season).values_list(
            "player_id", "rank", "points"
        )
    }
    labels = dict(
        (pk, (name, number))
        for pk, name, number in Event.objects.filter(season=season).values_list(
            "pk", "name", "number"
        )
    )
    previews = []
    for event in data.events:
        ordered = sorted(event.results, key=lambda r: (r.place, r.result_id))
        picked: list[scoring.ResultIn | None] = [*ordered[:3], *[None] * (3 - len(ordered[:3]))]
        picked.append(ordered[-1] if len(ordered) > 3 else None)
        name, number = labels[event.event_id]
        previews.append(
            EventPreview(
                name=name,
                number=number,
                entrants=len(event.results),
                counts=scoring.event_counts(rules, event),
                points=[None if r is None else score.points[r.result_id] for r in picked],
            )
        )
    return Preview(previews, standings_moves(before, score, data.names))


# Sharing ---------------------------------------------------------------------------------------


def season_standings_public_set(season_id: int, public: bool) -> None:
    """Open the season's leaderboard to other sites (its embed page) or close it again.

    One conditional UPDATE (no row written when the season already is so): the standings
    themselves are untouched, nothing is re-scored.
    """
    Season.objects.filter(pk=season_id).exclude(standings_public=public).update(
        standings_public=public
    )
