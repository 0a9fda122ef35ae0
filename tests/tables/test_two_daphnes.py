"""Two web processes on channels-redis serve one table: each ``manage.py serve`` (a daphne),
as the distributed mode's Procfile and systemd unit start them.

Players on both processes play whole hands; a move made through one process reaches the
sockets of the other through Redis, and every socket ends at the table's last version.
This test process plays the periodic sweep (``table_tick``) that Celery beat runs in
production. Needs REDIS_URL and a PostgreSQL DATABASE_URL (CI sets both).
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from tables import services
from tables.models import Hand, Table
from tables.runtime.state import STATE
from tables.selectors import table_chip_count
from tests.tables.conftest import make_players
from tests.tables.servers import Player, free_port, server_env, web_processes

pytestmark = [
    pytest.mark.distributed,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not settings.REDIS_URL
        or not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
        reason="distributed mode needs REDIS_URL and a PostgreSQL DATABASE_URL",
    ),
]


@pytest.fixture
def two_daphnes() -> Iterator[list[int]]:
    db = connection.settings_dict
    url = f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"
    env = server_env(DATABASE_URL=url, TABLES_NEXT_HAND_DELAY_MS="300")
    ports = [free_port(), free_port()]
    with web_processes(env, ports):
        yield ports


def in_thread(query):  # type: ignore[no-untyped-def]
    """Run a query in a worker thread and close that thread's connection after it."""
    try:
        return query()
    finally:
        connection.close()


def cookie(user: User) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def test_players_on_two_daphnes_play_one_table(
    two_daphnes: list[int], director: User, settings
) -> None:  # type: ignore[no-untyped-def]
    settings.TABLES_NEXT_HAND_DELAY_MS = 300
    table = services.table_create(created_by=director, name="Two daphnes", big_blind=2)
    users = make_players("ann", "ben", "cal")
    for number, user in enumerate(users, start=1):
        services.seat_take(table.pk, user, number, 100)
    a, b = two_daphnes
    players = [
        Player("ann", a, table.pk, cookie(users[0]), seed=1),
        Player("ben", b, table.pk, cookie(users[1]), seed=2),
        Player("cal", a, table.pk, cookie(users[2]), seed=3),
    ]
    watcher = Player("spectator", b, table.pk, "", seed=4)

    stop_ticking = threading.Event()
    final: list[int] = []

    def sweep() -> None:
        try:
            while not stop_ticking.wait(0.2):
                services.table_tick(table.pk)
        finally:
            connection.close()

    ticker = threading.Thread(target=sweep)
    ticker.start()

    async def play() -> None:
        halt = asyncio.Event()
        tasks = [asyncio.create_task(p.run(halt)) for p in [*players, watcher]]
        for _ in range(200):
            await asyncio.sleep(0.1)
            finished = await asyncio.to_thread(
                in_thread, lambda: Hand.objects.filter(table=table, ended_at__isnull=False).count()
            )
            if finished >= 3:
                break
        stop_ticking.set()
        await asyncio.sleep(1.0)  # let the last broadcasts arrive
        # Closing sockets changes the table too (who is connected): note the version first.
        final.append(
            await asyncio.to_thread(
                in_thread, lambda: Table.objects.values_list("version", flat=True).get(pk=table.pk)
            )
        )
        halt.set()
        await asyncio.gather(*tasks)

    try:
        asyncio.run(play())
    finally:
        stop_ticking.set()
        ticker.join()

    table = Table.objects.get(pk=table.pk)
    assert Hand.objects.filter(table=table, ended_at__isnull=False).count() >= 3
    for p in [*players, watcher]:
        assert p.versions == sorted(p.versions), f"{p.name} got versions out of order"
        assert final[0] in p.versions, f"{p.name} missed the last change"
    # Moves were made through both processes.
    assert players[0].sent and players[1].sent
    # The snapshot's parts travel between the processes with every seat's cards; what each
    # socket got holds its own and, before the hands are turned up, nobody else's.
    for p in [*players, watcher]:
        snapshots = [f for f in p.frames if f["type"] == "snapshot"]
        own = [f["you"]["seat"] for f in snapshots]
        for frame, seat in zip(snapshots, own, strict=True):
            hand = frame["hand"]
            turned_up = hand is not None and (hand["complete"] or hand["equity"] is not None)
            others = [s["seat"] for s in frame["seats"] if s.get("cards") and s["seat"] != seat]
            assert turned_up or not others, f"{p.name} saw the cards of seats {others}"
        if p is not watcher:
            assert any(
                s.get("cards") and s["seat"] == seat
                for frame, seat in zip(snapshots, own, strict=True)
                for s in frame["seats"]
            ), f"{p.name} never saw their own cards"
    for hand in Hand.objects.filter(table=table):
        STATE.engine(hand)  # every hand replays from its records
    counts = table_chip_count(table)
    assert counts["bought_in"] - counts["cashed_out"] == counts["seated"] == 300
