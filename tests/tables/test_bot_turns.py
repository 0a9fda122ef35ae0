"""A house bot's turn is always the bot's: a lost or late bot task never makes it time out,
and a bot is never left sitting out (the tick at its turn's deadline lets it decide)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from tables import services
from tables.bots import bot_move
from tables.models import Hand, HandPlayer, Seat, SeatState, Table
from tests.tables.conftest import deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def bot_table(table: Table, director: User) -> Table:
    """Three calling-station bots: facing the big blind, one calls, where a player who
    times out folds."""
    services.table_add_bots(table.pk, director, count=3, style="station")
    return table


def current(table: Table) -> Hand:
    return Hand.objects.filter(table=table).order_by("-number").first()


def test_a_bot_whose_turn_runs_out_makes_its_own_move_and_stays_in(bot_table: Table) -> None:
    deal(bot_table)
    hand = current(bot_table)
    bot = hand.to_act
    # Its task was lost and the sweep's nudge too: the turn's deadline passes.
    assert services.table_tick(bot_table.pk, now=hand.deadline)
    hand.refresh_from_db()
    kinds = [r["kind"] for r in hand.records if r.get("seat") == bot]
    assert "Called" in kinds and "Folded" not in kinds  # the station's call, not a time-out
    seat = Seat.objects.get(table=bot_table, number=bot)
    assert seat.state == SeatState.PLAYING and seat.sat_out_reason == ""
    assert hand.to_act != bot and hand.to_act is not None  # the turn went on


def test_a_bot_whose_move_is_refused_checks_or_folds_and_stays_in(
    bot_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    def below_the_minimum(style: str, snapshot: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        legal = snapshot["you"]["legal"]
        return {
            "type": "act",
            "hand": legal["hand"],
            "version": legal["version"],
            "action": "raise",
            "amount": 1,
        }

    monkeypatch.setattr("tables.services.dealing.decide", below_the_minimum)
    deal(bot_table)
    hand = current(bot_table)
    bot = hand.to_act
    assert services.table_tick(bot_table.pk, now=hand.deadline)
    hand.refresh_from_db()
    assert {"kind": "Folded", "seat": bot} in hand.records  # the time-out rule's move
    seat = Seat.objects.get(table=bot_table, number=bot)
    assert seat.state == SeatState.PLAYING and seat.sat_out_reason == ""


def test_a_bot_sitting_out_sits_back_in_at_the_next_hand(bot_table: Table) -> None:
    # A bot sat out by an earlier version of the time-out, or moved while away.
    Seat.objects.filter(table=bot_table, number=2).update(
        state=SeatState.SITTING_OUT, sat_out_reason="timed out"
    )
    deal(bot_table)
    hand = current(bot_table)
    assert HandPlayer.objects.filter(hand=hand, seat=2).exists()
    seat = Seat.objects.get(table=bot_table, number=2)
    assert seat.state == SeatState.PLAYING and seat.sat_out_reason == ""


def test_a_bot_asked_to_act_at_once_makes_its_own_move(bot_table: Table) -> None:
    assert not services.bot_act(bot_table.pk)  # no hand: nobody to act
    deal(bot_table)
    hand = current(bot_table)
    bot = hand.to_act
    assert services.bot_act(bot_table.pk)
    hand.refresh_from_db()
    kinds = [r["kind"] for r in hand.records if r.get("seat") == bot]
    assert "Called" in kinds  # the station's call
    assert hand.to_act != bot


def test_a_bot_asked_to_act_at_once_is_not_held_to_a_persons_flood_limit(
    bot_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A harness playing a tournament in one process moves a bot every few milliseconds;
    # the flood limit counts a person's frames from their sockets.
    monkeypatch.setattr("tables.protocol.frame_allowed", lambda user: False)
    deal(bot_table)
    assert not bot_move(bot_table.pk)  # through the frame protocol: refused
    assert services.bot_act(bot_table.pk)
