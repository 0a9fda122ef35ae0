"""The table's movements and sounds on a phone, against a served table with two house bots.

A player folds a hand (static/tables/sound.js turns the sound on at that first tap and logs
its cues in ``window.pokerSound.log``: a headless browser has nothing to listen with), the
bots play it out, and the cards and chips move (static/tables/motion.js); both toggles
outlive a reload; with the system asking for reduced motion nothing moves. A
MutationObserver set before the page's own scripts counts every movement class the page
sets. Screenshots of movements caught midway land in test-artifacts/ (motion-*.png).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import ARTIFACTS, PHONE, log_in, needs_chromium, picture
from tests.conftest import PASSWORD
from tests.tables.servers import served_table

pytestmark = needs_chromium

SETUP = f"""
from django.contrib.auth.models import User
from tables import services
director = User.objects.create_superuser("dana", password="{PASSWORD}")
ann = User.objects.create_user("ann", password="{PASSWORD}")
table = services.table_create(created_by=director, name="Motion PLO", big_blind=2, seat_count=4)
services.seat_take(table.pk, ann, 1, table.max_buy_in, wait_for_big_blind=False)
services.table_add_bots(table.pk, director, 2, "station")
print(table.pk)
"""

# Every movement class the page sets, from its first script on.
WATCH_MOTION = """
window.__motion = [];
new MutationObserver((records) => {
  for (const record of records) {
    const nodes = record.type === "attributes" ? [record.target] : [...record.addedNodes];
    for (const node of nodes) {
      if (!node.classList) continue;
      for (const name of node.classList) {
        if (name.startsWith("motion-") && name !== "motion-layer") window.__motion.push(name);
      }
    }
  }
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"] });
"""

# Resolves when a movement matching `selector` starts, with every animation of the page
# stopped midway, for a screenshot.
FREEZE = """
(selector) => new Promise((resolve) => {
  setTimeout(() => resolve(false), 30000);
  const stop = () => {
    if (!document.querySelector(selector)) return false;
    document.getAnimations().forEach((a) => { a.pause(); a.currentTime = 130; });
    resolve(true);
    return true;
  };
  if (stop()) return;
  const watch = new MutationObserver(() => { if (stop()) watch.disconnect(); });
  watch.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"] });
})
"""


@pytest.fixture
def table_with_bots(tmp_path: Path) -> Iterator[tuple[str, int]]:
    """A served table where ann sits with two house bots, and its id. The bots are calling
    stations (they never fold to a bet), so a hand ann folds goes on to checks and calls;
    they think half a second, and the next hand comes 1.5 seconds after one ends."""
    with served_table(
        tmp_path, SETUP, TABLES_BOT_THINK_MS="500", TABLES_NEXT_HAND_DELAY_MS="1500"
    ) as served:
        yield served


def sounds(page: Page) -> list[dict[str, Any]]:
    return page.evaluate("window.pokerSound.log")


def fold_at_my_turn(page: Page, deadline: float) -> None:
    """Wait for ann's turn and fold (twice when checking is free: the first tap arms it).
    One tap each: a snapshot that lands mid-press is drawn after the click (table.js), so
    the button is never replaced under the finger."""
    fold = page.locator('.action-bar button[data-action="fold"]:enabled')
    while not fold.count():
        assert time.monotonic() < deadline, "ann's turn never came"
        page.wait_for_timeout(100)
    version = page.locator("#poker").get_attribute("data-version") or ""
    fold.first.click()
    armed = page.locator('.action-bar button[data-action="fold"].armed:enabled')
    if armed.count():
        armed.first.click()
    expect(page.locator("#poker")).not_to_have_attribute("data-version", version)
    expect(page.locator(".seat-mine.seat-folded")).to_be_visible()


def shoot(page: Page, selector: str, name: str) -> None:
    """A screenshot with the movements of `selector` caught midway, then let them finish."""
    assert page.evaluate(FREEZE, selector), f"no movement of {selector}"
    picture(page, str(ARTIFACTS / f"motion-{name}-phone.png"))
    page.evaluate("document.getAnimations().forEach((a) => a.play())")


@pytest.mark.long
def test_moves_sound_and_move_unless_asked_not_to(
    chromium: Browser,
    table_with_bots: tuple[str, int],
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    base, table_id = table_with_bots
    context = chromium.new_context(viewport=PHONE)
    context.add_init_script(WATCH_MOTION)
    page = context.new_page()
    log_in(page, base, "ann", then=f"/tables/{table_id}/")
    expect(page.locator(".conn-status")).to_have_attribute("data-kind", "ok")
    speaker = page.locator("[data-toggle=sound]")
    motion = page.locator("[data-toggle=motion]")
    # Silent until the player chooses: browsers play nothing before a tap anyway.
    expect(speaker).to_have_attribute("aria-pressed", "false")
    expect(motion).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#poker")).to_have_attribute("data-motion", "on")

    # Ann's turn sounds (silently: not chosen yet); her fold is the tap that turns it on.
    deadline = time.monotonic() + 60
    fold_at_my_turn(page, deadline)
    expect(speaker).to_have_attribute("aria-pressed", "true")
    assert "turn" in [cue["name"] for cue in sounds(page)]
    page.wait_for_function("window.pokerSound.log.some((c) => c.name === 'fold' && c.played)")

    # The bots play the hand out: their moves sound, the chips go to the winner.
    shoot(page, ".motion-layer .motion", "chips")
    page.wait_for_function("window.pokerSound.log.some((c) => c.name === 'win')", timeout=30_000)
    names = {cue["name"] for cue in sounds(page)}
    assert names & {"bet", "call", "check"}, names
    # The next hand is dealt from the middle of the table.
    shoot(page, ".seat-cards .motion-deal", "deal")
    seen = set(page.evaluate("window.__motion"))
    assert {"motion-deal", "motion-fly"} <= seen, seen

    # Motion off; both choices outlive a reload.
    motion.click()
    expect(motion).to_have_attribute("aria-pressed", "false")
    page.reload()
    expect(page.locator(".conn-status")).to_have_attribute("data-kind", "ok")
    expect(speaker).to_have_attribute("aria-pressed", "true")
    expect(motion).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#poker")).to_have_attribute("data-motion", "off")

    # Motion back on, and the phone set to reduce motion: the hand plays, nothing moves.
    motion.click()
    expect(page.locator("#poker")).to_have_attribute("data-motion", "on")
    page.emulate_media(reduced_motion="reduce")
    expect(page.locator("#poker")).to_have_attribute("data-motion", "off")
    expect(motion).to_have_attribute("aria-pressed", "false")
    page.evaluate("window.__motion = []; window.pokerSound.log.length = 0")
    fold_at_my_turn(page, time.monotonic() + 60)
    page.wait_for_function("window.pokerSound.log.some((c) => c.name === 'win')", timeout=30_000)
    assert page.evaluate("window.__motion") == []
    assert page.locator(".motion, .motion-layer > *").count() == 0
    picture(page, str(ARTIFACTS / "motion-reduced-phone.png"))
