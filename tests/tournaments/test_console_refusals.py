"""A refused console action is shown where the director tapped: with htmx, every console form
is answered 200 with its section and the reason (htmx swaps no 4xx answer, so a 400 would
leave the screen as it was and the director none the wiser), and nothing changes."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, expect

from tests.browser import ARTIFACTS, LAPTOP, PHONE, log_in, needs_chromium, picture
from tests.tournaments.clock_helpers import reload
from tournaments.models import Tournament
from tournaments.services.clock.controls import clock_pause, clock_resume

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock_tasks_off")]

HTMX = {"HTTP_HX_REQUEST": "true"}


def post(client: Client, name: str, tournament: Tournament, data: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return client.post(reverse(f"tournaments:{name}", args=[tournament.pk]), data or {}, **HTMX)


def test_pause_of_a_paused_clock_is_shown_in_the_clock_section(
    director_client: Client, director: User, running_now: Tournament
) -> None:
    # Another director (or another tab) paused first; this console still offered Pause.
    clock_pause(running_now.pk, by=director)
    before = reload(running_now).clock_version
    response = post(director_client, "clock_pause", running_now)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="console-clock"' in page and 'role="alert"' in page
    assert "The clock is already paused." in page
    # Nothing changed, so the other sections are not told to refresh.
    assert "HX-Trigger" not in response
    assert reload(running_now).clock_version == before


def test_resume_of_a_running_clock_is_shown_in_the_clock_section(
    director_client: Client, running_now: Tournament
) -> None:
    before = reload(running_now).clock_version
    response = post(director_client, "clock_resume", running_now)
    assert response.status_code == 200
    assert "The clock is not paused." in response.content.decode()
    assert reload(running_now).clock_version == before


@pytest.mark.parametrize(
    ("name", "data", "section"),
    [
        ("clock_previous", {}, "console-clock"),
        ("clock_adjust", {"seconds": "lots"}, "console-clock"),
        ("clock_break_add", {"minutes": "5", "after": "nope"}, "console-clock"),
        ("tv_layout", {"theme": "neon"}, "console-tv"),
        # The sections that already answered so: the same way for every console form.
        ("seating_final_table", {}, "console-seating"),
        ("results_finish", {}, "console-results"),
    ],
)
def test_every_console_refusal_comes_back_in_its_section(
    director_client: Client, running_now: Tournament, name: str, data: dict[str, str], section: str
) -> None:
    before = reload(running_now).clock_version
    response = post(director_client, name, running_now, data)
    assert response.status_code == 200
    page = response.content.decode()
    assert f'id="{section}"' in page and 'role="alert"' in page
    assert "HX-Trigger" not in response
    assert reload(running_now).clock_version == before


@needs_chromium[0]
@needs_chromium[1]
def test_a_refused_pause_shows_in_the_browser(
    running_now: Tournament, director: User, live_server, live_browser: Browser
) -> None:
    """The console still offers Pause after another screen paused the clock: the tap says
    why nothing happened, in the clock section, on a phone and on a laptop."""
    ARTIFACTS.mkdir(exist_ok=True)
    for viewport in (PHONE, LAPTOP):
        page = live_browser.new_page(viewport=viewport)
        log_in(page, live_server.url, then=f"/tournaments/{running_now.pk}/console/")
        clock = page.locator("#console-clock")
        pause = clock.get_by_role("button", name="Pause")
        expect(pause).to_be_visible()
        clock_pause(running_now.pk, by=director)
        pause.click()
        expect(clock.get_by_role("alert")).to_have_text("The clock is already paused.")
        expect(clock.get_by_role("button", name="Resume")).to_be_visible()
        picture(clock, str(ARTIFACTS / f"console-clock-refused-{viewport['width']}.png"))
        page.close()
        clock_resume(running_now.pk, by=director)
