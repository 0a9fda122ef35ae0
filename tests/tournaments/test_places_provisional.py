"""A place shown during the night is marked "(for now)" while it can still change: while a
player out may re-enter or a late entry may come (those out then move down), and while the
hand-for-hand hand it was lost on is in play (others out on it tie)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import seat, start
from tests.tournaments.levels import LEVEL_2, LEVEL_5
from tournaments.models import Tournament
from tournaments.services.results import entry_eliminate

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def no_tasks(settings) -> None:  # type: ignore[no-untyped-def]
    settings.TOURNAMENTS_SCHEDULE_TASKS = False


def row_of(page: str, name: str) -> str:
    start_at = page.index(f'data-name="{name}"')
    return page[start_at : page.index("</li>", start_at)]


@pytest.mark.parametrize(("level", "provisional"), [(LEVEL_2, True), (LEVEL_5, False)])
def test_a_place_is_for_now_while_the_field_may_grow(
    tournament: Tournament, director: User, director_client: Client, level: int, provisional: bool
) -> None:
    players = seat(tournament, {1: ["Ann", "Ben", "Cal", "Dee"]})
    start(tournament, level)
    entry_eliminate(tournament.pk, [players["Dee"].pk], by=director)
    page = director_client.get(
        reverse("tournaments:console", args=[tournament.pk]), **HTMX
    ).content.decode()
    row = row_of(page, "Dee")
    assert "place 4" in row
    assert ("(for now)" in row) is provisional
