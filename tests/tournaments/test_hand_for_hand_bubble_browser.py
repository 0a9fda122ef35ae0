"""The hand the bubble bursts on, in Debian's chromium against a real server: two players out
at two tables on that hand, recorded one at a time from the console on a phone, tie; the TV,
the console and the dealer's page say the bubble burst and that the hand is being finished
at every table; the last table's "hand done" ends hand-for-hand. Screenshots land in
test-artifacts/ (phone 390x844 and desktop 1280x800). Deselect with ``-m "not browser"``.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.browser import ARTIFACTS, LAPTOP, PHONE, needs_chromium, picture

from .test_hand_for_hand_browser import live_console
from .test_hand_for_hand_browser import served as served  # the night, shared

pytestmark = needs_chromium

BURST = "Bubble burst: finishing this hand at every table"


def record_out(console: Page, name: str, summary: str) -> None:
    # The console's sections fetch themselves again after the clock's last change: a tick
    # made before the results section's refresh arrives would be swapped away with it.
    console.wait_for_load_state("networkidle")
    results = console.locator("#console-results")
    results.locator(".bust-list li", has_text=name).get_by_role("checkbox").check()
    results.get_by_role("button", name="Record the elimination").click()
    expect(console.locator("#console-results .ops-last")).to_contain_text(summary)


@pytest.mark.long(25)
def test_two_out_on_the_bubble_hand_tie_and_the_last_table_ends_it(
    chromium: Browser, served: dict[str, Any]
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    console = live_console(chromium, served, PHONE)
    console.on("dialog", lambda dialog: dialog.accept())
    clock = console.locator("#console-clock")
    clock.get_by_text("Hand-for-hand", exact=True).click()
    clock.get_by_role("button", name="Start hand-for-hand").click()
    clock.get_by_role("button", name="Every table is done: next hand").click()
    expect(clock.get_by_text("Hand 1: each table says when it is done.")).to_be_visible()

    # Five left, three paid: Bob out on hand 1 leaves the bubble; hand 2 starts.
    record_out(console, "Bob", "Out: Bob")
    clock.get_by_role("button", name="Every table is done: next hand").click()
    expect(clock.get_by_text("Hand 2: each table says when it is done.")).to_be_visible()

    tv = chromium.new_context(viewport=LAPTOP).new_page()
    tv.goto(f"{served['base']}/tournaments/tv/{served['token']}/")
    line = tv.locator('.tv [data-clock="hand-for-hand"]')
    expect(line).to_have_text("Hand 2 · Still playing: tables 1, 2")

    # Cal out at table 1 bursts the bubble: hand-for-hand stays on for the rest of hand 2.
    record_out(console, "Cal", "Out: Cal")
    expect(line).to_have_text(f"Hand 2 · {BURST} · Still playing: tables 1, 2")
    expect(clock.locator(".cc-burst")).to_contain_text(BURST)
    expect(
        clock.get_by_role("button", name="Every table is done: end hand-for-hand")
    ).to_be_visible()

    # Dee out at table 2 on that same hand, recorded after: she ties with Cal.
    record_out(console, "Dee", "Out: Dee (places 3-4 shared)")

    dealer_url = clock.locator(".cc-tables li").nth(1).locator("a.cc-dealer").get_attribute("href")
    dealer = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    dealer.goto(f"{served['base']}{dealer_url}")
    expect(dealer.get_by_text(BURST)).to_be_visible()
    picture(dealer, str(ARTIFACTS / "hand-for-hand-bubble-dealer-390x844.png"))
    picture(tv, str(ARTIFACTS / "hand-for-hand-bubble-tv-1280x800.png"))
    phone_tv = chromium.new_context(viewport=PHONE, is_mobile=True).new_page()
    phone_tv.goto(f"{served['base']}/tournaments/tv/{served['token']}/")
    expect(phone_tv.locator('.tv [data-clock="hand-for-hand"]')).to_contain_text(BURST)
    picture(phone_tv, str(ARTIFACTS / "hand-for-hand-bubble-tv-390x844.png"))
    picture(clock, str(ARTIFACTS / "hand-for-hand-bubble-console-390x844.png"))
    desk = live_console(chromium, served, LAPTOP)
    expect(desk.locator("#console-clock .cc-burst")).to_be_visible()
    picture(
        desk.locator("#console-clock"), str(ARTIFACTS / "hand-for-hand-bubble-console-1280x800.png")
    )

    # Table 2's dealer, then the director for table 1: hand-for-hand ends, the clock runs.
    dealer.get_by_role("button", name="Hand done").click()
    expect(line).to_have_text(f"Hand 2 · {BURST} · Still playing: table 1")
    clock.locator(".cc-tables li").first.get_by_role("button", name="Hand done").click()
    expect(line).to_be_hidden()
    expect(tv.locator('.tv [data-clock="status"]')).not_to_have_text("Hand-for-hand")
    expect(clock.locator(".cc-burst")).to_have_count(0)
    expect(dealer.get_by_text("Hand-for-hand is off: deal as usual.")).to_be_visible(timeout=15_000)


def test_an_elimination_answered_after_its_section_was_asked_again_shows_done(
    chromium: Browser, served: dict[str, Any]
) -> None:
    """The director records Bob out; before the answer comes, another screen's change makes
    every section fetch itself again. The results section waits for the answer: swapped
    away under it, the answer's event (on the form) never reached the page, and the console
    showed Bob still in play, recorded out on the server."""
    console = live_console(chromium, served, PHONE)
    console.on("dialog", lambda dialog: dialog.accept())
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    console.route("**/console/results/eliminate/", hold)
    results = console.locator("#console-results")
    results.locator(".bust-list li", has_text="Bob").get_by_role("checkbox").check()
    results.get_by_role("button", name="Record the elimination").click()
    # Held on its way to the server (the route's handler runs while Playwright waits).
    for _ in range(300):
        if held:
            break
        console.wait_for_timeout(50)
    assert held, "the elimination was not sent"
    # Another screen changed the tournament: every section fetches itself again (the chips
    # section's answer shows the fetches were sent and answered).
    with console.expect_response("**/console/chips/section/"):
        console.evaluate("document.body.dispatchEvent(new CustomEvent('tournament-changed'))")
    held[0].continue_()
    expect(console.locator("#console-results .ops-last")).to_contain_text("Out: Bob")
    expect(results.locator(".bust-list li", has_text="Bob")).to_have_count(0)
