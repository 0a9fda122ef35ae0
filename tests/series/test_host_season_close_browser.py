"""On a 390x844 phone: the season's form with its defaults for new nights, closing the
season from its page, and the season pot's payout form, each fitting the screen.
Screenshots land in test-artifacts/ (host-season-*.png)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect

from series.models import Season
from tests.browser import ARTIFACTS, PHONE, needs_chromium, picture

pytestmark = needs_chromium


def _phone(browser: Browser, base: str, user: User) -> BrowserContext:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    return context


def _fits(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    picture(page, str(ARTIFACTS / f"host-season-{name}.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name}: {width}px wide on a {PHONE['width']}px phone"


def test_a_host_sets_defaults_closes_the_season_and_opens_its_pot(
    live_browser: Browser, live_server: Any, director: User
) -> None:
    today = timezone.localdate()
    season = Season.objects.create(
        name="Autumn",
        starts_on=today - timedelta(days=30),
        ends_on=today + timedelta(days=90),
        season_pot_per_entry=2,
    )
    base = live_server.url
    context = _phone(live_browser, base, director)
    try:
        page = context.new_page()
        page.goto(f"{base}/series/seasons/{season.pk}/edit/")
        page.locator("#id_default_venue").fill("Chez Ben")
        page.locator("#id_default_capacity").fill("8")
        _fits(page, "form")
        with page.expect_navigation():
            page.locator("form.form button[type=submit]").click()
        page.goto(f"{base}/series/seasons/{season.pk}/events/new/")
        expect(page.locator("#id_venue")).to_have_value("Chez Ben")
        expect(page.locator("#id_capacity")).to_have_value("8")

        page.goto(f"{base}/series/seasons/{season.pk}/")
        with page.expect_navigation():
            page.get_by_role("link", name="Close the season").click()
        _fits(page, "close")
        with page.expect_navigation():
            page.locator("form.form button[type=submit]").click()
        expect(page.locator("h1")).to_contain_text("Closed")
        expect(page.get_by_role("link", name="New night")).to_have_count(0)
        _fits(page, "closed")

        with page.expect_navigation():
            page.get_by_role("link", name="Season pot and payouts").click()
        expect(page.locator("h1")).to_contain_text("Season pot")
        expect(page.locator("#id_amount")).to_be_visible()
        _fits(page, "pot")
    finally:
        context.close()
