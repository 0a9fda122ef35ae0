"""A bust and its rebuy in one tap: the row's Rebuy records a rebuy of a busted player
(no chips left) without a stack to type; the panel still takes the chips of a player who
rebuys below the limit."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import make_player, start
from tests.tournaments.levels import LEVEL_2
from tournaments.models import Entry, EntryState, Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def ann(tournament: Tournament) -> Entry:
    entry = Entry.objects.create(
        tournament=tournament, player=make_player("ann"), state=EntryState.PLAYING
    )
    Entry.objects.create(tournament=tournament, player=make_player("ben"), state=EntryState.PLAYING)
    start(tournament, LEVEL_2)
    return entry


def test_a_rebuy_with_no_stack_typed_is_a_busted_players(
    tournament: Tournament, ann: Entry, director_client: Client
) -> None:
    url = reverse("tournaments:console_rebuy", args=[tournament.pk, ann.pk])
    page = director_client.post(url, {}, **HTMX).content.decode()
    assert "Rebuy for ann." in page
    ann.refresh_from_db()
    assert ann.rebuys == 1
    assert tournament.actions.get().summary_text == "Rebuy: ann (1 of 2, had 0 chips)"


def test_the_row_carries_the_one_tap_rebuy(
    tournament: Tournament, ann: Entry, director_client: Client
) -> None:
    page = director_client.get(reverse("tournaments:console", args=[tournament.pk])).content
    page = page.decode()
    row = page[
        page.index(f'id="entry-{ann.pk}"') : page.index("</li>", page.index(f'id="entry-{ann.pk}"'))
    ]
    url = reverse("tournaments:console_rebuy", args=[tournament.pk, ann.pk])
    assert f'action="{url}"' in row
    assert 'name="stack"' not in row
    # The button says what the rebuy gives.
    assert "+10,000" in row


def test_the_panel_stack_is_optional_and_named_as_chips_before(
    tournament: Tournament, ann: Entry, director_client: Client
) -> None:
    page = director_client.get(reverse("tournaments:console", args=[tournament.pk])).content
    page = page.decode()
    panel = page[page.index(f'id="player-{ann.pk}-actions"') :]
    field = panel[
        panel.index(f'id="stack-{ann.pk}"') : panel.index(">", panel.index(f'id="stack-{ann.pk}"'))
    ]
    assert "required" not in field


def test_a_typed_stack_above_the_limit_is_still_refused(
    tournament: Tournament, ann: Entry, director_client: Client
) -> None:
    url = reverse("tournaments:console_rebuy", args=[tournament.pk, ann.pk])
    page = director_client.post(url, {"stack": "12000"}, **HTMX).content.decode()
    assert "only allowed at or below 10,000 chips; ann has 12,000 chips" in page
    page = director_client.post(url, {"stack": "lots"}, **HTMX).content.decode()
    assert "Enter ann&#x27;s stack in chips." in page
    ann.refresh_from_db()
    assert ann.rebuys == 0
