"""The site outside the live tables in French: the key pages render for a French reader, with
dates written the French way, and no template of the series, the tournaments or the accounts
leaves a sentence outside gettext.

The French catalog is compiled by the lead after the translators, so these tests check the
structure (the language chosen, the named date formats, the script catalog loaded, every text
marked for translation), not the French wording.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone, translation

from core.dates import first_of_month
from series import exports
from series.models import Event, Player, Result, Season
from series.services.calendar import player_calendar_token_renew
from series.services.standings import standings_recompute
from tournaments.models import Tournament
from tournaments.services.entries import entry_add_walk_in

pytestmark = pytest.mark.django_db

TEMPLATES = Path(settings.BASE_DIR) / "templates"
# The pages a person reads outside the live tables (tables/ is translated on its own).
SCOPE = ("registration", "series", "tournaments")


def french_client(user: User | None = None) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    if user is not None:
        client.force_login(user)
    return client


def french_page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    assert response["Content-Language"] == "fr"
    text = response.content.decode()
    assert '<html lang="fr">' in text
    return text


def in_french(value, format_name: str) -> str:
    if hasattr(value, "tzinfo"):
        value = timezone.localtime(value)
    with translation.override("fr"):
        # The pages write the first of the month "1er" (core.dates).
        return first_of_month(formats.date_format(value, format_name), value)


def test_the_home_page_and_its_next_event_in_french(event: Event) -> None:
    page = french_page(french_client(), reverse("home"))
    when = in_french(event.starts_at, "DATETIME_FORMAT")
    # French writes the hour with "h" (series/formats/fr): the named format is in use.
    assert " h " in when and when in page


def test_the_season_calendar_and_the_event_page_in_french(season: Season, event: Event) -> None:
    client = french_client()
    calendar = french_page(client, reverse("series:season", args=[season.pk]))
    assert event.name in calendar
    assert in_french(event.starts_at, "MONTH_DAY_FORMAT") in calendar
    detail = french_page(client, reverse("series:event", args=[event.pk]))
    assert in_french(event.starts_at, "DATETIME_FORMAT") in detail


def test_the_standings_in_french(season: Season, event: Event, director: User) -> None:
    event.finished_at = timezone.now()
    event.save(update_fields=["finished_at"])
    for place, name in enumerate(["Ann", "Bob", "Cal", "Dee"], start=1):
        Result.objects.create(event=event, player=Player.objects.create(name=name), place=place)
    standings_recompute(season.pk)
    page = french_page(french_client(director), reverse("series:standings", args=[season.pk]))
    assert "<table" in page and "Dee" in page


def test_the_director_pages_in_french(
    season: Season, event: Event, tournament: Tournament, director: User
) -> None:
    client = french_client(director)
    dashboard = french_page(client, reverse("director_dashboard"))
    assert in_french(event.starts_at, "SHORT_DATETIME_FORMAT") in dashboard
    assert in_french(season.starts_on, "SHORT_DATE_FORMAT") in dashboard
    entry_add_walk_in(tournament.pk, "Bob", by=director)
    console = french_page(client, reverse("tournaments:console", args=[tournament.pk]))
    logged = timezone.localtime(tournament.actions.get().at)
    # The log's times read as a clock does ("19:05"), in French too.
    assert logged.strftime("%H:%M") in console


def test_the_tv_clock_in_french_loads_the_script_catalog(tournament: Tournament) -> None:
    page = french_page(french_client(), reverse("tournaments:tv_clock", args=[tournament.tv_token]))
    assert reverse("javascript-catalog") in page
    catalog = french_client().get(reverse("javascript-catalog"))
    assert catalog.status_code == 200 and b"gettext" in catalog.content


def test_the_account_pages_in_french(director: User) -> None:
    client = french_client()
    for name in ("login", "signup"):
        page = french_page(client, reverse(name))
        assert "<form" in page and 'type="submit"' in page
    page = french_page(french_client(director), reverse("password_change"))
    assert "<form" in page


def test_a_tournament_page_in_french(tournament: Tournament) -> None:
    page = french_page(french_client(), tournament.get_absolute_url())
    assert in_french(tournament.event.starts_at, "DATETIME_FORMAT") in page


# -- every text through gettext ---------------------------------------------------------

MARKUP = [
    re.compile(r"{%\s*blocktranslate.*?{%\s*endblocktranslate\s*%}", re.S),
    re.compile(r"{#.*?#}", re.S),
    re.compile(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}", re.S),
    re.compile(r"<(script|style)\b.*?</\1>", re.S),
    # Code and sample files are machine text (a CSV header), the same in every language.
    re.compile(r"<(code|pre|kbd|samp)\b.*?</\1>", re.S),
    # A body class names CSS, not a text.
    re.compile(r"{%\s*block body_class\s*%}.*?{%\s*endblock\s*%}", re.S),
    re.compile(r"{%.*?%}", re.S),
    re.compile(r"{{.*?}}", re.S),
    re.compile(r"<[^>]*>", re.S),
]


def untranslated(source: str) -> list[str]:
    """Words between the tags that no translate tag carries."""
    for pattern in MARKUP:
        source = pattern.sub("\n", source)
    lines = (line.strip() for line in source.split("\n"))
    return [line for line in lines if re.search(r"[A-Za-z]{2,}", line)]


def test_untranslated_finds_a_bare_sentence() -> None:
    page = '{% load i18n %}<p>{% translate "Hello" %} <b>{{ name }}</b></p><p>Good night</p>'
    assert untranslated(page) == ["Good night"]


@pytest.mark.parametrize(
    "path",
    sorted(p for folder in SCOPE for p in (TEMPLATES / folder).glob("*.html")),
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_every_text_of_the_template_goes_through_gettext(path: Path) -> None:
    assert untranslated(path.read_text()) == []


def test_an_event_starting_tomorrow_keeps_its_english_date_in_english(event: Event) -> None:
    page = Client().get(reverse("series:event", args=[event.pk])).content.decode()
    with translation.override("en"):
        when = formats.date_format(timezone.localtime(event.starts_at), "DATETIME_FORMAT")
    assert " h " not in when and when in page


def test_a_players_calendar_feed_is_written_in_the_language_they_chose(
    monkeypatch: pytest.MonkeyPatch, player: User
) -> None:
    written_in = []
    events_ical = exports.events_ical

    def spy(*args, **kwargs):
        written_in.append(translation.get_language())
        return events_ical(*args, **kwargs)

    monkeypatch.setattr(exports, "events_ical", spy)
    token = player_calendar_token_renew(player).calendar_token
    Player.objects.filter(calendar_token=token).update(language="fr")
    # A calendar app: no session, no cookie, an English Accept-Language or none.
    answer = Client().get(reverse("series:my_ical"), {"token": token}, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200 and written_in == ["fr"]
    Player.objects.filter(calendar_token=token).update(language="")
    Client().get(reverse("series:my_ical"), {"token": token}, HTTP_ACCEPT_LANGUAGE="en")
    assert written_in == ["fr", "en"]
