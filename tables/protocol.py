"""The table's frame protocol (docs/protocol.md): a client's frame in, a service call, the
sender's error frames out.

Sockets (``tables.consumers``) and the house bots (``tables.bots``) both send their frames
through ``handle_frame``, so a bot's move takes exactly the path a person's does. Nothing
here knows about sockets or event loops: it runs in a worker thread for a socket, directly
for a bot.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tables import services
from tables.engine.preactions import PreAction
from tables.errors import TableError
from tables.throttle import (
    CHAT_LINES_PER_WINDOW,
    CHAT_WINDOW_SECONDS,
    FRAME_WINDOW_SECONDS,
    FRAMES_PER_WINDOW,
    chat_allowed,
    frame_allowed,
    frame_allowed_here,
    frame_unspend_here,
)

ACTIONS = {"fold", "check", "call", "bet", "raise", "show", "muck"}
PRE_ACTIONS = {str(kind) for kind in PreAction}
# The host's frames without arguments ("remove" takes a seat).
HOST_FRAMES: dict[str, Any] = {
    "pause": services.table_pause,
    "resume": services.table_resume,
    "close": services.table_close,
    "remove": services.seat_remove,
}


def error_frame(code: str, message: str, ref: Any = None) -> dict[str, Any]:
    frame: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if ref is not None:
        frame["ref"] = ref
    return frame


def _int(frame: dict[str, Any], name: str, *, required: bool = True) -> int | None:
    value = frame.get(name)
    if value is None and not required:
        return None
    if type(value) is not int:
        raise TableError(
            "malformed", gettext_lazy("%(name)s must be an integer"), {"name": repr(name)}
        )
    return value


def _bool(frame: dict[str, Any], name: str, default: bool) -> bool:
    value = frame.get(name, default)
    if type(value) is not bool:
        raise TableError(
            "malformed", gettext_lazy("%(name)s must be true or false"), {"name": repr(name)}
        )
    return value


def _ref(frame: dict[str, Any]) -> str | int | None:
    """The frame's ``ref``, echoed in its error frames when it is a string or an integer."""
    ref = frame.get("ref")
    return ref if isinstance(ref, (str, int)) else None


def _pre_action_args(
    frame: dict[str, Any],
) -> tuple[int | None, str | None, int | None, int | None]:
    """A "pre_action" frame's hand, kind (None: clear the choice), the call's amount and the
    seat it names (if it names one), checked (``TableError``)."""
    if "kind" not in frame:
        raise TableError(
            "malformed", gettext_lazy("say 'kind': the move to make when your turn comes, or null")
        )
    kind = frame["kind"]
    if kind is not None and (not isinstance(kind, str) or kind not in PRE_ACTIONS):
        raise TableError(
            "malformed",
            gettext_lazy("'kind' must be null or one of %(kinds)s"),
            {"kinds": ", ".join(sorted(PRE_ACTIONS))},
        )
    amount = _int(frame, "amount", required=kind == PreAction.CALL)
    seat = _int(frame, "seat", required=False)
    return _int(frame, "hand", required=kind is not None), kind, amount, seat


def _seat_args(frame: dict[str, Any]) -> tuple[int, int, bool]:
    """A "sit" or "request_seat" frame's seat, buy-in and whether to wait for the big blind,
    checked (``TableError``)."""
    seat = _int(frame, "seat")
    buy_in = _int(frame, "buy_in")
    assert seat is not None and buy_in is not None  # required: _int raised otherwise
    return seat, buy_in, _bool(frame, "wait_for_big_blind", True)


def _act_args(frame: dict[str, Any]) -> tuple[int, int, str, int | None]:
    """An "act" frame's hand, version, action and amount, checked (``TableError``)."""
    action = frame.get("action")
    if action not in ACTIONS:
        raise TableError(
            "malformed",
            gettext_lazy("'action' must be one of %(actions)s"),
            {"actions": ", ".join(sorted(ACTIONS))},
        )
    amount = _int(frame, "amount", required=False)
    if action in ("bet", "raise") and amount is None:
        raise TableError(
            "malformed",
            gettext_lazy("say how much to bet to ('amount')")
            if action == "bet"
            else gettext_lazy("say how much to raise to ('amount')"),
        )
    return (
        _int(frame, "hand"),  # type: ignore[return-value]
        _int(frame, "version"),
        action,
        amount if action in ("bet", "raise") else None,
    )


async def handle_move_on_loop(table_id: int, user: Any, frame: Any) -> list[dict[str, Any]] | None:
    """``handle_frame`` for an "act" frame, on the socket's event loop, when the move can be
    made there (``services.table_act_on_loop``); None when the frame is to go to
    ``handle_frame`` on a database thread instead (every other frame, a malformed one, a
    player whose frame count needs the shared store, a move that needs a read or more
    writes). Replies and refusals are ``handle_frame``'s, and so is what is written.
    """
    if not isinstance(frame, dict) or frame.get("type") != "act":
        return None
    try:
        args = _act_args(frame)
    except TableError:
        return None  # handle_frame words the refusal (and counts the frame)
    if not frame_allowed_here(user):
        return None
    try:
        done = await services.table_act_on_loop(table_id, user, *args)
    except TableError as exc:
        return [error_frame(exc.code, exc.message, _ref(frame))]
    if done is None:
        # Not made here: handle_frame makes it, and counts this frame again. The count
        # errs towards the player's budget, never past it: take back this one.
        frame_unspend_here(user)
        return None
    return []


def _on_act(table_id: int, user: Any, frame: dict[str, Any]) -> None:
    services.table_act(table_id, user, *_act_args(frame))


def _on_sit(table_id: int, user: Any, frame: dict[str, Any]) -> None:
    services.seat_take(table_id, user, *_seat_args(frame))


def _on_sit_out(table_id: int, user: Any, frame: dict[str, Any]) -> None:
    services.seat_sit_out(table_id, user)


def _on_sit_in(table_id: int, user: Any, frame: dict[str, Any]) -> None:
    services.seat_sit_in(table_id, user, _bool(frame, "wait_for_big_blind", True))


def _on_leave(table_id: int, user: Any, frame: dict[str, Any]) -> None:
    services.seat_leave(table_id, user)


def _on_run_twice(table_id: int, user: Any, frame: dict[str, Any]) -> None:
    # An answer when the players still in are asked to run the board twice.
    if "agree" not in frame:
        raise TableError("malformed", gettext_lazy("say 'agree': true or false"))
    services.require_user(user)
    services.run_twice_vote(
        table_id,
        user,
        _int(frame, "hand"),  # type: ignore[arg-type]
        _bool(frame, "agree", False),
        seat=_int(frame, "seat", required=False),
    )


def _on_options(table_id: int, user: Any, frame: dict[str, Any]) -> None:
    if "muck_losing" not in frame:
        raise TableError("malformed", gettext_lazy("say 'muck_losing': true or false"))
    services.seat_options(table_id, user, muck_losing=_bool(frame, "muck_losing", True))


def _on_straddle(table_id: int, user: Any, frame: dict[str, Any]) -> None:
    # docs/rules.md, Home-game options, "Straddle": the player asks for the next hand.
    if "on" not in frame:
        raise TableError("malformed", gettext_lazy("say 'on': true or false"))
    services.require_user(user)
    # "always": the standing choice to straddle every hand in that seat.
    services.seat_straddle(
        table_id, user, _bool(frame, "on", False), always=_bool(frame, "always", False)
    )


def _on_bomb_pot_vote(table_id: int, user: Any, frame: dict[str, Any]) -> None:
    if "yes" not in frame:
        raise TableError("malformed", gettext_lazy("say 'yes': true or false"))
    services.require_user(user)
    services.bomb_pot_vote(table_id, user, _bool(frame, "yes", False))


def _on_bomb_pot_call(table_id: int, user: Any, frame: dict[str, Any]) -> None:
    # The host's call of a bomb pot next hand ("on": false calls it off).
    services.require_user(user)
    services.bomb_pot_call(table_id, user, _bool(frame, "on", True))


def _on_pre_action(table_id: int, user: Any, frame: dict[str, Any]) -> None:
    hand, chosen, amount, seat = _pre_action_args(frame)
    services.pre_action_set(table_id, user, hand, chosen, amount, seat_number=seat)


def _on_rebuy(table_id: int, user: Any, frame: dict[str, Any]) -> None:
    services.seat_rebuy(
        table_id,
        user,
        _int(frame, "amount"),  # type: ignore[arg-type]
        next_hand=_bool(frame, "next_hand", False),
    )


def _on_request_seat(table_id: int, user: Any, frame: dict[str, Any]) -> None:
    invite = frame.get("invite")
    if not isinstance(invite, str):
        raise TableError("malformed", gettext_lazy("'invite' must be the invite link's token"))
    services.require_user(user)
    services.seat_request(table_id, user, *_seat_args(frame), invite=invite)


def _on_approve_or_refuse(table_id: int, user: Any, frame: dict[str, Any]) -> None:
    services.require_user(user)
    services.seat_request_decide(
        table_id,
        user,
        _int(frame, "request"),  # type: ignore[arg-type]
        frame["type"] == "approve",
    )


def _on_host(table_id: int, user: Any, frame: dict[str, Any]) -> None:
    # The host's controls: the services refuse everyone else with "forbidden".
    services.require_user(user)
    if frame["type"] == "remove":
        services.seat_remove(table_id, user, _int(frame, "seat"))  # type: ignore[arg-type]
    else:
        HOST_FRAMES[frame["type"]](table_id, user)


def _on_show_cards(table_id: int, user: Any, frame: dict[str, Any]) -> None:
    # After the hand, until the next one: some or all of the player's own cards.
    cards = frame.get("cards")
    if not (isinstance(cards, list) and cards and all(isinstance(c, str) for c in cards)):
        raise TableError(
            "malformed", gettext_lazy("'cards' must be a list of cards, such as \"Ah\"")
        )
    services.cards_show(table_id, user, _int(frame, "hand"), cards)  # type: ignore[arg-type]


def _on_chat(table_id: int, user: Any, frame: dict[str, Any]) -> None:
    text = frame.get("text")
    if not isinstance(text, str):
        raise TableError("malformed", gettext_lazy("'text' must be a string"))
    if user is not None and user.is_authenticated and not chat_allowed(user):
        raise TableError(
            "throttled",
            gettext_lazy("at most %(lines)d chat lines in %(seconds)d s"),
            {"lines": CHAT_LINES_PER_WINDOW, "seconds": CHAT_WINDOW_SECONDS},
        )
    services.chat_post(table_id, user, text)


# Each frame type's handler: it checks the frame's arguments, then calls its service, which
# runs the checks of docs/protocol.md in their order; a refusal raises ``TableError``.
_Handler = Callable[[int, Any, dict[str, Any]], None]
_FRAME_HANDLERS: dict[str, _Handler] = {
    "act": _on_act,
    "sit": _on_sit,
    "sit_out": _on_sit_out,
    "sit_in": _on_sit_in,
    "leave": _on_leave,
    "run_twice": _on_run_twice,
    "options": _on_options,
    "straddle": _on_straddle,
    "bomb_pot_vote": _on_bomb_pot_vote,
    "bomb_pot_call": _on_bomb_pot_call,
    "pre_action": _on_pre_action,
    "rebuy": _on_rebuy,
    "request_seat": _on_request_seat,
    "approve": _on_approve_or_refuse,
    "refuse": _on_approve_or_refuse,
    **dict.fromkeys(HOST_FRAMES, _on_host),
    "show_cards": _on_show_cards,
    "chat": _on_chat,
}


def handle_frame(table_id: int, user: Any, frame: Any) -> list[dict[str, Any]]:
    """Apply one client frame; return the frames for the sender only (errors).

    Error messages are worded in the active language: a socket activates its own
    (``tables.i18n.language_from_scope``) around this call.

    Runs in a worker thread (``database_sync_to_async``) for sockets and directly for bots.
    Every refusal leaves the table exactly as it was.
    """
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
        return [error_frame("malformed", _("a frame is a JSON object with a string 'type'"))]
    ref = _ref(frame)
    kind = frame["type"]
    if not frame_allowed(user):
        return [
            error_frame(
                "throttled",
                _("more than %(frames)d frames in %(seconds)d s from your sockets together")
                % {"frames": FRAMES_PER_WINDOW, "seconds": FRAME_WINDOW_SECONDS},
                ref,
            )
        ]
    try:
        handler = _FRAME_HANDLERS.get(kind)
        if handler is None:
            raise TableError(
                "malformed", gettext_lazy("unknown frame type %(kind)s"), {"kind": repr(kind)}
            )
        handler(table_id, user, frame)
    except TableError as exc:
        return [error_frame(exc.code, exc.message, ref)]
    return []
