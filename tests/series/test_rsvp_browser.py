"""Who is coming, in Debian's chromium on a phone (390x844), in English and in French: a
player answers Going with a named guest, lands on the waiting list, and gets in when
someone drops; the director's page shows the counts, the minimum and the late drop.

The French words come from the project's catalog (``gettext`` under French), so the test
checks the page is French, not one translation's wording. Screenshots land in
test-artifacts/ (rsvp-*.png), to be looked at. Deselect with ``-m "not browser"``.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext
from playwright.sync_api import Browser, Page, expect

from series.models import Event, RsvpAnswer
from series.services import director_grant
from series.services.rsvp import rsvp_answer
from tests.browser import ARTIFACTS, LAPTOP, PHONE, log_in, needs_chromium, picture
from tests.conftest import PASSWORD

pytestmark = needs_chromium


def shoot(page: Page, name: str, *, full_page: bool = True) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    picture(page, str(ARTIFACTS / f"rsvp-{name}.png"), full_page=full_page)


def fr(message: str) -> str:
    with translation.override("fr"):
        text = gettext(message)
    assert text != message, f"{message!r} has no French"
    return text


def fr_plural(singular: str, plural: str, count: int) -> str:
    with translation.override("fr"):
        text = ngettext(singular, plural, count)
    assert text not in {singular, plural}, f"{singular!r} has no French"
    return text


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways ({width}px)"


@pytest.fixture
def night(transactional_db: None, event: Event) -> Event:
    """Tomorrow's event: six seats, ann with a guest and ben with two hold five; a
    minimum of eight checked two days ahead, and a late-drop window of two days."""
    event.capacity = 6
    event.waiting_list_size = 6
    event.rsvp_minimum = 8
    event.rsvp_minimum_hours = 48
    event.late_drop_hours = 48
    event.save()
    ann = User.objects.create_user("ann", email="ann@example.com", password=PASSWORD)
    ben = User.objects.create_user("ben", email="ben@example.com", password=PASSWORD)
    cal = User.objects.create_user("cal", password=PASSWORD)
    rsvp_answer(event.pk, ann, RsvpAnswer.GOING, 1, "Marc")
    rsvp_answer(event.pk, ben, RsvpAnswer.GOING, 2)
    rsvp_answer(event.pk, cal, RsvpAnswer.MAYBE)
    User.objects.create_user("pat", email="pat@example.com", password=PASSWORD)
    director_grant(User.objects.create_user("dana", email="dana@example.com", password=PASSWORD))
    return event


def test_a_player_answers_on_a_phone_in_english(
    night: Event, live_server, live_browser: Browser
) -> None:
    base = live_server.url
    page = live_browser.new_page(viewport=PHONE)
    log_in(page, base, "pat", then=f"/series/events/{night.pk}/")
    block = page.locator("#rsvp")
    expect(block.get_by_role("heading", name="Who's coming")).to_be_visible()
    expect(block).to_contain_text("You haven't answered yet.")
    expect(block).to_contain_text("5 of 6 seats")
    expect(block).to_contain_text("1 seat left")
    no_sideways_scroll(page)
    block.scroll_into_view_if_needed()
    shoot(page, "event-phone-en")

    # A party of two for one free seat: the waiting list, number 1 (htmx swaps the block).
    page.locator("#rsvp-guests").select_option("1")
    page.locator("#rsvp-guest-names").fill("Zoé")
    block.get_by_role("button", name="Going", exact=True).click()
    expect(page.locator("#rsvp")).to_contain_text("You're on the waiting list, number 1.")
    expect(page.locator("#rsvp .message")).to_contain_text("you are on the waiting list")
    expect(page.locator("#rsvp").get_by_role("button", name="Going", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    no_sideways_scroll(page)
    shoot(page, "event-waiting-phone-en")

    # Ann drops, late: the waiting list moves up by itself.
    rsvp_answer(night.pk, User.objects.get(username="ann"), RsvpAnswer.NO)
    page.reload()
    block = page.locator("#rsvp")
    expect(block).to_contain_text("You got in from the waiting list: you're going.")
    expect(block).to_contain_text("You bring 1 guest.")
    expect(block.locator(".rsvp-list li.is-me")).to_contain_text("pat")
    expect(block.locator(".rsvp-list li.is-me")).to_contain_text("Zoé")
    assert "@example.com" not in page.content()
    shoot(page, "event-promoted-phone-en")

    # The director's page: the counts, below the minimum, the late drop.
    director = live_browser.new_page(viewport=PHONE)
    log_in(director, base, "dana", then="/director/")
    overview = director.locator(".rsvp-overviews")
    expect(overview).to_contain_text("Below the minimum: 5 people coming, 8 needed.")
    expect(overview).to_contain_text("Late drop: ann")
    assert "@example.com" not in director.content()
    no_sideways_scroll(director)
    shoot(director, "director-phone-en")
    director.set_viewport_size(LAPTOP)
    shoot(director, "director-laptop-en")
    page.set_viewport_size(LAPTOP)
    shoot(page, "event-laptop-en")


def test_a_player_answers_on_a_phone_in_french(
    night: Event, live_server, live_browser: Browser
) -> None:
    base = live_server.url
    page = live_browser.new_context(viewport=PHONE, locale="fr-FR").new_page()
    page.goto(f"{base}/accounts/login/?next=/series/events/{night.pk}/")
    page.locator("#id_username").fill("pat")
    page.locator("#id_password").fill(PASSWORD)
    with translation.override("fr"):
        log_in_label = gettext("Log in")
    page.locator("main").get_by_role("button", name=log_in_label).click()
    page.wait_for_url(lambda address: "/accounts/login/" not in address)
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    block = page.locator("#rsvp")
    expect(block.get_by_role("heading", name=fr("Who's coming"))).to_be_visible()
    expect(block).to_contain_text(fr("You haven't answered yet."))
    expect(block).to_contain_text(
        fr_plural("%(count)s seat left", "%(count)s seats left", 1) % {"count": 1}
    )
    no_sideways_scroll(page)
    block.scroll_into_view_if_needed()
    shoot(page, "event-phone-fr")

    block.get_by_role("button", name=fr("Maybe"), exact=True).click()
    expect(page.locator("#rsvp")).to_contain_text(fr("You said maybe."))
    block = page.locator("#rsvp")
    block.get_by_role("button", name=fr("Going"), exact=True).click()
    expect(page.locator("#rsvp")).to_contain_text(fr("You're going."))
    expect(page.locator("#rsvp")).to_contain_text(
        fr("Full: a Going answer joins the waiting list.")
    )
    no_sideways_scroll(page)
    shoot(page, "event-going-phone-fr")

    # A guest more than the seats hold: refused, with the reason, in French.
    page.locator("#rsvp-guests").select_option("2")
    page.locator("#rsvp").get_by_role("button", name=fr("Going"), exact=True).click()
    expect(page.locator("#rsvp .message-error")).to_contain_text(
        fr_plural(
            "Only %(count)s seat is left for you and your guests.",
            "Only %(count)s seats are left for you and your guests.",
            1,
        )
        % {"count": 1}
    )
    shoot(page, "event-refused-phone-fr")

    # The director, in French, once ann has dropped late.
    rsvp_answer(night.pk, User.objects.get(username="ann"), RsvpAnswer.NO)
    director = live_browser.new_context(viewport=PHONE, locale="fr-FR").new_page()
    director.goto(f"{base}/accounts/login/?next=/director/")
    director.locator("#id_username").fill("dana")
    director.locator("#id_password").fill(PASSWORD)
    director.locator("main").get_by_role("button", name=log_in_label).click()
    director.wait_for_url(lambda address: "/accounts/login/" not in address)
    expect(director.locator(".rsvp-overviews")).to_contain_text(
        fr("Late drop: %(name)s (%(when)s).").split("%(name)s")[0] + "ann"
    )
    no_sideways_scroll(director)
    shoot(director, "director-phone-fr")


def test_a_started_event_has_no_answer_block(
    night: Event, live_server, live_browser: Browser
) -> None:
    Event.objects.filter(pk=night.pk).update(starts_at=timezone.now() - timedelta(minutes=5))
    page = live_browser.new_page(viewport=PHONE)
    log_in(page, live_server.url, "pat", then=f"/series/events/{night.pk}/")
    expect(page.get_by_role("heading", name=night.name, level=1)).to_be_visible()
    expect(page.locator("#rsvp")).to_have_count(0)
