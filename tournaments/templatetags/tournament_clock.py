"""The clock's texts for a first paint, the way static/tournaments/clock.js writes them.

The TV page and the console's clock partial are painted from ``clock_payload`` so they read
right before (or without) JavaScript; from then on clock.js counts down and re-renders the
same elements with the same wording. Both only word what the payload says: which row is in
play and which come next, and when, is ``tournaments.clock``'s projection.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core import amounts
from tables.engine.config import AnteKind
from tournaments.services.clock.payload import clock_payload as read_payload

register = template.Library()


@register.filter
def clock_time(ms: int | None) -> str:
    """Milliseconds left as the clock shows them: "12:34", "1:02:03"; a started second
    counts as a whole one, so 0:00 shows exactly when the level ends."""
    if ms is None:
        return "–"
    seconds = max(0, -(-int(ms) // 1000))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"


@register.filter
def chips(value: int | None) -> str:
    """A number of chips or money as the clock shows it, grouped the reader's way
    (``core.amounts``): "10,000", "10 000"."""
    return "–" if value is None else amounts.number(value)


@register.filter
def money_or_dash(value: int | None) -> str:
    """A prize as the TV lists it: a dash for a place that won nothing."""
    return chips(value) if value else "–"


def _bets(row: dict[str, Any]) -> str:
    if row.get("small_bet") is not None and row.get("big_bet") is not None:
        return f"{chips(row['small_bet'])} / {chips(row['big_bet'])}"
    return f"{chips(row['small_blind'])} / {chips(row['big_blind'])}"


def _ante(row: dict[str, Any]) -> str:
    if not row.get("ante") or row.get("ante_kind") == AnteKind.NONE:
        return ""
    if row.get("ante_kind") == AnteKind.BIG_BLIND:
        return _("Big-blind ante %(ante)s") % {"ante": chips(row["ante"])}
    return _("Ante %(ante)s") % {"ante": chips(row["ante"])}


def _blinds(row: dict[str, Any]) -> str:
    """A limit level's blinds, shown beside its limits (empty for other levels: their
    blinds are the bets already shown)."""
    if row.get("small_bet") is None or row.get("big_bet") is None:
        return ""
    return _("Blinds %(blinds)s") % {
        "blinds": f"{chips(row['small_blind'])} / {chips(row['big_blind'])}"
    }


def _row(row: dict[str, Any] | None, addon_break: int | None = None) -> str:
    if row is None:
        return _("None: this is the last level")
    if row["is_break"] and row["index"] == addon_break:
        return _("Add-on break, %(minutes)s min") % {"minutes": row["minutes"]}
    if row["is_break"]:
        return _("Break, %(minutes)s min") % {"minutes": row["minutes"]}
    ante = _ante(row)
    text = _("Level %(number)s: %(bets)s") % {"number": row["number"], "bets": _bets(row)}
    return f"{text} · {ante}" if ante else text


def _row_parts(row: dict[str, Any], addon_break: int | None) -> dict[str, str]:
    """A row coming up as the TV lists it: its name, and its bets or length below."""
    if row["is_break"]:
        name = _("Add-on break") if row["index"] == addon_break else _("Break")
        return {"name": name, "detail": _("%(minutes)s min") % {"minutes": row["minutes"]}}
    ante = _ante(row)
    bets = _bets(row)
    return {
        "name": _("Level %(number)s") % {"number": row["number"]},
        "detail": f"{bets} · {ante}" if ante else bets,
    }


def _coming(clock: dict[str, Any], addon_break: int | None) -> list[dict[str, str]]:
    """The rows coming up as the TV lists them, each with the time until it starts (the
    payload's ``coming``: past the blind structure's end, its extra levels)."""
    return [
        {**_row_parts(row, addon_break), "starts_in": clock_time(row["starts_in_ms"])}
        for row in clock["coming"]
    ]


def hand_for_hand_text(hand_for_hand: dict[str, Any] | None) -> str:
    """The hand-for-hand line under the clock: "Hand 3 · Still playing: tables 2, 4" (hand 0
    is the hands in play when it was announced), with the bubble's word on the hand it
    burst on; empty when it is off."""
    if not hand_for_hand or not hand_for_hand.get("on"):
        return ""
    hand = hand_for_hand.get("hand") or 0
    parts = [_("Hand %(hand)s") % {"hand": hand} if hand else _("Finishing the hands in play")]
    if hand_for_hand.get("burst"):
        parts.append(_("Bubble burst: finishing this hand at every table"))
    playing = hand_for_hand.get("playing") or []
    if playing:
        parts.append(
            ngettext(
                "Still playing: table %(tables)s",
                "Still playing: tables %(tables)s",
                len(playing),
            )
            % {"tables": ", ".join(str(number) for number in playing)}
        )
    return " · ".join(parts)


@register.simple_tag
def clock_payload(tournament: Any, read: Any = None) -> dict[str, Any] | None:
    """The public clock state of ``tournament`` (the console partial's first paint).

    ``read``: the state the page including the partial has read already (the console's bar
    and its clock section show one state, read once); a partial drawn alone reads it."""
    if isinstance(read, dict):
        return read
    return read_payload(tournament.pk)


@register.simple_tag
def clock_texts(payload: dict[str, Any]) -> dict[str, str]:
    """Every text of a clock screen, from ``clock_payload``."""
    clock = payload["clock"]
    field = payload["field"]
    tv = payload.get("tv") or {}
    addon_break = tv.get("addon_break")
    state = payload["tournament"]["state"]
    over = state in ("finished", "cancelled")
    current = clock["current"] or {}
    limit = current.get("small_bet") is not None and current.get("big_bet") is not None
    if state in ("finished", "cancelled"):
        status = payload["tournament"]["state_label"]
    elif not clock["started"]:
        status = _("Not started")
    elif (payload.get("hand_for_hand") or {}).get("on"):
        status = _("Hand-for-hand")
    elif clock["paused"] and payload.get("deal_held"):
        status = _("Held for a deal")
    elif clock["paused"]:
        status = _("Paused")
    elif clock["overtime"]:
        status = _("Last level: the blinds stay")
    else:
        status = ""
    if clock["on_break"] and clock["index"] == addon_break:
        level = _("Add-on break")
    elif clock["on_break"]:
        level = _("Break")
    elif current:
        level = _("Level %(number)s") % {"number": current.get("number")}
    else:
        level = ""
    race = clock["chip_race"]
    if race:
        chip_race = _("Chip race at the break: the %(chips)s chips come off") % {
            "chips": ", ".join(chips(c) for c in race)
        }
    else:
        chip_race = ""
    leaving = tv.get("colour_up") or []
    if leaving and not clock["on_break"]:
        colour_up = _("Colour-up: the %(chips)s chips are no longer used") % {
            "chips": ", ".join(chips(c) for c in leaving)
        }
    else:
        colour_up = ""
    payouts = field["payouts"]
    return {
        "status": status,
        "level": level,
        "time": clock_time(clock["remaining_ms"]),
        "bets_label": _("Limits") if limit else _("Blinds"),
        "bets": "" if clock["on_break"] or not current else _bets(current),
        "ante": "" if clock["on_break"] or not current else _ante(current),
        "blinds": "" if clock["on_break"] or not current else _blinds(current),
        "next": _row(clock["next"], addon_break),
        "next_break": (
            clock_time(clock["next_break_in_ms"]) if clock["next_break"] and not over else "–"
        ),
        "players": _("%(left)s of %(entries)s")
        % {"left": field["players_left"], "entries": field["entries"]},
        "average": chips(field["average_stack"]),
        "pool": chips(field["prize_pool"]),
        "chip_race": chip_race,
        "colour_up": colour_up,
        "coming": [] if over else _coming(clock, addon_break),
        "hand_for_hand": "" if over else hand_for_hand_text(payload.get("hand_for_hand")),
        "payouts": ", ".join(
            _("%(place)s: %(prize)s") % {"place": p["place"], "prize": chips(p["prize"])}
            for p in payouts
        ),
    }
