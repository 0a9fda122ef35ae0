"""rebuys and add-ons, the host's controls, private tables and their
seat requests, and the table's ledger (the services, with the clock moved by hand)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tables import services
from tables.models import Hand, Seat, SeatRequest, SeatState, Table, TableLedger
from tables.protocol import handle_frame
from tables.runtime.state import table_snapshot
from tables.selectors import table_chip_count, table_ledger
from tests.tables.conftest import deal, later, make_players
from tests.tables.test_services import current, play_out

pytestmark = pytest.mark.django_db


def balanced(table: Table) -> bool:
    counts = table_chip_count(table)
    return counts["bought_in"] - counts["cashed_out"] == counts["seated"]


def seat(table: Table, number: int) -> Seat:
    return Seat.objects.get(table=table, number=number)


def bust(table: Table, number: int) -> None:
    """Make seat ``number`` a busted player, as the end of a hand leaves one."""
    s = seat(table, number)
    TableLedger.objects.create(
        table=table, user=s.user, seat=number, kind="cash_out", amount=s.stack
    )  # where its chips went, so the ledger still balances
    Seat.objects.filter(pk=s.pk).update(
        stack=0, state=SeatState.SITTING_OUT, sat_out_reason="no chips"
    )


def shove(table: Table, now) -> Hand:  # type: ignore[no-untyped-def]
    """Everyone bets and raises the most they may until the hand ends (somebody busts)."""
    hand = current(table)
    for _ in range(100):
        hand.refresh_from_db()
        if hand.is_complete:
            return hand
        if hand.to_act is None:  # a run-out dealt street by street
            services.table_tick(table.pk, now=hand.reveal_at)
            continue
        user = seat(table, hand.to_act).user
        legal = table_snapshot(table, user)["you"]["legal"]
        span = legal["raise"] or legal["bet"]
        if span:
            action, amount = ("raise" if legal["raise"] else "bet"), span["max"]
        else:
            action, amount = ("call" if legal["call"] else "check"), None
        services.table_act(table.pk, user, legal["hand"], legal["version"], action, amount, now=now)
    raise AssertionError("the hand did not end")


# ----------------------------------------------------------------------------- rebuys (12)


def test_a_rebuy_between_hands_goes_on_the_stack_and_in_the_ledger(seated_table: Table) -> None:
    ann = seat(seated_table, 1).user
    services.seat_rebuy(seated_table.pk, ann, 60)
    assert seat(seated_table, 1).stack == 160
    entry = TableLedger.objects.filter(table=seated_table, user=ann).last()
    assert (entry.kind, entry.amount) == ("rebuy", 60)
    assert balanced(seated_table)


@pytest.mark.parametrize(
    ("amount", "code"),
    [(0, "bad_buy_in"), (-5, "bad_buy_in"), (101, "bad_buy_in")],
)
def test_a_rebuy_out_of_range_or_over_the_maximum_is_refused(
    seated_table: Table, amount: int, code: str
) -> None:
    ann = seat(seated_table, 1).user
    version = Table.objects.get(pk=seated_table.pk).version
    with pytest.raises(services.TableError) as refused:
        services.seat_rebuy(seated_table.pk, ann, amount)
    assert refused.value.code == code
    assert seat(seated_table, 1).stack == 100
    assert Table.objects.get(pk=seated_table.pk).version == version  # nothing changed


def test_a_rebuy_frame_checks_its_shape(seated_table: Table) -> None:
    ann = seat(seated_table, 1).user
    assert handle_frame(seated_table.pk, ann, {"type": "rebuy", "amount": "50"})[0]["code"] == (
        "malformed"
    )
    assert handle_frame(seated_table.pk, None, {"type": "rebuy", "amount": 50})[0]["code"] == (
        "auth_required"
    )
    outsider = make_players("olga")[0]
    assert (
        handle_frame(seated_table.pk, outsider, {"type": "rebuy", "amount": 50})[0]["code"]
        == "not_seated"
    )
    assert handle_frame(seated_table.pk, ann, {"type": "rebuy", "amount": 50}) == []
    assert seat(seated_table, 1).stack == 150


def test_chips_in_a_hand_are_refused_unless_bought_for_the_next_hand(seated_table: Table) -> None:
    now = deal(seated_table)
    hand = current(seated_table)
    ann = seat(seated_table, 1).user
    with pytest.raises(services.TableError) as refused:
        services.seat_rebuy(seated_table.pk, ann, 50)
    assert refused.value.code == "in_hand"
    services.seat_rebuy(seated_table.pk, ann, 50, next_hand=True)
    assert seat(seated_table, 1).adding == 50
    assert table_snapshot(seated_table, None)["seats"][0]["adding"] == 50
    assert not TableLedger.objects.filter(table=seated_table, kind="rebuy").exists()
    play_out(seated_table, now)
    hand.refresh_from_db()
    after = hand.handplayer_set.get(seat=1).stack_after
    s = seat(seated_table, 1)
    assert s.adding == 0
    # Up to the maximum in all: what the hand left plus the rebuy, never over 200.
    assert s.stack == min(200, after + 50)
    assert balanced(seated_table)


def test_a_busted_player_rebuys_and_is_back_in(seated_table: Table) -> None:
    bust(seated_table, 2)
    ben = seat(seated_table, 2).user
    snap = table_snapshot(seated_table, ben)
    assert snap["seats"][1]["sat_out_reason"] == "no chips"
    with pytest.raises(services.TableError) as refused:
        services.seat_rebuy(seated_table.pk, ben, 20)  # under the minimum buy-in, 40
    assert refused.value.code == "bad_buy_in"
    services.seat_rebuy(seated_table.pk, ben, 80)
    s = seat(seated_table, 2)
    assert (s.stack, s.state, s.sat_out_reason) == (80, SeatState.PLAYING, "")
    assert balanced(seated_table)


def test_a_player_busted_by_a_hand_is_offered_the_rebuy_and_plays_the_next(table: Table) -> None:
    ann, ben = make_players("ann", "ben")
    services.seat_take(table.pk, ann, 1, 40)
    services.seat_take(table.pk, ben, 2, 200)
    for _ in range(30):
        table.refresh_from_db()
        now = deal(table, table.next_hand_at)
        shove(table, now)
        if seat(table, 1).stack == 0 or seat(table, 2).stack == 0:
            break
    loser = 1 if seat(table, 1).stack == 0 else 2
    busted = seat(table, loser)
    assert busted.sat_out_reason == "no chips"
    services.seat_rebuy(table.pk, busted.user, 40)
    assert seat(table, loser).state == SeatState.PLAYING
    table.refresh_from_db()
    assert table.next_hand_at is not None  # play goes on without leaving and sitting again
    assert balanced(table)


# ----------------------------------------------------------------------------- host (13)


def test_only_the_host_or_a_director_may_use_the_host_controls(
    seated_table: Table, director: User
) -> None:
    ann = seat(seated_table, 1).user
    for frame in (
        {"type": "pause"},
        {"type": "resume"},
        {"type": "close"},
        {"type": "remove", "seat": 2},
    ):
        assert handle_frame(seated_table.pk, ann, frame)[0]["code"] == "forbidden"
        assert handle_frame(seated_table.pk, None, frame)[0]["code"] == "auth_required"
    assert seat(seated_table, 2).user is not None
    # A player who opened a table hosts it.
    host = make_players("hal")[0]
    own = services.table_create(
        created_by=host,
        name="Hal's",
        big_blind=2,
        min_buy_in=40,
        max_buy_in=200,
        check_permission=False,
    )
    assert handle_frame(own.pk, host, {"type": "pause"}) == []
    assert Table.objects.get(pk=own.pk).paused


def test_pause_after_this_hand_and_resume(seated_table: Table, director: User) -> None:
    now = deal(seated_table)
    services.table_pause(seated_table.pk, director)
    assert table_snapshot(seated_table, None)["table"]["paused"] is True
    play_out(seated_table, now)  # the hand in play plays on
    number = current(seated_table).number
    seated_table.refresh_from_db()
    assert services.table_tick(seated_table.pk, now=seated_table.next_hand_at)
    assert current(seated_table).number == number  # no new hand while paused
    seated_table.refresh_from_db()
    assert seated_table.next_hand_at is None
    assert not services.table_tick(seated_table.pk, now=later(60, now))
    services.table_resume(seated_table.pk, director, now=now)
    seated_table.refresh_from_db()
    assert not seated_table.paused and seated_table.next_hand_at is not None
    deal(seated_table, seated_table.next_hand_at)
    assert current(seated_table).number == number + 1


def test_closing_between_hands_cashes_everyone_out(seated_table: Table, director: User) -> None:
    services.table_close(seated_table.pk, director)
    seated_table.refresh_from_db()
    assert not seated_table.is_open
    assert not Seat.objects.filter(table=seated_table, user__isnull=False).exists()
    assert TableLedger.objects.filter(table=seated_table, kind="cash_out").count() == 3
    assert balanced(seated_table)
    ann = make_players("ann2")[0]
    with pytest.raises(services.TableError) as refused:
        services.seat_take(seated_table.pk, ann, 1, 100)
    assert refused.value.code == "closed"


def test_closing_during_a_hand_waits_for_it_to_end(seated_table: Table, director: User) -> None:
    now = deal(seated_table)
    services.table_close(seated_table.pk, director)
    seated_table.refresh_from_db()
    assert seated_table.is_open and seated_table.closing
    assert table_snapshot(seated_table, None)["table"]["closing"] is True
    play_out(seated_table, now)
    seated_table.refresh_from_db()
    assert not seated_table.is_open and seated_table.next_hand_at is None
    assert not Seat.objects.filter(table=seated_table, user__isnull=False).exists()
    assert balanced(seated_table)
    assert sum(r["net"] for r in table_ledger(seated_table)["players"]) == 0


def test_removing_a_player_waits_for_the_hand_a_bot_goes_at_once(
    seated_table: Table, director: User
) -> None:
    services.table_add_bots(seated_table.pk, director, 1)
    bot_seat = Seat.objects.filter(table=seated_table).exclude(bot_style="").get().number
    now = deal(seated_table)
    hand = current(seated_table)
    dealt = {r["seat"] for r in hand.records[0]["seats"]}
    assert 1 in dealt
    services.seat_remove(seated_table.pk, director, 1)
    assert seat(seated_table, 1).removing and seat(seated_table, 1).user is not None
    if bot_seat not in dealt:
        services.seat_remove(seated_table.pk, director, bot_seat)
        assert seat(seated_table, bot_seat).user is None
    play_out(seated_table, now)
    assert seat(seated_table, 1).user is None
    assert balanced(seated_table)
    with pytest.raises(services.TableError) as refused:
        services.seat_remove(seated_table.pk, director, 1)
    assert refused.value.code == "not_seated"


# ----------------------------------------------------------------------------- private tables


@pytest.fixture
def private_table(director: User) -> Table:
    return services.table_create(
        created_by=director,
        name="Home game",
        big_blind=2,
        min_buy_in=40,
        max_buy_in=200,
        private=True,
    )


def test_a_private_table_has_an_unguessable_invite(private_table: Table, table: Table) -> None:
    assert len(private_table.invite_token) >= 32 and private_table.is_private
    assert table.invite_token == "" and not table.is_private


def test_a_private_seat_is_asked_for_and_the_host_approves(
    private_table: Table, director: User
) -> None:
    ann, ben = make_players("ann", "ben")
    with pytest.raises(services.TableError) as refused:
        services.seat_take(private_table.pk, ann, 1, 100)
    assert refused.value.code == "private"
    bad = handle_frame(
        private_table.pk,
        ann,
        {"type": "request_seat", "seat": 1, "buy_in": 100, "invite": "guess"},
    )
    assert bad[0]["code"] == "forbidden"
    assert not SeatRequest.objects.exists()
    ok = handle_frame(
        private_table.pk,
        ann,
        {"type": "request_seat", "seat": 1, "buy_in": 100, "invite": private_table.invite_token},
    )
    assert ok == []
    request = SeatRequest.objects.get()
    # Only the host decides.
    assert (
        handle_frame(private_table.pk, ben, {"type": "approve", "request": request.pk})[0]["code"]
        == "forbidden"
    )
    assert (
        handle_frame(private_table.pk, director, {"type": "approve", "request": request.pk}) == []
    )
    assert seat(private_table, 1).user == ann
    assert TableLedger.objects.get(table=private_table, user=ann).kind == "buy_in"
    request.refresh_from_db()
    assert request.status == "approved"


def test_the_host_refuses_a_request_and_a_taken_seat_is_not_given(
    private_table: Table, director: User
) -> None:
    ann, ben = make_players("ann", "ben")
    token = private_table.invite_token
    a = services.seat_request(private_table.pk, ann, 1, 100, invite=token)
    b = services.seat_request(private_table.pk, ben, 2, 100, invite=token)
    services.seat_request_decide(private_table.pk, director, b.pk, False)
    b.refresh_from_db()
    assert b.status == "refused" and seat(private_table, 2).user is None
    services.seat_take(private_table.pk, director, 1, 100)  # the host sits directly
    with pytest.raises(services.TableError) as refused:
        services.seat_request_decide(private_table.pk, director, a.pk, True)
    assert refused.value.code == "seat_taken"
    a.refresh_from_db()
    assert a.status == "pending"


# ----------------------------------------------------------------------------- ledger (14)


def test_the_ledger_lists_every_line_and_each_players_net(seated_table: Table) -> None:
    ann, ben, cal = (seat(seated_table, n).user for n in (1, 2, 3))
    services.seat_rebuy(seated_table.pk, ann, 50)
    Seat.objects.filter(table=seated_table, number=1).update(stack=200)
    Seat.objects.filter(table=seated_table, number=2).update(stack=50)
    services.seat_leave(seated_table.pk, ben)
    ledger = table_ledger(seated_table)
    assert [(e["name"], e["kind"], e["amount"]) for e in ledger["entries"]] == [
        ("ann", "buy_in", 100),
        ("ben", "buy_in", 100),
        ("cal", "buy_in", 100),
        ("ann", "rebuy", 50),
        ("ben", "cash_out", 50),
    ]
    by_name = {r["name"]: r for r in ledger["players"]}
    assert by_name["ann"]["bought_in"] == 150 and by_name["ann"]["net"] == 50
    assert by_name["ben"]["net"] == -50 and not by_name["ben"]["seated"]
    assert by_name["cal"]["net"] == 0
    assert ledger["totals"]["net"] == 0
    del cal


def test_a_removed_player_s_chips_bought_for_the_next_hand_are_cashed_out_too(
    seated_table: Table, director: User
) -> None:
    now = deal(seated_table)
    ann = seat(seated_table, 1).user
    services.seat_rebuy(seated_table.pk, ann, 40, next_hand=True)
    services.seat_remove(seated_table.pk, director, 1)
    assert table_snapshot(seated_table, None)["seats"][0]["removing"] is True
    with pytest.raises(services.TableError) as refused:
        services.seat_rebuy(seated_table.pk, ann, 10, next_hand=True)
    assert refused.value.code == "not_seated"  # leaving: no more chips
    play_out(seated_table, now)
    assert seat(seated_table, 1).user is None
    kinds = list(
        TableLedger.objects.filter(table=seated_table, user=ann).values_list("kind", flat=True)
    )
    assert kinds == ["buy_in", "rebuy", "cash_out"]
    assert balanced(seated_table)
    assert sum(r["net"] for r in table_ledger(seated_table)["players"]) == 0


def test_the_host_may_let_the_invite_link_seat_players_at_once(director: User) -> None:
    # The host's choice when opening the table: the invite link is enough, no approval.
    table = services.table_create(
        created_by=director,
        name="Friends only",
        big_blind=2,
        min_buy_in=40,
        max_buy_in=200,
        private=True,
        invite_seats=True,
    )
    ann, ben = make_players("ann", "ben")
    # Without the link: still private.
    with pytest.raises(services.TableError) as refused:
        services.seat_take(table.pk, ann, 1, 100)
    assert refused.value.code == "private"
    bad = {"type": "request_seat", "seat": 1, "buy_in": 100, "invite": "guess"}
    assert handle_frame(table.pk, ann, bad)[0]["code"] == "forbidden"
    ok = {"type": "request_seat", "seat": 2, "buy_in": 100, "invite": table.invite_token}
    assert handle_frame(table.pk, ann, ok) == []
    assert seat(table, 2).user == ann
    assert TableLedger.objects.get(table=table, user=ann).kind == "buy_in"
    assert SeatRequest.objects.get(table=table, user=ann).status == "approved"
    # The ledger and the rules of a seat still hold: a second seat is refused.
    again = {"type": "request_seat", "seat": 3, "buy_in": 100, "invite": table.invite_token}
    assert handle_frame(table.pk, ann, again)[0]["code"] == "already_seated"


def test_the_new_table_form_offers_seating_by_the_invite_link(director_client) -> None:  # type: ignore[no-untyped-def]
    page = director_client.get("/tables/new/").content.decode()
    assert 'name="invite_seats"' in page
