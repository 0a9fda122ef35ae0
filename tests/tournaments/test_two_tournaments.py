"""A player in two online tournaments at once: each tournament's table page stays with its
own tournament (a page left at a table of one never follows the player to a seat of the
other), and a rebuy or a notice asked for in one is answered in that one's panel."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from series.models import Event
from tables import services as tables
from tests.tournaments.factories import start
from tests.tournaments.online_tables import bust, clock_running, seat_online
from tournaments.models import Tournament, TournamentTable


def second_tournament(first: Tournament) -> Tournament:
    """Another online tournament of the same night's season, in play at level 1."""
    event = Event.objects.create(
        season=first.event.season,
        name="Friday PLO",
        starts_at=first.event.starts_at,
        buy_in=20,
        fee=5,
        starting_stack=10000,
    )
    other = Tournament.objects.create(
        event=event,
        blind_structure=first.blind_structure,
        online=True,
        rebuys_allowed=1,
        rebuy_until_level=3,
        rebuy_chips=10000,
        rebuy_price=20,
    )
    start(other)
    clock_running(other)
    return other


def live_id(tournament: Tournament, number: int) -> int:
    return TournamentTable.objects.get(tournament=tournament, number=number).live_table_id


def test_a_table_page_never_follows_the_player_to_another_tournament(
    online_tournament, online_night
) -> None:
    other = second_tournament(online_tournament)
    seat_online(other, {1: {1: ("ann", 5000), 2: ("eve", 5000)}})
    # Ann goes out of the first tournament: her page at its table 1 has nowhere to go there.
    bust(online_night["ann"], 4)
    ann = User.objects.get(username="ann")
    assert tables.seat_elsewhere(live_id(online_tournament, 1), ann) is None
    # Moved within the other tournament, her page there follows her.
    assert tables.seat_elsewhere(live_id(other, 1), User.objects.get(username="dee")) is None


def test_a_rebuy_is_answered_in_the_panel_of_its_own_tournament(
    online_tournament, online_night
) -> None:
    other = second_tournament(online_tournament)
    seat_online(other, {1: {1: ("ann", 5000), 2: ("eve", 5000)}})
    client = Client()
    client.force_login(User.objects.get(username="ann"))
    # A rebuy tapped in the first tournament, claiming the other tournament's table.
    answer = client.post(
        f"/tournaments/{online_tournament.pk}/take/",
        {
            "kind": "rebuy",
            "entry": online_night["ann"].pk,
            "seen": 0,
            "table": live_id(other, 1),
        },
        HTTP_HX_REQUEST="true",
    )
    html = answer.content.decode()
    assert html.count("Rebuy taken") == 1
    assert online_tournament.event.name in html
    assert "Friday PLO" not in html
    # The panel is the first tournament's on its lobby, not at the other's table.
    assert f'name="table" value="{live_id(other, 1)}"' not in html


def test_a_notice_of_one_tournament_is_not_shown_in_the_other(
    online_tournament, online_night
) -> None:
    other = second_tournament(online_tournament)
    seat_online(other, {1: {1: ("ann", 5000), 2: ("eve", 5000)}})
    client = Client()
    client.force_login(User.objects.get(username="ann"))
    # A rebuy refused in the other tournament, from a page without JavaScript: its notice
    # waits for the page it goes back to.
    client.post(f"/tournaments/{other.pk}/take/", {"kind": "rebuy", "entry": 999999, "seen": 0})
    panel = client.post(
        f"/tournaments/{online_tournament.pk}/take/",
        {"kind": "rebuy", "entry": online_night["ann"].pk, "seen": 0},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "This entry does not exist." not in panel
    assert panel.count("Rebuy taken") == 1
