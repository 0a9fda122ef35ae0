"""The TV clock's QR code, scanned as a phone would: the code is read off a screenshot of
the TV (1920x1080) with zxing-cpp, and its address, opened on a phone (390x844) by a guest
with the PIN of their seat card, lands on their night page.

Screenshots (TV and phone, English and French) land in test-artifacts/. Deselect with
``-m "not browser"``.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
import zxingcpp
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from PIL import Image
from playwright.sync_api import Browser, Page, expect

from tests.browser import ARTIFACTS, LAPTOP, PHONE, TV, log_in, needs_chromium, picture
from tests.tournaments.factories import seat
from tournaments.models import Entry, Tournament


def in_chromium(test: Any) -> Any:
    """A test that drives chromium (the page drawn server-side needs none)."""
    for mark in needs_chromium:
        test = mark(test)
    return test


@pytest.fixture
def night(tournament: Tournament) -> dict[str, Entry]:
    """The night in play: two guests at table 1, one at table 2."""
    return seat(tournament, {1: ["Gus", "Gwen"], 2: {4: "Hugo"}})


def tv_url(live_server: Any, tournament: Tournament) -> str:
    return live_server.url + reverse("tournaments:tv_clock", args=[tournament.tv_token])


def scan(page: Page) -> str:
    """What a phone's camera reads off the TV's QR code."""
    code = page.locator(".tv-qr-code")
    expect(code).to_be_visible()
    box = code.bounding_box()
    assert box is not None
    # Big enough to read from a few steps away: at least a sixth of the TV's height.
    assert box["height"] >= TV["height"] / 6
    # In the corner, clear of the clock.
    clock = page.locator('.tv [data-clock="time"]').bounding_box()
    assert clock is not None
    assert box["x"] >= clock["x"] + clock["width"] or box["y"] >= clock["y"] + clock["height"]
    image = Image.open(io.BytesIO(page.screenshot(clip=box)))
    found = zxingcpp.read_barcodes(image)
    assert len(found) == 1
    assert found[0].format == zxingcpp.BarcodeFormat.QRCode
    return found[0].text


def seat_card_pin(browser: Browser, live_server: Any, tournament: Tournament, name: str) -> str:
    """The PIN on a guest's seat card, as the director prints it."""
    page = browser.new_context(viewport=LAPTOP).new_page()
    log_in(page, live_server.url, then=reverse("tournaments:sheet_seats", args=[tournament.pk]))
    card = page.locator(".seat-card", has=page.locator(".seat-card-name", has_text=name))
    pin = card.locator(".seat-card-pin-digits").inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    picture(page, str(ARTIFACTS / "seat-cards-guest-pin-laptop.png"), full_page=True)
    page.context.close()
    return pin


@in_chromium
def test_the_tv_qr_code_leads_a_guest_to_their_night(
    live_browser: Browser, live_server: Any, tournament: Tournament, night: dict[str, Entry]
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    pin = seat_card_pin(live_browser, live_server, tournament, "Gus")

    tv = live_browser.new_context(viewport=TV).new_page()
    tv.goto(tv_url(live_server, tournament))
    expect(tv.locator(".tv-qr-caption")).to_have_text("Scan for your seat and the clock")
    address = scan(tv)
    assert address == live_server.url + reverse("tournaments:night", args=[tournament.pk])
    picture(tv, str(ARTIFACTS / "tv-qr-en.png"))

    phone = live_browser.new_context(viewport=PHONE).new_page()
    phone.goto(address)
    phone.get_by_role("link", name="I'm a guest: use my PIN").click()
    expect(phone.get_by_label("Your name")).to_be_visible()
    phone.get_by_label("Your name").select_option(label="Gus")
    phone.get_by_label("PIN").fill(pin)
    picture(phone, str(ARTIFACTS / "night-pin-phone-en.png"), full_page=True)
    phone.get_by_role("button", name="Open my night").click()
    phone.wait_for_url(address)
    expect(phone.locator(".night-name")).to_have_text("Gus")
    expect(phone.locator("[data-night-seat]")).to_have_attribute("data-night-seat", "1-1")
    picture(phone, str(ARTIFACTS / "night-from-qr-phone-en.png"), full_page=True)


@in_chromium
def test_a_wrong_pin_on_the_phone_says_so(
    live_browser: Browser, live_server: Any, tournament: Tournament, night: dict[str, Entry]
) -> None:
    pin = seat_card_pin(live_browser, live_server, tournament, "Hugo")
    phone = live_browser.new_context(viewport=PHONE).new_page()
    phone.goto(live_server.url + reverse("tournaments:night_pin", args=[tournament.pk]))
    phone.get_by_label("Your name").select_option(label="Hugo")
    phone.get_by_label("PIN").fill(f"{(int(pin) + 1) % 1_000_000:06d}")
    phone.get_by_role("button", name="Open my night").click()
    expect(phone.locator(".errorlist")).to_have_text("Wrong PIN. 2 tries left before a wait.")
    expect(phone.get_by_label("PIN")).to_have_value("")
    picture(phone, str(ARTIFACTS / "night-pin-wrong-phone-en.png"), full_page=True)


@in_chromium
def test_the_tv_qr_code_in_french(
    live_browser: Browser, live_server: Any, tournament: Tournament, night: dict[str, Entry]
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    tv = live_browser.new_context(viewport=TV, locale="fr-FR").new_page()
    tv.goto(tv_url(live_server, tournament))
    assert scan(tv) == live_server.url + reverse("tournaments:night", args=[tournament.pk])
    picture(tv, str(ARTIFACTS / "tv-qr-fr.png"))
    phone = live_browser.new_context(viewport=PHONE, locale="fr-FR").new_page()
    phone.goto(live_server.url + reverse("tournaments:night_pin", args=[tournament.pk]))
    picture(phone, str(ARTIFACTS / "night-pin-phone-fr.png"), full_page=True)
    phone.locator("#id_player").select_option(label="Gwen")
    phone.locator("#id_pin").fill("12345")
    phone.locator("button[type=submit].button").click()
    expect(phone.locator(".errorlist")).to_be_visible()
    picture(phone, str(ARTIFACTS / "night-pin-refused-phone-fr.png"), full_page=True)


@in_chromium
def test_a_phone_opening_the_tv_page_is_not_shown_the_code(
    live_browser: Browser, live_server: Any, tournament: Tournament, night: dict[str, Entry]
) -> None:
    phone = live_browser.new_context(viewport=PHONE).new_page()
    phone.goto(tv_url(live_server, tournament))
    expect(phone.locator(".tv-qr")).to_be_hidden()


def test_the_tv_page_draws_the_code_server_side(
    client: Client, tournament: Tournament, director: User
) -> None:
    page = client.get(reverse("tournaments:tv_clock", args=[tournament.tv_token])).content
    text = page.decode()
    assert '<svg viewBox="0 0 ' in text and 'class="tv-qr-code"' in text
    assert "<title>Scan for your seat and the clock</title>" in text
    assert "<img" not in text.split('class="tv-qr"', 1)[1].split("</figure>", 1)[0]
