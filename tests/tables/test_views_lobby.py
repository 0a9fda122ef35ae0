"""The lobby and the create-table form: who may open a table, and what a tampered form does."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tables import services
from tables.models import Table

pytestmark = pytest.mark.django_db

GOOD_FORM = {
    "name": "Friday PLO8",
    "game": "omaha-hi-lo",
    "structure": "pot-limit",
    "big_blind": "2",
    "big_bet": "",
    "seat_count": "6",
    "min_buy_in": "",
    "max_buy_in": "",
    "raise_cap": "4",
}


@pytest.fixture
def spectator() -> Client:
    return Client()


@pytest.fixture
def open_table(director: User) -> Table:
    return services.table_create(created_by=director, name="Thursday Omaha", big_blind=2)


def test_the_lobby_lists_open_tables_with_seats_taken(
    spectator: Client, open_table: Table, player: User
) -> None:
    services.seat_take(open_table.pk, player, 3, open_table.max_buy_in)
    page = spectator.get(reverse("tables:lobby")).content.decode()
    assert "Thursday Omaha" in page
    assert "1/6" in page  # seats taken / seats
    assert "1/2" in page  # the small blind comes from the engine's Config
    assert reverse("tables:table", args=[open_table.pk]) in page


def test_closed_tables_are_not_listed(spectator: Client, open_table: Table) -> None:
    from django.utils import timezone

    Table.objects.filter(pk=open_table.pk).update(closed_at=timezone.now())
    assert "Thursday Omaha" not in spectator.get(reverse("tables:lobby")).content.decode()


def test_htmx_refresh_gets_only_the_list(spectator: Client, open_table: Table) -> None:
    response = spectator.get(reverse("tables:lobby"), headers={"HX-Request": "true"})
    assert [t.name for t in response.templates][0] == "tables/_table_list.html"
    assert "<html" not in response.content.decode()


def test_the_director_sees_the_create_form_and_a_player_does_not(
    director_client: Client, player_client: Client
) -> None:
    assert 'id="create-form"' in director_client.get(reverse("tables:lobby")).content.decode()
    assert 'id="create-form"' not in player_client.get(reverse("tables:lobby")).content.decode()


def test_the_director_opens_a_table_and_lands_on_it(director_client: Client) -> None:
    response = director_client.post(reverse("tables:table_new"), GOOD_FORM)
    table = Table.objects.get(name="Friday PLO8")
    assert response.status_code == 302
    assert response["Location"] == reverse("tables:table", args=[table.pk])
    assert (table.game, table.structure, table.seat_count) == ("omaha-hi-lo", "pot-limit", 6)
    # Empty buy-ins take the service's defaults, not numbers the view made up.
    assert (table.min_buy_in, table.max_buy_in) == services.default_buy_ins("pot-limit", 2, None)
    assert table.seats.count() == 6


def test_limit_house_rules_reach_the_table(director_client: Client) -> None:
    form = {
        **GOOD_FORM,
        "structure": "limit",
        "big_blind": "4",
        "big_bet": "8",
        "raise_cap": "5",
        "all_in_on_disconnect": "on",
        "seat_count": "10",
    }
    director_client.post(reverse("tables:table_new"), form)
    table = Table.objects.get()
    assert (table.big_bet, table.raise_cap, table.all_in_on_disconnect) == (8, 5, True)
    assert table.seat_count == 10


def test_no_cap_is_stored_as_none(director_client: Client) -> None:
    director_client.post(reverse("tables:table_new"), {**GOOD_FORM, "raise_cap": "none"})
    assert Table.objects.get().raise_cap is None


def test_htmx_create_redirects_with_a_header(director_client: Client) -> None:
    response = director_client.post(
        reverse("tables:table_new"), GOOD_FORM, headers={"HX-Request": "true"}
    )
    assert response.status_code == 204
    assert response["HX-Redirect"] == reverse("tables:table", args=[Table.objects.get().pk])


def test_players_may_not_open_tables(player_client: Client) -> None:
    assert player_client.post(reverse("tables:table_new"), GOOD_FORM).status_code == 403
    assert not Table.objects.exists()


def test_anonymous_visitors_are_sent_to_log_in(spectator: Client) -> None:
    response = spectator.post(reverse("tables:table_new"), GOOD_FORM)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert not Table.objects.exists()


def test_players_may_open_tables_when_the_site_allows_it(
    player_client: Client, settings: object
) -> None:
    settings.TABLES_PLAYERS_MAY_OPEN = True  # type: ignore[attr-defined]
    assert 'id="create-form"' in player_client.get(reverse("tables:lobby")).content.decode()
    assert player_client.post(reverse("tables:table_new"), GOOD_FORM).status_code == 302
    assert Table.objects.count() == 1


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("game", "texas-holdem"),
        ("structure", "spread-limit"),
        ("seat_count", "11"),
        ("seat_count", "1"),
        ("big_blind", "-2"),
        ("big_blind", "two"),
        ("raise_cap", "7"),
        ("min_buy_in", "0"),
    ],
)
def test_tampered_values_are_refused_and_change_nothing(
    director_client: Client, field: str, value: str
) -> None:
    response = director_client.post(reverse("tables:table_new"), {**GOOD_FORM, field: value})
    assert response.status_code == 400
    assert response.context["form"].errors[field]
    assert 'class="errorlist' in response.content.decode()
    assert not Table.objects.exists()


def test_a_rule_the_service_refuses_comes_back_as_a_form_error(director_client: Client) -> None:
    response = director_client.post(
        reverse("tables:table_new"), {**GOOD_FORM, "min_buy_in": "300", "max_buy_in": "100"}
    )
    assert response.status_code == 400
    assert "maximum buy-in must be at least the minimum" in response.content.decode()
    assert not Table.objects.exists()


def test_a_big_bet_below_the_big_blind_is_the_engines_error(director_client: Client) -> None:
    form = {**GOOD_FORM, "structure": "limit", "big_blind": "10", "big_bet": "5"}
    response = director_client.post(reverse("tables:table_new"), form)
    assert response.status_code == 400
    assert "big bet 5 is below the small bet 10" in response.content.decode()


def test_htmx_errors_return_the_form_fragment(director_client: Client) -> None:
    response = director_client.post(
        reverse("tables:table_new"), {**GOOD_FORM, "game": "stud"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 400
    assert response.content.decode().lstrip().startswith("<form")


def test_the_form_page_works_without_javascript(director_client: Client) -> None:
    page = director_client.get(reverse("tables:table_new")).content.decode()
    assert 'method="post"' in page and 'name="big_blind"' in page


def test_a_full_table_where_nobody_can_play_is_not_offered_as_a_game(
    director_client,
    director,  # type: ignore[no-untyped-def]
) -> None:
    # the lobby still offered a table stuck with one player holding
    # every chip and the others at 0.
    from tables import services as table_services
    from tables.models import Seat
    from tests.tables.conftest import make_players

    table = table_services.table_create(
        created_by=director, name="Stuck", big_blind=2, seat_count=2, min_buy_in=40
    )
    for number, user in enumerate(make_players("stu", "sid"), start=1):
        table_services.seat_take(table.pk, user, number, 100)
    page = director_client.get("/tables/").content.decode()
    assert "No game" not in page
    Seat.objects.filter(table=table, number=2).update(stack=0)
    page = director_client.get("/tables/").content.decode()
    assert "No game: nobody seated here can play" in page and ">Watch<" in page
