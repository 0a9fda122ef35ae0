"""The structure editor in Debian's chromium: htmx adds, edits and moves rows in place.

Screenshots of the editor on a laptop (1366x768) and a phone (390x844) land in
test-artifacts/. Deselect with ``-m "not browser"``.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, expect

from series.models import Event, Season
from series.services import director_grant
from tests.browser import ARTIFACTS, PHONE, log_in, needs_chromium, picture
from tests.conftest import PASSWORD
from tournaments.models import BlindStructure
from tournaments.services import blind_structures as services

pytestmark = needs_chromium


@pytest.fixture
def blind_structure(transactional_db: None) -> BlindStructure:
    services.blind_structure_templates_install()
    director = director_grant(User.objects.create_user("dana", password=PASSWORD))
    today = timezone.localdate()
    season = Season.objects.create(
        name="2026 Omaha Series", starts_on=today, ends_on=today + timedelta(days=90)
    )
    start = (timezone.now() + timedelta(days=5)).replace(hour=19, minute=30, second=0)
    Event.objects.create(
        season=season,
        name="Event 2: Pot-Limit Omaha/8",
        starts_at=start,
        buy_in=20,
        fee=5,
        starting_stack=10_000,
    )
    template = BlindStructure.objects.get(name="Home series PLO8", is_template=True)
    return services.blind_structure_copy(template.pk, by=director, name="Tuesday PLO8")


def test_edit_a_blind_structure_with_htmx_on_a_laptop_and_a_phone(
    blind_structure: BlindStructure,
    live_server,
    live_browser: Browser,  # type: ignore[no-untyped-def]
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    base = live_server.url
    page = live_browser.new_page(viewport={"width": 1366, "height": 768})
    log_in(page, base)
    page.goto(f"{base}/director/")
    page.get_by_role("link", name="Blind structures").click()
    expect(page.get_by_role("heading", name="Blind structures", exact=True)).to_be_visible()
    page.get_by_role("link", name="Tuesday PLO8").click()

    rows = page.locator(".srows > li")
    expect(rows).to_have_count(24)
    expect(rows.first).to_contain_text("19:30")
    # htmx: the page stays, the rows are swapped.
    page.evaluate("window.stayed = true")
    page.get_by_role("button", name="Add a level").click()
    expect(rows).to_have_count(25)
    expect(rows.last).to_contain_text("Level 21")
    assert page.evaluate("window.stayed") is True

    # Edit level 2 in place: an ante from each player.
    page.get_by_role("link", name="Edit Level 2", exact=True).click()
    form_row = page.locator("li.srow-editing")
    expect(form_row).to_be_visible()
    form_row.get_by_label("Ante", exact=True).select_option("each")
    form_row.get_by_label("Ante amount").fill("25")
    form_row.get_by_role("button", name="Save").click()
    expect(page.locator("li.srow-editing")).to_have_count(0)
    expect(rows.nth(1)).to_contain_text("ante 25")

    # A bad edit keeps the form open with the message beside it, and changes nothing.
    page.get_by_role("link", name="Edit Level 3", exact=True).click()
    form_row = page.locator("li.srow-editing")
    form_row.get_by_label("Big blind").fill("50")
    form_row.get_by_role("button", name="Save").click()
    expect(form_row).to_contain_text("Level 3: the big blind 50 is below the small blind 75.")
    form_row.get_by_role("link", name="Cancel").click()
    expect(rows.nth(2)).to_contain_text("75/150")

    # Move the first break down one row: level 5 now starts before it.
    page.get_by_role("button", name="Move Break after level 4 down").click()
    expect(rows.nth(4)).to_contain_text("Level 5")
    expect(rows.nth(5)).to_contain_text("Break")

    # A new start time moves every row.
    page.get_by_label("Start", exact=True).fill("2026-04-10T20:00")
    page.get_by_role("button", name="Show times").click()
    expect(rows.first).to_contain_text("20:00")
    expect(page.locator(".preview-facts")).to_contain_text("Fri 10 Apr, 20:00")
    # Leaving the field and pressing the button both ask for times: one answer is
    # swapped in, and nothing is still on its way when the next row is opened.
    expect(page.locator(".htmx-request")).to_have_count(0)

    page.evaluate("window.scrollTo(0, 0)")
    picture(page, str(ARTIFACTS / "structure-editor-laptop.png"))
    page.get_by_role("link", name="Edit Level 2", exact=True).click()
    expect(page.locator("li.srow-editing")).to_be_visible()
    picture(page, str(ARTIFACTS / "structure-editor-laptop-full.png"), full_page=True)

    page.set_viewport_size(PHONE)
    page.reload()
    expect(rows).to_have_count(25)
    picture(page, str(ARTIFACTS / "structure-editor-phone.png"))
    rows.nth(2).scroll_into_view_if_needed()
    picture(page, str(ARTIFACTS / "structure-rows-phone.png"))
    page.get_by_role("link", name="Edit Level 2", exact=True).click()
    editing = page.locator("li.srow-editing")
    expect(editing).to_be_visible()
    editing.scroll_into_view_if_needed()
    picture(page, str(ARTIFACTS / "structure-row-edit-phone.png"))
    page.goto(f"{base}/tournaments/blind-structures/")
    picture(page, str(ARTIFACTS / "structure-list-phone.png"), full_page=True)
    page.goto(f"{base}/tournaments/blind-structures/new/")
    picture(page, str(ARTIFACTS / "structure-new-phone.png"), full_page=True)
    page.set_viewport_size({"width": 1366, "height": 768})
    picture(page, str(ARTIFACTS / "structure-new-laptop.png"), full_page=True)
    page.close()
