"""The series' exports (the standings CSV is tested with the standings): the season's iCal feed, a
player's own feed behind a secret token, an event's results as CSV, and a player's online
hands of an event as PHH."""

from __future__ import annotations

import csv
import io
import tomllib

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from icalendar import Calendar

from series.exports import RESULTS_CSV_HEADER
from series.models import Event, Player, Season, SeasonVisibility
from series.services.calendar import player_calendar_token_renew
from tables import services as table_services
from tables import timing
from tables.engine import phh
from tables.models import Table
from tests.series.season_fixture import build_season
from tests.tables.conftest import deal, later, make_players
from tests.tables.test_services import play_out
from tournaments.models import Entry, EntryState, Tournament, TournamentTable

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(director: User) -> Season:
    return build_season(events=8, players=14, seed=4, director=director)


def numbered(season: Season, number: int) -> Event:
    return Event.objects.get(season=season, number=number)


def parse(content: bytes) -> list:
    calendar = Calendar.from_ical(content)
    return list(calendar.walk("VEVENT"))


# -- the season's feed ------------------------------------------------------------------


def test_the_season_feed_is_ical_with_every_event(client: Client, season: Season) -> None:
    response = client.get(reverse("series:season_ical", args=[season.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    calendar = Calendar.from_ical(response.content)
    assert str(calendar["X-WR-CALNAME"]) == season.name
    items = parse(response.content)
    events = list(season.events.order_by("starts_at"))
    assert len(items) == len(events)
    by_uid = {str(item["UID"]): item for item in items}
    for event in events:
        item = by_uid[f"series-event-{event.pk}@home-game-omaha"]
        assert item.decoded("DTSTART") == event.starts_at
        assert event.name in str(item["SUMMARY"]) and event.price in str(item["SUMMARY"])
        assert str(item["URL"]).endswith(reverse("series:event", args=[event.pk]))
    online = by_uid[f"series-event-{numbered(season, 3).pk}@home-game-omaha"]
    assert str(online["LOCATION"]) == "Online"
    first = numbered(season, 1)
    described = str(by_uid[f"series-event-{first.pk}@home-game-omaha"]["DESCRIPTION"])
    # The feed is read without a session: names only when the host made the season public.
    assert "Won by" not in described
    season.visibility = SeasonVisibility.PUBLIC
    season.save(update_fields=["visibility"])
    items = parse(client.get(reverse("series:season_ical", args=[season.pk])).content)
    by_uid = {str(item["UID"]): item for item in items}
    described = str(by_uid[f"series-event-{first.pk}@home-game-omaha"]["DESCRIPTION"])
    assert "Won by " + first.results.get(place=1).player.name in described


def test_the_season_feed_of_an_unknown_season_is_404(client: Client) -> None:
    assert client.get(reverse("series:season_ical", args=[404])).status_code == 404


# -- the player's own feed --------------------------------------------------------------


def test_a_players_feed_lists_only_the_events_they_registered_for(
    client: Client, season: Season
) -> None:
    player = Player.objects.filter(user__isnull=False).first()
    assert player is not None
    Entry.objects.filter(player=player).delete()
    mine = numbered(season, 6)
    left = numbered(season, 7)
    Entry.objects.create(tournament=Tournament.objects.get(event=mine), player=player)
    Entry.objects.create(
        tournament=Tournament.objects.get(event=left),
        player=player,
        state=EntryState.UNREGISTERED,
    )
    token = player_calendar_token_renew(player.user).calendar_token
    # No session: the token is the key.
    response = client.get(reverse("series:my_ical"), {"token": token})
    assert response.status_code == 200
    items = parse(response.content)
    assert [str(item["UID"]) for item in items] == [f"series-event-{mine.pk}@home-game-omaha"]
    assert player.name in str(Calendar.from_ical(response.content)["X-WR-CALNAME"])


def test_a_players_feed_refuses_a_wrong_or_missing_token(client: Client, player: User) -> None:
    token = player_calendar_token_renew(player).calendar_token
    url = reverse("series:my_ical")
    assert (
        client.get(url, {"token": token[:-1] + ("A" if token[-1] != "A" else "B")}).status_code
        == 404
    )
    assert client.get(url, {"token": ""}).status_code == 404
    assert client.get(url).status_code == 404
    # A new address: the old one stops working.
    fresh = player_calendar_token_renew(player).calendar_token
    assert client.get(url, {"token": token}).status_code == 404
    assert client.get(url, {"token": fresh}).status_code == 200


# -- results CSV ------------------------------------------------------------------------


def test_an_events_results_as_csv(player_client: Client, season: Season) -> None:
    event = numbered(season, 1)
    response = player_client.get(reverse("series:event_results_csv", args=[event.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert tuple(rows[0]) == RESULTS_CSV_HEADER
    results = list(event.results.order_by("place", "player__name"))
    assert len(rows) == len(results) + 1
    for row, result in zip(rows[1:], results, strict=True):
        assert row[:3] == [str(result.place), result.player.name, str(result.prize)]
        assert row[8] == str(result.paid_in)
        assert row[9] == f"{result.points:.2f}"


def test_an_upcoming_event_has_no_results_csv(player_client: Client, season: Season) -> None:
    event = numbered(season, 6)
    assert (
        player_client.get(reverse("series:event_results_csv", args=[event.pk])).status_code == 404
    )


# -- hands as PHH -----------------------------------------------------------------------


def test_hands_need_a_logged_in_player(client: Client, season: Season) -> None:
    url = reverse("series:event_hands", args=[numbered(season, 1).pk])
    response = client.get(url)
    assert response.status_code == 302 and reverse("login") in response.url


def test_an_event_played_in_person_gives_an_empty_file_with_a_comment(
    player_client: Client, season: Season
) -> None:
    event = numbered(season, 1)
    response = player_client.get(reverse("series:event_hands", args=[event.pk]))
    assert response.status_code == 200
    text = response.content.decode()
    assert text.startswith("# ") and "played in person" in text
    assert tomllib.loads(text) == {}


@pytest.fixture
def online_event(season: Season, director: User, settings) -> tuple[Event, Table, list[User]]:  # type: ignore[no-untyped-def]
    """Event 3 (online) with a live table where three players played two hands."""
    settings.TABLES_SCHEDULE_TASKS = False
    event = numbered(season, 3)
    table = table_services.table_create(
        created_by=director, name="Event 3 table 1", big_blind=2, min_buy_in=40, max_buy_in=200
    )
    TournamentTable.objects.create(
        tournament=Tournament.objects.get(event=event), number=1, live_table=table
    )
    users = make_players("hana", "ivo", "jade")
    for seat, user in enumerate(users, start=1):
        table_services.seat_take(table.pk, user, seat, 100)
    now = None
    for _ in range(2):
        now = deal(table, later(timing.NEXT_HAND_DELAY_SECONDS + 60, base=now))
        play_out(table, now, choose=lambda legal: "fold" if legal["call"] else "check")
    return event, table, users


def test_a_players_online_hands_of_an_event_as_phhs(
    online_event: tuple[Event, Table, list[User]],
) -> None:
    event, table, users = online_event
    client = Client()
    client.force_login(users[0])
    page = client.get(reverse("series:event", args=[event.pk])).content.decode()
    assert event.finished_at and reverse("series:event_hands", args=[event.pk]) in page
    response = client.get(reverse("series:event_hands", args=[event.pk]))
    assert response.status_code == 200
    assert ".phhs" in response["Content-Disposition"]
    text = response.content.decode()
    hands = phh.split_phhs(text)
    assert [h.name for h in hands] == [f"table{table.pk}-hand1", f"table{table.pk}-hand2"]
    assert all(h.error is None and h.data for h in hands)
    # Only what this player could see: their own cards, nobody else's unless shown.
    # Everyone folds to the big blind: nothing is shown, so in each hand exactly one
    # player's hole cards are known, this player's own.
    for hand in hands:
        dealt = [a for a in hand.data["actions"] if a.startswith("d dh")]
        known = [a for a in dealt if "?" not in a.split()[-1]]
        assert len(dealt) == 3 and len(known) == 1


def test_a_player_who_was_not_dealt_in_gets_a_comment_only(
    online_event: tuple[Event, Table, list[User]], player_client: Client
) -> None:
    event, _table, _users = online_event
    text = player_client.get(reverse("series:event_hands", args=[event.pk])).content.decode()
    assert text.startswith("# ") and "no hands" in text
    assert tomllib.loads(text) == {}
