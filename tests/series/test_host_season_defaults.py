"""A season's defaults for its nights (venue, game, betting structure, buy-in and fee,
seats): set on the season's form, they fill in a new night; without them a new night is
filled in like the last one."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from series.models import Season
from tests.series.test_host_pages import _night, _season

pytestmark = pytest.mark.django_db


def test_the_season_form_keeps_defaults_that_fill_in_a_new_night(
    director_client: Client,
) -> None:
    today = timezone.localdate()
    response = director_client.post(
        reverse("series:season_new"),
        {
            "name": "Winter",
            "starts_on": today.isoformat(),
            "ends_on": (today + timedelta(days=120)).isoformat(),
            "description": "",
            "visibility": "members_names",
            "season_pot_per_entry": "0",
            "default_venue": "Chez Ben",
            "default_game": "omaha",
            "default_structure": "no-limit",
            "default_buy_in": "30",
            "default_fee": "5",
            "default_capacity": "8",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    season = Season.objects.get(name="Winter")
    # A night of another season was the last one: the season's own defaults win.
    other = _season()
    director_client.post(reverse("series:event_new", args=[other.pk]), _night(venue="Elsewhere"))
    page = director_client.get(reverse("series:event_new", args=[season.pk]))
    initial = page.context["form"].initial
    assert initial["venue"] == "Chez Ben"
    assert initial["game"] == "omaha" and initial["structure"] == "no-limit"
    assert initial["buy_in"] == 30 and initial["fee"] == 5 and initial["capacity"] == 8
    assert "the season’s defaults" in page.content.decode()
    recurring = director_client.get(reverse("series:events_recurring", args=[season.pk]))
    assert recurring.context["form"].initial["venue"] == "Chez Ben"


def test_without_defaults_a_new_night_is_like_the_last_one(director_client: Client) -> None:
    season = _season()
    director_client.post(reverse("series:event_new", args=[season.pk]), _night(venue="Back room"))
    page = director_client.get(reverse("series:event_new", args=[season.pk]))
    assert page.context["form"].initial["venue"] == "Back room"
    assert "like the last night" in page.content.decode()


def test_a_bad_default_is_refused_and_nothing_saved(director_client: Client) -> None:
    season = _season()
    response = director_client.post(
        reverse("series:season_edit", args=[season.pk]),
        {
            "name": "Autumn",
            "starts_on": season.starts_on.isoformat(),
            "ends_on": season.ends_on.isoformat(),
            "visibility": "members_names",
            "season_pot_per_entry": "0",
            "default_structure": "big-bet",
            "default_buy_in": "-3",
        },
    )
    assert response.status_code == 400
    season.refresh_from_db()
    assert season.default_structure == "" and season.default_buy_in is None
