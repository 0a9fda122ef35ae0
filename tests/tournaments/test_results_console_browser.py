"""The console's seating and results sections on a phone (390x844) in Debian's chromium.

A director answers "where is the button?", confirms the move it leads to, records two
players out on one hand and proposes an ICM deal, all through htmx. Screenshots land in
test-artifacts/ (console-seating-phone.png, console-results-phone.png,
console-deal-phone.png, and each section alone as *-section-phone.png). Deselect with ``-m "not browser"``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser import ARTIFACTS, PHONE, log_in, needs_chromium, picture
from tests.tournaments.factories import seat
from tournaments.models import Entry, EntryState, Tournament

pytestmark = needs_chromium

LAYOUT = {
    1: ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus"],
    2: ["Hal", "Ivy", "Jon", "Kim", "Lou"],
}


@pytest.fixture
def night(tournament_in_play: Tournament) -> Tournament:
    """Twelve players at two tables, 7 and 5: one must move, and no button is known."""
    Tournament.objects.filter(pk=tournament_in_play.pk).update(bounty=5)
    seat(tournament_in_play, LAYOUT)
    tournament_in_play.refresh_from_db()
    return tournament_in_play


def test_seating_and_results_on_a_phone(
    night: Tournament, live_server, live_browser: Browser
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    base = live_server.url
    page = live_browser.new_page(viewport=PHONE)
    page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, base)
    page.goto(f"{base}/tournaments/{night.pk}/console/")
    seating = page.locator("#console-seating")
    expect(seating.get_by_text("where is its button for the next hand?").first).to_be_visible()
    picture(seating, str(ARTIFACTS / "console-seating-ask-section-phone.png"))

    # The button of each table concerned, one tap each; then the move appears.
    for number, button in ((1, 3), (2, 2)):
        table = seating.locator(f"#table-{number}")
        table.get_by_role("button", name=f"Button at seat {button}", exact=True).click()
        expect(
            page.locator(f"#table-{number}").get_by_text(f"button: seat {button}")
        ).to_be_visible()
    move = page.locator(".ops-step-move")
    expect(move).to_contain_text("→ table 2 seat")
    picture(page, str(ARTIFACTS / "console-seating-phone.png"), full_page=True)
    picture(seating, str(ARTIFACTS / "console-seating-section-phone.png"))
    move.get_by_role("button", name="Confirm").click()
    expect(page.locator("#console-seating .ops-last")).to_contain_text("table 1 seat")
    assert Entry.objects.filter(tournament=night, table_number=2).count() == 6

    # Two out on one hand, ranked by their stacks at its start; Ann takes both bounties.
    results = page.locator("#console-results")
    for name, stack in (("Kim", "4000"), ("Lou", "2500")):
        row = results.locator(".bust-list li", has_text=name)
        row.get_by_role("checkbox").check()
        row.locator("input[type=number]").fill(stack)
    results.get_by_label("Knocked out by").select_option(label="Ann")
    results.get_by_role("button", name="Record the elimination").click()
    expect(page.locator("#console-results .ops-last")).to_contain_text(
        "Out: Kim (place 11), Lou (place 12), by Ann"
    )
    page.locator("#console-results").scroll_into_view_if_needed()
    picture(page, str(ARTIFACTS / "console-results-phone.png"), full_page=True)
    picture(page.locator("#console-results"), str(ARTIFACTS / "console-results-section-phone.png"))

    # Down to three, an ICM proposal to edit.
    for entry in Entry.objects.filter(tournament=night, state=EntryState.PLAYING).exclude(
        player__name__in=["Ann", "Ben", "Cal"]
    ):
        entry.state, entry.place = EntryState.OUT, 4
        entry.save()
    page.reload()
    results = page.locator("#console-results")
    results.get_by_text("Deal", exact=True).click()
    for name, stack in (("Ann", "60000"), ("Ben", "40000"), ("Cal", "20000")):
        results.locator(".deal-list li", has_text=name).locator("input").fill(stack)
    results.get_by_role("button", name="Propose").click()
    expect(page.locator("#console-results").get_by_text("ICM proposal")).to_be_visible()
    picture(page, str(ARTIFACTS / "console-deal-phone.png"), full_page=True)
    picture(page.locator("#console-results"), str(ARTIFACTS / "console-deal-section-phone.png"))
    page.close()
