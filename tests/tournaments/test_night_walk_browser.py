"""A whole home night run from the director's phone, with the TV clock on the wall, in
English and in French, in Debian's chromium against a real server.

The director's console at 390x844 and the TV at 1920x1080 follow one night: ten players
registered, a walk-in who is a player of the series and one who is a new guest, the seats
drawn before the start, rebuys, a break now in level 1 (its rest skipped), a level added and taken
back, a re-entry ("Eve #2", who then knocks a player out; the places stay unique on the
console and the lobby's "Out so far"), the add-on break, eliminations
down to the final table, chip counts, a deal whose stacks do not add up, an ICM deal, the
finish on the TV, then the standings and the settle-up. Each step checks what the director
reads, in the night's language; the French night (its director's own language setting,
the TV's browser in French) also checks that no key label is left in English.
Screenshots land in test-artifacts/night-walk/. Deselect with ``-m "not browser"``.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import gettext, ngettext, npgettext, pgettext
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser import ARTIFACTS, needs_chromium, picture
from tests.conftest import PASSWORD
from tests.tables.servers import free_port, manage, migrate, server_env, start_serve, stop
from tournaments.services.chips import StackCheck

from .test_console_phone import PHONE, in_view

# A whole night in two languages takes minutes: `make walk-night` runs it (NIGHT_WALK=1),
# apart from the suite, as `make soak` runs the restart soak.
pytestmark = [
    *needs_chromium,
    pytest.mark.skipif(not os.environ.get("NIGHT_WALK"), reason="make walk-night runs it"),
]

TV = {"width": 1920, "height": 1080}
SHOTS = ARTIFACTS / "night-walk"


@dataclass(frozen=True)
class Cast:
    """One night's people: its director, the ten registered, and the two walk-ins."""

    director: str
    season: str
    event: str
    registered: tuple[str, ...]
    # A player of the series with an account, not registered: the walk-in picked from the
    # suggestions.
    known: str
    # A guest of the series: the walk-in of that name is someone else, confirmed as such.
    guest: str
    # Who re-enters, and the three who make the deal.
    reenters: str
    last_three: tuple[str, str, str]


CASTS = {
    "en": Cast(
        director="dana",
        season="Spring",
        event="Thursday PLO8",
        registered=("Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"),
        known="Kim",
        guest="Lou",
        reenters="Eve",
        last_three=("Ann", "Ben", "Cal"),
    ),
    "fr": Cast(
        director="dominique",
        season="Printemps",
        event="Jeudi PLO8",
        registered=(
            "Amélie",
            "Bruno",
            "Chloé",
            "Denis",
            "Élodie",
            "Fanny",
            "Gaspard",
            "Hugo",
            "Inès",
            "Jules",
        ),
        known="Karim",
        guest="Léon",
        reenters="Élodie",
        last_three=("Amélie", "Bruno", "Chloé"),
    ),
}

# Each night: ten registered players (the services, as their own registrations would), a
# director (the French one reads the site in French by their own setting), rebuys to level
# 3, an add-on at the first break, one re-entry to level 4, six-seat tables.
SETUP = f"""
import json
from datetime import timedelta
from django.contrib.auth.models import User
from django.utils import timezone
from series.models import Event, Player, Season
from series.services import director_grant
from series.services.health import worker_heartbeat_record
from tournaments.models import BlindStructure, BlindLevel, Tournament
from tournaments.services.entries import entry_register

casts = json.loads('''{{casts}}''')
rows = [("level", 20, 25, 50), ("level", 20, 50, 100), ("level", 20, 75, 150),
        ("break", 10, 0, 0), ("level", 20, 100, 200), ("level", 20, 150, 300),
        ("break", 10, 0, 0), ("level", 20, 200, 400)]
made = {{}}
for language, cast in casts.items():
    director = director_grant(User.objects.create_user(cast["director"], password="{PASSWORD}"))
    if language != "en":
        Player.objects.create(user=director, name=cast["director"], language=language)
    today = timezone.localdate()
    season = Season.objects.create(name=cast["season"], starts_on=today,
        ends_on=today + timedelta(days=90))
    event = Event.objects.create(season=season, name=cast["event"], starts_at=timezone.now(),
        venue="Ann's kitchen", game="omaha-hi-lo", structure="pot-limit", buy_in=20, fee=5,
        starting_stack=10000)
    blind_structure = BlindStructure.objects.create(name=cast["event"])
    for position, (kind, minutes, small, big) in enumerate(rows):
        BlindLevel.objects.create(blind_structure=blind_structure, position=position, kind=kind,
            minutes=minutes, small_blind=small, big_blind=big)
    tournament = Tournament.objects.create(event=event, blind_structure=blind_structure,
        seats_per_table=6, late_registration_until_level=4, rebuys_allowed=2,
        rebuy_until_level=3, rebuy_chips=10000, rebuy_price=20, addon_at_break=3,
        addon_chips=15000, addon_price=20, reentries_allowed=1, reentry_until_level=4,
        created_by=director)
    for name in cast["registered"]:
        entry_register(tournament.pk, User.objects.create_user(name, password="{PASSWORD}"))
    known = User.objects.create_user(cast["known"], password="{PASSWORD}")
    Player.objects.create(user=known, name=cast["known"])
    Player.objects.create(name=cast["guest"])
    made[language] = {{"id": tournament.pk, "token": tournament.tv_token,
        "event": event.pk, "season": season.pk}}
# A night whose task worker runs: no warning above the console.
worker_heartbeat_record("worker@night")
print(json.dumps(made))
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """One server for both nights (each in its own season): migrating takes a while."""
    root = tmp_path_factory.mktemp("night-walk")
    env = server_env(DATABASE_URL=f"sqlite:///{root / 'db.sqlite3'}")
    env.pop("REDIS_URL", None)  # embedded mode: one process, the in-memory broker
    migrate(env)
    casts = {language: cast.__dict__ for language, cast in CASTS.items()}
    script = SETUP.replace("{casts}", json.dumps(casts))
    nights = json.loads(manage(env, "shell", "-c", script).strip().splitlines()[-1])
    port = free_port()
    process = start_serve(env, port, log=root / "serve.log")
    try:
        yield {"base": f"http://127.0.0.1:{port}", "nights": nights}
    finally:
        stop(process)


@pytest.fixture
def browser(chromium: Browser) -> Browser:
    expect.set_options(timeout=15_000)
    return chromium


# -- the night's language -------------------------------------------------------------------


class Words:
    """What the director should read, in the night's language, from the same catalogs the
    server uses. In French each text must be translated (``same`` marks the few words
    French borrows as they are: "Pause", "Deal"), so a passing check is never English
    passing for French."""

    def __init__(self, language: str) -> None:
        self.language = language

    def __call__(
        self,
        msgid: str,
        plural: str | None = None,
        *,
        count: int | None = None,
        context: str | None = None,
        same: bool = False,
        **values: Any,
    ) -> str:
        with translation.override(self.language):
            if plural is not None:
                assert count is not None
                text = (
                    npgettext(context, msgid, plural, count)
                    if context is not None
                    else ngettext(msgid, plural, count)
                )
                english = msgid if count == 1 else plural
            elif context is not None:
                text, english = pgettext(context, msgid), msgid
            else:
                text, english = gettext(msgid), msgid
        if count is not None:
            values.setdefault("count", count)
        if self.language != "en" and not same:
            assert text != english, f"no {self.language} translation for {msgid!r}"
        return text % values if values else text

    def stacks(self, counted: int, in_play: int) -> str:
        with translation.override(self.language):
            return StackCheck(counted=counted, in_play=in_play).text


# English a French director must not read on the pages of the night: the key labels.
ENGLISH_LABELS = (
    "Players",
    "Seating",
    "Clock",
    "Results",
    "Undo",
    "Rebuy",
    "Re-entry",
    "Late entry",
    "Break now, then the rest of this level",
    "Break now, skip the rest of this level",
    "Next level",
    "Change the levels",
    "Record an elimination",
    "Knocked out by",
    "Payouts",
    "Count chips",
    "Chips",
    "chips",
    "Prize pool",
    "Winner",
    "Final places",
    "Final results",
    "Coming up",
    "Next break",
    "Level",
    "Break",
    "Out so far",
    "Registered",
    "Entries",
    "Standings",
    "Settle-up",
    "Sections",
    "Log",
    "Seat",
)


def no_english(page: Page, where: str) -> None:
    text = page.locator("body").inner_text()
    left = [label for label in ENGLISH_LABELS if re.search(rf"\b{re.escape(label)}\b", text)]
    assert not left, f"English on the French {where}: {left}"


def shot(page: Page, language: str, name: str, *, full: bool = False) -> None:
    picture(page, str(SHOTS / f"{language}-{name}.png"), full_page=full)


def digits(text: str) -> int:
    return int(re.sub(r"\D", "", text))


# -- the console ----------------------------------------------------------------------------


def console_page(browser: Browser, base: str, tournament_id: int, username: str) -> Page:
    """The director's phone, its browser in English: the director's own setting (French for
    the French director) decides the pages' language once logged in."""
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{base}/accounts/login/?next=/tournaments/{tournament_id}/console/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("#id_password").press("Enter")
    expect(page.locator("#console-bar")).to_be_visible()
    return page


def last_action(page: Page) -> Locator:
    return page.locator("#console-players .undo-what")


def row(page: Page, name: str, number: int = 1) -> Locator:
    """A player's row on the console (the entry ``number`` of the player)."""
    rows = page.locator("#console-players li.entry").filter(
        has=page.locator(".entry-name", has_text=re.compile(rf"^{re.escape(name)}\b"))
    )
    if number > 1:
        return rows.filter(has_text=f"#{number}")
    return rows.filter(has_not_text="#")


def open_panel(page: Page, name: str, number: int = 1) -> Locator:
    row(page, name, number).locator(".entry-open").click()
    panel = page.locator(".sheet:popover-open")
    expect(panel).to_be_visible()
    return panel


def next_level(page: Page, say: Words, row: str) -> None:
    """The clock's "Next level", seen done on the console before the next tap (a tap made
    while the players section is still fetching itself after the last one would leave it
    showing the night as it was: htmx drops a refresh queued on a section it then swaps)."""
    page.locator("#console-clock").get_by_role("button", name=say("Next level ▶")).click()
    expect(last_action(page)).to_contain_text(say("Next level: %(row)s", row=row))


def tables_of(page: Page) -> dict[str, int]:
    """Who sits at which table, as the console's seating cards show them."""
    seated: dict[str, int] = {}
    for card in page.locator("#console-seating article.ops-table").all():
        number = int(card.get_attribute("id").removeprefix("table-"))
        for name in card.locator(".seat-card:not(.is-open) .seat-name").all_inner_texts():
            seated[name.strip()] = number
    return seated


def seat_cards(page: Page) -> list[str]:
    return page.locator("#console-seating .seat-cards").all_inner_texts()


def out_places(page: Page) -> list[str]:
    """The places of the results section's "Out" list, top to bottom."""
    return [
        place.strip()
        for place in page.locator("#console-results .ops-out .ops-place").all_inner_texts()
    ]


def put_out(page: Page, say: Words, name: str, by: str, *, place: int, number: int = 1) -> None:
    """Out from the player's own panel, knocked out by ``by`` (a label such as "Eve #2")."""
    panel = open_panel(page, name, number)
    panel.locator("select[name=by]").select_option(label=by)
    panel.locator(".sheet-out button").click()
    who = f"{name} #{number}" if number > 1 else name
    placed = say(
        "%(name)s (%(place)s)", same=True, name=who, place=say("place %(place)s", place=place)
    )
    expect(last_action(page)).to_contain_text(
        say("%(summary)s, by %(name)s", summary=say("Out: %(players)s", players=placed), name=by)
    )


# -- the walk -------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_home_night_from_a_phone_with_the_tv_on(
    browser: Browser, served: dict[str, Any], language: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    cast, say = CASTS[language], Words(language)
    night = served["nights"][language]
    base = served["base"]
    console = console_page(browser, base, night["id"], cast.director)
    expect(console.locator("html")).to_have_attribute("lang", language)

    # Ten registered; the bar and the players on the first screen.
    stats = console.locator("#console-players .console-stats")
    expect(stats).to_contain_text(say("Registered", "Registered", count=10, context="how many"))
    expect(stats.locator("dd").first).to_have_text("10")
    in_view(console, console.locator("#console-bar"))
    shot(console, language, "01-console-start")
    if language != "en":
        no_english(console, "console before the start")

    # A walk-in who plays in the series: typed, suggested, chosen.
    known = cast.known
    console.locator("#walk-in-name").press_sequentially(known[:2], delay=40)
    suggestions = console.locator("#walk-in-suggestions")
    suggestions.get_by_role("button", name=say("Register %(name)s", name=known)).click()
    expect(last_action(console)).to_contain_text(say("Walk-in: %(name)s", name=known))
    expect(row(console, known)).to_be_visible()

    # A walk-in named like a guest of the series: someone else, once the director says so.
    guest = cast.guest
    console.locator("#walk-in-name").fill(guest)
    console.locator("form.walk-in button[type=submit]").click()
    choice = console.locator(".walk-in-choice")
    expect(choice).to_contain_text(
        say(
            "There is already a player named %(name)s: register them, or confirm a new guest.",
            "There are already %(count)s players named %(name)s: register one of them, or "
            "confirm a new guest.",
            count=1,
            name=guest,
        )
    )
    choice.get_by_role("button", name=say("New guest named %(name)s", name=guest)).click()
    expect(last_action(console)).to_contain_text(say("Walk-in: %(name)s", name=guest))
    expect(row(console, guest)).to_contain_text(say("guest"))
    expect(stats.locator("dd").first).to_have_text("12")

    # The seats drawn early, the start later: the start keeps them.
    seating = console.locator("#console-seating")
    seating.get_by_role(
        "button",
        name=say(
            "Draw the seat for %(count)s player",
            "Draw the seats for %(count)s players",
            count=12,
        ),
    ).click()
    start = console.get_by_role(
        "button",
        name=say("Start with %(count)s player", "Start with %(count)s players", count=12),
    )
    expect(start).to_be_visible()
    expect(console.locator("#console-seating article.ops-table")).to_have_count(2)
    drawn = seat_cards(console)
    shot(console, language, "02-console-seats-drawn", full=True)
    start.click()
    expect(
        console.get_by_text(
            say(
                "%(event)s has started: the seats are drawn and the clock runs.",
                event=cast.event,
            )
        )
    ).to_be_visible()
    expect(console.locator("#console-bar [data-clock=level]")).to_have_text(
        say("Level %(number)s", number=1)
    )
    console.wait_for_load_state()
    expect(console.locator("#console-seating .seat-cards")).to_have_count(2)
    assert seat_cards(console) == drawn

    # The TV on the wall, its browser in the night's language.
    tv = browser.new_context(viewport=TV, locale=language).new_page()
    tv.goto(f"{base}/tournaments/tv/{night['token']}/")
    expect(tv.locator('.tv [data-clock="link"]')).to_have_attribute("data-state", "live")
    expect(tv.locator("html")).to_have_attribute("lang", language)
    expect(tv.locator('.tv [data-clock="level"]')).to_have_text(say("Level %(number)s", number=1))
    expect(tv.locator('.tv [data-clock="bets"]')).to_have_text("25 / 50")
    expect(tv.locator('.tv [data-clock="players"]')).to_have_text(
        say("%(left)s of %(entries)s", left=12, entries=12)
    )
    shot(tv, language, "03-tv-level-1")
    if language != "en":
        no_english(tv, "TV during a level")

    # Two rebuys in level 1, each from the player's panel.
    ann, ben, cal = cast.last_three
    for name in (ann, ben):
        panel = open_panel(console, name)
        panel.locator("input[name=stack]").fill("0")
        panel.locator("form[action$='/rebuy/'] button").click()
        expect(console.get_by_text(say("Rebuy for %(name)s.", name=name))).to_be_visible()
        expect(row(console, name)).to_contain_text(
            say("%(count)s rebuy", "%(count)s rebuys", count=1)
        )

    # The break now, in level 1, skipping its rest: play goes on with level 2 after it.
    clock = console.locator("#console-clock")
    clock.get_by_role("button", name=say("Break now, skip the rest of this level")).click()
    expect(last_action(console)).to_contain_text(
        say(
            "Break now: %(minutes)s min, then %(row)s",
            minutes=10,
            row=say("level %(number)s", number=2),
        )
    )
    expect(console.locator("#console-bar [data-clock=level]")).to_have_text(say("Break"))
    expect(tv.locator('.tv [data-clock="level"]')).to_have_text(say("Break"))
    level_2 = say("Level %(number)s: %(bets)s", number=2, bets="50 / 100")
    expect(tv.locator('.tv [data-clock="next"]')).to_have_text(level_2)
    expect(clock.locator('[data-clock="next"]')).to_have_text(level_2)
    shot(tv, language, "04-tv-break-now")
    next_level(console, say, say("level %(number)s", number=2))
    expect(tv.locator('.tv [data-clock="level"]')).to_have_text(say("Level %(number)s", number=2))
    expect(tv.locator('.tv [data-clock="bets"]')).to_have_text("50 / 100")

    # A level added after level 2 (the same blinds once more), then taken back.
    clock.get_by_text(say("Change the levels")).click()
    clock.get_by_role("button", name=say("Add the level")).click()
    expect(clock.locator('[data-clock="next"]')).to_have_text(
        say("Level %(number)s: %(bets)s", number=3, bets="50 / 100")
    )
    expect(tv.locator('.tv [data-clock="next"]')).to_have_text(
        say("Level %(number)s: %(bets)s", number=3, bets="50 / 100")
    )
    added = say(
        "Added level %(number)s (%(bets)s, %(minutes)s min) %(after)s",
        number=3,
        bets="50/100",
        minutes=20,
        after=say("after level %(number)s", number=2),
    )
    expect(last_action(console)).to_contain_text(added)
    console.locator("#console-players").get_by_role("button", name=say("Undo")).click()
    expect(console.get_by_text(say("Undone: %(action)s", action=added))).to_be_visible()
    level_3 = say("Level %(number)s: %(bets)s", number=3, bets="75 / 150")
    expect(clock.locator('[data-clock="next"]')).to_have_text(level_3)
    expect(tv.locator('.tv [data-clock="next"]')).to_have_text(level_3)

    # The re-entry: out, back in as entry 2; the place is given back.
    again = cast.reenters
    put_out(console, say, again, ann, place=12)
    out_list = console.locator("#console-players details.entries-out")
    out_list.locator("li.entry", has_text=again).get_by_role("button", name=say("Re-entry")).click()
    expect(last_action(console)).to_contain_text(
        say("Re-entry: %(name)s (entry %(number)s)", name=again, number=2)
    )
    expect(row(console, again, 2)).to_be_visible()
    results = console.locator("#console-results")
    expect(results.locator(".ops-out")).to_contain_text(say("re-entered"))

    # The rest of level 2 and level 3, then the add-on break: an add-on for Ann.
    next_level(console, say, say("level %(number)s", number=3))
    expect(tv.locator('.tv [data-clock="bets"]')).to_have_text("75 / 150")
    next_level(console, say, say("break after level %(number)s", number=3))
    expect(tv.locator('.tv [data-clock="level"]')).to_have_text(say("Add-on break"))
    row(console, ann).get_by_role("button", name=say("Add-on", same=True)).click()
    expect(last_action(console)).to_contain_text(say("Add-on: %(name)s", name=ann))
    next_level(console, say, say("level %(number)s", number=4))
    expect(tv.locator('.tv [data-clock="bets"]')).to_have_text("100 / 200")

    # Out, one at a time from the bigger table so no one moves, down to seven. The first
    # one out after the re-entry takes the place given back, knocked out by the re-entered
    # player, whom the panel names with the entry's number.
    seated = tables_of(console)
    pool = [name for name in (*reversed(cast.registered), cast.known, cast.guest)]
    pool = [name for name in pool if name not in cast.last_three and name != again]
    pool.append(again)
    by_again = f"{again} #2"
    for place in range(12, 7, -1):
        counted = Counter(seated.values())
        bigger = max(counted, key=lambda table: counted[table])
        name = next(name for name in pool if seated.get(name) == bigger)
        pool.remove(name)
        number = 2 if name == again else 1
        put_out(console, say, name, by_again if place == 12 else ann, place=place, number=number)
        del seated[name]
    places = out_places(console)
    assert len(places) == 6, places
    assert sorted(int(place) for place in places if place.isdigit()) == [8, 9, 10, 11, 12]
    expect(results.locator(".ops-out")).to_contain_text(say("by %(name)s", name=by_again))
    # The same on the lobby's "Out so far", which the players read.
    lobby = console.context.new_page()
    lobby.goto(f"{base}/tournaments/{night['id']}/lobby/")
    out_so_far = lobby.locator(".lobby-out")
    expect(out_so_far.locator("h2")).to_have_text(say("Out so far", "Out so far", count=6))
    shown = [
        place.strip() for place in out_so_far.locator("tbody td:first-child").all_inner_texts()
    ]
    assert sorted(int(place) for place in shown if place.isdigit()) == [8, 9, 10, 11, 12]
    expect(out_so_far.locator("tbody tr", has_text=again).last).to_contain_text(say("re-entered"))
    lobby.close()

    # Seven left on six-seat tables: the final table offered, with its reason.
    offer = seating.locator(".ops-step-final-table")
    expect(offer).to_contain_text(
        say(
            "%(count)s players are left: they fit at a final table of %(seats)s seats, one "
            "more than your %(usual)s-seat tables, as the rules play it (TDA RP-9: two short "
            "tables make one final table).",
            count=7,
            seats=7,
            usual=6,
        )
    )
    offer.scroll_into_view_if_needed()
    shot(console, language, "05-console-final-table-offer")
    offer.get_by_role("button", name=say("Draw a %(seats)s-seat final table", seats=7)).click()
    expect(seating.locator("article.ops-table")).to_have_count(1)
    expect(seating.locator("article.ops-table")).to_contain_text(
        say("final table: %(seats)s seats", seats=7)
    )
    console.evaluate("window.scrollTo(0, 0)")
    shot(console, language, "06-console-after-final-table")
    seating.scroll_into_view_if_needed()
    shot(console, language, "07-console-final-table-seats")
    if language != "en":
        no_english(console, "console at the final table")

    # The chips counted at the final table: they add up.
    chips = console.locator("#console-chips")
    in_play = digits(chips.locator(".chips-stats dd").first.inner_text())
    assert in_play == 10000 * 13 + 10000 * 2 + 15000
    final_seven = sorted(tables_of(console))
    assert set(cast.last_three) <= set(final_seven)
    counts = {name: 15000 for name in final_seven}
    counts[ann] = in_play - 15000 * 6
    chips.locator("a.tap", has_text=say("Count chips")).click()
    for name, stack in counts.items():
        console.locator(".chips-rows li", has_text=name).locator("input").fill(str(stack))
    shot(console, language, "08-chip-count", full=True)
    console.locator("form.chips-form button[type=submit]").click()
    chips = console.locator("#console-chips")
    expect(chips.locator(".chips-check")).to_have_text(say.stacks(in_play, in_play))
    expect(chips).to_contain_text(ann)

    # Four more out, down to the three of the deal.
    others = [name for name in final_seven if name not in cast.last_three]
    for place, name in zip(range(7, 3, -1), others, strict=True):
        number = 2 if name == again else 1
        put_out(console, say, name, ann, place=place, number=number)

    # The deal, with the counts of the final table: they no longer add up, and it is refused.
    results = console.locator("#console-results")
    results.locator("summary", has_text=say("Deal", same=True)).click()
    stale = counts[ann] + counts[ben] + counts[cal]
    results.get_by_role("button", name=say("Propose")).click()
    results = console.locator("#console-results")
    expect(results.get_by_role("alert")).to_contain_text(say.stacks(stale, in_play))
    results.get_by_role("alert").scroll_into_view_if_needed()
    shot(console, language, "09-console-deal-refused")
    # The stacks as they are: an ICM deal, recorded; it ends the night.
    stacks = {ann: in_play // 2, ben: in_play // 3}
    stacks[cal] = in_play - stacks[ann] - stacks[ben]
    if results.locator("details.ops-more:has(.deal-list)").get_attribute("open") is None:
        results.locator("summary", has_text=say("Deal", same=True)).click()
    for name, stack in stacks.items():
        results.locator("form:not(.deal-record) .deal-list li", has_text=name).locator(
            "input"
        ).fill(str(stack))
    results.get_by_role("button", name=say("Propose")).click()
    results = console.locator("#console-results")
    expect(results.locator(".deal-record")).to_contain_text(say("ICM proposal"))
    prizes = {
        name: digits(
            results.locator(".deal-record li", has_text=name)
            .locator("input[name^=prize_]")
            .input_value()
        )
        for name in stacks
    }
    assert prizes[ann] > prizes[ben] > prizes[cal] > 0
    results.get_by_role("button", name=say("Record the deal and end the tournament")).click()
    finished = console.locator("#console-results .ops-results")
    expect(finished).to_be_visible()
    # The whole console follows: its header says the night is over, with the results to print.
    head = console.locator(".console-head")
    expect(head.locator(".badge")).to_have_text(say("Finished"))
    expect(head.locator("a[href$='/print/results/']")).to_be_visible()
    expect(finished.locator("tbody tr").first).to_contain_text(ann)
    paid = [cell.strip() for cell in finished.locator("tbody tr td:nth-child(3)").all_inner_texts()]
    assert [digits(amount) for amount in paid[:3]] == [prizes[ann], prizes[ben], prizes[cal]]

    # The TV: the winner and what was paid, without a reload.
    expect(tv.locator('.tv [data-tv="winner"]')).to_have_text(ann)
    expect(tv.locator('.tv [data-tv="winner-prize"]')).to_have_text(paid[0])
    expect(tv.locator('.tv [data-tv="deal"]')).to_have_text(
        say(
            "Deal among the last %(count)s player",
            "Deal among the last %(count)s players",
            count=3,
        )
    )
    tv_prizes = tv.locator('.tv [data-tv="places"] li .tv-prize')
    expect(tv_prizes.first).to_have_text(paid[0])
    assert tv_prizes.all_inner_texts()[:3] == paid[:3]
    expect(tv.locator('.tv [data-clock="time"]')).to_be_hidden()
    shot(tv, language, "10-tv-finished")
    if language != "en":
        no_english(tv, "TV after the finish")
    console.evaluate("window.scrollTo(0, 0)")
    shot(console, language, "11-console-finished")

    # The season's standings and the night's settle-up.
    standings = browser.new_context(viewport=PHONE, is_mobile=True)
    standings.add_cookies(console.context.cookies())
    page = standings.new_page()
    page.goto(f"{base}/series/seasons/{night['season']}/standings/")
    expect(page.locator("h1")).to_have_text(say("Standings"))
    expect(page.locator("table tbody tr").first).to_contain_text(ann)
    # Each name whole on its line, however long the language's headings.
    lines = page.locator("td.player a").evaluate_all(
        "links => links.map(link => link.getClientRects().length)"
    )
    assert lines and set(lines) == {1}, lines
    shot(page, language, "12-standings", full=True)
    if language != "en":
        no_english(page, "standings")
    page.goto(f"{base}/series/events/{night['event']}/settle-up/")
    expect(page.locator("h1")).to_have_text(say("Settle-up"))
    night_of = page.locator("table.record-table")
    expect(night_of.locator("tbody tr", has_text=ann)).to_contain_text(paid[0])
    expect(page.locator(".transfers li").first).to_be_visible()
    shot(page, language, "13-settle-up", full=True)
    if language != "en":
        no_english(page, "settle-up")
