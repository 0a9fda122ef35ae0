"""The clock's texts for a first paint, the way static/tournaments/clock.js writes them.

The TV page and the console's clock partial are painted from ``clock_payload`` so they read
right before (or without) JavaScript; from then on clock.js counts down and re-renders the
same elements with the same wording.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.humanize.templatetags.humanize import intcomma
from django.utils.translation import gettext as _

from tournaments.services.clock import clock_payload as read_payload

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
    return "–" if value is None else str(intcomma(value))


def _bets(row: dict[str, Any]) -> str:
    if row.get("small_bet") is not None and row.get("big_bet") is not None:
        return f"{chips(row['small_bet'])} / {chips(row['big_bet'])}"
    return f"{chips(row['small_blind'])} / {chips(row['big_blind'])}"


def _ante(row: dict[str, Any]) -> str:
    if not row.get("ante") or row.get("ante_kind") == "none":
        return ""
    if row.get("ante_kind") == "big-blind":
        return _("Big-blind ante %(ante)s") % {"ante": chips(row["ante"])}
    return _("Ante %(ante)s") % {"ante": chips(row["ante"])}


def _row(row: dict[str, Any] | None) -> str:
    if row is None:
        return _("None: this is the last level")
    if row["is_break"]:
        return _("Break, %(minutes)s min") % {"minutes": row["minutes"]}
    ante = _ante(row)
    text = _("Level %(number)s: %(bets)s") % {"number": row["number"], "bets": _bets(row)}
    return f"{text} · {ante}" if ante else text


@register.simple_tag
def clock_payload(tournament: Any) -> dict[str, Any] | None:
    """The public clock state of ``tournament`` (the console partial's first paint)."""
    return read_payload(tournament.pk)


@register.simple_tag
def clock_texts(payload: dict[str, Any]) -> dict[str, str]:
    """Every text of a clock screen, from ``clock_payload``."""
    clock = payload["clock"]
    field = payload["field"]
    state = payload["tournament"]["state"]
    current = clock["current"] or {}
    limit = current.get("small_bet") is not None and current.get("big_bet") is not None
    if state in ("finished", "cancelled"):
        status = payload["tournament"]["state_label"]
    elif not clock["started"]:
        status = _("Not started")
    elif clock["paused"]:
        status = _("Paused")
    elif clock["overtime"]:
        status = _("Last level: the blinds stay")
    else:
        status = ""
    if clock["on_break"]:
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
    payouts = field["payouts"]
    return {
        "status": status,
        "level": level,
        "time": clock_time(clock["remaining_ms"]),
        "bets_label": _("Limits") if limit else _("Blinds"),
        "bets": "" if clock["on_break"] or not current else _bets(current),
        "ante": "" if clock["on_break"] or not current else _ante(current),
        "next": _row(clock["next"]),
        "next_break": clock_time(clock["next_break_in_ms"]) if clock["next_break"] else "–",
        "players": _("%(left)s of %(entries)s")
        % {"left": field["players_left"], "entries": field["entries"]},
        "average": chips(field["average_stack"]),
        "pool": chips(field["prize_pool"]),
        "chip_race": chip_race,
        "payouts": ", ".join(
            _("%(place)s: %(prize)s") % {"place": p["place"], "prize": chips(p["prize"])}
            for p in payouts
        ),
    }
