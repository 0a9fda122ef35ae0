"""The table's helpers, as two players see them in Debian's chromium.

One heads-up hand against the served site (the fixtures of test_browser_table): the pot
shows from the deal, the Pot preset names its amount, the bet box starts at the minimum on
the flop after a bigger preflop raise, Fold asks again when checking is free, the empty
seats' labels are readable, the shortcuts are listed, the hand helper shows only to the
player who turned it on, the phone's chat toggle counts unread lines and opens without
covering the action bar, and missed blinds read as a sentence. Screenshots of each land in
test-artifacts/ (table2-*.png).
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import ARTIFACTS, needs_chromium, picture, pictures_by_size
from tests.tables.servers import manage, server_env
from tests.tables.test_browser_table import (  # noqa: F401 - fixtures
    LAPTOP,
    PHONE,
    browser,
    log_in_at_table,
    passive_move,
    server,
    take_seat,
)

pytestmark = needs_chromium

CONTRAST = """
(node) => {
  // A node a new snapshot has just replaced has no style: null, and the caller asks again.
  if (!node.isConnected) return null;
  const style = getComputedStyle(node);
  const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const alpha = style.backgroundColor.match(/[\\d.]+/g)[3];
  const [a, b] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))].sort((x, y) => y - x);
  return { ratio: (a + 0.05) / (b + 0.05), opaque: alpha === undefined || Number(alpha) === 1 };
}
"""


HELPER_WORDS = """
async () => {
  const { helperText } = await import("/static/tables/felt.js");
  const high = (code, ranks) => ({ code: code, ranks: ranks.split("") });
  return [
    { high: high("two-pair", "KK559"), low: ["8", "6", "4", "3", "A"] },
    { high: high("one-pair", "66AK2"), low: null },
    { high: high("full-house", "333TT") },
    { high: high("straight", "5432A") },
    { high: high("straight-flush", "AKQJT") },
    { high: high("straight-flush", "98765"), low: ["8", "7", "6", "5", "4"] },
    { high: high("high-card", "AKQ97") },
    { high: high("three-of-a-kind", "222KQ") },
    { high: high("four-of-a-kind", "JJJJ9") },
    { high: high("flush", "QT842") },
  ].map(helperText);
}
"""


def shoot(page: Page, label: str) -> None:
    sizes = {"laptop": LAPTOP, "phone": PHONE}
    pictures_by_size(page, f"table2-{label}", sizes, back_to=LAPTOP, settle=150)


def my_turn(pages: list[Page], deadline: float) -> Page:
    while True:
        for page in pages:
            if page.locator(".action-bar button.act").count():
                return page
        assert time.monotonic() < deadline, "nobody got a turn"
        pages[0].wait_for_timeout(100)


def version_of(page: Page) -> str:
    return page.locator("#poker").get_attribute("data-version") or ""


def number(text: str) -> int:
    return int(re.sub(r"[^\d]", "", text))


@pytest.mark.long(25)
def test_a_heads_up_hand_with_the_table_s_helpers(
    browser: Browser,  # noqa: F811
    server: tuple[str, int],  # noqa: F811
    tmp_path: Path,
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    base, table_id = server
    ann = log_in_at_table(browser, base, table_id, "ann")
    bob = log_in_at_table(browser, base, table_id, "bob")
    take_seat(ann, 1)

    # Empty seats: the "Sit" buttons (bob, not seated) and the "Seat n" labels (ann, seated)
    # are opaque plates with at least 4.5:1 contrast.
    for node in (bob.locator(".sit-button").first, ann.locator(".seat-open").first):
        found = None
        for _ in range(50):
            found = node.evaluate(CONTRAST)
            if found is not None:
                break
            time.sleep(0.1)
        assert found is not None and found["opaque"] and found["ratio"] >= 4.5, found
    take_seat(bob, 4)

    # The hand helper is off by default; ann turns it on (kept in her browser).
    helper_box = ann.get_by_label("Hand helper")
    expect(helper_box).not_to_be_checked()
    helper_box.check()
    expect(bob.get_by_label("Hand helper")).not_to_be_checked()

    for page in (ann, bob):
        expect(page.locator(".seat-mine .seat-cards .pc:not(.pc-back)")).to_have_count(
            4, timeout=15_000
        )
    # The pot shows from the deal: the blinds in front of the players.
    pot = ann.locator(".pots .pot")
    expect(pot).to_have_count(1)
    bets = sum(number(t) for t in ann.locator(".bet-amount").all_inner_texts())
    assert bets > 0
    expect(pot).to_have_text(f"Pot {bets}")
    # Before the flop the helper says nothing.
    expect(ann.locator(".hand-helper")).to_be_hidden()
    shoot(ann, "preflop-pot")

    # The first to act preflop raises more than the minimum; the Pot preset names its amount.
    first = my_turn([ann, bob], time.monotonic() + 20)
    other = bob if first is ann else ann
    amount = first.locator(".action-bar .amount")
    low, high = int(amount.get_attribute("min") or 0), int(amount.get_attribute("max") or 0)
    expect(first.locator('.preset[data-preset="max"]')).to_have_text(f"Pot {high}")
    first.get_by_role("button", name="More").click()
    raised = int(amount.input_value())
    assert raised > low
    first.locator("button.act-raise").click()
    expect(first.locator(".action-bar button.act")).to_have_count(0)
    version = version_of(other)
    other.locator('.action-bar button[data-action="call"]').click()
    expect(other.locator("#poker")).not_to_have_attribute("data-version", version)

    # The flop: the other player acts first and may check, so Fold asks again.
    check = other.locator('.action-bar button[data-action="check"]')
    expect(check).to_be_visible()
    expect(check).to_have_attribute("aria-keyshortcuts", "C")
    fold = other.locator('.action-bar button[data-action="fold"]')
    version = version_of(other)
    other.keyboard.press("f")  # the shortcut, as a tap would: it only asks
    expect(fold).to_have_text("Fold? Checking is free")
    other.wait_for_timeout(300)
    assert version_of(other) == version, "one tap on Fold folded a free check"
    shoot(other, "fold-asks")
    other.locator('.action-bar button[data-action="check"]').click()

    # The raiser's bet box on the flop starts at the minimum, not at the preflop raise.
    bet_box = first.locator(".action-bar .amount")
    expect(bet_box).to_be_visible()
    flop_min = int(bet_box.get_attribute("min") or 0)
    expect(bet_box).to_have_value(str(flop_min))
    expect(first.locator("button.act-raise")).to_have_text(f"Bet {flop_min}")
    assert flop_min != raised

    # Ann's helper names her best high and, in Hi/Lo, her low or "No low"; bob sees none.
    helper = ann.locator(".hand-helper")
    expect(helper).to_be_visible()
    expect(helper).to_have_text(re.compile(r"^[A-Z][a-z ]+.* · (Low [2-8A](-[2-8A]){4}|No low)$"))
    expect(bob.locator(".hand-helper")).to_be_hidden()
    shoot(ann, "helper-ann")
    shoot(first, "flop-bet-min")

    # The keyboard shortcuts are listed in a dialog behind the toolbar's "Keyboard".
    ann.get_by_role("button", name="Keyboard").click()
    keys_dialog = ann.get_by_role("dialog", name="Keyboard shortcuts")
    expect(keys_dialog).to_contain_text("check or call")
    picture(ann, str(ARTIFACTS / "table2-keys-laptop.png"))
    ann.set_viewport_size(PHONE)
    keys = keys_dialog.bounding_box()
    assert keys and keys["x"] >= 0 and keys["x"] + keys["width"] <= PHONE["width"], keys
    picture(ann, str(ARTIFACTS / "table2-keys-phone.png"))
    ann.set_viewport_size(LAPTOP)
    ann.keyboard.press("Escape")
    expect(keys_dialog).to_be_hidden()

    # The helper's words for each code the server sends (tables.runtime.snapshots.HIGH_CODES).
    words = ann.evaluate(HELPER_WORDS)
    assert words == [
        "Two pair, kings and fives · Low 8-6-4-3-A",
        "One pair, sixes · No low",
        "Full house, threes full of tens",
        "Straight, five high",
        "Royal flush",
        "Straight flush, nine high · Low 8-7-6-5-4",
        "High card, ace high",
        "Three of a kind, deuces",
        "Four of a kind, jacks",
        "Flush, queen high",
    ], words

    # On a phone the chat folds away behind a toggle that counts the lines not read.
    ann.set_viewport_size(PHONE)
    toggle = ann.locator("[data-toggle=side]")
    expect(ann.locator(".side")).to_be_hidden()
    bob.get_by_label("Chat message").fill("nice flop")
    bob.get_by_role("button", name="Send").click()
    bob.get_by_label("Chat message").fill("your turn soon")
    bob.get_by_role("button", name="Send").click()
    expect(toggle.locator(".unread")).to_have_text("2")
    picture(ann, str(ARTIFACTS / "table2-chat-unread-phone.png"))
    toggle.click()
    expect(toggle.locator(".unread")).to_be_hidden()
    expect(ann.locator(".chat-list")).to_contain_text("bob: your turn soon")
    side, dock = ann.locator(".side").bounding_box(), ann.locator(".dock").bounding_box()
    assert side and dock
    assert side["y"] + side["height"] <= dock["y"] + 1, (side, dock)
    assert dock["y"] + dock["height"] <= PHONE["height"] + 1, dock
    picture(ann, str(ARTIFACTS / "table2-chat-open-phone.png"))
    toggle.click()
    ann.set_viewport_size(LAPTOP)

    # Missed blinds read as a sentence with the two ways back in: the director sits down
    # during the hand, then is marked as having sat out past both blinds.
    dana = log_in_at_table(browser, base, table_id, "dana")
    take_seat(dana, 2)
    mark_owes = (
        "from django.db.models import F\n"
        "from tables.models import Seat, Table\n"
        f"Seat.objects.filter(table_id={table_id}, user__username='dana')"
        ".update(owes_small=True, owes_big=True, state='sitting_out')\n"
        f"Table.objects.filter(pk={table_id}).update(version=F('version') + 1)\n"
    )
    # The served site's database (the server fixture's, in this test's tmp_path).
    manage(
        server_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}"), "shell", "-c", mark_owes
    )
    dana.reload()
    owes = dana.locator(".seat-controls .owes")
    expect(owes).to_have_text(
        "You missed the blinds: post the small (dead) and big blind to come back in,"
        " or wait for the big blind."
    )
    expect(dana.get_by_role("button", name="Post and play")).to_be_visible()
    shoot(dana, "owes")
    # Waiting for the big blind sits her back in, the choice shown pressed; she may still
    # change her mind and post before the deal. The sentence stays until the blinds are
    # settled.
    version = version_of(dana)
    dana.get_by_role("button", name="Wait for the big blind").click()
    expect(dana.locator("#poker")).not_to_have_attribute("data-version", version)
    expect(dana.get_by_role("button", name="Wait for the big blind")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(dana.get_by_role("button", name="Post and play")).to_have_attribute(
        "aria-pressed", "false"
    )
    expect(dana.get_by_role("button", name="Sit out")).to_be_visible()
    expect(owes).to_be_visible()
