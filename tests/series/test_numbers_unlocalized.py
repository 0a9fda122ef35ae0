"""Numbers written for programs are never localized: read in French, the charts' SVG, the
pages' ``data-`` and form attributes, the JSON, the CSV and the iCal feeds still carry "278.0"
and "10000", never "278,0" or "10 000" (a browser drops an SVG coordinate it cannot read, a
script reads "10 000" as NaN, a spreadsheet takes "152,40" for text).

Each page is read as a French visitor reads it (``Accept-Language: fr``), with the site's own
number settings: a decimal comma and a non-breaking space between thousands for French.
"""

from __future__ import annotations

import csv
import io
import json
import re
from html.parser import HTMLParser

import pytest
from django.conf import settings as site_settings
from django.contrib.auth.models import User
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import translation
from icalendar import Calendar

from series import selectors, standings_chart
from series.models import Season, Standing
from series.services.standings import standings_recompute
from tests.series.season_fixture import build_season
from tests.tournaments.factories import seat
from tournaments.models import Tournament
from tournaments.services.clock.controls import clock_start

FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr"}
# SVG attributes holding numbers (or lists of numbers).
SVG_NUMBERS = {"x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "rx", "width", "height", "dy"}
# A number as a program writes it: "-12", "278.0", "0.32em" (a length with its unit).
PLAIN = re.compile(r"-?\d+(\.\d+)?([a-z]+|%)?")
# What a localized number looks like: a decimal comma, or a space between thousands.
LOCALIZED = re.compile(r"\d,\d|\d[\u00a0\u202f ]\d{3}(?!\d)")
# Attributes a program reads (form values, htmx's timings), besides the data- ones.
MACHINE_ATTRIBUTES = {"value", "min", "max", "step", "hx-trigger", "hx-vals"}


class _Attributes(HTMLParser):
    """Every tag's attributes, and the text of each ``<script type="application/json">``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.json: list[str] = []
        self._in_json = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        self.tags.append((tag, values))
        self._in_json = tag == "script" and values.get("type") == "application/json"

    def handle_endtag(self, tag: str) -> None:
        self._in_json = False

    def handle_data(self, data: str) -> None:
        if self._in_json:
            self.json.append(data)


def parsed(html: str) -> _Attributes:
    reader = _Attributes()
    reader.feed(html)
    return reader


def svg_problems(html: str) -> list[str]:
    """The SVG attributes of ``html`` that are not plain numbers."""
    problems = []
    inside = False
    for tag, attrs in parsed(html).tags:
        if tag == "svg":
            inside = True
            box = attrs.get("viewbox", "")
            if not all(PLAIN.fullmatch(part) for part in box.split()) or len(box.split()) != 4:
                problems.append(f'viewBox="{box}"')
        if not inside:
            continue
        for name, value in attrs.items():
            if name in SVG_NUMBERS and not PLAIN.fullmatch(value):
                problems.append(f'<{tag} {name}="{value}">')
        if "points" in attrs:
            pairs = [pair.split(",") for pair in attrs["points"].split()]
            if not pairs or any(
                len(pair) != 2 or not all(PLAIN.fullmatch(n) for n in pair) for pair in pairs
            ):
                problems.append(f'<{tag} points="{attrs["points"]}">')
    assert inside, "no <svg> on the page"
    return problems


def attribute_problems(html: str) -> list[str]:
    """The data- and form attributes of ``html`` holding a localized number."""
    problems = []
    for tag, attrs in parsed(html).tags:
        if tag == "input" and attrs.get("type") in {"text", "search", "email", "password"}:
            continue
        for name, value in attrs.items():
            if (name.startswith("data-") or name in MACHINE_ATTRIBUTES) and LOCALIZED.search(value):
                problems.append(f'<{tag} {name}="{value}">')
    return problems


def json_numbers(value: object) -> list[object]:
    """Every number in a JSON value, and every string that only a localization could make
    of one ("10 000", "2,5")."""
    found: list[object] = []
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            pending += item.values()
        elif isinstance(item, list):
            pending += item
        elif isinstance(item, bool):
            continue
        elif isinstance(item, int | float):
            found.append(item)
        elif isinstance(item, str) and re.fullmatch(
            r"-?\d{1,3}([\u00a0\u202f ]\d{3})+|\d+,\d+", item
        ):
            found.append(item)
    return found


def test_the_site_groups_no_number_it_was_not_asked_to() -> None:
    # Numbers people read are grouped by ``core.amounts`` ("10 000 jetons"); a global
    # separator would group every id and number in an attribute as well.
    assert site_settings.USE_THOUSAND_SEPARATOR is False


@pytest.fixture
def season(db: None) -> Season:
    season = build_season(events=10, players=16, seed=5)
    standings_recompute(season.pk)
    return season


def test_the_leaderboard_chart_is_plain_svg_in_french(
    player_client: Client, season: Season
) -> None:
    html = player_client.get(
        reverse("series:standings", args=[season.pk]), **FRENCH
    ).content.decode()
    assert 'lang="fr"' in html
    assert svg_problems(html) == []
    # The totals people read stay French.
    assert re.search(r"\d,\d\d", html)


def test_a_players_chart_is_plain_svg_in_french(player_client: Client, season: Season) -> None:
    player = Standing.objects.filter(season=season).order_by("rank").first().player
    html = player_client.get(reverse("series:player", args=[player.pk]), **FRENCH).content.decode()
    assert svg_problems(html) == []


def test_the_csv_files_write_plain_numbers_in_french(player_client: Client, season: Season) -> None:
    standings = player_client.get(reverse("series:standings_csv", args=[season.pk]), **FRENCH)
    rows = list(csv.DictReader(io.StringIO(standings.content.decode())))
    assert rows and all(float(row["points"]) >= 0 and int(row["events"]) for row in rows)
    event = season.events.exclude(finished_at=None).first()
    results = player_client.get(reverse("series:event_results_csv", args=[event.pk]), **FRENCH)
    rows = list(csv.DictReader(io.StringIO(results.content.decode())))
    assert rows
    for row in rows:
        float(row["points"])
        for name in ("place", "prize", "bounties", "paid_in"):
            int(row[name])


def test_the_calendar_feed_is_read_by_programs_in_french(client: Client, season: Season) -> None:
    response = client.get(reverse("series:season_ical", args=[season.pk]), **FRENCH)
    calendar = Calendar.from_ical(response.content)
    events = calendar.walk("VEVENT")
    assert events
    for item in events:
        assert item.decoded("dtstart") < item.decoded("dtend")
        assert re.fullmatch(r"series-event-\d+@[a-z-]+", str(item["uid"]))


@pytest.fixture
def big_night(tournament: Tournament, director: User) -> Tournament:
    """A tournament in play with stacks and a pool in the thousands, its clock running."""
    tournament.capacity = None
    tournament.save(update_fields=["capacity"])
    event = tournament.event
    event.starting_stack, event.buy_in = 12500, 2000
    event.save(update_fields=["starting_stack", "buy_in"])
    seat(tournament, {1: {1: "Ann", 2: "Ben", 3: "Cal"}, 2: {1: "Dee", 2: "Eve"}})
    clock_start(tournament.pk, by=director)
    return tournament


def test_the_tournament_pages_write_plain_numbers_in_french(
    big_night: Tournament, director_client: Client, settings
) -> None:  # type: ignore[no-untyped-def]
    settings.TOURNAMENTS_SCHEDULE_TASKS = False
    pages = {
        "console": reverse("tournaments:console", args=[big_night.pk]),
        "lobby": reverse("tournaments:lobby", args=[big_night.pk]),
        "detail": reverse("tournaments:detail", args=[big_night.pk]),
        "tv": reverse("tournaments:tv_clock", args=[big_night.tv_token]),
    }
    for name, url in pages.items():
        response = director_client.get(url, **FRENCH)
        assert response.status_code == 200, name
        html = response.content.decode()
        assert 'lang="fr"' in html, name
        assert attribute_problems(html) == [], name
        for text in parsed(html).json:
            numbers = json_numbers(json.loads(text))
            assert numbers, name
            assert all(isinstance(n, int | float) for n in numbers), (name, numbers)
    # People read the pool and the stacks the French way.
    tv = director_client.get(pages["tv"], **FRENCH).content.decode()
    assert "10\u00a0000" in tv  # the prize pool, 5 x 2,000


def test_the_clock_json_is_plain_in_french(big_night: Tournament, client: Client) -> None:
    response = client.get(reverse("tournaments:tv_clock_json", args=[big_night.tv_token]), **FRENCH)
    payload = json.loads(response.content)
    numbers = json_numbers(payload)
    assert all(isinstance(n, int | float) for n in numbers), numbers
    assert payload["field"]["prize_pool"] == 10000
    assert payload["field"]["average_stack"] == 12500


def test_the_chart_templates_write_plain_coordinates_in_any_language(
    season: Season,
) -> None:
    """The chart's geometry rendered straight from its template, under
    ``translation.override``: no request, no middleware, the same numbers."""
    lines = list(selectors.standings_of(season))
    top = [line for line in lines if line.events][: standings_chart.TOP_PLAYERS]
    events = selectors.standings_events(season)
    history = selectors.standings_history(season, [line.player_id for line in top])
    chart = standings_chart.chart_build(events, top, history)
    assert chart is not None
    for language in ("fr", "en"):
        with translation.override(language):
            html = render_to_string("series/_standings_chart.html", {"chart": chart})
        assert svg_problems(html) == [], language
