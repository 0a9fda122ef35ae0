"""A tap is never lost to a snapshot, in Debian's chromium against a served table.

Every snapshot redraws the table's buttons. A click counts only where the press began and
ended on the same button, so a snapshot drawn between the two would replace the button
under the finger and the tap would do nothing (the player taps again). Here a snapshot lands
while ann's mouse button is down on "Sit" (bob sits at the same table): the table draws it
once the press is over, and her one tap opens the sit dialog. And a page opened on one's own
turn offers its move only once its socket has brought the table as it is now. Deselect with
``-m "not browser"``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocket, WebSocketRoute, expect

from tests.browser import LAPTOP, PHONE, log_in, needs_chromium
from tests.conftest import PASSWORD
from tests.tables.servers import (
    served_table,
)
from tests.tables.test_browser_motion_sound import SETUP as ANN_AND_BOTS
from tests.tables.test_browser_table import SETUP

pytestmark = needs_chromium


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, int]]:
    """A served site (``manage.py serve``, embedded mode) with one table, and its id."""
    with served_table(tmp_path, SETUP) as served:
        yield served


def at_table(chromium: Browser, base: str, table_id: int, username: str) -> Page:
    page = chromium.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{base}/accounts/login/?next=/tables/{table_id}/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".conn-status")).to_have_attribute("data-kind", "ok")
    return page


def test_a_snapshot_landing_mid_press_does_not_lose_the_tap(
    chromium: Browser, server: tuple[str, int]
) -> None:
    base, table_id = server
    snapshots: list[Any] = []

    def heard(socket: WebSocket) -> None:
        def frame(payload: str | bytes) -> None:
            if isinstance(payload, str) and json.loads(payload).get("type") == "snapshot":
                snapshots.append(payload)

        socket.on("framereceived", frame)

    ann = at_table(chromium, base, table_id, "ann")
    ann.on("websocket", heard)
    ann.reload()
    expect(ann.locator(".conn-status")).to_have_attribute("data-kind", "ok")
    bob = at_table(chromium, base, table_id, "bob")

    # Bob has the sit dialog open: one tap of his, while ann's button is down, seats him.
    bob.get_by_role("button", name="Sit in seat 2").click()
    dialog = bob.locator("#sit-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Post now").check()

    sit = ann.get_by_role("button", name="Sit in seat 1")
    box = sit.bounding_box()
    assert box is not None
    ann.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    heard_before = len(snapshots)
    ann.mouse.down()
    pressed = time.monotonic()
    # Bob sits down meanwhile: ann's page hears the new snapshot while her button is down.
    dialog.get_by_role("button", name="Sit down").click()
    for _tick in range(100):
        if len(snapshots) > heard_before:
            break
        ann.wait_for_timeout(100)
    assert len(snapshots) > heard_before, "ann's page heard no snapshot during the press"
    ann.wait_for_timeout(300)  # time for the page to handle the frame it heard
    ann.mouse.up()
    # Within the longest press the table waits for (PRESS_MOST_MS in table.js).
    assert time.monotonic() - pressed < 9, "the snapshot came too late for this test"
    expect(ann.locator("#sit-dialog")).to_be_visible()
    assert ann.locator("#sit-dialog .sit-seat").inner_text() == "1"
    # The snapshot heard during the press is drawn after it: bob's seat is there.
    expect(ann.locator('.seat[data-seat="2"] .seat-name')).to_contain_text("bob")
    ann.context.close()
    bob.context.close()


def test_a_page_opened_on_ones_turn_offers_the_move_once_its_socket_has_spoken(
    chromium: Browser, tmp_path: Path
) -> None:
    """Opening the table on one's own turn changes it: the player is connected, and the
    turn's clock gets its reconnection seconds. A move made from the buttons the page came
    with was refused as out of date ("the table moved on meanwhile"), and the player's first
    tap was lost (a busy machine's browser test tapped in that moment). The buttons wait,
    disabled, for the socket's own snapshot; then one tap folds."""
    # Ann and two house bots: ann has the button, so she is first to act in the first hand.
    with served_table(tmp_path, ANN_AND_BOTS) as (base, table_id):
        page = chromium.new_context(viewport=PHONE).new_page()
        # The page's socket held: it opens, as far as the page knows, and hears nothing.
        held: list[WebSocketRoute] = []

        def hold(socket: WebSocketRoute) -> None:
            held.append(socket)

        page.route_web_socket(re.compile(r".*/ws/tables/.*"), hold)
        log_in(page, base, "ann", then=f"/tables/{table_id}/")
        fold = page.locator('.action-bar button[data-action="fold"]')
        deadline = time.monotonic() + 60
        while not fold.count():  # the first hand is dealt a few seconds after the bots sat
            assert time.monotonic() < deadline, "ann's turn never came"
            page.wait_for_timeout(250)
            page.reload()
        expect(page.locator("#poker")).to_have_attribute("data-version", re.compile(r"\d+"))
        expect(fold).to_be_disabled()
        shown = int(page.locator("#poker").get_attribute("data-version") or 0)

        held[-1].connect_to_server()
        expect(fold).to_be_enabled()
        # Her connection moved the table on from what the page came with.
        assert int(page.locator("#poker").get_attribute("data-version") or 0) > shown
        fold.click()
        expect(page.locator(".seat-mine.seat-folded")).to_be_visible()
        page.context.close()
