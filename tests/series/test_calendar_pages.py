"""The season list, the season calendar and event pages, for anonymous visitors, players
and directors."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from series import event_sections
from series.models import Event, Player, Season
from tests.series.season_fixture import build_season
from tournaments.event_section import provider
from tournaments.models import Entry, EntryState, Tournament, TournamentState

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(director: User) -> Season:
    return build_season(events=8, players=14, seed=2, director=director)


def numbered(season: Season, number: int) -> Event:
    return Event.objects.get(season=season, number=number)


def test_the_header_links_the_calendar(client: Client) -> None:
    page = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("series:seasons")}"' in page


def test_the_season_list_shows_every_season_and_marks_the_current_one(
    client: Client, season: Season
) -> None:
    today = timezone.localdate()
    old = Season.objects.create(
        name="Omaha 2006", starts_on=today - timedelta(400), ends_on=today - timedelta(300)
    )
    response = client.get(reverse("series:seasons"))
    assert response.status_code == 200
    page = response.content.decode()
    assert season.name in page and "Omaha 2006" in page
    assert reverse("series:season", args=[old.pk]) in page
    assert response.context["current"] == season
    assert "4 of 8 events played" in page


def test_the_calendar_lists_numbered_events_with_everything_a_player_needs(
    player_client: Client, season: Season
) -> None:
    response = player_client.get(reverse("series:season", args=[season.pk]))
    assert response.status_code == 200
    events = response.context["events"]
    assert [e.number for e in events] == list(range(1, 9))
    page = response.content.decode()
    for event in events:
        assert reverse("series:event", args=[event.pk]) in page
        assert event.name in page
    online = numbered(season, 3)
    assert online.venue == "" and "· online" in page
    assert "20+5" in page and "Pot-Limit Omaha Hi/Lo" in page
    assert "does not count" in page  # event 4
    assert "freeroll" in page  # event 7 (past + 3)
    # Finished events name their winner; upcoming ones do not.
    winner = numbered(season, 1).results.get(place=1).player
    profile = reverse("series:player", args=[winner.pk])
    assert f'Won by</span> <a href="{profile}">{winner.name}</a>' in page
    assert response.context["next_event"] == numbered(season, 5)
    assert reverse("series:season_ical", args=[season.pk]) in page
    # No private feed for an anonymous visitor, nor the winners' names.
    page = Client().get(reverse("series:season", args=[season.pk])).content.decode()
    assert "Your own calendar" not in page
    assert f'Won by</span> <a href="{profile}">' not in page and "Played: " in page


def test_the_calendar_offers_a_player_their_own_feed_address(
    player_client: Client, player: User, season: Season
) -> None:
    url = reverse("series:season", args=[season.pk])
    page = player_client.get(url).content.decode()
    assert "Get my calendar address" in page and "?token=" not in page
    response = player_client.post(reverse("series:my_calendar_link"), {"next": url})
    assert response.status_code == 302 and response.url == url
    token = Player.objects.get(user=player).calendar_token
    assert token and len(token) >= 40
    page = player_client.get(url).content.decode()
    assert f"{reverse('series:my_ical')}?token={token}" in page
    # A new address replaces the old one.
    player_client.post(reverse("series:my_calendar_link"), {"next": "https://evil.example/"})
    assert Player.objects.get(user=player).calendar_token != token


def test_an_anonymous_visitor_cannot_make_a_feed_address(client: Client) -> None:
    response = client.post(reverse("series:my_calendar_link"))
    assert response.status_code == 302 and reverse("login") in response.url
    assert not Player.objects.filter(calendar_token__isnull=False).exists()


def test_the_director_sees_add_an_event(director_client: Client, season: Season) -> None:
    page = director_client.get(reverse("series:season", args=[season.pk])).content.decode()
    assert reverse("series:event_new", args=[season.pk]) in page
    assert "/admin/" not in page


def test_unknown_pages_are_404(client: Client) -> None:
    assert client.get(reverse("series:season", args=[999])).status_code == 404
    assert client.get(reverse("series:event", args=[999])).status_code == 404


# -- the event page ---------------------------------------------------------------------


def test_an_upcoming_event_shows_its_line_structure_registered_and_waiting_list(
    client: Client, player_client: Client, season: Season
) -> None:
    event = numbered(season, 5)  # the next one: capacity 10, twelve entries
    visitor = client.get(reverse("series:event", args=[event.pk])).content.decode()
    # A visitor reads how many, and logs in to register, coming back to this page.
    assert "10 registered · 2 waiting" in visitor
    assert f"?next={reverse('series:event', args=[event.pk])}" in visitor
    response = player_client.get(reverse("series:event", args=[event.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert event.name in page and "Event 5" in page and escape(event.venue) in page
    assert event.get_game_display() in page and event.get_structure_display() in page
    assert event.price in page
    assert "Blind structure" in page and "Home PLO8" in page and "300/600" in page
    registered = Entry.objects.filter(tournament__event=event, state=EntryState.REGISTERED)
    waiting = Entry.objects.filter(tournament__event=event, state=EntryState.WAITING)
    assert registered.count() == 10 and waiting.count() == 2
    for entry in [*registered, *waiting]:
        assert entry.player.name in page
    assert "Waiting list" in page and "10 of 10" in page
    assert "Results" not in page


def test_the_seed_event_notes_link_last_years_blind_structure(
    client: Client, season: Season
) -> None:
    event = numbered(season, 2)
    assert (event.name, event.price, event.game_label) == (
        "Series Event 2",
        "20+5",
        "Pot-Limit Omaha Hi/Lo",
    )
    page = client.get(reverse("series:event", args=[event.pk])).content.decode()
    last_time = reverse("series:event", args=[numbered(season, 1).pk])
    assert f'<a href="{last_time}">' in page
    assert "slightly larger starting stack" in page


def test_the_real_2007_event_reads_as_its_seed(client: Client, director: User) -> None:
    """Seed home-series-event-plo8.txt: "2007 Series Event 2 / April 10th / 20+5 Pot Limit
    Omaha/8 / For the blind structure we used last year, click here." """
    tz = timezone.get_current_timezone()
    last_year = Season.objects.create(
        name="2006 Series", starts_on="2006-01-01", ends_on="2006-12-31"
    )
    old = Event.objects.create(
        season=last_year,
        name="2006 Series Event 2",
        number=2,
        starts_at=timezone.datetime(2006, 4, 11, 19, 30, tzinfo=tz),
        buy_in=20,
        fee=5,
    )
    season = Season.objects.create(name="2007 Series", starts_on="2007-01-01", ends_on="2007-12-31")
    event = Event.objects.create(
        season=season,
        name="2007 Series Event 2",
        number=2,
        starts_at=timezone.datetime(2007, 4, 10, 19, 30, tzinfo=tz),
        venue="Ann's kitchen",
        buy_in=20,
        fee=5,
        notes=f"For the blind structure we used last year, see /series/events/{old.pk}/. "
        "We'll probably use something similar, but with a slightly larger starting stack.",
    )
    page = client.get(reverse("series:event", args=[event.pk])).content.decode()
    assert "2007 Series Event 2" in page and "Tuesday 10 April 2007" in page
    assert "20+5" in page and "Pot-Limit" in page and "Omaha Hi/Lo 8-or-better" in page
    assert f'<a href="/series/events/{old.pk}/">' in page


def test_a_player_registers_from_the_event_page_and_comes_back_to_it(
    player_client: Client, player: User, season: Season
) -> None:
    event = numbered(season, 6)
    tournament = Tournament.objects.get(event=event)
    url = reverse("series:event", args=[event.pk])
    page = player_client.get(url).content.decode()
    assert reverse("tournaments:register", args=[tournament.pk]) in page
    assert f'name="next" value="{url}"' in page
    response = player_client.post(
        reverse("tournaments:register", args=[tournament.pk]), {"next": url}
    )
    assert response.status_code == 302 and response.url == url
    page = player_client.get(url).content.decode()
    assert "You are registered." in page and "See you at the table!" in page
    assert Entry.objects.get(tournament=tournament, player__user=player).state == "registered"
    response = player_client.post(
        reverse("tournaments:unregister", args=[tournament.pk]), {"next": url}, follow=True
    )
    assert "You are no longer registered." in response.content.decode()


def test_registration_over_the_field_goes_to_the_waiting_list_once(
    player_client: Client, player: User, season: Season
) -> None:
    event = numbered(season, 5)  # full: ten places taken, two waiting
    tournament = Tournament.objects.get(event=event)
    url = reverse("series:event", args=[event.pk])
    assert "Join the waiting list" in player_client.get(url).content.decode()
    register = reverse("tournaments:register", args=[tournament.pk])
    page = player_client.post(register, {"next": url}, follow=True).content.decode()
    assert "The tournament is full: you are on the waiting list." in page
    assert "You are number 3 on the waiting list." in page
    # Registering again is refused clearly, and nothing changes.
    page = player_client.post(register, {"next": url}, follow=True).content.decode()
    assert "pat is already on the waiting list." in page
    assert Entry.objects.filter(tournament=tournament, player__user=player).count() == 1


def test_registration_after_the_start_is_refused_clearly(
    player_client: Client, player: User, season: Season
) -> None:
    event = numbered(season, 6)
    tournament = Tournament.objects.get(event=event)
    tournament.state = TournamentState.RUNNING
    tournament.started_at = timezone.now()
    tournament.save(update_fields=["state", "started_at"])
    url = reverse("series:event", args=[event.pk])
    page = player_client.get(url).content.decode()
    refusal = "The tournament has started and takes no late registrations."
    assert refusal in page and 'value="Register"' not in page
    response = player_client.post(
        reverse("tournaments:register", args=[tournament.pk]), {"next": url}, follow=True
    )
    assert refusal in response.content.decode()
    assert not Entry.objects.filter(tournament=tournament, player__user=player).exists()


def test_a_finished_event_shows_its_results_table(player_client: Client, season: Season) -> None:
    event = numbered(season, 1)
    event.results.filter(place=2).update(bounties=15)
    response = player_client.get(reverse("series:event", args=[event.pk]))
    page = response.content.decode()
    results = list(event.results.order_by("place"))
    assert [r.place for r in response.context["results"]] == [r.place for r in results]
    for header in ("Place", "Player", "Prize", "Bounties", "KOs", "Rebuys", "Add-ons", "Points"):
        assert f">{header}<" in page
    for result in results:
        profile = reverse("series:player", args=[result.player_id])
        assert f'<a href="{profile}">{result.player.name}</a>' in page
    assert f"{results[0].prize:,}" in page
    assert reverse("series:event_results_csv", args=[event.pk]) in page
    # The tournament's section keeps its structure, without a registration block.
    assert "Blind structure" in page and "Nobody has registered yet." not in page
    assert 'aria-current="step"' not in page and "now: level" not in page
    assert reverse("series:settle_up", args=[event.pk]) in page
    assert reverse("series:standings", args=[season.pk]) in page
    assert reverse("series:event_corrections", args=[event.pk]) not in page  # directors only
    # Played in person: no hands to download.
    assert reverse("series:event_hands", args=[event.pk]) not in page


def test_an_event_left_out_says_so(client: Client, season: Season) -> None:
    page = client.get(reverse("series:event", args=[numbered(season, 4).pk])).content.decode()
    assert "Does not count" in page


def test_the_director_gets_the_console_and_the_event_editor(
    director_client: Client, season: Season
) -> None:
    event = numbered(season, 5)
    tournament = Tournament.objects.get(event=event)
    page = director_client.get(reverse("series:event", args=[event.pk])).content.decode()
    assert reverse("tournaments:console", args=[tournament.pk]) in page
    assert reverse("series:event_edit", args=[event.pk]) in page
    assert "/admin/" not in page
    finished = numbered(season, 1)
    page = director_client.get(reverse("series:event", args=[finished.pk])).content.decode()
    assert reverse("series:event_corrections", args=[finished.pk]) in page


def test_an_event_without_a_tournament(
    client: Client, director_client: Client, season: Season
) -> None:
    event = Event.objects.create(
        season=season, name="Pub night", starts_at=timezone.now() + timedelta(days=2), buy_in=10
    )
    url = reverse("series:event", args=[event.pk])
    page = client.get(url).content.decode()
    assert "Pub night" in page and "Set up the tournament" not in page
    page = director_client.get(url).content.decode()
    assert reverse("tournaments:new", args=[event.pk]) in page


def test_the_event_page_works_without_the_tournaments_provider(
    client: Client, season: Season
) -> None:
    event_sections.unregister(provider)
    try:
        page = client.get(reverse("series:event", args=[numbered(season, 5).pk])).content.decode()
    finally:
        event_sections.register(provider)
    assert "Blind structure" not in page and numbered(season, 5).name in page


def test_the_tournaments_register_their_provider_at_start_up() -> None:
    assert provider in event_sections.providers()


def test_a_finished_event_without_bounties_has_no_bounties_column(
    player_client: Client, season: Season
) -> None:
    event = numbered(season, 1)
    assert not event.results.filter(bounties__gt=0).exists()
    page = player_client.get(reverse("series:event", args=[event.pk])).content.decode()
    assert ">Bounties<" not in page and ">Points<" in page


def test_registering_with_htmx_swaps_the_block_and_keeps_the_way_back(
    player_client: Client, season: Season
) -> None:
    event = numbered(season, 6)
    tournament = Tournament.objects.get(event=event)
    url = reverse("series:event", args=[event.pk])
    response = player_client.post(
        reverse("tournaments:register", args=[tournament.pk]), {"next": url}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    block = response.content.decode()
    assert block.startswith('<section id="registration"')
    assert "You are registered." in block and f'name="next" value="{url}"' in block


def test_a_next_address_off_the_site_is_ignored(player_client: Client, season: Season) -> None:
    tournament = Tournament.objects.get(event=numbered(season, 6))
    response = player_client.post(
        reverse("tournaments:register", args=[tournament.pk]), {"next": "https://evil.example/"}
    )
    assert response.url == tournament.get_absolute_url()


def test_the_season_list_without_seasons(client: Client) -> None:
    page = client.get(reverse("series:seasons")).content.decode()
    assert "No season yet." in page


def test_the_calendars_queries_do_not_grow_with_its_events(
    client: Client, season: Season, django_assert_max_num_queries
) -> None:  # type: ignore[no-untyped-def]
    url = reverse("series:season", args=[season.pk])
    client.get(url)  # warm the session and content types
    with django_assert_max_num_queries(8):
        assert client.get(url).status_code == 200
    bigger = build_season(events=20, players=20, seed=9)
    with django_assert_max_num_queries(8):
        assert client.get(reverse("series:season", args=[bigger.pk])).status_code == 200


def test_the_season_page_shows_the_season_pot_so_far() -> None:
    # "a season pot funded from part of each event's fee".
    from django.test import Client

    from series.models import Result
    from tests.series.season_fixture import build_season

    season = build_season(events=4, players=8, seed=3)
    season.season_pot_per_entry = 5
    season.save()
    finished = Result.objects.filter(event__season=season, event__finished_at__isnull=False)
    entries = finished.count() + sum(finished.values_list("reentries", flat=True))
    page = Client().get(f"/series/seasons/{season.pk}/").content.decode()
    assert f"Season pot: {entries * 5}" in page
