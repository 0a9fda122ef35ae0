"""``python manage.py standings --season ID --csv``: the contract other tools rely on."""

import csv
import io

import pytest
from django.core.management import CommandError, call_command

from series.models import Season, Standing
from series.services.standings import standings_recompute
from series.standings_export import standings_csv
from tests.series.season_fixture import build_season


@pytest.fixture
def season(db: None) -> Season:
    season = build_season(events=6, players=12, seed=3)
    standings_recompute(season.pk)
    return season


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("standings", *args, stdout=out)
    return out.getvalue()


def test_csv_contract(season: Season) -> None:
    text = run("--season", str(season.pk), "--csv")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["rank", "player", "points", "events", "wins", "best_finish"]
    body = rows[1:]
    standings = list(Standing.objects.filter(season=season).order_by("rank", "player__name"))
    assert len(body) == len(standings) > 0  # one row per player who played
    assert [int(r[0]) for r in body] == sorted(int(r[0]) for r in body)  # rank order
    for row, line in zip(body, standings, strict=True):
        assert row[1] == line.player.name
        assert row[2] == f"{line.points:.2f}" and len(row[2].split(".")[1]) == 2
        assert row[3:5] == [str(line.events), str(line.wins)]
        assert row[5] == ("" if line.best_finish is None else str(line.best_finish))


def test_the_command_prints_what_the_page_downloads(season: Season) -> None:
    assert run("--season", str(season.pk), "--csv") == standings_csv(season)


def test_recompute_first(season: Season) -> None:
    Standing.objects.filter(season=season).delete()
    assert run("--season", str(season.pk), "--csv").count("\n") == 1
    assert run("--season", str(season.pk), "--csv", "--recompute") == standings_csv(season)
    assert Standing.objects.filter(season=season).exists()


def test_unknown_season_is_refused(db: None) -> None:
    with pytest.raises(CommandError, match="No season with id 999"):
        run("--season", "999", "--csv")


def test_plain_listing(season: Season) -> None:
    text = run("--season", str(season.pk))
    first = Standing.objects.filter(season=season).order_by("rank").first()
    assert first is not None
    assert text.splitlines()[0] == season.name and first.player.name in text
