"""Pre-actions: a move a player chooses before their turn, and what it becomes when it comes.

docs/rules.md, Home-game options: "a player may choose their action before their turn
(check/fold, check, call any, call an exact amount, fold); a pre-action is dropped when the
amount to call changes from what it was chosen against (except "call any" and
"check/fold")."

A pre-action is chosen for the betting round in play: one that round did not reach (the
player had already matched the bet, and nobody raised) is dropped when the next round
begins, so a "call any" chosen before the flop never calls a bet made on the river.

>>> from tables.engine.state import Action, LegalActions, Street
>>> chosen = pre_action_choose("call", 40, street=Street.FLOP, to_call=40)
>>> facing_40 = LegalActions(3, (Action.FOLD, Action.CALL, Action.RAISE), call=40)
>>> pre_action_move(chosen, Street.FLOP, facing_40)
(<Action.CALL: 'call'>, None)
>>> facing_120 = facing_40._replace(call=120)
>>> pre_action_move(chosen, Street.FLOP, facing_120) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from tables.engine.errors import RuleError
from tables.engine.records import Action
from tables.engine.state import LegalActions, Street

__all__ = [
    "BETTING_STREETS",
    "KEPT_WHEN_THE_BET_CHANGES",
    "PreAction",
    "PreActionChoice",
    "pre_action_choose",
    "pre_action_kinds",
    "pre_action_move",
    "pre_action_stands",
]


class PreAction(StrEnum):
    """The pre-actions a player may choose (docs/rules.md, Home-game options, "Pre-actions")."""

    CHECK_FOLD = "check_fold"
    CHECK = "check"
    CALL = "call"
    CALL_ANY = "call_any"
    FOLD = "fold"


# docs/rules.md: dropped when the amount to call changes "(except "call any" and "check/fold")".
KEPT_WHEN_THE_BET_CHANGES = frozenset({PreAction.CALL_ANY, PreAction.CHECK_FOLD})

BETTING_STREETS = (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER)


@dataclass(frozen=True)
class PreActionChoice:
    """A chosen pre-action and the situation it was chosen in: the betting round and the
    amount the player had to call then (chips to add, at most their stack; 0: nothing)."""

    kind: PreAction
    street: Street
    to_call: int


def pre_action_kinds(to_call: int) -> tuple[PreAction, ...]:
    """The pre-actions offered to a player with ``to_call`` to call, in the order shown.

    With nothing to call, folding is "check/fold" (a check costs nothing); facing a bet,
    checking is no choice, and "call" names its amount.

    >>> [str(k) for k in pre_action_kinds(0)]
    ['check_fold', 'check', 'call_any']
    >>> [str(k) for k in pre_action_kinds(40)]
    ['fold', 'call', 'call_any']
    """
    if to_call > 0:
        return (PreAction.FOLD, PreAction.CALL, PreAction.CALL_ANY)
    return (PreAction.CHECK_FOLD, PreAction.CHECK, PreAction.CALL_ANY)


def pre_action_choose(
    kind: str, amount: int | None, *, street: Street, to_call: int
) -> PreActionChoice:
    """Check a pre-action asked for in this situation (the betting round, the amount the
    player has to call) and return it as chosen; ``RuleError`` names the rule it breaks.

    ``amount`` is the call's amount for "call" (it must be the amount to call now: a call
    of an exact amount is chosen against the bet the player saw), ignored otherwise.

    >>> pre_action_choose("check", None, street=Street.TURN, to_call=20)
    Traceback (most recent call last):
    ...
    tables.engine.errors.RuleError: there is a bet of 20 to call: choose fold, call or call any
    """
    try:
        chosen = PreAction(kind)
    except ValueError:
        raise RuleError(
            f"{kind!r} is not a pre-action", code="pre_action_unknown", params={"kind": repr(kind)}
        ) from None
    if street not in BETTING_STREETS:
        raise RuleError("the betting is over", code="betting_over")
    if chosen not in pre_action_kinds(to_call):
        if to_call > 0:
            raise RuleError(
                f"there is a bet of {to_call} to call: choose fold, call or call any",
                code="pre_action_facing_bet",
                params={"call": to_call},
            )
        raise RuleError(
            "there is no bet to call: choose check/fold, check or call any",
            code="pre_action_no_bet",
        )
    if chosen is PreAction.CALL and amount != to_call:
        if amount is None:
            raise RuleError("say the amount of the call", code="pre_action_call_needs_amount")
        raise RuleError(
            f"the call is {to_call} now, not {amount}",
            code="pre_action_call_amount",
            params={"call": to_call, "amount": amount},
        )
    return PreActionChoice(chosen, street, to_call)


def pre_action_stands(chosen: PreActionChoice, street: Street, to_call: int) -> bool:
    """Whether ``chosen`` still holds now that the round is ``street`` and the player has
    ``to_call`` to call: dropped in a new round, and when the amount to call changed from
    what it was chosen against, unless it is "call any" or "check/fold"."""
    if street != chosen.street:
        return False
    return chosen.kind in KEPT_WHEN_THE_BET_CHANGES or to_call == chosen.to_call


def pre_action_move(
    chosen: PreActionChoice, street: Street, legal: LegalActions
) -> tuple[Action, None] | None:
    """The move ``chosen`` makes now that the player's turn has come (``legal`` is what the
    engine offers them), as ``Hand.act``'s action and amount; None when it is dropped.

    "Check/fold" checks when checking is free, else folds; "call any" calls whatever the
    bet, or checks when there is none; "check", "call" and "fold" make that move, if the
    amount to call is still the one they were chosen against.
    """
    if legal.seat is None or not pre_action_stands(chosen, street, legal.call):
        return None
    actions = legal.actions
    kind = chosen.kind
    if kind is PreAction.CHECK_FOLD:
        return (Action.CHECK if Action.CHECK in actions else Action.FOLD, None)
    if kind is PreAction.CALL_ANY:
        return (Action.CALL if Action.CALL in actions else Action.CHECK, None)
    move = {
        PreAction.CHECK: Action.CHECK,
        PreAction.CALL: Action.CALL,
        PreAction.FOLD: Action.FOLD,
    }[kind]
    return (move, None) if move in actions else None
