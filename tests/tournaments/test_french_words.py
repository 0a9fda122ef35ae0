"""French as French players write it: game names ("Omaha Hi/Lo pot-limit", in the pages and
the iCal feed), the first of the month ("1er janv."), "les niveaux après le niveau 1" in the
console's log, and the log's times as a clock reads them ("19:05", not "19 h 05")."""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from series.models import Event
from tests.tournaments.clock_helpers import at
from tournaments.models import Tournament, TournamentAction
from tournaments.services.clock.levels import clock_levels_minutes

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock_tasks_off")]


def french(client: Client) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    return client


def test_game_names_read_as_french_players_write_them(event: Event, client: Client) -> None:
    with translation.override("fr"):
        assert event.game_label == "Omaha Hi/Lo pot-limit"
    page = french(client).get(reverse("series:event", args=[event.pk])).content.decode()
    assert "Omaha Hi/Lo pot-limit" in page
    assert "Omaha Hi/Lo Limite du pot" not in page and "limite du pot" not in page
    feed = client.get(reverse("series:season_ical", args=[event.season_id])).content.decode()
    assert "Omaha Hi/Lo pot-limit" in feed.replace("\r\n ", "")
    with translation.override("en"):
        assert event.game_label == "Pot-Limit Omaha Hi/Lo"


def test_the_first_of_the_month_is_1er(event: Event, client: Client) -> None:
    event.starts_at = timezone.make_aware(datetime(2027, 1, 1, 19, 30))
    event.save(update_fields=["starts_at"])
    page = french(client).get(reverse("series:event", args=[event.pk])).content.decode()
    assert "1er janvier 2027" in page
    assert not re.search(r"(?<![\d])1 janv", page)
    english = Client().get(reverse("series:event", args=[event.pk])).content.decode()
    assert "1 January 2027" in english and "1er" not in english


def test_the_log_says_after_the_level_and_clock_times(
    running_clock: Tournament, director: User, director_client: Client
) -> None:
    clock_levels_minutes(running_clock.pk, 15, by=director, now=at(5))
    TournamentAction.objects.filter(tournament=running_clock).update(
        at=timezone.make_aware(datetime(2026, 5, 1, 19, 5))
    )
    page = (
        french(director_client)
        .get(reverse("tournaments:console", args=[running_clock.pk]))
        .content.decode()
    )
    log = page[page.index('id="console-log"') :]
    assert "Les niveaux après le niveau 1 durent désormais 15 min" in log
    assert re.search(r"<time [^>]*>19:05</time>", log), log[:600]
    assert "19 h 05" not in page
