"""A seat's state reads whole in French on a phone: "TEMPS ÉCOULÉ", not "TEMPS ÉCO…".

The felt is drawn by static/tables/felt.js itself, with the site's table.css, from a
snapshot of six seats whose longest French states (timed out, away, offline) sit under
five-figure stacks; Playwright serves the files from disk, so no server runs. At a phone's
width and a laptop's, no seat's stack line or state is cut. Screenshots land in
test-artifacts/ (seat-labels-*.png).
"""

from __future__ import annotations

import json
from pathlib import Path

import polib
import pytest
from django.conf import settings
from playwright.sync_api import Browser, Route, expect

from tests.browser import ARTIFACTS, needs_chromium, picture

pytestmark = needs_chromium

ROOT = Path(settings.BASE_DIR)
ORIGIN = "http://felt.test"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
NAMES = ("Ann", "Bérénice", "Cal", "Dominique", "Eve", "Fanny")


def _french_catalog() -> dict[str, str]:
    """The browser's French words, from the project's JavaScript catalog."""
    catalog = polib.pofile(str(ROOT / "locale/fr/LC_MESSAGES/djangojs.po"))
    return {
        (f"{e.msgctxt}\x04{e.msgid}" if e.msgctxt else e.msgid): e.msgstr
        for e in catalog
        if e.msgstr
    }


def _snapshot() -> dict[str, object]:
    states = [
        {"state": "playing"},
        {"state": "sitting_out", "sat_out_reason": "timed out"},
        {"state": "sitting_out", "sat_out_reason": "timed out", "connected": False},
        {"state": "sitting_out"},
        {"state": "waiting"},
        {"state": "playing", "connected": False},
    ]
    seats = [
        {
            "seat": number,
            "player": {"id": number, "name": name},
            "bot": False,
            "connected": True,
            "stack": 10000 * number + 4321,
            "bet": 0,
            "folded": False,
            "all_in": False,
            "card_count": 0,
            **state,
        }
        for number, (name, state) in enumerate(zip(NAMES, states, strict=True), start=1)
    ]
    return {
        "table": {"id": 1, "name": "Chez Ann", "game": "omaha-hi-lo", "seat_count": 6},
        "seats": seats,
        "hand": None,
        "you": {"seat": 1},
    }


PAGE = """<!doctype html><html lang="fr"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/css/site.css">
<link rel="stylesheet" href="/static/tables/table.css">
<script>
  const CATALOG = %(catalog)s;
  window.gettext = (text) => CATALOG[text] || text;
  window.pgettext = (context, text) => CATALOG[context + "\\x04" + text] || text;
  window.ngettext = (one, many, n) => window.gettext(n === 1 ? one : many);
  window.interpolate = (format, values, named) => named
    ? format.replace(/%%\\((\\w+)\\)s/g, (_m, key) => String(values[key]))
    : format.replace(/%%s/g, () => String(values.shift()));
</script></head>
<body class="page-table"><main class="main"><div class="poker">%(felt)s</div></main>
<script type="module">
  import { renderFelt } from "/static/tables/felt.js";
  renderFelt(document.querySelector(".felt"), %(snapshot)s, {});
  document.body.dataset.drawn = "1";
</script></body></html>"""


@pytest.fixture
def browser(chromium: Browser) -> Browser:
    return chromium


def _serve(route: Route) -> None:
    path = route.request.url.removeprefix(ORIGIN)
    if path == "/":
        felt = (ROOT / "templates/tables/_felt.html").read_text().split("\n", 1)[1]
        body = PAGE % {
            "catalog": json.dumps(_french_catalog()),
            "felt": felt,
            "snapshot": json.dumps(_snapshot()),
        }
        route.fulfill(body=body, content_type="text/html; charset=utf-8")
        return
    file = ROOT / path.lstrip("/")
    kind = "text/css" if file.suffix == ".css" else "text/javascript"
    route.fulfill(body=file.read_text(), content_type=f"{kind}; charset=utf-8")


# Each seat's stack line and state: (text, width it needs, width it has).
MEASURE = """() => [...document.querySelectorAll(".seat-stack, .seat-note")].map(
  (node) => [node.textContent, node.scrollWidth, node.clientWidth])"""


@pytest.mark.parametrize(("name", "viewport"), [("phone", PHONE), ("laptop", LAPTOP)])
def test_no_seat_state_is_cut_in_french(browser: Browser, name: str, viewport: dict) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page = browser.new_context(viewport=viewport, locale="fr-FR").new_page()
    page.route(f"{ORIGIN}/**", _serve)
    page.goto(f"{ORIGIN}/")
    page.wait_for_selector("body[data-drawn]")
    notes = page.locator(".seat-note").all_text_contents()
    assert "temps écoulé" in notes  # the French state, from the catalog
    picture(page, str(ARTIFACTS / f"seat-labels-{name}.png"))
    cut = [(text, needs, has) for text, needs, has in page.evaluate(MEASURE) if needs > has]
    assert cut == []


def _dealt(count: int, button: int) -> dict[str, object]:
    """A hand at a full table of `count` seats: everyone's cards, a bet before each seat."""
    seats = [
        {
            "seat": number,
            "player": {"id": number, "name": f"Player {number}"},
            "bot": False,
            "connected": True,
            "state": "playing",
            "stack": 1000,
            "bet": 4 * number,
            "folded": False,
            "all_in": False,
            "card_count": 4,
            **({"cards": ["As", "Kd", "9h", "2c"]} if number == 1 else {}),
        }
        for number in range(1, count + 1)
    ]
    hand = {"number": 1, "street": "preflop", "board": [], "pots": [], "button": button}
    return {
        "table": {"id": 1, "name": "Chez Ann", "seat_count": count},
        "seats": seats,
        "hand": hand,
        "you": {"seat": 1},
    }


# What the dealer button and the hand line touch: ["D", part, seat] and ["line", part, seat].
TOUCHES = """() => {
  const box = (node) => node.getBoundingClientRect();
  const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const seat = (node) => (node.closest("[data-seat]") || { dataset: {} }).dataset.seat || "";
  const button = box(document.querySelector(".dealer-button"));
  const line = box(document.querySelector(".hand-info"));
  const touches = [];
  document.querySelectorAll(".seat-plate, .seat-cards .pc, .bet, .board .pc").forEach((node) => {
    if (hit(button, box(node))) touches.push(["D", node.className, seat(node)]);
  });
  document.querySelectorAll(".seat-plate, .seat-cards, .bet, .dealer-button").forEach((node) => {
    if (hit(line, box(node))) touches.push(["line", node.className, seat(node)]);
  });
  return touches;
}"""


def test_the_dealer_button_and_hand_line_stay_clear_on_a_phone(browser: Browser) -> None:
    page = browser.new_context(viewport=PHONE, locale="fr-FR").new_page()
    page.route(f"{ORIGIN}/**", _serve)
    page.goto(f"{ORIGIN}/")
    page.wait_for_selector("body[data-drawn]")
    touches = []
    for count in (6, 10):
        for button in range(1, count + 1):
            page.evaluate(
                """async (snap) => {
                  const { renderFelt } = await import("/static/tables/felt.js");
                  renderFelt(document.querySelector(".felt"), snap, {});
                }""",
                _dealt(count, button),
            )
            expect(page.locator(".hand-info")).to_be_visible()
            touches += [(count, button, *touch) for touch in page.evaluate(TOUCHES)]
    picture(page, str(ARTIFACTS / "dealer-button-phone.png"))
    assert touches == []
