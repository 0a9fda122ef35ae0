"""Every page of the site, read in French, has no English left in it.

The test walks the whole URL list (the admin aside: Django translates it) as the director, a
player and an anonymous visitor, with ``Accept-Language: fr``, over a site with something on
every page: a season with a finished event and standings, tournaments registering and
running with their seats drawn, live tables with hands played and one in play. On each HTML
page it reads what a person reads (the text, and the title, aria-label, placeholder, alt and
submit buttons), takes out what people typed (names of players, events, tables, venues: every
text stored in the database), and looks for English words that French never uses. A page
that says "Next level" instead of "Niveau suivant" fails with the words and the URL.
"""

from __future__ import annotations

import re
from datetime import timedelta
from html.parser import HTMLParser
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import models
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import translation

from series.models import GAME_LABELS, Event, EventAction, Player
from series.services.mailing_messages import unsubscribe_token
from tables import services as table_services
from tables.models import Hand
from tests.series.night import finished_event
from tests.tables.sessions import play_session
from tournaments.models import Tournament
from tournaments.services.clock.reads import clock_dealer_key
from tournaments.services.lifecycle import tournament_start
from tournaments.services.seating import seating_draw

pytestmark = pytest.mark.django_db

# English words a French page never shows (words French shares, such as "on", "or",
# "pot", "flop", "board", "tables", "pause", "stack", "blinds", "bots", "minutes",
# "structure", "place", "points", "total", "prize pool", "add-on", the scoring formula's
# functions (log, round), and the games' names
# "Omaha Hi/Lo" and "Omaha High", which French players use as they are, are left out).
ENGLISH = set(
    """
    the and with your you for from this that these those there their they them is are was
    were will would should could has have had been not of to at by into onto out up down
    when which who what how why here where new next last back players player seat seats hand
    hands chips level levels results result standings season seasons event events calendar
    sign save delete cancel edit remove open close closed start started stop resume settings
    buy rebuy fold folds call calls raise raises check checks bet bets dealer winner wins
    won prizes payouts payout entries entry clock break hours hour today
    tomorrow yesterday week month year name password username email search show hide more
    less yes none nothing nobody only each every first second third waiting wait table's
    turn time left right live watch join leave sit sat private invite request
    requests ledger history download verify rounds late registration register
    unregister registered director tournament tournaments run running finished finish
    upcoming past game games limit showdown river player's you're it's don't can't
    won't
    """.split()
)
ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}
# A hyphenated word is one word: "heads-up" and "add-on" are French poker words too.
WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


# Scripts and styles are not read; code and sample files are machine text (a CSV header,
# a command), the same in every language.
SKIPPED = {"script", "style", "template", "code", "pre", "kbd", "samp"}


class _Reader(HTMLParser):
    """What a person reads on the page: text outside scripts and styles, and the attributes
    a screen reader or a tooltip speaks."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED:
            self._skip += 1
        values = dict(attrs)
        for name, value in attrs:
            if value and name in ATTRIBUTES:
                self.parts.append(value)
        if tag == "input" and values.get("type") in {"submit", "button"} and values.get("value"):
            self.parts.append(values["value"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.parts.append(data)


def stored_texts() -> list[str]:
    """Every text people typed or the demo made (names, venues, notes): not ours to translate."""
    # The site's name, and another program's (the import reads its save files).
    texts: set[str] = {"Home Game Omaha", "The Tournament Director"}
    # The games as French players write them: "limit" is a French poker word too.
    with translation.override("fr"):
        texts.update(str(label) for label in GAME_LABELS.values())
    texts.update(User.objects.values_list("username", flat=True))
    for config in apps.get_app_configs():
        if config.label not in {"series", "tables", "tournaments"}:
            continue
        for model in config.get_models():
            fields = [
                f.name
                for f in model._meta.get_fields()
                if isinstance(f, models.CharField | models.TextField) and not f.choices
            ]
            for row in model.objects.values_list(*fields) if fields else []:
                texts.update(str(value) for value in row if value)
    return sorted(texts, key=len, reverse=True)


def english_in(html: str, typed: list[str]) -> list[str]:
    reader = _Reader()
    reader.feed(html)
    found = []
    for part in reader.parts:
        for text in typed:
            if text in part:
                part = re.sub(rf"(?<!\w){re.escape(text)}(?!\w)", " ", part)
        words = [w for w in WORD.findall(part) if w.lower() in ENGLISH]
        if words:
            found.append(f"{' '.join(part.split())[:120]!r} ({', '.join(words)})")
    return found


@pytest.fixture
def site(settings: Any) -> dict[str, Any]:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.TABLES_NEXT_HAND_DELAY_MS = 0
    settings.CELERY_TASK_ALWAYS_EAGER = False
    call_command("load_demo", verbosity=0)
    call_command("load_demo_tournaments", verbosity=0)
    director = User.objects.get(username="director")
    player = User.objects.get(username="ann")

    tournament = Tournament.objects.filter(entries__isnull=False).distinct().first()
    assert tournament is not None
    tournament_start(tournament.pk, by=director)
    seating_draw(tournament, by=director)
    entry = tournament.entries.order_by("pk").first()

    season = tournament.event.season
    players = list(Player.objects.filter(user__isnull=False)[:3])
    done = finished_event(
        season,
        [
            (p, place, prize, 25)
            for place, (p, prize) in enumerate(zip(players, (50, 25, 0), strict=True), 1)
        ],
        number=90,
    )

    table = table_services.table_create(
        created_by=director, name="Chez Marc", big_blind=2, min_buy_in=40, max_buy_in=200
    )
    for number, name in enumerate(("ann", "ben", "cal"), start=1):
        table_services.seat_take(table.pk, User.objects.get(username=name), number, 100)
    play_session(table, hands=4, seed=7, time_out=0.1)
    hand = Hand.objects.filter(table=table, ended_at__isnull=False).first()
    private = table_services.table_create(
        created_by=director,
        name="Chez Lou",
        big_blind=2,
        min_buy_in=40,
        max_buy_in=200,
        private=True,
    )
    blind_structure = tournament.blind_structure
    # A move in the night's log: its "move it back" page reads in French too.
    move = EventAction.objects.create(
        event=done,
        kind="moved",
        at=done.starts_at,
        starts_before=done.starts_at - timedelta(hours=1),
        starts_after=done.starts_at,
    )
    return {
        "director": director,
        "player": player,
        "ids": {
            "season_id": season.pk,
            "event_id": done.pk,
            "player_id": players[0].pk,
            "table_id": table.pk,
            "hand_id": hand.pk if hand else 1,
            "tournament_id": tournament.pk,
            "blind_structure_id": blind_structure.pk,
            "row_id": blind_structure.levels.first().pk,
            "entry_id": entry.pk,
            "table_number": 1,
            "token": tournament.tv_token,
            "invite": private.invite_token,
            # The unsubscribe link of the player's reminders (its page, read in French).
            "topic": "reminders",
            "unsubscribe": unsubscribe_token(player.pk, "reminders"),
            # No notice is recorded here: the director's decision page answers 404.
            "notice_id": 1,
            "action_id": move.pk,
            # The dealer's page of table 1 during hand-for-hand, opened with its key.
            "key": clock_dealer_key(tournament, 1),
        },
        "private": private,
        "upcoming_event": Event.objects.filter(tournament__isnull=True).first(),
    }


def page_urls(ids: dict[str, Any]) -> list[str]:
    urls: list[str] = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if str(pattern.pattern).startswith("admin"):
                    continue
                walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                route = prefix + str(pattern.pattern)
                names = re.findall(r"<(?:\w+:)?(\w+)>", route)
                values = {name: ids[name] for name in names if name in ids}
                if "invite/" in route:
                    values["token"] = ids["invite"]
                if "unsubscribe/" in route:
                    values["token"] = ids["unsubscribe"]
                if len(values) < len(names):
                    raise AssertionError(f"no value for a parameter of {route}: add it to ids")
                urls.append(
                    "/"
                    + re.sub(r"<(?:\w+:)?(\w+)>", lambda m, values=values: str(values[m[1]]), route)
                )

    walk(get_resolver().url_patterns, "")
    return urls


@pytest.mark.parametrize("role", ["director", "player", "anonymous"])
def test_every_page_reads_in_french(client: Any, site: dict[str, Any], role: str) -> None:
    if role != "anonymous":
        client.force_login(site[role])
    typed = stored_texts()
    failures, read = [], 0
    for url in page_urls(site["ids"]):
        if "/logout/" in url:
            continue
        answer = client.get(url, HTTP_ACCEPT_LANGUAGE="fr")
        if answer.status_code != 200 or not answer["Content-Type"].startswith("text/html"):
            continue
        read += 1
        html = answer.content.decode()
        assert '<html lang="fr">' in html or "<html" not in html, url
        failures += [f"{url}: {line}" for line in english_in(html, typed)]
    assert read >= 15, f"only {read} pages read as {role}"
    assert not failures, "English on French pages:\n" + "\n".join(failures)
