"""What a tournament reads of its live tables (tables.selectors): the seats of the players
still in, the chips at each seat, the hands in play, a finished hand's report, the hands for
a PHH export. A queryset of table ids is read as a subquery."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.db.models import QuerySet

from tables import selectors, services
from tables.models import Hand, Seat, Table
from tests.tables.conftest import deal

pytestmark = pytest.mark.django_db


def ids_of(table: Table) -> QuerySet[Table, int]:
    return Table.objects.filter(pk=table.pk).values_list("pk", flat=True)


def fold_to_the_big_blind(table: Table, now: datetime) -> Hand:
    """Fold the hand dealt at ``now`` round to the big blind, who wins the blinds."""
    hand = Hand.objects.get(table=table)
    while not hand.is_complete:
        seat = Seat.objects.get(table=table, number=hand.to_act)
        table.refresh_from_db()
        services.table_act(table.pk, seat.user, hand.pk, table.version, "fold", now=now)
        hand.refresh_from_db()
    return hand


def test_the_seats_of_players_still_in_come_by_table_lowest_first(seated_table: Table) -> None:
    Seat.objects.filter(table=seated_table, number=2).update(stack=0)
    seats = selectors.seats_in_play(ids_of(seated_table))
    assert [s.number for s in seats[seated_table.pk]] == [1, 3]


def test_a_seats_chips_count_what_comes_to_it_when_the_hand_ends(seated_table: Table) -> None:
    Seat.objects.filter(table=seated_table, number=3).update(adding=50)
    chips = selectors.seat_chips([seated_table.pk])
    assert chips[(seated_table.pk, 1)] == 100
    assert chips[(seated_table.pk, 3)] == 150


def test_the_hands_in_play_say_who_is_to_act(seated_table: Table) -> None:
    assert selectors.hands_in_play(ids_of(seated_table)) == {}
    deal(seated_table)
    hand = Hand.objects.get(table=seated_table)
    assert selectors.hands_in_play(ids_of(seated_table)) == {seated_table.pk: hand.to_act}
    assert selectors.hands_dealt(ids_of(seated_table)) == 1


def test_the_version_total_follows_every_change(seated_table: Table) -> None:
    before = selectors.tables_version_total(ids_of(seated_table))
    deal(seated_table)
    assert selectors.tables_version_total(ids_of(seated_table)) > before
    assert selectors.tables_version_total([]) is None


def test_a_finished_hand_is_reported_as_hand_ended_reports_it(seated_table: Table) -> None:
    now = deal(seated_table)
    hand = Hand.objects.get(table=seated_table)
    assert selectors.hand_ended_report(seated_table.pk, hand.number) is None  # in play
    hand = fold_to_the_big_blind(seated_table, now)
    report = selectors.hand_ended_report(seated_table.pk, hand.number)
    assert report is not None
    winner = next(row["seat"] for row in report["seats"] if row["after"] > row["before"])
    assert report["pots"] == [{"pot": 0, "winners": [winner]}]
    assert report["eliminated_in"] == {}
    assert sum(row["after"] for row in report["seats"]) == 300


def test_the_finished_hands_come_in_the_order_dealt_with_their_players_names(
    seated_table: Table,
) -> None:
    fold_to_the_big_blind(seated_table, deal(seated_table))
    (hand,) = selectors.hands_finished(ids_of(seated_table))
    assert hand.table_id == seated_table.pk and hand.number == 1
    assert sorted(hand.names.values()) == ["ann", "ben", "cal"]
    assert hand.engine.seats
