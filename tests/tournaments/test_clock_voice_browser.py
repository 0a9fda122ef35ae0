"""The TV clock that talks: the browser's own speech and three tunes, in Debian's chromium
against a real server (``manage.py serve``: daphne and the embedded Celery).

The page's ``speechSynthesis`` and ``AudioContext`` are replaced before it loads by
recorders (``RECORDERS``): what would be said, in which language and voice, and each tone's
pitch, wave and timing. The director runs the clock from the console on a phone. Screenshots of the TV with its switches, in English and in French, at
1920x1080 and on a phone (390x844), land in test-artifacts/.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import ARTIFACTS, PHONE, TV, console_page, needs_chromium, picture, served_night

pytestmark = needs_chromium

# A night on its first level, the clock not started yet. Level 2 has an ante for each player,
# the break races the 25s off, levels 3 on have a big-blind ante, and from level 4 the 100s
# and 500s are no longer needed (the colour-up the chip set implies). The break and level 4
# last two minutes: taking one off leaves the last minute.
SETUP = """
from tournaments.models import BlindLevel, BlindStructure, Entry, EntryState, Tournament

event = Event.objects.create(season=season, name="Thursday Night PLO8", starts_at=timezone.now(),
    venue="Ann's kitchen", game="omaha-hi-lo", structure="pot-limit", buy_in=20, fee=5,
    starting_stack=10000)
blind_structure = BlindStructure.objects.create(name="Home PLO8", chip_set=[25, 100, 500, 1000])
rows = [("level", 20, 25, 50, 0, "none"), ("level", 20, 50, 100, 25, "each"),
        ("break", 2, 0, 0, 0, "none"), ("level", 20, 100, 200, 200, "big-blind"),
        ("level", 2, 1000, 2000, 2000, "big-blind"), ("level", 20, 2000, 4000, 4000, "big-blind")]
for position, (kind, minutes, small, big, ante, ante_kind) in enumerate(rows):
    BlindLevel.objects.create(blind_structure=blind_structure, position=position, kind=kind,
        minutes=minutes, small_blind=small, big_blind=big, ante=ante, ante_kind=ante_kind,
        colour_up=[25] if kind == "break" else [])
tournament = Tournament.objects.create(
    event=event, blind_structure=blind_structure, state="running")
for n in range(12):
    Entry.objects.create(tournament=tournament, player=Player.objects.create(name=f"Player {n}"),
        state=EntryState.PLAYING)
"""

# Before any script of the page: a speech engine that only writes down what it is asked to
# say (with two voices, one English and one French), and an audio context that writes down
# each tone it is asked to play.
RECORDERS = """
window.spoken = [];
window.tones = [];
const voices = [
  { name: "Test English", lang: "en-US", default: true, localService: true, voiceURI: "en" },
  { name: "Test French", lang: "fr-FR", default: false, localService: true, voiceURI: "fr" },
];
class RecordedUtterance {
  constructor(text) { this.text = text; this.lang = ""; this.voice = null; }
}
const engine = {
  speaking: false,
  pending: false,
  paused: false,
  speak(utterance) {
    window.spoken.push({ text: utterance.text, lang: utterance.lang,
                         voice: utterance.voice ? utterance.voice.name : null });
  },
  cancel() {},
  pause() {},
  resume() {},
  getVoices() { return voices; },
  addEventListener() {},
  removeEventListener() {},
};
Object.defineProperty(window, "speechSynthesis", { value: engine, configurable: true });
window.SpeechSynthesisUtterance = RecordedUtterance;
class RecordedAudio {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
  resume() { this.state = "running"; return Promise.resolve(); }
  createGain() {
    const ramp = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
    return { gain: ramp, connect(target) { return target; } };
  }
  createOscillator() {
    const oscillator = {
      type: "sine",
      frequency: { value: 0 },
      connect(target) { return target; },
      start(at) { oscillator.at = at; },
      stop(at) {
        window.tones.push({ frequency: oscillator.frequency.value, wave: oscillator.type,
                            at: oscillator.at, length: Math.round((at - oscillator.at) * 100) / 100 });
      },
    };
    return oscillator;
  }
}
window.AudioContext = RecordedAudio;
window.webkitAudioContext = RecordedAudio;
"""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[dict[str, Any]]:
    with served_night(tmp_path, SETUP) as night:
        yield night


def director_console(browser: Browser, served: dict[str, Any]) -> Page:
    page = console_page(browser, served["base"], served["id"], is_mobile=True, has_touch=True)
    expect(page.locator('#console-clock [data-clock="link"]')).to_have_attribute(
        "data-state", "live"
    )
    return page


def director_clicks(console: Page, name: str) -> None:
    """A clock button of the console, once its new panel has come back."""
    with console.expect_response(lambda response: response.request.method == "POST"):
        console.locator("#console-clock").get_by_role("button", name=name).click()
    console.wait_for_timeout(300)  # htmx settles the swapped panel


START = "Start the clock"
NEXT = "Next level ▶"
# On a two-minute row just started, taking a minute off leaves the last minute.
MINUTE_OFF = "Take one minute off"


def tv_page(browser: Browser, served: dict[str, Any], **context: Any) -> Page:
    page = browser.new_context(**{"viewport": TV, **context}).new_page()
    page.add_init_script(RECORDERS)
    page.goto(f"{served['base']}/tournaments/tv/{served['token']}/")
    expect(page.locator('.tv [data-clock="link"]')).to_have_attribute("data-state", "live")
    return page


def said(page: Page) -> list[dict[str, Any]]:
    """What the page asked to be said, in order (the empty utterance that unlocks speech
    after a reload is not speech)."""
    return [entry for entry in page.evaluate("window.spoken") if entry["text"]]


def texts_said(page: Page) -> list[str]:
    return [entry["text"] for entry in said(page)]


def wait_to_say(page: Page, count: int, timeout: float = 15) -> list[str]:
    """Wait until the page has said ``count`` things; what it said."""
    deadline = time.monotonic() + timeout
    while len(said(page)) < count and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    return texts_said(page)


def tones_since(page: Page, start: int) -> list[tuple[float, str, float, float]]:
    """The tones played since the ``start``-th: pitch, wave, start and length."""
    tones = page.evaluate("window.tones")[start:]
    return [(t["frequency"], t["wave"], round(t["at"], 2), t["length"]) for t in tones]


def tone_count(page: Page) -> int:
    return int(page.evaluate("window.tones.length"))


def shoot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    picture(page, str(ARTIFACTS / name))


@pytest.mark.long(40, waits=True)
def test_the_tv_says_each_level_break_and_last_minute_once_and_plays_three_tunes(
    chromium: Browser, served: dict[str, Any]
) -> None:
    console = director_console(chromium, served)
    tv = tv_page(chromium, served)
    voice = tv.locator('[data-clock-toggle="voice"]')
    sound = tv.locator('[data-clock-toggle="sound"]')
    expect(voice).to_have_text("Voice off")
    expect(voice).to_have_attribute("aria-pressed", "false")
    expect(voice).to_have_attribute("title", re.compile("speaks only after a click"))

    # Off by default: the clock starts (a level starts) and nothing is said or played.
    director_clicks(console, START)
    expect(tv.locator('.tv [data-clock="level"]')).to_have_text("Level 1")
    tv.wait_for_timeout(2000)
    assert texts_said(tv) == []
    assert tone_count(tv) == 0

    # The clicks switch both on (the gesture a browser asks for): the voice says so, in the
    # page's language and with the browser's English voice.
    sound.click()
    voice.click()
    expect(voice).to_have_text("Voice on")
    expect(voice).to_have_attribute("aria-pressed", "true")
    assert said(tv) == [{"text": "Voice on", "lang": "en", "voice": "Test English"}]

    # Remembered by this screen after a reload; a click on the page lets it speak again.
    tv.reload()
    expect(tv.locator('.tv [data-clock="link"]')).to_have_attribute("data-state", "live")
    expect(voice).to_have_text("Voice on")
    expect(sound).to_have_text("Sound on")
    tv.locator('.tv [data-clock="time"]').click()
    assert texts_said(tv) == []

    # The next level: said once, after its rising tune.
    played = tone_count(tv)
    director_clicks(console, NEXT)
    assert wait_to_say(tv, 1) == ["Level 2: blinds 50 and 100, ante 25"]
    assert said(tv)[0]["lang"] == "en"
    level_tune = tones_since(tv, played)
    shoot(tv, "tv-clock-voice-en-1920x1080.png")

    # A new state of the same level (a minute added), and the socket dropping and coming
    # back (the server sends its state again on connect): nothing more is said.
    director_clicks(console, "Add one minute")
    tv.context.set_offline(True)
    expect(tv.locator('.tv [data-clock="link"]')).to_have_attribute("data-state", "lost")
    tv.context.set_offline(False)
    expect(tv.locator('.tv [data-clock="link"]')).to_have_attribute(
        "data-state", "live", timeout=20_000
    )
    tv.wait_for_timeout(2500)
    assert texts_said(tv) == ["Level 2: blinds 50 and 100, ante 25"]

    # The break, with its chip race.
    played = tone_count(tv)
    director_clicks(console, NEXT)
    assert wait_to_say(tv, 2)[1] == "Break: 2 minutes. Chip race: the 25 chips come off"
    break_tune = tones_since(tv, played)

    # One minute before the break ends.
    played = tone_count(tv)
    director_clicks(console, MINUTE_OFF)
    assert wait_to_say(tv, 3)[2] == "One minute left in the break"
    minute_tune = tones_since(tv, played)

    # The break's end is the next level's start: its tune and its words, the big-blind ante
    # said as players say it.
    played = tone_count(tv)
    director_clicks(console, NEXT)
    assert wait_to_say(tv, 4)[3] == "Level 3: blinds 100 and 200, big blind ante 200"
    assert tones_since(tv, played) == level_tune

    # Thousands as plain numbers (no separator for the engine to read as a pause), and the
    # colour-up the chip set implies.
    director_clicks(console, NEXT)
    assert wait_to_say(tv, 5)[4] == (
        "Level 4: blinds 1000 and 2000, big blind ante 2000. "
        "Colour-up: the 100 and 500 chips are no longer used"
    )
    played = tone_count(tv)
    director_clicks(console, MINUTE_OFF)
    assert wait_to_say(tv, 6)[5] == "One minute left in level 4"
    assert tones_since(tv, played) == minute_tune
    tv.wait_for_timeout(1000)
    assert len(said(tv)) == 6, texts_said(tv)

    # Three tunes a room tells apart: rising, falling and pips, each its own pitches.
    assert [tone[0] for tone in level_tune] == [660, 880, 1100]
    assert [tone[0] for tone in break_tune] == [784, 523]
    assert [tone[0] for tone in minute_tune] == [1320, 1320, 1320]
    assert len({tuple(level_tune), tuple(break_tune), tuple(minute_tune)}) == 3
    assert {tone[1] for tone in break_tune} != {tone[1] for tone in level_tune}
    shoot(tv, "tv-clock-voice-en-last-minute-1920x1080.png")

    # On a phone the switches wrap under the title, off until this phone switches them on.
    phone = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(f"{served['base']}/tournaments/tv/{served['token']}/")
    expect(phone.locator('.tv [data-clock="link"]')).to_have_attribute("data-state", "live")
    expect(phone.locator('[data-clock-toggle="voice"]')).to_have_text("Voice off")
    shoot(phone, "tv-clock-voice-en-phone-390x844.png")


@pytest.mark.long(25, waits=True)
def test_a_french_tv_speaks_french_with_a_french_voice(
    chromium: Browser, served: dict[str, Any]
) -> None:
    console = director_console(chromium, served)
    director_clicks(console, START)
    tv = tv_page(chromium, served, locale="fr-FR")
    assert tv.evaluate("document.documentElement.lang") == "fr"
    voice = tv.locator('[data-clock-toggle="voice"]')
    expect(voice).to_have_text("Voix coupée")
    voice.click()
    tv.locator('[data-clock-toggle="sound"]').click()
    expect(voice).to_have_text("Voix activée")
    assert said(tv) == [{"text": "Voix activée", "lang": "fr", "voice": "Test French"}]

    director_clicks(console, NEXT)
    assert wait_to_say(tv, 2)[1] == "Niveau 2\u00a0: blindes 50 et 100, ante 25"
    assert {entry["lang"] for entry in said(tv)} == {"fr"}
    assert {entry["voice"] for entry in said(tv)} == {"Test French"}
    shoot(tv, "tv-clock-voice-fr-1920x1080.png")

    director_clicks(console, NEXT)
    assert (
        wait_to_say(tv, 3)[2]
        == "Pause\u00a0: 2 minutes. Chip race\u00a0: les jetons de 25 sont retirés"
    )
    director_clicks(console, NEXT)
    assert wait_to_say(tv, 4)[3] == "Niveau 3\u00a0: blindes 100 et 200, ante grosse blinde 200"
    director_clicks(console, NEXT)
    assert wait_to_say(tv, 5)[4] == (
        "Niveau 4\u00a0: blindes 1000 et 2000, ante grosse blinde 2000. "
        "Changement de couleur\u00a0: les jetons de 100 et 500 ne servent plus"
    )
    director_clicks(console, MINUTE_OFF)
    assert wait_to_say(tv, 6)[5] == "Il reste une minute au niveau 4"
    shoot(tv, "tv-clock-voice-fr-last-minute-1920x1080.png")

    phone = chromium.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR"
    ).new_page()
    phone.goto(f"{served['base']}/tournaments/tv/{served['token']}/")
    expect(phone.locator('.tv [data-clock="link"]')).to_have_attribute("data-state", "live")
    expect(phone.locator('[data-clock-toggle="voice"]')).to_have_text("Voix coupée")
    shoot(phone, "tv-clock-voice-fr-phone-390x844.png")
