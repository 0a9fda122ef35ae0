"""Importing a league's past from The Tournament Director's saves: real nights of two Swedish
leagues (``tests/series/data/td``), what each becomes, the untidy files, TD's points formula,
and the round trip TD -> the site -> our CSV -> an empty site -> the same standings."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from series import exports
from series.formula import Formula, FormulaError
from series.models import Event, Player, Result, Season, Standing
from series.services import imports
from series.services.import_sources import import_source_read
from series.services.imports import results_import_apply, results_import_preview
from series.services.standings import standings_recompute
from series.td_formula import td_formula_translate
from series.td_nights import td_night
from series.tdt import tdt_read
from tournaments.imported_levels import IMPORTED
from tournaments.models import BlindStructure

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parent / "data" / "td"
SAVES = sorted(DATA.glob("*.tdt*"))


@pytest.fixture(autouse=True)
def scheduled(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    monkeypatch.setattr(imports, "standings_schedule", calls.append)
    return calls


def files(*names: str) -> list[tuple[str, bytes]]:
    return [(name, (DATA / name).read_bytes()) for name in names]


def night(name: str) -> Any:
    return td_night(tdt_read((DATA / name).read_bytes()), name)


# Read by hand from the files (each player's GameBuyin, GameAddOn, the bust-outs'
# HitmanUUID, the prizes' AwardedToPlayers and CalculatedAmount): players who bought in,
# the buy-in to the pool and the fee (a buy-in's rake), then some players' place, rebuys,
# add-ons, knockouts, prize and what they paid in.
NIGHTS = {
    "ORF_Poker_20180106-Årsfinal.tdt": (
        11, 500, 0,
        [("Bosse", 1, 0, 0, 4, 5000, 500), ("Marcus H", 2, 0, 0, 3, 3000, 500),
         ("Peter S", 7, 1, 0, 2, 0, 1000)],
    ),
    "ORF_Poker_20180426.tdt": (
        12, 200, 20, [("Marcus H", 1, 0, 0, 3, 1200, 220), ("Peter S", 2, 0, 0, 3, 800, 220)],
    ),
    "ORF_Poker_20190523.tdt": (
        12, 200, 20,
        [("Bosse", 1, 0, 0, 3, 1300, 220), ("Marcus H", 2, 1, 0, 2, 800, 420),
         ("Erik S", 7, 1, 0, 3, 0, 420)],
    ),
    "Koffsta_invitational_20190721.tdt": (
        5, 180, 20, [("Jörgen E", 1, 0, 0, 4, 600, 200), ("Fredrik Y", 2, 0, 0, 0, 300, 200)],
    ),
    "ORF_Poker_20191107.tdt": (
        15, 200, 20,
        [("Afram", 1, 0, 0, 6, 1780, 220), ("Fredrik Y", 2, 0, 0, 2, 1000, 220),
         ("William A-å", 6, 1, 0, 2, 0, 420)],
    ),
    # Two players still in, no chop, no prize awarded: they share 1st place.
    "Koffsta_Invitational_20200808.tdt": (
        6, 180, 20, [("John", 1, 0, 0, 0, 0, 200), ("Fredrik Y", 1, 0, 0, 3, 0, 200)],
    ),
    "ORF_Poker_20220915.tdt": (
        8, 30, 20, [("Fredrik Y", 1, 0, 1, 1, 1300, 100), ("Hans KH", 2, 6, 0, 3, 800, 600)],
    ),
    "ORF_Poker_20230715-Halvårsfinal.tdt": (
        10, 400, 0,
        [("Gabriel C", 1, 1, 1, 7, 5000, 1000), ("Fredrik Y", 2, 1, 1, 4, 3000, 1000),
         ("Planting", 8, 2, 1, 1, 0, 1400)],
    ),
    "ORF_Poker_20250116.tdt": (
        15, 200, 0,
        [("Hank", 1, 0, 0, 6, 2200, 200), ("Mikael C", 2, 0, 0, 2, 1400, 200),
         ("John", 9, 1, 0, 1, 0, 400)],
    ),
    "ORF_Poker_20250313.tdt": (
        12, 100, 0,
        [("Hans KH", 1, 0, 1, 3, 2000, 200), ("Erik S", 2, 3, 1, 4, 1300, 500),
         ("Linus L", 9, 5, 1, 1, 0, 700)],
    ),
    # Three busted at the same moment share 2nd place and the 2nd and 3rd prizes.
    "Koffsta_20250823.tdt": (
        8, 200, 0,
        [("Linus L", 1, 0, 0, 6, 1200, 200), ("John", 2, 0, 0, 1, 400, 200),
         ("Bosse", 2, 0, 0, 3, 400, 200), ("Planting", 2, 0, 0, 1, 400, 200),
         ("PeterBus", 5, 1, 0, 0, 0, 400)],
    ),
    # The autosave of 22:28 has the night half played: the final save is read.
    "ORF_Poker_20190523.tdt.20190523-222817": (
        12, 200, 20, [("Bosse", 1, 0, 0, 3, 1300, 220)],
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(NIGHTS))
def test_a_night_as_read_by_hand(name: str) -> None:
    players, buy_in, fee, expected = NIGHTS[name]
    source = import_source_read(files(name, "ORF_Poker_20190523.tdt"))
    read = next(n for n in source.nights if n.source == name or n.title in name.replace("_", " "))
    if name.endswith("222817"):
        assert read.source == "ORF_Poker_20190523.tdt"
        assert "the later save, ORF_Poker_20190523.tdt, is read" in source.notes[0]
    assert (len(read.results), read.buy_in, read.fee) == (players, buy_in, fee)
    by_name = {r.name: r for r in read.results}
    for who, place, rebuys, addons, knockouts, prize, paid_in in expected:
        r = by_name[who]
        assert (r.place, r.rebuys, r.addons, r.knockouts, r.prize, r.paid_in) == (
            place, rebuys, addons, knockouts, prize, paid_in,
        ), who  # fmt: skip
    # TD's places are a ranking: the next place skips after a shared one.
    places = sorted(r.place for r in read.results)
    assert places[0] == 1
    for index, place in enumerate(places):
        assert place in (places[index - 1] if index else 1, index + 1)


def test_what_the_nights_say() -> None:
    assert "share 1st place" in " ".join(night("Koffsta_Invitational_20200808.tdt").notes)
    notes = night("Koffsta_Invitational_20200808.tdt").notes
    assert any("“1st Place” (900) was awarded to nobody" in note for note in notes)
    assert any("not the pool (1080): imported as paid" in note for note in notes)
    notes = night("ORF_Poker_20190523.tdt").notes
    assert any("Marcus H: TD's points adjustment of -50" in note for note in notes)
    sample = night("sample.tdt")
    assert sample.skipped and "no date" in sample.skipped
    alone = [str(p) for p in import_source_read(files("sample.tdt")).problems]
    assert alone == [
        "No night of these saves can be imported.",
        "sample.tdt: the save has no date, neither a start nor one in its title.",
    ]
    read = night("ORF_Poker_20250116.tdt")
    assert read.game_name == "Texas Hold 'Em" and read.season_label == "ORF 2025"
    assert read.levels[0] == {
        "kind": "level", "minutes": 20, "small_blind": 25, "big_blind": 50, "ante": 0,
    }  # fmt: skip
    assert {"kind": "break", "minutes": 5} in read.levels


def test_every_kept_save_imports_and_a_second_import_changes_nothing(
    scheduled: list[int],
) -> None:
    source = import_source_read([(p.name, p.read_bytes()) for p in SAVES])
    assert not source.problems
    assert len(source.nights) == 11 and [n.source for n in source.skipped] == ["sample.tdt"]
    plan = results_import_preview(source.text, season_name="ORF and Koffsta")
    assert plan.valid and plan.new_events == 11
    outcome = results_import_apply(source.text, season_name="ORF and Koffsta")
    assert outcome.events_created == 11 and outcome.results_created == 114
    hank = Result.objects.get(player__name="Hank", event__name="ORF Poker 20250116")
    assert (hank.place, hank.knockouts, hank.prize, hank.paid_in) == (1, 6, 2200, 200)
    event = hank.event
    assert (event.name, event.buy_in, event.fee) == ("ORF Poker 20250116", 200, 0)
    # A night of another game keeps TD's name for it, shown where the site's game would be.
    assert (event.game_name, event.game_label, event.notes) == ("Texas Hold 'Em",) * 2 + ("",)
    again = results_import_preview(source.text, season_name="ORF and Koffsta")
    assert again.changes_nothing and again.unchanged == 114


def test_the_command_reads_a_folder_and_a_zip(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match="problem"):
        call_command("import_results", str(DATA), "--dry-run", stdout=out, stderr=err)
    assert "several seasons" in err.getvalue()
    archive = tmp_path / "orf-2025.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as written:
        for name in ("ORF_Poker_20250116.tdt", "ORF_Poker_20250313.tdt"):
            written.write(DATA / name, f"2025/{name}")
    out = io.StringIO()
    call_command("import_results", str(archive), "--dry-run", stdout=out, stderr=err)
    text = out.getvalue()
    assert "Season: ORF 2025 (new)" in text and "Dry run: nothing written." in text
    assert "Night 2025-01-16 ORF Poker 20250116" in text and "Texas Hold 'Em" in text
    assert "TD's points formula:" in text and "totalBuyInsAmount" in text
    assert not Event.objects.exists()
    call_command("import_results", str(archive), stdout=out, stderr=err)
    season = Season.objects.get(name="ORF 2025")
    assert season.events.count() == 2 and Standing.objects.filter(season=season).exists()
    out = io.StringIO()
    call_command("import_results", str(archive), stdout=out, stderr=err)
    assert "0 new result(s), 27 already there" in out.getvalue()


def test_files_that_are_not_saves_are_refused_with_their_name(tmp_path: Path) -> None:
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as written:
        written.writestr("a.tdt", b" " * (9 * 1024 * 1024))
    problems = [str(p) for p in import_source_read([("big.zip", bomb.getvalue())]).problems]
    assert problems and "big.zip expands to more than" in problems[0]
    problems = [str(p) for p in import_source_read([("x.zip", b"PK\x03\x04junk")]).problems]
    assert "x.zip: not a readable .zip file." in problems
    problems = [str(p) for p in import_source_read([("n.tdt", b"{ V: 1 }")]).problems]
    assert problems[0].startswith("n.tdt: The file is not a TD save")
    mixed = files("ORF_Poker_20250116.tdt") + [("past.csv", b"date,event,player,place\n")]
    assert "not past.csv with them" in str(import_source_read(mixed).problems[0])


def test_the_round_trip_td_site_csv_empty_site_same_standings() -> None:
    source = import_source_read(files("ORF_Poker_20250116.tdt", "ORF_Poker_20250313.tdt"))
    first = results_import_apply(source.text, season_name="ORF 2025").season
    standings_recompute(first.pk)
    before = list(
        Standing.objects.filter(season=first)
        .order_by("rank", "player__name")
        .values_list("rank", "player__name", "points", "knockouts", "net")
    )
    exported = exports.season_results_csv(first)
    Result.objects.all().delete()
    Event.objects.all().delete()
    Season.objects.all().delete()
    Player.objects.all().delete()
    second = results_import_apply(exported.encode(), season_name="ORF 2025").season
    standings_recompute(second.pk)
    after = list(
        Standing.objects.filter(season=second)
        .order_by("rank", "player__name")
        .values_list("rank", "player__name", "points", "knockouts", "net")
    )
    assert before and after == before
    # The game's own name goes through the site's CSV too.
    assert set(Event.objects.values_list("game_name", flat=True)) == {"Texas Hold 'Em"}


def test_td_formulas_in_the_season_language() -> None:
    assert td_formula_translate("round(10 * sqrt(n) / sqrt(r)) + numberOfHits * 10").formula == (
        "round(10 * sqrt(n) / sqrt(k)) + knockouts * 10"
    )
    said = td_formula_translate(
        'assign("t", Floor(n / 3))\nIF (r <= t, assign("points", pow(2, t - r + 1)), '
        'assign("points", 0))'
    ).formula
    formula = Formula.parse(said)
    assert formula.evaluate({"n": 9, "k": 1}) == 8 and formula.evaluate({"n": 9, "k": 4}) == 0
    assert td_formula_translate("log(n)").formula == "ln(n)"
    orf = night("ORF_Poker_20250116.tdt").formula
    assert "totalBuyInsAmount" in td_formula_translate(orf).reason
    assert "random()" in td_formula_translate("random() * n").reason
    assert "“%”" in td_formula_translate("n % 2").reason
    long = "\n".join(f'assign("a", a + a + {i})' for i in range(40))
    assert td_formula_translate('assign("a", n)\n' + long).reason


def test_the_formula_language_has_pow_floor_ceil() -> None:
    assert Formula.parse("pow(2, 10)").evaluate({}) == 1024
    assert Formula.parse("floor(7 / 2) + ceil(0.2)").evaluate({}) == 4
    with pytest.raises(FormulaError, match="exponent"):
        Formula.parse("pow(10, 400)").evaluate({})


@pytest.mark.skipif(not os.environ.get("TD_SAVES"), reason="TD_SAVES names no full copy")
def test_every_save_of_a_full_copy_reads() -> None:
    paths = [p for p in Path(os.environ["TD_SAVES"]).rglob("*") if ".tdt" in p.name]
    for path in paths:
        source = import_source_read([(path.name, path.read_bytes())])
        # A night is imported, or skipped with its reason (TD's sample never started).
        assert not source.problems or source.skipped, path
        if source.nights:
            assert results_import_preview(source.text, season_name="All").valid, path


def test_the_page_takes_a_zip_of_saves(director_client: Any) -> None:
    import html
    import re

    from django.core.files.uploadedfile import SimpleUploadedFile

    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as written:
        for name in ("ORF_Poker_20250116.tdt", "ORF_Poker_20250313.tdt"):
            written.write(DATA / name, name)
    upload = SimpleUploadedFile("orf.zip", archive.getvalue(), "application/zip")
    response = director_client.post("/series/import/", {"file": upload, "season_name": ""})
    page = response.content.decode()
    assert response.status_code == 200, page
    assert "The Tournament Director's nights" in page
    assert "ORF Poker 20250116" in page and "Texas Hold &#x27;Em" in page
    assert "not the pool (4400): imported as paid" in page
    assert "TD's points formula:" in page and "totalBuyInsAmount" in page
    assert "Into a new season, <strong>ORF 2025</strong>" in page
    found = re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', page, re.S)
    sent = {k: html.unescape(v) for k, v in found if k != "csrfmiddlewaretoken"}
    response = director_client.post("/series/import/confirm/", sent)
    assert response.status_code == 302
    season = Season.objects.get(name="ORF 2025")
    assert Result.objects.filter(event__season=season).count() == 27
    # The two nights' levels came along, each as a blind structure (or the same one).
    assert BlindStructure.objects.filter(description=IMPORTED).exists()
    # A tampered levels field is refused whole: nothing is imported.
    Season.objects.all().delete()
    for bad in ('{"x": [{"kind": "level", "minutes": "20"}]}', "[1]", "{not json"):
        response = director_client.post("/series/import/confirm/", {**sent, "levels": bad})
        assert response.status_code == 400
    assert not Season.objects.exists()


def test_a_nights_levels_become_a_blind_structure_once(scheduled: list[int]) -> None:
    """TD's levels and breaks are kept as a structure named after the night; a night on
    the same levels shares it; a second import makes none."""
    from series.td_nights import td_levels_of

    names = ("ORF_Poker_20250116.tdt", "ORF_Poker_20250313.tdt")
    source = import_source_read([(name, (DATA / name).read_bytes()) for name in names])
    levels = td_levels_of(source.nights)
    assert len(levels) == 2
    outcome = results_import_apply(source.text, season_name="ORF", levels=levels)
    assert len(outcome.kept) == 2
    made = list(BlindStructure.objects.filter(description=IMPORTED))
    assert 1 <= len(made) <= 2
    night = source.nights[0]
    blind_structure = (
        next(s for s in made if s.name.startswith(night.title)) if len(made) == 2 else made[0]
    )
    rows = list(blind_structure.levels.order_by("position"))
    assert len(rows) == len(night.levels)
    for row, level in zip(rows, night.levels, strict=True):
        assert row.kind == level["kind"] and row.minutes == level["minutes"]
        if level["kind"] == "level":
            assert (row.small_blind, row.big_blind, row.ante) == (
                level["small_blind"],
                level["big_blind"],
                level["ante"],
            )
    again = results_import_apply(source.text, season_name="ORF", levels=levels)
    assert again.kept == [] and BlindStructure.objects.filter(description=IMPORTED).count() == len(
        made
    )


def test_the_page_takes_several_saves_at_once(director_client: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    uploads = [
        SimpleUploadedFile(name, (DATA / name).read_bytes(), "application/octet-stream")
        for name in ("ORF_Poker_20190523.tdt", "ORF_Poker_20190523.tdt.20190523-222817")
    ]
    response = director_client.post("/series/import/", {"file": uploads, "season_name": "S"})
    page = response.content.decode()
    assert response.status_code == 200
    assert "the later save, ORF_Poker_20190523.tdt, is read" in page
    assert page.count("ORF Poker 20190523 (ORF_Poker_20190523.tdt)") == 1


def test_one_title_and_day_under_several_td_tournaments() -> None:
    """TD holds a night under two tournament ids with the same title and day: the save
    never started is an earlier state of the night that did (left out); two that started
    at different times are two tournaments of that day, each its own event."""
    data = (DATA / "ORF_Poker_20250116.tdt").read_bytes()
    first_id = b"9663b965-25aa-4fee-865c-041292164b23"
    assert data.count(first_id) == 1
    copy = data.replace(first_id, b"11111111-2222-4333-8444-555555555555")
    night = import_source_read([("a.tdt", data)]).nights[0]
    assert night.starts_at is not None
    # The same start: the later save alone.
    source = import_source_read([("a.tdt", data), ("b copy.tdt", copy)])
    assert not source.problems and len(source.nights) == 1
    assert results_import_preview(source.text, season_name="ORF").valid
    # A copy that started two hours later: a second tournament of the day.
    stamp = str(int(night.starts_at.timestamp() * 1000)).encode()
    later = str(int(night.starts_at.timestamp() * 1000) + 2 * 3600 * 1000).encode()
    assert copy.count(stamp) >= 1
    second = copy.replace(stamp, later)
    source = import_source_read([("a.tdt", data), ("b II.tdt", second)])
    assert sorted(n.title for n in source.nights) == [
        "ORF Poker 20250116",
        "ORF Poker 20250116 (2)",
    ]
    assert any("started at different times" in note for note in source.notes)
    plan = results_import_preview(source.text, season_name="ORF")
    assert plan.valid and plan.new_events == 2


def test_an_ante_above_the_small_blind_is_a_big_blind_ante() -> None:
    """TD keeps one ante per level and no kind: an ante as large as the big blind is the
    big-blind ante card rooms play (one ante, posted by the big blind), not an ante from
    every player of twice the small blind; a smaller one is every player's."""
    from tournaments.imported_levels import td_levels_keep

    levels = [
        {"kind": "level", "minutes": 20, "small_blind": 100, "big_blind": 200, "ante": 25},
        {"kind": "break", "minutes": 10},
        {"kind": "level", "minutes": 20, "small_blind": 200, "big_blind": 400, "ante": 400},
    ]
    said = td_levels_keep("Friday", levels, by=None)
    assert said == "The levels of “Friday” are the blind structure “Friday”."
    blind_structure = BlindStructure.objects.get(description=IMPORTED)
    rows = [(r.ante_kind, r.ante) for r in blind_structure.levels.order_by("position")]
    assert rows == [("each", 25), ("none", 0), ("big-blind", 400)]
