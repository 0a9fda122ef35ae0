"""Lists of players read by name as people expect, on SQLite and PostgreSQL alike: accents
and case do not send a name to the end ("Élodie" between "eddie" and "Fanny")."""

from __future__ import annotations

import doctest

import pytest
from django.test import Client
from django.urls import reverse

from core import names
from core.names import name_key
from series.models import Player
from series.selectors import event_results, guests_with_results, standings_of
from series.services.standings import standings_recompute
from tests.series.night import finished_event, guest, season

EXPECTED = ["eddie", "Élodie", "Fanny", "Zoé"]


@pytest.fixture
def walk_ins(db: None) -> list[Player]:
    """Four guests, created in an order that is neither by bytes nor by name."""
    return [guest(name) for name in ("Zoé", "Élodie", "eddie", "Fanny")]


def test_the_key_puts_accented_and_lower_case_names_in_their_place() -> None:
    assert doctest.testmod(names).failed == 0
    assert sorted(["Zoé", "Fanny", "Élodie", "eddie", "Eddie"], key=name_key) == [
        "eddie",
        "Eddie",
        "Élodie",
        "Fanny",
        "Zoé",
    ]


def test_the_guests_page_lists_them_by_name(
    director_client: Client, walk_ins: list[Player]
) -> None:
    assert [p.name for p in guests_with_results()] == EXPECTED
    page = director_client.get(reverse("series:guests")).content.decode()
    positions = [page.index(name) for name in EXPECTED]
    assert positions == sorted(positions)


def test_a_shared_place_and_a_tie_in_the_standings_read_by_name(walk_ins: list[Player]) -> None:
    # All four share first place: the results table and the leaderboard break the tie by name.
    the_season = season()
    event = finished_event(the_season, [(player, 1, 0, 20) for player in walk_ins])
    assert [r.player.name for r in event_results(event)] == EXPECTED
    standings_recompute(the_season.pk)
    assert [s.player.name for s in standings_of(the_season)] == EXPECTED
