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
import json
from typing import Any
from unittest.mock import ANY

import psycopg
import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import F
from django.test import override_settings

from tables import engines, fairness, kept_rows, live, loop_db, protocol, rows, services, throttle
from tables.models import Hand, HandPlayer, Table, TableLedger
from tables.services import TableError, dealing
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


def ended_state(table: Table, hand_number: int) -> dict[str, Any]:
    """What a hand's end wrote, comparable between two tables dealt the same deck."""
    hand = Hand.objects.get(table=table, number=hand_number)
    table.refresh_from_db()
    return {
        "records": hand.records,
        "ended": hand.ended_at is not None,
        "turn": (hand.to_act, hand.deadline, hand.turn_started_at),
        "summary": hand.summary,
        "awards": hand.awards,
        "seats": [
            (s.number, s.user_id, s.stack, s.state, s.sat_out_reason, s.leaving, s.adding)
            for s in table.seats.order_by("number")
        ],
        "players": sorted(HandPlayer.objects.filter(hand=hand).values_list("seat", "stack_after")),
        "ledger": sorted(
            TableLedger.objects.filter(table=table).values_list("user_id", "kind", "amount")
        ),
        "next hand": table.next_hand_at is not None,
        "open": (table.closed_at, table.closing, table.paused),
    }


def play_out(table: Table, choose: Any, loop: bool) -> tuple[int, int, int]:
    """Deal and play the hand out, each move on the loop or on a thread; the chips in play,
    the moves made on the loop, and all the moves made."""
    deal(table)
    table.refresh_from_db()
    made_on_loop = made = 0
    while (hand := Hand.objects.filter(table=table, ended_at__isnull=True).first()) is not None:
        table.refresh_from_db()
        player = table.seats.get(number=hand.to_act).user
        for action in choose(hand):
            try:
                if loop and on_loop(table, player, hand, table.version, action) is not None:
                    made_on_loop += 1
                else:
                    services.table_act(table.pk, player, hand.pk, table.version, action)
            except TableError as refused:
                assert refused.code == "illegal_action"
                continue
            made += 1
            break
    return sum(table.seats.values_list("stack", flat=True)), made_on_loop, made


@pytest.mark.parametrize("kind", ["folds", "showdown"])
def test_a_hand_that_ends_simply_ends_on_the_loop_as_it_does_on_a_thread(
    seated_table: Table,
    director: User,
    players: list[User],
    monkeypatch: pytest.MonkeyPatch,
    kind: str,
) -> None:
    """Two tables, the same players and the same deck; the same moves, made on the loop at
    one and on a thread (the locked way for the hand's end) at the other: the hands' ends
    are written alike, the one on the loop in a single statement."""
    deck = fairness.deal_new()
    monkeypatch.setattr(dealing, "deal_new", lambda: deck)
    other = services.table_create(
        created_by=director, name="twin", big_blind=2, min_buy_in=40, max_buy_in=200
    )
    for number, player in enumerate(players, start=1):
        services.seat_take(other.pk, player, number, 100)

    def choose(hand: Hand) -> list[str]:
        return ["fold"] if kind == "folds" else ["check", "call"]

    chips, on_the_loop, moves = play_out(seated_table, choose, loop=True)
    # Every move on the loop, the hand's end too.
    assert chips == 300 and on_the_loop == moves >= (2 if kind == "folds" else 9)
    assert play_out(other, choose, loop=False) == (300, 0, moves)
    mine, theirs = ended_state(seated_table, 1), ended_state(other, 1)
    assert mine["ended"] and mine["next hand"] and mine["turn"] == (None, None, None)
    assert mine == theirs
    # The hand's end is in the state the loop filed, and nothing of the hand is kept.
    seated_table.refresh_from_db()
    wire = live.table_wire_if_cached(seated_table.pk, seated_table.created_at, seated_table.version)
    assert wire is not None and json.loads(wire["recent"])[0]["number"] == 1
    assert kept_rows.rows_for_move(seated_table.pk, seated_table.version) is None


def test_a_hand_end_that_writes_more_is_left_to_a_thread(seated_table: Table) -> None:
    """Chips bought during the hand go on the stack when it ends (a ledger row): the loop
    leaves that end to the thread, which makes it under the table's lock."""
    deal(seated_table)
    seated_table.refresh_from_db()
    hand, player = in_play(seated_table)
    services.table_act(seated_table.pk, player, hand.pk, seated_table.version, "fold")
    services.seat_rebuy(seated_table.pk, player, 50, next_hand=True)
    seated_table.refresh_from_db()
    hand, player = in_play(seated_table)
    before = fields(seated_table.pk)
    # Three players, one folded: this fold ends the hand.
    assert on_loop(seated_table, player, hand, seated_table.version, "fold") is None
    assert fields(seated_table.pk) == before
    services.table_act(seated_table.pk, player, hand.pk, seated_table.version, "fold")
    assert Hand.objects.get(pk=hand.pk).ended_at is not None
    assert TableLedger.objects.filter(table=seated_table, kind="rebuy", amount=50).exists()
    assert sum(seated_table.seats.values_list("stack", flat=True)) == 350


def test_a_hand_end_on_a_table_changed_elsewhere_is_stale_and_writes_nothing(
    seated_table: Table,
) -> None:
    version = first_move(seated_table)
    hand, player = in_play(seated_table)
    assert on_loop(seated_table, player, hand, version, "fold") is not None
    Table.objects.filter(pk=seated_table.pk).update(version=version + 2)
    hand, player = in_play(seated_table)
    before = ended_state(seated_table, hand.number)
    with pytest.raises(TableError) as refused:
        on_loop(seated_table, player, hand, version + 1, "fold")
    assert refused.value.code == "stale"
    assert ended_state(seated_table, hand.number) == before
    assert not before["ended"]


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


def test_loop_commits_do_not_wait_for_the_disk_unless_the_site_asks(seated_table: Table) -> None:
    """``synchronous_commit`` is off on the loop's connections (tables.loop_db), on with
    ``TABLES_MOVES_SYNCHRONOUS_COMMIT``; Django's own connections keep the server's."""

    def loop_setting() -> str:
        return asyncio.run(loop_db.fetchall("SHOW synchronous_commit", []))[0][0]

    assert loop_setting() == "off"
    with override_settings(TABLES_MOVES_SYNCHRONOUS_COMMIT=True):
        assert loop_setting() == "on"
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == "on"


@pytest.mark.parametrize("where", ["loop", "thread"])
def test_kept_rows_of_a_version_reached_by_another_change_are_stale(
    seated_table: Table, where: str
) -> None:
    """A move committed asynchronously can be lost in a crash of PostgreSQL, and its version
    number then reached by another change (a time-out made by another process). Rows kept
    of the lost one carry its nonce: a move from them is refused, and nothing is written."""
    version = first_move(seated_table)
    assert kept_rows.rows_for_move(seated_table.pk, version) is not None
    # The stored row: the same version, reached another way (another nonce).
    Table.objects.filter(pk=seated_table.pk).update(nonce=F("nonce") + 1)
    hand, player = in_play(seated_table)
    before = fields(seated_table.pk)
    with pytest.raises(TableError) as refused:
        if where == "loop":
            on_loop(seated_table, player, hand, version, "call")
        else:
            services.table_act(seated_table.pk, player, hand.pk, version, "call")
    assert refused.value.code == "stale"
    assert fields(seated_table.pk) == before


def test_every_write_renews_the_nonce_and_the_kept_rows_follow_it(seated_table: Table) -> None:
    version = first_move(seated_table)
    stored = Table.objects.get(pk=seated_table.pk).nonce
    hand, player = in_play(seated_table)
    done = on_loop(seated_table, player, hand, version, "call")
    assert done is not None
    renewed = Table.objects.get(pk=seated_table.pk).nonce
    assert renewed != stored
    kept_table, _, _ = kept_rows.rows_for_move(seated_table.pk, done.version)  # type: ignore[misc]
    assert kept_table.nonce == renewed


def test_a_database_restart_makes_the_process_forget_what_it_keeps(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every new connection, Django's or a loop's, reads when the server started; another
    time than an earlier connection read means the server restarted, and what the process
    keeps (rows, engines, built states) may be ahead of the database: it is dropped."""
    monkeypatch.setattr(loop_db, "_STARTED", [])
    connection.close()
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute(loop_db.STARTED_SQL)
        started = cursor.fetchone()[0]
    assert loop_db._STARTED == [started]  # noqa: SLF001
    asyncio.run(loop_db.execute("SELECT 1", []))  # a loop's connection: the same start
    version = first_move(seated_table)
    hand = Hand.objects.get(table=seated_table, ended_at__isnull=True)

    def kept_now() -> list[bool]:
        return [
            kept_rows.rows_for_move(seated_table.pk, version) is not None,
            engines.engine_kept(hand) is not None,
            live.table_wire_if_cached(seated_table.pk, seated_table.created_at, version)
            is not None,
        ]

    assert kept_now() == [True, True, True]
    loop_db.database_started(started)  # the same server: nothing is dropped
    assert kept_now() == [True, True, True]
    loop_db.database_started(started.replace(year=started.year + 1))
    assert kept_now() == [False, False, False]


def test_the_state_is_built_on_the_loops_next_turn_or_when_asked_for() -> None:
    """``changed_on_loop`` builds the new state while PostgreSQL writes: on the loop's next
    turn, or when the write is done first; a build's error is raised where it is asked for."""
    from tables.services.common import _Soon

    async def run() -> list[Any]:
        calls: list[int] = []
        turned = _Soon(lambda n: calls.append(n) or n * 2, 1)
        await asyncio.sleep(0)  # the loop's next turn
        early = _Soon(lambda n: calls.append(n) or n * 2, 2)
        results = [turned.result(), early.result(), calls]
        early.cancel()
        await asyncio.sleep(0)  # asked for before its turn: not run a second time
        failing = _Soon(lambda: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            failing.result()
        return [*results, calls]

    assert asyncio.run(run()) == [2, 4, [1, 2], [1, 2]]
