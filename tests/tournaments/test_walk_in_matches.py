"""Walk-ins see the series' players: a name already taken is a choice, never a silent twin.

Typing a name in the console's walk-in form suggests the players and guests it matches
(choosing one registers that player); adding a new guest whose name is already a player's
or a guest's asks the director to confirm that this is someone else.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, expect

from series.models import Player
from tests.browser import ARTIFACTS, LAPTOP, PHONE, log_in, needs_chromium, picture
from tests.tournaments.factories import make_player, make_user, start
from tests.tournaments.levels import LEVEL_2, LEVEL_5
from tournaments.errors import NameInUse, TournamentError
from tournaments.models import ActionKind, EntryState, Tournament
from tournaments.selectors import players_matching
from tournaments.services.entries import entry_add_player, entry_add_walk_in, entry_register
from tournaments.services.undo import action_undo_last

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def walk_in_url(tournament: Tournament) -> str:
    return reverse("tournaments:console_walk_in", args=[tournament.pk])


def suggest_url(tournament: Tournament) -> str:
    return reverse("tournaments:console_walk_in_suggest", args=[tournament.pk])


# -- the service ----------------------------------------------------------------------------


def test_a_walk_in_named_like_an_account_asks_first(tournament: Tournament, director: User) -> None:
    ann = make_player("ann")
    with pytest.raises(NameInUse, match="There is already a player named ann") as refused:
        entry_add_walk_in(tournament.pk, "ANN", by=director)
    assert refused.value.players == [ann]
    assert not tournament.entries.exists() and not tournament.actions.exists()
    assert Player.objects.filter(name__iexact="ann").count() == 1


def test_a_walk_in_named_like_a_guest_asks_first(tournament: Tournament, director: User) -> None:
    guest = Player.objects.create(name="Gus")
    with pytest.raises(NameInUse) as refused:
        entry_add_walk_in(tournament.pk, "gus", by=director)
    assert refused.value.players == [guest]
    assert not tournament.entries.exists()


def test_two_players_of_that_name_are_both_named(tournament: Tournament, director: User) -> None:
    ann = make_player("ann")
    guest = Player.objects.create(name="Ann")
    with pytest.raises(NameInUse, match="There are already 2 players named Ann") as refused:
        entry_add_walk_in(tournament.pk, "Ann", by=director)
    assert set(refused.value.players) == {ann, guest}


def test_a_confirmed_new_guest_is_someone_else(tournament: Tournament, director: User) -> None:
    ann = make_player("ann")
    entry = entry_add_walk_in(tournament.pk, "Ann", by=director, new_guest=True)
    assert entry.player != ann and entry.player.is_guest and entry.player.name == "Ann"
    assert tournament.actions.get().summary == "Walk-in: Ann"


def test_a_chosen_account_is_registered_not_copied(tournament: Tournament, director: User) -> None:
    ann = make_player("ann")
    entry = entry_add_player(tournament.pk, ann.pk, by=director)
    assert entry.player == ann and entry.state == EntryState.REGISTERED
    assert Player.objects.filter(name__iexact="ann").count() == 1
    action = tournament.actions.get()
    assert (action.kind, action.summary, action.by) == (
        ActionKind.REGISTER,
        "Walk-in: ann",
        director,
    )


def test_a_chosen_player_after_the_start_is_a_late_entry(
    tournament: Tournament, director: User
) -> None:
    guest = Player.objects.create(name="Gus")
    start(tournament, LEVEL_2)
    entry = entry_add_player(tournament.pk, guest.pk, by=director)
    assert entry.player == guest and entry.state == EntryState.PLAYING
    assert tournament.actions.get().kind == ActionKind.LATE_ENTRY


def test_undo_of_a_chosen_player_keeps_the_player(tournament: Tournament, director: User) -> None:
    ann = make_player("ann")
    entry_add_player(tournament.pk, ann.pk, by=director)
    action_undo_last(tournament.pk, by=director)
    assert not tournament.entries.exists() and Player.objects.filter(pk=ann.pk).exists()


def test_a_chosen_player_already_in_is_refused(tournament: Tournament, director: User) -> None:
    entry = entry_register(tournament.pk, make_user("ann"))
    with pytest.raises(TournamentError, match="ann is already registered"):
        entry_add_player(tournament.pk, entry.player_id, by=director)
    assert tournament.actions.count() == 0


def test_a_chosen_player_that_does_not_exist_is_refused(
    tournament: Tournament, director: User
) -> None:
    with pytest.raises(TournamentError, match="This player does not exist"):
        entry_add_player(tournament.pk, 987654, by=director)
    assert not tournament.entries.exists()


def test_a_chosen_player_after_late_registration_is_refused(
    tournament: Tournament, director: User
) -> None:
    ann = make_player("ann")
    start(tournament, LEVEL_5)
    with pytest.raises(TournamentError, match="Late registration closed"):
        entry_add_player(tournament.pk, ann.pk, by=director)


def test_matching_finds_accounts_and_guests_names_starting_with_it_first(db: None) -> None:
    make_player("Joanna")
    ann = make_player("ann")
    guest = Player.objects.create(name="Annie")
    Player.objects.create(name="Bob")
    assert [p.name for p in players_matching("AN")] == [ann.name, guest.name, "Joanna"]
    assert players_matching("  ") == []


# -- the console --------------------------------------------------------------------------


def test_the_walk_in_field_asks_for_suggestions_as_the_director_types(
    tournament: Tournament, director_client: Client
) -> None:
    page = director_client.get(reverse("tournaments:console", args=[tournament.pk]))
    html = page.content.decode()
    assert f'hx-get="{suggest_url(tournament)}"' in html
    assert 'id="walk-in-suggestions"' in html


def test_suggestions_offer_to_register_each_matching_player(
    tournament: Tournament, director_client: Client
) -> None:
    ann = make_player("ann")
    guest = Player.objects.create(name="Annie")
    page = director_client.get(suggest_url(tournament), {"name": "an"}, **HTMX).content.decode()
    assert "<html" not in page
    assert f'name="player" value="{ann.pk}"' in page
    assert f'name="player" value="{guest.pk}"' in page
    assert "Register ann" in page and "account" in page and "guest" in page


def test_suggestions_show_who_is_already_in_without_a_button(
    tournament: Tournament, director_client: Client
) -> None:
    entry = entry_register(tournament.pk, make_user("ann"))
    page = director_client.get(suggest_url(tournament), {"name": "ann"}, **HTMX).content.decode()
    assert "already registered" in page
    assert f'name="player" value="{entry.player_id}"' not in page


def test_no_suggestions_for_an_empty_name(tournament: Tournament, director_client: Client) -> None:
    make_player("ann")
    response = director_client.get(suggest_url(tournament), {"name": " "}, **HTMX)
    assert response.status_code == 200 and 'name="player"' not in response.content.decode()


def test_suggestions_are_for_directors_only(
    tournament: Tournament, player_client: Client, client: Client
) -> None:
    make_player("ann")
    assert player_client.get(suggest_url(tournament), {"name": "an"}).status_code == 403
    response = client.get(suggest_url(tournament), {"name": "an"})
    assert response.status_code == 302 and "ann" not in response.content.decode()


def test_choosing_a_suggestion_registers_that_player(
    tournament: Tournament, director_client: Client
) -> None:
    ann = make_player("ann")
    page = director_client.post(walk_in_url(tournament), {"player": ann.pk}, **HTMX)
    assert "ann is in." in page.content.decode()
    assert tournament.entries.get().player == ann
    assert Player.objects.filter(name__iexact="ann").count() == 1


def test_a_tampered_player_is_refused_clearly(
    tournament: Tournament, director_client: Client
) -> None:
    page = director_client.post(walk_in_url(tournament), {"player": "x'1"}, **HTMX)
    assert "This player does not exist." in page.content.decode()
    assert not tournament.entries.exists() and not tournament.actions.exists()


def test_a_name_already_taken_re_renders_the_form_with_the_choice(
    tournament: Tournament, director_client: Client
) -> None:
    ann = make_player("ann")
    response = director_client.post(walk_in_url(tournament), {"name": "Ann"}, **HTMX)
    page = response.content.decode()
    assert response.status_code == 200 and page.startswith('<div id="console-entries"')
    assert "There is already a player named ann: register them, or confirm a new guest." in page
    assert f'name="player" value="{ann.pk}"' in page
    assert 'name="new_guest" value="1"' in page and 'value="Ann"' in page
    assert not tournament.entries.exists() and not Player.objects.filter(name="Ann").exists()


def test_without_javascript_the_choice_shows_on_the_console(
    tournament: Tournament, director_client: Client
) -> None:
    make_player("ann")
    response = director_client.post(walk_in_url(tournament), {"name": "ann"})
    page = response.content.decode()
    assert response.status_code == 200 and "<html" in page
    assert "There is already a player named ann" in page and 'name="new_guest"' in page
    assert not tournament.entries.exists()


def test_confirming_a_new_guest_adds_them(tournament: Tournament, director_client: Client) -> None:
    ann = make_player("ann")
    page = director_client.post(
        walk_in_url(tournament), {"name": "Ann", "new_guest": "1"}, **HTMX
    ).content.decode()
    assert "Ann is in." in page
    entry = tournament.entries.get()
    assert entry.player != ann and entry.player.is_guest


# -- in the browser -------------------------------------------------------------------------


@pytest.fixture
def registering(tournament: Tournament) -> Tournament:
    """A tournament still registering, a director, the account "ann" and the guest "Annie"."""
    make_player("ann")
    Player.objects.create(name="Annie")
    return tournament


@needs_chromium[0]
@needs_chromium[1]
def test_the_director_picks_a_suggestion_or_confirms_a_new_guest(
    registering: Tournament, live_server, live_browser: Browser
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    # The laptop only looks; then the phone registers ann and adds a second Annie.
    for viewport in (LAPTOP, PHONE):
        width = viewport["width"]
        page = live_browser.new_page(viewport=viewport)
        log_in(page, live_server.url, then=f"/tournaments/{registering.pk}/console/")
        page.locator("#walk-in-name").press_sequentially("an", delay=30)
        suggestions = page.locator("#walk-in-suggestions")
        expect(suggestions.get_by_role("button", name="Register ann", exact=True)).to_be_visible()
        expect(suggestions.get_by_role("button", name="Register Annie")).to_be_visible()
        page.locator("#walk-in-suggestions").scroll_into_view_if_needed()
        picture(page, str(ARTIFACTS / f"walk-in-suggestions-{width}.png"))
        if viewport is PHONE:
            suggestions.get_by_role("button", name="Register ann", exact=True).click()
            expect(page.get_by_text("ann is in.")).to_be_visible()
            # A new guest named like a guest of the series: the choice first.
            page.locator("#walk-in-name").fill("ANNIE")
            page.get_by_role("button", name="Add", exact=True).click()
            expect(page.get_by_text("There is already a player named Annie")).to_be_visible()
            page.locator("#walk-in-suggestions").scroll_into_view_if_needed()
            picture(page, str(ARTIFACTS / "walk-in-choice-390.png"))
            page.get_by_role("button", name="New guest named ANNIE").click()
            expect(page.get_by_text("ANNIE is in.")).to_be_visible()
        page.close()
    names = sorted(registering.entries.values_list("player__name", flat=True))
    assert names == ["ANNIE", "ann"]
    assert Player.objects.filter(name__iexact="annie").count() == 2
