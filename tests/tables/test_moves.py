"""A move, the one way it goes (``tables.runtime.state``, docs/moves.md): read the table (from
the rows the process keeps of that version, or the database), the engine's move, one write
conditional on the version and nonce read, then publish. Checked through the services, the
protocol and the table state's own interface, on SQLite and on PostgreSQL; the moves made on
the socket's event loop (PostgreSQL's asynchronous connection) at the end.

A move that reads nothing is seen in the queries Django ran (none is a ``SELECT``); the
races are made for real: another change written behind the process's back, a move made by
"another process" (a second ``TableState``) and heard through its broadcast, a database
restart."""

from __future__ import annotations

import asyncio
import copy
import json
from typing import Any
from unittest.mock import ANY

import msgpack
import psycopg
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import F
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from tables import fairness, protocol, services, throttle
from tables.engine.records import record_to_json
from tables.engine.state import Hand as EngineHand
from tables.errors import Stale, TableError
from tables.models import Hand, HandPlayer, Table, TableLedger
from tables.runtime import broadcast, loop_db, rows
from tables.runtime.state import STATE, Moved, TableState
from tables.services import dealing
from tests.tables.conftest import deal

pytestmark = pytest.mark.django_db(transaction=True)
postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="moves on the event loop are PostgreSQL's"
)


def in_play(table: Table) -> tuple[Hand, User]:
    hand = Hand.objects.get(table=table, ended_at__isnull=True)
    return hand, table.seats.get(number=hand.to_act).user


def comparable(found: Any) -> tuple[Any, ...]:
    """What a move reads of the table, its seats and its hand, comparable."""
    table, seats, hand = found
    assert table is not None and hand is not None
    return (
        table.version,
        table.nonce,
        [(s.number, s.user_id, s.stack, s.state, s.leaving) for s in seats],
        hand.pk,
        hand.records,
        (hand.to_act, hand.deadline, hand.turn_started_at, hand.board_shown),
    )


def stored(table_id: int) -> tuple[Any, ...]:
    """The rows as stored (a fresh process's read)."""
    return comparable(TableState().read(table_id))


def selects(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if q["sql"].lstrip().startswith("SELECT")]


def act(
    table: Table, action: str, version: int | None = None
) -> tuple[services.ActResult, list[str]]:
    """The player to act makes ``action`` through the service, as a socket's database
    thread does; the result and the ``SELECT`` statements it ran."""
    hand, player = in_play(table)
    if version is None:
        version = Table.objects.get(pk=table.pk).version
    with CaptureQueriesContext(connection) as queries:
        done = services.table_act(table.pk, player, hand.pk, version, action)
    return done, selects(queries)


def first_move(table: Table) -> int:
    """Deal, and make the hand's first move: the process now keeps the rows of the version
    it returns."""
    deal(table)
    return act(table, "call")[0].version


def test_a_move_writes_its_records_and_the_next_one_reads_nothing(seated_table: Table) -> None:
    deal(seated_table)
    hand, player = in_play(seated_table)
    before = len(hand.records)
    first, _ = act(seated_table, "call")
    hand.refresh_from_db()
    assert Table.objects.get(pk=seated_table.pk).version == first.version
    assert len(hand.records) == before + 1 == first.records
    assert hand.to_act is not None and hand.to_act != seated_table.seats.get(user=player).number
    # The rows the process keeps are the rows as written, and the next move starts from them.
    assert comparable(STATE.read(seated_table.pk, first.version)) == stored(seated_table.pk)
    second, read = act(seated_table, "call", first.version)
    assert read == [] and second.version == first.version + 1
    assert len(Hand.objects.get(pk=hand.pk).records) == second.records
    assert comparable(STATE.read(seated_table.pk, second.version)) == stored(seated_table.pk)


def test_a_move_without_kept_rows_reads_them_once(seated_table: Table) -> None:
    version = first_move(seated_table)
    STATE.forget()
    done, read = act(seated_table, "call", version)
    assert done.version == version + 1 and len(read) >= 1
    assert comparable(STATE.read(seated_table.pk, done.version)) == stored(seated_table.pk)


def test_a_change_between_the_read_and_the_write_refuses_the_write(seated_table: Table) -> None:
    """The table state's own steps: rows read, a move made on them, and meanwhile another
    change committed (a time-out, a host's pause): the write finds the table moved on."""
    version = first_move(seated_table)
    STATE.forget()
    table, seats, hand = STATE.read(seated_table.pk, version)
    assert table is not None and hand is not None
    engine = STATE.engine_to_move(hand)
    added = [record_to_json(r) for r in engine.act(engine.to_act, "call")]
    hand.records = hand.records + added
    records = Hand.objects.get(pk=hand.pk).records
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    table.version += 1
    moved = Moved(hand, engine, {s.number: s for s in seats}, tuple(added))
    with pytest.raises(Stale):
        STATE.write(table, moved, table_columns=())
    assert Hand.objects.get(pk=hand.pk).records == records
    assert Table.objects.get(pk=table.pk).version == version + 1


def test_kept_rows_of_a_table_changed_elsewhere_make_the_move_stale(seated_table: Table) -> None:
    """Another process changed the table and its news has not arrived: the kept rows are of
    the frame's version, but the write's condition refuses the move, nothing written."""
    version = first_move(seated_table)
    Table.objects.filter(pk=seated_table.pk).update(version=version + 1)
    hand, player = in_play(seated_table)
    records = list(hand.records)
    with pytest.raises(TableError) as refused:
        act(seated_table, "call", version)
    assert refused.value.code == "stale"
    assert Hand.objects.get(pk=hand.pk).records == records
    assert Table.objects.get(pk=seated_table.pk).version == version + 1


def test_kept_rows_of_a_version_reached_by_another_change_are_stale(seated_table: Table) -> None:
    """A move committed asynchronously can be lost in a crash of PostgreSQL, and its version
    number then reached by another change. Rows kept of the lost one carry its nonce: a move
    from them is refused, and nothing is written."""
    version = first_move(seated_table)
    Table.objects.filter(pk=seated_table.pk).update(nonce=F("nonce") + 1)
    before = stored(seated_table.pk)
    with pytest.raises(TableError) as refused:
        act(seated_table, "call", version)
    assert refused.value.code == "stale"
    assert stored(seated_table.pk) == before


def test_a_move_that_ends_the_hand_ends_it_with_every_chip(seated_table: Table) -> None:
    """The hand's end writes more than the move's records (stacks, the next hand): it is
    made under the table's lock, from the same read and write."""
    deal(seated_table)
    for _ in range(2):  # three players: two folds end the hand
        act(seated_table, "fold")
    assert not Hand.objects.filter(table=seated_table, ended_at__isnull=True).exists()
    assert sum(seated_table.seats.values_list("stack", flat=True)) == 300
    # The next hand's first move is made from a fresh read, not the ended hand's rows.
    deal(seated_table)
    assert act(seated_table, "call")[0].records


def test_an_illegal_move_writes_nothing(seated_table: Table) -> None:
    version = first_move(seated_table)
    hand, player = in_play(seated_table)
    before = stored(seated_table.pk)
    with pytest.raises(TableError) as refused:
        services.table_act(seated_table.pk, player, hand.pk, version, "raise", 1)
    assert refused.value.code == "illegal_action"
    assert stored(seated_table.pk) == before


@pytest.fixture
def news(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The broadcasts' parts, as sent where sockets may be in other processes."""
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(broadcast, "carries_state", lambda: True)
    monkeypatch.setattr(
        broadcast, "table_changed", lambda table_id, version, wire=None: sent.append(wire)
    )
    return sent


def move_elsewhere(other: TableState, table: Table, action: str) -> None:
    """``action`` by the player to act, made by another process (``other``) through the
    table state's steps: read, the engine, the conditional write, publish."""
    version = Table.objects.get(pk=table.pk).version
    found, seats, hand = other.read(table.pk, version)
    assert found is not None and hand is not None
    engine = other.engine_to_move(hand)
    added = [record_to_json(r) for r in engine.act(engine.to_act, action)]
    hand.records = hand.records + added
    hand.to_act = engine.to_act
    found.version += 1
    moved = Moved(hand, engine, {s.number: s for s in seats}, tuple(added))
    other.write(found, moved, table_columns=())
    other.publish(found, moved, only_records=True)


def test_a_process_follows_another_ones_move_from_its_news(
    seated_table: Table, news: list[dict[str, Any]]
) -> None:
    """A move made elsewhere reaches this process as its broadcast (packed with msgpack, as
    channels-redis sends it), which carries what it wrote: the next move here reads nothing."""
    version = first_move(seated_table)
    move_elsewhere(TableState(), seated_table, "call")
    wire = msgpack.unpackb(msgpack.packb(news[-1]))
    STATE.heard(seated_table.pk, seated_table.created_at, version + 1, wire)
    # Heard once only: the same news again (a second socket of the table) changes nothing.
    STATE.heard(seated_table.pk, seated_table.created_at, version + 1, wire)
    assert comparable(STATE.read(seated_table.pk, version + 1)) == stored(seated_table.pk)
    done, read = act(seated_table, "check", version + 1)
    assert read == [] and done.version == version + 2


@pytest.mark.parametrize("change", ["another version", "no nonce"])
def test_news_that_does_not_follow_the_kept_rows_is_not_followed(
    seated_table: Table, news: list[dict[str, Any]], change: str
) -> None:
    """News of a move from a version this process never kept, or from a process of an
    earlier release (no nonce): the next move reads the rows, and is made all the same."""
    version = first_move(seated_table)
    move_elsewhere(TableState(), seated_table, "call")
    wire = copy.deepcopy(news[-1])
    if change == "another version":
        wire["move"]["from"] = version - 5
    else:
        del wire["move"]["nonce"]
    STATE.heard(seated_table.pk, seated_table.created_at, version + 1, wire)
    done, read = act(seated_table, "check", version + 1)
    assert read and done.version == version + 2


def test_a_kept_engine_behind_the_hand_catches_up_without_replaying_it(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process (a second table state) keeps the hand's engine of an earlier move;
    this one moves twice; the other then replays only the records it missed."""
    first_move(seated_table)
    other = TableState()
    hand, _ = in_play(seated_table)
    behind = other.engine(hand)
    act(seated_table, "call")
    act(seated_table, "check")
    hand.refresh_from_db()

    def no_rebuild(records: Any) -> None:
        raise AssertionError("rebuilt every record instead of catching up")

    with monkeypatch.context() as patch:
        patch.setattr(EngineHand, "from_records", no_rebuild)
        caught_up = other.engine(hand)
    assert len(caught_up.records) > len(behind.records)
    assert [record_to_json(r) for r in caught_up.records] == hand.records
    rebuilt = TableState().engine(hand)
    assert caught_up.view(None) == rebuilt.view(None) and caught_up.view(1) == rebuilt.view(1)


def test_a_database_restart_makes_the_process_forget_what_it_keeps(seated_table: Table) -> None:
    """Every new connection, Django's or a loop's, reads when the server started; another
    time than an earlier connection read means the server restarted, and what the process
    keeps (rows, engines, built states) may be ahead of the database: it is dropped, and
    the next move reads the rows again."""
    version = first_move(seated_table)
    hand, _ = in_play(seated_table)
    started = None  # SQLite: no server to restart, but the process forgets all the same
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(loop_db.STARTED_SQL)
            started = cursor.fetchone()[0]
    engine = STATE.engine(hand)
    loop_db.database_started(started)  # the same server (as this process last saw it)
    loop_db.database_started(started)
    assert STATE.engine(hand) is engine
    assert STATE.wire_if_cached(seated_table.pk, seated_table.created_at, version) is not None
    loop_db.database_started("another start")
    assert STATE.wire_if_cached(seated_table.pk, seated_table.created_at, version) is None
    assert STATE.engine(hand) is not engine
    done, read = act(seated_table, "call", version)
    assert read and done.version == version + 1


# ---------------------------------------------------------------------------- on the loop


def on_loop(
    table: Table, player: User, hand: Hand, version: int, action: str, amount: int | None = None
) -> Any:
    """``services.table_act_on_loop`` on a fresh event loop, where Django refuses any query
    (``SynchronousOnlyOperation``): a move that touched Django's connection would fail."""
    return asyncio.run(
        services.table_act_on_loop(table.pk, player, hand.pk, version, action, amount)
    )


def test_on_sqlite_a_socket_s_move_is_made_on_a_thread(seated_table: Table) -> None:
    if connection.vendor == "postgresql":
        pytest.skip("SQLite's")
    version = first_move(seated_table)
    hand, player = in_play(seated_table)
    assert on_loop(seated_table, player, hand, version, "call") is None
    assert Table.objects.get(pk=seated_table.pk).version == version


@postgresql
def test_a_move_on_the_loop_writes_what_the_thread_would(seated_table: Table) -> None:
    version = first_move(seated_table)
    hand, player = in_play(seated_table)
    before = len(hand.records)
    done = on_loop(seated_table, player, hand, version, "call")
    assert done is not None
    assert done.version == version + 1 and done.records == before + 1
    now = stored(seated_table.pk)
    assert now[0] == version + 1 and len(now[4]) == before + 1
    # The kept rows and the built state are of the new version, as the thread leaves them.
    assert comparable(STATE.read(seated_table.pk, done.version)) == now
    assert STATE.wire_if_cached(seated_table.pk, seated_table.created_at, done.version)
    # And the next move, on the loop again, starts from them; so does one on a thread.
    hand, player = in_play(seated_table)
    again = on_loop(seated_table, player, hand, done.version, "check")
    assert again is not None and again.version == done.version + 1
    third, read = act(seated_table, "check", again.version)
    assert read == [] and third.version == again.version + 1


def every_value(found: Any) -> list[Any]:
    """Every column of the table, its seats (with their players) and its hand, as loaded."""
    table, seats, hand = found

    def values(obj: Any) -> list[Any]:
        return [(f.attname, getattr(obj, f.attname)) for f in obj._meta.concrete_fields]

    return [
        values(table),
        [(values(s), s.user and (s.user.pk, s.user.username, s.user.first_name)) for s in seats],
        values(hand),
        table.created_at.isoformat(),  # news of a move is matched on this text
    ]


@postgresql
def test_rows_read_on_the_loop_are_the_rows_read_on_a_thread(seated_table: Table) -> None:
    first_move(seated_table)
    on_thread = rows.move_rows(seated_table.pk, lock=False)
    on_loop_read = asyncio.run(rows.move_rows_on_loop(seated_table.pk))
    assert every_value(on_loop_read) == every_value(on_thread)
    assert asyncio.run(rows.move_rows_on_loop(seated_table.pk + 1000)) == (None, [], None)


@postgresql
def test_without_kept_rows_it_reads_them_on_the_loop(seated_table: Table) -> None:
    """Nothing kept, but the state of the version is known (built here): the loop reads the
    rows on its own connection."""
    version = first_move(seated_table)
    hand, player = in_play(seated_table)
    wire = STATE.wire_if_cached(seated_table.pk, seated_table.created_at, version)
    STATE.forget()
    STATE.heard(seated_table.pk, seated_table.created_at, version, wire)
    done = on_loop(seated_table, player, hand, version, "call")
    assert done is not None and done.version == version + 1
    assert comparable(STATE.read(seated_table.pk, done.version)) == stored(seated_table.pk)


@postgresql
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


@postgresql
def test_refusals_on_the_loop_write_nothing(seated_table: Table, players: list[User]) -> None:
    version = first_move(seated_table)
    hand, player = in_play(seated_table)
    before = stored(seated_table.pk)
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
    assert stored(seated_table.pk) == before


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


@postgresql
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
    wire = STATE.wire_if_cached(seated_table.pk, seated_table.created_at, seated_table.version)
    assert wire is not None and json.loads(wire["recent"])[0]["number"] == 1


@postgresql
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
    before = stored(seated_table.pk)
    # Three players, one folded: this fold ends the hand.
    assert on_loop(seated_table, player, hand, seated_table.version, "fold") is None
    assert stored(seated_table.pk) == before
    services.table_act(seated_table.pk, player, hand.pk, seated_table.version, "fold")
    assert Hand.objects.get(pk=hand.pk).ended_at is not None
    assert TableLedger.objects.filter(table=seated_table, kind="rebuy", amount=50).exists()
    assert sum(seated_table.seats.values_list("stack", flat=True)) == 350


@postgresql
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


@postgresql
def test_a_failed_loop_connection_declines_and_forgets_the_kept_rows(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    version = first_move(seated_table)
    hand, player = in_play(seated_table)
    before = stored(seated_table.pk)

    async def broken(sql: str, params: list[Any]) -> int:
        raise psycopg.OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(loop_db, "execute", broken)
    assert on_loop(seated_table, player, hand, version, "call") is None
    assert stored(seated_table.pk) == before
    # Written or not is unknown to the loop: the thread's retry reads the rows afresh.
    done, read = act(seated_table, "call", version)
    assert read and done.version == version + 1


@postgresql
@override_settings(TABLES_MOVES_ON_LOOP=False)
def test_the_site_may_turn_loop_moves_off(seated_table: Table) -> None:
    version = first_move(seated_table)
    hand, player = in_play(seated_table)
    assert on_loop(seated_table, player, hand, version, "call") is None


@postgresql
def test_a_loop_connection_is_reused_and_replaced_once_it_fails(seated_table: Table) -> None:
    async def counts() -> list[Any]:
        pids = {(await loop_db.fetchall("SELECT pg_backend_pid()", []))[0] for _ in range(6)}
        with pytest.raises(psycopg.OperationalError):
            # The server ends the connection (a restart, an administrator).
            await loop_db.execute("SELECT pg_terminate_backend(pg_backend_pid())", [])
        replaced = await loop_db.execute("SELECT 1 WHERE %s", [True])
        return [len(pids) <= loop_db.SIZE, replaced]

    assert asyncio.run(counts()) == [True, 1]


@postgresql
@pytest.mark.skipif(not settings.REDIS_URL, reason="distributed mode: frames counted in Redis")
def test_the_protocol_makes_a_move_on_the_loop_or_hands_it_on(seated_table: Table) -> None:
    """``handle_move_on_loop``: an "act" frame made on the loop replies nothing, a refused
    one its error; a malformed one, another kind of frame, or a move it declines go on to
    ``handle_frame`` (None), with the frame's count taken back."""
    version = first_move(seated_table)
    hand, player = in_play(seated_table)

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
        for _ in range(throttle.LOCAL_ALLOWANCE + 1):
            declined = {"type": "act", "hand": hand.pk, "version": version, "action": "call"}
            assert handle(declined) is None
        # Declined: each frame's count was taken back, so this process's allowance is whole.
        assert throttle.frame_allowed_here(player)
        throttle.frame_unspend_here(player)
    assert handle({"type": "act", "hand": hand.pk, "version": version, "action": "call"}) == []
    assert Table.objects.get(pk=seated_table.pk).version == version + 1


@postgresql
def test_loop_commits_do_not_wait_for_the_disk_unless_the_site_asks(seated_table: Table) -> None:
    """``synchronous_commit`` is off on the loop's connections (tables.runtime.loop_db), on with
    ``TABLES_MOVES_SYNCHRONOUS_COMMIT``; Django's own connections keep the server's."""

    def loop_setting() -> str:
        return asyncio.run(loop_db.fetchall("SHOW synchronous_commit", []))[0][0]

    assert loop_setting() == "off"
    with override_settings(TABLES_MOVES_SYNCHRONOUS_COMMIT=True):
        assert loop_setting() == "on"
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == "on"


@postgresql
def test_kept_rows_of_a_version_reached_by_another_change_are_stale_on_the_loop(
    seated_table: Table,
) -> None:
    """As on a thread (above): rows kept of a version its nonce no longer matches."""
    version = first_move(seated_table)
    Table.objects.filter(pk=seated_table.pk).update(nonce=F("nonce") + 1)
    hand, player = in_play(seated_table)
    before = stored(seated_table.pk)
    with pytest.raises(TableError) as refused:
        on_loop(seated_table, player, hand, version, "call")
    assert refused.value.code == "stale"
    assert stored(seated_table.pk) == before


@postgresql
def test_every_write_renews_the_nonce_and_the_kept_rows_follow_it(seated_table: Table) -> None:
    version = first_move(seated_table)
    stored = Table.objects.get(pk=seated_table.pk).nonce
    hand, player = in_play(seated_table)
    done = on_loop(seated_table, player, hand, version, "call")
    assert done is not None
    renewed = Table.objects.get(pk=seated_table.pk).nonce
    assert renewed != stored
    kept_table, _, _ = STATE.read(seated_table.pk, done.version)
    assert kept_table is not None and kept_table.nonce == renewed
    # And the next move from them is written.
    assert act(seated_table, "check", done.version)[0].version == done.version + 1
