"""A move made without a transaction on PostgreSQL (``play.table_act``): one unlocked read,
one conditional write that PostgreSQL applies atomically, and the locked way for the moves
that write more than their records. Whatever changes the table between the read and the
write bumps its version, so the move is refused as stale and nothing of it is written.

The rows a move reads are kept by the process for the next move (``tables.kept_rows``), and
followed from the news of another process's move: the tests of the read itself turn that
off (``reads``); the last ones are about it."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection

from tables import kept_rows, rows, services
from tables.models import Hand, Table
from tables.services import TableError
from tests.tables.conftest import deal

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="unlocked moves are PostgreSQL's"),
]


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each move's read locked its rows, in order (with no rows kept)."""
    monkeypatch.setattr(kept_rows, "rows_file", lambda *args: None)
    return read_spy(monkeypatch)


def read_spy(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    seen: list[bool] = []
    real = rows.move_rows

    def spy(table_id: int, *, lock: bool = True) -> Any:
        seen.append(lock)
        return real(table_id, lock=lock)

    monkeypatch.setattr(rows, "move_rows", spy)
    return seen


def in_play(table: Table) -> tuple[Hand, User]:
    hand = Hand.objects.get(table=table, ended_at__isnull=True)
    return hand, table.seats.get(number=hand.to_act).user


def test_a_move_that_only_adds_records_needs_no_transaction(
    seated_table: Table, reads: list[bool]
) -> None:
    deal(seated_table)
    seated_table.refresh_from_db()
    hand, player = in_play(seated_table)
    before = len(hand.records)
    result = services.table_act(seated_table.pk, player, hand.pk, seated_table.version, "call")
    assert reads == [False]
    hand.refresh_from_db()
    seated_table.refresh_from_db()
    assert seated_table.version == result.version
    assert len(hand.records) == before + 1 == result.records
    assert hand.to_act is not None and hand.to_act != seated_table.seats.get(user=player).number


def test_a_change_between_the_read_and_the_write_makes_the_move_stale(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal(seated_table)
    kept_rows.rows_forget()
    seated_table.refresh_from_db()
    hand, player = in_play(seated_table)
    records = list(hand.records)
    real = rows.move_rows

    def read_then_someone_else_writes(table_id: int, *, lock: bool = True) -> Any:
        found = real(table_id, lock=lock)
        # Another process (a time-out, a host's pause) commits a change in between.
        Table.objects.filter(pk=table_id).update(version=found[0].version + 1)
        return found

    monkeypatch.setattr(rows, "move_rows", read_then_someone_else_writes)
    with pytest.raises(TableError) as refused:
        services.table_act(seated_table.pk, player, hand.pk, seated_table.version, "call")
    assert refused.value.code == "stale"
    hand.refresh_from_db()
    assert hand.records == records
    assert Table.objects.get(pk=seated_table.pk).version == seated_table.version + 1


def test_a_move_that_ends_the_hand_is_made_again_the_locked_way(
    seated_table: Table, reads: list[bool]
) -> None:
    deal(seated_table)
    for _ in range(2):  # three players: two folds end the hand
        seated_table.refresh_from_db()
        hand, player = in_play(seated_table)
        services.table_act(seated_table.pk, player, hand.pk, seated_table.version, "fold")
    assert reads == [False, False, True]
    hand.refresh_from_db()
    assert hand.ended_at is not None
    stacks = sum(seated_table.seats.values_list("stack", flat=True))
    assert stacks == 300  # three buy-ins of 100: no chip made or lost


def test_an_illegal_move_made_without_a_transaction_writes_nothing(
    seated_table: Table, reads: list[bool]
) -> None:
    deal(seated_table)
    seated_table.refresh_from_db()
    hand, player = in_play(seated_table)
    records, version = list(hand.records), seated_table.version
    with pytest.raises(TableError) as refused:
        services.table_act(seated_table.pk, player, hand.pk, version, "raise", 1)
    assert refused.value.code == "illegal_action"
    hand.refresh_from_db()
    assert hand.records == records
    assert Table.objects.get(pk=seated_table.pk).version == version


def comparable(table: Any, seats: Any, hand: Any) -> tuple[Any, ...]:
    """What a move reads of the table, its seats and its hand, comparable."""
    assert table is not None and hand is not None
    return (
        table.version,
        [(s.number, s.user_id, s.stack, s.state, s.leaving) for s in seats],
        hand.pk,
        hand.records,
        [getattr(hand, name) for name in kept_rows.MOVE_STATE],
    )


def fields(table_id: int) -> tuple[Any, ...]:
    """The rows as stored."""
    return comparable(*rows.move_rows(table_id, lock=False))


def kept(table_id: int, version: int) -> tuple[Any, ...]:
    """The rows as this process keeps them for a move on ``version``."""
    found = kept_rows.rows_for_move(table_id, version)
    assert found is not None
    return comparable(*found)


def test_the_next_move_in_the_same_process_starts_from_the_rows_it_keeps(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal(seated_table)
    seated_table.refresh_from_db()
    hand, player = in_play(seated_table)
    first = services.table_act(seated_table.pk, player, hand.pk, seated_table.version, "call")
    assert kept(seated_table.pk, first.version) == fields(seated_table.pk)
    reads = read_spy(monkeypatch)
    hand, player = in_play(seated_table)
    second = services.table_act(seated_table.pk, player, hand.pk, first.version, "call")
    assert reads == []
    hand.refresh_from_db()
    assert len(hand.records) == second.records
    assert Table.objects.get(pk=seated_table.pk).version == second.version == first.version + 1
    assert kept(seated_table.pk, second.version) == fields(seated_table.pk)


def test_another_process_follows_a_move_from_its_news(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process that did not make the move brings its kept rows one version on from
    the broadcast's ``move`` (packed with msgpack, as channels-redis sends it) and makes the
    next move without reading."""
    import msgpack

    deal(seated_table)
    seated_table.refresh_from_db()
    hand, player = in_play(seated_table)
    first = services.table_act(seated_table.pk, player, hand.pk, seated_table.version, "call")
    elsewhere = kept_rows.rows_for_move(seated_table.pk, first.version)
    assert elsewhere is not None
    hand, player = in_play(seated_table)
    second = services.table_act(seated_table.pk, player, hand.pk, first.version, "call")
    table, seats, moved = kept_rows.rows_for_move(seated_table.pk, second.version) or ((),) * 3
    news = kept_rows.move_news(table, moved, moved.records[len(elsewhere[2].records) :])
    # This process as the other one saw it: the rows of the first move only.
    kept_rows.rows_forget()
    kept_rows.rows_file(*elsewhere)
    kept_rows.rows_follow(msgpack.unpackb(msgpack.packb(news)))
    assert kept(seated_table.pk, second.version) == fields(seated_table.pk)
    # Followed once only: the same news again (a second socket of the table) changes nothing.
    kept_rows.rows_follow(news)
    assert kept(seated_table.pk, second.version) == fields(seated_table.pk)
    reads = read_spy(monkeypatch)
    hand, player = in_play(seated_table)
    third = services.table_act(seated_table.pk, player, hand.pk, second.version, "check")
    assert reads == []
    assert Table.objects.get(pk=seated_table.pk).version == third.version


def test_news_of_another_version_is_not_followed(seated_table: Table) -> None:
    deal(seated_table)
    seated_table.refresh_from_db()
    hand, player = in_play(seated_table)
    first = services.table_act(seated_table.pk, player, hand.pk, seated_table.version, "call")
    table, seats, moved = kept_rows.rows_for_move(seated_table.pk, first.version) or ((),) * 3
    news = kept_rows.move_news(table, moved, [])
    news["from"] = first.version - 5  # a move this process never saw the version before of
    kept_rows.rows_follow(news)
    assert kept(seated_table.pk, first.version) == fields(seated_table.pk)
    assert kept_rows.rows_for_move(seated_table.pk, first.version + 1) is None
    # News of the kept version from a process of an earlier release carries no nonce: not
    # followed either (the next move reads).
    ahead = copy.copy(table)
    ahead.version += 1
    news = kept_rows.move_news(ahead, moved, [])
    del news["nonce"]
    kept_rows.rows_follow(news)
    assert kept_rows.rows_for_move(seated_table.pk, first.version + 1) is None
    kept_rows.rows_follow(kept_rows.move_news(ahead, moved, []))
    assert kept_rows.rows_for_move(seated_table.pk, first.version + 1) is not None


def test_kept_rows_of_a_table_changed_elsewhere_make_the_move_stale(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process changed the table and its news has not arrived: the kept rows are
    of the frame's version, but the write's version condition refuses the move."""
    deal(seated_table)
    seated_table.refresh_from_db()
    hand, player = in_play(seated_table)
    first = services.table_act(seated_table.pk, player, hand.pk, seated_table.version, "call")
    Table.objects.filter(pk=seated_table.pk).update(version=first.version + 1)
    hand, player = in_play(seated_table)
    records = list(hand.records)
    reads = read_spy(monkeypatch)
    with pytest.raises(TableError) as refused:
        services.table_act(seated_table.pk, player, hand.pk, first.version, "call")
    assert refused.value.code == "stale" and reads == []
    hand.refresh_from_db()
    assert hand.records == records
    assert Table.objects.get(pk=seated_table.pk).version == first.version + 1


def test_a_hand_that_ended_is_not_kept(seated_table: Table) -> None:
    deal(seated_table)
    for _ in range(2):  # three players: two folds end the hand
        seated_table.refresh_from_db()
        hand, player = in_play(seated_table)
        services.table_act(seated_table.pk, player, hand.pk, seated_table.version, "fold")
    seated_table.refresh_from_db()
    assert kept_rows.rows_for_move(seated_table.pk, seated_table.version) is None
