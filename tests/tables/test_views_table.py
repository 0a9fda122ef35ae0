"""The table page: painted from the viewer's own snapshot before the socket connects."""

import json
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tables import services
from tables.models import Hand, Table
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def spectator() -> Client:
    return Client()


@pytest.fixture
def opponent(db: None) -> User:
    return User.objects.create_user("olga", password=PASSWORD)


@pytest.fixture
def table(director: User) -> Table:
    return services.table_create(created_by=director, name="Thursday Omaha", big_blind=2)


@pytest.fixture
def hand_in_play(table: Table, player: User, opponent: User) -> Hand:
    services.seat_take(table.pk, player, 1, table.max_buy_in)
    services.seat_take(table.pk, opponent, 4, table.max_buy_in)
    services.table_tick(table.pk, now=timezone.now() + timedelta(seconds=10))
    return Hand.objects.get(table=table)


def snapshot_in(response: object) -> dict[str, object]:
    html = response.content.decode()  # type: ignore[attr-defined]
    found = re.search(r'<script id="snapshot" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the page embeds the first snapshot"
    return json.loads(found.group(1))


def cards_of(snapshot: dict[str, object], seat: int) -> list[str] | None:
    for entry in snapshot["seats"]:  # type: ignore[attr-defined]
        if entry["seat"] == seat:
            return entry.get("cards")
    raise AssertionError(f"no seat {seat}")


def test_the_page_loads_the_socket_script_and_its_address(spectator: Client, table: Table) -> None:
    page = spectator.get(reverse("tables:table", args=[table.pk])).content.decode()
    assert f'data-ws-path="/ws/tables/{table.pk}/"' in page
    assert "tables/table.js" in page and "tables/table.css" in page
    assert "Thursday Omaha" in page


def test_a_missing_table_is_404(spectator: Client) -> None:
    assert spectator.get(reverse("tables:table", args=[999])).status_code == 404


def test_a_spectator_sees_no_hole_cards(spectator: Client, hand_in_play: Hand) -> None:
    snapshot = snapshot_in(spectator.get(reverse("tables:table", args=[hand_in_play.table_id])))
    assert cards_of(snapshot, 1) is None and cards_of(snapshot, 4) is None
    assert snapshot["you"] == {"seat": None, "legal": None, "owes": None, "muck_losing": None}
    assert (
        "Log in"
        in spectator.get(reverse("tables:table", args=[hand_in_play.table_id])).content.decode()
    )


def test_a_player_sees_their_own_cards_only(player_client: Client, hand_in_play: Hand) -> None:
    snapshot = snapshot_in(player_client.get(reverse("tables:table", args=[hand_in_play.table_id])))
    assert len(cards_of(snapshot, 1) or []) == 4
    assert cards_of(snapshot, 4) is None
    assert snapshot["you"]["seat"] == 1  # type: ignore[index]
    assert snapshot["hand"]["commitment"] == hand_in_play.commitment  # type: ignore[index]


def test_the_page_works_without_javascript_as_a_seat_list(
    spectator: Client, hand_in_play: Hand
) -> None:
    page = spectator.get(reverse("tables:table", args=[hand_in_play.table_id])).content.decode()
    noscript = page[page.index("<noscript>") : page.index("</noscript>")]
    assert "pat" in noscript and "olga" in noscript


def test_only_the_director_gets_the_bots_form(
    director_client: Client, player_client: Client, table: Table
) -> None:
    url = reverse("tables:table", args=[table.pk])
    bots = reverse("tables:table_bots", args=[table.pk])
    assert bots in director_client.get(url).content.decode()
    assert bots not in player_client.get(url).content.decode()


def test_players_may_not_seat_bots(player_client: Client, table: Table) -> None:
    response = player_client.post(reverse("tables:table_bots", args=[table.pk]), {"count": "2"})
    assert response.status_code == 403
    assert not table.seats.filter(user__isnull=False).exists()


def test_a_tampered_bot_count_changes_nothing(director_client: Client, table: Table) -> None:
    response = director_client.post(
        reverse("tables:table_bots", args=[table.pk]), {"count": "50"}, follow=True
    )
    assert "Choose how many bots" in response.content.decode()
    assert not table.seats.filter(user__isnull=False).exists()


def test_the_director_seats_bots(director_client: Client, table: Table) -> None:
    response = director_client.post(reverse("tables:table_bots", args=[table.pk]), {"count": "2"})
    assert response.status_code == 302
    assert table.seats.filter(user__isnull=False).count() == 2


def test_bots_seated_from_the_page_leave_it_as_it_is(director_client: Client, table: Table) -> None:
    """From the table page (htmx) the answer is a line beside the form, not a reload: a
    page reloaded while the bots' seats arrive over its socket lost a "Sit" tapped then."""
    bots = reverse("tables:table_bots", args=[table.pk])
    response = director_client.post(bots, {"count": "2"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response.content.decode().strip() == "2 bots sat down."
    assert table.seats.filter(user__isnull=False).count() == 2
    response = director_client.post(bots, {"count": "50"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "Choose how many bots" in response.content.decode()
    assert table.seats.filter(user__isnull=False).count() == 2
    page = director_client.get(reverse("tables:table", args=[table.pk])).content.decode()
    assert f'hx-post="{bots}"' in page


def test_the_nav_links_to_the_lobby(spectator: Client) -> None:
    assert reverse("tables:lobby") in spectator.get(reverse("home")).content.decode()
