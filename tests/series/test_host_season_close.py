"""Closing a season from its page: no new night in it, answers closed for the nights still
to come, the standings final and said so; refused with its reason when it would lose
something; reopened the same way."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from series.models import Event, Player, Season
from series.services.events import EventError, event_create, event_publish
from series.services.rsvp import RsvpError, rsvp_answer

pytestmark = pytest.mark.django_db


@pytest.fixture
def season() -> Season:
    today = timezone.localdate()
    return Season.objects.create(
        name="Autumn", starts_on=today - timedelta(days=30), ends_on=today + timedelta(days=90)
    )


def _night(season: Season, days: int, *, published: bool = True, name: str = "Friday") -> Event:
    now = timezone.now()
    return Event.objects.create(
        season=season,
        name=name,
        starts_at=now + timedelta(days=days),
        buy_in=20,
        published_at=now - timedelta(days=40) if published else None,
        invitations_queued_at=now - timedelta(days=40) if published else None,
        finished_at=now + timedelta(days=days, hours=4) if days < 0 else None,
    )


def _answer(event: Event, name: str, answer: str = "going") -> User:
    user = User.objects.create_user(name, email=f"{name}@example.org")
    Player.objects.create(user=user, name=name.capitalize())
    rsvp_answer(event.pk, user, answer)
    return user


def test_closing_asks_first_then_closes_and_shows_it(
    season: Season, director_client: Client
) -> None:
    _night(season, -7)
    later = _night(season, 7, name="Next Friday")
    page = director_client.get(reverse("series:season", args=[season.pk])).content.decode()
    assert reverse("series:season_close", args=[season.pk]) in page
    asked = director_client.get(reverse("series:season_close", args=[season.pk]))
    assert asked.status_code == 200 and "Close the season" in asked.content.decode()
    season.refresh_from_db()
    assert season.closed_at is None

    response = director_client.post(reverse("series:season_close", args=[season.pk]))
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.closed_at is not None

    page = director_client.get(reverse("series:season", args=[season.pk])).content.decode()
    assert "Closed" in page
    assert reverse("series:event_new", args=[season.pk]) not in page
    assert reverse("series:events_recurring", args=[season.pk]) not in page
    assert reverse("series:season_reopen", args=[season.pk]) in page
    standings = director_client.get(reverse("series:standings", args=[season.pk]))
    assert "final" in standings.content.decode()

    # Answers are closed for a night still to come.
    with pytest.raises(RsvpError, match="closed"):
        _answer(later, "ann")
    # And no new night, by the page or otherwise.
    new = director_client.get(reverse("series:event_new", args=[season.pk]), follow=True)
    assert "closed" in new.content.decode()
    with pytest.raises(EventError, match="closed"):
        event_create(
            season,
            {"name": "Extra", "starts_at": timezone.now() + timedelta(days=3), "buy_in": 20},
            publish=False,
        )
    assert Event.objects.filter(season=season).count() == 2


def test_closing_is_refused_when_players_are_coming_to_a_night_still_ahead(
    season: Season, director_client: Client
) -> None:
    later = _night(season, 7, name="Next Friday")
    _answer(later, "ann")
    response = director_client.post(reverse("series:season_close", args=[season.pk]), follow=True)
    text = response.content.decode()
    assert "Next Friday" in text and "cancel" in text
    season.refresh_from_db()
    assert season.closed_at is None


def test_closing_is_refused_while_a_night_is_being_played(
    season: Season, director_client: Client
) -> None:
    playing = _night(season, 0, name="Tonight")
    Event.objects.filter(pk=playing.pk).update(starts_at=timezone.now() - timedelta(hours=1))
    response = director_client.post(reverse("series:season_close", args=[season.pk]), follow=True)
    assert "Tonight" in response.content.decode()
    season.refresh_from_db()
    assert season.closed_at is None


def test_a_draft_cannot_be_published_in_a_closed_season_and_reopening_undoes_it(
    season: Season, director_client: Client
) -> None:
    draft = _night(season, 7, published=False, name="Draft")
    director_client.post(reverse("series:season_close", args=[season.pk]))
    with pytest.raises(EventError, match="closed"):
        event_publish(draft.pk)

    asked = director_client.get(reverse("series:season_reopen", args=[season.pk]))
    assert asked.status_code == 200
    director_client.post(reverse("series:season_reopen", args=[season.pk]))
    season.refresh_from_db()
    assert season.closed_at is None
    event_publish(draft.pk)
    _answer(draft, "ann")


def test_a_player_cannot_close_a_season(season: Season, player_client: Client) -> None:
    response = player_client.post(reverse("series:season_close", args=[season.pk]))
    assert response.status_code in (302, 403)
    season.refresh_from_db()
    assert season.closed_at is None


def test_closing_twice_says_so_and_changes_nothing(season: Season, director_client: Client) -> None:
    director_client.post(reverse("series:season_close", args=[season.pk]))
    season.refresh_from_db()
    closed_at = season.closed_at
    response = director_client.post(reverse("series:season_close", args=[season.pk]), follow=True)
    assert "already closed" in response.content.decode()
    season.refresh_from_db()
    assert season.closed_at == closed_at
