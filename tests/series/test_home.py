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


def test_later_this_season_lists_only_the_next_events_season(
    client: Client, season: Season
) -> None:
    """The home page's "later this season" listed another season's events."""
    today = timezone.localdate()
    other = Season.objects.create(
        name="Summer Omaha", starts_on=today + timedelta(days=5), ends_on=today + timedelta(90)
    )
    soonest = make_event(season, "Friday PLO8", days=3)
    same = make_event(season, "Spring finale", days=20)
    make_event(other, "Summer opener", days=6)
    make_event(other, "Summer second", days=13)
    response = client.get(reverse("home"))
    assert response.context["next_event"] == soonest
    assert response.context["later_events"] == [same]
    page = response.content.decode()
    assert "Spring finale" in page and "Summer opener" not in page
    assert reverse("series:season", args=[season.pk]) in page


def test_events_later_this_season_selector(season: Season) -> None:
    from django.contrib.auth.models import AnonymousUser

    from series.selectors import events_later_this_season

    first = make_event(season, "One", days=1)
    second = make_event(season, "Two", days=2)
    third = make_event(season, "Three", days=3)
    make_event(season, "Four", days=4)
    visitor = AnonymousUser()
    assert events_later_this_season(first, visitor, limit=2) == [second, third]
    assert events_later_this_season(None, visitor) == []
