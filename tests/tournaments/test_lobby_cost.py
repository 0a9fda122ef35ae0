"""What the lobby costs with 300 players at 34 live tables: queries and time per refresh.

Every viewer polls the public fragment every ``PUBLIC_POLL_SECONDS``; it is rendered once per
``PUBLIC_CACHE_SECONDS`` and served from the cache in between, so 300 viewers cost about one
render per five seconds plus 300 cache reads (one tournament query each). Each player's own
fragment and a table's panel are a handful of small queries, independent of the field size.
Measured here on SQLite (the numbers printed with ``-s``); the query counts are the guard.
"""

from __future__ import annotations

import time

from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from series.models import Season, SeasonVisibility
from tests.tournaments.factories import start
from tests.tournaments.online_tables import seat_online
from tournaments.models import TournamentTable


def field(tournament, players: int = 300, seats: int = 9) -> None:
    layout: dict[int, dict[int, tuple[str, int]]] = {}
    for index in range(players):
        table, seat = divmod(index, seats)
        layout.setdefault(table + 1, {})[seat + 1] = (f"p{index:03d}", 10000 + index)
    seat_online(tournament, layout)


def test_the_lobby_of_300_players_stays_cheap(online_tournament) -> None:
    online_tournament.capacity = None
    online_tournament.save()
    start(online_tournament)
    field(online_tournament)
    assert TournamentTable.objects.filter(tournament=online_tournament).count() == 34
    cache.clear()
    public = reverse("tournaments:lobby_public", args=[online_tournament.pk])
    # A season the host made public: anyone may watch, with no session to read.
    Season.objects.filter(pk=online_tournament.event.season_id).update(
        visibility=SeasonVisibility.PUBLIC
    )
    viewer = Client()

    with CaptureQueriesContext(connection) as rendered:
        began = time.perf_counter()
        first = viewer.get(public)
        render_ms = (time.perf_counter() - began) * 1000
    assert first.status_code == 200
    assert first.content.decode().count(">Watch<") == 34

    with CaptureQueriesContext(connection) as cached:
        began = time.perf_counter()
        for _ in range(50):
            viewer.get(public)
        cached_ms = (time.perf_counter() - began) * 1000 / 50

    player = Client()
    player.force_login(online_tournament.entries.get(player__name="P150").player.user)
    mine = reverse("tournaments:lobby_mine", args=[online_tournament.pk])
    with CaptureQueriesContext(connection) as own:
        player.get(mine)
    table = TournamentTable.objects.get(tournament=online_tournament, number=17).live_table
    with CaptureQueriesContext(connection) as panel:
        player.get(reverse("tables:table_panels", args=[table.pk]))

    print(
        f"\npublic fragment: {len(rendered)} queries, {render_ms:.0f} ms rendered; "
        f"{len(cached) / 50:.0f} queries, {cached_ms:.1f} ms from the cache; "
        f"own panel: {len(own)} queries; table panel: {len(panel)} queries"
    )
    # The field's size does not multiply the queries: no query per table or per player.
    assert len(rendered) <= 8
    assert len(cached) <= 50 * 2
    assert len(own) <= 20
    assert len(panel) <= 22
