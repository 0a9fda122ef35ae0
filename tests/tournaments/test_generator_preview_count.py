"""The generator's proposal opens with a clock preview for the field the director typed in
the generator form, not the next event's."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from series.models import Season
from tests.tournaments.factories import make_tournament
from tournaments.models import BlindStructure

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def generate(client: Client, *, players: int, stack: int, name: str = "Proposed") -> str:
    response = client.post(
        reverse("tournaments:blind_structure_new"),
        {
            "source": "generate",
            "gen-name": name,
            "gen-betting": "pot-limit",
            "gen-starting_stack": str(stack),
            "gen-players": str(players),
            "gen-hours": "4",
            "gen-chip_set": "25, 100, 500, 1000",
            "gen-level_minutes": "20",
            "gen-break_every": "4",
            "gen-break_minutes": "10",
            "gen-ante_kind": "none",
        },
    )
    assert response.status_code == 302
    return response["Location"]


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def next_event_of_forty(
    long_season: Season, home_blind_structure: BlindStructure, director: User
) -> None:
    """The next event on the calendar expects 40 players (its capacity)."""
    tournament = make_tournament(
        long_season,
        home_blind_structure,
        by=director,
        starts_in=timedelta(days=2),
        name="Big night",
    )
    tournament.capacity = 40
    tournament.save(update_fields=["capacity"])


def test_the_proposal_previews_the_players_typed_in_the_generator(
    director_client: Client, next_event_of_forty: None
) -> None:
    editor = generate(director_client, players=23, stack=5000)
    page = director_client.get(editor).content.decode()
    assert "For 23 players of 5,000 chips (115,000 in play)" in text(page)
    assert 'name="preview_players" value="23"' in page
    assert "For 40 players" not in text(page)


def test_the_typed_field_stays_while_the_director_edits(
    director_client: Client, next_event_of_forty: None
) -> None:
    editor = generate(director_client, players=23, stack=5000)
    blind_structure = BlindStructure.objects.get(name="Proposed")
    # An edit without JavaScript comes back to the editor's plain address.
    director_client.post(editor, {"op": "add-level"})
    page = director_client.get(
        reverse("tournaments:blind_structure_edit", args=[blind_structure.pk])
    )
    assert "For 23 players of 5,000 chips" in text(page.content.decode())
    rows = director_client.post(editor, {"op": "add-level"}, **HTMX).content.decode()
    assert "For 23 players of 5,000 chips" in text(rows)


def test_a_preview_asked_for_in_the_editor_still_wins(
    director_client: Client, next_event_of_forty: None
) -> None:
    editor = generate(director_client, players=23, stack=5000)
    page = director_client.get(
        editor,
        {"preview_start": "2026-04-10T19:30", "preview_players": "8", "preview_stack": "800"},
    ).content.decode()
    assert "For 8 players of 800 chips" in text(page)


def test_another_blind_structure_keeps_the_next_events_field(
    director_client: Client, next_event_of_forty: None, home_blind_structure: BlindStructure
) -> None:
    generate(director_client, players=23, stack=5000)
    page = director_client.get(
        reverse("tournaments:blind_structure_edit", args=[home_blind_structure.pk])
    )
    assert "For 40 players of 10,000 chips" in text(page.content.decode())
