from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from series.models import Event, Season

pytestmark = pytest.mark.django_db


@pytest.fixture
def season() -> Season:
    today = timezone.localdate()
    return Season.objects.create(
        name="Spring Omaha", starts_on=today - timedelta(days=30), ends_on=today + timedelta(90)
    )


def make_event(season: Season, name: str, days: int) -> Event:
    return Event.objects.create(
        season=season,
        name=name,
        starts_at=timezone.now() + timedelta(days=days),
        venue="Ann's kitchen",
        buy_in=20,
        fee=5,
    )


def test_home_says_what_the_site_is_and_loads_htmx(client: Client) -> None:
    page = client.get(reverse("home")).content.decode()
    assert "Omaha tournaments among friends" in page
    assert "htmx" in page and "<script" in page


def test_home_shows_an_empty_state_without_events(client: Client) -> None:
    response = client.get(reverse("home"))
    assert response.context["next_event"] is None
    assert "No event on the calendar yet" in response.content.decode()


def test_home_shows_the_next_upcoming_event_not_a_past_one(client: Client, season: Season) -> None:
    make_event(season, "Last month's game", days=-20)
    make_event(season, "Finale", days=40)
    soonest = make_event(season, "Friday PLO8", days=3)
    response = client.get(reverse("home"))
    assert response.context["next_event"] == soonest
    page = response.content.decode()
    assert "Friday PLO8" in page and "20+5" in page and "Finale" in page
    assert "Last month&#x27;s game" not in page
