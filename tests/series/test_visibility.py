"""Who sees what: a draft is the directors' alone, the names of who is coming and the
results are for members, and a members-only season shows a visitor nothing.

Every public way out is tried: the pages (home, seasons, calendar, event, standings,
profiles, CSVs), the season's iCal feed and the personal one, the event's shared-link card,
the RSVP post, and the e-mail outbox."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from series.models import Event, Notice, Player, Result, Rsvp, Season, SeasonVisibility
from series.services.accounts import director_grant
from series.services.calendar import player_calendar_token_renew
from series.services.mailings import mailings_due, mailings_send
from series.services.rsvp import rsvp_answer
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

SECRET_NAMES = ("Zorro", "Xavière")


def _user(name: str, email: str = "") -> User:
    user = User.objects.create_user(name, email=email or f"{name}@example.org", password=PASSWORD)
    Player.objects.create(user=user, name=name.capitalize())
    return user


def _client(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _season(visibility: str = SeasonVisibility.MEMBERS_NAMES, name: str = "Spring") -> Season:
    today = timezone.localdate()
    return Season.objects.create(
        name=name,
        starts_on=today - timedelta(days=30),
        ends_on=today + timedelta(days=90),
        visibility=visibility,
    )


def _event(season: Season, name: str, *, days: int = 3, draft: bool = False) -> Event:
    return Event.objects.create(
        season=season,
        name=name,
        starts_at=timezone.now() + timedelta(days=days),
        venue="Chez Ann",
        buy_in=20,
        published_at=None if draft else timezone.now() - timedelta(minutes=1),
    )


def _pages(season: Season, event: Event) -> list[str]:
    return [
        reverse("home"),
        reverse("series:seasons"),
        reverse("series:season", args=[season.pk]),
        reverse("series:event", args=[event.pk]),
        reverse("series:standings", args=[season.pk]),
    ]


@pytest.fixture
def people() -> dict[str, User]:
    director = director_grant(_user("dana"))
    return {
        "director": director,
        "member": _user("mia"),
        "zorro": _user("zorro"),
        "xaviere": _user("xaviere"),
    }


def _names_coming(event: Event, people: dict[str, User]) -> None:
    Player.objects.filter(user=people["zorro"]).update(name=SECRET_NAMES[0])
    Player.objects.filter(user=people["xaviere"]).update(name=SECRET_NAMES[1])
    rsvp_answer(event.pk, people["zorro"], "going")
    rsvp_answer(event.pk, people["xaviere"], "going")


# -- drafts -------------------------------------------------------------------------------


def test_a_draft_is_nowhere_for_visitors_and_members(people: dict[str, User]) -> None:
    season = _season()
    draft = _event(season, "Secret draft night", draft=True)
    for who in (None, people["member"]):
        client = _client(who)
        assert client.get(reverse("series:event", args=[draft.pk])).status_code == 404
        for path in (
            reverse("home"),
            reverse("series:seasons"),
            reverse("series:season", args=[season.pk]),
            reverse("series:season_ical", args=[season.pk]),
        ):
            body = client.get(path).content.decode()
            assert "Secret draft night" not in body, path
        # The season's list counts what the reader sees.
        assert client.get(reverse("series:seasons")).context["seasons"][0].event_count == 0
        # No answer to a draft.
        response = client.post(reverse("series:rsvp", args=[draft.pk]), {"answer": "going"})
        assert response.status_code in (302, 404)
    assert not Rsvp.objects.exists()


def test_a_director_sees_the_draft_marked_as_a_draft(people: dict[str, User]) -> None:
    season = _season()
    draft = _event(season, "Secret draft night", draft=True)
    client = _client(people["director"])
    page = client.get(reverse("series:season", args=[season.pk])).content.decode()
    assert "Secret draft night" in page and "badge-draft" in page
    page = client.get(reverse("series:event", args=[draft.pk])).content.decode()
    assert "badge-draft" in page


def test_a_scheduled_publication_is_a_draft_until_its_time(people: dict[str, User]) -> None:
    season = _season()
    later = _event(season, "Announced tomorrow")
    Event.objects.filter(pk=later.pk).update(published_at=timezone.now() + timedelta(days=1))
    assert Client().get(reverse("series:event", args=[later.pk])).status_code == 404


def test_a_draft_is_in_no_feed_and_no_email(people: dict[str, User]) -> None:
    season = _season()
    draft = _event(season, "Secret draft night", draft=True)
    # Even a player's own feed (a registration made while it was published) leaves it out.
    player = Player.objects.get(user=people["member"])
    player_calendar_token_renew(people["member"])
    player.refresh_from_db()
    feed = Client().get(reverse("series:my_ical") + "?token=" + str(player.calendar_token))
    assert "Secret draft night" not in feed.content.decode()
    # Finished with results, still a draft: no results e-mail either.
    Event.objects.filter(pk=draft.pk).update(
        starts_at=timezone.now() - timedelta(hours=5),
        finished_at=timezone.now() - timedelta(hours=1),
    )
    Result.objects.create(event=draft, player=player, place=1)
    mailings_due()
    assert not Notice.objects.filter(event=draft).exists()
    mailings_send()
    assert not [m for m in mail.outbox if "Secret draft night" in m.subject + m.body]


def test_a_notice_recorded_before_the_event_went_back_to_draft_is_not_sent(
    people: dict[str, User],
) -> None:
    season = _season()
    event = _event(season, "Back to draft")
    mailings_due()
    assert Notice.objects.filter(event=event, kind="invitation").exists()
    Event.objects.filter(pk=event.pk).update(published_at=None)
    mailings_send()
    assert not [m for m in mail.outbox if "Back to draft" in m.subject]


# -- names of who is coming, results ------------------------------------------------------


def test_a_visitor_sees_counts_and_no_name(people: dict[str, User]) -> None:
    season = _season()
    event = _event(season, "Friday night")
    _names_coming(event, people)
    page = Client().get(reverse("series:event", args=[event.pk])).content.decode()
    assert "2 going" in page
    for name in SECRET_NAMES:
        assert name not in page
    # The shared-link card never names anyone (its own test), and a member sees the names.
    page = _client(people["member"]).get(reverse("series:event", args=[event.pk])).content
    assert all(name in page.decode() for name in SECRET_NAMES)


def test_results_standings_and_profiles_are_for_members(people: dict[str, User]) -> None:
    season = _season()
    event = _event(season, "Played night", days=-2)
    winner = Player.objects.get(user=people["zorro"])
    Player.objects.filter(pk=winner.pk).update(name=SECRET_NAMES[0])
    Event.objects.filter(pk=event.pk).update(finished_at=timezone.now() - timedelta(days=1))
    Result.objects.create(event=event, player=winner, place=1, prize=100)
    visitor = Client()
    for path in (
        reverse("series:event", args=[event.pk]),
        reverse("series:season", args=[season.pk]),
        reverse("series:season_ical", args=[season.pk]),
    ):
        assert SECRET_NAMES[0] not in visitor.get(path).content.decode(), path
    for path in (
        reverse("series:player", args=[winner.pk]),
        reverse("series:standings", args=[season.pk]),
        reverse("series:standings_csv", args=[season.pk]),
        reverse("series:event_results_csv", args=[event.pk]),
        reverse("series:season_results_csv", args=[season.pk]),
        reverse("series:event_history", args=[event.pk]),
    ):
        response = visitor.get(path)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], path
    member = _client(people["member"])
    assert SECRET_NAMES[0] in member.get(reverse("series:event", args=[event.pk])).content.decode()
    assert member.get(reverse("series:player", args=[winner.pk])).status_code == 200


def test_a_public_season_shows_the_names_to_everyone(people: dict[str, User]) -> None:
    season = _season(SeasonVisibility.PUBLIC)
    event = _event(season, "Open night")
    _names_coming(event, people)
    page = Client().get(reverse("series:event", args=[event.pk])).content.decode()
    assert all(name in page for name in SECRET_NAMES)


# -- a members-only season ----------------------------------------------------------------


def test_a_members_only_season_shows_a_visitor_nothing(people: dict[str, User]) -> None:
    season = _season(SeasonVisibility.MEMBERS, name="Closed club")
    season.standings_public = True
    season.save(update_fields=["standings_public"])
    event = _event(season, "Club night")
    _names_coming(event, people)
    visitor = Client()
    for path in (reverse("home"), reverse("series:seasons")):
        body = visitor.get(path).content.decode()
        assert "Closed club" not in body and "Club night" not in body, path
    for path in (
        reverse("series:season", args=[season.pk]),
        reverse("series:event", args=[event.pk]),
        reverse("series:standings", args=[season.pk]),
    ):
        response = visitor.get(path)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], path
    assert visitor.get(reverse("series:season_ical", args=[season.pk])).status_code == 404
    assert visitor.get(reverse("series:standings_embed", args=[season.pk])).status_code == 404
    # A member sees all of it.
    member = _client(people["member"])
    for path in _pages(season, event):
        assert member.get(path).status_code == 200, path
    assert "Club night" in member.get(reverse("home")).content.decode()


def test_the_member_feed_keeps_its_token(people: dict[str, User]) -> None:
    season = _season(SeasonVisibility.MEMBERS, name="Closed club")
    _event(season, "Club night")
    assert Client().get(reverse("series:my_ical") + "?token=guess").status_code == 404


def test_seasons_without_dates_in_common_still_list(people: dict[str, User]) -> None:
    # An old public season and a members-only current one: a visitor's "current" season
    # is the one they may see.
    old = Season.objects.create(
        name="Old public", starts_on=date(2020, 1, 1), ends_on=date(2020, 6, 1)
    )
    _season(SeasonVisibility.MEMBERS, name="Closed club")
    response = Client().get(reverse("series:seasons"))
    assert response.context["current"] == old


def test_a_drafts_tournament_pages_are_the_directors(
    tournament: object, director_client: Client
) -> None:
    event = tournament.event  # type: ignore[attr-defined]
    Event.objects.filter(pk=event.pk).update(published_at=None)
    for name in ("tournaments:detail", "tournaments:lobby"):
        url = reverse(name, args=[tournament.pk])  # type: ignore[attr-defined]
        assert Client().get(url).status_code == 404, name
        assert director_client.get(url).status_code == 200, name
    Event.objects.filter(pk=event.pk).update(published_at=timezone.now())
    Season.objects.filter(pk=event.season_id).update(visibility=SeasonVisibility.MEMBERS)
    response = Client().get(reverse("tournaments:detail", args=[tournament.pk]))  # type: ignore[attr-defined]
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_drafts_lobby_fragment_is_the_directors(
    tournament: object, director_client: Client
) -> None:
    event = tournament.event  # type: ignore[attr-defined]
    Event.objects.filter(pk=event.pk).update(published_at=None)
    url = reverse("tournaments:lobby_public", args=[tournament.pk])  # type: ignore[attr-defined]
    assert Client().get(url).status_code == 404
    assert director_client.get(url).status_code == 200


def test_who_registered_for_the_tournament_is_for_members(tournament: object) -> None:
    """The tournament's registrations are "who is coming" too: a visitor reads how many,
    on the night's page, the tournament's page and its lobby, never the names."""
    cache.clear()  # the lobby's fragment of another test's tournament of the same id
    from tournaments.services.entries import entry_register

    people = {
        key: _user(name)
        for key, name in (("member", "mia"), ("zorro", "zorro"), ("xaviere", "xaviere"))
    }
    for user, name in zip((people["zorro"], people["xaviere"]), SECRET_NAMES, strict=True):
        Player.objects.filter(user=user).update(name=name)
        entry_register(tournament.pk, user)  # type: ignore[attr-defined]
    event = tournament.event  # type: ignore[attr-defined]
    pages = [
        reverse("series:event", args=[event.pk]),
        reverse("tournaments:detail", args=[tournament.pk]),  # type: ignore[attr-defined]
        reverse("tournaments:lobby", args=[tournament.pk]),  # type: ignore[attr-defined]
        reverse("tournaments:lobby_public", args=[tournament.pk]),  # type: ignore[attr-defined]
    ]
    for url in pages:
        response = Client().get(url)
        page = response.content.decode()
        assert all(name not in page for name in SECRET_NAMES), url
    event_page = Client().get(pages[0]).content.decode()
    assert "2 registered" in event_page
    member = _client(people["member"])
    for url in pages:
        page = member.get(url).content.decode()
        assert all(name in page for name in SECRET_NAMES), url
    # A season the host made public shows the names to everyone.
    Season.objects.filter(pk=event.season_id).update(visibility=SeasonVisibility.PUBLIC)
    for url in pages:
        page = Client().get(url).content.decode()
        assert all(name in page for name in SECRET_NAMES), url


def test_no_tournament_page_names_the_players_to_a_visitor(tournament: object) -> None:
    """Every tournaments address that takes the tournament alone, as a visitor sees it."""
    cache.clear()  # the lobby's fragment of another test's tournament of the same id
    from django.urls import URLPattern, URLResolver, get_resolver

    from tournaments.services.entries import entry_register

    for name in SECRET_NAMES:
        user = _user(name.lower().replace("è", "e"))
        Player.objects.filter(user=user).update(name=name)
        entry_register(tournament.pk, user)  # type: ignore[attr-defined]

    def walk(patterns: list, namespace: str = "") -> list[str]:
        found = []
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                found += walk(pattern.url_patterns, inner)
            elif isinstance(pattern, URLPattern) and namespace == "tournaments:":
                if re.findall(r"<\w+:(\w+)>", str(pattern.pattern)) == ["tournament_id"]:
                    found.append(f"{namespace}{pattern.name}")
        return found

    names = walk(get_resolver().url_patterns)
    assert "tournaments:lobby" in names and "tournaments:detail" in names
    for url_name in names:
        url = reverse(url_name, args=[tournament.pk])  # type: ignore[attr-defined]
        page = Client().get(url).content.decode()
        assert all(name not in page for name in SECRET_NAMES), url_name
