"""The pages a host reads at the end of a night, on a 390x844 phone in English and French:
the settle-up (payments, carried debts, expenses and their form open, each player's night,
the balances), the event page with its results and the season standings. Long names,
amounts in thousands: nothing scrolls sideways. Screenshots land in test-artifacts/."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from series.models import Event, PaymentHandle, Season
from series.services import director_grant
from series.services.expenses import expense_add
from series.services.settle import night_close, settle_up_compute
from series.services.standings import standings_recompute
from tests.browser import ARTIFACTS, LAPTOP, PHONE, needs_chromium, picture
from tests.series.night import account, finished_event, guest, season
from tests.series.test_money_browser import logged_in

pytestmark = needs_chromium

# Names as people type them: a double-barrelled one, one long word, a nickname in quotes.
NAMES = (
    "Marie-Antoinette Delacroix-Beaumont",
    "Bartholomew Christophersen-Vandenberghe",
    "Wolfgang Schwarzenegger-Oberhauser",
    'Jean-Baptiste "Le Professeur" Montmorency',
    "Anastasia Konstantinopoulou",
    "Maximilienne",
)

# What scrolls sideways: the page itself, or a box of it (a table in an ``overflow-x: auto``
# wrapper scrolls in its box, the numbers past its edge out of sight), and what sticks out
# past the screen's right edge, to name the culprit.
OVERFLOW = """() => {
  const width = window.innerWidth;
  const name = (el) => `${el.tagName.toLowerCase()}.${el.className}`;
  const boxes = [];
  const wide = [];
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0) continue;
    const style = getComputedStyle(el);
    if (['auto', 'scroll'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1) {
      boxes.push(`${name(el)} ${el.scrollWidth}>${el.clientWidth}`);
    }
    if (box.right > width + 0.5) wide.push(`${name(el)} ${Math.round(box.right)}`);
  }
  return {scroll: document.documentElement.scrollWidth, inner: width, boxes: boxes,
          wide: wide.slice(0, 8)};
}"""


def sideways(page: Page) -> dict[str, Any] | None:
    """None when the page fits the screen's width, else what sticks out past it."""
    seen: dict[str, Any] = page.evaluate(OVERFLOW)
    return None if seen["scroll"] <= seen["inner"] and not seen["boxes"] else seen


@pytest.fixture
def night(transactional_db: None) -> dict[str, Any]:
    """Two nights of six players: the first closed with its payments unpaid (carried to the
    second), the second with two shared expenses, one split by amounts."""
    s: Season = season(season_pot_per_entry=2)
    players = [account(name.split()[0].strip('"')) for name in NAMES[:4]]
    players += [guest(name) for name in NAMES[4:]]
    for player, name in zip(players, NAMES, strict=True):
        player.name = name
        player.save(update_fields=["name"])
    a, b, c, d, e, f = players
    first = finished_event(
        s,
        [(a, 1, 3150, 750), (b, 2, 1000, 750), (c, 3, 0, 1250), (d, 4, 0, 750), (e, 5, 0, 750)],
        number=1,
        buy_in=250,
        fee=20,
    )
    second = finished_event(
        s,
        [(d, 1, 4200, 1000), (f, 2, 700, 750), (c, 3, 0, 1500), (b, 4, 0, 750), (a, 5, 0, 1000)],
        number=2,
        buy_in=250,
        fee=20,
    )
    host = director_grant(User.objects.create_user("host"))
    settle_up_compute(first.pk)
    night_close(first.pk, by=host)
    expense_add(
        second.pk,
        payer_id=f.pk,
        amount_cents=12_345,
        description="Pizzas, drinks and the cleaning of the green baize tablecloth",
        by=host,
    )
    expense_add(
        second.pk,
        payer_id=c.pk,
        amount_cents=4_750,
        description="Taxi",
        by_amounts={a.pk: 2_000, b.pk: 1_500, d.pk: 1_250},
        by=host,
    )
    PaymentHandle.objects.create(
        player=d, text="PayPal: jean-baptiste.montmorency.le-professeur@example.com"
    )
    standings_recompute(s.pk)
    return {"season": s, "first": first, "second": second, "host": host, "owes": c}


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_the_end_of_a_night_on_a_phone(
    night: dict[str, Any], live_server, live_browser: Browser, locale: str
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    language = locale[:2]
    second: Event = night["second"]
    context = logged_in(live_browser, live_server.url, night["host"], PHONE, locale=locale)
    page = context.new_page()
    pages = {
        "settle-up": reverse("series:settle_up", args=[second.pk]),
        "settle-up-closed": reverse("series:settle_up", args=[night["first"].pk]),
        "event": reverse("series:event", args=[second.pk]),
        "standings": reverse("series:standings", args=[night["season"].pk]),
        "pot": reverse("series:season_pot", args=[night["season"].pk]),
        "ledger": reverse("series:player_ledger", args=[night["season"].pk, night["owes"].pk]),
    }
    overflowing = {}
    for name, path in pages.items():
        page.set_viewport_size(PHONE)
        page.goto(live_server.url + path)
        if name == "settle-up":
            expect(page.locator("#settle-up")).to_contain_text(NAMES[1])
            page.locator("#expenses summary").click()
            expect(page.locator("#id_description")).to_be_visible()
        if wide := sideways(page):
            overflowing[name] = wide
        shot = f"/tmp/phone-{name}-{language}"
        picture(page, f"{shot}-390.png", full_page=True)
        picture(page, str(ARTIFACTS / f"phone-{name}-{language}.png"), full_page=True)
        page.set_viewport_size(LAPTOP)
        picture(page, f"{shot}-1280.png", full_page=True)
    context.close()
    assert not overflowing, overflowing
