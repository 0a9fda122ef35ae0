"""The director's console on a phone: the night's commonest actions without scrolling.

A director runs the night from a phone (390x844). From the top of the console, pausing
the clock, a rebuy for any player and putting any player out each take at most one tap
that opens a menu, then the tap that does it, with nothing to scroll: every control
needed is inside the screen. Each action is then done for real, and Undo is right there.
Screenshots of the console at 390x844 and 1280x800, in English and in French, land in
test-artifacts/ (console-phone-*.png, console-desktop-*.png). Deselect with
``-m "not browser"``.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, Locator, Page, expect

from series.models import Event, Season
from series.services import director_grant
from series.services.health import worker_heartbeat_record
from tests.browser import ARTIFACTS, needs_chromium, picture
from tests.conftest import PASSWORD
from tests.tournaments.factories import make_user
from tests.tournaments.levels import BREAK_1, ROWS
from tournaments.models import (
    BlindLevel,
    BlindStructure,
    Entry,
    EntryState,
    Tournament,
    TournamentState,
)
from tournaments.services import results
from tournaments.services.entries import entry_add_walk_in, entry_rebuy, entry_register
from tournaments.services.lifecycle import tournament_start

pytestmark = needs_chromium

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
# Ten players: two tables of five once the seats are drawn.
NAMES = ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Zoe"]


@pytest.fixture
def night(transactional_db: None, settings) -> Tournament:  # type: ignore[no-untyped-def]
    """Ten players in play at level 1, the clock running; rebuys, an add-on at the first
    break, re-entries and a bounty."""
    settings.TOURNAMENTS_SCHEDULE_TASKS = False
    director = director_grant(User.objects.create_user("dana", password=PASSWORD))
    today = timezone.localdate()
    season = Season.objects.create(
        name="Spring", starts_on=today, ends_on=today + timedelta(days=60)
    )
    event = Event.objects.create(
        season=season,
        name="Thursday PLO8",
        starts_at=timezone.now(),
        buy_in=20,
        fee=5,
        starting_stack=10000,
    )
    blind_structure = BlindStructure.objects.create(name="Home PLO8")
    BlindLevel.objects.bulk_create(
        BlindLevel(
            blind_structure=blind_structure,
            position=p,
            kind=k,
            minutes=m,
            small_blind=s,
            big_blind=b,
        )
        for p, (k, m, s, b) in enumerate(ROWS)
    )
    tournament = Tournament.objects.create(
        event=event,
        blind_structure=blind_structure,
        seats_per_table=6,
        bounty=5,
        late_registration_until_level=4,
        rebuys_allowed=2,
        rebuy_until_level=3,
        rebuy_chips=10000,
        rebuy_price=20,
        addon_at_break=BREAK_1,
        addon_chips=15000,
        addon_price=20,
        reentries_allowed=1,
        reentry_until_level=4,
    )
    for name in NAMES:
        entry_register(tournament.pk, make_user(name))
    tournament_start(tournament.pk, by=director)
    # A night whose task worker runs: no warning above the console.
    worker_heartbeat_record("worker@night")
    return tournament


@pytest.fixture
def browser(live_browser: Browser) -> Browser:
    return live_browser


def console_page(
    browser: Browser, base: str, tournament: Tournament, viewport: dict, language: str = "en"
) -> Page:
    page = browser.new_page(viewport=viewport, locale=language)
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{base}/accounts/login/")
    page.locator("#id_username").fill("dana")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("#id_password").press("Enter")
    page.wait_for_url(lambda url: "/login/" not in url)
    if language != "en":
        page.context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    page.goto(f"{base}/tournaments/{tournament.pk}/console/")
    return page


def in_view(page: Page, target: Locator) -> None:
    """``target`` is on screen as the page stands: not scrolled to, not under the fold."""
    expect(target).to_be_visible()
    box = target.bounding_box()
    assert box is not None
    assert page.evaluate("window.scrollY") == 0
    height = page.viewport_size["height"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, (box, height)


def player_row(page: Page, name: str) -> Locator:
    return page.locator("#console-players li.entry", has_text=name)


def last_playing(tournament: Tournament) -> Entry:
    """The player furthest down the list: the hardest one to reach."""
    playing = tournament.entries.filter(state=EntryState.PLAYING).select_related("player")
    return max(playing, key=lambda entry: entry.player.name.casefold())


def test_pause_rebuy_and_out_within_two_taps_on_a_phone(
    night: Tournament, live_server, browser: Browser
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page = console_page(browser, live_server.url, night, PHONE)
    picture(page, str(ARTIFACTS / "console-phone-top.png"))

    # Pause: one tap, in the bar at the top.
    bar = page.locator("#console-bar")
    pause = bar.get_by_role("button", name="Pause")
    in_view(page, pause)
    pause.click()
    resume = bar.get_by_role("button", name="Resume")
    expect(resume).to_be_visible()
    night.refresh_from_db()
    assert night.paused_remaining is not None
    expect(page.locator("#console-players .undo-what")).to_contain_text("Clock paused")

    # A rebuy for the last player of the list: one tap opens the player's actions.
    zoe = last_playing(night)
    row = player_row(page, zoe.player.name)
    opener = row.get_by_role("button", name=f"Actions for {zoe.player.name}")
    in_view(page, opener)
    opener.click()
    sheet = page.locator(f"#player-{zoe.pk}-actions")
    stack = sheet.get_by_label(f"{zoe.player.name}'s stack")
    rebuy = sheet.get_by_role("button", name="Rebuy")
    in_view(page, stack)
    in_view(page, rebuy)
    picture(page, str(ARTIFACTS / "console-phone-actions.png"))
    stack.fill("0")
    rebuy.click()
    expect(page.get_by_text(f"Rebuy for {zoe.player.name}.")).to_be_visible()
    zoe.refresh_from_db()
    assert zoe.rebuys == 1

    # A move to a taken seat is refused in the panel itself, which stays open; the open
    # seat of the other table takes her.
    taken = night.entries.exclude(pk=zoe.pk).filter(state=EntryState.PLAYING).first()
    opener = player_row(page, zoe.player.name).get_by_role(
        "button", name=f"Actions for {zoe.player.name}"
    )
    opener.click()
    move = sheet.locator(".sheet-move")
    move.get_by_label("Table").fill(str(taken.table_number))
    move.get_by_label("Seat").fill(str(taken.seat_number))
    move.get_by_role("button", name="Move").click()
    expect(sheet.locator(".sheet-error")).to_contain_text("taken")
    expect(sheet).to_be_visible()
    other = 2 if zoe.table_number == 1 else 1
    seated = set(
        night.entries.filter(table_number=other, state=EntryState.PLAYING).values_list(
            "seat_number", flat=True
        )
    )
    free = min(set(range(1, 7)) - seated)
    move.get_by_label("Table").fill(str(other))
    move.get_by_label("Seat").fill(str(free))
    move.get_by_role("button", name="Move").click()
    expect(page.locator("#console-players .undo-what")).to_contain_text(
        f"table {other} seat {free}"
    )
    zoe.refresh_from_db()
    assert (zoe.table_number, zoe.seat_number) == (other, free)

    # Out, knocked out by Ann: the same tap opens it; the bounty goes to Ann.
    opener = player_row(page, zoe.player.name).get_by_role(
        "button", name=f"Actions for {zoe.player.name}"
    )
    in_view(page, opener)
    opener.click()
    by = sheet.get_by_label("Knocked out by")
    out = sheet.get_by_role("button", name="Out", exact=True)
    in_view(page, by)
    in_view(page, out)
    by.select_option(label="Ann")
    out.click()
    expect(page.locator("#console-players .undo-what")).to_contain_text(
        f"{zoe.player.name} (place 10), by Ann"
    )
    zoe.refresh_from_db()
    assert (zoe.state, zoe.place, zoe.eliminated_by.player.name) == (EntryState.OUT, 10, "Ann")
    picture(page, str(ARTIFACTS / "console-phone-after-out.png"))

    # Undo is in view too, and takes the elimination back.
    undo = page.locator("#console-players").get_by_role("button", name="Undo")
    in_view(page, undo)
    undo.click()
    expect(page.get_by_text(f"Undone: Out: {zoe.player.name}")).to_be_visible()
    zoe.refresh_from_db()
    assert zoe.state == EntryState.PLAYING
    page.close()


def test_in_french_too_the_controls_are_on_the_first_screen(
    night: Tournament, live_server, browser: Browser
) -> None:
    """French is longer (the site's menu takes a line more): the same controls are still
    on the first screen. Found by their place, not their words."""
    page = console_page(browser, live_server.url, night, PHONE, "fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    in_view(page, page.locator("#console-bar .bar-pause button"))
    zoe = last_playing(night)
    opener = page.locator(f"#entry-{zoe.pk} .entry-open")
    in_view(page, opener)
    opener.click()
    sheet = page.locator(f"#player-{zoe.pk}-actions")
    for control in (
        sheet.locator(f"#player-{zoe.pk}-by"),
        sheet.locator(".sheet-out button"),
        sheet.locator(f"#stack-{zoe.pk}"),
        sheet.locator("form[action$='/rebuy/'] button"),
    ):
        in_view(page, control)
    picture(page, str(ARTIFACTS / "console-phone-fr-actions.png"))
    page.close()


def test_the_sections_have_jump_links(night: Tournament, live_server, browser: Browser) -> None:
    page = console_page(browser, live_server.url, night, PHONE)
    menu = page.locator("#console-bar summary", has_text="Sections")
    in_view(page, menu)
    menu.click()
    jump = page.locator("#console-bar nav")
    for name, target in (
        ("Players", "#console-players"),
        ("Seating", "#console-seating"),
        ("Clock", "#console-clock"),
        ("Chips", "#console-chips"),
        ("Results", "#console-results"),
        ("Log", "#console-log"),
    ):
        link = jump.get_by_role("link", name=name, exact=True)
        in_view(page, link)
        assert link.get_attribute("href") == target
        expect(page.locator(target)).to_have_count(1)
    picture(page, str(ARTIFACTS / "console-phone-menu.png"))
    jump.get_by_role("link", name="Results", exact=True).click()
    # The menu closes; the bar stays at the top, and the section starts below it.
    expect(jump).to_be_hidden()
    bar = page.locator("#console-bar").bounding_box()
    section = page.locator("#console-results").bounding_box()
    assert bar is not None and section is not None
    assert bar["y"] == 0 and section["y"] >= bar["height"] - 1
    page.close()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_screenshots_on_a_phone_and_a_laptop(
    night: Tournament, live_server, browser: Browser, language: str
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = console_page(browser, live_server.url, night, viewport, language)
        expect(page.locator("#console-bar")).to_be_visible()
        picture(page, str(ARTIFACTS / f"console-{size}-{language}.png"))
        picture(page, str(ARTIFACTS / f"console-{size}-{language}-full.png"), full_page=True)
        page.locator("#console-players .entry-open").first.click()
        expect(page.locator(".sheet:popover-open")).to_be_visible()
        picture(page, str(ARTIFACTS / f"console-{size}-{language}-panel.png"))
        page.close()

    # Later, at the add-on break: a player out who may re-enter, one registered late, a
    # guest walked in without a seat yet, and a rebuy.
    director = User.objects.get(username="dana")
    zoe = last_playing(night)
    results.entry_eliminate(night.pk, [zoe.pk], by=director)
    entry_register(night.pk, make_user("Kim"))
    entry_add_walk_in(night.pk, "Lou from next door", by=director)
    entry_rebuy(night.entries.get(player__name="Ann").pk, by=director, stack=0)
    Tournament.objects.filter(pk=night.pk).update(
        level_index=BREAK_1,
        state=TournamentState.ON_BREAK,
        level_ends_at=timezone.now() + timedelta(minutes=10),
    )
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = console_page(browser, live_server.url, night, viewport, language)
        expect(page.locator("#console-players .entries-out")).to_be_visible()
        picture(
            page.locator("#console-players"),
            str(ARTIFACTS / f"console-{size}-{language}-break-players.png"),
        )
        page.close()
