"""The director's console on a phone (390x844) in Debian's chromium, and the public page.

Screenshots land in test-artifacts/ (console-phone.png, tournament-phone.png). Deselect with
``-m "not browser"``.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, expect

from tests.browser import ARTIFACTS, PHONE, log_in, needs_chromium, picture
from tests.tournaments.factories import make_user
from tests.tournaments.levels import BREAK_1
from tournaments.models import Entry, EntryState, Tournament, TournamentState
from tournaments.services.entries import entry_add_walk_in, entry_rebuy, entry_register
from tournaments.services.lifecycle import tournament_start

pytestmark = needs_chromium


@pytest.fixture
def night(tournament: Tournament, director: User) -> Tournament:
    """A tournament at its add-on break: players in, one out, one registered late, a guest
    walked in late, and a few actions in the log."""
    Tournament.objects.filter(pk=tournament.pk).update(capacity=7)
    for name in ("Ann", "Ben", "Cal", "Dee", "Eve"):
        entry_register(tournament.pk, make_user(name))
    tournament_start(tournament.pk, by=director)
    ann = tournament.entries.get(player__name="Ann")
    entry_rebuy(ann.pk, by=director, stack=1200)
    Entry.objects.filter(player__name="Eve").update(
        state=EntryState.OUT, table_number=None, seat_number=None
    )
    entry_register(tournament.pk, make_user("Fay"))
    entry_add_walk_in(tournament.pk, "Gus from next door", by=director)
    # The clock at the add-on break, ten minutes left.
    Tournament.objects.filter(pk=tournament.pk).update(
        level_index=BREAK_1,
        state=TournamentState.ON_BREAK,
        level_ends_at=timezone.now() + timedelta(minutes=10),
    )
    return tournament


def test_the_console_on_a_phone(night: Tournament, live_server, live_browser: Browser) -> None:
    tournament = night
    ARTIFACTS.mkdir(exist_ok=True)
    base = live_server.url
    page = live_browser.new_page(viewport=PHONE)
    log_in(page, base, then=f"/tournaments/{tournament.pk}/console/")
    expect(page.get_by_role("heading", name="Thursday PLO8")).to_be_visible()

    # A one-tap add-on through htmx: the entries section is swapped in place.
    ben = page.locator("li.entry", has_text="Ben")
    ben.get_by_role("button", name="Add-on").click()
    expect(page.get_by_text("Add-on for Ben.")).to_be_visible()
    expect(
        page.locator("li.entry", has_text="Ben").get_by_role("button", name="Add-on")
    ).to_have_count(0)

    page.locator("#walk-in-name").fill("Hal")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.get_by_text("Hal is in.")).to_be_visible()
    picture(page, str(ARTIFACTS / "console-phone.png"), full_page=True)

    # Undo repaints the whole console and says what it undid.
    page.get_by_role("button", name="Undo").click()
    expect(page.get_by_text("Undone: Walk-in, late entry: Hal")).to_be_visible()
    assert not tournament.entries.filter(player__name="Hal").exists()
    picture(page, str(ARTIFACTS / "console-phone-after-undo.png"), full_page=True)
    page.close()


def test_the_public_page_on_a_phone(night: Tournament, live_server, live_browser: Browser) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    make_user("rosa")  # registers during late registration
    page = live_browser.new_page(viewport=PHONE)
    log_in(page, live_server.url, "rosa", then=f"/tournaments/{night.pk}/")
    page.get_by_role("button", name="Register").click()
    expect(page.get_by_text("You are registered. See you at the table!")).to_be_visible()
    picture(page, str(ARTIFACTS / "tournament-phone.png"), full_page=True)
    page.close()
