"""What the TV shows, as the director chooses from the console: payouts, chip counts and the
levels coming up on or off, and a theme (dark, light, high contrast, green felt). The change
is a console action like the others (one-time token, logged, undone by Undo) and reaches the
screens at once. Colour-ups are announced at the level change that makes a chip useless."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace as Row

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.factories import start
from tests.tournaments.levels import LEVEL_5, LEVEL_6
from tournaments import colour_ups
from tournaments.errors import TournamentError
from tournaments.models import ActionKind, Tournament, TournamentAction
from tournaments.services import tv, undo
from tournaments.views.once import FIELD

from .tv_html import clock_text, find, shown, tv_json, tv_page

pytestmark = pytest.mark.django_db

TOKEN = "tv-layout-form-token-0001"


def layout_url(tournament: Tournament) -> str:
    return reverse("tournaments:tv_layout", args=[tournament.pk])


@pytest.fixture
def running(tournament: Tournament) -> Tournament:
    start(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(
        level_ends_at=timezone.now() + timedelta(minutes=10)
    )
    tournament.refresh_from_db()
    return tournament


def post_layout(client: Client, tournament: Tournament, token: str = TOKEN, **values: str):  # type: ignore[no-untyped-def]
    data = {FIELD: token, "theme": "dark", "show_payouts": "on", "show_next_levels": "on"}
    data.update(values)
    return client.post(layout_url(tournament), {k: v for k, v in data.items() if v is not None})


# ---------------------------------------------------------------------------- the console


def test_the_default_tv_shows_everything_in_the_dark_theme(
    client: Client, running: Tournament
) -> None:
    html = tv_page(client, running)
    (root,) = find(html, "data-clock-root")
    assert root.attrs["data-theme"] == "dark"
    assert shown(html, "data-tv", "payouts")
    assert shown(html, "data-tv", "coming")
    layout = tv_json(client, running)["tv"]["layout"]
    assert layout == {
        "theme": "dark",
        "show_payouts": True,
        "show_chips": True,
        "show_next_levels": True,
    }


def test_the_console_offers_the_tv_layout_form_with_a_one_time_token(
    director_client: Client, running: Tournament
) -> None:
    html = director_client.get(reverse("tournaments:console", args=[running.pk])).content.decode()
    form = html.split(f'action="{layout_url(running)}"')[1].split("</form>")[0]
    assert f'name="{FIELD}"' in form
    for name in ("theme", "show_payouts", "show_chips", "show_next_levels"):
        assert f'name="{name}"' in form
    for theme in ("dark", "light", "contrast", "felt"):
        assert f'value="{theme}"' in form


def test_a_director_picks_the_layout_and_the_theme(
    director_client: Client, client: Client, running: Tournament
) -> None:
    response = post_layout(director_client, running, theme="felt", show_payouts=None)
    assert response.status_code == 302

    running.refresh_from_db()
    assert (running.tv_theme, running.tv_show_payouts, running.tv_show_chips) == (
        "felt",
        False,
        False,
    )
    assert running.tv_show_next_levels is True
    action = TournamentAction.objects.get(tournament=running, kind=ActionKind.TV)
    assert action.once_token == TOKEN
    assert action.summary_text == "TV: green felt theme; payouts off, chip counts off"

    html = tv_page(client, running)
    (root,) = find(html, "data-clock-root")
    assert root.attrs["data-theme"] == "felt"
    assert not shown(html, "data-tv", "payouts")
    assert shown(html, "data-tv", "coming")
    assert tv_json(client, running)["tv"]["layout"]["theme"] == "felt"


def test_the_layout_form_answers_htmx_with_its_section(
    director_client: Client, running: Tournament
) -> None:
    response = director_client.post(
        layout_url(running),
        {FIELD: TOKEN, "theme": "light", "show_payouts": "on"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="console-tv"' in html
    assert 'value="light" selected' in html
    assert response["HX-Trigger"] == "tournament-changed"


def test_the_same_form_twice_records_once(director_client: Client, running: Tournament) -> None:
    post_layout(director_client, running, theme="light")
    response = post_layout(director_client, running, theme="contrast")
    running.refresh_from_db()
    assert running.tv_theme == "light"
    assert TournamentAction.objects.filter(tournament=running, kind=ActionKind.TV).count() == 1
    assert response.status_code == 302


def test_undo_puts_the_layout_back(
    director_client: Client, director: User, running: Tournament
) -> None:
    post_layout(director_client, running, theme="contrast", show_next_levels=None)
    undo.action_undo_last(running.pk, by=director)
    running.refresh_from_db()
    assert (running.tv_theme, running.tv_show_next_levels) == ("dark", True)


@pytest.mark.parametrize("theme", ["", "neon", "dark<script>", "x" * 500])
def test_an_unknown_theme_is_refused_and_changes_nothing(
    director_client: Client, running: Tournament, theme: str
) -> None:
    response = director_client.post(
        layout_url(running), {FIELD: TOKEN, "theme": theme}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200  # htmx swaps the TV section with the reason
    assert "Choose one of the themes" in response.content.decode()
    running.refresh_from_db()
    assert (running.tv_theme, running.tv_show_payouts) == ("dark", True)
    assert not TournamentAction.objects.filter(tournament=running, kind=ActionKind.TV).exists()


def test_the_service_refuses_an_unknown_theme(director: User, running: Tournament) -> None:
    with pytest.raises(TournamentError, match="Choose one of the themes"):
        tv.tv_layout_set(
            running.pk,
            theme="neon",
            show_payouts=True,
            show_chips=True,
            show_next_levels=True,
            by=director,
        )


def test_players_may_not_change_the_layout(
    player_client: Client, client: Client, running: Tournament
) -> None:
    assert post_layout(player_client, running).status_code == 403
    response = post_layout(client, running)
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert director_get_is_refused(player_client, running)
    running.refresh_from_db()
    assert not TournamentAction.objects.filter(tournament=running, kind=ActionKind.TV).exists()


def director_get_is_refused(client: Client, tournament: Tournament) -> bool:
    return client.get(layout_url(tournament)).status_code in (403, 405)


# ---------------------------------------------------------------------------- chip counts


def test_chip_counts_show_only_when_the_layout_says_so(
    director_client: Client, client: Client, running: Tournament
) -> None:
    assert find(tv_page(client, running), "data-tv", "chips")
    post_layout(director_client, running, show_chips=None)
    assert not find(tv_page(client, running), "data-tv", "chips")


# ---------------------------------------------------------------------------- colour-ups


def test_a_colour_up_is_derived_from_the_chip_set() -> None:
    rows = [
        Row(kind="level", minutes=20, small_blind=25, big_blind=50),
        Row(kind="level", minutes=20, small_blind=50, big_blind=100),
        Row(kind="level", minutes=20, small_blind=100, big_blind=200),
        Row(kind="break", minutes=10),
        Row(kind="level", minutes=20, small_blind=200, big_blind=400),
        Row(kind="level", minutes=20, small_blind=500, big_blind=1000),
    ]
    # 50 needs the 25s (no 50 chip); 100/200 is the first level without them; 500/1000
    # the first without the 100s.
    assert colour_ups.colour_ups(rows, [25, 100, 500, 1000]) == ((), (), (25,), (), (), (100,))


def test_chips_raced_off_at_a_break_are_not_announced_again() -> None:
    rows = [
        Row(kind="level", minutes=20, small_blind=25, big_blind=50),
        Row(kind="level", minutes=20, small_blind=100, big_blind=200),
        Row(kind="break", minutes=10, colour_up=[25]),
        Row(kind="level", minutes=20, small_blind=200, big_blind=400),
    ]
    assert colour_ups.colour_ups(rows, [25, 100, 500]) == ((), (), (), ())


def test_without_a_chip_set_the_usual_denominations_are_assumed() -> None:
    rows = [
        Row(kind="level", minutes=20, small_blind=25, big_blind=50, ante=0),
        Row(kind="level", minutes=20, small_blind=75, big_blind=150, ante=150),
        Row(kind="level", minutes=20, small_blind=100, big_blind=200, ante=200),
        Row(kind="level", minutes=20, small_blind=150, big_blind=300, ante=300),
        Row(kind="level", minutes=20, small_blind=200, big_blind=400, ante=400),
    ]
    # 150 still needs the 25s (100 + 25 + 25): they go at 200/400, not at 100/200.
    assert colour_ups.colour_ups(rows, []) == ((), (), (), (), (25,))


def test_the_colour_up_is_announced_at_the_level_change(
    client: Client, running: Tournament
) -> None:
    # The structure: ... 150/300 (level 5, still the 25s), break, 200/400 (level 6).
    Tournament.objects.filter(pk=running.pk).update(level_index=LEVEL_5)
    html = tv_page(client, running)
    assert not shown(html, "data-clock", "colour-up")
    assert tv_json(client, running)["tv"]["colour_up"] == []

    Tournament.objects.filter(pk=running.pk).update(level_index=LEVEL_6)
    html = tv_page(client, running)
    assert clock_text(html, "colour-up") == "Colour-up: the 25 chips are no longer used"
    assert shown(html, "data-clock", "colour-up")
    assert tv_json(client, running)["tv"]["colour_up"] == [25]


# ---------------------------------------------------------------------------- the themes


@pytest.mark.parametrize("theme", ["dark", "light", "contrast", "felt"])
def test_every_theme_has_its_colours(theme: str) -> None:
    from pathlib import Path

    from django.conf import settings

    css = (Path(settings.BASE_DIR) / "static" / "tournaments" / "clock.css").read_text()
    assert f'.tv[data-theme="{theme}"]' in css or theme == "dark"


def test_the_colour_up_module_example_holds() -> None:
    import doctest

    assert doctest.testmod(colour_ups).failed == 0
