"""Hand histories: the list of my hands, the replayer, the PHH download and the verify page."""

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


def start_hand(table: Table) -> Hand:
    services.table_tick(table.pk, now=timezone.now() + timedelta(minutes=5))
    return Hand.objects.filter(table=table).order_by("-number").first()  # type: ignore[return-value]


@pytest.fixture
def hand_in_play(table: Table, player: User, opponent: User) -> Hand:
    services.seat_take(table.pk, player, 1, table.max_buy_in)
    services.seat_take(table.pk, opponent, 4, table.max_buy_in)
    return start_hand(table)


@pytest.fixture
def finished_hand(table: Table, hand_in_play: Hand, player: User, opponent: User) -> Hand:
    table.refresh_from_db()
    to_act = player if hand_in_play.to_act == 1 else opponent
    services.table_act(table.pk, to_act, hand_in_play.pk, table.version, "fold")
    hand_in_play.refresh_from_db()
    assert hand_in_play.is_complete
    return hand_in_play


def replay_in(response: object) -> dict[str, object]:
    html = response.content.decode()  # type: ignore[attr-defined]
    found = re.search(r'<script id="replay" type="application/json">(.*?)</script>', html, re.S)
    assert found
    return json.loads(found.group(1))


def test_my_hands_needs_a_login(spectator: Client) -> None:
    response = spectator.get(reverse("tables:hands"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_my_hands_lists_the_hands_i_played(player_client: Client, finished_hand: Hand) -> None:
    page = player_client.get(reverse("tables:hands")).content.decode()
    assert reverse("tables:hand_detail", args=[finished_hand.pk]) in page
    assert "Thursday Omaha" in page and finished_hand.summary in page


def test_my_hands_leaves_out_hands_i_did_not_play(
    director_client: Client, finished_hand: Hand
) -> None:
    page = director_client.get(reverse("tables:hands")).content.decode()
    assert reverse("tables:hand_detail", args=[finished_hand.pk]) not in page
    assert "No hands yet" in page


def test_my_hands_is_paginated_and_htmx_gets_the_rows(
    player_client: Client, finished_hand: Hand, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tables import views

    monkeypatch.setattr(views, "HANDS_PER_PAGE", 1)
    table = finished_hand.table
    second = start_hand(table)
    table.refresh_from_db()
    to_act = User.objects.get(table_seats__table=table, table_seats__number=second.to_act)
    services.table_act(table.pk, to_act, second.pk, table.version, "fold")
    first_page = player_client.get(reverse("tables:hands")).content.decode()
    assert "Page 1 of 2" in first_page and "?page=2" in first_page
    rows = player_client.get(reverse("tables:hands") + "?page=2", headers={"HX-Request": "true"})
    assert "<html" not in rows.content.decode() and "Page 2 of 2" in rows.content.decode()


def test_the_replayer_shows_my_cards_and_not_my_opponents(
    player_client: Client, finished_hand: Hand
) -> None:
    replay = replay_in(player_client.get(reverse("tables:hand_detail", args=[finished_hand.pk])))
    first = {s["seat"]: s for s in replay["steps"][0]["view"]["seats"]}  # type: ignore[index]
    assert len(first[1]["cards"]) == 4
    assert first[4]["cards"] is None
    assert replay["names"] == {"1": "pat", "4": "olga"}


def test_a_spectator_replay_shows_no_hole_cards(spectator: Client, finished_hand: Hand) -> None:
    response = spectator.get(reverse("tables:hand_detail", args=[finished_hand.pk]))
    replay = replay_in(response)
    for step in replay["steps"]:  # type: ignore[attr-defined]
        assert all(seat["cards"] is None for seat in step["view"]["seats"])
    page = response.content.decode()
    assert (
        "tables/replay.js" in page and reverse("tables:hand_phh", args=[finished_hand.pk]) in page
    )


def test_the_phh_download_hides_the_opponents_cards(
    player_client: Client, finished_hand: Hand
) -> None:
    response = player_client.get(reverse("tables:hand_phh", args=[finished_hand.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    text = response.content.decode()
    assert "variant" in text and "????????" in text


def test_verify_shows_a_matching_commitment_after_the_hand(
    spectator: Client, finished_hand: Hand
) -> None:
    page = spectator.get(reverse("tables:hand_verify", args=[finished_hand.pk])).content.decode()
    assert finished_hand.commitment in page
    # Only the cards the table saw are opened: never the whole deck nor the secret.
    assert finished_hand.deck not in page and finished_hand.secret not in page
    assert "The commitment matches" in page
    assert page.count(finished_hand.commitment) >= 2  # published and recomputed


def test_verify_reveals_nothing_while_the_hand_is_played(
    spectator: Client, hand_in_play: Hand
) -> None:
    page = spectator.get(reverse("tables:hand_verify", args=[hand_in_play.pk])).content.decode()
    assert "still being played" in page
    assert hand_in_play.secret not in page and hand_in_play.deck not in page


def test_a_missing_hand_is_404(spectator: Client) -> None:
    assert spectator.get(reverse("tables:hand_detail", args=[999])).status_code == 404
    assert spectator.get(reverse("tables:hand_verify", args=[999])).status_code == 404


@pytest.mark.parametrize("page", ["tables:hand_detail", "tables:hand_phh", "tables:hand_verify"])
def test_a_private_tables_hands_are_kept_from_whoever_may_not_watch_it(
    page: str, table: Table, finished_hand: Hand, player_client: Client, opponent: User
) -> None:
    # Watching a private table needs its invite; so does every page and download of its hands.
    Table.objects.filter(pk=table.pk).update(is_private=True, invite_token="invite-olga-oscar")
    url = reverse(page, args=[finished_hand.pk])
    outsider = Client()
    outsider.force_login(User.objects.create_user("oscar", password=PASSWORD))
    for stranger in (Client(), outsider):
        response = stranger.get(url)
        assert response.status_code == 403
        assert "olga" not in response.content.decode()
    assert player_client.get(url).status_code == 200  # a player of the hand still may

    invited = Client()
    invited.force_login(User.objects.get(username="oscar"))
    table.refresh_from_db()
    invited.get(reverse("tables:table_invite", args=[table.pk, table.invite_token]))
    assert invited.get(url).status_code == 200
