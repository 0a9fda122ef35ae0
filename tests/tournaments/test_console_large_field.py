"""A large field on the director's phone (390x844): 45 players at five tables. From the top
of the console, three letters typed in the players' search and two taps (the player, then
Out) put out the 45th player of the list; the list can also be read table by table. In
English and in French, with screenshots in test-artifacts/ (console-large-*.png)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from tests.browser import ARTIFACTS, PHONE, console_page, needs_chromium, picture
from tournaments.models import EntryState, Tournament
from tournaments.services.entries import entry_add_walk_in
from tournaments.services.lifecycle import tournament_start

pytestmark = [*needs_chromium, pytest.mark.django_db(transaction=True)]

# Forty-four names before "Zora" in the alphabet, so she is the 45th and last row.
FIRST = ["Abe", "Ada", "Al", "Amy", "Ann", "Ari", "Bea", "Ben", "Bo", "Cal", "Cy"]
NAMES = [f"{first} {last}" for first in FIRST for last in ("Lee", "Moss", "Ng", "Park")]
LAST = "Zora Quinn"


@pytest.fixture
def large(tournament: Tournament, director: User, settings) -> Tournament:  # type: ignore[no-untyped-def]
    settings.TOURNAMENTS_SCHEDULE_TASKS = False
    tournament.capacity = None
    tournament.seats_per_table = 9
    tournament.save(update_fields=["capacity", "seats_per_table"])
    for name in [*NAMES, LAST]:
        entry_add_walk_in(tournament.pk, name, by=director)
    return tournament_start(tournament.pk, by=director)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_45th_player_is_out_in_three_letters_and_two_taps(
    large: Tournament, live_server, live_browser: Browser, language: str
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    assert large.entries.filter(state=EntryState.PLAYING).count() == 45
    zora = large.entries.get(player__name=LAST)
    page = console_page(live_browser, live_server.url, large.pk, PHONE)
    if language != "en":
        page.context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        page.reload()
    page.on("dialog", lambda dialog: dialog.accept())
    rows = page.locator("#console-players .entry-list > li.entry")
    expect(rows).to_have_count(45)

    # The search is on the first screen; three letters leave one row.
    find = page.locator("#players-find")
    expect(find).to_be_in_viewport()
    find.press_sequentially("zor")
    expect(rows.locator("visible=true")).to_have_count(1)
    picture(page, str(ARTIFACTS / f"console-large-search-{language}.png"))

    # Tap one: the player. Tap two: Out (knocked out by nobody).
    page.locator(f'[popovertarget="player-{zora.pk}-actions"]').first.click()
    page.locator(f"#player-{zora.pk}-actions .sheet-out button[type=submit]").click()
    expect(page.locator("#console-players .undo-what")).to_contain_text(LAST)
    zora.refresh_from_db()
    assert zora.state == EntryState.OUT and zora.place == 45

    # Table by table: a heading per table, each player under theirs, by seat.
    find.fill("")
    page.locator("[data-players-group]").click()
    headings = page.locator("#console-players .entry-list > li.entry-group")
    expect(headings).to_have_count(5)
    expect(headings.first).to_contain_text("1")
    picture(page, str(ARTIFACTS / f"console-large-tables-{language}.png"))
    first_table = page.evaluate(
        """() => {
          const out = [];
          for (const li of document.querySelectorAll('#console-players .entry-list > li')) {
            if (li.classList.contains('entry-group')) { if (out.length) break; continue; }
            out.push([Number(li.dataset.table), Number(li.dataset.seat)]);
          }
          return out;
        }"""
    )
    assert first_table and all(table == 1 for table, _ in first_table)
    assert [seat for _, seat in first_table] == sorted(seat for _, seat in first_table)
    page.context.close()
