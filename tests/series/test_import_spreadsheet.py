"""The host's own spreadsheet: their columns mapped to ours, their dates, amounts,
separators and encodings, and .xlsx files."""

from __future__ import annotations

import io
from datetime import date, datetime
from typing import Any

import openpyxl
import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from series.models import Event, Result
from series.services import imports
from series.services.import_sources import import_source_read
from series.services.imports import results_import_apply, results_import_preview

pytestmark = pytest.mark.django_db

FRENCH = (
    "Date;Soirée;Joueur;Place;Cave;Gains;Commentaire\n"
    "12/09/2025;Ouverture;Ann;1;20,00 €;1 105 €;belle main\n"
    "12/09/2025;Ouverture;Élodie;2;20,00 €;55 €;\n"
    "26/09/2025 19:30;Deuxième;Ann;2;20 €;0;\n"
    "26/09/2025 19:30;Deuxième;Cal;1;20 €;80;\n"
)
MAPPING = {
    "Date": "date",
    "Soirée": "event",
    "Joueur": "player",
    "Place": "place",
    "Cave": "buy_in",
    "Gains": "prize",
    "Commentaire": "ignore",
}


@pytest.fixture(autouse=True)
def scheduled(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    monkeypatch.setattr(imports, "standings_schedule", calls.append)
    return calls


def problems(text: str, **kwargs: Any) -> list[str]:
    kwargs.setdefault("season_name", "Past")
    return [str(p) for p in results_import_preview(text, **kwargs).problems]


def test_a_french_sheet_mapped_imports_in_windows_1252() -> None:
    data = FRENCH.encode("cp1252")
    source = import_source_read([("saison.csv", data)])
    assert not source.problems
    outcome = results_import_apply(source.text, season_name="2025", mapping=MAPPING)
    assert outcome.results_created == 4
    ann = Result.objects.get(player__name="Ann", event__name="Ouverture")
    assert (ann.prize, ann.event.buy_in) == (1105, 20)
    late = Event.objects.get(name="Deuxième")
    assert timezone.localtime(late.starts_at).strftime("%Y-%m-%d %H:%M") == "2025-09-26 19:30"
    # The same file again changes nothing.
    assert results_import_preview(source.text, season_name="2025", mapping=MAPPING).unchanged == 4


def test_unmapped_columns_are_named() -> None:
    found = problems(FRENCH)
    assert any("unknown column “joueur”" in p and "Map it" in p for p in found)


def test_dates_that_read_two_ways_are_asked() -> None:
    text = "date,event,player,place\n03/04/2025,Night,Ann,1\n05/06/2025,Other,Ann,1\n"
    plan = results_import_preview(text, season_name="Past")
    assert plan.ask_date_order
    assert "03/04/2025 day/month or month/day" in str(plan.problems[0])
    plan = results_import_preview(text, season_name="Past", date_order="mdy")
    assert plan.valid and plan.events[0].day == date(2025, 3, 4)
    plan = results_import_preview(text, season_name="Past", date_order="dmy")
    assert plan.events[0].day == date(2025, 4, 3)
    # A day above 12 says it: 09/13/2025 is month first.
    text = "date\tevent\tplayer\tplace\n09/13/2025\tNight\tAnn\t1\n09/12/2025\tO\tAnn\t1\n"
    plan = results_import_preview(text, season_name="Past")
    assert plan.valid and [e.day for e in plan.events] == [date(2025, 9, 13), date(2025, 9, 12)]


@pytest.mark.parametrize(
    "typed, value",
    [
        ("1,234", 1234),
        ("1.234,00", 1234),
        ("1 234 €", 1234),
        ("$1,234.00", 1234),
        ("CHF 20.-".replace(".-", ""), 20),
        ("20,00", 20),
        ("€ 5", 5),
        ("12 kr", 12),
    ],
)
def test_amounts_as_people_type_them(typed: str, value: int) -> None:
    text = f'date,event,player,place,prize\n2025-09-12,Night,Ann,1,"{typed}"\n'
    plan = results_import_preview(text, season_name="Past")
    assert plan.valid, plan.problems
    assert plan.events[0].rows[0].values["prize"] == value


def test_an_amount_with_cents_is_refused() -> None:
    text = 'date,event,player,place,prize\n2025-09-12,Night,Ann,1,"12,50"\n'
    assert problems(text) == ["Line 2, column prize: “12,50” is not a whole number."]


def test_an_xlsx_sheet_is_read_as_values(tmp_path: Any) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Date", "Soirée", "Joueur", "Place", "Gains"])
    sheet.append([datetime(2025, 9, 12, 20, 0), "Ouverture", "Ann", 1, 105.0])
    sheet.append([datetime(2025, 9, 12, 20, 0), "Ouverture", '=HYPERLINK("x")', 2, "=1+1"])
    buffer = io.BytesIO()
    book.save(buffer)
    source = import_source_read([("saison.xlsx", buffer.getvalue())])
    assert not source.problems
    lines = source.text.splitlines()
    assert lines[1] == "2025-09-12 20:00,Ouverture,Ann,1,105"
    # A formula is never run: with no value computed by a spreadsheet, the cell is empty.
    assert lines[2].endswith(",2,") or lines[2].endswith(",2")
    refused = import_source_read([("x.xlsx", b"PK\x03\x04 not a sheet")]).problems
    assert "x.xlsx: not a readable .xlsx file." in [str(p) for p in refused]


def test_the_command_takes_the_mapping_and_the_date_order(tmp_path: Any) -> None:
    path = tmp_path / "saison.csv"
    path.write_bytes(FRENCH.replace("26/09", "01/09").replace("12/09", "02/09").encode())
    columns = [f"--column={theirs}={ours}" for theirs, ours in MAPPING.items()]
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_results", str(path), "--season-name", "S", *columns,
                     "--dry-run", stdout=out, stderr=err)  # fmt: skip
    assert "day/month or month/day" in err.getvalue()
    call_command("import_results", str(path), "--season-name", "S", *columns, "--dates=dmy",
                 stdout=out, stderr=err)  # fmt: skip
    assert Event.objects.get(name="Ouverture").starts_at.date() == date(2025, 9, 2)
    with pytest.raises(CommandError, match="THEIRS=OURS"):
        call_command("import_results", str(path), "--season-name", "S", "--column=Joueur=who")


def test_the_page_maps_the_columns_asks_the_dates_and_remembers(director_client: Any) -> None:
    import html
    import re

    from django.core.files.uploadedfile import SimpleUploadedFile

    def fields(page: str) -> dict[str, str]:
        found = re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', page, re.S)
        return {k: html.unescape(v) for k, v in found if k != "csrfmiddlewaretoken"}

    # Every date reads both ways: the page asks.
    text = FRENCH.replace("26/09", "01/09").replace("12/09", "02/09")
    upload = SimpleUploadedFile("saison.csv", text.encode("cp1252"), "text/csv")
    page = director_client.post("/series/import/", {"file": upload, "season_name": "2025"})
    body = page.content.decode()
    assert page.status_code == 200 and "Your columns" in body and "Joueur" in body
    assert "Ann" in body and "1 105 €" in body  # the first values, under their column
    sent = fields(body)
    assert sent["step"] == "map"
    choices = {f"column_{i}": ours for i, ours in enumerate(MAPPING.values())}
    page = director_client.post("/series/import/", {**sent, **choices})
    assert page.status_code == 400 and "read both ways" in page.content.decode()
    page = director_client.post("/series/import/", {**sent, **choices, "date_order": "dmy"})
    body = page.content.decode()
    assert page.status_code == 200 and "Dry run: what the import does" in body
    response = director_client.post("/series/import/confirm/", fields(body))
    assert response.status_code == 302
    assert Event.objects.get(name="Ouverture").starts_at.date() == date(2025, 9, 2)
    # The same header next time: remembered, straight to the dry run.
    upload = SimpleUploadedFile("saison.csv", FRENCH.encode(), "text/csv")
    body = director_client.post(
        "/series/import/", {"file": upload, "season_name": "2026"}
    ).content.decode()
    assert "Dry run: what the import does" in body and "Your columns" not in body
