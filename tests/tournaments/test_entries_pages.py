"""The tournament's pages: settings for directors, the public page with registration."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from series.models import Event
from tests.pages import without_tokens
from tests.tournaments.factories import make_user, start
from tests.tournaments.levels import BREAK_1, LEVEL_5
from tests.tournaments.settings_form import form_data
from tournaments.models import BlindStructure, EntryState, Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_a_director_sets_up_the_tournament_of_an_event(
    event: Event, blind_structure: BlindStructure, director_client: Client
) -> None:
    url = reverse("tournaments:new", args=[event.pk])
    page = director_client.get(url).content.decode()
    assert "Set up the tournament" in page and 'value="20"' in page  # the event's buy-in
    response = director_client.post(url, form_data(blind_structure, buy_in="30"))
    tournament = Tournament.objects.get(event=event)
    assert response.status_code == 302 and response["Location"] == tournament.get_absolute_url()
    event.refresh_from_db()
    assert event.buy_in == 30
    assert tournament.payout_basis_points == [5000, 3000, 2000]
    assert tournament.addon_at_break == BREAK_1 and tournament.money_unit == 5
    # A second visit goes to the settings of the tournament it already has.
    assert director_client.get(url)["Location"] == reverse("tournaments:edit", args=[tournament.pk])


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"bounty": "25"}, "cannot be more than the buy-in"),
        ({"payouts": "50, 30"}, "add up to 80%, not 100%"),
        ({"payouts": "fifty"}, "is not a percentage"),
        ({"addon_after_level": "2"}, "has no break after level 2"),
        ({"rebuy_until_level": "12"}, "only 6 levels"),
        ({"seats_per_table": "12"}, ""),
    ],
)
def test_bad_settings_come_back_on_the_form(
    event: Event,
    blind_structure: BlindStructure,
    director_client: Client,
    changes: dict[str, str],
    message: str,
) -> None:
    url = reverse("tournaments:new", args=[event.pk])
    response = director_client.post(url, form_data(blind_structure, **changes))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_settings_page_locks_money_rules_once_started(
    tournament: Tournament, director_client: Client
) -> None:
    start(tournament)
    url = reverse("tournaments:edit", args=[tournament.pk])
    page = director_client.get(url).content.decode()
    assert "can no longer change" in page
    response = director_client.post(
        url,
        form_data(
            tournament.blind_structure,
            buy_in="50",
            rebuy_price="99",
            capacity="8",
            late_registration_until_level="5",
            reentries_allowed="1",
            reentry_until_level="4",
            rebuys_allowed="2",
            bounty="0",
            payouts="",
            addon_chips="15000",
            money_unit="1",
        ),
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    # The money rules stayed; the running settings changed.
    assert (tournament.event.buy_in, tournament.rebuy_price) == (20, 20)
    assert (tournament.capacity, tournament.late_registration_until_level) == (8, 5)


def test_the_public_page_shows_the_blind_structure_and_the_players(
    tournament: Tournament, client: Client, player_client: Client
) -> None:
    for name in ("ann", "ben", "cal", "dee", "eve", "fay", "gus"):
        entry_register_user(tournament, name)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Thursday PLO8" in page and "20+5" in page
    assert "25/50" in page and "200/400" in page and "Break" in page and "Add-on" in page
    # A visitor reads how many; the names are a member's to read.
    assert "6 of 6" in page and "6 registered · 1 waiting" in page
    assert "gus" not in without_tokens(page)
    assert "Log in to register" in page  # full, but the waiting list is open
    assert "Join the waiting list" not in page  # only for a logged-in player
    member = player_client.get(tournament.get_absolute_url()).content.decode()
    assert "Waiting list" in member and "gus" in member
    assert reverse("tournaments:console", args=[tournament.pk]) not in page


def entry_register_user(tournament: Tournament, name: str) -> None:
    from tournaments.services.entries import entry_register

    entry_register(tournament.pk, make_user(name))


def test_anonymous_visitors_are_asked_to_log_in_to_register(
    tournament: Tournament, client: Client
) -> None:
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Log in to register" in page
    response = client.post(reverse("tournaments:register", args=[tournament.pk]))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_directors_see_the_console_and_settings_links(
    tournament: Tournament, director_client: Client
) -> None:
    page = director_client.get(tournament.get_absolute_url()).content.decode()
    assert reverse("tournaments:console", args=[tournament.pk]) in page
    assert reverse("tournaments:edit", args=[tournament.pk]) in page


def test_a_player_registers_and_unregisters_without_javascript(
    tournament: Tournament, ann: User, ann_client: Client
) -> None:
    response = ann_client.post(reverse("tournaments:register", args=[tournament.pk]))
    assert response.status_code == 302 and response["Location"] == tournament.get_absolute_url()
    page = ann_client.get(tournament.get_absolute_url()).content.decode()
    assert "You are registered. See you at the table!" in page and "Unregister" in page
    ann_client.post(reverse("tournaments:unregister", args=[tournament.pk]))
    assert tournament.entries.get().state == EntryState.UNREGISTERED


def test_a_player_registers_with_htmx(tournament: Tournament, ann_client: Client) -> None:
    for name in ("b1", "b2", "b3", "b4", "b5", "b6"):
        entry_register_user(tournament, name)
    page = ann_client.get(tournament.get_absolute_url()).content.decode()
    assert "Join the waiting list" in page
    response = ann_client.post(reverse("tournaments:register", args=[tournament.pk]), **HTMX)
    fragment = response.content.decode()
    assert fragment.startswith('<section id="registration"')
    assert "you are on the waiting list" in fragment
    assert "You are number 1 on the waiting list." in fragment


def test_registration_after_late_registration_is_refused_clearly(
    tournament: Tournament, ann_client: Client
) -> None:
    start(tournament, LEVEL_5)
    page = ann_client.get(tournament.get_absolute_url()).content.decode()
    assert "Late registration closed at the end of level 4." in page
    response = ann_client.post(reverse("tournaments:register", args=[tournament.pk]), **HTMX)
    assert "Late registration closed at the end of level 4." in response.content.decode()
    assert not tournament.entries.exists()


def test_the_home_page_links_the_event_to_its_tournament(
    tournament: Tournament, client: Client
) -> None:
    page = client.get(reverse("home")).content.decode()
    assert tournament.get_absolute_url() in page and "Tournament and registration" in page


def test_directors_are_offered_to_set_up_a_tournament(
    event: Event, director_client: Client, client: Client
) -> None:
    url = reverse("tournaments:new", args=[event.pk])
    assert url in director_client.get(reverse("home")).content.decode()
    assert url not in client.get(reverse("home")).content.decode()
    assert url in director_client.get(reverse("director_dashboard")).content.decode()


def test_the_levels_table_reads_bets_for_a_limit_night(
    tournament: Tournament, client: Client
) -> None:
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert ">Blinds</th>" in page and ">Bets</th>" not in page and "25/50" in page
    Event.objects.filter(pk=tournament.event_id).update(structure="limit")
    first = tournament.blind_structure.levels.get(position=0)
    first.small_bet, first.big_bet = 50, 100
    first.save(update_fields=["small_bet", "big_bet"])
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert ">Bets</th>" in page and ">Blinds</th>" not in page
    assert "25/50" not in page  # the first level reads its bets, 50/100, not its blinds
