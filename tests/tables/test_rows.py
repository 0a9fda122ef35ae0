"""The move's lean SQL reads and writes exactly what the ORM would."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.forms.models import model_to_dict

from tables import rows, services
from tables.models import Hand, HandPlayer, Seat, Table
from tests.tables.conftest import deal

pytestmark = pytest.mark.django_db


def _fields(obj: object) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def test_the_table_seats_and_hand_read_as_the_orm_reads_them(
    seated_table: Table, players: list[User]
) -> None:
    deal(seated_table)
    with transaction.atomic():
        table = rows.table_locked(seated_table.pk)
        seats = rows.seats_locked(seated_table.pk)
        hand = rows.current_hand(seated_table.pk)
    assert _fields(table) == _fields(Table.objects.get(pk=seated_table.pk))
    orm_seats = list(Seat.objects.filter(table=seated_table).select_related("user"))
    assert [_fields(s) for s in seats] == [_fields(s) for s in orm_seats]
    assert [s.user and s.user.get_username() for s in seats] == [
        s.user and s.user.get_username() for s in orm_seats
    ]
    orm_hand = Hand.objects.get(table=seated_table, ended_at__isnull=True)
    assert _fields(hand) == _fields(orm_hand)
    assert hand.records == orm_hand.records and isinstance(hand.records, list)
    assert rows.table_locked(seated_table.pk + 1000) is None

    # All three at once (one pipeline on PostgreSQL): the same rows.
    with transaction.atomic():
        together = rows.move_rows(seated_table.pk)
    assert _fields(together[0]) == _fields(table)
    assert [_fields(s) for s in together[1]] == [_fields(s) for s in seats]
    assert [s.user and s.user.get_username() for s in together[1]] == [
        s.user and s.user.get_username() for s in seats
    ]
    assert _fields(together[2]) == _fields(hand)
    with transaction.atomic():
        assert rows.move_rows(seated_table.pk + 1000) == (None, [], None)


def test_save_writes_what_the_orm_would(seated_table: Table) -> None:
    deal(seated_table)
    hand = rows.current_hand(seated_table.pk)
    hand.records = [*hand.records, {"kind": "Note"}]
    hand.deadline = hand.started_at + timedelta(seconds=30)
    hand.turn_extended = True
    rows.save(hand)
    stored = Hand.objects.get(pk=hand.pk)
    assert model_to_dict(stored) == model_to_dict(hand)
    table = rows.table_locked(seated_table.pk)
    table.version += 5
    rows.save(table, ("version",))
    assert Table.objects.get(pk=table.pk).version == table.version
    Table.objects.filter(pk=table.pk).delete()
    with pytest.raises(Table.DoesNotExist):
        rows.save(table)


def test_update_writes_every_matching_row_and_none_is_fine(seated_table: Table) -> None:
    deal(seated_table)
    hand = rows.current_hand(seated_table.pk)
    rows.update(HandPlayer, {"stack_after": 77}, hand=hand.pk, seat=2)
    assert dict(HandPlayer.objects.filter(hand=hand).values_list("seat", "stack_after")) == {
        1: None,
        2: 77,
        3: None,
    }
    rows.update(HandPlayer, {"stack_after": 1}, hand=hand.pk, seat=9)  # nobody there
    assert not HandPlayer.objects.filter(stack_after=1).exists()


def test_an_unknown_table_is_refused_as_before(players: list[User]) -> None:
    with pytest.raises(services.TableError) as refused:
        services.table_act(999_999, players[0], 1, 1, "call")
    assert refused.value.code == "not_found"


# Held writes (PostgreSQL): a move's UPDATEs wait for the next statement or go with the
# COMMIT, in one round trip; what the code reads and what commits are as if sent at once.

postgres_only = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
    reason="held writes are a PostgreSQL pipeline; other databases write at once",
)


def _version_elsewhere(table_id: int) -> int:
    """The table's committed version, read on a connection of its own."""
    import psycopg
    from django.db import connection

    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params) as other:
        row = other.execute(
            'SELECT version FROM "tables_table" WHERE id = %s', [table_id]
        ).fetchone()
    return row[0]


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_held_write_goes_before_the_next_statement(seated_table: Table) -> None:
    with transaction.atomic(), rows.writes_held():
        table = rows.table_locked(seated_table.pk)
        table.version += 1
        rows.save(table, ("version",))
        # Not sent yet: nothing else has been said on the connection.
        assert _version_elsewhere(table.pk) == table.version - 1
        # The next statement (here an ORM read) sends it first, so the code reads its write.
        assert Table.objects.get(pk=table.pk).version == table.version
    assert _version_elsewhere(table.pk) == table.version


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_the_writes_and_the_commit_go_together(seated_table: Table) -> None:
    from django.db import connection
    from psycopg.pq import TransactionStatus

    committed: list[int] = []
    with transaction.atomic():
        with rows.writes_held():
            table = rows.table_locked(seated_table.pk)
            table.version += 1
            rows.save(table, ("version",))
            transaction.on_commit(lambda: committed.append(_version_elsewhere(table.pk)))
        # The COMMIT went with the UPDATE; the atomic block's own commit has nothing to do.
        assert connection.connection.info.transaction_status == TransactionStatus.IDLE
        assert _version_elsewhere(table.pk) == table.version
        assert committed == []  # the hooks still run when the block ends, as always
    assert committed == [table.version]


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_failed_block_sends_nothing_it_held(seated_table: Table) -> None:
    before = _version_elsewhere(seated_table.pk)
    with pytest.raises(RuntimeError), transaction.atomic(), rows.writes_held():
        table = rows.table_locked(seated_table.pk)
        table.version += 1
        rows.save(table, ("version",))
        raise RuntimeError("refused")
    assert _version_elsewhere(seated_table.pk) == before


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_held_write_to_a_row_that_is_gone_commits_nothing(seated_table: Table) -> None:
    from django.core.exceptions import ObjectDoesNotExist

    deal(seated_table)
    hand = Hand.objects.get(table=seated_table, ended_at__isnull=True)
    before = _version_elsewhere(seated_table.pk)
    with pytest.raises(ObjectDoesNotExist), transaction.atomic(), rows.writes_held():
        table = rows.table_locked(seated_table.pk)
        table.version += 1
        rows.save(table, ("version",))
        Hand.objects.filter(pk=hand.pk).delete()  # sends the held UPDATE first
        table.version += 1
        rows.save(table, ("version",))
        rows.save(hand)  # its row is gone: the whole transaction must not commit
    assert _version_elsewhere(seated_table.pk) == before
    assert Hand.objects.filter(pk=hand.pk).exists()


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_inside_another_transaction_the_outer_block_commits(seated_table: Table) -> None:
    before = _version_elsewhere(seated_table.pk)
    with pytest.raises(RuntimeError), transaction.atomic():
        with transaction.atomic(), rows.writes_held():
            table = rows.table_locked(seated_table.pk)
            table.version += 1
            rows.save(table, ("version",))
        assert Table.objects.get(pk=table.pk).version == before + 1
        raise RuntimeError("the outer block fails")
    assert _version_elsewhere(seated_table.pk) == before


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_move_commits_its_hand_and_version_in_one_go(
    seated_table: Table, players: list[User]
) -> None:
    deal(seated_table)
    table = Table.objects.get(pk=seated_table.pk)
    hand = Hand.objects.get(table=table, ended_at__isnull=True)
    actor = Seat.objects.get(table=table, number=hand.to_act).user
    result = services.table_act(table.pk, actor, hand.pk, table.version, "call")
    assert _version_elsewhere(table.pk) == result.version == table.version + 1
    assert len(Hand.objects.get(pk=hand.pk).records) == result.records > len(hand.records)
