"""The installable site in Debian's chromium: Chromium's own reading of the manifest and its
installability, the service worker controlling the pages, the TV clock reloaded with the
network gone (from the worker's copy, still counting down), and the public standings in
another site's frame. Phone, laptop and TV sizes, English and French; screenshots land in
test-artifacts/pwa/. Deselect with ``-m "not browser"``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, Playwright, expect
from playwright.sync_api import Error as PlaywrightError

from series.models import Season
from series.services.standings import standings_recompute
from tests.browser import ARTIFACTS, LAPTOP, PHONE, TV, needs_chromium, picture, served_night
from tests.chromium import ARGS, CHROMIUM
from tests.series.season_fixture import build_season
from tests.tables.servers import manage, stop

pytestmark = needs_chromium

SHOTS = ARTIFACTS / "pwa"
LANGUAGES = ("en", "fr")


@pytest.fixture
def profile(live_server: Any, tmp_path: Path, shared_playwright: Playwright) -> Iterator[Any]:
    """Chromium with a profile on disk: an off-the-record context (Playwright's
    ``new_context``) is never installable, Chromium says so ("in-incognito"). Each profile is
    a browser of its own, closed after the test."""
    opened: list[BrowserContext] = []

    def open_profile(language: str, viewport: dict[str, int]) -> BrowserContext:
        context = shared_playwright.chromium.launch_persistent_context(
            str(tmp_path / language),
            executable_path=str(CHROMIUM),
            args=ARGS,
            viewport=viewport,
            locale=language,
        )
        opened.append(context)
        return context

    yield open_profile
    for context in opened:
        context.close()


def enum(value: str) -> str:
    """Chromium names its enums as in its C++ ("kStandalone"): the manifest's word."""
    return re.sub(r"^k(?=[A-Z])", "", value).lower()


def worker_in_control(page: Page) -> None:
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null")


@pytest.mark.parametrize("language", LANGUAGES)
def test_chromium_reads_the_manifest_and_the_site_is_installable(
    profile: Any, live_server: Any, language: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = profile(language, PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/")
    worker_in_control(page)
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == f"{live_server.url}/manifest.webmanifest"
    assert manifest["errors"] == []
    parsed = manifest["manifest"]  # Chromium's parse of it
    assert parsed["startUrl"] == f"{live_server.url}/"
    assert parsed["scope"] == f"{live_server.url}/"
    assert enum(parsed["display"]) == "standalone"
    assert parsed["themeColor"] and parsed["backgroundColor"]
    assert parsed["name"].startswith("Home Game Omaha")
    # Chromium's parse lists each icon's address, sizes and type (not its purpose).
    icons = {(icon["url"].rsplit("/", 1)[-1], icon["sizes"]) for icon in parsed["icons"]}
    assert icons == {
        ("icon-192.png", "192x192"),
        ("icon-512.png", "512x512"),
        ("maskable-512.png", "512x512"),
    }
    # Each icon Chromium names loads as a PNG of its size.
    for icon in parsed["icons"]:
        size = page.evaluate(
            """async (src) => { const image = new Image(); image.src = src; await image.decode();
               return `${image.naturalWidth}x${image.naturalHeight}`; }""",
            icon["url"],
        )
        assert size == icon["sizes"]
    assert page.evaluate("document.documentElement.lang") == language
    installability = cdp.send("Page.getInstallabilityErrors")
    assert installability["installabilityErrors"] == []
    picture(page, str(SHOTS / f"home-phone-{language}.png"))
    context.close()


SETUP = """
from tournaments.models import BlindLevel, BlindStructure, Tournament
from tournaments.services.clock.controls import clock_start

event = Event.objects.create(season=season, name="Thursday Night PLO8", starts_at=timezone.now(),
    venue="Ann's kitchen", game="omaha-hi-lo", structure="pot-limit", buy_in=20, fee=5,
    starting_stack=10000)
blind_structure = BlindStructure.objects.create(name="Home PLO8", chip_set=[25, 100, 500, 1000])
for position, (small, big) in enumerate([(25, 50), (50, 100), (75, 150), (100, 200)]):
    BlindLevel.objects.create(blind_structure=blind_structure, position=position, kind="level",
        minutes=20, small_blind=small, big_blind=big)
tournament = Tournament.objects.create(
    event=event, blind_structure=blind_structure, state="running")
clock_start(tournament.pk, by=director)
"""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[dict[str, Any]]:
    with served_night(tmp_path, SETUP) as night:
        yield night


def seconds_shown(page: Page) -> int:
    minutes, seconds = page.locator('.tv [data-clock="time"]').inner_text().split(":")
    return int(minutes) * 60 + int(seconds)


# The page's own address and the files it loaded that the worker keeps (static files, the
# JavaScript catalog) which no cache of the worker holds yet.
NOT_YET_KEPT = """async () => {
  const wanted = [location.href, ...performance.getEntriesByType("resource").map((entry) => entry.name)];
  const missing = [];
  for (const address of wanted) {
    const url = new URL(address);
    url.hash = "";
    if (url.origin !== location.origin) continue;
    if (url.href !== location.href && !/^\\/(static|jsi18n)\\//.test(url.pathname)) continue;
    if (!(await caches.match(url.href, { ignoreVary: true }))) missing.push(url.href);
  }
  return missing;
}"""


def kept_by_worker(page: Page, seconds: float = 60) -> None:
    """Wait until the worker holds the page and every file it loaded: the visit that
    installed the worker tells it what to keep, and it fetches those again (pwa.js). Polled
    from here: ``page.wait_for_function`` does not wait for a promise (an async check returns
    one at once, and a promise is true), so it cannot wait for the worker's cache."""
    deadline = time.monotonic() + seconds
    while missing := page.evaluate(NOT_YET_KEPT):
        assert time.monotonic() < deadline, f"the worker has not kept {missing}"
        page.wait_for_timeout(200)


def reload_offline(page: Page) -> None:
    """Reload from the worker's copy; a failure names what the worker held."""
    held = page.evaluate(KEPT_IN_WORKER)
    try:
        page.reload()
    except PlaywrightError as error:
        reason = error.message.splitlines()[0]
        raise AssertionError(
            f"the offline reload failed ({reason}); the worker held {held}"
        ) from error


KEPT_IN_WORKER = """async () => {
  const kept = {};
  for (const name of await caches.keys()) {
    kept[name] = (await (await caches.open(name)).keys()).map((request) => request.url);
  }
  return kept;
}"""


@pytest.mark.long(20, waits=True)
def test_the_tv_clock_reloads_offline_from_the_kept_copy_and_counts_down(
    chromium: Any, served: dict[str, Any]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    url = f"{served['base']}/tournaments/tv/{served['token']}/"
    screens = {}
    for language in LANGUAGES:
        context = chromium.new_context(viewport=TV, locale=language)
        page = context.new_page()
        page.goto(url)
        worker_in_control(page)
        # The worker keeps the page the visit that installed it loaded (static/js/pwa.js).
        kept_by_worker(page)
        expect(page.locator('.tv [data-clock="link"]')).to_have_attribute("data-state", "live")
        screens[language] = (context, page)
    online = seconds_shown(screens["en"][1])
    read_at = time.monotonic()
    # The network goes: the browsers are offline and the server is gone.
    stop(served["process"])
    for language, (context, page) in screens.items():
        context.set_offline(True)
        # Open, the page goes on counting down from its stored end time.
        shown = seconds_shown(page)
        time.sleep(2.2)
        assert seconds_shown(page) < shown
        expect(page.locator('.tv [data-clock="link"]')).not_to_have_attribute("data-state", "live")
        # Reloaded, the worker's copy answers.
        reload_offline(page)
        expect(page.locator(".tv-time")).to_be_visible()
        assert page.locator("html").get_attribute("lang") == language
        first = seconds_shown(page)
        # The kept copy's time is the time now, not the time the page was kept (the worker
        # moves the copy's "now" on): what was shown online, less the seconds gone since.
        assert abs(first - (online - (time.monotonic() - read_at))) <= 3
        time.sleep(2.2)
        assert seconds_shown(page) < first
        expect(page.locator('.tv [data-clock="link"]')).not_to_have_attribute("data-state", "live")
        picture(page, str(SHOTS / f"tv-offline-{language}.png"))
        page.set_viewport_size(PHONE)
        picture(page, str(SHOTS / f"tv-offline-phone-{language}.png"))
        context.close()


# Level 1's end, this many seconds after the page is asked for: time for a busy machine to
# load the page and the worker to keep it before level 1 ends.
LEVEL_ONE_LEFT = 40


@pytest.mark.long(45, waits=True)
def test_the_tv_reloaded_offline_shows_the_level_the_clock_is_at_now(
    chromium: Any, served: dict[str, Any]
) -> None:
    """The worker's copy was kept during level 1; reloaded without a network after level 1
    ended, it shows level 2 with level 2's time left (the rows ahead the page was sent),
    and so does the page left open."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    manage(
        served["env"],
        "shell",
        "-c",
        "from datetime import timedelta\n"
        "from django.utils import timezone\n"
        "from tournaments.models import Tournament\n"
        f"Tournament.objects.filter(pk={served['id']}).update("
        f"level_ends_at=timezone.now() + timedelta(seconds={LEVEL_ONE_LEFT}))",
    )
    context = chromium.new_context(viewport=TV)
    page = context.new_page()
    page.goto(f"{served['base']}/tournaments/tv/{served['token']}/")
    worker_in_control(page)
    kept_by_worker(page)
    level = page.locator('.tv [data-clock="level"]')
    expect(level).to_have_text("Level 1")
    # When level 1 ends, as the page counts it (to the second it shows).
    level_one_ends = time.monotonic() + seconds_shown(page)
    assert level_one_ends - time.monotonic() > 3, "level 1 ended before the page was kept"
    stop(served["process"])
    context.set_offline(True)
    # Open, the page moves on to level 2 when level 1's time is up.
    expect(level).to_have_text("Level 2", timeout=(LEVEL_ONE_LEFT + 10) * 1000)
    page.wait_for_timeout(1500)
    # Reloaded from the copy kept during level 1: level 2, and level 2's time.
    reload_offline(page)
    expect(level).to_have_text("Level 2")
    expect(page.locator('.tv [data-clock="bets"]')).to_have_text("50 / 100")
    expect(page.locator('.tv [data-clock="next"]')).to_have_text("Level 3: 75 / 150")
    into_level_two = time.monotonic() - level_one_ends
    shown = seconds_shown(page)
    assert abs(shown - (20 * 60 - into_level_two)) <= 3, (shown, into_level_two)
    expect(page.locator('.tv [data-clock="coming"] li').first).to_contain_text("Level 3")
    expect(page.locator('.tv [data-clock="link"]')).not_to_have_attribute("data-state", "live")
    picture(page, str(SHOTS / "tv-offline-level-2.png"))
    context.close()


def test_the_worker_leaves_other_pages_and_forms_to_the_network(
    chromium: Any, served: dict[str, Any]
) -> None:
    context = chromium.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{served['base']}/")
    worker_in_control(page)
    page.goto(f"{served['base']}/accounts/login/")
    page.wait_for_timeout(500)
    kept = [address for urls in page.evaluate(KEPT_IN_WORKER).values() for address in urls]
    paths = [re.sub(r"^https?://[^/]+", "", address) for address in kept]
    assert paths and all(path.startswith(("/static/", "/jsi18n/")) for path in paths), paths
    context.close()


@pytest.fixture
def public_season(transactional_db: None) -> Season:
    director = User.objects.create_user("dana")
    season = build_season(events=8, players=14, seed=5, director=director)
    season.standings_public = True
    season.save(update_fields=["standings_public"])
    standings_recompute(season.pk)
    return season


FRAMING_PAGE = """<!doctype html><html><head><meta charset="utf-8">
<style>body{{font-family:Georgia,serif;margin:2rem;background:#eef1f6}}
article{{max-width:760px;margin:auto}} iframe{{background:#fff;border-radius:8px}}</style></head>
<body><article><h1>The Tuesday club's news</h1><p>Our poker friends' season so far:</p>
{code}</article></body></html>"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_public_standings_in_another_sites_frame(
    public_season: Season, live_server: Any, live_browser: Any, language: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    embed = f"{live_server.url}/series/seasons/{public_season.pk}/standings/embed/"
    code = f'<iframe src="{embed}" title="Standings" width="100%" height="600" style="border:0"></iframe>'
    for name, viewport in (("laptop", LAPTOP), ("phone", PHONE), ("tv", TV)):
        context = live_browser.new_context(viewport=viewport, locale=language)
        page = context.new_page()
        page.set_content(FRAMING_PAGE.format(code=code))
        frame = page.frame_locator("iframe")
        expect(frame.locator("table.leaderboard tbody tr").first).to_be_visible()
        expect(frame.locator(".site-header")).to_have_count(0)
        expect(frame.locator("html")).to_have_attribute("lang", language)
        # The page in the frame never scrolls sideways (a wide table scrolls in its box).
        inside = frame.locator("html").evaluate("element => element.scrollWidth")
        assert inside <= page.locator("iframe").evaluate("element => element.clientWidth")
        picture(page, str(SHOTS / f"embed-{name}-{language}.png"), full_page=True)
        context.close()
