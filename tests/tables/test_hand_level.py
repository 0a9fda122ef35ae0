"""A cash table's hands have no level: only a tournament gives its table one with the stakes
(``Table.stakes_level``, kept on each hand as ``Hand.level``)."""

from __future__ import annotations

from tables.models import Hand, Table
from tests.tables.conftest import deal


def test_a_cash_hand_is_dealt_with_no_level(seated_table: Table) -> None:
    deal(seated_table)
    hand = Hand.objects.get(table=seated_table)
    assert seated_table.stakes_level is None
    assert hand.level is None
