"""A move made on the socket's event loop (``services.table_act_on_loop``): from the rows
the process keeps, one conditional statement on the loop's own PostgreSQL connection
(``tables.loop_db``), the state filed and broadcast from the loop. It is ``table_act``'s
unlocked path step for step, so what it writes is compared with what that path writes; it
declines (None) whatever needs a read or more writes, which the caller then makes on a
database thread.

Each call runs on a fresh event loop (``asyncio.run``), where Django refuses any query
(``SynchronousOnlyOperation``): a move that touched Django's connection would fail here."""

from __future__ import annotations

import asyncio
from typing import Any
from unittest.mock import ANY

import psycopg
import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import override_settings

from tables import kept_rows, live, loop_db, protocol, rows, services, throttle
from tables.models import Hand, Table
from tables.services import TableError
from tests.tables.conftest import deal
from tests.tables.test_unlocked_moves import fields, in_play, kept, read_spy

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="loop moves are PostgreSQL's"),
]


def on_loop(
    table: Table, player: User, hand: Hand, version: int, action: str, amount: int | None = None
) -> Any:
    return asyncio.run(
        services.table_act_on_loop(table.pk, player, hand.pk, version, action, amount)
    )


def first_move(table: Table) -> int:
    """Deal, and make the hand's first move the thread's way: the process now keeps the
    rows of the version it returns."""
    deal(table)
    table.refresh_from_db()
    hand, player = in_play(table)
    return services.table_act(table.pk, player, hand.pk, table.version, "call").version


def test_a_move_on_the_loop_writes_what_the_thread_would_and_reads_nothing(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    version = first_move(seated_table)
    reads = read_spy(monkeypatch)
    hand, player = in_play(seated_table)
    before = len(hand.records)
    done = on_loop(seated_table, player, hand, version, "call")
    assert done is not None and reads == []
    assert done.version == version + 1 and done.records == before + 1
    stored = fields(seated_table.pk)
    assert stored[0] == version + 1 and len(stored[3]) == before + 1
    # The kept rows and the built state are of the new version, as the thread path leaves them.
    assert kept(seated_table.pk, done.version) == stored
    assert live.table_wire_if_cached(seated_table.pk, seated_table.created_at, done.version)
    # And the next move, on the loop again, starts from them.
    hand, player = in_play(seated_table)
    again = on_loop(seated_table, player, hand, done.version, "check")
    assert again is not None and again.version == done.version + 1
    assert kept(seated_table.pk, again.version) == fields(seated_table.pk)


def every_value(found: Any) -> list[Any]:
    """Every column of the table, its seats (with their players) and its hand, as loaded."""
    table, seats, hand = found

    def values(obj: Any) -> list[Any]:
        return [(f.attname, getattr(obj, f.attname)) for f in obj._meta.concrete_fields]

    return [
        values(table),
        [(values(s), s.user and (s.user.pk, s.user.username, s.user.first_name)) for s in seats],
        values(hand),
        table.created_at.isoformat(),  # kept_rows matches news on this text
    ]


def test_rows_read_on_the_loop_are_the_rows_read_on_a_thread(seated_table: Table) -> None:
    first_move(seated_table)
    on_thread = rows.move_rows(seated_table.pk, lock=False)
    on_loop_read = asyncio.run(rows.move_rows_on_loop(seated_table.pk))
    assert every_value(on_loop_read) == every_value(on_thread)
    assert asyncio.run(rows.move_rows_on_loop(seated_table.pk + 1000)) == (None, [], None)


def test_without_kept_rows_it_reads_them_on_the_loop(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    version = first_move(seated_table)
    hand, player = in_play(seated_table)
    kept_rows.rows_forget()
    reads = read_spy(monkeypatch)
    done = on_loop(seated_table, player, hand, version, "call")
    assert done is not None and done.version == version + 1 and reads == []
    assert kept(seated_table.pk, done.version) == fields(seated_table.pk)


def test_a_table_changed_elsewhere_makes_the_move_stale_with_nothing_written(
    seated_table: Table,
) -> None:
    version = first_move(seated_table)
    Table.objects.filter(pk=seated_table.pk).update(version=version + 1)
    hand, player = in_play(seated_table)
    records = list(Hand.objects.get(pk=hand.pk).records)
    with pytest.raises(TableError) as refused:
        on_loop(seated_table, player, hand, version, "call")
    assert refused.value.code == "stale"
    assert Hand.objects.get(pk=hand.pk).records == records
    assert Table.objects.get(pk=seated_table.pk).version == version + 1


def test_refusals_on_the_loop_write_nothing(seated_table: Table, players: list[User]) -> None:
    version = first_move(seated_table)
    hand, player = in_play(seated_table)
    before = fields(seated_table.pk)
    other = next(u for u in players[:3] if u != player)
    cases = [
        (player, "raise", 1, "illegal_action"),
        (other, "call", None, "not_your_turn"),
    ]
    for who, action, amount, code in cases:
        with pytest.raises(TableError) as refused:
            on_loop(seated_table, who, hand, version, action, amount)
        assert refused.value.code == code
    # A frame of an older version: no rows of it are kept; the rows read say "stale".
    with pytest.raises(TableError) as refused:
        on_loop(seated_table, player, hand, version - 1, "call")
    assert refused.value.code == "stale"
    assert fields(seated_table.pk) == before


def test_a_move_that_ends_the_hand_is_left_to_a_thread(seated_table: Table) -> None:
    version = first_move(seated_table)  # three players: two folds end the hand
    hand, player = in_play(seated_table)
    before = fields(seated_table.pk)
    assert on_loop(seated_table, player, hand, version, "fold") is not None
    after_first = fields(seated_table.pk)
    assert after_first != before
    hand, player = in_play(seated_table)
    assert on_loop(seated_table, player, hand, version + 1, "fold") is None
    assert fields(seated_table.pk) == after_first
    # The thread makes it (the locked way), as protocol.handle_frame would.
    services.table_act(seated_table.pk, player, hand.pk, version + 1, "fold")
    assert Hand.objects.get(pk=hand.pk).ended_at is not None


def test_a_failed_loop_connection_declines_and_forgets_the_kept_rows(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    version = first_move(seated_table)
    hand, player = in_play(seated_table)
    before = fields(seated_table.pk)

    async def broken(sql: str, params: list[Any]) -> int:
        raise psycopg.OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(loop_db, "execute", broken)
    assert on_loop(seated_table, player, hand, version, "call") is None
    assert fields(seated_table.pk) == before
    # Written or not is unknown to the loop: the thread's retry reads the rows afresh.
    assert kept_rows.rows_for_move(seated_table.pk, version) is None


@override_settings(TABLES_MOVES_ON_LOOP=False)
def test_the_site_may_turn_loop_moves_off(seated_table: Table) -> None:
    version = first_move(seated_table)
    hand, player = in_play(seated_table)
    assert on_loop(seated_table, player, hand, version, "call") is None


def test_a_loop_connection_is_reused_and_replaced_once_closed(seated_table: Table) -> None:
    async def two_counts() -> list[int]:
        first = await loop_db.execute("SELECT 1", [])
        (conn,) = [c for pool in loop_db._POOLS.values() for c in pool.opened]  # noqa: SLF001
        await conn.close()
        second = await loop_db.execute("SELECT 1 WHERE %s", [True])
        return [first, second]

    assert asyncio.run(two_counts()) == [1, 1]


def test_the_protocol_makes_a_move_on_the_loop_or_hands_it_on(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``handle_move_on_loop``: an "act" frame made on the loop replies nothing, a refused
    one its error; a malformed one, another kind of frame, or a move it declines go on to
    ``handle_frame`` (None), with the frame's count taken back."""
    monkeypatch.setattr(throttle, "_redis", lambda: object())  # distributed mode's counting
    version = first_move(seated_table)
    hand, player = in_play(seated_table)

    def counted() -> int:
        return sum(v[0] for k, v in throttle._LOCAL.items() if k[1] == player.pk)  # noqa: SLF001

    def handle(frame: Any) -> Any:
        return asyncio.run(protocol.handle_move_on_loop(seated_table.pk, player, frame))

    assert handle({"type": "chat", "text": "hi"}) is None
    assert handle({"type": "act", "action": "dance"}) is None
    stale = {"type": "act", "hand": hand.pk, "version": version + 7, "action": "call", "ref": 3}
    assert handle(stale) == [
        {"type": "error", "code": "stale", "ref": 3, "message": ANY},
    ]
    refused = handle(
        {"type": "act", "hand": hand.pk, "version": version, "action": "raise", "amount": 1}
    )
    assert refused is not None and refused[0]["code"] == "illegal_action"
    with override_settings(TABLES_MOVES_ON_LOOP=False):
        before = counted()
        assert (
            handle({"type": "act", "hand": hand.pk, "version": version, "action": "call"}) is None
        )
        assert counted() == before  # declined: the frame's count is taken back
    assert handle({"type": "act", "hand": hand.pk, "version": version, "action": "call"}) == []
    assert Table.objects.get(pk=seated_table.pk).version == version + 1
