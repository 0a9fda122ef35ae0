"""The director's console: what it shows, its one-tap actions, Undo, and who may use it."""

from __future__ import annotations

from copy import deepcopy
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse

from tests.tournaments.factories import make_player, make_user, start
from tests.tournaments.levels import BREAK_1, LEVEL_2, LEVEL_5
from tournaments.models import Entry, EntryState, Tournament
from tournaments.services.entries import entry_rebuy, entry_register
from tournaments.views.console import partials_present

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def console_url(tournament: Tournament) -> str:
    return reverse("tournaments:console", args=[tournament.pk])


def playing(tournament: Tournament, name: str) -> Entry:
    return Entry.objects.create(
        tournament=tournament, player=make_player(name), state=EntryState.PLAYING
    )


ENTRY_ACTIONS = [
    "console_late",
    "console_rebuy",
    "console_reentry",
    "console_addon",
    "console_remove",
]
TOURNAMENT_ACTIONS = ["console_walk_in", "console_undo", "console_start"]


def action_urls(tournament: Tournament, entry: Entry) -> list[str]:
    return [
        reverse(f"tournaments:{name}", args=[tournament.pk, entry.pk]) for name in ENTRY_ACTIONS
    ] + [reverse(f"tournaments:{name}", args=[tournament.pk]) for name in TOURNAMENT_ACTIONS]


def test_players_get_403_on_the_console_and_every_action(
    tournament: Tournament, player_client: Client
) -> None:
    ann = playing(tournament, "ann")
    start(tournament, BREAK_1)
    assert player_client.get(console_url(tournament)).status_code == 403
    for url in action_urls(tournament, ann):
        response = player_client.post(url, {"name": "Bob", "stack": "0"})
        assert response.status_code == 403, url
    ann.refresh_from_db()
    assert (ann.rebuys, ann.addon, ann.state) == (0, False, EntryState.PLAYING)
    assert not tournament.actions.exists() and tournament.entries.count() == 1


def test_anonymous_visitors_are_sent_to_log_in(tournament: Tournament, client: Client) -> None:
    ann = playing(tournament, "ann")
    for url in [console_url(tournament), *action_urls(tournament, ann)]:
        method = client.get if url == console_url(tournament) else client.post
        response = method(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_actions_are_post_only(tournament: Tournament, director_client: Client) -> None:
    ann = playing(tournament, "ann")
    for url in action_urls(tournament, ann):
        assert director_client.get(url).status_code == 405


def test_the_console_shows_entries_and_only_the_buttons_that_work(
    tournament: Tournament, director_client: Client
) -> None:
    ann = playing(tournament, "ann")
    bob = Entry.objects.create(
        tournament=tournament, player=make_player("bob"), state=EntryState.OUT
    )
    cal = entry_register(tournament.pk, make_user("cal"))
    start(tournament, LEVEL_2)
    page = director_client.get(console_url(tournament)).content.decode()
    assert "ann" in page and "bob" in page and "cal" in page
    assert reverse("tournaments:console_rebuy", args=[tournament.pk, ann.pk]) in page
    assert reverse("tournaments:console_reentry", args=[tournament.pk, bob.pk]) in page
    assert reverse("tournaments:console_late", args=[tournament.pk, cal.pk]) in page
    # Not at the add-on break, so no add-on button; no rebuy for a busted player.
    assert "console_addon" not in page and "/addon/" not in page
    assert reverse("tournaments:console_rebuy", args=[tournament.pk, bob.pk]) not in page

    start(tournament, BREAK_1)
    page = director_client.get(console_url(tournament)).content.decode()
    assert reverse("tournaments:console_addon", args=[tournament.pk, ann.pk]) in page

    start(tournament, LEVEL_5)
    page = director_client.get(console_url(tournament)).content.decode()
    assert "/rebuy/" not in page and "/late/" not in page and "/reentry/" not in page
    # Late registration is over: no walk-in form either.
    assert reverse("tournaments:console_walk_in", args=[tournament.pk]) not in page


def test_a_walk_in_posts_and_redirects_back(
    tournament: Tournament, director_client: Client
) -> None:
    url = reverse("tournaments:console_walk_in", args=[tournament.pk])
    response = director_client.post(url, {"name": "Bob"})
    assert response.status_code == 302 and response["Location"] == console_url(tournament)
    assert tournament.entries.get().player.name == "Bob"
    page = director_client.get(console_url(tournament)).content.decode()
    assert "Bob is in." in page and "Walk-in: Bob" in page


def test_a_walk_in_with_htmx_answers_with_the_entries_section(
    tournament: Tournament, director_client: Client
) -> None:
    url = reverse("tournaments:console_walk_in", args=[tournament.pk])
    response = director_client.post(url, {"name": "Bob"}, **HTMX)
    page = response.content.decode()
    assert response.status_code == 200 and page.startswith('<div id="console-entries"')
    assert "Bob is in." in page and "<html" not in page


def test_an_empty_walk_in_gets_a_clear_message(
    tournament: Tournament, director_client: Client
) -> None:
    url = reverse("tournaments:console_walk_in", args=[tournament.pk])
    page = director_client.post(url, {"name": ""}, **HTMX).content.decode()
    assert "Enter the player&#x27;s name" in page and not tournament.entries.exists()


def test_rebuy_add_on_re_entry_and_late_entry_from_the_console(
    tournament: Tournament, director_client: Client
) -> None:
    ann = playing(tournament, "ann")
    bob = Entry.objects.create(
        tournament=tournament, player=make_player("bob"), state=EntryState.OUT
    )
    cal = entry_register(tournament.pk, make_user("cal"))
    start(tournament, BREAK_1)

    def post(name: str, entry: Entry, **data: str) -> str:
        url = reverse(f"tournaments:{name}", args=[tournament.pk, entry.pk])
        return director_client.post(url, data, **HTMX).content.decode()

    assert "Rebuy for ann." in post("console_rebuy", ann, stack="2500")
    assert "Add-on for ann." in post("console_addon", ann)
    assert "bob re-enters." in post("console_reentry", bob)
    assert "Late entry: cal plays." in post("console_late", cal)
    ann.refresh_from_db()
    cal.refresh_from_db()
    assert (ann.rebuys, ann.addon, cal.state) == (1, True, EntryState.PLAYING)
    assert tournament.entries.filter(player=bob.player, number=2).exists()


def test_refusals_come_back_as_messages_and_change_nothing(
    tournament: Tournament, director_client: Client
) -> None:
    ann = playing(tournament, "ann")
    start(tournament, BREAK_1)
    url = reverse("tournaments:console_rebuy", args=[tournament.pk, ann.pk])
    page = director_client.post(url, {"stack": "12000"}, **HTMX).content.decode()
    assert "only allowed at or below 10,000 chips; ann has 12,000 chips" in page
    page = director_client.post(url, {"stack": "lots"}, **HTMX).content.decode()
    assert "Enter ann&#x27;s stack in chips." in page
    addon = reverse("tournaments:console_addon", args=[tournament.pk, ann.pk])
    director_client.post(addon, **HTMX)
    page = director_client.post(addon, **HTMX).content.decode()
    assert "ann has already taken the add-on." in page
    ann.refresh_from_db()
    assert (ann.rebuys, ann.addon, tournament.actions.count()) == (0, True, 1)


def test_an_entry_of_another_tournament_is_not_found(
    tournament: Tournament, director_client: Client
) -> None:
    from tests.tournaments.factories import sample_tournament

    other = sample_tournament()
    stranger = playing(other, "zed")
    url = reverse("tournaments:console_rebuy", args=[tournament.pk, stranger.pk])
    assert director_client.post(url, {"stack": "0"}).status_code == 404


def test_undo_from_the_console(
    tournament: Tournament, director: User, director_client: Client
) -> None:
    ann = playing(tournament, "ann")
    start(tournament)
    entry_rebuy(ann.pk, by=director, stack=0)
    page = director_client.get(console_url(tournament)).content.decode()
    assert "Rebuy: ann (1 of 2, had 0 chips)" in page
    assert reverse("tournaments:console_undo", args=[tournament.pk]) in page

    newest = tournament.actions.get()
    response = director_client.post(
        reverse("tournaments:console_undo", args=[tournament.pk]), {"action": newest.pk}
    )
    assert response.status_code == 302
    ann.refresh_from_db()
    assert ann.rebuys == 0
    page = director_client.get(console_url(tournament)).content.decode()
    assert "Undone: Rebuy: ann" in page and "undone by dana" in page


def test_undo_with_htmx_repaints_the_whole_console(
    tournament: Tournament, director: User, director_client: Client
) -> None:
    ann = playing(tournament, "ann")
    start(tournament)
    entry_rebuy(ann.pk, by=director, stack=0)
    url = reverse("tournaments:console_undo", args=[tournament.pk])
    response = director_client.post(url, {"action": tournament.actions.get().pk}, **HTMX)
    assert response.status_code == 204 and response["HX-Redirect"] == console_url(tournament)


def test_undo_with_nothing_to_undo_says_so(tournament: Tournament, director_client: Client) -> None:
    url = reverse("tournaments:console_undo", args=[tournament.pk])
    page = director_client.post(url, {"action": "1"}, **HTMX).content.decode()
    assert "There is nothing to undo." in page


def test_undo_of_every_console_action_through_the_console(
    tournament: Tournament, director_client: Client
) -> None:
    ann = playing(tournament, "ann")
    bob = Entry.objects.create(
        tournament=tournament, player=make_player("bob"), state=EntryState.OUT
    )
    cal = entry_register(tournament.pk, make_user("cal"))
    dee = entry_register(tournament.pk, make_user("dee"))
    start(tournament, BREAK_1)
    posts = [
        ("console_rebuy", [ann.pk], {"stack": "100"}),
        ("console_addon", [ann.pk], {}),
        ("console_reentry", [bob.pk], {}),
        ("console_late", [cal.pk], {}),
        ("console_remove", [dee.pk], {}),
        ("console_walk_in", [], {"name": "Eve"}),
    ]
    before = sorted(tournament.entries.values_list("pk", "state", "rebuys", "addon"))
    for name, args, data in posts:
        director_client.post(reverse(f"tournaments:{name}", args=[tournament.pk, *args]), data)
    assert tournament.actions.count() == len(posts)
    undo = reverse("tournaments:console_undo", args=[tournament.pk])
    for _ in posts:
        newest = tournament.actions.filter(undone_at__isnull=True).order_by("-pk").first()
        assert director_client.post(undo, {"action": newest.pk}).status_code == 302
    after = sorted(tournament.entries.values_list("pk", "state", "rebuys", "addon"))
    assert after == before
    assert tournament.actions.filter(undone_at__isnull=True).count() == 0


def test_the_console_includes_the_partials_that_exist(
    tournament: Tournament, director_client: Client, tmp_path: Path
) -> None:
    assert (
        "clock" not in partials_present()
        or (Path(settings.BASE_DIR) / "templates/tournaments/_console_clock.html").exists()
    )
    (tmp_path / "tournaments").mkdir()
    (tmp_path / "tournaments/_console_results.html").write_text(
        '<section id="results-partial">results of {{ tournament.event.name }}</section>'
    )
    templates = deepcopy(settings.TEMPLATES)
    templates[0]["DIRS"] = [tmp_path, *templates[0]["DIRS"]]
    with override_settings(TEMPLATES=templates):
        assert partials_present()["results"] == "tournaments/_console_results.html"
        page = director_client.get(console_url(tournament)).content.decode()
    assert '<section id="results-partial">results of Thursday PLO8</section>' in page


def test_the_console_refreshes_its_entries_for_htmx(
    tournament: Tournament, director_client: Client
) -> None:
    playing(tournament, "ann")
    response = director_client.get(console_url(tournament), **HTMX)
    page = response.content.decode()
    assert page.startswith('<div id="console-entries"') and "ann" in page


def test_the_director_starts_the_tournament_from_the_console(
    tournament: Tournament, director_client: Client
) -> None:
    url = reverse("tournaments:console_start", args=[tournament.pk])
    entry_register(tournament.pk, make_user("ann"))
    page = director_client.get(console_url(tournament)).content.decode()
    assert "At least two players must be registered to start." in page and url not in page
    entry_register(tournament.pk, make_user("ben"))
    page = director_client.get(console_url(tournament)).content.decode()
    assert url in page and "Start with 2 players" in page

    response = director_client.post(url, **HTMX)
    assert response.status_code == 204 and response["HX-Redirect"] == console_url(tournament)
    tournament.refresh_from_db()
    assert tournament.state == "running"
    page = director_client.get(console_url(tournament)).content.decode()
    assert "has started: the seats are drawn and the clock runs." in page
    assert "Table 1 · seat" in page and url not in page


def test_a_start_refused_says_why(tournament: Tournament, director_client: Client) -> None:
    url = reverse("tournaments:console_start", args=[tournament.pk])
    page = director_client.post(url, **HTMX).content.decode()
    assert "At least two players must be registered to start." in page
