"""The director runs the season from the site's own pages: a season, its nights as drafts or
published, edit, duplicate, delete a draft, publish. Bad input says why in the visitor's
language and changes nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from series.models import Event, Notice, Player, Season, SeasonVisibility
from series.services.mailings import mailings_due
from series.services.rsvp import rsvp_answer

pytestmark = pytest.mark.django_db


def _season(**fields: Any) -> Season:
    today = timezone.localdate()
    return Season.objects.create(
        name="Autumn",
        starts_on=today - timedelta(days=10),
        ends_on=today + timedelta(days=200),
        **fields,
    )


def _night(days: int = 7, **changes: Any) -> dict[str, str]:
    day = timezone.localdate() + timedelta(days=days)
    data = {
        "name": "Friday game",
        "date": day.isoformat(),
        "time": "20:00",
        "venue": "Chez Ann",
        "number": "",
        "game": "omaha-hi-lo",
        "structure": "pot-limit",
        "buy_in": "20",
        "fee": "5",
        "starting_stack": "10000",
        "counts": "on",
        "capacity": "9",
        "waiting_list_size": "",
        "rsvp_minimum": "4",
        "rsvp_minimum_hours": "24",
        "late_drop_hours": "24",
        "notes": "",
        "save": "draft",
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


def test_a_director_makes_a_season_and_a_draft_night(director_client: Client) -> None:
    reader = User.objects.create_user("rita", email="rita@example.org")
    Player.objects.create(user=reader, name="Rita")
    today = timezone.localdate()
    response = director_client.post(
        reverse("series:season_new"),
        {
            "name": "Winter",
            "starts_on": today.isoformat(),
            "ends_on": (today + timedelta(days=120)).isoformat(),
            "description": "",
            "visibility": SeasonVisibility.MEMBERS,
            "season_pot_per_entry": "2",
        },
    )
    season = Season.objects.get(name="Winter")
    assert response.status_code == 302
    assert season.visibility == SeasonVisibility.MEMBERS and season.season_pot_per_entry == 2
    response = director_client.post(reverse("series:event_new", args=[season.pk]), _night())
    event = Event.objects.get(season=season)
    assert response.status_code == 302
    assert event.published_at is None and event.capacity == 9 and event.rsvp_minimum == 4
    assert timezone.localtime(event.starts_at).strftime("%H:%M") == "20:00"
    # A draft invites nobody.
    mailings_due()
    assert not Notice.objects.filter(event=event).exists()
    # Published from its page: the invitations are due.
    director_client.post(reverse("series:event_publish", args=[event.pk]))
    event.refresh_from_db()
    assert event.published_at is not None
    mailings_due()
    assert Notice.objects.filter(event=event, kind="invitation", recipient=reader).exists()


def test_publish_at_once(director_client: Client) -> None:
    season = _season()
    response = director_client.post(
        reverse("series:event_new", args=[season.pk]), _night(save="publish")
    )
    event = Event.objects.get(season=season)
    assert event.published_at is not None
    assert response["Location"] == reverse("series:event", args=[event.pk])


def test_a_new_night_is_filled_in_like_the_last_one(director_client: Client) -> None:
    season = _season()
    director_client.post(
        reverse("series:event_new", args=[season.pk]),
        _night(venue="The back room", buy_in="35", capacity="7"),
    )
    form = director_client.get(reverse("series:event_new", args=[season.pk])).context["form"]
    assert form.initial["venue"] == "The back room"
    assert form.initial["buy_in"] == 35 and form.initial["capacity"] == 7
    page = director_client.get(reverse("series:event_new", args=[season.pk])).content.decode()
    assert '<option value="The back room">' in page


def test_duplicate_copies_a_night_of_the_same_season_only(director_client: Client) -> None:
    season, other = _season(), _season()
    director_client.post(reverse("series:event_new", args=[season.pk]), _night(venue="Loft"))
    source = Event.objects.get(season=season)
    url = reverse("series:event_new", args=[season.pk]) + f"?from={source.pk}"
    assert director_client.get(url).context["form"].initial["venue"] == "Loft"
    # An event of another season in the address: said, and nothing copied.
    url = reverse("series:event_new", args=[other.pk]) + f"?from={source.pk}"
    response = director_client.get(url)
    assert "nothing was copied" in response.content.decode()
    assert response.context["form"].initial.get("name") == ""


def test_edit_and_delete_a_draft(director_client: Client) -> None:
    season = _season()
    director_client.post(reverse("series:event_new", args=[season.pk]), _night())
    event = Event.objects.get(season=season)
    response = director_client.post(
        reverse("series:event_edit", args=[event.pk]), _night(name="Renamed", capacity="6")
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.name == "Renamed" and event.capacity == 6
    director_client.post(reverse("series:event_delete", args=[event.pk]))
    assert not Event.objects.filter(pk=event.pk).exists()


def test_a_published_night_is_not_deleted(director_client: Client) -> None:
    season = _season()
    director_client.post(reverse("series:event_new", args=[season.pk]), _night(save="publish"))
    event = Event.objects.get(season=season)
    director_client.post(reverse("series:event_delete", args=[event.pk]))
    assert Event.objects.filter(pk=event.pk).exists()


# -- bad input ------------------------------------------------------------------------------


def _refused(response: Any, text: str) -> None:
    assert response.status_code == 400
    assert text in response.content.decode()


def test_a_new_night_in_the_past_is_refused(director_client: Client) -> None:
    season = _season()
    response = director_client.post(reverse("series:event_new", args=[season.pk]), _night(days=-1))
    _refused(response, "cannot start in the past")
    assert not Event.objects.exists()


def test_a_season_ending_before_it_starts_is_refused(director_client: Client) -> None:
    today = timezone.localdate()
    response = director_client.post(
        reverse("series:season_new"),
        {
            "name": "Backwards",
            "starts_on": today.isoformat(),
            "ends_on": (today - timedelta(days=1)).isoformat(),
            "visibility": SeasonVisibility.PUBLIC,
            "season_pot_per_entry": "0",
        },
    )
    _refused(response, "The last day comes before the first.")
    assert not Season.objects.exists()


def test_seats_below_the_people_going_are_refused_with_the_numbers(
    director_client: Client,
) -> None:
    season = _season()
    director_client.post(reverse("series:event_new", args=[season.pk]), _night(save="publish"))
    event = Event.objects.get(season=season)
    for name in ("ann", "ben", "cal"):
        user = User.objects.create_user(name)
        Player.objects.create(user=user, name=name)
        rsvp_answer(event.pk, user, "going")
    response = director_client.post(
        reverse("series:event_edit", args=[event.pk]), _night(capacity="2", name="Changed")
    )
    _refused(response, "3 people are already going: the seats cannot be fewer (you asked for 2).")
    event.refresh_from_db()
    assert event.capacity == 9 and event.name == "Friday game"


def test_an_unknown_game_or_structure_is_refused(director_client: Client) -> None:
    season = _season()
    for bad in ({"structure": "spread_limit"}, {"game": "holdem"}):
        response = director_client.post(
            reverse("series:event_new", args=[season.pk]), _night(**bad)
        )
        _refused(response, "Select a valid choice")
    assert not Event.objects.exists()


def test_a_night_outside_its_season_is_refused(director_client: Client) -> None:
    season = _season()
    response = director_client.post(reverse("series:event_new", args=[season.pk]), _night(days=400))
    _refused(response, "outside the season")
    assert not Event.objects.exists()


def test_a_non_director_changes_nothing(player_client: Client, client: Client) -> None:
    season = _season()
    event = Event.objects.create(season=season, name="Kept", starts_at=timezone.now(), buy_in=5)
    posts = [
        (reverse("series:season_new"), {"name": "Mine", "starts_on": "2030-01-01"}),
        (reverse("series:season_edit", args=[season.pk]), {"name": "Mine"}),
        (reverse("series:event_new", args=[season.pk]), _night()),
        (reverse("series:event_edit", args=[event.pk]), _night(name="Mine")),
        (reverse("series:event_delete", args=[event.pk]), {}),
        (reverse("series:event_publish", args=[event.pk]), {}),
    ]
    for url, data in posts:
        assert player_client.post(url, data).status_code == 403, url
        assert client.post(url, data).status_code == 302, url
    assert Season.objects.count() == 1 and Event.objects.get().name == "Kept"


def test_bad_input_is_said_in_french(director_client: Client) -> None:
    season = _season()
    director_client.cookies["django_language"] = "fr"
    response = director_client.post(
        reverse("series:event_new", args=[season.pk]),
        _night(days=-1),
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert response.status_code == 400
    assert "dans le passé" in response.content.decode()
