"""The night socket through the real ASGI application: a player's own night on connect, a
move's notice to that player only, an elimination's place, and nobody's night for a
visitor who is nobody."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from config.asgi import application
from tests.pages import without_tokens
from tests.tournaments.factories import make_user, seat
from tournaments.models import Entry, Tournament
from tournaments.services.results import entry_eliminate
from tournaments.services.seating import seating_move_confirm

pytestmark = [
    pytest.mark.usefixtures("clock_tasks_off"),
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
]

HEADERS = [(b"host", b"localhost"), (b"origin", b"http://localhost")]


def _seated(tournament: Tournament) -> dict[str, Entry]:
    entries = seat(tournament, {1: {3: "Ben", 4: "Cy"}, 2: {5: "Ann", 6: "Dee"}})
    for name in ("Ann", "Ben"):
        player = entries[name].player
        player.user = make_user(name.lower())
        player.save(update_fields=["user"])
    return entries


async def open_night(tournament: Tournament, user: User | None, lang: str = "en") -> Any:
    headers = list(HEADERS)
    if user is not None:
        client = Client()
        await client.aforce_login(user)
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    socket = WebsocketCommunicator(
        application, f"/ws/tournaments/{tournament.pk}/night/?lang={lang}", headers=headers
    )
    connected, _ = await socket.connect(timeout=5)
    assert connected
    return socket


async def frames_for(socket: Any, seconds: float) -> list[dict[str, Any]]:
    """Every frame the socket gets within ``seconds``."""
    frames = []
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end:
        # ``receive_nothing`` waits without ending the application, as a timed-out
        # ``receive_json_from`` would.
        if not await socket.receive_nothing(timeout=0.1, interval=0.01):
            frames.append(await socket.receive_json_from(timeout=5))
    return frames


async def test_a_move_tells_that_player_only(tournament: Tournament, director: User) -> None:
    entries = await database_sync_to_async(_seated)(tournament)
    ann_user = entries["Ann"].player.user
    ben_user = entries["Ben"].player.user
    ann, ben = await open_night(tournament, ann_user), await open_night(tournament, ben_user)
    first = await ann.receive_json_from(timeout=5)
    assert first["type"] == "night" and first["seat"] == [2, 5] and first["notice"] is None
    assert (await ben.receive_json_from(timeout=5))["seat"] == [1, 3]

    await database_sync_to_async(seating_move_confirm)(
        tournament.pk, entries["Ann"].pk, 1, 5, by=director
    )
    ann_frames = await frames_for(ann, 1.5)
    notices = [f["notice"] for f in ann_frames if f["notice"]]
    assert notices == [{"kind": "moved", "text": "Table 2 seat 5 → table 1 seat 5"}]
    assert ann_frames[-1]["seat"] == [1, 5]
    # Ben hears the clock's change (the night may follow it), never Ann's notice.
    ben_frames = await frames_for(ben, 0.5)
    assert all(f["notice"] is None for f in ben_frames)
    assert all(f["seat"] == [1, 3] for f in ben_frames)
    assert all("Ann" not in without_tokens(f["html"]) for f in ben_frames)
    await ann.disconnect()
    await ben.disconnect()


async def test_an_elimination_tells_the_place(tournament: Tournament, director: User) -> None:
    entries = await database_sync_to_async(_seated)(tournament)
    ann = await open_night(tournament, entries["Ann"].player.user)
    await ann.receive_json_from(timeout=5)
    await database_sync_to_async(entry_eliminate)(tournament.pk, [entries["Ann"].pk], by=director)
    frames = await frames_for(ann, 1.5)
    assert {"kind": "out", "text": "You finished 4th."} in [f["notice"] for f in frames]
    assert frames[-1]["status"] == "out" and frames[-1]["seat"] is None
    await ann.disconnect()


async def test_the_socket_answers_pings(tournament: Tournament) -> None:
    entries = await database_sync_to_async(_seated)(tournament)
    ann = await open_night(tournament, entries["Ann"].player.user)
    await ann.receive_json_from(timeout=5)
    await ann.send_to(text_data="ping")
    assert await ann.receive_json_from(timeout=5) == {"type": "pong"}
    await ann.disconnect()


async def test_nobody_gets_no_night(tournament: Tournament) -> None:
    await database_sync_to_async(_seated)(tournament)
    socket = await open_night(tournament, None)
    closed = await socket.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4003}
