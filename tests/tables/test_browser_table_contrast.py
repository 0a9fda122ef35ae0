"""The phone table in play has no colour-contrast violation (axe-core, in Debian's chromium):
every text on the felt, the seats and the action bar reads against what is behind it, at
a player's turn and between hands. Screenshots land in test-artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from tests.browser import ARTIFACTS, PHONE, log_in, needs_chromium, picture
from tests.tables.servers import served_table
from tests.tables.test_browser_a11y import SETUP

pytestmark = needs_chromium


@pytest.fixture
def table_served(tmp_path: Path) -> Iterator[tuple[str, int]]:
    with served_table(
        tmp_path, SETUP, TABLES_BOT_THINK_MS="300", TABLES_NEXT_HAND_DELAY_MS="1000"
    ) as served:
        yield served


def contrast_violations(page: Page) -> list[str]:
    found = Axe().run(page, options={"runOnly": ["color-contrast"]}).response["violations"]
    return [
        f"{node['target']}: {node.get('failureSummary', '')[:200]}"
        for v in found
        for node in v["nodes"]
    ]


def test_the_phone_table_in_play_has_no_colour_contrast_violation(
    chromium: Browser, table_served: tuple[str, int]
) -> None:
    base, table_id = table_served
    context = chromium.new_context(viewport=PHONE)
    page = context.new_page()
    log_in(page, base, "pat", then=f"/tables/{table_id}/")
    expect(page.locator(".conn-status")).to_have_attribute("data-kind", "ok")
    ARTIFACTS.mkdir(exist_ok=True)
    problems: dict[str, list[str]] = {}
    expect(page.locator(".act-buttons")).to_be_visible(timeout=30_000)
    picture(page, str(ARTIFACTS / "table-contrast-turn-phone.png"))
    problems["my turn"] = contrast_violations(page)
    page.locator(".act-buttons button").first.click()
    expect(page.locator(".act-buttons")).to_be_hidden(timeout=15_000)
    picture(page, str(ARTIFACTS / "table-contrast-waiting-phone.png"))
    problems["waiting"] = contrast_violations(page)
    context.close()
    assert not any(problems.values()), problems


def test_folding_when_checking_is_free_is_the_players_setting(
    chromium: Browser, table_served: tuple[str, int]
) -> None:
    base, table_id = table_served
    context = chromium.new_context(viewport=PHONE)
    page = context.new_page()
    log_in(page, base, "pat", then=f"/tables/{table_id}/")
    setting = page.get_by_label("Ask before folding when checking is free")
    expect(setting).to_be_checked()
    setting.uncheck()
    buttons = page.locator(".act-buttons")
    # Play on (calling, never folding) until a turn where checking is free.
    for _ in range(40):
        expect(buttons).to_be_visible(timeout=30_000)
        if page.locator(".act-check").count():
            break
        page.locator(".act-call").click()
        expect(buttons).to_be_hidden(timeout=15_000)
    else:
        pytest.fail("no turn with a free check in 40 turns")
    page.locator(".act-fold").click()
    # One tap folds: no "Fold? Checking is free" asked first.
    expect(buttons).to_be_hidden(timeout=15_000)
    expect(page.locator(".seat-mine .seat-note")).to_have_text("Folded", ignore_case=True)
    picture(page, str(ARTIFACTS / "table-fold-free-setting-phone.png"))
    # Kept in this browser: the box is still unchecked after a reload.
    page.reload()
    expect(page.get_by_label("Ask before folding when checking is free")).not_to_be_checked()
    context.close()
