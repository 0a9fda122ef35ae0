"""Showing cards after the hand: a player turns up some or all of their own cards between
the end of a hand and the start of the next one at that table.

docs/rules.md, Home-game options, "Showing after the hand": the engine's ``Hand.show`` decides
which cards may be shown (the player's own, not yet face up, the hand over). Here: who may
ask (a player dealt into that hand) and until when (the next hand: once the table deals
it, the last hand's record is closed for good).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _

from tables.engine.cards import parse_card
from tables.engine.errors import RuleError
from tables.engine.records import record_to_json
from tables.errors import TableError
from tables.models import Hand, HandPlayer
from tables.runtime.state import STATE, Moved, Read
from tables.services.common import require_user


def cards_show(table_id: int, user: Any, hand_id: int, cards: Sequence[str]) -> int:
    """Show ``cards`` (text, "Ah") of ``user``'s hand ``hand_id``; returns the new version.

    Refused with ``TableError``, nothing written: a closed table (``closed``), a hand of
    another table (``not_found``), the next hand already dealt (``stale``), a hand still in
    play (``hand_in_play``), a user not dealt into it (``not_dealt_in``), text that is not
    a card (``malformed``), and whatever the engine's rule refuses (``illegal_action``: a
    card not theirs, one already face up).
    """
    require_user(user)
    try:
        wanted = [parse_card(text) for text in cards]
    except RuleError as exc:
        raise TableError.from_rule("malformed", exc) from None
    return _cards_show(table_id, user, hand_id, wanted)


def _cards_show(table_id: int, user: Any, hand_id: int, cards: list[int]) -> int:
    # Made under the table's lock, as every change but a simple move: the next hand cannot
    # be dealt while this show is written, and a show that comes after it is refused below.
    read, _moved = STATE.change(table_id, None, lambda read: _show(read, user, hand_id, cards))
    return read.table.version


def _show(read: Read, user: Any, hand_id: int, cards: list[int]) -> Moved:
    table = read.table
    if not table.is_open:
        raise TableError("closed", _("this table is closed"))
    hand = Hand.objects.filter(pk=hand_id, table_id=table.pk).first()
    if hand is None:
        raise TableError(
            "not_found", _("there is no hand %(hand)s at this table"), {"hand": hand_id}
        )
    newest = (
        Hand.objects.filter(table_id=table.pk).order_by("-number").values_list("pk", flat=True)
    ).first()
    if newest != hand.pk:
        raise TableError(
            "stale", _("the next hand has started: cards are shown only until it does")
        )
    if not hand.is_complete:
        # An all-in run-out still being dealt counts as in play: its cards are not all out.
        raise TableError("hand_in_play", _("the hand is not over yet"))
    seat = HandPlayer.objects.filter(hand=hand, user=user).values_list("seat", flat=True).first()
    if seat is None:
        raise TableError("not_dealt_in", _("you were not dealt into this hand"))
    engine = read.engine_to_move(hand)
    try:
        new = engine.show(seat, cards)
    except RuleError as exc:
        raise TableError.from_rule("illegal_action", exc) from None
    added = tuple(record_to_json(r) for r in new)
    hand.records = hand.records + list(added)
    return Moved(hand, engine, read.seats, added)
