"""The table socket through the real ASGI application: whole hands, and refused frames.

Three players and a spectator play whole hands; every frame any socket receives is checked
for cards that viewer must not see.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from config.asgi import application
from tables import services, throttle, timing
from tables.engine.records import BoardDealt, Burned, HoleDealt, Shown, record_from_json
from tables.models import ChatMessage, Hand, Seat, Table
from tables.selectors import table_chip_count
from tests.tables.conftest import deal, later

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

CARD_RANKS = set("23456789TJQKA")
CARD_SUITS = set("cdhs")


class Viewer:
    """One socket and every frame it received."""

    def __init__(self, name: str, communicator: WebsocketCommunicator, user: User | None) -> None:
        self.name = name
        self.ws = communicator
        self.user = user
        self.frames: list[dict[str, Any]] = []

    @property
    def snapshot(self) -> dict[str, Any]:
        return next(f for f in reversed(self.frames) if f["type"] == "snapshot")

    async def drain(self, quiet: float = 0.02) -> list[dict[str, Any]]:
        # receive_nothing waits without cancelling the application, unlike a timed-out
        # receive, which ends the consumer.
        got = []
        while not await self.ws.receive_nothing(timeout=quiet):
            frame = await self.ws.receive_json_from()
            self.frames.append(frame)
            got.append(frame)
        return got

    async def until(self, predicate: Any) -> dict[str, Any]:
        """Collect frames until the latest snapshot satisfies ``predicate``."""
        for _ in range(200):
            await self.drain()
            if predicate(self.snapshot):
                return self.snapshot
        raise AssertionError(f"{self.name}: no snapshot came to satisfy the test")

    async def send(self, frame: Any) -> None:
        await self.ws.send_to(text_data=json.dumps(frame))

    async def reply(self) -> dict[str, Any]:
        """The next non-snapshot frame sent to this socket."""
        while True:
            frame = await self.ws.receive_json_from(timeout=3)
            self.frames.append(frame)
            if frame["type"] != "snapshot":
                return frame


async def cookie_for(user: User) -> str:
    client = Client()
    await client.aforce_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


async def open_socket(table: Table, user: User | None, name: str) -> Viewer:
    headers = [(b"host", b"localhost"), (b"origin", b"http://localhost")]
    if user is not None:
        headers.append((b"cookie", (await cookie_for(user)).encode()))
    communicator = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    viewer = Viewer(name, communicator, user)
    viewer.frames.append(await communicator.receive_json_from(timeout=10))
    await viewer.drain()
    return viewer


async def drain_all(viewers: list[Viewer], table: Table | None = None) -> None:
    """Collect frames until every socket has a snapshot of the table's current version."""
    if table is None:
        table = await database_sync_to_async(lambda: Table.objects.order_by("-pk").first())()
    version = await database_sync_to_async(
        lambda: Table.objects.values_list("version", flat=True).get(pk=table.pk)
    )()
    for _ in range(100):
        await asyncio.gather(*(v.drain() for v in viewers))
        if all(
            any(f["type"] == "snapshot" and f["version"] >= version for f in v.frames)
            for v in viewers
        ):
            return
    raise AssertionError(f"not every socket reached version {version}")


async def wait_past(viewer: Viewer, version: int) -> None:
    """Wait until the socket got a snapshot newer than ``version`` (its move was applied)."""
    for _ in range(100):
        new = await viewer.drain()
        if any(f["type"] == "snapshot" and f["version"] > version for f in viewer.frames):
            return
        assert not any(f["type"] == "error" for f in new), new
    raise AssertionError(f"{viewer.name} never saw a version after {version}")


def card_leaves(value: Any, path: str = "") -> list[tuple[str, str]]:
    """Every string in a frame that is a card, with where it was; the reveal's deck and
    secret are whole strings, not cards, and are checked separately."""
    out: list[tuple[str, str]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            out += card_leaves(item, f"{path}.{key}")
    elif isinstance(value, list):
        for k, item in enumerate(value):
            out += card_leaves(item, f"{path}[{k}]")
    elif (
        isinstance(value, str)
        and len(value) == 2
        and value[0] in CARD_RANKS
        and value[1] in CARD_SUITS
    ):
        out.append((path, value))
    return out


def allowed_cards(hand: Hand, user: User | None) -> set[str]:
    """What this viewer may ever see of one hand: the board, shown hands, its own cards,
    and once the hand is over the burns (opened for the fairness check)."""
    from tables.engine.cards import card_str

    records = [record_from_json(r) for r in hand.records]
    seat = None
    if user is not None:
        seat = next((p.seat for p in hand.handplayer_set.all() if p.user_id == user.pk), None)
    allowed: set[str] = set()
    for r in records:
        if isinstance(r, BoardDealt) or isinstance(r, Shown):
            allowed |= {card_str(c) for c in r.cards}
        elif isinstance(r, HoleDealt) and r.seat == seat:
            allowed |= {card_str(c) for c in r.cards}
        elif isinstance(r, Burned) and hand.is_complete:
            allowed.add(card_str(r.card))
    return allowed


@database_sync_to_async
def assert_no_forbidden_cards(viewers: list[Viewer]) -> int:
    hands = {h.pk: h for h in Hand.objects.prefetch_related("handplayer_set")}
    checked = 0
    for viewer in viewers:
        for frame in viewer.frames:
            if frame["type"] != "snapshot" or frame["hand"] is None:
                continue
            hand = hands[frame["hand"]["id"]]
            allowed = allowed_cards(hand, viewer.user)
            for path, card in card_leaves(frame):
                assert card in allowed, f"{viewer.name} saw {card} at {path}"
                checked += 1
            reveal = frame["hand"]["reveal"]
            # The openings are published only once the hand is over (docs/protocol.md); the
            # deck and the secret never leave the server.
            assert (reveal is not None) == frame["hand"]["complete"]
            assert hand.deck not in json.dumps(frame)
            assert hand.secret not in json.dumps(frame)
    return checked


def choose(legal: dict[str, Any], turn: int) -> dict[str, Any]:
    """A mix of moves so hands reach every street, showdowns and folds."""
    if legal["raise"] and turn % 5 == 1:
        return {"action": "raise", "amount": legal["raise"]["min"]}
    if legal["bet"] and turn % 4 == 2:
        return {"action": "bet", "amount": legal["bet"]["min"]}
    if legal["check"]:
        return {"action": "check"}
    if turn % 9 == 8:
        return {"action": "fold"}
    return {"action": "call"}


async def play_hands(
    table: Table, players: list[Viewer], everyone: list[Viewer], hands: int
) -> int:
    """Play ``hands`` whole hands through the sockets; returns the moves made."""
    moves = 0
    for _ in range(hands):
        # Moves over the socket are stamped with the real clock; deal when the delay is up.
        await database_sync_to_async(deal)(table, later(timing.NEXT_HAND_DELAY_SECONDS + 1))
        await drain_all(everyone)
        for _ in range(200):
            snapshot = players[0].snapshot
            if snapshot["hand"]["complete"]:
                break
            to_act = snapshot["hand"]["to_act"]
            actor = next(p for p in players if p.snapshot["you"]["seat"] == to_act)
            legal = actor.snapshot["you"]["legal"]
            assert legal is not None, f"{actor.name} is to act but has no legal actions"
            for other in players:
                if other is not actor:
                    assert other.snapshot["you"]["legal"] is None
            await actor.send(
                {
                    "type": "act",
                    "hand": legal["hand"],
                    "version": legal["version"],
                    **choose(legal, moves),
                    "ref": f"m{moves}",
                }
            )
            moves += 1
            await wait_past(actor, legal["version"])
            await drain_all(everyone)
            errors = [f for p in everyone for f in p.frames if f["type"] == "error"]
            assert not errors, errors
        else:
            raise AssertionError("the hand did not finish")
    return moves


async def seat_three(table: Table, users: list[User]) -> None:
    for number, user in enumerate(users, start=1):
        await database_sync_to_async(services.seat_take)(table.pk, user, number, 100)


async def test_three_players_and_a_spectator_never_see_a_card_they_must_not(
    seated_table: Table, players: list[User]
) -> None:
    viewers = [await open_socket(seated_table, p, p.username) for p in players]
    spectator = await open_socket(seated_table, None, "spectator")
    everyone = [*viewers, spectator]

    moves = await play_hands(seated_table, viewers, everyone, hands=5)

    assert moves > 12
    checked = await assert_no_forbidden_cards(everyone)
    assert checked > 100
    # Every viewer saw its own cards, and the spectator none before a showdown.
    for viewer in viewers:
        assert any(
            "cards" in s
            for f in viewer.frames
            if f["type"] == "snapshot"
            for s in f["seats"]
            if s["seat"] == f["you"]["seat"]
        )
    counts = await database_sync_to_async(table_chip_count)(seated_table)
    assert counts["bought_in"] - counts["cashed_out"] == counts["seated"] == 300
    finished = await database_sync_to_async(
        lambda: Hand.objects.filter(table=seated_table, ended_at__isnull=False).count()
    )()
    assert finished == 5
    for v in everyone:
        await v.ws.disconnect()


@database_sync_to_async
def table_state(table: Table) -> tuple[int, int]:
    table.refresh_from_db()
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    return table.version, len(hand.records) if hand else 0


async def test_refused_frames_change_nothing(seated_table: Table, players: list[User]) -> None:
    viewers = [await open_socket(seated_table, p, p.username) for p in players]
    await database_sync_to_async(deal)(seated_table)
    await drain_all(viewers)
    snapshot = viewers[0].snapshot
    to_act = snapshot["hand"]["to_act"]
    actor = next(v for v in viewers if v.snapshot["you"]["seat"] == to_act)
    other = next(v for v in viewers if v is not actor)
    legal = actor.snapshot["you"]["legal"]
    hand_id, version = legal["hand"], legal["version"]
    before = await table_state(seated_table)

    cases = [
        (
            other,
            {"type": "act", "hand": hand_id, "version": version, "action": "call"},
            "not_your_turn",
        ),
        (
            actor,
            {"type": "act", "hand": hand_id, "version": version - 1, "action": "call"},
            "stale",
        ),
        (
            actor,
            {"type": "act", "hand": hand_id + 1, "version": version, "action": "call"},
            "stale",
        ),
        (
            actor,
            {
                "type": "act",
                "hand": hand_id,
                "version": version,
                "action": "raise",
                "amount": legal["raise"]["min"] - 1,
            },
            "illegal_action",
        ),
        (
            actor,
            {
                "type": "act",
                "hand": hand_id,
                "version": version,
                "action": "raise",
                "amount": legal["raise"]["max"] + 1,
            },
            "illegal_action",
        ),
        (
            actor,
            {"type": "act", "hand": hand_id, "version": version, "action": "check"},
            "illegal_action",
        ),
        (
            actor,
            {"type": "act", "hand": hand_id, "version": version, "action": "shove"},
            "malformed",
        ),
        (
            actor,
            {"type": "act", "hand": str(hand_id), "version": version, "action": "call"},
            "malformed",
        ),
        (
            actor,
            {"type": "act", "hand": hand_id, "version": version, "action": "raise", "amount": 10.5},
            "malformed",
        ),
        (actor, {"type": "dance"}, "malformed"),
        (actor, ["act"], "malformed"),
        (actor, {"type": "sit", "seat": 5, "buy_in": 100}, "already_seated"),
    ]
    for viewer, frame, code in cases:
        await viewer.send({**frame, "ref": "r1"} if isinstance(frame, dict) else frame)
        error = await viewer.reply()
        assert error["type"] == "error" and error["code"] == code, (frame, error)
        assert await table_state(seated_table) == before, frame

    await actor.ws.send_to(text_data="{not json")
    assert (await actor.reply())["code"] == "malformed"
    huge = json.dumps({"type": "chat", "text": "x" * (64 * 1024)})
    await actor.ws.send_to(text_data=huge)
    assert (await actor.reply())["code"] == "too_large"
    assert await table_state(seated_table) == before

    # The right frame works once; the same frame again is stale.
    good = {"type": "act", "hand": hand_id, "version": version, "action": "call"}
    await actor.send(good)
    await wait_past(actor, version)
    await drain_all(viewers)
    after = await table_state(seated_table)
    assert after != before
    await actor.send(good)
    assert (await actor.reply())["code"] == "stale"
    assert await table_state(seated_table) == after
    for v in viewers:
        await v.ws.disconnect()


async def test_an_anonymous_socket_may_watch_but_not_act(seated_table: Table) -> None:
    spectator = await open_socket(seated_table, None, "spectator")
    assert spectator.snapshot["you"] == {
        "seat": None,
        "legal": None,
        "owes": None,
        "muck_losing": None,
    }
    await spectator.send({"type": "sit", "seat": 5, "buy_in": 100})
    assert (await spectator.reply())["code"] == "auth_required"
    await spectator.send({"type": "act", "hand": 1, "version": 1, "action": "fold"})
    assert (await spectator.reply())["code"] == "auth_required"
    await spectator.ws.disconnect()


async def test_a_socket_from_another_origin_is_refused(seated_table: Table) -> None:
    communicator = WebsocketCommunicator(
        application,
        f"/ws/tables/{seated_table.pk}/",
        headers=[(b"host", b"localhost"), (b"origin", b"http://evil.example.com")],
    )
    connected, _ = await communicator.connect()
    assert not connected


async def test_a_flooding_client_is_throttled_then_disconnected(
    seated_table: Table, players: list[User]
) -> None:
    viewer = await open_socket(seated_table, players[0], "ann")
    codes = []
    for _ in range(45):
        await viewer.send({"type": "sit_out_please"})
    closed = False
    while True:
        try:
            output = await viewer.ws.receive_output(timeout=2)
        except TimeoutError:
            break
        if output["type"] == "websocket.close":
            assert output["code"] == 4008
            closed = True
            break
        frame = json.loads(output["text"])
        if frame["type"] == "error":
            codes.append(frame["code"])
    assert "throttled" in codes
    assert closed


async def test_sit_chat_and_leave_over_the_socket(table: Table, players: list[User]) -> None:
    ann = await open_socket(table, players[0], "ann")
    await ann.send({"type": "sit", "seat": 2, "buy_in": 10})
    assert (await ann.reply())["code"] == "bad_buy_in"
    await ann.send({"type": "sit", "seat": 2, "buy_in": 60, "wait_for_big_blind": False})
    snapshot = await ann.until(lambda s: s["seats"][1]["player"] and s["seats"][1]["connected"])
    assert snapshot["you"]["seat"] == 2
    seat = snapshot["seats"][1]
    assert seat["player"]["name"] == "ann" and seat["stack"] == 60 and seat["connected"]
    await ann.send({"type": "chat", "text": "gl all"})
    chat = await ann.reply()
    assert chat["type"] == "chat" and chat["text"] == "gl all" and chat["name"] == "ann"
    await ann.send({"type": "options"})
    assert (await ann.reply())["code"] == "malformed"
    await ann.send({"type": "options", "muck_losing": "no"})
    assert (await ann.reply())["code"] == "malformed"
    await ann.send({"type": "options", "muck_losing": False})
    snapshot = await ann.until(lambda s: s["you"]["muck_losing"] is False)
    await ann.send({"type": "leave"})
    snapshot = await ann.until(lambda s: s["you"]["seat"] is None)
    assert snapshot["seats"][1] == {"seat": 2, "player": None, "state": "empty"}
    counts = await database_sync_to_async(table_chip_count)(table)
    assert counts == {"bought_in": 60, "cashed_out": 60, "seated": 0}
    await ann.ws.disconnect()


async def test_a_player_who_reconnects_on_their_turn_gets_twenty_more_seconds(
    seated_table: Table, players: list[User]
) -> None:
    started = await database_sync_to_async(deal)(seated_table)

    @database_sync_to_async
    def current() -> Hand:
        return Hand.objects.filter(table=seated_table).order_by("-number").first()

    hand = await current()
    actor = players[hand.to_act - 1]
    deadline = hand.deadline
    assert deadline == started + __import__("datetime").timedelta(seconds=30)
    viewer = await open_socket(seated_table, actor, actor.username)
    hand = await current()
    assert hand.deadline > deadline
    assert viewer.snapshot["hand"]["deadline"] == int(hand.deadline.timestamp() * 1000)
    await viewer.ws.disconnect()


async def test_a_seated_player_s_socket_closes_quietly_after_the_table_is_deleted(
    seated_table: Table, players: list[User]
) -> None:
    ann = await open_socket(seated_table, players[0], "ann")
    await database_sync_to_async(Table.objects.filter(pk=seated_table.pk).delete)()
    # Uncounting the socket finds no table: nothing to count, and no error for the server.
    await ann.ws.disconnect()


async def test_a_deeply_nested_frame_is_malformed_and_the_socket_keeps_its_bookkeeping(
    seated_table: Table, players: list[User]
) -> None:
    # '"[" * 50000' (50 KB, under the size limit) raised RecursionError
    # in receive; the socket closed 1011 and the player stayed "connected".
    ann = await open_socket(seated_table, players[0], "ann")
    await ann.ws.send_to(text_data="[" * 50000)
    assert (await ann.reply())["code"] == "malformed"
    await ann.send({"type": "options", "muck_losing": False})
    await ann.until(lambda s: s["you"]["muck_losing"] is False)  # still served
    seat = await database_sync_to_async(Seat.objects.get)(table=seated_table, user=players[0])
    assert seat.sockets
    await ann.ws.disconnect()
    seat = await database_sync_to_async(Seat.objects.get)(table=seated_table, user=players[0])
    assert seat.sockets == {}


async def test_flood_limits_count_a_players_sockets_together(
    seated_table: Table, players: list[User]
) -> None:
    # one user with four sockets posted 60 chat lines in 0.01 s.
    sockets = [await open_socket(seated_table, players[0], f"ann-{k}") for k in range(4)]
    # The budget is counted in fixed windows: lines that straddle two get two budgets. Late
    # in a window (a busy host may take seconds over the 60 lines), wait for the next one.
    left = throttle.CHAT_WINDOW_SECONDS - time.time() % throttle.CHAT_WINDOW_SECONDS
    if left < throttle.CHAT_WINDOW_SECONDS / 2:
        await asyncio.sleep(left + 0.05)
    sent = 15 * len(sockets)
    for _ in range(15):
        for ws in sockets:
            await ws.send({"type": "chat", "text": "spam"})
    # Every line is answered one way or the other: stored, or refused to its socket. Wait
    # for all the answers (a busy host may write them late), not for a quiet spell.
    count_stored = database_sync_to_async(
        lambda: ChatMessage.objects.filter(table=seated_table).count()
    )
    deadline = time.monotonic() + 30
    while True:
        await asyncio.gather(*(ws.drain(quiet=0.05) for ws in sockets))
        refused = [f for ws in sockets for f in ws.frames if f["type"] == "error"]
        stored = await count_stored()
        if stored + len(refused) >= sent or time.monotonic() > deadline:
            break
    assert (stored, len(refused)) == (
        throttle.CHAT_LINES_PER_WINDOW,
        sent - throttle.CHAT_LINES_PER_WINDOW,
    )
    assert {f.get("code") for f in refused} == {"throttled"}
    # A fifth page of the same table is refused; another player is not.
    headers = [
        (b"host", b"localhost"),
        (b"origin", b"http://localhost"),
        (b"cookie", (await cookie_for(players[0])).encode()),
    ]
    fifth = WebsocketCommunicator(application, f"/ws/tables/{seated_table.pk}/", headers=headers)
    await fifth.connect()
    refused = await fifth.receive_json_from(timeout=5)
    assert refused["code"] == "too_many_sockets"
    assert (await fifth.receive_output(timeout=5))["code"] == 4009
    ben = await open_socket(seated_table, players[1], "ben")
    for ws in [*sockets, ben]:
        await ws.ws.disconnect()
