"""The site in French on a phone: the home page, the lobby and a table in the middle of a
hand, in Debian's chromium with a French browser (``Accept-Language: fr-FR``).

The words the test looks for come from the project's catalog (``gettext`` under French), so
the test checks that the pages are French, not one translation's wording. Screenshots land
in test-artifacts/ (french-*.png).
"""

from __future__ import annotations

import time

from django.utils import translation
from django.utils.translation import gettext, pgettext
from playwright.sync_api import Browser, expect

from tests.browser import ARTIFACTS, needs_chromium, picture
from tests.conftest import PASSWORD
from tests.tables.test_browser_table import (  # noqa: F401
    LAPTOP,
    PHONE,
    browser,
    passive_move,
    server,
)

pytestmark = needs_chromium


def fr(message: str, context: str | None = None) -> str:
    with translation.override("fr"):
        text = pgettext(context, message) if context else gettext(message)
    assert text != message or message in {"Tables"}, f"{message!r} has no French"
    return text


def test_home_lobby_and_a_hand_in_play_read_in_french_on_a_phone(
    browser: Browser,  # noqa: F811
    server: tuple[str, int],  # noqa: F811
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    base, table_id = server
    page = browser.new_context(viewport=PHONE, locale="fr-FR").new_page()

    page.goto(f"{base}/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("navigation").get_by_role("link", name=fr("Log in"))).to_be_visible()
    picture(page, str(ARTIFACTS / "french-home-phone.png"), full_page=True)

    page.goto(f"{base}/accounts/login/?next=/tables/")
    page.locator("#id_username").fill("dana")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main").get_by_role("button", name=fr("Log in")).click()
    expect(page.get_by_role("heading", name=fr("Live tables"))).to_be_visible()
    picture(page, str(ARTIFACTS / "french-lobby-phone.png"), full_page=True)

    # The director seats the bots from the side panel, which a phone folds away.
    page.set_viewport_size(LAPTOP)
    page.goto(f"{base}/tables/{table_id}/")
    expect(page.locator(".conn-status")).to_have_attribute("data-kind", "ok")
    side = page.locator(".side")
    side.get_by_text(fr("Director: add bots")).click()
    side.locator("input[name=count]").fill("2")
    side.get_by_role("button", name=fr("Seat bots")).click()
    expect(side.locator(".bots-said")).to_contain_text("2 bots")
    expect(page.locator(".seat-name .badge")).to_have_count(2)
    dialog = page.locator("#sit-dialog")
    # The bots' first hand may redraw the seats as the button is tapped: the table draws a
    # snapshot that lands mid-press after the click (table.js), so one tap opens the dialog.
    page.locator(".sit-button").first.click()
    expect(dialog).to_be_visible()
    dialog.get_by_label(fr("Post now")).check()
    dialog.get_by_role("button", name=fr("Sit down")).click()
    expect(page.locator(".seat-mine")).to_have_count(1)
    page.set_viewport_size(PHONE)

    # Play passively until the flop is out and it is the director's turn again: a hand in
    # the middle, with the board, the pot and the action bar in French.
    deadline = time.monotonic() + 60
    bar = page.locator(".action-bar")
    while True:
        assert time.monotonic() < deadline, "no turn after the flop"
        board = page.locator(".board .pc").count()
        if board >= 3 and bar.locator("button:enabled").count():
            break
        if not passive_move(page):
            page.wait_for_timeout(100)
    expect(bar.locator("button:enabled").first).to_be_visible()
    text = bar.inner_text()
    # The French rules' words (docs/rules/sources/omaha-hi-lo-rules-fr.txt): parole, suivre, se
    # coucher, miser, relancer; the bar is worded by the browser through the JavaScript catalog.
    assert any(word in text for word in ("Parole", "Suivre", "Se coucher")), text
    assert not any(word in text for word in ("Check", "Call", "Fold", "Raise")), text
    picture(page, str(ARTIFACTS / "french-table-phone.png"), settle=200)
    assert page.locator("html").get_attribute("lang") == "fr"
