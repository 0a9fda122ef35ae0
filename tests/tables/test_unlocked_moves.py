"""A move made without a transaction on PostgreSQL (``play.table_act``): one unlocked read,
one conditional write that PostgreSQL applies atomically, and the locked way for the moves
that write more than their records. Whatever changes the table between the read and the
write bumps its version, so the move is refused as stale and nothing of it is written."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection

from tables import rows, services
from tables.models import Hand, Table
from tables.services import TableError
from tests.tables.conftest import deal

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="unlocked moves are PostgreSQL's"),
]


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each move's read locked its rows, in order."""
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
