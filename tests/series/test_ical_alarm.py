"""Every event of the iCal feeds rings an hour before it starts (a VALARM that shows a
message), in the season's feed and in a player's own feed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from icalendar import Calendar

from series.exports import ALARM_BEFORE, events_ical
from series.models import Event, Season

pytestmark = pytest.mark.django_db


def alarms_of(content: bytes) -> list[list]:
    """Each VEVENT's VALARM components, in the feed's order."""
    return [list(item.walk("VALARM")) for item in Calendar.from_ical(content).walk("VEVENT")]


def test_every_event_of_the_season_feed_has_a_display_alarm_an_hour_before(
    client: Client, event: Event, season: Season
) -> None:
    Event.objects.create(
        season=season, name="Finale", starts_at=event.starts_at + timedelta(days=7), buy_in=50
    )
    response = client.get(reverse("series:season_ical", args=[season.pk]))
    per_event = alarms_of(response.content)
    assert len(per_event) == 2
    for alarms in per_event:
        [alarm] = alarms
        assert str(alarm["ACTION"]) == "DISPLAY"
        assert alarm["TRIGGER"].dt == -ALARM_BEFORE == -timedelta(hours=1)
        assert "starts in one hour" in str(alarm["DESCRIPTION"])


def test_the_feeds_writer_puts_one_alarm_in_each_event(event: Event) -> None:
    # The player's own feed is written by the same function (``series.views_calendar``).
    content = events_ical("Pat's poker nights", [event, event], lambda e: "https://x.test/")
    assert [len(alarms) for alarms in alarms_of(content)] == [1, 1]
    assert b"BEGIN:VALARM" in content
    assert b"TRIGGER:-PT1H" in content
