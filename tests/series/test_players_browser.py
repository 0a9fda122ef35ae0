"""A profile and a settle-up on a phone, in Debian's chromium, for a season of 20 events and
40 players (``tests.series.season_fixture``). Screenshots land in test-artifacts/."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Count, Q
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, expect

from series.models import Event, Player, Result
from series.services import director_grant
from tests.browser import ARTIFACTS, PHONE, needs_chromium, picture
from tests.series.season_fixture import build_season

pytestmark = needs_chromium


def logged_in(browser: Browser, base: str, user: object) -> BrowserContext:
    """A phone-sized browser with ``user``'s session (no password typing needed)."""
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
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


def test_a_profile_and_a_settle_up_on_a_phone(
    transactional_db: None, live_server, live_browser: Browser
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    build_season(events=20, players=40, seed=12)
    # The account that played the most events: the fullest profile.
    regular = (
        Player.objects.filter(user__isnull=False)
        .annotate(played=Count("results"), cashes=Count("results", filter=Q(results__prize__gt=0)))
        .order_by("-played", "-cashes", "name")
        .first()
    )
    assert regular is not None and regular.played >= 4  # type: ignore[attr-defined]
    context = logged_in(live_browser, live_server.url, regular.user)
    page = context.new_page()

    page.goto(live_server.url + reverse("series:player_me"))
    expect(page.get_by_role("heading", level=1)).to_have_text(regular.name)
    expect(page.get_by_text("Events played")).to_be_visible()
    expect(page.locator("svg.chart circle")).to_have_count(regular.played)  # type: ignore[attr-defined]
    expect(page.get_by_role("link", name="My hands at the online tables")).to_be_visible()
    # Nothing sticks out sideways on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Every column of the results table fits without scrolling sideways.
    assert page.evaluate(
        "[...document.querySelectorAll('.scroll-x')].every(e => e.scrollWidth <= e.clientWidth)"
    )
    picture(page, str(ARTIFACTS / "series-profile-phone.png"), full_page=True)
    picture(page.locator(".record-table"), str(ARTIFACTS / "series-profile-table-phone.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
    picture(page, str(ARTIFACTS / "series-profile-laptop.png"), full_page=True)
    page.set_viewport_size(PHONE)

    night = (
        Event.objects.filter(results__player=regular, points_only=False)
        .order_by("-starts_at")
        .first()
    )
    assert night is not None
    page.goto(live_server.url + reverse("series:settle_up", args=[night.pk]))
    expect(page.get_by_role("heading", name="Settle-up")).to_be_visible()
    field = Result.objects.filter(event=night).count()
    transfers = page.locator(".transfer")
    assert 1 <= transfers.count() <= field - 1
    assert page.evaluate(
        "[...document.querySelectorAll('.scroll-x')].every(e => e.scrollWidth <= e.clientWidth)"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    picture(page, str(ARTIFACTS / "series-settle-up-phone.png"), full_page=True)
    picture(page, str(ARTIFACTS / "series-settle-up-phone-top.png"))
    context.close()

    # The host's view: a button per transfer; one marked paid.
    director = User.objects.create_user("host")
    director_grant(director)
    context = logged_in(live_browser, live_server.url, director)
    page = context.new_page()
    page.goto(live_server.url + reverse("series:settle_up", args=[night.pk]))
    page.get_by_role("button", name="Mark paid").first.click()
    expect(page.get_by_text("Marked paid:")).to_be_visible()
    expect(page.get_by_role("button", name="Mark not paid")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    picture(page, str(ARTIFACTS / "series-settle-up-host-phone.png"))
    context.close()


def test_the_director_corrects_results_and_merges_a_guest_on_a_phone(
    transactional_db: None, live_server, live_browser: Browser
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    season = build_season(events=6, players=12, seed=3)
    director = User.objects.create_user("host")
    director_grant(director)
    context = logged_in(live_browser, live_server.url, director)
    page = context.new_page()

    night = Event.objects.filter(season=season, finished_at__isnull=False).order_by("pk").first()
    assert night is not None
    page.goto(live_server.url + reverse("series:event_corrections", args=[night.pk]))
    first_knockouts = page.locator("input[name='form-0-knockouts']")
    first_knockouts.fill(str(int(first_knockouts.input_value()) + 1))
    page.get_by_label("Reason").fill("One more knockout for the winner")
    picture(page, str(ARTIFACTS / "series-corrections-phone.png"))
    page.get_by_role("button", name="Save the corrected results").click()
    expect(page.get_by_role("heading", name="Corrections of the results")).to_be_visible()
    expect(page.get_by_text("One more knockout for the winner")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    picture(page, str(ARTIFACTS / "series-history-phone.png"))

    guest = Player.objects.filter(user__isnull=True).order_by("name").first()
    assert guest is not None
    newcomer = User.objects.create_user("zz-newcomer")
    page.goto(live_server.url + reverse("series:guests"))
    row = page.locator(".guest-row", has_text=guest.name)
    row.get_by_label("Merge into").select_option(label=newcomer.username)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    picture(page, str(ARTIFACTS / "series-guests-phone.png"))
    row.get_by_role("button", name="Merge").click()
    expect(
        page.get_by_text(f"{guest.name}'s results are now {newcomer.username}'s.")
    ).to_be_visible()
    context.close()
