"""The state filed after a move, from the writer's own rows, is the state the database holds.

After a move the service builds the shared snapshot state from the rows it has just written
instead of reading them back (``tables.runtime.state``: publish). Every viewer's
snapshot built that way must equal the one built from a fresh read.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

import pytest
from channels.layers import InMemoryChannelLayer
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables import services, timing
from tables.models import ChatMessage, Hand, Seat, Table
from tables.runtime import snapshots
from tables.runtime.state import STATE, TableState
from tests.tables.conftest import later

pytestmark = pytest.mark.django_db


def _fresh(table: Table, viewer: User | None) -> dict:
    """The snapshot as a process that kept nothing builds it, from a fresh read."""
    return TableState().snapshot(table.pk, viewer)


def _cached(table_id: int, created_at: Any, version: int, viewer: User | None) -> dict | None:
    """The snapshot this process filed for that version, if any (no query)."""
    text = STATE.snapshot_text_if_cached(table_id, created_at, version, viewer)
    return None if text is None else json.loads(text)


def _reads(queries: CaptureQueriesContext, table: str) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if table in q["sql"]]


def _without_clock(snapshot: dict) -> dict:
    return {k: v for k, v in snapshot.items() if k != "now"}


def test_each_viewer_sees_the_same_snapshot_from_the_writer_as_from_the_database(
    seated_table: Table, players: list[User], django_capture_on_commit_callbacks
) -> None:
    viewers: list[User | None] = [*players, None]
    with django_capture_on_commit_callbacks(execute=True):
        services.chat_post(seated_table.pk, players[0], "good luck")
    now = later(timing.NEXT_HAND_DELAY_SECONDS + 1)
    for hand_number in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            if not services.table_tick(seated_table.pk, now=now):
                assert hand_number > 0  # players went broke: fewer than two left
                break
        for _ in range(60):
            hand = Hand.objects.filter(table=seated_table).order_by("-number").first()
            if hand.is_complete:
                break
            if hand.reveal_at is not None:  # an all-in run-out, street by street
                with django_capture_on_commit_callbacks(execute=True):
                    assert services.table_tick(seated_table.pk, now=hand.reveal_at)
                continue
            actor = Seat.objects.get(table=seated_table, number=hand.to_act).user
            legal = STATE.snapshot(seated_table.pk, actor)["you"]["legal"]
            action = (
                "raise"
                if legal["raise"] and hand_number == 1
                else ("call" if legal["call"] else "check")
            )
            amount = legal["raise"]["min"] if action == "raise" else None
            with django_capture_on_commit_callbacks(execute=True):
                services.table_act(
                    seated_table.pk, actor, legal["hand"], legal["version"], action, amount, now=now
                )
            seated_table.refresh_from_db()
            filed = {
                id(v): _cached(seated_table.pk, seated_table.created_at, seated_table.version, v)
                for v in viewers
            }
            for viewer in viewers:
                assert filed[id(viewer)] is not None, "the move filed no state"
                assert _without_clock(filed[id(viewer)]) == _without_clock(
                    _fresh(seated_table, viewer)
                )
        seated_table.refresh_from_db()
        now = seated_table.next_hand_at


def test_each_viewer_s_text_holds_its_own_cards_and_nobody_else_s(
    seated_table: Table, players: list[User], django_capture_on_commit_callbacks
) -> None:
    import json

    now = later(timing.NEXT_HAND_DELAY_SECONDS + 1)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.table_tick(seated_table.pk, now=now)
    seated_table.refresh_from_db()
    for viewer in [*players, None]:
        key = (seated_table.pk, seated_table.created_at, seated_table.version, viewer)
        snapshot = json.loads(STATE.snapshot_text_if_cached(*key))
        assert snapshot["version"] == seated_table.version
        mine = [s["seat"] for s in snapshot["seats"] if s.get("cards")]
        seat = Seat.objects.filter(table=seated_table, user=viewer).first()
        assert mine == ([seat.number] if viewer is not None else [])


def test_the_wire_a_broadcast_carries_gives_each_viewer_its_own_text(
    seated_table: Table, players: list[User], django_capture_on_commit_callbacks
) -> None:
    """Another process builds each socket's text from the broadcast alone, as channels-redis
    delivers it (msgpack, string keys): the same text as the writer's, own cards only."""
    import json

    import msgpack

    now = later(timing.NEXT_HAND_DELAY_SECONDS + 1)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.table_tick(seated_table.pk, now=now)
    seated_table.refresh_from_db()
    stranger = User.objects.create_user("rail", password="x")
    wire = STATE.wire_if_cached(seated_table.pk, seated_table.created_at, seated_table.version)
    delivered = msgpack.unpackb(msgpack.packb(wire, use_bin_type=True), raw=False)
    for viewer in [*players, stranger, None]:
        key = (seated_table.pk, seated_table.created_at, seated_table.version, viewer)
        text = snapshots.snapshot_text_from_wire(delivered, viewer)
        assert _without_clock(json.loads(text)) == _without_clock(_cached(*key))
        seats_with_cards = [s["seat"] for s in json.loads(text)["seats"] if s.get("cards")]
        mine = Seat.objects.filter(table=seated_table, user=viewer).first()
        assert seats_with_cards == ([mine.number] if viewer in players else [])


class RecordingLayer(InMemoryChannelLayer):
    """A channel layer that keeps what the tables send to their groups."""

    sent: ClassVar[list[dict[str, Any]]] = []

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        self.sent.append(message)


def test_a_change_carries_the_wire_only_on_a_layer_shared_between_processes(
    seated_table: Table,
    players: list[User],
    django_capture_on_commit_callbacks,
    monkeypatch,
    settings,
) -> None:
    from channels.layers import channel_layers

    from tables.runtime import broadcast

    assert broadcast.carries_state() == (
        not isinstance(channel_layers["default"], InMemoryChannelLayer)
    )
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": f"{__name__}.RecordingLayer"}}
    sent = RecordingLayer.sent
    sent.clear()
    monkeypatch.setattr(broadcast, "carries_state", lambda: False)
    with django_capture_on_commit_callbacks(execute=True):
        services.chat_post(seated_table.pk, players[0], "in memory")
    assert [m for m in sent if m["type"] == "table.changed"][0].keys() == {"type", "version"}

    sent.clear()
    monkeypatch.setattr(broadcast, "carries_state", lambda: True)
    with django_capture_on_commit_callbacks(execute=True):
        services.chat_post(seated_table.pk, players[1], "over redis")
    changed = [m for m in sent if m["type"] == "table.changed"][0]
    text = snapshots.snapshot_text_from_wire(changed["wire"], players[1])
    assert '"text":"over redis"' in text


def test_a_move_after_another_process_s_broadcast_reads_no_chat_or_recent_hands(
    seated_table: Table, players: list[User], django_capture_on_commit_callbacks, monkeypatch
) -> None:
    """The process that makes the next move may not have built the version before it; the
    recent hands and chat the broadcast carried are enough, and the state is the same."""
    now = later(timing.NEXT_HAND_DELAY_SECONDS + 1)
    with django_capture_on_commit_callbacks(execute=True):
        services.chat_post(seated_table.pk, players[0], "gl")
        assert services.table_tick(seated_table.pk, now=now)
    seated_table.refresh_from_db()
    key = (seated_table.pk, seated_table.created_at, seated_table.version)
    wire = STATE.wire_if_cached(*key)
    STATE.forget()  # built "elsewhere": only the broadcast came here
    STATE.heard(*key, wire)

    hand = Hand.objects.filter(table=seated_table).get()
    actor = Seat.objects.get(table=seated_table, number=hand.to_act).user
    with CaptureQueriesContext(connection) as queries:
        with django_capture_on_commit_callbacks(execute=True):
            services.table_act(
                seated_table.pk, actor, hand.pk, seated_table.version, "call", now=now
            )
    # Read back neither the chat nor the recent hands the broadcast carried.
    assert _reads(queries, ChatMessage._meta.db_table) == []
    assert _reads(queries, '"ended_at" IS NOT NULL') == []
    seated_table.refresh_from_db()
    for viewer in [*players, None]:
        filed = _cached(seated_table.pk, seated_table.created_at, seated_table.version, viewer)
        assert filed is not None and filed["chat"][0]["text"] == "gl"
        assert _without_clock(filed) == _without_clock(_fresh(seated_table, viewer))


def test_a_move_that_ends_the_hand_puts_it_first_in_the_recent_hands_without_a_query(
    seated_table: Table, players: list[User], django_capture_on_commit_callbacks, monkeypatch
) -> None:
    """More hands than the snapshot recalls, each ended by a fold: the recent hands filed
    after the ending move are the database's, and the move read none of them."""

    now = later(timing.NEXT_HAND_DELAY_SECONDS + 1)
    for _ in range(snapshots.RECENT_HANDS + 2):
        with django_capture_on_commit_callbacks(execute=True):
            assert services.table_tick(seated_table.pk, now=now)
        while True:
            hand = Hand.objects.filter(table=seated_table).order_by("-number").first()
            if hand.is_complete:
                break
            seated_table.refresh_from_db()
            actor = Seat.objects.get(table=seated_table, number=hand.to_act).user
            with (
                CaptureQueriesContext(connection) as queries,
                django_capture_on_commit_callbacks(execute=True),
            ):
                services.table_act(
                    seated_table.pk, actor, hand.pk, seated_table.version, "fold", now=now
                )
            # The recent hands (the hands ended) are not read back.
            assert _reads(queries, '"ended_at" IS NOT NULL') == []
        seated_table.refresh_from_db()
        filed = _cached(seated_table.pk, seated_table.created_at, seated_table.version, None)
        assert filed is not None and filed["recent_hands"][0]["id"] == hand.pk
        assert _without_clock(filed) == _without_clock(_fresh(seated_table, None))
        now = seated_table.next_hand_at
