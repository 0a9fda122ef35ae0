"""The director's import page: upload, the dry run shown, confirm; tampered and huge posts."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from series.models import Event, Player, Result, Season
from series.services import imports
from series.services.imports import IMPORT_MAX_BYTES

pytestmark = pytest.mark.django_db

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "past-results.csv"
URL = "/series/import/"
CONFIRM = "/series/import/confirm/"


@pytest.fixture(autouse=True)
def scheduled(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    monkeypatch.setattr(imports, "standings_schedule", calls.append)
    return calls


def upload(client: Client, data: bytes, **fields: Any) -> Any:
    fields.setdefault("season_name", "Omaha 2024")
    return client.post(URL, {"file": SimpleUploadedFile("past.csv", data, "text/csv"), **fields})


def hidden(page: str) -> dict[str, str]:
    """The confirmation form's hidden fields, as a browser would send them back."""
    import html

    found = re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', page, re.S)
    return {name: html.unescape(value) for name, value in found if name != "csrfmiddlewaretoken"}


def test_the_page_is_for_directors_and_linked_from_their_area(
    client: Client, player_client: Client, director_client: Client
) -> None:
    assert reverse("series:import_results") == URL
    assert client.get(URL).status_code == 302
    assert player_client.get(URL).status_code == 403
    assert player_client.post(CONFIRM, {}).status_code == 403
    page = director_client.get(URL)
    assert page.status_code == 200 and b'enctype="multipart/form-data"' in page.content
    assert URL in director_client.get(reverse("director_dashboard")).content.decode()


def test_upload_shows_the_dry_run_then_confirm_imports(
    director_client: Client, scheduled: list[int]
) -> None:
    Player.objects.create(name="Elodie")
    response = upload(director_client, EXAMPLE.read_bytes())
    assert response.status_code == 200
    page = response.content.decode()
    assert "Dry run: what the import does" in page
    assert "Opening night PLO8" in page and "Big O night" in page
    assert "Ann: a new guest" in page
    # Élodie is on the site as Elodie: the director chooses.
    assert "Elodie, already on the site" in page and "A new guest named Élodie" in page
    assert not Season.objects.exists() and not Result.objects.exists()

    sent = hidden(page)
    assert sent["content"] == EXAMPLE.read_text(encoding="utf-8")
    response = director_client.post(CONFIRM, {**sent, "player_1": "new"})
    season = Season.objects.get(name="Omaha 2024")
    assert response.status_code == 302
    assert response.url == reverse("series:standings", args=[season.pk])
    assert Result.objects.count() == 13 and scheduled == [season.pk]
    assert Player.objects.filter(name="Élodie").exists()  # a new guest, as chosen
    assert not Player.objects.get(name="Elodie").results.exists()

    # The same file again: the page says it changes nothing and offers no import button.
    page = upload(director_client, EXAMPLE.read_bytes(), season=str(season.pk)).content.decode()
    assert "importing it changes nothing" in page
    sent = hidden(page)
    director_client.post(CONFIRM, {**sent, "player_1": str(Player.objects.get(name="Élodie").pk)})
    assert Result.objects.count() == 13


def test_a_bad_file_shows_every_problem_and_imports_nothing(director_client: Client) -> None:
    data = (
        b"date,event,player,place\n2024-09-12,Night,Ann,1\n2024-09-12,Night,Ben,5\nx,Night,Cal,2\n"
    )
    response = upload(director_client, data)
    assert response.status_code == 400
    page = response.content.decode()
    assert "The file has 2 problems: nothing was imported." in page
    assert "Line 3, column place: place 5 is outside the field" in page
    assert "Line 4, column date: “x” is not a date" in page
    assert "Dry run" not in page and not Event.objects.exists()


def test_a_file_that_is_not_utf8_is_refused(director_client: Client) -> None:
    data = "date,event,player,place\n2024-09-12,Night,Zoé,1\n".encode("latin-1")
    page = upload(director_client, data.replace(b"Zo", b"Z\x81o")).content.decode()
    assert "Line 2: the file is neither UTF-8 nor Windows-1252 text" in page
    assert not Player.objects.exists()


def test_no_season_and_no_file_are_said(director_client: Client) -> None:
    response = director_client.post(URL, {"season_name": ""})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Choose a season, or name a new one." in page and "This field is required." in page


def test_a_file_over_the_limit_is_refused_before_it_is_read(director_client: Client) -> None:
    response = upload(director_client, b"x" * (IMPORT_MAX_BYTES + 100_000))
    assert response.status_code == 413
    assert "The file is larger than 2 MB" in response.content.decode()


def test_a_file_just_over_the_limit_is_dropped_as_it_arrives(director_client: Client) -> None:
    # Within the body's slack: the upload handler drops it rather than keeping it.
    response = upload(director_client, b"x" * (IMPORT_MAX_BYTES + 10))
    assert response.status_code == 413
    page = response.content.decode()
    assert "The file is larger than 2 MB" in page
    # One message for one fault: the dropped file is not also "required", and the
    # director's other choices are kept for the next try.
    assert "This field is required." not in page
    assert 'value="Omaha 2024"' in page


def test_a_tampered_confirmation_changes_nothing(director_client: Client) -> None:
    ann = Player.objects.create(name="Ann")
    stranger = Player.objects.create(name="Zed")
    sent = hidden(upload(director_client, EXAMPLE.read_bytes()).content.decode())
    # A player id that was not offered.
    response = director_client.post(CONFIRM, {**sent, "player_0": str(stranger.pk)})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    # The file edited in the page into a bad one.
    bad = {**sent, "content": sent["content"].replace("Ann,1,", "Ann,9,", 1)}
    response = director_client.post(CONFIRM, {**bad, "player_0": str(ann.pk)})
    assert response.status_code == 400
    assert "place 9 is outside the field" in response.content.decode()
    # Nothing at all, a NUL, a season that is not there.
    assert director_client.post(CONFIRM, {}).status_code == 400
    assert director_client.post(CONFIRM, {**sent, "content": "a\x00b"}).status_code == 400
    response = director_client.post(CONFIRM, {**sent, "season": "999999", "player_0": "new"})
    assert response.status_code == 400
    assert director_client.get(CONFIRM).status_code == 200  # the upload form
    assert not Event.objects.exists() and not Result.objects.exists()
    assert Player.objects.count() == 2


def test_a_season_results_csv_is_offered_to_directors(director_client: Client) -> None:
    upload_page = upload(director_client, EXAMPLE.read_bytes())
    director_client.post(CONFIRM, hidden(upload_page.content.decode()))
    season = Season.objects.get()
    url = reverse("series:season_results_csv", args=[season.pk])
    assert url in director_client.get(reverse("director_dashboard")).content.decode()
    response = director_client.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert response.content.decode().count("\n") == 14
