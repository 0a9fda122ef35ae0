"""What a player at a live table reads: refusals worded for people, the way back in after a
bust, and the all-in equity of every pot (the services and the snapshot)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tables import services
from tables.models import Hand, Seat, SeatState, Table
from tables.runtime.state import table_snapshot
from tests.tables.conftest import deal, make_players
from tests.tables.test_services import current, play_out, user_at

pytestmark = pytest.mark.django_db


# ----------------------------------------------------------------------------- stale moves


def _first_to_act(table: Table) -> tuple[User, dict]:  # type: ignore[type-arg]
    hand = current(table)
    user = user_at(table, hand.to_act)
    return user, table_snapshot(table, user)["you"]["legal"]


def test_a_move_on_a_finished_hand_says_the_hand_is_over(seated_table: Table) -> None:
    now = deal(seated_table)
    user, legal = _first_to_act(seated_table)
    hand = play_out(seated_table, now)
    assert hand.is_complete
    with pytest.raises(services.TableError) as refused:
        services.table_act(seated_table.pk, user, legal["hand"], legal["version"], "call")
    assert refused.value.code == "stale"
    assert refused.value.message == "that hand is over: your move came too late"
    assert "version" not in refused.value.message


def test_a_move_after_the_table_moved_on_says_try_again(seated_table: Table) -> None:
    now = deal(seated_table)
    user, legal = _first_to_act(seated_table)
    services.chat_post(seated_table.pk, user, "thinking…")  # a chat line bumps the version
    with pytest.raises(services.TableError) as refused:
        services.table_act(seated_table.pk, user, legal["hand"], legal["version"], "call", now=now)
    assert refused.value.code == "stale"
    assert refused.value.message == "the table moved on meanwhile; try again"


# ----------------------------------------------------------------------------- back in after a bust


def _seat(table: Table, number: int) -> Seat:
    return Seat.objects.get(table=table, number=number)


def _busted_while_the_big_blind_passed(table: Table) -> tuple[User, object]:
    """Seat 1 played a hand, then is out of chips (sat out, as the end of a hand leaves a
    busted player) while hands are dealt past it: it owes the blinds."""
    ann = _seat(table, 1).user
    play_out(table, deal(table))
    # She sat down posting at once, and then lost every chip.
    Seat.objects.filter(table=table, number=1).update(
        stack=0, state=SeatState.SITTING_OUT, sat_out_reason="no chips", wait_for_big_blind=False
    )
    for _ in range(3):
        table.refresh_from_db()
        now = deal(table, table.next_hand_at)
        play_out(table, now)
        if _seat(table, 1).owes_big:
            return ann, now
    raise AssertionError("the big blind never passed the busted seat")


def test_a_rebuy_owing_the_blinds_waits_for_the_big_blind_by_itself(seated_table: Table) -> None:
    ann, now = _busted_while_the_big_blind_passed(seated_table)
    services.seat_rebuy(seated_table.pk, ann, 100, now=now)
    seat = _seat(seated_table, 1)
    assert (seat.state, seat.owes_small, seat.owes_big) == (SeatState.WAITING, True, True)
    you = table_snapshot(seated_table, ann)["you"]
    # The page shows what is owed and both ways back in, with the one in force.
    assert you["owes"] == {"small": True, "big": True}
    assert you["wait_for_big_blind"] is True
    seated_table.refresh_from_db()
    deal(seated_table, seated_table.next_hand_at)
    dealt = {r["seat"] for r in current(seated_table).records[0]["seats"]}
    big_blind = seated_table.last_big_blind
    assert (1 in dealt) == (big_blind == 1)


def test_a_rebuy_owing_the_blinds_may_post_them_and_play_at_once(seated_table: Table) -> None:
    services.seat_take(seated_table.pk, make_players("dee")[0], 4, 100)
    ann, now = _busted_while_the_big_blind_passed(seated_table)
    services.seat_rebuy(seated_table.pk, ann, 100, now=now)
    # "Post and play": the same frame as coming back from sitting out.
    services.seat_sit_in(seated_table.pk, ann, wait_for_big_blind=False, now=now)
    assert table_snapshot(seated_table, ann)["you"]["wait_for_big_blind"] is False
    # The next button is seat 2's, the blinds seats 3 and 4: seat 1 is out of position.
    Table.objects.filter(pk=seated_table.pk).update(button=1)
    seated_table.refresh_from_db()
    deal(seated_table, seated_table.next_hand_at)
    specs = {s["seat"]: s for s in current(seated_table).records[0]["seats"]}
    # Dealt in at once: the big blind live and the small one dead (the table's blinds 1/2).
    assert (specs[1]["live_post"], specs[1]["dead_post"]) == (2, 1)
    assert not _seat(seated_table, 1).owes_big


def test_changing_one_s_mind_while_waiting_is_kept(seated_table: Table) -> None:
    ann, now = _busted_while_the_big_blind_passed(seated_table)
    services.seat_rebuy(seated_table.pk, ann, 100, now=now)
    services.seat_sit_in(seated_table.pk, ann, wait_for_big_blind=False, now=now)
    services.seat_sit_in(seated_table.pk, ann, wait_for_big_blind=True, now=now)
    seat = _seat(seated_table, 1)
    assert seat.state == SeatState.WAITING and seat.wait_for_big_blind
    assert table_snapshot(seated_table, ann)["you"]["wait_for_big_blind"] is True


# ----------------------------------------------------------------------------- side pots


def test_a_run_out_with_a_side_pot_shows_each_pot_s_equity(director: User) -> None:
    table = services.table_create(
        created_by=director, name="Side pot", structure="no-limit", big_blind=2, max_buy_in=200
    )
    for number, (player, chips) in enumerate(
        zip(make_players("ann", "ben", "cal"), (40, 200, 200), strict=True), start=1
    ):
        services.seat_take(table.pk, player, number, chips)
    now = deal(table)
    hand = current(table)
    for _ in range(10):  # everyone puts in all they can: a main pot and a side pot
        hand.refresh_from_db()
        if hand.to_act is None:
            break
        user = user_at(table, hand.to_act)
        legal = table_snapshot(table, user)["you"]["legal"]
        if legal["raise"]:
            action, amount = "raise", legal["raise"]["max"]
        else:
            action, amount = "call", None
        services.table_act(table.pk, user, legal["hand"], legal["version"], action, amount, now=now)
    hand.refresh_from_db()
    assert not hand.is_complete and hand.to_act is None  # the run-out

    shown = table_snapshot(table, None)["hand"]
    main, side = shown["pot_equity"]
    assert (main["amount"], set(main["shares"])) == (120, {"1", "2", "3"})
    assert (side["amount"], set(side["shares"])) == (320, {"2", "3"})
    for pot in (main, side):
        assert sum(pot["shares"].values()) == pytest.approx(1, abs=1e-3)
    # The one figure per seat is its expected share of every chip in the middle.
    for seat in ("1", "2", "3"):
        chips = sum(p["amount"] * p["shares"].get(seat, 0) for p in (main, side))
        assert shown["equity"][seat] == pytest.approx(chips / 440, abs=1e-3)


def test_a_hand_without_a_run_out_has_no_pot_equity(seated_table: Table) -> None:
    now = deal(seated_table)
    assert table_snapshot(seated_table, None)["hand"]["pot_equity"] is None
    play_out(seated_table, now)
    assert isinstance(current(seated_table), Hand)
    assert table_snapshot(seated_table, None)["hand"]["pot_equity"] is None
