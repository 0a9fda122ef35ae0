"""The move's lean SQL reads and writes exactly what the ORM would."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.forms.models import model_to_dict

from tables import rows, services
from tables.models import Hand, Seat, Table
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


def test_an_unknown_table_is_refused_as_before(players: list[User]) -> None:
    with pytest.raises(services.TableError) as refused:
        services.table_act(999_999, players[0], 1, 1, "call")
    assert refused.value.code == "not_found"
