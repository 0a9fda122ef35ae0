"""``{% clock_console tournament payload as console %}``: what the console's clock section
offers besides the clock itself: the quick changes to the night's levels (the rows still to
come, the blinds in play to start a new level from) and hand-for-hand in the room (each
table, whether it is done with the hand, and its dealer's link).

Read from ``clock_payload`` (the row in play as every screen shows it) and the blind structure's
rows, so the forms name the rows the director sees; each form also sends the clock's
version and the row in play, and the services refuse it if the clock has moved on since.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.services.clock.reads import clock_dealer_key, clock_rows
from tournaments.templatetags.tournament_clock import chips

register = template.Library()


def _bets(row: dict[str, Any]) -> str:
    if row.get("small_bet") is not None and row.get("big_bet") is not None:
        return f"{chips(row['small_bet'])}/{chips(row['big_bet'])}"
    return f"{chips(row['small_blind'])}/{chips(row['big_blind'])}"


def row_label(row: dict[str, Any]) -> str:
    """A row as a choice in a list: "Level 3 (100/200)", "Break after level 4 (10 min)"."""
    if row["is_break"]:
        return _("Break after level %(number)s (%(minutes)s min)") % {
            "number": row["levels_before"],
            "minutes": row["minutes"],
        }
    return _("Level %(number)s (%(bets)s)") % {"number": row["number"], "bets": _bets(row)}


@register.simple_tag
def clock_console(tournament: Any, payload: dict[str, Any]) -> dict[str, Any]:
    clock = payload["clock"]
    # The blind structure's rows: the payload carries only the rows the screens show.
    rows = [row.as_dict() for row in clock_rows(tournament.blind_structure_id)]
    index = clock["index"]
    coming = rows[index + 1 :]
    # The level a new level copies: the one in play, or on a break the last one played
    # (past the blind structure's end, the extra level in play).
    current = clock["current"]
    base = current if current and not current["is_break"] else None
    if base is None:
        base = next((row for row in reversed(rows[: index + 1]) if not row["is_break"]), None)
    # Where a break may go: after the level in play or a level to come, with no break
    # already after it.
    after = [
        row
        for position, row in enumerate(rows)
        if position >= index
        and not row["is_break"]
        and not (position + 1 < len(rows) and rows[position + 1]["is_break"])
    ]
    if index >= len(rows) and current and not current["is_break"]:
        after = [current]  # past the blind structure's end: after the extra level in play
    following = [row for row in coming if not row["is_break"]]
    hand_for_hand = payload["hand_for_hand"]
    tables = [
        {
            "number": number,
            "done": number in hand_for_hand["done"],
            "dealer_url": reverse(
                "tournaments:clock_dealer",
                args=[tournament.pk, number, clock_dealer_key(tournament, number)],
            ),
        }
        for number in hand_for_hand["tables"]
    ]
    return {
        "version": payload["version"],
        "index": index,
        "removable": [{"index": row["index"], "label": row_label(row)} for row in coming],
        "break_after": [{"index": row["index"], "label": row_label(row)} for row in after],
        "base": base,
        "limit": bool(base and base.get("small_bet") is not None),
        "next_minutes": following[0]["minutes"] if following else (base or {}).get("minutes"),
        "hand_for_hand": hand_for_hand,
        "tables": tables,
        "hand_minutes": tournament.hand_for_hand_minutes,
    }
