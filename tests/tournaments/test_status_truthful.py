"""The tournament's status as it is: the badge follows the clock (not a stored state a
moment late), and a deal's hold of the tables is worded apart from a director's pause;
resuming while a deal is open asks first."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.factories import start
from tests.tournaments.levels import BREAK_2
from tournaments.models import DealOffer, DealState, Tournament, TournamentState
from tournaments.services import deals

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def no_tasks(settings) -> None:  # type: ignore[no-untyped-def]
    settings.TOURNAMENTS_SCHEDULE_TASKS = False


def badge(page: str) -> str:
    start = page.index('<span class="badge state-')
    return page[start : page.index("</span>", start)]


def test_the_badge_says_running_once_the_break_is_over(
    tournament: Tournament, director_client: Client, client: Client
) -> None:
    # The second break ended a minute ago: level 6 is on, though the stored state, which
    # the task storing the change has not written yet, still says "on break".
    start(tournament, BREAK_2)
    Tournament.objects.filter(pk=tournament.pk).update(
        state=TournamentState.ON_BREAK, level_ends_at=timezone.now() - timedelta(minutes=1)
    )
    console = director_client.get(reverse("tournaments:console", args=[tournament.pk]))
    shown = badge(console.content.decode())
    assert "Running" in shown and "On break" not in shown
    detail = client.get(tournament.get_absolute_url()).content.decode()
    assert "On break" not in badge(detail)


def test_the_badge_says_paused_while_the_clock_is_stopped(
    tournament: Tournament, director_client: Client
) -> None:
    start(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(paused_remaining=timedelta(minutes=5))
    console = director_client.get(reverse("tournaments:console", args=[tournament.pk]))
    assert "Paused" in badge(console.content.decode())


def test_a_deals_hold_is_not_called_a_pause_and_resuming_asks_first(
    online_tournament: Tournament, online_night, director, director_client: Client
) -> None:
    offer = deals.deal_offer(online_tournament.pk, "icm", by=director)
    url = reverse("tournaments:console", args=[online_tournament.pk])
    page = director_client.get(url).content.decode()
    bar = page[page.index('id="console-bar"') : page.index("bar-menu")]
    assert "Held for a deal" in bar and ">Paused<" not in bar
    assert "Held for the deal" in page
    assert "Paused: the tables finish their hand and wait." not in page

    resume = reverse("tournaments:console_online_resume", args=[online_tournament.pk])
    form_start = page.index(f'action="{resume}"')
    form = page[form_start : page.index("</form>", form_start)]
    assert "hx-confirm=" in form and f'name="withdraw_deal" value="{offer.pk}"' in form

    # Not confirmed: nothing changes, and the console says why.
    director_client.post(resume, **HTMX)
    assert "A deal is open" in director_client.get(url).content.decode()
    offer.refresh_from_db()
    online_tournament.refresh_from_db()
    assert offer.state == DealState.OPEN and online_tournament.online_paused

    # Confirmed: the deal is withdrawn and the tables deal again.
    director_client.post(resume, {"withdraw_deal": str(offer.pk)}, **HTMX)
    offer = DealOffer.objects.get(pk=offer.pk)
    online_tournament.refresh_from_db()
    assert offer.state == DealState.CANCELLED and not online_tournament.online_paused
