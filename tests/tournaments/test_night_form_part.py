"""A night and its tournament in one step: the new-night page, the recurring nights and
the season's defaults carry the blind structure and the money rules; what the tournament
refuses leaves no night behind."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from series.models import Event, EventAction, Season
from tests.series.test_host_pages import _night
from tournaments.models import BlindStructure, Tournament

pytestmark = pytest.mark.django_db


def _season() -> Season:
    today = timezone.localdate()
    return Season.objects.create(
        name="Autumn", starts_on=today - timedelta(days=10), ends_on=today + timedelta(days=200)
    )


def _tournament(**changes: Any) -> dict[str, str]:
    blind_structure = BlindStructure.objects.filter(is_template=True).order_by("name").first()
    assert blind_structure is not None
    data = {
        "run": "on",
        "blind_structure": str(blind_structure.pk),
        "late_registration_until_level": "4",
        "payouts": "60, 40",
        "bounty": "0",
        "rebuys_allowed": "1",
        "rebuy_until_level": "4",
        "rebuy_chips": "10000",
        "rebuy_price": "20",
        "addon_after_level": "",
        "addon_chips": "0",
        "addon_price": "0",
        "reentries_allowed": "0",
        "reentry_until_level": "",
    }
    data.update(changes)
    return {f"tournament-{key}": value for key, value in data.items() if value is not None}


def test_the_new_night_page_offers_its_tournament(director_client: Client) -> None:
    season = _season()
    page = director_client.get(reverse("series:event_new", args=[season.pk]))
    body = page.content.decode()
    assert "The tournament" in body and 'name="tournament-run"' in body
    part = next(form for name, _part, form in page.context["parts"].shown if name == "tournament")
    assert part.initial["run"] is True and part.initial["blind_structure"]


def test_a_night_and_its_tournament_are_made_in_one_step(director_client: Client) -> None:
    season = _season()
    response = director_client.post(
        reverse("series:event_new", args=[season.pk]),
        {**_night(save="publish", capacity="8"), **_tournament()},
    )
    event = Event.objects.get(season=season)
    assert response.status_code == 302 and response["Location"] == reverse(
        "series:event", args=[event.pk]
    )
    tournament = Tournament.objects.get(event=event)
    assert tournament.payout_basis_points == [6000, 4000]
    assert (tournament.rebuys_allowed, tournament.rebuy_until_level) == (1, 4)
    assert tournament.capacity == 8
    page = director_client.get(reverse("series:event", args=[event.pk])).content.decode()
    assert "Rebuys" in page or "rebuy" in page.lower()


def test_left_off_the_night_has_no_tournament(director_client: Client) -> None:
    season = _season()
    director_client.post(
        reverse("series:event_new", args=[season.pk]),
        {**_night(), **_tournament(run=None, payouts="not a number")},
    )
    assert Event.objects.filter(season=season).exists()
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        # The form refuses it.
        ({"payouts": "sixty"}, "is not a percentage"),
        ({"blind_structure": "999999"}, "Select a valid choice"),
        # The tournament's service refuses it, after the night was saved: rolled back.
        ({"bounty": "50"}, "cannot be more than the buy-in"),
        ({"payouts": "60, 30"}, "add up to 90%"),
    ],
)
def test_a_refused_tournament_leaves_no_night(
    director_client: Client, changes: dict[str, str], message: str
) -> None:
    season = _season()
    response = director_client.post(
        reverse("series:event_new", args=[season.pk]),
        {**_night(save="publish"), **_tournament(**changes)},
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Event.objects.exists() and not Tournament.objects.exists()
    assert not EventAction.objects.exists()


def test_recurring_nights_each_get_the_tournament_or_none_is_made(
    director_client: Client,
) -> None:
    season = _season()
    first = timezone.localdate() + timedelta(days=3)
    nights = {
        **_night(date=first.isoformat(), save="publish"),
        "every_weeks": "1",
        "last_day": (first + timedelta(weeks=2)).isoformat(),
        "skip": "",
    }
    nights.pop("number")
    refused = director_client.post(
        reverse("series:events_recurring", args=[season.pk]), {**nights, **_tournament(bounty="99")}
    )
    assert refused.status_code == 400 and not Event.objects.exists()
    director_client.post(
        reverse("series:events_recurring", args=[season.pk]), {**nights, **_tournament()}
    )
    assert Event.objects.filter(season=season).count() == 3
    assert Tournament.objects.filter(payout_basis_points=[6000, 4000]).count() == 3


def test_the_season_keeps_the_tournament_its_new_nights_start_from(
    director_client: Client,
) -> None:
    season = _season()
    data = {
        "name": "Autumn",
        "starts_on": season.starts_on.isoformat(),
        "ends_on": season.ends_on.isoformat(),
        "description": "",
        "visibility": season.visibility,
        "season_pot_per_entry": "0",
        **_tournament(payouts="50, 30, 20", rebuys_allowed="2"),
    }
    response = director_client.post(reverse("series:season_edit", args=[season.pk]), data)
    assert response.status_code == 302
    season.refresh_from_db()
    kept = season.night_part_defaults["tournament"]
    assert kept["run"] is True and kept["payouts"] == "50, 30, 20"
    page = director_client.get(reverse("series:event_new", args=[season.pk]))
    part = next(form for name, _part, form in page.context["parts"].shown if name == "tournament")
    assert part.initial["payouts"] == "50, 30, 20" and part.initial["rebuys_allowed"] == "2"
    # A season whose nights are not tournaments: the part starts off.
    data.update(_tournament(run=None))
    data.pop("tournament-run")
    director_client.post(reverse("series:season_edit", args=[season.pk]), data)
    season.refresh_from_db()
    assert season.night_part_defaults == {"tournament": {"run": False}}
    page = director_client.get(reverse("series:event_new", args=[season.pk]))
    assert 'name="tournament-run" id="id_tournament-run" checked' not in page.content.decode()


def test_a_duplicate_copies_the_nights_tournament(director_client: Client) -> None:
    season = _season()
    director_client.post(
        reverse("series:event_new", args=[season.pk]),
        {**_night(), **_tournament(payouts="70, 30", bounty="5")},
    )
    event = Event.objects.get()
    page = director_client.get(reverse("series:event_new", args=[season.pk]) + f"?from={event.pk}")
    part = next(form for name, _part, form in page.context["parts"].shown if name == "tournament")
    assert part.initial["payouts"] == "70, 30" and part.initial["bounty"] == 5


def test_with_no_blind_structure_to_choose_the_part_starts_off(director_client: Client) -> None:
    BlindStructure.objects.all().delete()
    season = _season()
    page = director_client.get(reverse("series:event_new", args=[season.pk]))
    part = next(form for name, _part, form in page.context["parts"].shown if name == "tournament")
    assert part.initial["run"] is False
    data = {
        "name": "Autumn",
        "starts_on": season.starts_on.isoformat(),
        "ends_on": season.ends_on.isoformat(),
        "description": "",
        "visibility": season.visibility,
        "season_pot_per_entry": "0",
        "default_venue": "Chez Ben",
    }
    response = director_client.post(reverse("series:season_edit", args=[season.pk]), data)
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.default_venue == "Chez Ben"
