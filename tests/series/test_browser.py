"""A newcomer signs up, logs out and logs back in, in Debian's chromium.

Screenshots of the logged-in home page (laptop and phone widths) land in test-artifacts/.
Deselect with ``-m "not browser"``.
"""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from series.models import Event, Season
from tests.browser import ARTIFACTS, LAPTOP, PHONE, needs_chromium, picture
from tests.conftest import PASSWORD

pytestmark = needs_chromium


@pytest.fixture
def upcoming_events(transactional_db: None) -> None:
    today = timezone.localdate()
    season = Season.objects.create(
        name="2026 Omaha Series", starts_on=today, ends_on=today + timedelta(days=180)
    )
    start = timezone.now().replace(hour=19, minute=30, second=0, microsecond=0)
    for weeks, name, venue in [
        (1, "Season opener", "Ann's kitchen"),
        (5, "Pot-Limit Omaha night", "Ben's garage"),
        (9, "Limit Omaha/8", "The back room"),
        (13, "Season finale", "Ann's kitchen"),
    ]:
        Event.objects.create(
            season=season,
            name=name,
            starts_at=start + timedelta(weeks=weeks),
            venue=venue,
            buy_in=20,
            fee=5,
        )


def sign_up(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Sign up").click()
    page.locator("#id_username").fill(username)
    page.locator("#id_email").fill(f"{username}@example.com")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()


def test_sign_up_then_log_in_again(
    upcoming_events: None, live_server, live_browser: Browser
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    base = live_server.url
    page = live_browser.new_page(viewport=LAPTOP)

    sign_up(page, base, "rosa")
    expect(page.get_by_text("Welcome, rosa! You are signed up.")).to_be_visible()

    nav = page.get_by_role("navigation", name="Main")
    nav.locator(".nav-account > summary").click()
    nav.get_by_role("button", name="Log out").click()
    expect(nav.get_by_role("link", name="Log in")).to_be_visible()

    nav.get_by_role("link", name="Log in").click()
    page.locator("#id_username").fill("rosa")
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    expect(nav.locator(".nav-account > summary")).to_have_text("rosa")
    expect(page.get_by_role("heading", name="Season opener")).to_be_visible()
    picture(page, str(ARTIFACTS / "home-logged-in-laptop.png"), full_page=True)

    page.set_viewport_size(PHONE)
    page.reload()
    expect(page.get_by_role("heading", name="Season opener")).to_be_visible()
    picture(page, str(ARTIFACTS / "home-logged-in-phone.png"), full_page=True)
    page.close()
