"""The e-mail choices page and the unsubscribe link's page on a phone, in English and
French, in Debian's chromium. Screenshots land in test-artifacts/
(notices-*.png)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Page, expect

from series.models import NoticeSettings, Player
from series.services.mailing_messages import unsubscribe_token
from tests.browser import ARTIFACTS, LAPTOP, PHONE, needs_chromium, picture
from tests.conftest import PASSWORD

pytestmark = needs_chromium


def shoot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    picture(page, str(ARTIFACTS / f"notices-{name}.png"), full_page=True)


def context_for(
    browser: Browser, base: str, user: User | None, locale: str, viewport: dict[str, int]
) -> BrowserContext:
    context = browser.new_context(
        viewport=viewport, device_scale_factor=2, is_mobile=viewport == PHONE, locale=locale
    )
    if user is not None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    return context


def test_the_choices_and_the_unsubscribe_pages_on_a_phone_in_english_and_french(
    transactional_db: None, live_server, live_browser: Browser
) -> None:
    ann = User.objects.create_user("ann", email="ann@example.org", password=PASSWORD)
    Player.objects.create(user=ann, name="Ann Leroy")
    base = live_server.url
    for locale, lang in (("en-GB", "en"), ("fr-FR", "fr")):
        for size, viewport in (("phone", PHONE), ("laptop", LAPTOP)):
            context = context_for(live_browser, base, ann, locale, viewport)
            page = context.new_page()
            page.goto(base + reverse("series:notice_settings"))
            expect(page.locator("input[name=reminders]")).to_be_checked()
            assert page.locator("input[name=host]").count() == 0
            # Her own address, hers to change.
            expect(page.locator("input[name=address]")).to_have_value("ann@example.org")
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            shoot(page, f"preferences-{size}-{lang}")
            if size == "phone":
                page.locator("input[name=results]").uncheck()
                page.locator(".notice-settings button[type=submit]").click()
                expect(page.locator(".message").first).to_be_visible()
                expect(page.locator("input[name=results]")).not_to_be_checked()
                shoot(page, f"preferences-saved-{size}-{lang}")
                NoticeSettings.objects.filter(user=ann).delete()
            context.close()

        # The link from an e-mail opens without a session.
        context = context_for(live_browser, base, None, locale, PHONE)
        page = context.new_page()
        path = reverse(
            "series:unsubscribe", args=["reminders", unsubscribe_token(ann.pk, "reminders")]
        )
        page.goto(base + path)
        expect(page.locator("strong", has_text="Ann Leroy")).to_be_visible()
        assert "ann@example.org" not in page.content()
        shoot(page, f"unsubscribe-phone-{lang}")
        page.locator(".unsubscribe button[type=submit]").click()
        expect(page.locator(".unsubscribe p").first).to_contain_text("Ann Leroy")
        shoot(page, f"unsubscribe-done-phone-{lang}")
        assert NoticeSettings.objects.get(user=ann).reminders is False
        assert NoticeSettings.objects.get(user=ann).results is True
        NoticeSettings.objects.filter(user=ann).delete()
        page.goto(base + reverse("series:unsubscribe", args=["reminders", "forged"]))
        shoot(page, f"unsubscribe-invalid-phone-{lang}")
        context.close()
