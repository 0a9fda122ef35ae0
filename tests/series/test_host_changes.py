"""Cancel and move a published night: everyone who answered is told through the outbox,
a cancellation closes the answers and can be undone, a move keeps them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from series.models import Event, Notice, NoticeState, Player, Rsvp, Season
from series.services.mailings import mailings_due, mailings_send
from series.services.rsvp import RsvpError, rsvp_answer
from tests.series.test_host_pages import _night

pytestmark = pytest.mark.django_db


@pytest.fixture
def night() -> Event:
    today = timezone.localdate()
    season = Season.objects.create(
        name="Autumn", starts_on=today - timedelta(days=5), ends_on=today + timedelta(days=90)
    )
    event = Event.objects.create(
        season=season,
        name="Friday game",
        starts_at=timezone.now() + timedelta(days=7),
        buy_in=20,
        published_at=timezone.now() - timedelta(days=1),
        invitations_queued_at=timezone.now() - timedelta(days=1),
    )
    for name, answer in (("ann", "going"), ("ben", "maybe")):
        user = User.objects.create_user(name, email=f"{name}@example.org")
        Player.objects.create(user=user, name=name.capitalize())
        rsvp_answer(event.pk, user, answer)
    return event


def test_cancelling_tells_everyone_who_answered_and_closes_answers(
    night: Event, director_client: Client, settings: object
) -> None:
    response = director_client.get(reverse("series:event_cancel", args=[night.pk]))
    assert response.status_code == 200 and "Cancel the night" in response.content.decode()
    director_client.post(reverse("series:event_cancel", args=[night.pk]))
    night.refresh_from_db()
    assert night.cancelled_at is not None
    assert Notice.objects.filter(event=night, kind="cancelled").count() == 2
    mailings_send()
    cancelled = [m for m in mail.outbox if m.subject.startswith("Cancelled: Friday game")]
    assert sorted(m.to[0] for m in cancelled) == ["ann@example.org", "ben@example.org"]
    assert reverse("series:event", args=[night.pk]) in cancelled[0].body
    with pytest.raises(RsvpError, match="cancelled"):
        rsvp_answer(night.pk, User.objects.get(username="ann"), "no")
    # No reminder for a cancelled night.
    Event.objects.filter(pk=night.pk).update(starts_at=timezone.now() + timedelta(hours=2))
    mailings_due()
    assert not Notice.objects.filter(event=night, kind__startswith="reminder").exists()


def test_a_cancellation_undone_sends_nothing_and_reopens_answers(
    night: Event, director_client: Client
) -> None:
    director_client.post(reverse("series:event_cancel", args=[night.pk]))
    director_client.post(reverse("series:event_uncancel", args=[night.pk]))
    night.refresh_from_db()
    assert night.cancelled_at is None
    mailings_send()
    assert not [m for m in mail.outbox if m.subject.startswith("Cancelled")]
    assert set(Notice.objects.filter(kind="cancelled").values_list("state", flat=True)) == {
        NoticeState.SKIPPED
    }
    rsvp_answer(night.pk, User.objects.get(username="ben"), "going")


def test_moving_tells_them_and_keeps_the_answers(night: Event, director_client: Client) -> None:
    response = director_client.post(
        reverse("series:event_edit", args=[night.pk]),
        _night(days=8, name="Friday game", time="21:00", capacity=""),
    )
    assert response.status_code == 302
    night.refresh_from_db()
    assert timezone.localtime(night.starts_at).strftime("%H:%M") == "21:00"
    assert Notice.objects.filter(event=night, kind="moved").count() == 2
    assert Rsvp.objects.get(event=night, player__name="Ann").answer == "going"
    mailings_send()
    moved = {m.to[0]: m for m in mail.outbox if m.subject.startswith("New time: Friday game")}
    assert "Your answer is kept: you are going." in moved["ann@example.org"].body
    assert "Your answer is kept: maybe." in moved["ben@example.org"].body


def test_a_draft_is_not_cancelled_and_its_move_tells_nobody(
    night: Event, director_client: Client
) -> None:
    Event.objects.filter(pk=night.pk).update(published_at=None)
    director_client.post(reverse("series:event_cancel", args=[night.pk]))
    night.refresh_from_db()
    assert night.cancelled_at is None
    director_client.post(reverse("series:event_edit", args=[night.pk]), _night(days=9, capacity=""))
    assert not Notice.objects.filter(event=night).exists()


def test_a_cancelled_night_is_cancelled_in_the_feed(night: Event, director_client: Client) -> None:
    director_client.post(reverse("series:event_cancel", args=[night.pk]))
    feed = Client().get(reverse("series:season_ical", args=[night.season_id])).content.decode()
    assert "STATUS:CANCELLED" in feed
