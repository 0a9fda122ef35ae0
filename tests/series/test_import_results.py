"""Importing a series' past from CSV (``series.services.imports``, ``manage.py import_results``)
and the site's CSV files being safe to open in a spreadsheet (``core.csv_safe``)."""

from __future__ import annotations

import csv
import io
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.utils import timezone

from series import exports
from series.models import Event, Player, Result, Season, Standing
from series.services import imports
from series.services.imports import (
    IMPORT_MAX_BYTES,
    ResultsImportError,
    results_import_apply,
    results_import_preview,
)
from series.services.standings import standings_recompute
from series.standings_export import standings_csv
from tests.series.season_fixture import build_season

pytestmark = pytest.mark.django_db

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "past-results.csv"
HEADER = "date,event,player,place,buy_in,rebuys,addons,knockouts,prize\n"


def csv_of(*lines: str, header: str = HEADER) -> bytes:
    return (header + "".join(line + "\n" for line in lines)).encode()


def problems_of(data: bytes | Any, **kwargs: Any) -> list[str]:
    kwargs.setdefault("season_name", "Past")
    return [str(problem) for problem in results_import_preview(data, **kwargs).problems]


def refused(data: bytes, **kwargs: Any) -> list[str]:
    """The problems of ``data``, after checking the import writes nothing."""
    kwargs.setdefault("season_name", "Past")
    before = (Season.objects.count(), Event.objects.count(), Player.objects.count())
    results = Result.objects.count()
    with pytest.raises(ResultsImportError) as error:
        results_import_apply(data, **kwargs)
    after = (Season.objects.count(), Event.objects.count(), Player.objects.count())
    assert before == after and Result.objects.count() == results
    return [str(problem) for problem in error.value.problems]


@pytest.fixture
def scheduled(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    monkeypatch.setattr(imports, "standings_schedule", calls.append)
    return calls


@pytest.fixture
def season() -> Season:
    return Season.objects.create(
        name="Omaha 2024", starts_on=date(2024, 9, 1), ends_on=date(2024, 12, 31)
    )


# -- the example file, into a new season -----------------------------------------------------


def test_the_example_file_makes_a_season_its_events_players_and_results(
    scheduled: list[int],
) -> None:
    data = EXAMPLE.read_bytes()
    plan = results_import_preview(data, season_name="Omaha 2024")
    assert plan.valid and plan.season is None
    assert [(e.day, e.name, e.new_results) for e in plan.events] == [
        (date(2024, 9, 12), "Opening night PLO8", 5),
        (date(2024, 9, 26), "Limit O8", 4),
        (date(2024, 10, 10), "Big O night", 4),
    ]
    assert [p.name for p in plan.people] == ["Ann", "Élodie", "Ben", "Cal", "Dee"]
    assert not Season.objects.exists()  # the preview writes nothing

    outcome = results_import_apply(data, season_name="Omaha 2024")
    season = outcome.season
    assert (season.name, season.starts_on, season.ends_on) == (
        "Omaha 2024",
        date(2024, 9, 12),
        date(2024, 10, 10),
    )
    assert (outcome.events_created, outcome.players_created, outcome.results_created) == (3, 5, 13)
    assert scheduled == [season.pk]
    opening = Event.objects.get(name="Opening night PLO8")
    assert (opening.buy_in, opening.fee, opening.counts) == (20, 5, True)
    assert opening.finished_at is not None
    assert timezone.localtime(opening.starts_at).time() == imports.DEFAULT_START
    elodie = Result.objects.get(event=opening, player__name="Élodie")
    # No paid_in column: each entry's buy-in and fee, a rebuy or add-on at the buy-in.
    assert (elodie.place, elodie.prize, elodie.addons, elodie.paid_in) == (2, 55, 1, 45)
    assert Player.objects.get(name="Élodie").is_guest


def test_importing_the_same_file_twice_changes_nothing(scheduled: list[int]) -> None:
    data = EXAMPLE.read_bytes()
    first = results_import_apply(data, season_name="Omaha 2024")
    rows = list(Result.objects.values_list("pk", "event_id", "player_id", "place", "prize"))
    again = results_import_apply(data, season_name="Omaha 2024")
    assert again.season == first.season
    assert (again.events_created, again.players_created, again.results_created) == (0, 0, 0)
    assert again.unchanged == 13
    assert list(Result.objects.values_list("pk", "event_id", "player_id", "place", "prize")) == rows
    assert Season.objects.count() == 1 and Player.objects.count() == 5
    assert results_import_preview(data, season_id=first.season.pk).changes_nothing
    assert scheduled == [first.season.pk]  # nothing new: no recompute either


def test_the_standings_follow_after_the_commit(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.SERIES_STANDINGS_INLINE = True
    with django_capture_on_commit_callbacks(execute=True):
        outcome = results_import_apply(EXAMPLE.read_bytes(), season_name="Omaha 2024")
    standings = Standing.objects.filter(season=outcome.season).order_by("rank", "player__name")
    assert [s.player.name for s in standings][:2] == ["Ann", "Ben"]
    assert standings.count() == 5


# -- players matched by name -----------------------------------------------------------------


def test_a_name_matches_a_player_of_the_site_accents_and_case_aside(scheduled: list[int]) -> None:
    user = User.objects.create_user("elodie")
    elodie = Player.objects.create(name="Elodie", user=user)
    plan = results_import_preview(EXAMPLE.read_bytes(), season_name="Omaha 2024")
    person = next(p for p in plan.people if p.name == "Élodie")
    assert person.candidates == [elodie] and person.choice == elodie
    results_import_apply(EXAMPLE.read_bytes(), season_name="Omaha 2024")
    assert Result.objects.filter(player=elodie).count() == 2
    assert not Player.objects.filter(name="Élodie").exists()


def key_of(name: str, data: bytes, **kwargs: Any) -> str:
    """The key the preview offers for ``name``, which the director's choices are keyed by."""
    kwargs.setdefault("season_name", "Past")
    plan = results_import_preview(data, **kwargs)
    return next(person.key for person in plan.people if person.name == name)


def test_the_director_may_make_a_known_name_a_new_guest(scheduled: list[int]) -> None:
    ann = Player.objects.create(name="Ann")
    key = key_of("Ann", EXAMPLE.read_bytes(), season_name="Omaha 2024")
    results_import_apply(EXAMPLE.read_bytes(), season_name="Omaha 2024", choices={key: None})
    assert not Result.objects.filter(player=ann).exists()
    assert Player.objects.filter(name="Ann").count() == 2


def test_a_tampered_player_choice_is_refused(scheduled: list[int]) -> None:
    Player.objects.create(name="Ann")
    stranger = Player.objects.create(name="Zed")
    key = key_of("Ann", EXAMPLE.read_bytes())
    problems = refused(EXAMPLE.read_bytes(), choices={key: stranger.pk})
    assert problems == ["Ann: the player chosen is not one of those offered."]


def test_spellings_of_one_name_in_the_file_are_one_player(scheduled: list[int]) -> None:
    data = csv_of("2024-09-12,Night,Zoé,1,20,0,0,0,40", "2024-09-19,Night,ZOE,1,20,0,0,0,40")
    outcome = results_import_apply(data, season_name="Past")
    assert outcome.players_created == 1
    assert Result.objects.filter(player__name="Zoé").count() == 2


# -- existing events -------------------------------------------------------------------------


def test_an_existing_event_is_found_by_its_date_and_name(
    season: Season, scheduled: list[int]
) -> None:
    tz = timezone.get_current_timezone()
    event = Event.objects.create(
        season=season,
        name="Opening Night PLO8",
        starts_at=datetime(2024, 9, 12, 19, 30, tzinfo=tz),
        buy_in=20,
        fee=5,
    )
    outcome = results_import_apply(EXAMPLE.read_bytes(), season_id=season.pk)
    assert outcome.events_created == 2
    assert event.results.count() == 5
    event.refresh_from_db()
    assert event.finished_at is not None


def test_a_result_that_differs_from_the_sites_is_refused_with_its_line(
    scheduled: list[int],
) -> None:
    season = results_import_apply(EXAMPLE.read_bytes(), season_name="Omaha 2024").season
    changed = EXAMPLE.read_text(encoding="utf-8").replace(
        "2024-09-26,Limit O8,Ann,2,30,5,0,0,1,40", "2024-09-26,Limit O8,Ann,2,30,5,0,0,1,45"
    )
    problems = refused(changed.encode(), season_id=season.pk)
    assert problems == [
        "Line 8: Ann's result in Limit O8 differs from the site's: prize 40 on the site, "
        "45 in the file."
    ]


def test_a_new_player_in_an_event_that_has_its_results_is_refused(
    scheduled: list[int],
) -> None:
    season = results_import_apply(EXAMPLE.read_bytes(), season_name="Omaha 2024").season
    problems = refused(csv_of("2024-10-10,Big O night,Kim,5,50,0,0,0,0"), season_id=season.pk)
    assert len(problems) == 1
    assert problems[0].startswith("Line 2, column player: Big O night already has its results")


def test_only_existing_events_refuses_an_unknown_event(season: Season) -> None:
    problems = refused(EXAMPLE.read_bytes(), season_id=season.pk, existing_events_only=True)
    assert len(problems) == 3
    assert problems[0].startswith(
        "Line 2, column event: no event “Opening night PLO8” on 2024-09-12 in Omaha 2024"
    )


def test_an_events_buy_in_on_the_site_is_not_changed_by_the_file(season: Season) -> None:
    Event.objects.create(
        season=season,
        name="Limit O8",
        starts_at=datetime(2024, 9, 26, 20, tzinfo=timezone.get_current_timezone()),
        buy_in=25,
        fee=5,
    )
    problems = refused(EXAMPLE.read_bytes(), season_id=season.pk)
    assert problems == ["Line 7, column buy_in: 30, but Limit O8 has 25 on the site."]


# -- bad files ---------------------------------------------------------------------------------


def test_a_wrong_header_is_refused() -> None:
    problems = refused(b"when,event,name,place\n2024-09-12,Night,Ann,1\n")
    columns = ", ".join(imports.COLUMNS)
    assert problems == [  # in the order of the line, then the column
        "Line 1, column date: the column is missing: it is required.",
        f"Line 1, column name: unknown column “name”. The columns are: {columns}. Map it "
        "to one of them, or ignore it.",
        "Line 1, column player: the column is missing: it is required.",
        f"Line 1, column when: unknown column “when”. The columns are: {columns}. Map it "
        "to one of them, or ignore it.",
    ]
    assert refused(b"") == ["The file is empty."]
    assert refused(HEADER.encode()) == ["The file has a header but no results."]


def test_bad_cells_are_refused_with_their_line_and_column() -> None:
    problems = refused(
        csv_of(
            "2024-02-30,Night,Ann,1,20,0,0,0,40",
            "2024-09-12,Night,,2,20,0,0,0,0",
            "2024-09-12,Night,Ben,two,20,0,0,0,0",
            "2024-09-12,Night,Cal,3,20,-1,0,0,0",
            "2024-09-12,Night,Dee,4,20,0,0,0,99999999999999",
            "2024-09-12,Night,Eve,5,2000000,0,0,0,0",
            "2024-09-12,Night,Fay,6,20,0,0",
        )
    )
    assert problems == [
        "Line 2, column date: “2024-02-30” is not a date: write it as 2025-03-14 "
        "(or 2025-03-14 20:00).",
        "Line 3, column player: the name is empty.",
        "Line 4, column place: “two” is not a whole number.",
        "Line 5, column rebuys: -1 is negative: amounts and counts are 0 or more.",
        "Line 6, column prize: 99999999999999 is too large: at most 100,000,000.",
        "Line 7, column buy_in: 2000000 is too large: at most 1,000,000.",
        "Line 8: 7 cells, but the header has 9 columns.",
    ]


def test_a_place_outside_the_field_is_refused() -> None:
    problems = refused(
        csv_of("2024-09-12,Night,Ann,1,20,0,0,0,40", "2024-09-12,Night,Ben,3,20,0,0,0,0")
    )
    assert problems == [
        "Line 3, column place: place 3 is outside the field: Night has 2 players in the file, "
        "so the places run from 1 to 2."
    ]
    assert refused(csv_of("2024-09-12,Night,Ann,0,20,0,0,0,40")) == [
        "Line 2, column place: places start at 1."
    ]


def test_tied_places_follow_the_sites_ranking() -> None:
    # Two 2nds, then 4th, as on the corrections page: a tie is the same place twice.
    good = csv_of(
        "2024-09-12,Night,Ann,1,20,0,0,0,40",
        "2024-09-12,Night,Ben,2,20,0,0,0,0",
        "2024-09-12,Night,Cal,2,20,0,0,0,0",
        "2024-09-12,Night,Dee,4,20,0,0,0,0",
    )
    assert problems_of(good) == []
    two_seconds_then_third = good.replace(b"Dee,4", b"Dee,3")
    assert problems_of(two_seconds_then_third) == [
        "Line 5, column place: place 3 follows a shared place in Night: players sharing a "
        "place make the next place skip, so it is 4."
    ]
    two_winners_then_second = good.replace(b"Ben,2", b"Ben,1")
    assert problems_of(two_winners_then_second) == [
        "Line 4, column place: place 2 follows a shared place in Night: players sharing a "
        "place make the next place skip, so it is 3."
    ]
    assert problems_of(good.replace(b"Dee,4", b"Ann,4")) == [
        "Line 5, column player: Ann is on line 2 already: one result per player and event."
    ]


def test_an_events_columns_must_agree_on_every_row() -> None:
    problems = refused(
        csv_of("2024-09-12,Night,Ann,1,20,0,0,0,40", "2024-09-12,Night,Ben,2,30,0,0,0,0")
    )
    assert problems == ["Line 3, column buy_in: 30, but 20 on line 2 for the same event."]


def test_text_that_is_not_utf8_is_refused_and_a_bom_is_accepted(scheduled: list[int]) -> None:
    latin1 = csv_of("2024-09-12,Night,Ann,1,20,0,0,0,40").decode().replace("Ann", "Zoé")
    # Neither UTF-8 nor Windows-1252 (0x81 is no character of it).
    assert refused(latin1.encode("latin-1").replace(b"Zo", b"Z\x81o")) == [
        "Line 2: the file is neither UTF-8 nor Windows-1252 text. Save it as “CSV UTF-8” (in a "
        "spreadsheet) or as UTF-8 (in a text editor)."
    ]
    outcome = results_import_apply(b"\xef\xbb\xbf" + latin1.encode(), season_name="Past")
    assert outcome.results_created == 1 and Player.objects.get().name == "Zoé"


def test_a_nul_character_is_refused() -> None:
    assert refused(csv_of("2024-09-12,Night,A\x00nn,1,20,0,0,0,40")) == [
        "Line 2: the file holds a NUL character: it is not a CSV file."
    ]


class Endless(io.RawIOBase):
    """A stream of ``size`` bytes of CSV made up as they are read: nothing of it is held in
    memory or written to disk, and ``read`` says how much was asked for."""

    def __init__(self, size: int) -> None:
        self.size, self.sent = size, 0
        self.line = b"2024-09-12,Night,Ann,1,20,0,0,0,40\n"

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        count = min(len(buffer), self.size - self.sent)
        chunk = (self.line * (count // len(self.line) + 1))[:count]
        buffer[:count] = chunk
        self.sent += count
        return count


def test_a_file_over_the_size_limit_is_refused_without_reading_it_all() -> None:
    stream = io.BufferedReader(Endless(50 * 1024 * 1024))
    assert problems_of(stream) == ["The file is larger than 2 MB: split it into seasons."]
    assert stream.raw.sent <= IMPORT_MAX_BYTES + 1 + io.DEFAULT_BUFFER_SIZE  # type: ignore[attr-defined]


# -- the site's own export, moved to another site ---------------------------------------------


def _standings(season: Season) -> list[tuple[Any, ...]]:
    return sorted(
        (s.player.name, s.rank, s.points, s.events, s.wins, s.best_finish, s.cashes, s.net)
        for s in Standing.objects.filter(season=season).select_related("player")
    )


def test_a_season_exported_and_imported_into_an_empty_site_has_the_same_standings(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    season = build_season(events=8, players=12, seed=5)
    standings_recompute(season.pk)
    before = _standings(season)
    assert before and Event.objects.filter(season=season, counts=False).exists()
    exported = exports.season_results_csv(season)
    # The empty site: nothing of the season, its tournaments, players or accounts is left.
    Season.objects.all().delete()
    Player.objects.all().delete()
    User.objects.all().delete()

    settings.SERIES_STANDINGS_INLINE = True
    with django_capture_on_commit_callbacks(execute=True):
        outcome = results_import_apply(exported.encode(), season_name="Moved")
    assert _standings(outcome.season) == before
    assert exports.season_results_csv(outcome.season) == exported


def test_the_event_export_keeps_its_old_columns_first_and_adds_the_events() -> None:
    season = build_season(events=3, players=6, seed=2)
    event = season.events.filter(finished_at__isnull=False).first()
    rows = list(csv.reader(io.StringIO(exports.event_results_csv(event))))
    assert rows[0][:11] == [
        "place",
        "player",
        "prize",
        "bounties",
        "knockouts",
        "rebuys",
        "addons",
        "reentries",
        "paid_in",
        "points",
        "net",
    ]
    assert rows[0][11:] == [
        "date",
        "event",
        "buy_in",
        "fee",
        "counts",
        "points_only",
        "game_name",
    ]
    assert rows[1][11:13] == [
        timezone.localtime(event.starts_at).strftime("%Y-%m-%d %H:%M"),
        event.name,
    ]


# -- CSV safe to open --------------------------------------------------------------------------

FORMULA = '=HYPERLINK("http://x","y")'


def test_a_formula_for_a_name_is_text_in_the_results_and_standings_csv(
    scheduled: list[int],
) -> None:
    data = csv_of(
        f'2024-09-12,Night,"{FORMULA.replace(chr(34), chr(34) * 2)}",1,20,0,0,0,10',
        "2024-09-12,Night,Ann,2,20,0,0,0,0",
    )
    season = results_import_apply(data, season_name="Past").season
    assert Player.objects.filter(name=FORMULA).exists()
    standings_recompute(season.pk)
    event = season.events.get()

    results = list(csv.reader(io.StringIO(exports.event_results_csv(event))))
    by_place = {row[0]: row for row in results[1:]}
    assert by_place["1"][1] == "'" + FORMULA
    # Numbers stay numbers: Ann's net of -20 is not guarded.
    assert by_place["2"][10] == "-20"
    standings = list(csv.reader(io.StringIO(standings_csv(season))))
    assert {row[1] for row in standings[1:]} == {"'" + FORMULA, "Ann"}

    # And the guard comes off on import: the file moves to another site as it was.
    plan = results_import_preview(exports.season_results_csv(season).encode(), season_name="X")
    assert {person.name for person in plan.people} == {FORMULA, "Ann"}


def test_every_text_cell_that_starts_a_formula_is_guarded() -> None:
    from core import csv_safe

    out = io.StringIO()
    csv_safe.writer(out, lineterminator="\n").writerow(
        ["=1", "+1", "-1", "@SUM(A1)", "\tx", "ok", -5, 3]
    )
    assert next(csv.reader(io.StringIO(out.getvalue()))) == [
        "'=1",
        "'+1",
        "'-1",
        "'@SUM(A1)",
        "'\tx",
        "ok",
        "-5",
        "3",
    ]
    assert csv_safe.cell("\rx") == "'\rx"
    assert csv_safe.unguard("'=1") == "=1" and csv_safe.unguard("'quoted") == "'quoted"


# -- the command -------------------------------------------------------------------------------


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("import_results", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_the_command_dry_run_writes_nothing_then_imports(scheduled: list[int]) -> None:
    out, _err = run(str(EXAMPLE), "--season-name", "Omaha 2024", "--dry-run")
    assert "Event 2024-09-12 Opening night PLO8 (new): 5 new result(s)" in out
    assert "Player Élodie: new guest" in out and "Dry run: nothing written." in out
    assert not Season.objects.exists()
    out, _err = run(str(EXAMPLE), "--season-name", "Omaha 2024")
    season = Season.objects.get()
    assert f"Imported into Omaha 2024 (id {season.pk}): 3 new event(s)" in out
    assert Standing.objects.filter(season=season).count() == 5  # recomputed by the command
    out, _err = run(str(EXAMPLE), "--season", str(season.pk))
    assert "0 new result(s), 13 already there." in out


def test_the_command_refuses_a_bad_file_and_says_each_problem(
    tmp_path: Path, season: Season
) -> None:
    path = tmp_path / "bad.csv"
    path.write_bytes(csv_of("2024-09-12,Night,Ann,9,20,0,0,0,40"))
    err = io.StringIO()
    with pytest.raises(CommandError, match="the file has 1 problem"):
        call_command("import_results", str(path), "--season", str(season.pk), stderr=err)
    assert "Line 2, column place: place 9 is outside the field" in err.getvalue()
    assert not Event.objects.exists()
    err = io.StringIO()
    with pytest.raises(CommandError, match="the file has 1 problem"):
        call_command("import_results", str(path), "--season", "999", stderr=err)
    assert "No season with id 999." in err.getvalue()
    with pytest.raises(CommandError, match="Cannot read"):
        run(str(tmp_path / "missing.csv"), "--season", str(season.pk))


def test_the_command_makes_a_new_guest_when_asked(scheduled: list[int]) -> None:
    ann = Player.objects.create(name="Ann")
    run(str(EXAMPLE), "--season-name", "Omaha 2024", "--new-guest", "ann")
    assert not ann.results.exists()


def test_dates_may_carry_a_time(scheduled: list[int]) -> None:
    data = csv_of("2024-09-12 19:15,Night,Ann,1,20,0,0,0,40")
    results_import_apply(data, season_name="Past")
    starts = timezone.localtime(Event.objects.get().starts_at)
    assert (starts.date(), starts.hour, starts.minute) == (date(2024, 9, 12), 19, 15)
    assert Event.objects.get().finished_at - Event.objects.get().starts_at == timedelta(0)
