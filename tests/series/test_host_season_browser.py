"""A host runs a season from a phone (390x844), in English and French, from an empty site:
a season, ten recurring nights with seats and a minimum, published at once; a player
answers; the host moves one night and cancels another; the e-mails carry links to the
served address, and the player's phone opens them. Screenshots land in test-artifacts/
(host-*.png)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect

from series.models import Event, Player, Season
from series.services.mailings import mailings_due, mailings_send
from tests.browser import ARTIFACTS, PHONE, needs_chromium, picture
from tournaments.models import Tournament

pytestmark = needs_chromium

WORDS = {
    "en": {"nights": "10 events", "going": "You're going.", "cancelled": "cancelled"},
    "fr": {"nights": "10 événements", "going": "Vous venez.", "cancelled": "annulée"},
}


def _phone(browser: Browser, base: str, user: User, language: str) -> BrowserContext:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, locale=language
    )
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    return context


def _shoot(page: Page, name: str, language: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    picture(page, str(ARTIFACTS / f"host-{name}-{language}.png"), full_page=True)


def _submit(page: Page, value: str | None = None) -> None:
    """The page's own form (the header has forms too: the language, logging out)."""
    button = f'button[value="{value}"]' if value else "button[type=submit]"
    with page.expect_navigation():
        page.locator(f"form.form {button}").first.click()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_host_runs_a_season_from_a_phone(
    live_browser: Browser,
    live_server: Any,
    director: User,
    blind_structure: object,
    language: str,
    settings: Any,
) -> None:
    # ``blind_structure``: the site has a structure to choose (a served test site's database
    # is emptied between tests, the built-in ones with it).
    base = live_server.url
    settings.SITE_URL = base
    director.email = "dana@example.org"
    director.save(update_fields=["email"])
    player = User.objects.create_user("paula", email="paula@example.org")
    Player.objects.create(user=player, name="Paula", language=language)
    assert not Season.objects.exists()
    words = WORDS[language]

    host = _phone(live_browser, base, director, language).new_page()
    host.goto(f"{base}/director/")
    host.locator("a[href='/series/seasons/new/']").first.click()
    today = timezone.localdate()
    host.fill("#id_name", "Season 2027")
    host.fill("#id_starts_on", today.isoformat())
    host.fill("#id_ends_on", (today + timedelta(days=240)).isoformat())
    _shoot(host, "season-form", language)
    _submit(host)
    season = Season.objects.get()
    expect(host).to_have_url(re.compile(rf"/series/seasons/{season.pk}/$"))

    host.locator(f"a[href='/series/seasons/{season.pk}/events/recurring/']").first.click()
    first = today + timedelta(days=2)
    first += timedelta(days=(4 - first.weekday()) % 7)
    host.fill("#id_name", "Friday game")
    host.fill("#id_date", first.isoformat())
    host.select_option("#id_every_weeks", "2")
    host.fill("#id_last_day", (first + timedelta(weeks=18)).isoformat())
    host.fill("#id_time", "20:00")
    host.fill("#id_venue", "Chez Dana")
    host.fill("#id_buy_in", "20")
    host.fill("#id_capacity", "8")
    host.fill("#id_rsvp_minimum", "4")
    # Each night's tournament, in the same step: the built-in structure, two paid places.
    expect(host.locator("#id_tournament-run")).to_be_checked()
    host.fill("#id_tournament-payouts", "60, 40")
    _shoot(host, "recurring-form", language)
    _submit(host, "publish")
    expect(host.locator(".calendar-event")).to_have_count(10)
    expect(host.locator(".page-head")).to_contain_text(words["nights"])
    _shoot(host, "calendar", language)
    nights = list(Event.objects.filter(season=season).order_by("starts_at"))
    assert all(night.published_at and night.capacity == 8 for night in nights)
    assert Tournament.objects.filter(
        event__in=nights, capacity=8, payout_basis_points=[6000, 4000]
    ).count() == len(nights)

    # The player answers Going for the second and third nights.
    phone = _phone(live_browser, base, player, language).new_page()
    for night in nights[1:3]:
        phone.goto(f"{base}/series/events/{night.pk}/")
        phone.locator("button[name=answer][value=going]").click()
        expect(phone.locator(".rsvp-state")).to_contain_text(words["going"])
    _shoot(phone, "player-answered", language)

    # The host moves the second night an hour later and cancels the third.
    host.goto(f"{base}/series/events/{nights[1].pk}/edit/")
    host.fill("#id_time", "21:00")
    _submit(host)
    expect(host).to_have_url(re.compile(rf"/series/events/{nights[1].pk}/$"))
    # The night's log says who moved it, from when to when, and offers to move it back.
    host.locator(".event-log summary").click()
    expect(host.locator(".event-log-lines li")).to_have_count(3)
    expect(host.locator(".event-log-lines a.button")).to_have_count(1)
    _shoot(host, "moved", language)
    host.goto(f"{base}/series/events/{nights[2].pk}/cancel/")
    _shoot(host, "cancel-confirm", language)
    _submit(host)
    expect(host.locator("h1 .badge-cancelled")).to_have_text(words["cancelled"])
    _shoot(host, "cancelled", language)

    # What the beat's outbox run sends: invitations, the move, the cancellation, each with
    # links to the served address.
    mailings_due()
    mailings_send()
    to_paula = [m for m in mail.outbox if m.to == ["paula@example.org"]]
    # Nine invitations (none for the night cancelled before the run), the move, the
    # cancellation.
    assert len(to_paula) == 9 + 1 + 1, [m.subject for m in to_paula]
    for message in to_paula:
        links = re.findall(r"https?://\S+", message.body)
        assert links and all(link.startswith(base) for link in links), message.body
    moved = next(m for m in to_paula if "21:00" in m.subject or "21 h" in m.subject)
    link = next(link for link in re.findall(r"https?://\S+", moved.body) if "/events/" in link)
    phone.goto(link)
    expect(phone.locator("h1")).to_contain_text("Friday game")
    expect(phone.locator(".event-when")).to_contain_text("21")
    _shoot(phone, "moved-from-mail", language)
    for page in (host, phone):
        page.context.close()
