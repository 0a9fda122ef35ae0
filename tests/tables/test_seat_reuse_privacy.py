"""A seat taken between two hands: its new player sees nothing of its last player's hand.

Whose cards a seat holds in a hand is decided by who was dealt into it (``HandPlayer``), not
by who sits there now. Ann folds a hand at seat 2 and leaves; bob sits at seat 2 before the
next deal. Bob's snapshot (hole cards, their fairness openings, the offer to show them, the
hand helper), the hand's page, its verify page and its PHH download show him none of Ann's
cards; Ann still sees her own on the hand's pages.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tables import services
from tables.models import Hand, Table
from tables.runtime.state import STATE, table_snapshot
from tables.selectors import hand_verification
from tests.tables.conftest import make_players
from tests.tables.test_show_cards import (
    cards_in,
    fold_to_the_last,
    folded_in,
    hole,
    seat_entry,
    user_at,
)

pytestmark = pytest.mark.django_db

ANN_SEAT = 2


@pytest.fixture
def ann_folded(table: Table) -> tuple[Hand, list[int]]:
    """Cal, Ann and Ben at seats 1-3 play a hand folded to its last player; Ann folded."""
    for number, user in enumerate(make_players("cal", "ann", "ben"), start=1):
        services.seat_take(table.pk, user, number, 100)
    hand, folded = fold_to_the_last(table)
    assert folded_in(hand, ANN_SEAT)
    return hand, folded


def pages_for(user: User | None, hand: Hand) -> dict[str, str]:
    client = Client()
    if user is not None:
        client.force_login(user)
    pages = {
        name: client.get(reverse(f"tables:{name}", args=[hand.pk])).content.decode()
        for name in ("hand_detail", "hand_verify", "hand_phh")
    }
    # The verify page's worked example of a leaf ("7:Ah:<salt>") is not a card of the hand.
    pages["hand_verify"] = pages["hand_verify"].replace("'7:Ah:&lt;salt&gt;'", "")
    return pages


def assert_holds_nothing_of(snapshot: dict[str, Any], secret: set[str]) -> None:
    assert not cards_in(json.dumps(snapshot)) & secret
    you = snapshot["you"]
    assert you["seat"] == ANN_SEAT
    for private in ("openings", "can_show", "helper", "pre_action", "legal"):
        assert not you.get(private), private
    mine = seat_entry(snapshot, ANN_SEAT)
    assert "cards" not in mine and not mine["folded"] and mine["player"]["name"] == "bob"


def test_a_newcomer_in_a_seat_sees_none_of_its_last_player_s_cards(
    table: Table, ann_folded: tuple[Hand, list[int]]
) -> None:
    hand, _ = ann_folded
    ann = user_at(table, ANN_SEAT)
    secret = set(hole(hand, ANN_SEAT))
    # Before she leaves, Ann's snapshot holds her cards and the offer to show them.
    mine = table_snapshot(table, ann)
    assert seat_entry(mine, ANN_SEAT)["cards"] == hole(hand, ANN_SEAT)
    assert mine["you"]["can_show"]["cards"] == hole(hand, ANN_SEAT)
    assert {o["card"] for o in mine["you"]["openings"]} == secret

    services.seat_leave(table.pk, ann)
    (bob,) = make_players("bob")
    services.seat_take(table.pk, bob, ANN_SEAT, 100)
    assert Hand.objects.filter(table=table).count() == 1  # no new hand dealt yet

    assert_holds_nothing_of(table_snapshot(table, bob), secret)
    for name, text in pages_for(bob, hand).items():
        assert not cards_in(text) & secret, name
    assert not hand_verification(hand, bob)["own_openings"]
    # Nor may he show them: the service asks who was dealt in.
    with pytest.raises(services.TableError) as refused:
        services.cards_show(table.pk, bob, hand.pk, hole(hand, ANN_SEAT)[:1])
    assert refused.value.code == "not_dealt_in"

    # Ann, no longer seated, still sees her own cards on the hand's pages.
    pages = pages_for(ann, hand)
    assert secret <= cards_in(pages["hand_detail"])
    assert secret <= cards_in(pages["hand_phh"])
    assert secret <= {o["card"] for o in hand_verification(hand, ann)["own_openings"]}
    # The hand's result names its winner, not whoever takes the winner's seat after it.
    winner = next(n for n in (1, 2, 3) if not folded_in(hand, n))
    name = user_at(table, winner).username
    services.seat_leave(table.pk, user_at(table, winner))
    services.seat_take(table.pk, make_players("dora")[0], winner, 100)
    results = table_snapshot(table, None)["hand"]["results"]
    assert results and {r["name"] for r in results} == {name}


def test_a_state_built_from_a_move_after_the_hand_keeps_the_newcomer_out(
    table: Table, ann_folded: tuple[Hand, list[int]], django_capture_on_commit_callbacks
) -> None:
    """A show after the hand files the new state from the writer's rows, without reading
    back: the newcomer's snapshot from it holds none of the last player's cards either."""
    hand, folded = ann_folded
    ann = user_at(table, ANN_SEAT)
    secret = set(hole(hand, ANN_SEAT))
    (bob,) = make_players("bob")
    with django_capture_on_commit_callbacks(execute=True):
        services.seat_leave(table.pk, ann)
        services.seat_take(table.pk, bob, ANN_SEAT, 100)
    shower = next(n for n in folded if n != ANN_SEAT)
    STATE.forget()  # nothing built here before the show
    with django_capture_on_commit_callbacks(execute=True):
        services.cards_show(table.pk, user_at(table, shower), hand.pk, hole(hand, shower)[:1])
    table.refresh_from_db()
    text = STATE.snapshot_text_if_cached(table.pk, table.created_at, table.version, bob)
    assert text is not None, "the show filed no state"
    filed = json.loads(text)
    assert_holds_nothing_of(filed, secret)
    assert seat_entry(filed, shower)["shown_after"] == hole(hand, shower)[:1]
