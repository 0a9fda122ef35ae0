"""The leaderboard page, its chart and CSV, and the director's scoring settings."""

from datetime import date
from html import unescape
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from series.models import PointsFormula, Season, Standing
from series.services.standings import standings_recompute
from tests.series.season_fixture import build_season


@pytest.fixture
def season(db: None) -> Season:
    season = build_season(events=10, players=16, seed=5)
    standings_recompute(season.pk)
    return season


def test_the_leaderboard_shows_every_player_with_a_chart(
    player_client: Client, season: Season
) -> None:
    response = player_client.get(reverse("series:standings", args=[season.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    lines = list(Standing.objects.filter(season=season).order_by("rank"))
    for line in lines:
        assert line.player.name in html
    assert html.count("<polyline") == min(8, len([s for s in lines if s.events]))
    assert "<svg" in html and "chart-legend" in html
    assert "▲" in html or "▼" in html or "—" in html
    assert reverse("series:standings_csv", args=[season.pk]) in html
    # Directors only: the settings link.
    assert reverse("series:scoring", args=[season.pk]) not in html


def test_an_empty_season_says_so(player_client: Client, db: None) -> None:
    season = Season.objects.create(
        name="Empty", starts_on=date(2026, 1, 1), ends_on=date(2026, 2, 1)
    )
    response = player_client.get(reverse("series:standings", args=[season.pk]))
    assert response.status_code == 200 and "No standings yet." in response.content.decode()


def test_the_csv_download_is_the_commands_output(player_client: Client, season: Season) -> None:
    response = player_client.get(reverse("series:standings_csv", args=[season.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    import io

    out = io.StringIO()
    call_command("standings", "--season", str(season.pk), "--csv", stdout=out)
    assert response.content.decode() == out.getvalue()


def test_scoring_settings_are_for_directors_only(
    client: Client, player_client: Client, season: Season
) -> None:
    url = reverse("series:scoring", args=[season.pk])
    assert client.get(url).status_code == 302
    assert player_client.get(url).status_code == 403
    assert player_client.post(url, {"save": "1"}).status_code == 403


def form(**overrides: Any) -> dict[str, Any]:
    data = {
        "points_formula": PointsFormula.SQUARE_ROOT,
        "place_points": "",
        "custom_formula": "",
        "best_of": "",
        "min_events": "0",
        "min_field": "4",
    }
    data.update(overrides)
    return data


def test_the_preview_shows_points_and_saves_nothing(
    director_client: Client, season: Season
) -> None:
    url = reverse("series:scoring", args=[season.pk])
    assert director_client.get(url).status_code == 200
    response = director_client.post(
        url,
        form(points_formula=PointsFormula.PLACES, place_points="25, 18, 15, 12, 10", preview="1"),
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Preview: these settings" in html and "25.00" in html and "18.00" in html
    season.refresh_from_db()
    assert season.points_formula == PointsFormula.SQUARE_ROOT and season.place_points == []


def test_a_bad_formula_is_refused_with_its_column(director_client: Client, season: Season) -> None:
    url = reverse("series:scoring", args=[season.pk])
    response = director_client.post(
        url, form(points_formula=PointsFormula.CUSTOM, custom_formula="n + x", save="1")
    )
    assert response.status_code == 200
    assert "unknown name 'x' at column 5" in unescape(response.content.decode())
    season.refresh_from_db()
    assert season.points_formula == PointsFormula.SQUARE_ROOT


def test_a_refused_formula_shows_one_error(director_client: Client, season: Season) -> None:
    # The stored formula is empty: the refusal is of the text typed, and says only that.
    url = reverse("series:scoring", args=[season.pk])
    response = director_client.post(
        url, form(points_formula=PointsFormula.CUSTOM, custom_formula="if(k, 1)", save="1")
    )
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert errors == {"custom_formula": ["if takes 3 arguments, not 2, at column 1"]}
    assert "the formula is empty" not in response.content.decode()
    season.refresh_from_db()
    assert season.points_formula == PointsFormula.SQUARE_ROOT


def test_an_empty_formula_is_refused_once(director_client: Client, season: Season) -> None:
    url = reverse("series:scoring", args=[season.pk])
    response = director_client.post(url, form(points_formula=PointsFormula.CUSTOM, save="1"))
    assert response.context["form"].errors == {"custom_formula": ["the formula is empty"]}
    assert response.content.decode().count("the formula is empty") == 1


def test_a_formula_failing_on_a_real_result_names_it(
    director_client: Client, season: Season
) -> None:
    url = reverse("series:scoring", args=[season.pk])
    response = director_client.post(
        url, form(points_formula=PointsFormula.CUSTOM, custom_formula="100 / (k - 1)", save="1")
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "(place 1): division by zero at column 5" in html
    season.refresh_from_db()
    assert season.custom_formula == ""


def test_saving_re_scores_and_shows_what_moved(director_client: Client, season: Season) -> None:
    url = reverse("series:scoring", args=[season.pk])
    before = dict(Standing.objects.filter(season=season).values_list("player__name", "rank"))
    response = director_client.post(
        url,
        form(points_formula=PointsFormula.CUSTOM, custom_formula="knockouts * 10 + 1", save="1"),
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.custom_formula == "knockouts * 10 + 1"
    after = dict(Standing.objects.filter(season=season).values_list("player__name", "rank"))
    html = director_client.get(url).content.decode()
    assert "Saved: the season is re-scored" in html
    moved = [name for name in after if after[name] != before.get(name)]
    assert moved
    for name in moved:
        assert f"<strong>{name}</strong>" in html
    # Shown once: a reload does not repeat it.
    assert "Saved: the season is re-scored" not in director_client.get(url).content.decode()


def test_place_points_must_be_numbers(director_client: Client, season: Season) -> None:
    url = reverse("series:scoring", args=[season.pk])
    response = director_client.post(
        url, form(points_formula=PointsFormula.PLACES, place_points="25, lots", save="1")
    )
    assert "'lots' (place 2) is not a number." in unescape(response.content.decode())


def test_the_form_shows_place_points_as_typed(director_client: Client, season: Season) -> None:
    season.place_points = [25, 18.5, 15]
    season.save(update_fields=["place_points"])
    html = director_client.get(reverse("series:scoring", args=[season.pk])).content.decode()
    assert 'value="25, 18.5, 15"' in html
    Season.objects.filter(pk=season.pk).update(place_points=[])
    html = director_client.get(reverse("series:scoring", args=[season.pk])).content.decode()
    assert 'name="place_points" value="[]"' not in html


def test_the_admin_refuses_a_bad_formula_too(db: None) -> None:
    from django.core.exceptions import ValidationError

    season = Season(
        name="S",
        starts_on=date(2026, 1, 1),
        ends_on=date(2026, 2, 1),
        points_formula=PointsFormula.CUSTOM,
        custom_formula="n + x",
    )
    with pytest.raises(ValidationError) as error:
        season.full_clean()
    assert error.value.message_dict["custom_formula"] == ["unknown name 'x' at column 5"]


def test_saving_a_season_in_the_admin_re_scores_it(
    client: Client, season: Season, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    from django.contrib.auth.models import User

    settings.SERIES_STANDINGS_INLINE = True
    admin = User.objects.create_superuser("root", password="x-y-z-1-2-3")
    client.force_login(admin)
    Standing.objects.filter(season=season).delete()
    url = reverse("admin:series_season_change", args=[season.pk])
    data = {
        "name": season.name,
        "starts_on": season.starts_on.isoformat(),
        "ends_on": season.ends_on.isoformat(),
        "description": "",
        "points_formula": PointsFormula.SQUARE_ROOT,
        "place_points": "[]",
        "custom_formula": "",
        "best_of": "",
        "min_events": "0",
        "min_field": "4",
        "season_pot_per_entry": "0",
        "visibility": "members_names",
        "events-TOTAL_FORMS": "0",
        "events-INITIAL_FORMS": "0",
        "events-MIN_NUM_FORMS": "0",
        "events-MAX_NUM_FORMS": "1000",
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Standing.objects.filter(season=season).exists()


def test_a_stored_formula_failing_on_a_new_result_is_shown(
    director_client: Client, season: Season
) -> None:
    # Stored directly, as if a result that came in after the formula was saved broke it.
    Season.objects.filter(pk=season.pk).update(
        points_formula=PointsFormula.CUSTOM, custom_formula="10 / (k - 1)"
    )
    html = director_client.get(reverse("series:scoring", args=[season.pk])).content.decode()
    assert "The season's formula fails on a result" in html
    assert "(place 1): division by zero at column 4" in html
