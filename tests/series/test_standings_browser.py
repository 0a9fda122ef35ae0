"""The leaderboard and the scoring settings of a 20-event, 40-player season in Debian's
chromium, on a phone (390x844) and a laptop; screenshots land in test-artifacts/.
Deselect with ``-m "not browser"``."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from series.models import Season, Standing
from series.services import director_grant
from series.services.standings import standings_recompute
from tests.browser import ARTIFACTS, PHONE, log_in, needs_chromium, picture
from tests.conftest import PASSWORD
from tests.series.season_fixture import build_season

pytestmark = needs_chromium


@pytest.fixture
def season(transactional_db: None) -> Season:
    season = build_season(events=20, players=40, seed=12)
    season.min_events = 3
    season.save(update_fields=["min_events"])
    standings_recompute(season.pk)
    return season


def test_leaderboard_on_a_phone(season: Season, live_server, live_browser: Browser) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page = live_browser.new_page(viewport=PHONE, device_scale_factor=2)
    # The leaderboard names people: a member's page.
    User.objects.create_user("mia", password=PASSWORD)
    log_in(page, live_server.url, "mia", then=f"/series/seasons/{season.pk}/standings/")
    expect(page.get_by_role("heading", name="Standings", exact=True)).to_be_visible()
    leader = Standing.objects.filter(season=season).order_by("rank").first()
    assert leader is not None
    table = page.locator("table.leaderboard")
    expect(table.locator("tbody tr").first).to_contain_text(leader.player.name)
    expect(page.locator(".standings-chart svg polyline")).to_have_count(8)
    # Nothing scrolls sideways on the phone.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    picture(page, str(ARTIFACTS / "standings-phone.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    picture(page, str(ARTIFACTS / "standings-laptop.png"), full_page=True)


def test_scoring_settings_preview_on_a_phone(
    season: Season, live_server, live_browser: Browser
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    director_grant(User.objects.create_user("dana", password=PASSWORD))
    page = live_browser.new_page(viewport=PHONE, device_scale_factor=2)
    log_in(page, live_server.url, then=f"/series/seasons/{season.pk}/scoring/")
    expect(page.get_by_role("heading", name="Scoring settings")).to_be_visible()
    page.get_by_label("The director's own formula").check()
    page.locator("#id_custom_formula").fill("if k <= 3 then 100 / k else 10 + knockouts * 5")
    page.get_by_role("button", name="Preview on past events").click()
    expect(page.get_by_text("Preview: these settings")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    picture(page, str(ARTIFACTS / "standings-scoring-preview-phone.png"), full_page=True)
    page.get_by_role("button", name="Save and re-score").click()
    expect(page.get_by_text("Saved: the season is re-scored")).to_be_visible()
    picture(page, str(ARTIFACTS / "standings-scoring-saved-phone.png"), full_page=True)
