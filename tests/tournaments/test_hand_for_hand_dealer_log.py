"""A dealer's "hand done" (their table's page, no login) is logged as that table's dealer,
not as "automatic" (the clock's own moves)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.clock_helpers import reload
from tournaments.models import Tournament
from tournaments.services.clock.hand_for_hand import clock_hand_for_hand_start
from tournaments.services.clock.reads import clock_dealer_key

from .test_hand_for_hand_room import on_bubble_now as on_bubble_now

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock_tasks_off")]


def test_a_dealers_hand_done_is_logged_as_that_tables_dealer(
    client: Client, on_bubble_now: Tournament, director: User, director_client: Client
) -> None:
    clock_hand_for_hand_start(on_bubble_now.pk, by=director)
    key = clock_dealer_key(reload(on_bubble_now), 2)
    client.post(reverse("tournaments:clock_dealer", args=[on_bubble_now.pk, 2, key]), {"hand": "0"})
    page = director_client.get(reverse("tournaments:console", args=[on_bubble_now.pk]))
    page = page.content.decode()
    log = page[page.index('id="console-log"') :]
    line = log[log.index("Hand-for-hand: table 2 is done") :]
    line = line[: line.index("</li>")]
    assert "dealer of table 2" in line and "automatic" not in line
    bar = page[page.index('class="undo-bar"') :]
    assert "dealer of table 2" in bar[: bar.index("</div>")]
