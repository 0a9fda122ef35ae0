"""The TV clock in Debian's chromium against a real server: counting down, following the
director's pause, counting on while its server is away and resyncing when it returns.

``manage.py serve`` (daphne and the embedded Celery) runs on a free port with its own SQLite
file; a tournament of 27 entries is mid-evening on level 4. Screenshots of the TV at
1920x1080 and on a phone (390x844), and of the console's clock on a phone, land in
test-artifacts/. Deselect with ``-m "not browser"``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.browser import ARTIFACTS, launch_chromium, needs_chromium
from tests.conftest import PASSWORD
from tests.tables.servers import free_port, manage, server_env, start_serve, stop

TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}

pytestmark = needs_chromium

SETUP = f"""
import json
from datetime import timedelta
from django.contrib.auth.models import User
from django.utils import timezone
from series.models import Event, Player, Season
from series.services import director_grant
from tournaments.models import BlindStructure, Entry, EntryState, StructureLevel, Tournament
from tournaments.services.clock import clock_next, clock_start

director = director_grant(User.objects.create_user("dana", password="{PASSWORD}"))
today = timezone.localdate()
season = Season.objects.create(name="Spring", starts_on=today, ends_on=today + timedelta(90))
event = Event.objects.create(season=season, name="Thursday Night PLO8", starts_at=timezone.now(),
    venue="Ann's kitchen", game="omaha-hi-lo", structure="pot-limit", buy_in=20, fee=5,
    starting_stack=10000)
structure = BlindStructure.objects.create(name="Home PLO8", chip_set=[25, 100, 500, 1000])
rows = [("level", 20, 25, 50, 0), ("level", 20, 50, 100, 0), ("level", 20, 75, 150, 0),
        ("level", 20, 100, 200, 0), ("break", 15, 0, 0, 0), ("level", 20, 150, 300, 300),
        ("level", 20, 200, 400, 400), ("break", 10, 0, 0, 0), ("level", 20, 300, 600, 600),
        ("level", 20, 400, 800, 800)]
for position, (kind, minutes, small, big, ante) in enumerate(rows):
    StructureLevel.objects.create(structure=structure, position=position, kind=kind,
        minutes=minutes, small_blind=small, big_blind=big, ante=ante,
        ante_kind="big-blind" if ante else "none", colour_up=[25] if position == 4 else [])
tournament = Tournament.objects.create(event=event, blind_structure=structure, state="running",
    rebuys_allowed=1, rebuy_chips=10000, rebuy_price=20, addon_chips=10000, addon_price=10)
for n in range(27):
    player = Player.objects.create(name=f"Player {{n}}")
    Entry.objects.create(tournament=tournament, player=player,
        state=EntryState.OUT if n < 9 else EntryState.PLAYING, rebuys=1 if n % 4 == 0 else 0,
        addon=n % 3 == 0)
clock_start(tournament.pk, by=director)
for _ in range(3):
    clock_next(tournament.pk, by=director)
print(json.dumps({{"id": tournament.pk, "token": tournament.tv_token}}))
"""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[dict[str, object]]:
    env = server_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    env.pop("REDIS_URL", None)  # embedded mode: one process, the in-memory broker
    manage(env, "migrate", "--noinput", "-v", "0")
    made = json.loads(manage(env, "shell", "-c", SETUP).strip().splitlines()[-1])
    port = free_port()
    log = tmp_path / "serve.log"
    process = start_serve(env, port, log=log)
    info: dict[str, object] = {
        "base": f"http://127.0.0.1:{port}",
        "env": env,
        "port": port,
        "log": log,
        "process": process,
        **made,
    }
    try:
        yield info
    finally:
        stop(info["process"])  # type: ignore[arg-type]


@pytest.fixture
def browser() -> Iterator[Browser]:
    expect.set_options(timeout=10_000)
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        yield browser
        browser.close()


def seconds_shown(page: Page) -> int:
    minutes, seconds = page.locator('.tv [data-clock="time"]').inner_text().split(":")
    return int(minutes) * 60 + int(seconds)


def director_shell(served: dict[str, object], code: str) -> None:
    manage(served["env"], "shell", "-c", code)  # type: ignore[arg-type]


def test_the_tv_clock_counts_follows_and_survives_its_server(
    browser: Browser, served: dict[str, object]
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    url = f"{served['base']}/tournaments/tv/{served['token']}/"
    tv = browser.new_context(viewport=TV).new_page()
    tv.goto(url)
    link = tv.locator('.tv [data-clock="link"]')
    expect(link).to_have_attribute("data-state", "live")
    expect(tv.locator('.tv [data-clock="level"]')).to_have_text("Level 4")
    expect(tv.locator('.tv [data-clock="bets"]')).to_have_text("100 / 200")
    expect(tv.locator('.tv [data-clock="players"]')).to_have_text("18 of 27")
    expect(tv.locator('.tv [data-clock="chip-race"]')).to_contain_text("25")
    first = seconds_shown(tv)
    tv.wait_for_timeout(2100)
    assert 1 <= first - seconds_shown(tv) <= 3, "the clock does not count down"
    tv.screenshot(path=str(ARTIFACTS / "tv-clock-1920x1080.png"))

    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(url)
    expect(phone.locator('.tv [data-clock="link"]')).to_have_attribute("data-state", "live")
    phone.screenshot(path=str(ARTIFACTS / "tv-clock-phone-390x844.png"), full_page=True)

    # A director pauses on the console: both screens follow over their sockets.
    console = log_in_to_console(browser, served)
    console.locator("#console-clock").get_by_role("button", name="Pause").click()
    for page in (tv, phone):
        expect(page.locator('.tv [data-clock="status"]')).to_have_text("Paused")
    paused_at = seconds_shown(tv)
    tv.wait_for_timeout(1500)
    assert seconds_shown(tv) == paused_at
    tv.screenshot(path=str(ARTIFACTS / "tv-clock-paused-1920x1080.png"))
    console.locator("#console-clock").get_by_role("button", name="Resume").click()
    expect(tv.locator('.tv [data-clock="status"]')).to_be_hidden()

    # The server goes away: the screen says so and keeps counting from the stored end.
    stop(served["process"])  # type: ignore[arg-type]
    expect(link).to_have_attribute("data-state", "lost")
    before = seconds_shown(tv)
    tv.wait_for_timeout(2100)
    assert 1 <= before - seconds_shown(tv) <= 3, "the clock stopped with its socket"
    # Meanwhile a minute is added (the database is the truth, the server still away).
    director_shell(
        served,
        "from django.contrib.auth.models import User\n"
        "from tournaments.services.clock import clock_adjust\n"
        f"clock_adjust({served['id']}, 60, by=User.objects.get(username='dana'))",
    )
    shown_before = seconds_shown(tv)
    served["process"] = start_serve(
        served["env"],  # type: ignore[arg-type]
        served["port"],  # type: ignore[arg-type]
        log=served["log"],  # type: ignore[arg-type]
    )
    # It comes back on its own (backoff) and resyncs: the added minute shows.
    expect(link).to_have_attribute("data-state", "live", timeout=20_000)
    deadline = time.monotonic() + 5
    while seconds_shown(tv) < shown_before + 30 and time.monotonic() < deadline:
        tv.wait_for_timeout(100)
    assert seconds_shown(tv) >= shown_before + 30, "the screen did not resync the added minute"


def log_in_to_console(browser: Browser, served: dict[str, object]) -> Page:
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    page.goto(f"{served['base']}/accounts/login/?next=/tournaments/{served['id']}/console/")
    page.locator("#id_username").fill("dana")
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator('#console-clock [data-clock="link"]')).to_have_attribute(
        "data-state", "live"
    )
    return page


def test_the_console_clock_on_a_phone(browser: Browser, served: dict[str, object]) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page = log_in_to_console(browser, served)
    panel = page.locator("#console-clock")
    expect(panel.locator('[data-clock="level"]')).to_have_text("Level 4")
    panel.get_by_role("button", name="Pause").click()
    expect(panel.locator('[data-clock="status"]')).to_have_text("Paused")
    minutes, seconds = panel.locator('[data-clock="time"]').inner_text().split(":")
    paused_at = int(minutes) * 60 + int(seconds)
    panel.get_by_role("button", name="Add one minute").click()
    # The panel comes back from the server with the minute added (and stays paused).
    added = f"{(paused_at + 60) // 60}:{(paused_at + 60) % 60:02d}"
    expect(panel.locator('[data-clock="time"]')).to_have_text(added)
    expect(panel.get_by_role("button", name="Resume")).to_be_visible()
    page.wait_for_timeout(300)  # htmx settles the swapped panel
    panel.screenshot(path=str(ARTIFACTS / "console-clock-phone.png"))
    panel.get_by_role("button", name="Resume").click()
    expect(panel.locator('[data-clock="status"]')).to_be_hidden()
    page.screenshot(path=str(ARTIFACTS / "console-phone-with-clock.png"), full_page=True)


def test_the_tv_plays_the_next_row_while_its_server_is_away(
    browser: Browser, served: dict[str, object]
) -> None:
    """Level 4 ends while the server is down: the screen starts the break by itself, from
    the stored end time and the structure it was sent."""
    director_shell(
        served,
        "from datetime import timedelta\n"
        "from django.utils import timezone\n"
        "from tournaments.models import Tournament\n"
        f"Tournament.objects.filter(pk={served['id']}).update("
        "level_ends_at=timezone.now() + timedelta(seconds=8))",
    )
    tv = browser.new_context(viewport=TV).new_page()
    tv.goto(f"{served['base']}/tournaments/tv/{served['token']}/")
    expect(tv.locator('.tv [data-clock="link"]')).to_have_attribute("data-state", "live")
    expect(tv.locator('.tv [data-clock="level"]')).to_have_text("Level 4")
    stop(served["process"])  # type: ignore[arg-type]
    expect(tv.locator('.tv [data-clock="link"]')).to_have_attribute("data-state", "lost")
    expect(tv.locator('.tv [data-clock="level"]')).to_have_text("Break", timeout=15_000)
    assert 14 * 60 < seconds_shown(tv) <= 15 * 60
    expect(tv.locator('.tv [data-clock="next"]')).to_have_text(
        "Level 5: 150 / 300 · Big-blind ante 300"
    )
    tv.screenshot(path=str(ARTIFACTS / "tv-clock-break-offline-1920x1080.png"))


def test_past_the_last_level_the_screen_plays_the_doubled_levels_itself(
    browser: Browser, served: dict[str, object]
) -> None:
    # The last level (400/800, big-blind ante 800) has three seconds left.
    director_shell(
        served,
        "from datetime import timedelta\n"
        "from django.utils import timezone\n"
        "from tournaments.models import Tournament\n"
        f"Tournament.objects.filter(pk={served['id']}).update(level_index=9,"
        " level_ends_at=timezone.now() + timedelta(seconds=3))",
    )
    tv = browser.new_context(viewport=TV).new_page()
    tv.goto(f"{served['base']}/tournaments/tv/{served['token']}/")
    expect(tv.locator('.tv [data-clock="link"]')).to_have_attribute("data-state", "live")
    expect(tv.locator('.tv [data-clock="level"]')).to_have_text("Level 8")
    expect(tv.locator('.tv [data-clock="next"]')).to_have_text(
        "Level 9: 800 / 1,600 · Big-blind ante 1,600"
    )
    # With its server away, the screen goes on to the next level by itself.
    stop(served["process"])  # type: ignore[arg-type]
    expect(tv.locator('.tv [data-clock="level"]')).to_have_text("Level 9")
    expect(tv.locator('.tv [data-clock="bets"]')).to_have_text("800 / 1,600")
    expect(tv.locator('.tv [data-clock="ante"]')).to_have_text("Big-blind ante 1,600")
    expect(tv.locator('.tv [data-clock="next"]')).to_have_text(
        "Level 10: 1,600 / 3,200 · Big-blind ante 3,200"
    )
    expect(tv.locator('.tv [data-clock="status"]')).to_be_hidden()
    assert 19 * 60 <= seconds_shown(tv) <= 20 * 60  # as long as the last level
