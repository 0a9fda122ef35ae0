"""The console's players, bar and log as the server writes them (the phone layout's parts
that work without JavaScript, and the pieces htmx swaps in)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import make_user
from tournaments.models import Entry, EntryState, Tournament
from tournaments.services.clock.hand_for_hand import clock_hand_for_hand_start
from tournaments.services.entries import entry_register
from tournaments.services.lifecycle import tournament_start

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
TOKEN = re.compile(r'name="once_token" value="[A-Za-z0-9_-]{16,}"')


@pytest.fixture(autouse=True)
def no_tasks(settings) -> None:  # type: ignore[no-untyped-def]
    settings.TOURNAMENTS_SCHEDULE_TASKS = False


@pytest.fixture
def night(tournament: Tournament, director: User) -> Tournament:
    """Four players in play, the clock running."""
    for name in ("ann", "ben", "cal", "dee"):
        entry_register(tournament.pk, make_user(name))
    return tournament_start(tournament.pk, by=director)


def console(client: Client, tournament: Tournament, **headers: str) -> str:
    response = client.get(reverse("tournaments:console", args=[tournament.pk]), **headers)
    assert response.status_code == 200
    return response.content.decode()


def form(page: str, action: str) -> str:
    """The form of ``page`` posting to ``action``, from its tag to its end."""
    start = page.index(f'action="{action}"')
    return page[page.rindex("<form", 0, start) : page.index("</form>", start)]


def entry(tournament: Tournament, name: str) -> Entry:
    return tournament.entries.get(player__name=name)


def test_the_bar_pauses_and_resumes_with_one_time_keys(
    night: Tournament, director_client: Client
) -> None:
    page = console(director_client, night)
    bar = page[page.index('id="console-bar"') : page.index("</div>", page.index("bar-menu"))]
    assert 'data-paused="0"' in bar
    for name in ("clock_pause", "clock_resume"):
        shown = form(bar, reverse(f"tournaments:{name}", args=[night.pk]))
        assert TOKEN.search(shown)
        assert 'name="next" value="/tournaments/' in shown

    # Without JavaScript the form posts and comes back to the console, paused.
    response = director_client.post(
        reverse("tournaments:clock_pause", args=[night.pk]),
        {"next": reverse("tournaments:console", args=[night.pk])},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:console", args=[night.pk])
    assert 'data-paused="1"' in console(director_client, night)


def test_the_bar_jumps_to_each_section(night: Tournament, director_client: Client) -> None:
    page = console(director_client, night)
    for target in ("console-players", "console-seating", "console-clock", "console-log"):
        assert f'href="#{target}"' in page
        assert f'id="{target}"' in page
    # Online tournaments only have an online section.
    assert 'href="#console-online"' not in page


def test_a_refresh_brings_the_bar_and_the_log_out_of_band(
    night: Tournament, director_client: Client
) -> None:
    page = console(director_client, night, **HTMX)
    assert page.startswith('<div id="console-entries"')
    assert re.search(r'id="console-bar"[^>]*hx-swap-oob="true"', page)
    assert re.search(r'id="console-log"[^>]*hx-swap-oob="true"', page)
    assert "Started with 4 players" in page
    # The full page has each once, and not out of band.
    page = console(director_client, night)
    assert page.count('id="console-bar"') == page.count('id="console-log"') == 1
    assert "hx-swap-oob" not in page


def test_a_players_panel_puts_them_out_knocked_out_by_another(
    night: Tournament, director_client: Client
) -> None:
    ann, ben = entry(night, "ann"), entry(night, "ben")
    page = console(director_client, night)
    panel = page[page.index(f'id="player-{ann.pk}-actions"') :]
    panel = panel[: panel.index("</div>\n", panel.index("</form>", panel.index("/move/")))]
    out = form(panel, reverse("tournaments:results_eliminate", args=[night.pk]))
    assert TOKEN.search(out)
    assert f'name="out" value="{ann.pk}"' in out
    assert f'<option value="{ben.pk}">ben</option>' in out
    assert f'<option value="{ann.pk}">' not in out  # not knocked out by herself
    assert reverse("tournaments:console_rebuy", args=[night.pk, ann.pk]) in panel
    assert reverse("tournaments:seating_move", args=[night.pk]) in panel

    # What the panel's form posts: ann out, ben's knockout; Undo takes it back.
    response = director_client.post(
        reverse("tournaments:results_eliminate", args=[night.pk]),
        {"out": str(ann.pk), "by": str(ben.pk)},
        **HTMX,
    )
    assert response.status_code == 204 and response["HX-Trigger"] == "tournament-changed"
    ann.refresh_from_db()
    assert (ann.state, ann.eliminated_by_id) == (EntryState.OUT, ben.pk)
    page = console(director_client, night, **HTMX)
    assert "Out: ann (place 4), by ben" in page
    assert "1 out" in page
    # Out, ann has no panel any more; she is listed under the players out.
    assert f'id="player-{ann.pk}-actions"' not in page


def test_the_last_player_in_play_has_nobody_to_be_knocked_out_by(
    night: Tournament, director_client: Client
) -> None:
    Entry.objects.filter(tournament=night).exclude(player__name="ann").update(state=EntryState.OUT)
    page = console(director_client, night)
    assert (
        reverse("tournaments:results_eliminate", args=[night.pk])
        not in page.split('id="console-results"')[0]
    )


def test_a_refused_elimination_says_why_for_the_panel(
    night: Tournament, director_client: Client
) -> None:
    ann = entry(night, "ann")
    response = director_client.post(
        reverse("tournaments:results_eliminate", args=[night.pk]),
        {"out": str(ann.pk), "by": str(ann.pk)},
        **HTMX,
    )
    # The panel picks the message out of the answer (hx-select=".message-error").
    assert response.status_code == 200
    assert re.search(r'class="message message-error"[^>]*>[^<]+<', response.content.decode())
    ann.refresh_from_db()
    assert ann.state == EntryState.PLAYING


def test_the_bar_offers_no_pause_before_the_clock_runs(
    tournament: Tournament, director_client: Client
) -> None:
    entry_register(tournament.pk, make_user("ann"))
    page = console(director_client, tournament)
    assert 'id="console-bar"' in page
    assert reverse("tournaments:clock_pause", args=[tournament.pk]) not in page
    assert "Not started" in page


def test_hand_for_hand_takes_the_pause_off_the_bar(
    tournament: Tournament, director: User, director_client: Client
) -> None:
    tournament.seats_per_table = 3
    tournament.save(update_fields=["seats_per_table"])
    for name in ("ann", "ben", "cal", "dee", "eve", "fay"):
        entry_register(tournament.pk, make_user(name))
    night = tournament_start(tournament.pk, by=director)
    clock_hand_for_hand_start(night.pk, by=director)
    page = console(director_client, night)
    bar = page[page.index('id="console-bar"') : page.index('id="console-bar-clock"')]
    assert reverse("tournaments:clock_pause", args=[night.pk]) not in bar
    assert reverse("tournaments:clock_resume", args=[night.pk]) not in bar
