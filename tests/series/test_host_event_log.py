"""The night's log: making, publishing, moving, cancelling and its undo are each written
down with who did it and when, shown to directors on the night's page (to nobody else),
and a move can be taken back from the log."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from series.models import Event, EventAction, Notice, Season
from series.services.mailings import mailings_send
from tests.series.test_host_changes import night  # noqa: F401 (a fixture)
from tests.series.test_host_pages import _night

pytestmark = pytest.mark.django_db


def _kinds(event: Event) -> list[str]:
    return list(
        EventAction.objects.filter(event=event).order_by("at", "pk").values_list("kind", flat=True)
    )


def test_each_change_is_logged_with_who_and_when(director: User, director_client: Client) -> None:
    today = timezone.localdate()
    season = Season.objects.create(
        name="Autumn", starts_on=today, ends_on=today + timedelta(days=90)
    )
    director_client.post(reverse("series:event_new", args=[season.pk]), _night(save="draft"))
    event = Event.objects.get()
    director_client.post(reverse("series:event_publish", args=[event.pk]))
    director_client.post(
        reverse("series:event_edit", args=[event.pk]), _night(days=8, time="21:00", capacity="")
    )
    director_client.post(reverse("series:event_cancel", args=[event.pk]))
    director_client.post(reverse("series:event_uncancel", args=[event.pk]))
    assert _kinds(event) == ["created", "published", "moved", "cancelled", "uncancelled"]
    assert set(EventAction.objects.values_list("by", flat=True)) == {director.pk}
    moved = EventAction.objects.get(kind="moved")
    assert timezone.localtime(moved.starts_before).strftime("%H:%M") == "20:00"
    assert timezone.localtime(moved.starts_after).strftime("%H:%M") == "21:00"

    page = director_client.get(reverse("series:event", args=[event.pk])).content.decode()
    assert "What the hosts changed" in page and "cancellation undone" in page
    assert reverse("series:event_moved_back", args=[event.pk, moved.pk]) in page


def test_the_log_is_for_directors_only(night: Event, player_client: Client) -> None:  # noqa: F811
    EventAction.objects.create(event=night, kind="published", at=timezone.now())
    for client in (Client(), player_client):
        page = client.get(reverse("series:event", args=[night.pk])).content.decode()
        assert "What the hosts changed" not in page


def test_a_move_is_taken_back_and_told(night: Event, director_client: Client) -> None:  # noqa: F811
    before = night.starts_at
    director_client.post(
        reverse("series:event_edit", args=[night.pk]), _night(days=8, time="21:00", capacity="")
    )
    moved = EventAction.objects.get(event=night, kind="moved")
    response = director_client.post(reverse("series:event_moved_back", args=[night.pk, moved.pk]))
    assert response.status_code == 302
    night.refresh_from_db()
    assert night.starts_at == before
    back = EventAction.objects.filter(event=night, kind="moved").order_by("-pk").first()
    assert back is not None and back.starts_after == before
    # The two who answered are told, each once, of the time it is back at.
    mailings_send()
    moved_mails = [m for m in mail.outbox if m.subject.startswith("New time: Friday game")]
    assert sorted(m.to[0] for m in moved_mails) == ["ann@example.org", "ben@example.org"]
    back_at = timezone.localtime(before).strftime("%H:%M")
    assert all(back_at in m.subject + m.body and "21:00" not in m.subject for m in moved_mails)


def test_taking_back_refuses_what_is_not_a_move_of_this_night(
    night: Event,  # noqa: F811
    director_client: Client,
    player_client: Client,
) -> None:
    other = Event.objects.create(
        season=night.season,
        name="Other",
        buy_in=20,
        starts_at=night.starts_at + timedelta(days=7),
    )
    foreign = EventAction.objects.create(
        event=other,
        kind="moved",
        at=timezone.now(),
        starts_before=night.starts_at + timedelta(days=1),
        starts_after=other.starts_at,
    )
    published = EventAction.objects.create(event=night, kind="published", at=timezone.now())
    before = night.starts_at
    for action in (foreign, published):
        response = director_client.post(
            reverse("series:event_moved_back", args=[night.pk, action.pk]), follow=True
        )
        assert "That is not a move of this night" in response.content.decode()
    # A player's POST and a GET change nothing either.
    mine = EventAction.objects.create(
        event=night,
        kind="moved",
        at=timezone.now(),
        starts_before=night.starts_at + timedelta(days=2),
        starts_after=night.starts_at,
    )
    url = reverse("series:event_moved_back", args=[night.pk, mine.pk])
    assert player_client.post(url).status_code in (302, 403)
    confirm = director_client.get(url)
    assert confirm.status_code == 200 and "Move it back" in confirm.content.decode()
    night.refresh_from_db()
    assert night.starts_at == before
    assert not Notice.objects.filter(event=night, kind="moved").exists()
