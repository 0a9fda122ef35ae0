"""Every panel of the TV clock the director chose is fully on the screen, at the sizes TVs,
laptops and phones have, in English and French: what does not fit moves or its type
scales, nothing is cut, hidden behind the QR card or faded out.

Chromium measures each piece of text of each panel against the screen and against every
box around it that clips (overflow other than visible, or a mask). Screenshots land in
test-artifacts/ as tv-fit-<language>-<width>x<height>.png. Deselect with
``-m "not browser"``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Browser, expect

from tests.browser import ARTIFACTS, PHONE, needs_chromium, picture
from tests.tournaments.factories import seat
from tournaments.models import ChipCount, Tournament

SIZES = [
    {"width": 1280, "height": 720},
    {"width": 1920, "height": 1080},
    {"width": 3840, "height": 2160},
    PHONE,
]

NAMES = ["Annabelle", "Bartholomew", "Cal", "Dee", "Evangeline", "Fay", "Gus", "Hal", "Ivy", "Jo"]

# What a screen shows that it should not: the text of a panel outside the screen, outside a
# box around it that clips, under another panel, or faded by a mask.
MEASURE = """
() => {
  const root = document.querySelector('.tv');
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const panels = [...root.querySelectorAll(
    '.tv-top, .tv-main:not([hidden]), .tv-side > *, .tv-qr')].filter(shown);
  const scrolls = document.documentElement.scrollHeight > innerHeight + 1;
  const clips = (el) => {
    const style = getComputedStyle(el);
    return style.overflowX !== 'visible' || style.overflowY !== 'visible'
      || (style.maskImage && style.maskImage !== 'none')
      || (style.webkitMaskImage && style.webkitMaskImage !== 'none');
  };
  const name = (el) => el.className || el.tagName.toLowerCase();
  const problems = [];
  const boxes = panels.map((panel) => [panel, panel.getBoundingClientRect()]);
  for (const [panel, box] of boxes) {
    const texts = [...panel.querySelectorAll('*')].filter((el) => shown(el)
      && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()));
    for (const el of texts) {
      const r = el.getBoundingClientRect();
      const what = `${name(panel)} / ${name(el)} "${el.textContent.trim().slice(0, 30)}"`;
      if (r.left < -1 || r.right > innerWidth + 1) problems.push(`${what}: off the screen's width`);
      if (!scrolls && (r.top < -1 || r.bottom > innerHeight + 1)) problems.push(`${what}: off the screen`);
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
        problems.push(`${what}: cut short (${el.scrollWidth} px in ${el.clientWidth})`);
      for (let up = el; up && up !== document.body; up = up.parentElement) {
        if (!clips(up)) continue;
        const c = up.getBoundingClientRect();
        if (r.top < c.top - 1 || r.bottom > c.bottom + 1 || r.left < c.left - 1 || r.right > c.right + 1)
          problems.push(`${what}: clipped by ${name(up)}`);
        const style = getComputedStyle(up);
        if ((style.maskImage && style.maskImage !== 'none') || (style.webkitMaskImage && style.webkitMaskImage !== 'none'))
          problems.push(`${what}: under the fading mask of ${name(up)}`);
      }
      for (const [other, o] of boxes) {
        if (other === panel || other.contains(panel) || panel.contains(other)) continue;
        if (r.left < o.right - 1 && r.right > o.left + 1 && r.top < o.bottom - 1 && r.bottom > o.top + 1)
          problems.push(`${what}: under ${name(other)}`);
      }
    }
  }
  return problems;
}
"""


@pytest.fixture
def long_night(tournament: Tournament) -> Tournament:
    """Ten players on two tables, counted at the break, forty minutes to go in the level:
    every panel of the TV has something to show."""
    entries = seat(tournament, {1: NAMES[:5], 2: NAMES[5:]})
    for n, entry in enumerate(entries.values()):
        ChipCount.objects.create(tournament=tournament, entry=entry, chips=10_000 + 1_375 * n)
    Tournament.objects.filter(pk=tournament.pk).update(
        level_ends_at=timezone.now() + timedelta(minutes=40)
    )
    return tournament


pytestmark = needs_chromium


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_panel_of_the_tv_is_fully_on_the_screen(
    live_browser: Browser, live_server: Any, long_night: Tournament, language: str
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    url = live_server.url + reverse("tournaments:tv_clock", args=[long_night.tv_token])
    found: dict[str, list[str]] = {}
    for size in SIZES:
        context = live_browser.new_context(
            viewport=size, locale=f"{language}-FR" if language == "fr" else "en-GB"
        )
        page = context.new_page()
        page.goto(url)
        expect(page.locator('.tv [data-clock="chip-leader"]')).to_have_text("Jo")
        expect(page.locator('.tv [data-tv="coming"] li')).to_have_count(3)
        page.wait_for_function("document.fonts.status === 'loaded'")
        # The page fits itself after its first paint: give it two frames.
        page.evaluate(
            "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
        )
        picture(
            page,
            str(ARTIFACTS / f"tv-fit-{language}-{size['width']}x{size['height']}.png"),
            full_page=True,
        )
        problems = page.evaluate(MEASURE)
        if problems:
            found[f"{size['width']}x{size['height']}"] = problems
        context.close()
    assert found == {}
