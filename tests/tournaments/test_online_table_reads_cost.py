"""What the online tournament's reads of its live tables cost in queries, whatever the number
of tables: the floor every hand end reads, the sweep's look for lost hand ends, the lobby's
tables in play and a player's own table. They read the tables through ``tables.selectors``,
never the tables' columns, and no query per table."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables.models import Table
from tests.tournaments.online_tables import seat_online
from tournaments import player_panel, selectors
from tournaments.models import Entry, Tournament, TournamentTable
from tournaments.services import online


def _two_more_tables(tournament: Tournament) -> None:
    seat_online(
        tournament,
        {3: {1: ("eve", 8000), 4: ("fay", 12000)}, 4: {2: ("gus", 7000), 6: ("hal", 13000)}},
    )


def _queries(work) -> int:  # type: ignore[no-untyped-def]
    with CaptureQueriesContext(connection) as done:
        work()
    return len(done)


def test_the_floor_costs_four_queries_at_any_number_of_tables(
    online_night: dict[str, Entry],
) -> None:
    tournament = online_night["ann"].tournament
    assert _queries(lambda: online._floor(tournament)) == 4
    _two_more_tables(tournament)
    assert _queries(lambda: online._floor(tournament)) == 4
    floor = online._floor(tournament)
    assert len(floor.tts) == 4
    # Held as the start leaves them, no hand dealt yet: between hands, none unsettled.
    assert floor.between_hands() == set(floor.live_ids) == floor.no_hand
    assert floor.unsettled() == set()


def test_the_floor_sees_an_unsettled_hand_and_a_hand_in_play(
    online_night: dict[str, Entry],
) -> None:
    tournament = online_night["ann"].tournament
    first, second = (
        TournamentTable.objects.filter(tournament=tournament)
        .order_by("number")
        .values_list("live_table_id", flat=True)
    )
    # Table 1 ended a hand the tournament has not dealt with; table 2 deals, not held.
    Table.objects.filter(pk=first).update(hand_count=1)
    Table.objects.filter(pk=second).update(held=False)
    floor = online._floor(tournament)
    assert floor.unsettled() == {first}
    assert floor.between_hands() == {first}
    assert floor.no_hand == {first, second}


def test_the_sweep_looks_for_lost_hand_ends_in_one_query(online_night: dict[str, Entry]) -> None:
    tournament = online_night["ann"].tournament
    _two_more_tables(tournament)
    # Every table dealt hands the tournament has seen, and deals again: nothing to do.
    TournamentTable.objects.filter(tournament=tournament).update(hand_seen=3)
    live_ids = TournamentTable.objects.filter(tournament=tournament).values("live_table_id")
    Table.objects.filter(pk__in=live_ids).update(hand_count=3, held=False)
    assert _queries(lambda: online.online_sweep()) == 1


def test_the_lobby_and_a_players_table_read_the_open_tables_in_one_query(
    online_night: dict[str, Entry],
) -> None:
    tournament = online_night["ann"].tournament
    _two_more_tables(tournament)
    assert _queries(lambda: selectors.live_tables_of(tournament)) == 1
    assert len(selectors.live_tables_of(tournament)) == 4
    ann = online_night["ann"]
    assert _queries(lambda: player_panel.my_table_url(tournament, ann)) == 1
    live_id = TournamentTable.objects.get(tournament=tournament, number=1).live_table_id
    assert player_panel.my_table_url(tournament, ann) == f"/tables/{live_id}/"
    Table.objects.filter(pk=live_id).update(closed_at=tournament.started_at)
    assert player_panel.my_table_url(tournament, ann) is None
    assert sorted(selectors.live_tables_of(tournament)) == [2, 3, 4]
