"""An event page's card for a shared link (OpenGraph and Twitter tags): what, when, where,
which game and the buy-in, in the visitor's language, and nothing of the players."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from series.models import Event, Player, Result, Season
from tests.series.season_fixture import build_season

pytestmark = pytest.mark.django_db

META = re.compile(
    r'<meta (?:property|name)="((?:og|twitter):[\w:]+|description)" content="([^"]*)"'
)


def card(client: Client, event: Event, **headers: str) -> dict[str, str]:
    page = client.get(reverse("series:event", args=[event.pk]), **headers).content.decode()
    return dict(META.findall(page))


@pytest.fixture
def finished(director: User) -> Event:
    """A finished event of a season whose players all have accounts with e-mail addresses."""
    season = build_season(events=5, players=10, seed=4, director=director)
    for player in Player.objects.filter(user__isnull=False).select_related("user"):
        player.user.email = f"{player.user.username}@example.org"
        player.user.save(update_fields=["email"])
    event = Event.objects.filter(season=season, finished_at__isnull=False).first()
    assert event is not None and Result.objects.filter(event=event).exists()
    return event


def test_the_card_says_what_when_where_and_the_buy_in(client: Client, event: Event) -> None:
    tags = card(client, event)
    assert tags["og:title"] == "Thursday PLO8 · Spring"
    description = tags["og:description"]
    assert "Ann&#x27;s kitchen" in description
    assert "Pot-Limit Omaha Hi/Lo" in description
    assert "buy-in 20+5" in description
    assert str(event.starts_at.astimezone().year) in description
    assert tags["og:type"] == "website"
    assert tags["og:url"] == f"http://testserver/series/events/{event.pk}/"
    assert tags["og:image"] == "http://testserver/static/icons/card.png"
    assert tags["twitter:card"] == "summary"
    assert tags["twitter:image"].startswith("http://testserver/static/icons/")
    assert tags["description"] == description


def test_the_card_is_in_the_visitors_language(client: Client, event: Event) -> None:
    tags = card(client, event, HTTP_ACCEPT_LANGUAGE="fr")
    # The event's own words stay; the game's label is the French one.
    assert tags["og:title"] == "Thursday PLO8 · Spring"
    assert "omaha hi/lo pot-limit" in tags["og:description"].lower()


def test_an_online_freeroll_says_so(client: Client, event: Event) -> None:
    Event.objects.filter(pk=event.pk).update(venue="", points_only=True, buy_in=0, fee=0)
    description = card(client, event)["og:description"]
    assert "Online" in description
    assert "freeroll, points only" in description
    assert "buy-in" not in description


def test_no_player_name_or_email_is_in_the_card(client: Client, finished: Event) -> None:
    tags = card(client, finished)
    # The venue is the director's words for the place ("Ben's garage"), asked for on the card.
    text = " ".join(tags.values()).replace(escape(finished.venue), "")
    names = list(Player.objects.values_list("name", flat=True))
    usernames = list(User.objects.values_list("username", flat=True))
    assert names and usernames
    for word in [*names, *usernames]:
        assert not re.search(rf"\b{re.escape(escape(word))}\b", text), word
    assert "@" not in text
    # The page itself does name the winner: the card leaves out what the page shows.
    page = Client().get(reverse("series:event", args=[finished.pk])).content.decode()
    winner = Result.objects.filter(event=finished, place=1).first()
    assert winner is not None and winner.player.name in page


def test_other_pages_carry_no_event_card(client: Client, season: Season) -> None:
    page = client.get(reverse("series:season", args=[season.pk])).content.decode()
    assert "og:title" not in page


def test_a_night_of_another_game_shows_its_own_name(client: Client, event: Event) -> None:
    """A night brought from another tool (The Tournament Director's Hold'em nights) keeps the
    game's name it had: the page, its card and the calendar say it, never the site's Omaha."""
    Event.objects.filter(pk=event.pk).update(game_name="Texas Hold 'Em")
    event.refresh_from_db()
    assert event.game_label == "Texas Hold 'Em"
    description = card(client, event)["og:description"]
    assert "Texas Hold &#x27;Em" in description and "Omaha" not in description
    page = client.get(reverse("series:event", args=[event.pk])).content.decode()
    facts = page[page.index('id="event-facts-title"') : page.index("</dl>")]
    assert "Texas Hold &#x27;Em" in facts
    assert "Omaha" not in facts and "Pot-Limit" not in facts and "Betting" not in facts
