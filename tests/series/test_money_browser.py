"""Money across nights in Debian's chromium: the host adds a shared expense and closes the
night on a phone (htmx, no page load), the next night settles the carried debt, and the
ledger and season pot read well on a phone and a laptop. Screenshots land in
test-artifacts/."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, expect

from series.models import CarriedDebt, Expense, PaymentHandle
from series.services import director_grant
from tests.browser import ARTIFACTS, PHONE, needs_chromium, picture
from tests.series.night import account, finished_event, season

pytestmark = needs_chromium

LAPTOP = {"width": 1366, "height": 768}


def logged_in(
    browser: Browser, base: str, user: object, viewport: dict[str, int], locale: str = "en-GB"
) -> BrowserContext:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    context = browser.new_context(viewport=viewport, locale=locale)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": base,
            }
        ]
    )
    return context


def fits(page: object, width: int) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= width  # type: ignore[attr-defined]


def test_expense_close_carry_ledger_and_pot(
    transactional_db: None, live_server, live_browser: Browser
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    s = season(season_pot_per_entry=2)
    ann, ben, cal, dee = account("Ann"), account("Ben"), account("Cal"), account("Dee")
    first = finished_event(
        s, [(ann, 1, 60, 25), (ben, 2, 20, 25), (cal, 3, 0, 25), (dee, 4, 0, 25)], number=1
    )
    second = finished_event(s, [(cal, 1, 40, 25), (ben, 2, 0, 25)], number=2)
    PaymentHandle.objects.create(player=ann, text="PayPal: ann@example.com")
    host = User.objects.create_user("host")
    director_grant(host)

    context = logged_in(live_browser, live_server.url, host, PHONE)
    page = context.new_page()
    page.goto(live_server.url + reverse("series:settle_up", args=[first.pk]))
    page.evaluate("window.noReload = true")
    page.get_by_text("Add an expense").click()
    page.get_by_label("What for").fill("Pizza")
    page.get_by_label("Amount:").fill("42")
    page.get_by_label("Paid by").select_option(label="Dee")
    page.get_by_role("button", name="Add the expense").click()
    expect(page.get_by_text("Expense added")).to_be_visible()
    expect(page.get_by_role("heading", name="Balances")).to_be_visible()
    # htmx swapped the body: the page was not loaded again.
    assert page.evaluate("window.noReload") is True
    assert Expense.objects.count() == 1
    assert fits(page, PHONE["width"])
    picture(page, str(ARTIFACTS / "money-settle-up-expense-phone.png"), full_page=True)
    page.get_by_role("button", name="Close the night").click()
    expect(page.get_by_text("The night is closed.")).to_be_visible()
    expect(page.get_by_role("button", name="Reopen the night")).to_be_visible()
    assert CarriedDebt.objects.exists()
    page.set_viewport_size(LAPTOP)
    picture(page, str(ARTIFACTS / "money-settle-up-closed-laptop.png"), full_page=True)
    page.goto(live_server.url + reverse("series:settle_up", args=[second.pk]))
    expect(page.get_by_role("heading", name="Debts carried from earlier nights")).to_be_visible()
    picture(page, str(ARTIFACTS / "money-settle-up-carried-laptop.png"), full_page=True)
    page.goto(live_server.url + reverse("series:season_pot", args=[s.pk]))
    page.get_by_label("Paid to").select_option(label="Ann")
    page.get_by_label("Amount").fill("5")
    page.get_by_label("What for").fill("Trophy")
    page.get_by_role("button", name="Pay out").click()
    expect(page.get_by_text("Paid to Ann: Trophy")).to_be_visible()
    picture(page, str(ARTIFACTS / "money-season-pot-laptop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    assert fits(page, PHONE["width"])
    picture(page, str(ARTIFACTS / "money-season-pot-phone.png"), full_page=True)
    context.close()

    # Ben owes Ann: his ledger says how to pay her.
    context = logged_in(live_browser, live_server.url, ben.user, PHONE)
    page = context.new_page()
    page.goto(live_server.url + reverse("series:player_ledger", args=[s.pk, ben.pk]))
    expect(page.get_by_role("heading", name="Ledger")).to_be_visible()
    assert fits(page, PHONE["width"])
    picture(page, str(ARTIFACTS / "money-ledger-phone.png"), full_page=True)
    page.goto(live_server.url + reverse("series:settle_up", args=[second.pk]))
    picture(page, str(ARTIFACTS / "money-settle-up-player-phone.png"), full_page=True)
    page.goto(live_server.url + reverse("series:player", args=[ben.pk]))
    expect(page.get_by_text("Ledger of Omaha 2026")).to_be_visible()
    page.set_viewport_size(LAPTOP)
    picture(page, str(ARTIFACTS / "money-profile-laptop.png"), full_page=True)
    context.close()


def test_an_expense_split_by_amounts_on_a_phone_says_what_does_not_add_up(
    transactional_db: None, live_server, live_browser: Browser
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    ann, ben, cal = account("Ann"), account("Ben"), account("Cal")
    night = finished_event(season(), [(ann, 1, 40, 20), (ben, 2, 20, 20), (cal, 3, 0, 20)])
    host = User.objects.create_user("host")
    director_grant(host)
    context = logged_in(live_browser, live_server.url, host, PHONE)
    page = context.new_page()
    page.goto(live_server.url + reverse("series:settle_up", args=[night.pk]))
    page.get_by_text("Add an expense").click()
    page.get_by_label("What for").fill("Drinks")
    page.get_by_label("Amount:").fill("30")
    page.get_by_label("Paid by").select_option(label="Cal")
    page.get_by_label("By amounts").check()
    page.get_by_label("Ann's part").fill("20")
    page.get_by_label("Ben's part").fill("5")
    page.get_by_label("Cal's part").fill("0")
    page.get_by_role("button", name="Add the expense").click()
    expect(page.get_by_text("The amounts add up to 25, not 30.")).to_be_visible()
    assert not Expense.objects.exists()
    assert fits(page, PHONE["width"])
    picture(page.locator("#expenses"), str(ARTIFACTS / "money-expense-split-error-phone.png"))
    page.get_by_label("Ben's part").fill("10")
    page.get_by_role("button", name="Add the expense").click()
    expect(page.get_by_text("Expense added")).to_be_visible()
    shares = {
        s.player.name: s.amount_cents for s in Expense.objects.get().shares.select_related("player")
    }
    assert shares == {"Ann": 2000, "Ben": 1000}
    assert fits(page, PHONE["width"])
    picture(page.locator("#expenses"), str(ARTIFACTS / "money-expense-split-phone.png"))
    context.close()


@pytest.mark.parametrize(
    ("locale", "typed", "shown", "shares"),
    [
        ("en-GB", "23.50", "23.50", ("Ann 7.84", "Ben 7.83", "Cal 7.83")),
        ("fr-FR", "23,50", "23,50", ("Ann 7,84", "Ben 7,83", "Cal 7,83")),
    ],
)
def test_a_pizza_of_23_50_split_three_ways_on_a_phone(
    transactional_db: None,
    live_server,
    live_browser: Browser,
    locale: str,
    typed: str,
    shown: str,
    shares: tuple[str, ...],
) -> None:
    """Typed with cents the page's way (a decimal comma in French), split to the cent, and
    read back with two decimals: the expense, its shares, the payments and the balances."""
    ARTIFACTS.mkdir(exist_ok=True)
    ann, ben, cal = account("Ann"), account("Ben"), account("Cal")
    night = finished_event(season(), [(ann, 1, 40, 25), (ben, 2, 20, 25), (cal, 3, 0, 25)])
    host = User.objects.create_user("host")
    director_grant(host)
    context = logged_in(live_browser, live_server.url, host, PHONE, locale=locale)
    page = context.new_page()
    page.goto(live_server.url + reverse("series:settle_up", args=[night.pk]))
    page.locator("#expenses summary").click()
    page.locator("#id_description").fill("Pizza")
    amount = page.locator("#id_amount")
    assert amount.get_attribute("inputmode") == "decimal"
    amount.fill(typed)
    page.locator("#id_payer").select_option(label="Ben")
    page.locator("#expenses button[type=submit]").last.click()
    expect(page.locator("#expenses .transfer-amount")).to_have_text(shown)
    expense = Expense.objects.get()
    assert expense.amount_cents == 2350
    state = page.locator("#expenses .transfer-state").inner_text()
    for share in shares:
        assert share in state
    # Cal pays Ben 15.67 and Ann 12.16: the pizza's odd cent is Ann's (first by name).
    payments = page.locator(".transfers").first.inner_text()
    assert ("15.67" if locale == "en-GB" else "15,67") in payments
    assert ("12.16" if locale == "en-GB" else "12,16") in payments
    assert fits(page, PHONE["width"])
    language = locale[:2]
    picture(page, str(ARTIFACTS / f"money-expense-cents-{language}-phone.png"), full_page=True)
    context.close()
