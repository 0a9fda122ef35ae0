"""The director imports the example season's past in Debian's chromium, on a phone and a
laptop: upload, the dry run, a choice of player, confirm. Screenshots land in
test-artifacts/."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Browser, expect

from series.models import Player, Result, Season
from series.services import director_grant
from tests.browser import ARTIFACTS, PHONE, needs_chromium

pytestmark = needs_chromium

LAPTOP = {"width": 1366, "height": 768}
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "past-results.csv"


def test_the_director_imports_a_season_on_a_phone_and_a_laptop(
    transactional_db: None, live_server, live_browser: Browser
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    director = director_grant(User.objects.create_user("host"))
    Player.objects.create(name="Elodie")
    client = Client()
    client.force_login(director)
    for size, viewport in (("phone", PHONE), ("laptop", LAPTOP)):
        context = live_browser.new_context(viewport=viewport)
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": live_server.url,
                }
            ]
        )
        page = context.new_page()
        page.goto(live_server.url + "/director/")
        page.get_by_role("link", name="Import past results").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Import past results")
        page.get_by_label("New season's name").fill("Omaha 2024")
        page.get_by_label("CSV file").set_input_files(str(EXAMPLE))
        page.get_by_role("button", name="Show what it imports").click()
        expect(page.get_by_text("Dry run: what the import does")).to_be_visible()
        expect(page.locator("#import-preview tbody tr")).to_have_count(3)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        page.screenshot(path=str(ARTIFACTS / f"import-preview-{size}.png"), full_page=True)
        if size == "phone":
            # Élodie is the site's Elodie: the director says she is a new guest instead.
            page.get_by_label("Élodie").select_option(label="A new guest named Élodie")
            page.get_by_role("button", name="Import", exact=True).click()
            expect(page.get_by_text("Imported into Omaha 2024.")).to_be_visible()
            page.screenshot(path=str(ARTIFACTS / "import-done-phone.png"), full_page=True)
        else:
            expect(page.get_by_text("importing it changes nothing")).to_be_visible()
        context.close()
    season = Season.objects.get(name="Omaha 2024")
    assert Result.objects.filter(event__season=season).count() == 13
    assert Player.objects.filter(name="Élodie").exists()
