"""A season's leaderboard on another site: the embed page, only when the director made the
standings public, framed anywhere and without the site's header; the switch on the scoring
page and the code to paste on the standings page."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from series.models import Player, Season, Standing
from series.services.standings import standings_recompute
from tests.series.season_fixture import build_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(director: User) -> Season:
    season = build_season(events=5, players=10, seed=3, director=director)
    standings_recompute(season.pk)
    for player in Player.objects.filter(user__isnull=False).select_related("user"):
        player.user.email = f"{player.user.username}@example.org"
        player.user.save(update_fields=["email"])
    return season


def embed_url(season: Season) -> str:
    return reverse("series:standings_embed", args=[season.pk])


def public(season: Season) -> Season:
    Season.objects.filter(pk=season.pk).update(standings_public=True)
    season.refresh_from_db()
    return season


def test_a_season_is_private_until_the_director_says_so(season: Season) -> None:
    assert season.standings_public is False


def test_private_standings_have_no_embed_page(client: Client, season: Season) -> None:
    assert client.get(embed_url(season)).status_code == 404


def test_an_unknown_season_has_no_embed_page(client: Client, season: Season) -> None:
    assert client.get(reverse("series:standings_embed", args=[season.pk + 99])).status_code == 404


def test_public_standings_show_without_the_sites_header(client: Client, season: Season) -> None:
    response = client.get(embed_url(public(season)))
    assert response.status_code == 200
    page = response.content.decode()
    leader = Standing.objects.filter(season=season).order_by("rank").first()
    assert leader is not None and leader.player.name in page
    assert '<table class="leaderboard' in page
    assert "site-header" not in page and "<nav" not in page and "<form" not in page
    # Links leave the frame.
    assert 'target="_blank" rel="noopener"' in page
    assert "@example.org" not in page


def test_the_embed_page_may_be_framed_and_no_other_page(client: Client, season: Season) -> None:
    public(season)
    assert "X-Frame-Options" not in client.get(embed_url(season)).headers
    for path in (
        reverse("series:standings", args=[season.pk]),
        reverse("home"),
        reverse("series:season", args=[season.pk]),
    ):
        assert client.get(path)["X-Frame-Options"] == "DENY"


def test_the_embed_page_takes_only_get(client: Client, season: Season) -> None:
    assert client.post(embed_url(public(season))).status_code == 405


def test_the_director_makes_the_standings_public_on_the_scoring_page(
    director_client: Client, season: Season
) -> None:
    scoring = reverse("series:scoring", args=[season.pk])
    page = director_client.get(scoring).content.decode()
    assert 'name="standings_public"' in page
    response = director_client.post(scoring, {"share": "1", "standings_public": "on"})
    assert response.status_code == 302
    assert response["Location"] == reverse("series:standings", args=[season.pk])
    season.refresh_from_db()
    assert season.standings_public
    # Nothing else of the season changed: sharing re-scores nothing.
    assert Standing.objects.filter(season=season).exists()
    response = director_client.post(scoring, {"share": "1"})
    assert response["Location"] == scoring
    season.refresh_from_db()
    assert not season.standings_public


def test_a_player_cannot_make_the_standings_public(player_client: Client, season: Season) -> None:
    scoring = reverse("series:scoring", args=[season.pk])
    response = player_client.post(scoring, {"share": "1", "standings_public": "on"})
    assert response.status_code == 403
    season.refresh_from_db()
    assert not season.standings_public


def test_anonymous_visitors_cannot_make_the_standings_public(
    client: Client, season: Season
) -> None:
    scoring = reverse("series:scoring", args=[season.pk])
    response = client.post(scoring, {"share": "1", "standings_public": "on"})
    assert response.status_code == 302
    season.refresh_from_db()
    assert not season.standings_public


def test_a_tampered_switch_value_is_a_plain_no(director_client: Client, season: Season) -> None:
    scoring = reverse("series:scoring", args=[season.pk])
    public(season)
    response = director_client.post(scoring, {"share": "1", "standings_public": "false"})
    assert response.status_code == 302
    season.refresh_from_db()
    assert not season.standings_public


def test_the_director_gets_the_code_to_paste_when_public(
    director_client: Client, player_client: Client, season: Season
) -> None:
    standings = reverse("series:standings", args=[season.pk])
    assert "<iframe" not in director_client.get(standings).content.decode()
    public(season)
    page = director_client.get(standings).content.decode()
    assert f"&lt;iframe src=&quot;http://testserver{embed_url(season)}&quot;" in page
    # Players see the leaderboard, not the director's tools.
    assert "&lt;iframe" not in player_client.get(standings).content.decode()
