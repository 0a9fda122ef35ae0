"""The structure editor's pages and htmx endpoints: directors only, every change through the
services, and bad input shown beside the row with nothing changed."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from series.models import Season
from tests.tournaments.factories import make_tournament
from tournaments.models import BlindLevel, BlindStructure
from tournaments.services import blind_structures as services

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def edit_url(blind_structure: BlindStructure) -> str:
    return reverse("tournaments:blind_structure_edit", args=[blind_structure.pk])


def row_url(blind_structure: BlindStructure, position: int) -> str:
    level = blind_structure.levels.get(position=position)
    return reverse("tournaments:blind_structure_row", args=[blind_structure.pk, level.pk])


def blinds(blind_structure: BlindStructure) -> list[str]:
    return [
        "break" if row.is_break else f"{row.small_blind}/{row.big_blind}"
        for row in services.blind_structure_rows(blind_structure)
    ]


def text(response) -> str:  # type: ignore[no-untyped-def]
    """The visible text, whitespace squeezed, for assertions on what a person reads."""
    html = response.content.decode()
    html = re.sub(r"<[^>]+>", " ", html)
    return re.sub(r"\s+", " ", html)


# Who may open it ----------------------------------------------------------------------------


def test_players_get_403_on_every_blind_structure_page_and_action(
    player_client: Client, home_blind_structure: BlindStructure
) -> None:
    before = blinds(home_blind_structure)
    for url in [
        reverse("tournaments:blind_structure_list"),
        reverse("tournaments:blind_structure_new"),
        edit_url(home_blind_structure),
        row_url(home_blind_structure, 1),
    ]:
        assert player_client.get(url).status_code == 403
        assert player_client.post(url, {"op": "remove"}, **HTMX).status_code == 403
    assert (
        player_client.post(
            reverse("tournaments:blind_structure_new"), {"source": "blank", "blank-name": "Mine"}
        ).status_code
        == 403
    )
    assert blinds(home_blind_structure) == before
    assert not BlindStructure.objects.filter(name="Mine").exists()


def test_anonymous_visitors_are_sent_to_log_in(client: Client) -> None:
    response = client.get(reverse("tournaments:blind_structure_list"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_director_dashboard_links_to_the_blind_structures(director_client: Client) -> None:
    page = director_client.get(reverse("director_dashboard")).content.decode()
    assert reverse("tournaments:blind_structure_list") in page


# The list and the new page ------------------------------------------------------------------


def test_the_list_shows_the_templates_and_the_directors_blind_structures(
    director_client: Client,
    builtin_templates: list[BlindStructure],
    home_blind_structure: BlindStructure,
) -> None:
    page = text(director_client.get(reverse("tournaments:blind_structure_list")))
    assert "Your blind structures" in page and "Tuesday PLO8" in page
    assert "Built-in templates" in page
    for name in ("Home series PLO8", "Limit Omaha/8", "Turbo"):
        assert name in page
    assert "5 levels · 1 break" in page


def test_the_list_offers_the_blind_structure_used_last_time(
    director: User,
    director_client: Client,
    home_blind_structure: BlindStructure,
    long_season: Season,
) -> None:
    make_tournament(long_season, home_blind_structure, by=director, starts_in=-timedelta(days=7))
    page = text(director_client.get(reverse("tournaments:blind_structure_list")))
    assert "Copy the one we used last time (Tuesday PLO8)" in page
    response = director_client.post(reverse("tournaments:blind_structure_new"), {"source": "last"})
    copy = BlindStructure.objects.get(name="Copy of Tuesday PLO8")
    assert response.status_code == 302 and response["Location"] == edit_url(copy)
    assert blinds(copy) == blinds(home_blind_structure)


def test_copy_last_used_without_any_tournament_says_so(director_client: Client) -> None:
    response = director_client.post(
        reverse("tournaments:blind_structure_new"), {"source": "last"}, follow=True
    )
    assert "No tournament has used a blind structure yet." in text(response)


def test_the_new_page_offers_four_ways_to_start(
    director_client: Client, builtin_templates: list[BlindStructure]
) -> None:
    page = text(director_client.get(reverse("tournaments:blind_structure_new")))
    for heading in (
        "Start from a template",
        "The one we used last time",
        "Blank",
        "Let the generator propose one",
    ):
        assert heading in page


def test_a_blank_blind_structure_from_the_form(director: User, director_client: Client) -> None:
    response = director_client.post(
        reverse("tournaments:blind_structure_new"),
        {
            "source": "blank",
            "blank-name": "Fresh",
            "blank-betting": "limit",
            "blank-chip_set": "25 100",
        },
    )
    blind_structure = BlindStructure.objects.get(name="Fresh")
    assert response["Location"] == edit_url(blind_structure)
    assert blind_structure.for_limit and blind_structure.chip_set == [25, 100]
    assert blind_structure.created_by == director


def test_a_copy_of_a_template_from_the_form(
    director_client: Client, builtin_templates: list[BlindStructure]
) -> None:
    template = next(t for t in builtin_templates if t.name == "Turbo")
    director_client.post(
        reverse("tournaments:blind_structure_new"),
        {
            "source": "template",
            "template-blind_structure": template.pk,
            "template-name": "Fast one",
        },
    )
    assert blinds(BlindStructure.objects.get(name="Fast one")) == blinds(template)


def test_the_generator_form_creates_a_proposal(director_client: Client) -> None:
    response = director_client.post(
        reverse("tournaments:blind_structure_new"),
        {
            "source": "generate",
            "gen-name": "Proposed",
            "gen-betting": "pot-limit",
            "gen-starting_stack": "10000",
            "gen-players": "10",
            "gen-hours": "4",
            "gen-chip_set": "25, 100, 500, 1000",
            "gen-level_minutes": "20",
            "gen-break_every": "4",
            "gen-break_minutes": "10",
            "gen-ante_kind": "none",
        },
    )
    blind_structure = BlindStructure.objects.get(name="Proposed")
    assert response["Location"] == edit_url(blind_structure)
    assert blinds(blind_structure)[0] == "50/100"


def test_the_generator_refuses_a_stack_the_chips_cannot_make(director_client: Client) -> None:
    before = BlindStructure.objects.count()
    response = director_client.post(
        reverse("tournaments:blind_structure_new"),
        {
            "source": "generate",
            "gen-name": "Odd",
            "gen-betting": "pot-limit",
            "gen-starting_stack": "10010",
            "gen-players": "10",
            "gen-hours": "4",
            "gen-chip_set": "25, 100",
            "gen-level_minutes": "20",
            "gen-break_every": "4",
            "gen-break_minutes": "10",
            "gen-ante_kind": "none",
        },
    )
    assert response.status_code == 400
    assert "The starting stack 10010 cannot be made with these chips" in text(response)
    assert BlindStructure.objects.count() == before


# The editor ---------------------------------------------------------------------------------


def test_the_editor_numbers_levels_without_breaks_and_shows_clock_times(
    director_client: Client, home_blind_structure: BlindStructure
) -> None:
    response = director_client.get(
        edit_url(home_blind_structure),
        {"preview_start": "2026-04-10T19:30", "preview_players": "10", "preview_stack": "800"},
    )
    page = text(response)
    assert response.status_code == 200
    rows = re.findall(r"(\d\d:\d\d) (Level \d|Break)", page)
    assert rows == [
        ("19:30", "Level 1"),
        ("19:50", "Level 2"),
        ("20:10", "Level 3"),
        ("20:30", "Break"),
        ("20:40", "Level 4"),
        ("21:00", "Level 5"),
    ]
    # 10 x 800 chips: the big blind reaches 400 (a twentieth) in level 4, ending 21:00.
    assert "Expected finish Fri 10 Apr, 21:00 (1 h 30 min)" in page
    assert "Last level ends Fri 10 Apr, 21:20" in page


def test_the_preview_defaults_to_the_next_events_start(
    director: User,
    director_client: Client,
    home_blind_structure: BlindStructure,
    long_season: Season,
) -> None:
    tournament = make_tournament(
        long_season, home_blind_structure, by=director, starts_in=timedelta(days=3), name="Event 2"
    )
    page = text(director_client.get(edit_url(home_blind_structure)))
    start = tournament.event.starts_at
    assert f"Starts {start:%a} {start.day} {start:%b}, {start:%H:%M}" in page
    assert "Defaults from the next event: Event 2." in page


def test_an_htmx_preview_returns_only_the_rows(
    director_client: Client, home_blind_structure: BlindStructure
) -> None:
    response = director_client.get(
        edit_url(home_blind_structure),
        {"preview_start": "2026-04-10T18:00", "preview_players": "10", "preview_stack": "1000"},
        **HTMX,
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="blind-structure-rows"')
    assert "<html" not in html
    assert "18:00" in html


def test_adding_a_level_with_htmx_returns_the_new_rows(
    director_client: Client, home_blind_structure: BlindStructure
) -> None:
    response = director_client.post(edit_url(home_blind_structure), {"op": "add-level"}, **HTMX)
    assert response.status_code == 200
    assert "Level 6" in text(response)
    assert blinds(home_blind_structure)[-1] == "500/1000"


def test_adding_a_break_without_javascript_redirects_back(
    director_client: Client, home_blind_structure: BlindStructure
) -> None:
    response = director_client.post(edit_url(home_blind_structure), {"op": "add-break"})
    assert response.status_code == 302 and response["Location"] == edit_url(home_blind_structure)
    assert blinds(home_blind_structure)[-1] == "break"


def test_inserting_a_break_below_a_row(
    director_client: Client, home_blind_structure: BlindStructure
) -> None:
    director_client.post(row_url(home_blind_structure, 1), {"op": "add-break"}, **HTMX)
    assert blinds(home_blind_structure)[:3] == ["25/50", "break", "50/100"]


def test_removing_a_row(director_client: Client, home_blind_structure: BlindStructure) -> None:
    response = director_client.post(row_url(home_blind_structure, 2), {"op": "remove"}, **HTMX)
    assert response.status_code == 200
    assert blinds(home_blind_structure) == ["25/50", "100/200", "break", "200/400", "300/600"]


def test_reordering_rows(director_client: Client, home_blind_structure: BlindStructure) -> None:
    director_client.post(row_url(home_blind_structure, 4), {"op": "down"}, **HTMX)
    assert blinds(home_blind_structure) == [
        "25/50",
        "50/100",
        "100/200",
        "200/400",
        "break",
        "300/600",
    ]
    director_client.post(row_url(home_blind_structure, 5), {"op": "up"})
    assert blinds(home_blind_structure) == [
        "25/50",
        "50/100",
        "100/200",
        "break",
        "200/400",
        "300/600",
    ]


def test_a_refused_move_shows_its_message_and_changes_nothing(
    director_client: Client, home_blind_structure: BlindStructure
) -> None:
    response = director_client.post(row_url(home_blind_structure, 1), {"op": "up"}, **HTMX)
    assert "Level 1 is already the first row." in text(response)
    response = director_client.post(row_url(home_blind_structure, 4), {"op": "up"})
    director_client.post(row_url(home_blind_structure, 3), {"op": "up"})  # the break, now 3rd
    before = blinds(home_blind_structure)
    response = director_client.post(row_url(home_blind_structure, 3), {"op": "up"}, follow=True)
    assert "Level 2: the small blind 50 cannot be made with the chips in play" in text(response)
    assert blinds(home_blind_structure) == before


def test_editing_a_row_in_place(
    director_client: Client, home_blind_structure: BlindStructure
) -> None:
    url = row_url(home_blind_structure, 2)
    form = director_client.get(url, {"edit": "1"}, **HTMX)
    html = form.content.decode()
    assert html.lstrip().startswith("<li")
    assert 'name="small_blind" value="50"' in html and 'name="op" value="save"' in html
    response = director_client.post(
        url,
        {
            "op": "save",
            "minutes": "25",
            "small_blind": "50",
            "big_blind": "100",
            "ante_kind": "each",
            "ante": "25",
        },
        **HTMX,
    )
    assert response.status_code == 200
    level = home_blind_structure.levels.get(position=2)
    assert (level.minutes, level.ante_kind, level.ante) == (25, "each", 25)
    assert "ante 25" in text(response)


def test_a_bad_edit_shows_its_message_beside_the_row_and_changes_nothing(
    director_client: Client, home_blind_structure: BlindStructure
) -> None:
    url = row_url(home_blind_structure, 2)
    level = home_blind_structure.levels.get(position=2)
    response = director_client.post(
        url,
        {
            "op": "save",
            "minutes": "0",
            "small_blind": "100",
            "big_blind": "50",
            "ante_kind": "none",
        },
        **HTMX,
    )
    assert response["HX-Retarget"] == f"#row-{level.pk}"
    assert response["HX-Reswap"] == "outerHTML"
    page = text(response)
    assert "Level 2: it lasts 0 minutes; give it at least one minute." in page
    assert "Level 2: the big blind 50 is below the small blind 100." in page
    level.refresh_from_db()
    assert (level.minutes, level.small_blind, level.big_blind) == (20, 50, 100)


def test_a_bad_edit_without_javascript_shows_the_page_with_the_row_open(
    director_client: Client, home_blind_structure: BlindStructure
) -> None:
    response = director_client.post(
        row_url(home_blind_structure, 1),
        {
            "op": "save",
            "minutes": "20",
            "small_blind": "25",
            "big_blind": "50",
            "ante_kind": "each",
            "ante": "50",
        },
    )
    assert response.status_code == 400
    assert "Level 1: the ante 50 is above the small blind 25." in text(response)
    assert 'name="op" value="save"' in response.content.decode()
    assert home_blind_structure.levels.get(position=1).ante == 0


def test_a_break_is_edited_with_its_colour_up(
    director_client: Client, home_blind_structure: BlindStructure
) -> None:
    url = row_url(home_blind_structure, 4)
    html = director_client.get(url, {"edit": "1"}, **HTMX).content.decode()
    assert 'name="colour_up"' in html and 'name="small_blind"' not in html
    director_client.post(url, {"op": "save", "minutes": "15", "colour_up": ["25"]}, **HTMX)
    pause = home_blind_structure.levels.get(position=4)
    assert (pause.minutes, pause.colour_up) == (15, [25])
    page = text(director_client.get(edit_url(home_blind_structure)))
    assert "Colour up the 25 chips (chip race)" in page


def test_limit_rows_are_edited_with_their_bets(
    director_client: Client, limit_blind_structure: BlindStructure
) -> None:
    url = row_url(limit_blind_structure, 2)
    response = director_client.post(
        url,
        {
            "op": "save",
            "minutes": "20",
            "small_blind": "50",
            "big_blind": "100",
            "ante_kind": "none",
            "small_bet": "100",
            "big_bet": "",
        },
        **HTMX,
    )
    assert "Level 2: a limit level needs the small bet and the big bet." in text(response)
    director_client.post(
        url,
        {
            "op": "save",
            "minutes": "20",
            "small_blind": "50",
            "big_blind": "100",
            "ante_kind": "none",
            "small_bet": "100",
            "big_bet": "200",
        },
        **HTMX,
    )
    assert "bets 100/200" in text(director_client.get(edit_url(limit_blind_structure)))


def test_without_javascript_the_edit_link_opens_the_row_on_the_page(
    director_client: Client, home_blind_structure: BlindStructure
) -> None:
    response = director_client.get(row_url(home_blind_structure, 2), {"edit": "1"})
    assert response.status_code == 200
    assert "<html" in response.content.decode()
    assert 'name="op" value="save"' in response.content.decode()


def test_a_template_is_shown_read_only_with_a_copy_button(
    director_client: Client, builtin_templates: list[BlindStructure]
) -> None:
    template = builtin_templates[0]
    response = director_client.get(edit_url(template))
    page = text(response)
    assert "is a built-in template: copy it to make your own." in page
    assert "Copy to edit" in page
    assert 'value="remove"' not in response.content.decode()
    before = blinds(template)
    response = director_client.post(row_url(template, 1), {"op": "remove"}, **HTMX)
    assert "is a built-in template" in text(response)
    assert blinds(template) == before


def test_renaming_and_a_bad_chip_set(
    director_client: Client, home_blind_structure: BlindStructure
) -> None:
    url = edit_url(home_blind_structure)
    response = director_client.post(
        url, {"op": "settings", "name": "Thursday", "betting": "pot-limit", "chip_set": "100, 500"}
    )
    assert response.status_code == 400
    assert "Level 1: the small blind 25 cannot be made with the chips in play" in text(response)
    home_blind_structure.refresh_from_db()
    assert home_blind_structure.name == "Tuesday PLO8"
    response = director_client.post(
        url,
        {
            "op": "settings",
            "name": "Thursday",
            "betting": "pot-limit",
            "chip_set": "25, 100, 500, 1000, 5000",
        },
    )
    assert response.status_code == 302
    home_blind_structure.refresh_from_db()
    assert home_blind_structure.name == "Thursday" and home_blind_structure.chip_set[-1] == 5000


def test_deleting_a_blind_structure(
    director_client: Client, home_blind_structure: BlindStructure
) -> None:
    response = director_client.post(edit_url(home_blind_structure), {"op": "delete"})
    assert response["Location"] == reverse("tournaments:blind_structure_list")
    assert not BlindStructure.objects.filter(pk=home_blind_structure.pk).exists()
    assert not BlindLevel.objects.filter(blind_structure_id=home_blind_structure.pk).exists()


def test_a_row_of_another_blind_structure_is_404(
    director_client: Client,
    home_blind_structure: BlindStructure,
    limit_blind_structure: BlindStructure,
) -> None:
    other = limit_blind_structure.levels.get(position=1)
    url = reverse("tournaments:blind_structure_row", args=[home_blind_structure.pk, other.pk])
    assert director_client.post(url, {"op": "remove"}).status_code == 404
    assert limit_blind_structure.levels.filter(pk=other.pk).exists()


def test_the_old_addresses_of_the_blind_structures_send_the_browser_on(director_client) -> None:  # type: ignore[no-untyped-def]
    for old, new in (
        ("/tournaments/structures/", "/tournaments/blind-structures/"),
        (
            "/tournaments/structures/new/?source=copy",
            "/tournaments/blind-structures/new/?source=copy",
        ),
        ("/tournaments/structures/7/", "/tournaments/blind-structures/7/"),
        (
            "/tournaments/structures/7/rows/9/?edit=1",
            "/tournaments/blind-structures/7/rows/9/?edit=1",
        ),
    ):
        response = director_client.get(old)
        assert response.status_code == 301 and response["Location"] == new
