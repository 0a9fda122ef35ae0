"""The TV clock page, its JSON for overlays, and the console's clock controls (directors only)."""

from __future__ import annotations

import itertools
import json
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.clock_helpers import ROW_LAST, ROW_LEVEL_1, ROW_LEVEL_2, reload
from tournaments.models import Tournament, TournamentAction, TournamentState

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock_tasks_off")]

CONTROLS = [
    "clock_start",
    "clock_pause",
    "clock_resume",
    "clock_adjust",
    "clock_next",
    "clock_previous",
    "clock_break",
]


def tv_url(tournament: Tournament) -> str:
    return reverse("tournaments:tv_clock", args=[tournament.tv_token])


def json_url(tournament: Tournament) -> str:
    return reverse("tournaments:tv_clock_json", args=[tournament.tv_token])


# ---------------------------------------------------------------------------- the TV page


def test_the_tv_clock_needs_no_login(client: Client, running_now: Tournament) -> None:
    response = client.get(tv_url(running_now))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Thursday PLO8" in page
    assert "Level 1" in page
    assert "25 / 50" in page  # the blinds, painted before the socket connects
    assert "Level 2: 50 / 100" in page  # the next level
    # The break in 40 minutes, less the seconds the page took on a busy machine.
    assert re.search(r"\b(40:00|39:[0-5]\d)\b", page)
    assert f"/ws/tournaments/{running_now.tv_token}/clock/" in page
    assert 'id="clock-data"' in page
    assert reverse("javascript-catalog") in page


def test_the_tv_page_carries_the_rows_ahead_while_the_clock_runs(
    client: Client, running_now: Tournament
) -> None:
    """The rows the clock comes to next, with their starts, for a TV that loses its server
    (static/tournaments/clock.js moves on through them)."""
    response = client.get(tv_url(running_now))
    ahead = json.loads(
        re.search(r'id="clock-ahead"[^>]*>(.*?)</script>', response.content.decode())[1]
    )
    payload = response.context["payload"]["clock"]
    assert ahead[0]["index"] == payload["index"] + 1
    assert ahead[0]["starts_at_ms"] == payload["ends_at_ms"]
    assert ahead[0]["number"] == 2 and ahead[0]["big_blind"] == 100
    assert all(
        later["starts_at_ms"] > earlier["starts_at_ms"]
        for earlier, later in itertools.pairwise(ahead)
    )
    assert {"chip_race", "is_last", "leaving"} <= set(ahead[0])
    # Paused: nothing moves on by itself.
    Tournament.objects.filter(pk=running_now.pk).update(
        level_ends_at=None, paused_remaining=timedelta(minutes=7)
    )
    page = client.get(tv_url(running_now)).content.decode()
    assert '<script id="clock-ahead" type="application/json">[]</script>' in page


def test_a_paused_clock_and_an_ante_show(client: Client, running_now: Tournament) -> None:
    Tournament.objects.filter(pk=running_now.pk).update(
        level_index=4, level_ends_at=None, paused_remaining=timedelta(minutes=7, seconds=30)
    )
    page = client.get(tv_url(running_now)).content.decode()
    assert "Paused" in page and "7:30" in page
    assert "150 / 300" in page and "Big-blind ante 300" in page


def test_past_the_last_level_the_screens_show_the_doubled_levels(
    client: Client, director: User, running_now: Tournament
) -> None:
    from django.template.loader import render_to_string
    from django.test import RequestFactory
    from django.utils import timezone

    # The last level (200/400, big-blind ante 400, 20 minutes) ended five minutes ago.
    Tournament.objects.filter(pk=running_now.pk).update(
        level_index=ROW_LAST, level_ends_at=timezone.now() - timedelta(minutes=5)
    )
    page = client.get(tv_url(running_now)).content.decode()
    assert "Level 6" in page and "400 / 800" in page and "Big-blind ante 800" in page
    assert "Level 7: 800 / 1,600" in page  # the next level
    assert "Last level" not in page
    data = client.get(json_url(running_now)).json()
    assert data["clock"]["level_number"] == 6 and data["clock"]["index"] == ROW_LAST + 1
    assert 14 * 60_000 < data["clock"]["remaining_ms"] <= 15 * 60_000
    request = RequestFactory().get("/console/")
    request.user = director
    html = render_to_string(
        "tournaments/_console_clock.html", {"tournament": reload(running_now)}, request=request
    )
    next_form = html.split(reverse("tournaments:clock_next", args=[running_now.pk]))[-1]
    assert "disabled" not in next_form.split("</form>")[0]


def test_the_chip_race_is_announced_before_the_colour_up(
    client: Client, running_now: Tournament
) -> None:
    Tournament.objects.filter(pk=running_now.pk).update(level_index=ROW_LEVEL_2)
    page = client.get(tv_url(running_now)).content.decode()
    assert "Chip race at the break: the 25 chips come off" in page


def test_a_wrong_token_is_404(client: Client, running_now: Tournament) -> None:
    assert client.get("/tournaments/tv/not-the-token/").status_code == 404
    assert client.get("/tournaments/tv/not-the-token.json").status_code == 404


def test_the_json_is_the_same_data_for_overlays(client: Client, running_now: Tournament) -> None:
    response = client.get(json_url(running_now))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Access-Control-Allow-Origin"] == "*"
    assert response["Cache-Control"] == "no-store"
    data = response.json()
    assert data["type"] == "clock" and data["tournament"]["name"] == "Thursday PLO8"
    assert data["clock"]["index"] == ROW_LEVEL_1
    assert data["clock"]["ends_at_ms"] == round(running_now.level_ends_at.timestamp() * 1000)
    assert set(data["field"]) >= {"players_left", "entries", "average_stack", "prize_pool"}


def test_a_registering_tournament_shows_not_started(
    client: Client, clock_tournament: Tournament
) -> None:
    Tournament.objects.filter(pk=clock_tournament.pk).update(state=TournamentState.REGISTERING)
    page = client.get(tv_url(clock_tournament)).content.decode()
    assert "Not started" in page and "20:00" in page


# ---------------------------------------------------------------------------- controls


@pytest.mark.parametrize("name", CONTROLS)
def test_players_get_403_on_every_control(
    player_client: Client, running_now: Tournament, name: str
) -> None:
    before = reload(running_now).clock_version
    url = reverse(f"tournaments:{name}", args=[running_now.pk])
    assert player_client.post(url, {"seconds": "60"}).status_code == 403
    assert reload(running_now).clock_version == before


@pytest.mark.parametrize("name", CONTROLS)
def test_anonymous_visitors_are_sent_to_log_in(
    client: Client, running_now: Tournament, name: str
) -> None:
    response = client.post(reverse(f"tournaments:{name}", args=[running_now.pk]))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("name", CONTROLS)
def test_controls_are_post_only(
    director_client: Client, running_now: Tournament, name: str
) -> None:
    url = reverse(f"tournaments:{name}", args=[running_now.pk])
    assert director_client.get(url).status_code == 405


def test_a_director_pauses_and_resumes_from_the_console(
    director_client: Client, running_now: Tournament, director: User
) -> None:
    url = reverse("tournaments:clock_pause", args=[running_now.pk])
    response = director_client.post(url, {"next": "/somewhere/"})
    assert response.status_code == 302 and response["Location"] == "/somewhere/"
    assert reload(running_now).paused_remaining is not None
    response = director_client.post(
        reverse("tournaments:clock_resume", args=[running_now.pk]), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert response["HX-Trigger"] == "tournament-changed"
    page = response.content.decode()
    assert 'id="console-clock"' in page and "Pause" in page
    assert reload(running_now).paused_remaining is None
    assert TournamentAction.objects.filter(tournament=running_now, by=director).count() == 2


def test_an_offsite_next_is_ignored(director_client: Client, running_now: Tournament) -> None:
    url = reverse("tournaments:clock_pause", args=[running_now.pk])
    response = director_client.post(url, {"next": "https://evil.example/"})
    assert response.status_code == 302 and "evil" not in response["Location"]


def test_adjust_and_jumps_through_the_console(
    director_client: Client, running_now: Tournament
) -> None:
    ends = reload(running_now).level_ends_at
    director_client.post(
        reverse("tournaments:clock_adjust", args=[running_now.pk]), {"seconds": "60"}
    )
    assert (reload(running_now).level_ends_at - ends).total_seconds() == pytest.approx(60, abs=2)
    # The break is inserted after level 1, which it interrupts (level 2 follows it).
    director_client.post(reverse("tournaments:clock_break", args=[running_now.pk]))
    assert reload(running_now).level_index == ROW_LEVEL_1 + 1
    assert reload(running_now).state == TournamentState.ON_BREAK
    director_client.post(reverse("tournaments:clock_previous", args=[running_now.pk]))
    assert reload(running_now).level_index == ROW_LEVEL_1
    director_client.post(reverse("tournaments:clock_next", args=[running_now.pk]))
    assert reload(running_now).level_index == ROW_LEVEL_1 + 1


def test_a_refused_control_says_why_and_changes_nothing(
    director_client: Client, running_now: Tournament
) -> None:
    before = reload(running_now).clock_version
    url = reverse("tournaments:clock_adjust", args=[running_now.pk])
    response = director_client.post(url, {"seconds": "lots"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200  # htmx swaps the clock section with the reason
    assert "Say how many seconds" in response.content.decode()
    response = director_client.post(
        reverse("tournaments:clock_previous", args=[running_now.pk]), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and "first level" in response.content.decode()
    response = director_client.post(reverse("tournaments:clock_resume", args=[running_now.pk]))
    assert response.status_code == 302  # without htmx: back, with the message
    assert reload(running_now).clock_version == before


def test_a_missing_tournament_is_404(director_client: Client, db: None) -> None:
    url = reverse("tournaments:clock_pause", args=[424242])
    assert director_client.post(url).status_code == 404


def test_the_console_partial_offers_the_controls_for_the_clock_it_shows(
    director: User, running_now: Tournament
) -> None:
    from django.template.loader import render_to_string
    from django.test import RequestFactory

    request = RequestFactory().get("/console/")
    request.user = director
    html = render_to_string(
        "tournaments/_console_clock.html", {"tournament": reload(running_now)}, request=request
    )
    for name in ("clock_pause", "clock_adjust", "clock_next", "clock_break"):
        assert reverse(f"tournaments:{name}", args=[running_now.pk]) in html
    assert reverse("tournaments:clock_resume", args=[running_now.pk]) not in html
    assert tv_url(running_now) in html
    Tournament.objects.filter(pk=running_now.pk).update(
        level_ends_at=None, paused_remaining=None, state=TournamentState.REGISTERING
    )
    html = render_to_string(
        "tournaments/_console_clock.html", {"tournament": reload(running_now)}, request=request
    )
    assert "The clock starts when you start the tournament." in html
    assert reverse("tournaments:clock_pause", args=[running_now.pk]) not in html
