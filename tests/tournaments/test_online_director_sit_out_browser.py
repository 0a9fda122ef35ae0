"""The director sits out an online player from the console on a phone (390x844), with a
reason; the player reads it on their table's page. Screenshots land in test-artifacts/
(director-sit-out-*.png). Deselect with ``-m "not browser"``."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.urls import reverse
from playwright.sync_api import Browser, expect

from series.services import director_grant
from tests.browser import ARTIFACTS, PHONE, log_in, needs_chromium, picture
from tests.conftest import PASSWORD
from tests.tournaments.factories import start
from tests.tournaments.online_tables import clock_running, seat_online
from tournaments.models import Tournament, TournamentTable

pytestmark = needs_chromium


@pytest.fixture
def two_tables(transactional_db: None, online_tournament: Tournament) -> Tournament:
    start(online_tournament)
    clock_running(online_tournament)
    seat_online(online_tournament, {1: {1: ("ann", 6000), 3: ("ben", 14000)}})
    seat_online(online_tournament, {2: {2: ("cal", 9000), 5: ("dee", 11000)}})
    cache.clear()
    return online_tournament


def test_the_director_sits_out_a_player_who_reads_why(
    two_tables: Tournament, live_server, live_browser: Browser
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    base = live_server.url
    director_grant(User.objects.create_user("dana2", password=PASSWORD))
    context = live_browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        log_in(page, base, "dana2", then=reverse("tournaments:console", args=[two_tables.pk]))
        form = page.locator(".online-player-form")
        expect(form).to_be_visible()
        form.get_by_label("Player", exact=True).select_option(label="Ann (table 1, seat 1)")
        form.get_by_label("Reason (the player reads it)").fill("Your phone keeps ringing")
        picture(form, str(ARTIFACTS / "director-sit-out-console-phone.png"))
        form.get_by_role("button", name="Sit out").click()
        expect(page.locator("#console-online")).to_be_visible()
        page.wait_for_function(
            "() => !document.querySelector('#online-player-reason')"
            " || document.querySelector('#online-player-reason').value === ''"
        )
        picture(page, str(ARTIFACTS / "director-sit-out-done-phone.png"), full_page=True)
    finally:
        context.close()
    live = TournamentTable.objects.get(tournament=two_tables, number=1).live_table_id
    context = live_browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        log_in(page, base, "ann", then=reverse("tables:table", args=[live]))
        note = page.locator(".my-director-note")
        expect(note).to_contain_text("The director sat you out")
        expect(note).to_contain_text("Your phone keeps ringing")
        note.scroll_into_view_if_needed()
        picture(page, str(ARTIFACTS / "director-sit-out-player-phone.png"))
    finally:
        context.close()
