"""The move's lean SQL reads and writes exactly what the ORM would."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables import services
from tables.errors import Stale
from tables.models import ChatMessage, Hand, Seat, Table
from tables.runtime import rows
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


# The move's writes: only its records travel, and the version bump is conditional.


def test_hand_append_adds_the_moves_records_and_writes_the_hands_state(seated_table: Table) -> None:
    deal(seated_table)
    hand = rows.current_hand(seated_table.pk)
    before = list(hand.records)
    added = [{"kind": "Note", "n": 1}, {"kind": "Note", "n": 2}]
    hand.records = [*hand.records, *added]
    hand.deadline = hand.started_at + timedelta(seconds=30)
    hand.turn_extended = True
    rows.hand_append(hand, added)
    stored = Hand.objects.get(pk=hand.pk)
    assert stored.records == [*before, *added]
    assert model_to_dict(stored) == model_to_dict(hand)
    Hand.objects.filter(pk=hand.pk).delete()
    with pytest.raises(Hand.DoesNotExist):
        rows.hand_append(hand, [])


def test_a_version_bump_from_a_stale_read_writes_nothing(seated_table: Table) -> None:
    with transaction.atomic():
        table = rows.table_locked(seated_table.pk)
    # Another change comes first (bumping the version) ...
    Table.objects.filter(pk=table.pk).update(version=table.version + 1, name="renamed")
    table.version += 1
    table.hand_count = 99
    with pytest.raises(Stale), transaction.atomic():
        rows.table_bump(table)
    stored = Table.objects.get(pk=table.pk)
    assert (stored.version, stored.name, stored.hand_count) == (table.version, "renamed", 0)
    # ... and a bump from the current version goes through.
    table = Table.objects.get(pk=table.pk)
    table.version += 1
    rows.table_bump(table)
    assert Table.objects.get(pk=table.pk).version == table.version


def test_a_move_writes_its_hand_and_version(seated_table: Table, players: list[User]) -> None:
    deal(seated_table)
    table = Table.objects.get(pk=seated_table.pk)
    hand = Hand.objects.get(table=table, ended_at__isnull=True)
    actor = Seat.objects.get(table=table, number=hand.to_act).user
    result = services.table_act(table.pk, actor, hand.pk, table.version, "call")
    assert Table.objects.get(pk=table.pk).version == result.version == table.version + 1
    stored = Hand.objects.get(pk=hand.pk).records
    assert len(stored) == result.records > len(hand.records)
    assert stored[: len(hand.records)] == hand.records


def test_a_moves_records_and_version_go_together_or_not_at_all(seated_table: Table) -> None:
    deal(seated_table)
    with transaction.atomic():
        table, _seats, hand = rows.move_rows(seated_table.pk)
    before = list(hand.records)
    Table.objects.filter(pk=table.pk).update(version=table.version + 1)  # another change first
    added = [{"kind": "Note"}]
    hand.records = [*hand.records, *added]
    table.version += 1
    with pytest.raises(Stale), transaction.atomic():
        rows.move_write(table, hand, added)
    assert Hand.objects.get(pk=hand.pk).records == before  # the hand was not written either
    table = Table.objects.get(pk=table.pk)
    table.version += 1
    rows.move_write(table, hand, added)
    assert Hand.objects.get(pk=hand.pk).records == [*before, *added]
    assert Table.objects.get(pk=table.pk).version == table.version


def test_a_deal_writes_its_seats_together(seated_table: Table, players: list[User]) -> None:
    """The next hand's deal changes every dealt seat (new, owing, playing): written in one
    statement on PostgreSQL, one a seat on SQLite; and what was written is what the deal
    decided."""
    with CaptureQueriesContext(connection) as queries:
        deal(seated_table)
    seat_table = Seat._meta.db_table
    updates = [
        q["sql"] for q in queries.captured_queries if q["sql"].startswith(f'UPDATE "{seat_table}"')
    ]
    dealt = Seat.objects.filter(table=seated_table, user__isnull=False)
    assert len(updates) == (1 if connection.vendor == "postgresql" else dealt.count())
    assert {(s.state, s.is_new, s.owes_small, s.owes_big) for s in dealt} == {
        ("playing", False, False, False)
    }


def test_several_seats_saved_together_hold_what_the_orm_would_save(
    seated_table: Table, players: list[User]
) -> None:
    """``save_many`` writes every field of every row as the ORM's ``save`` would: nulls
    and values, text, a JSON object, and a user taken away; a row gone refuses the lot."""
    deal(seated_table)
    seats = list(Seat.objects.filter(table=seated_table).order_by("number"))
    mine, other, empty = seats[0], seats[1], seats[-1]
    mine.sockets = {"server-a": 2, 'naïve "quoted"': [1, None]}
    mine.sat_out_reason = "it's 'quoted'"
    mine.pre_action_hand = None
    mine.stack += 17
    other.sockets = {}
    other.pre_action_hand = 3
    other.state = "sitting_out"
    empty.user = None
    rows.save_many([mine, other, empty])
    for seat in (mine, other, empty):
        assert model_to_dict(Seat.objects.get(pk=seat.pk)) == model_to_dict(seat)

    Seat.objects.filter(pk=other.pk).delete()
    mine.stack += 1
    with pytest.raises(Seat.DoesNotExist), transaction.atomic():
        rows.save_many([mine, other])
    assert Seat.objects.get(pk=mine.pk).stack == mine.stack - 1


def test_a_ticks_times_the_recent_hands_and_the_chat_read_as_the_orm_reads_them(
    seated_table: Table, players: list[User]
) -> None:
    """The reads behind a tick's first look and a state's recent hands and chat (one
    statement each on PostgreSQL) give what the ORM gives, in the same order."""
    table_id = seated_table.pk
    assert rows.tick_times(table_id + 1000) is None
    Table.objects.filter(pk=table_id).update(next_hand_at=None)
    between = rows.tick_times(table_id)
    assert between is not None and not between.in_hand
    assert between[:3] == (None, None, None)
    for _ in range(3):
        Table.objects.filter(pk=table_id).update(next_hand_at=timezone.now())
        deal(seated_table)
        hand = Hand.objects.get(table=seated_table, ended_at__isnull=True)
        Hand.objects.filter(pk=hand.pk).update(
            ended_at=hand.started_at, summary=f"hand {hand.number}", awards=[{"seat": 1}]
        )
    Table.objects.filter(pk=table_id).update(next_hand_at=timezone.now())
    deal(seated_table)
    hand = Hand.objects.get(table=seated_table, ended_at__isnull=True)
    deadline = hand.started_at + timedelta(seconds=30)
    Hand.objects.filter(pk=hand.pk).update(deadline=deadline, to_act=3)
    closed = hand.started_at + timedelta(hours=1)
    Table.objects.filter(pk=table_id).update(closed_at=closed, bomb_pot_vote_until=deadline)
    times = rows.tick_times(table_id)
    assert times == (None, closed, deadline, True, deadline, 3, None, None)

    orm = Hand.objects.filter(table_id=table_id, ended_at__isnull=False).order_by("-number")
    recent = rows.recent_hands(table_id, 2)
    assert [(h.pk, h.number, h.summary, h.awards) for h in recent] == [
        (h.pk, h.number, h.summary, h.awards) for h in orm[:2]
    ]
    assert recent[0].awards == [{"seat": 1}]

    for k, user in enumerate([*players[:3], players[0]]):
        ChatMessage.objects.create(table=seated_table, user=user, text=f"line {k} 'é'")
    lines = rows.chat_lines(table_id, 3)
    assert lines == [
        (m.user.get_username(), m.text, m.created_at)
        for m in ChatMessage.objects.filter(table=seated_table)[:3]
    ]
    assert [text for _, text, _ in lines] == ["line 3 'é'", "line 2 'é'", "line 1 'é'"]
