"""On a phone (390x844), in English and in French: the deal offered online shows its prizes
on the console (no stylesheet drops a table's third column under it), and "Log out" waits
behind the account's name, away from the console's sticky bar. Screenshots in
test-artifacts/ (phone-deal-*.png)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser import ARTIFACTS, PHONE, console_page, needs_chromium, picture
from tournaments.models import Tournament
from tournaments.services import deals

pytestmark = [*needs_chromium, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def no_tasks(settings) -> None:  # type: ignore[no-untyped-def]
    settings.TOURNAMENTS_SCHEDULE_TASKS = False


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_deal_prizes_show_and_log_out_is_two_taps_away(
    online_tournament: Tournament,
    online_night,
    director,
    live_server,
    live_browser: Browser,
    language: str,
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    offer = deals.deal_offer(online_tournament.pk, "icm", by=director)
    page = console_page(live_browser, live_server.url, online_tournament.pk, PHONE)
    if language != "en":
        page.context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        page.reload()

    # Log out is not on the page until the account's menu is opened.
    logout = page.locator("form[action='/accounts/logout/'] button")
    expect(logout).to_be_hidden()
    account = page.locator(".nav-account > summary")
    expect(account).to_have_text("dana")

    deal = page.locator("#console-online table").first
    deal.scroll_into_view_if_needed()
    prizes = deal.locator("tbody td:nth-child(3)")
    expect(prizes).to_have_count(len(offer.amounts))
    for cell in prizes.all():
        expect(cell).to_be_visible()
        assert cell.inner_text().strip() not in ("", "–")
    picture(page, str(ARTIFACTS / f"phone-deal-{language}.png"))

    account.click()
    expect(logout).to_be_visible()
    picture(page, str(ARTIFACTS / f"phone-account-{language}.png"))
    page.context.close()
