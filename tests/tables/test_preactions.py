"""Pre-actions at the table: chosen before the turn, made when it comes, dropped when the bet
they were chosen against changes, and refused when they cannot be chosen.

docs/rules.md, Home-game options: "a player may choose their action before their turn
(check/fold, check, call any, call an exact amount, fold); a pre-action is dropped when the
amount to call changes from what it was chosen against (except "call any" and
"check/fold")."
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.contrib.auth.models import User

from tables import services
from tables.alerts import alert_frame, alerts_take
from tables.models import Hand, Seat, SeatState, Table
from tables.protocol import handle_frame
from tables.runtime.state import STATE, engine_of, table_snapshot
from tests.tables.conftest import deal, make_players

pytestmark = pytest.mark.django_db


class Hand3:
    """The hand in play at a three-handed table, its players named by the order they act
    before the flop: ``first`` (the button), ``second`` (the small blind), ``third`` (the big
    blind)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        hand = self.hand
        engine = engine_of(hand)
        order = [engine.to_act]
        seats = list(engine.seats)
        while len(order) < len(seats):
            order.append(seats[(seats.index(order[-1]) + 1) % len(seats)])
        self.seat = dict(zip(("first", "second", "third"), order, strict=True))
        self.user = {
            role: Seat.objects.get(table=table, number=n).user for role, n in self.seat.items()
        }

    @property
    def hand(self) -> Hand:
        return Hand.objects.filter(table=self.table).order_by("-number").first()  # type: ignore[return-value]

    @property
    def version(self) -> int:
        return Table.objects.get(pk=self.table.pk).version

    def to_act(self) -> str | None:
        number = self.hand.to_act
        return next((role for role, n in self.seat.items() if n == number), None)

    def you(self, role: str) -> dict[str, Any]:
        return table_snapshot(self.table, self.user[role])["you"]  # type: ignore[no-any-return]

    def act(self, role: str, action: str, amount: int | None = None) -> None:
        legal = self.you(role)["legal"]
        services.table_act(
            self.table.pk, self.user[role], legal["hand"], legal["version"], action, amount
        )

    def choose(self, role: str, kind: str | None, amount: int | None = None, **more: Any) -> None:
        services.pre_action_set(self.table.pk, self.user[role], self.hand.pk, kind, amount, **more)

    def chosen(self, role: str) -> str:
        return Seat.objects.get(table=self.table, number=self.seat[role]).pre_action

    def moves(self, role: str) -> list[str]:
        number = self.seat[role]
        return [
            r["kind"]
            for r in self.hand.records
            if r.get("seat") == number and r["kind"] in ("Checked", "Called", "Folded", "Raised")
        ]

    def told(self, role: str) -> list[str]:
        return [alert_frame(n)["message"] for n in alerts_take(self.table.pk, self.user[role].pk)]


@pytest.fixture
def three(seated_table: Table) -> Hand3:
    deal(seated_table)
    return Hand3(seated_table)


def test_a_call_chosen_before_the_turn_is_made_when_the_turn_comes(three: Hand3) -> None:
    # docs/rules.md, Home-game options: "a player may choose their action before their turn
    # (check/fold, check, call any, call an exact amount, fold)"
    assert three.to_act() == "first"
    to_call = three.you("second")["pre_action"]["to_call"]
    assert to_call == 1  # the small blind's 1 more to call the big blind's 2
    three.choose("second", "call", to_call)
    assert three.you("second")["pre_action"]["chosen"] == {"kind": "call", "amount": 1}
    three.act("first", "call")
    # Made at once, as the player's own move, and the turn goes on to the big blind.
    assert three.moves("second") == ["Called"]
    assert three.to_act() == "third"
    assert three.chosen("second") == ""


def test_a_raise_drops_a_call_of_an_exact_amount_and_the_player_is_told(
    three: Hand3, django_capture_on_commit_callbacks: Any
) -> None:
    # docs/rules.md, Home-game options: "a pre-action is dropped when the amount to call changes
    # from what it was chosen against"
    three.choose("second", "call", 1)
    with django_capture_on_commit_callbacks(execute=True):
        three.act("first", "raise", 7)
    assert three.chosen("second") == ""
    assert three.moves("second") == []
    assert three.to_act() == "second"  # they decide for themselves
    assert three.told("second") == ["Your call 1 was cleared: the bet is now 7."]


def test_call_any_is_kept_through_a_raise_and_calls_it(three: Hand3) -> None:
    # docs/rules.md, Home-game options: '(except "call any" and "check/fold")'
    three.choose("second", "call_any")
    three.act("first", "raise", 7)
    assert three.moves("second") == ["Called"]
    assert three.to_act() == "third"


def test_check_fold_is_kept_and_folds_to_a_bet(three: Hand3) -> None:
    # docs/rules.md, Home-game options: '(except "call any" and "check/fold")'
    assert three.you("third")["pre_action"]["kinds"] == ["check_fold", "check", "call_any"]
    three.choose("third", "check_fold")
    three.act("first", "raise", 7)
    assert three.chosen("third") == "check_fold"
    three.act("second", "call")
    assert three.moves("third") == ["Folded"]


def test_a_check_chosen_by_the_big_blind_checks_its_option(three: Hand3) -> None:
    three.choose("third", "check")
    three.act("first", "call")
    three.act("second", "call")
    assert three.moves("third") == ["Checked"]
    assert engine_of(three.hand).street == "flop"


def test_a_new_betting_round_clears_a_pre_action_without_a_word(
    three: Hand3, django_capture_on_commit_callbacks: Any
) -> None:
    three.act("first", "call")
    three.act("second", "call")
    # The button has called; while the big blind decides, they choose to call any bet.
    three.choose("first", "call_any")
    with django_capture_on_commit_callbacks(execute=True):
        three.act("third", "check")
    assert engine_of(three.hand).street == "flop"
    assert three.chosen("first") == ""
    assert three.told("first") == []


def test_the_end_of_the_hand_clears_a_pre_action(three: Hand3) -> None:
    three.choose("third", "check_fold")
    three.act("first", "fold")
    three.act("second", "fold")
    assert three.hand.is_complete
    assert three.chosen("third") == ""


def test_the_player_may_clear_their_choice(three: Hand3) -> None:
    three.choose("second", "call_any")
    version = three.version
    three.choose("second", None)
    assert three.chosen("second") == ""
    assert three.version == version + 1
    three.act("first", "raise", 7)
    assert three.moves("second") == []


def test_only_the_player_sees_their_pre_action(three: Hand3) -> None:
    three.choose("second", "call_any")
    assert three.you("second")["pre_action"]["chosen"] == {"kind": "call_any", "amount": 1}
    assert three.you("third")["pre_action"]["chosen"] is None
    assert "pre_action" not in three.you("first")  # their turn: they act
    for viewer in (None, three.user["third"], three.user["first"]):
        assert '"chosen":{' not in STATE.snapshot_text(three.table, viewer)[1]


def test_refused_pre_actions_change_nothing(three: Hand3, players: list[User]) -> None:
    table = three.table
    hand = three.hand
    (dee,) = make_players("dee")
    services.seat_take(table.pk, dee, 5, 100)  # seated, not dealt in
    before = three.version

    def refused(user: User, frame: dict[str, Any]) -> tuple[str, str]:
        (error,) = handle_frame(table.pk, user, {"type": "pre_action", **frame})
        return error["code"], error["message"]

    second, third, first = three.user["second"], three.user["third"], three.user["first"]
    good = {"hand": hand.pk, "kind": "call", "amount": 1}
    assert refused(second, {**good, "seat": three.seat["third"]})[0] == "not_your_seat"
    assert refused(dee, good) == ("not_in_hand", "you have no more bets to make in this hand")
    assert refused(first, {"hand": hand.pk, "kind": "call", "amount": 2}) == (
        "your_turn",
        "it is your turn: make your move now",
    )
    assert refused(second, {**good, "hand": hand.pk + 1})[0] == "stale"
    assert refused(second, {**good, "amount": 40}) == (
        "illegal_action",
        "the call is 1 now, not 40",
    )
    assert refused(third, {"hand": hand.pk, "kind": "fold"})[0] == "illegal_action"
    assert refused(second, {"hand": hand.pk, "kind": "check"}) == (
        "illegal_action",
        "there is a bet of 1 to call: choose fold, call or call any",
    )
    assert refused(second, {"hand": hand.pk, "kind": "raise"})[0] == "malformed"
    assert refused(second, {"hand": hand.pk, "kind": ["call"]})[0] == "malformed"
    assert refused(second, {"hand": hand.pk})[0] == "malformed"
    assert refused(second, {"hand": hand.pk, "kind": "call"})[0] == "malformed"  # no amount
    assert refused(second, {"hand": hand.pk, "kind": "call", "amount": "1"})[0] == "malformed"
    assert refused(second, {"hand": "x", "kind": "check_fold"})[0] == "malformed"
    assert three.version == before
    assert {s.pre_action for s in Seat.objects.filter(table=table)} == {""}


def test_a_pre_action_over_the_socket_s_frame_is_made(three: Hand3) -> None:
    frame = {"type": "pre_action", "hand": three.hand.pk, "kind": "call", "amount": 1}
    assert handle_frame(three.table.pk, three.user["second"], frame) == []
    three.act("first", "call")
    assert three.moves("second") == ["Called"]


def test_choosing_a_move_brings_back_a_timed_out_player(three: Hand3) -> None:
    seat = Seat.objects.get(table=three.table, number=three.seat["third"])
    seat.state, seat.sat_out_reason = SeatState.SITTING_OUT, "timed out"
    seat.save()
    three.choose("third", "check")
    seat.refresh_from_db()
    assert seat.state == SeatState.PLAYING
    three.act("first", "call")
    three.act("second", "call")
    assert three.moves("third") == ["Checked"]


def test_pre_actions_work_at_a_tournament_table(db: None) -> None:
    ann, ben, cal = make_players("ann", "ben", "cal")
    table = services.tournament_table_open(
        name="Online PLO8, table 1",
        game="omaha-hi-lo",
        structure="pot-limit",
        seat_count=6,
        stakes=services.Stakes(small_blind=10, big_blind=20),
        sitters={n: services.Sitter(u.pk, 1500) for n, u in enumerate((ann, ben, cal), 1)},
    )
    services.table_release(table.pk)
    table.refresh_from_db()
    assert services.table_tick(table.pk, now=table.next_hand_at)
    three = Hand3(table)
    three.choose("second", "call", 10)
    three.act("first", "call")
    assert three.moves("second") == ["Called"]


@pytest.mark.django_db(transaction=True)
def test_with_a_pre_action_chosen_moves_outside_a_transaction_make_it_too(
    seated_table: Table,
) -> None:
    # A move that may make or drop a pre-action writes a seat too (made under the lock, on
    # a thread), whether the move comes from a socket's thread or its event loop.
    deal(seated_table)
    three = Hand3(seated_table)
    three.choose("second", "call", 1)
    three.act("first", "call")
    assert three.moves("second") == ["Called"]
    three.choose("second", "check_fold")
    legal = three.you("third")["legal"]
    made = asyncio.run(
        services.table_act_on_loop(
            seated_table.pk, three.user["third"], legal["hand"], legal["version"], "check"
        )
    )
    assert made is None  # handed to a database thread, nothing written on the loop
    assert three.version == legal["version"] and three.moves("third") == []
    three.act("third", "check")
    assert three.moves("third") == ["Checked"] and three.chosen("second") == ""
