"""An online tournament starts from the director's console in every game and betting
structure the series offers: the event's game is the engine's game, one vocabulary."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from series.models import Event, Season
from tables.engine.config import Game, Structure
from tables.models import Table as LiveTable
from tournaments.models import Tournament, TournamentState, TournamentTable
from tournaments.services import online
from tournaments.services.simulate import blind_structure_for as sim_blind_structure
from tournaments.services.simulate import director_user

FAST = {
    "TABLES_SCHEDULE_TASKS": False,
    "TOURNAMENTS_SCHEDULE_TASKS": False,
    "TABLES_NEXT_HAND_DELAY_MS": 0,
}


# The games and structures an event can be given (its form's and the admin's choices).
EVENT_GAMES = [value for value, _label in Event._meta.get_field("game").choices]
EVENT_STRUCTURES = [value for value, _label in Event._meta.get_field("structure").choices]


def test_an_events_games_and_structures_are_the_engines() -> None:
    assert EVENT_GAMES == [g.value for g in Game]
    assert EVENT_STRUCTURES == [s.value for s in Structure]


@pytest.mark.parametrize("structure", EVENT_STRUCTURES)
@pytest.mark.parametrize("game", EVENT_GAMES)
@override_settings(**FAST)
def test_the_console_starts_an_online_tournament_in_every_game(
    db: None, game: str, structure: str
) -> None:
    today = timezone.localdate()
    season = Season.objects.create(
        name="Online", starts_on=today - timedelta(days=1), ends_on=today + timedelta(days=9)
    )
    event = Event.objects.create(
        season=season,
        name=f"{structure} {game}",
        starts_at=timezone.now(),
        game=game,
        structure=structure,
        buy_in=20,
        starting_stack=1000,
    )
    director = director_user()
    tournament = Tournament.objects.create(
        event=event,
        blind_structure=sim_blind_structure(1000, limit=structure == Structure.LIMIT),
        online=True,
        seats_per_table=6,
    )
    online.online_bots_fill(tournament.pk, 8, by=director)
    client = Client()
    client.force_login(director)
    page = client.get(reverse("tournaments:console", args=[tournament.pk]))
    assert page.status_code == 200

    response = client.post(reverse("tournaments:online_start", args=[tournament.pk]))

    assert response.status_code in (200, 302)
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.RUNNING
    live = [
        tt.live_table
        for tt in TournamentTable.objects.select_related("live_table").filter(tournament=tournament)
    ]
    assert len(live) == 2
    assert {t.game for t in live} == {game}
    assert {t.structure for t in live} == {structure}
    assert all(isinstance(t, LiveTable) and t.config.game is Game(game) for t in live)
