"""A player's pre-action: the move they choose before their turn, set or cleared.

docs/rules.md, Home-game options: "a player may choose their action before their turn
(check/fold, check, call any, call an exact amount, fold)". The choice is stored on the
player's seat with the hand, the betting round and the amount to call it was chosen against
(``Seat.pre_action_set``), so it holds whichever page chose it and while the player's phone
sleeps. When the turn comes, ``play.after_moves`` makes it, or drops it (``play``'s
``_pre_action_due``, ``_pre_actions_follow``); the engine says which
(``tables.engine.preactions``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from tables.engine.errors import RuleError
from tables.engine.preactions import pre_action_choose
from tables.errors import TableError
from tables.models import PRE_ACTION_FIELDS, Seat, SeatState
from tables.runtime.state import CHANGED, STATE, Outcome, Read
from tables.services.common import TIMED_OUT, require_user, seat_of


def pre_action_set(
    table_id: int,
    user: Any,
    hand_id: int | None,
    kind: str | None,
    amount: int | None = None,
    *,
    seat_number: int | None = None,
) -> Seat:
    """Choose ``kind`` (with the call's ``amount`` for "call") as ``user``'s move in hand
    ``hand_id`` when their turn comes, or clear their choice (``kind`` None).

    Refused, with nothing changed: for another seat than the player's own, for a hand that
    is over, when the player is not in the betting of the hand in play, on their own turn
    (they act), and what the engine refuses (a check facing a bet, a call of an amount that
    is no longer the one to call).
    """
    require_user(user)

    def decide(read: Read) -> Outcome:
        seat = seat_of(read, user)
        if seat_number is not None and seat_number != seat.number:
            raise TableError(
                "not_your_seat",
                _("you may choose a move only for your own seat, %(seat)s"),
                {"seat": seat.number},
            )
        hand = read.hand
        if kind is None:
            if hand is not None and seat.pre_action_in(hand.number) is not None:
                seat.pre_action_clear()
                read.save(seat, PRE_ACTION_FIELDS)
                return CHANGED
            return None
        if hand is None or hand.pk != hand_id:
            raise TableError("stale", _("that hand is over: your choice came too late"))
        engine = read.engine_to_move(hand)
        if seat.leaving or not engine.may_bet_later(seat.number):
            raise TableError("not_in_hand", _("you have no more bets to make in this hand"))
        if engine.to_act == seat.number:
            raise TableError("your_turn", _("it is your turn: make your move now"))
        try:
            chosen = pre_action_choose(
                kind, amount, street=engine.street, to_call=engine.to_call(seat.number)
            )
        except RuleError as exc:
            raise TableError.from_rule("illegal_action", exc) from None
        if seat.pre_action_in(hand.number) == chosen:
            return None
        seat.pre_action_set(hand.number, chosen)
        fields = PRE_ACTION_FIELDS
        if seat.state == SeatState.SITTING_OUT and seat.sat_out_reason == TIMED_OUT:
            # Choosing a move shows the player is back, as acting does: played, not timed out.
            seat.state = SeatState.PLAYING
            seat.sat_out_reason = ""
            fields = (*fields, "state", "sat_out_reason")
        read.save(seat, fields)
        # The version moves, so the player's pages (theirs only: ``you.pre_action``) show it.
        return CHANGED

    read, _outcome = STATE.change(table_id, None, decide)
    return seat_of(read, user)
