"""Recurring nights: "every other Friday at 20:00 from ... to ..., skipping ..." makes the
season's events in one step, whole or not at all, at most a year of them."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from series.models import Event, Season
from tests.series.test_host_pages import _night

pytestmark = pytest.mark.django_db


def _friday() -> date:
    day = timezone.localdate() + timedelta(days=2)
    return day + timedelta(days=(4 - day.weekday()) % 7)


@pytest.fixture
def season() -> Season:
    today = timezone.localdate()
    return Season.objects.create(
        name="Long season", starts_on=today, ends_on=today + timedelta(days=500)
    )


def _recurring(first: date, last: date, **changes: Any) -> dict[str, str]:
    data = _night(
        name="Friday game",
        capacity="8",
        rsvp_minimum="5",
        rsvp_minimum_hours="48",
        every_weeks="2",
        last_day=last.isoformat(),
        skip="",
    )
    data["date"] = first.isoformat()
    data.pop("number")
    data.update(changes)
    return data


def test_ten_nights_every_other_friday_in_one_step(season: Season, director_client: Client) -> None:
    first = _friday()
    url = reverse("series:events_recurring", args=[season.pk])
    assert director_client.get(url).status_code == 200
    skipped = first + timedelta(weeks=4)
    response = director_client.post(
        url,
        _recurring(first, first + timedelta(weeks=20), skip=skipped.isoformat(), save="publish"),
    )
    assert response.status_code == 302
    events = list(Event.objects.filter(season=season).order_by("starts_at"))
    days = [timezone.localtime(e.starts_at).date() for e in events]
    assert len(events) == 10 and skipped not in days
    assert all(day.weekday() == 4 for day in days) and days[0] == first
    assert [e.number for e in events] == list(range(1, 11))
    assert all(
        e.capacity == 8 and e.rsvp_minimum == 5 and e.rsvp_minimum_hours == 48 for e in events
    )
    assert all(e.published_at is not None for e in events)
    assert {timezone.localtime(e.starts_at).strftime("%H:%M") for e in events} == {"20:00"}


@pytest.mark.parametrize(
    ("weeks", "changes", "said"),
    [
        (60, {}, "At most a year of nights at once."),
        (-1, {}, "The last night comes before the first."),
        (0, {"skip": "FIRST"}, "These dates make no night."),
        (4, {"skip": "2001-01-05"}, "2001-01-05 is not one of the nights"),
        (4, {"skip": "next week"}, "is not a date like 2027-04-03."),
        (4, {"every_weeks": "9"}, "Select a valid choice"),
        (4, {"capacity": "-1"}, "greater than or equal to 0"),
    ],
)
def test_bad_recurrences_make_nothing(
    season: Season, director_client: Client, weeks: int, changes: dict[str, str], said: str
) -> None:
    first = _friday()
    changes = {k: first.isoformat() if v == "FIRST" else v for k, v in changes.items()}
    response = director_client.post(
        reverse("series:events_recurring", args=[season.pk]),
        _recurring(first, first + timedelta(weeks=weeks), **changes),
    )
    assert response.status_code == 400
    assert said in response.content.decode()
    assert not Event.objects.exists()


def test_one_night_outside_the_season_makes_none(season: Season, director_client: Client) -> None:
    first = _friday()
    Season.objects.filter(pk=season.pk).update(ends_on=first + timedelta(weeks=3))
    response = director_client.post(
        reverse("series:events_recurring", args=[season.pk]),
        _recurring(first, first + timedelta(weeks=8)),
    )
    assert response.status_code == 400 and "outside the season" in response.content.decode()
    assert not Event.objects.exists()


def test_a_first_night_in_the_past_makes_none(season: Season, director_client: Client) -> None:
    first = timezone.localdate() - timedelta(days=7)
    response = director_client.post(
        reverse("series:events_recurring", args=[season.pk]),
        _recurring(first, first + timedelta(weeks=8)),
    )
    assert response.status_code == 400 and "cannot start in the past" in response.content.decode()
    assert not Event.objects.exists()
