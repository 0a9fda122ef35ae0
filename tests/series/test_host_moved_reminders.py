"""A moved night is reminded of again at its new time: the 48 h and 3 h reminders of the
old time do not stand in for the new one's, and one not sent yet is not sent."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from series.models import Event, Notice, NoticeState, Player, Rsvp, Season
from series.services.events import event_update
from series.services.mailings import mailings_due, mailings_send
from series.services.rsvp import rsvp_answer

pytestmark = pytest.mark.django_db


@pytest.fixture
def night() -> Event:
    today = timezone.localdate()
    now = timezone.now()
    season = Season.objects.create(
        name="Autumn", starts_on=today - timedelta(days=5), ends_on=today + timedelta(days=90)
    )
    event = Event.objects.create(
        season=season,
        name="Friday game",
        starts_at=now + timedelta(hours=30),
        buy_in=20,
        published_at=now - timedelta(days=5),
        invitations_queued_at=now - timedelta(days=5),
    )
    user = User.objects.create_user("ann", email="ann@example.org")
    Player.objects.create(user=user, name="Ann")
    rsvp_answer(event.pk, user, "going")
    Rsvp.objects.filter(event=event).update(updated_at=now - timedelta(days=3))
    return event


def _reminders(event: Event, state: str | None = None) -> int:
    found = Notice.objects.filter(event=event, kind="reminder_48h")
    return found.filter(state=state).count() if state else found.count()


def test_a_night_moved_after_its_reminder_is_reminded_again_before_the_new_time(
    night: Event,
) -> None:
    mailings_due()
    mailings_send()
    assert _reminders(night, NoticeState.SENT) == 1
    new_start = timezone.now() + timedelta(days=6)
    event_update(night.pk, {"starts_at": new_start})
    # Not yet: the new time is six days ahead.
    mailings_due()
    assert _reminders(night) == 1
    # 48 hours before the new time, the reminder is due again.
    mailings_due(now=new_start - timedelta(hours=47))
    assert _reminders(night, NoticeState.PENDING) == 1
    assert _reminders(night) == 2


def test_a_reminder_not_sent_yet_is_not_sent_for_the_old_time(night: Event) -> None:
    mailings_due()
    assert _reminders(night, NoticeState.PENDING) == 1
    event_update(night.pk, {"starts_at": timezone.now() + timedelta(days=6)})
    assert _reminders(night, NoticeState.PENDING) == 0
    mailings_send()
    assert not [n for n in Notice.objects.filter(kind="reminder_48h", state=NoticeState.SENT)]


def test_a_night_not_moved_is_reminded_once(night: Event) -> None:
    mailings_due()
    event_update(night.pk, {"name": "Friday game, again"})
    mailings_due()
    assert _reminders(night) == 1
