"""The clock socket through the real ASGI application: the state on connect, each change
after commit, nothing for a wrong token, nothing accepted from the client."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User

from config.asgi import application
from tests.tournaments.clock_helpers import ROW_LEVEL_1, ROW_LEVEL_2
from tournaments.models import Tournament, TournamentState
from tournaments.services.clock.controls import clock_next, clock_pause
from tournaments.services.clock.sweep import clock_sweep

pytestmark = [
    pytest.mark.usefixtures("clock_tasks_off"),
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
]

HEADERS = [(b"host", b"localhost"), (b"origin", b"http://localhost")]


async def open_clock(token: str) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(
        application, f"/ws/tournaments/{token}/clock/", headers=HEADERS
    )
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    return communicator


async def next_state(socket: WebsocketCommunicator) -> dict[str, Any]:
    frame = await socket.receive_json_from(timeout=5)
    assert frame["type"] == "clock"
    return frame


async def test_a_screen_gets_the_clock_on_connect(running_now: Tournament) -> None:
    socket = await open_clock(running_now.tv_token)
    state = await next_state(socket)
    assert state["tournament"]["name"] == "Thursday PLO8"
    assert state["clock"]["index"] == ROW_LEVEL_1 and state["clock"]["started"]
    # Data, not text: the end in epoch ms and the server's now, to count down locally.
    assert state["clock"]["ends_at_ms"] == round(running_now.level_ends_at.timestamp() * 1000)
    assert isinstance(state["clock"]["now_ms"], int)
    assert state["version"] == running_now.clock_version
    await socket.disconnect()


async def test_a_wrong_token_is_closed_with_4004(db: None) -> None:
    communicator = WebsocketCommunicator(
        application, "/ws/tournaments/not-a-real-token/clock/", headers=HEADERS
    )
    await communicator.connect(timeout=5)
    closed = await communicator.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4004}


async def test_each_change_reaches_every_screen_after_commit(
    running_now: Tournament, director: User
) -> None:
    tv, phone = await open_clock(running_now.tv_token), await open_clock(running_now.tv_token)
    await next_state(tv), await next_state(phone)
    await database_sync_to_async(clock_pause)(running_now.pk, by=director)
    for socket in (tv, phone):
        state = await next_state(socket)
        assert state["clock"]["paused"] and state["version"] == running_now.clock_version + 1
    await database_sync_to_async(clock_next)(running_now.pk, by=director)
    for socket in (tv, phone):
        state = await next_state(socket)
        assert state["clock"]["index"] == ROW_LEVEL_2
    await tv.disconnect()
    await phone.disconnect()


async def test_a_level_change_by_time_reaches_the_screen(running_now: Tournament) -> None:
    socket = await open_clock(running_now.tv_token)
    await next_state(socket)
    await database_sync_to_async(
        lambda: Tournament.objects.filter(pk=running_now.pk).update(
            level_ends_at=running_now.started_at
        )
    )()
    assert await database_sync_to_async(clock_sweep)()
    state = await next_state(socket)
    assert state["clock"]["stored_index"] == ROW_LEVEL_2
    await socket.disconnect()


async def test_other_tournaments_screens_hear_nothing(
    running_now: Tournament, clock_blind_structure, director: User
) -> None:  # type: ignore[no-untyped-def]
    def other_tournament() -> Tournament:
        from series.models import Event

        event = Event.objects.create(
            season=running_now.event.season,
            name="Other",
            starts_at=running_now.event.starts_at,
            buy_in=5,
        )
        return Tournament.objects.create(
            event=event, blind_structure=clock_blind_structure, state=TournamentState.RUNNING
        )

    other = await database_sync_to_async(other_tournament)()
    socket = await open_clock(other.tv_token)
    await next_state(socket)
    await database_sync_to_async(clock_pause)(running_now.pk, by=director)
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


async def test_the_socket_is_read_only(running_now: Tournament) -> None:
    socket = await open_clock(running_now.tv_token)
    before = await next_state(socket)
    await socket.send_to(text_data='{"type": "pause"}')
    await socket.send_to(text_data="not json at all")
    assert await socket.receive_nothing(timeout=0.3)
    fresh = await database_sync_to_async(lambda: Tournament.objects.get(pk=running_now.pk))()
    assert fresh.clock_version == before["version"] and fresh.paused_remaining is None
    await socket.disconnect()


async def test_an_entry_change_refreshes_the_screens(running_now: Tournament) -> None:
    """The action log's signal (any recorded action) brings players left and the prize
    pool to the screens without a clock change."""
    from django.db import transaction

    from series.models import Player
    from tournaments.models import ActionKind, Entry, EntryState
    from tournaments.services.undo import action_record

    socket = await open_clock(running_now.tv_token)
    assert (await next_state(socket))["field"]["entries"] == 0

    def register() -> None:
        with transaction.atomic():
            player = Player.objects.create(name="Walk-in")
            Entry.objects.create(tournament=running_now, player=player, state=EntryState.PLAYING)
            action_record(running_now, ActionKind.REGISTER, "Walk-in", by=None, undo={})

    await database_sync_to_async(register)()
    state = await next_state(socket)
    assert (state["field"]["entries"], state["field"]["players_left"]) == (1, 1)
    assert state["field"]["prize_pool"] == 20
    await socket.disconnect()
