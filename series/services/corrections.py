"""A director's corrections of a finished event's results, validated and logged.

The director sends the event's whole corrected table (a row per player: place, prize,
bounties, knockouts, rebuys, add-ons, paid in); a player left out loses their result, a new
player gains one. Nothing changes unless every row is right: places form a real ranking
(a place shared by ``c`` players makes the next place ``k + c``), every place lies in the
field (1 to the number of results), no amount is negative, a player appears once. Each
change is logged in ``ResultChange`` with the rows before and after and the reason, the
settle-up follows at once and the season's standings are recomputed after commit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.names import NameOrder, name_key
from series.models import Event, Player, Result, ResultChange
from series.services.settle import settle_up_refresh
from series.services.standings import standings_schedule

# The fields a correction may change, in the order the page and the log show them.
CORRECTABLE = ("place", "prize", "bounties", "knockouts", "rebuys", "addons", "paid_in")
FIELD_LABELS = {
    "place": gettext_lazy("place"),
    "prize": gettext_lazy("prize"),
    "bounties": gettext_lazy("bounties"),
    "knockouts": gettext_lazy("knockouts"),
    "rebuys": gettext_lazy("rebuys"),
    "addons": gettext_lazy("add-ons"),
    "paid_in": gettext_lazy("paid in"),
}


class CorrectionError(Exception):
    """A correction refused: the message says what is wrong, in the director's words."""


@dataclass(frozen=True)
class Row:
    """One player's corrected result, as the director entered it."""

    player_id: int
    place: int
    prize: int = 0
    bounties: int = 0
    knockouts: int = 0
    rebuys: int = 0
    addons: int = 0
    paid_in: int = 0

    def values(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in CORRECTABLE}


def result_rows(event: Event) -> list[dict[str, Any]]:
    """The event's results as the log stores them: plain dicts, best place first, tied
    places in the results table's order."""
    results = (
        Result.objects.filter(event=event)
        .select_related("player")
        .order_by("place", NameOrder("player__name"), "pk")
    )
    return [
        _logged(result.player, {name: getattr(result, name) for name in CORRECTABLE})
        for result in results
    ]


def _logged(player: Player, values: Mapping[str, int]) -> dict[str, Any]:
    return {"player_id": player.pk, "player": player.name, **values}


def _rows_from(raw: Iterable[Mapping[str, Any]]) -> list[Row]:
    rows = []
    for item in raw:
        if item.get("player_id") is None or item.get("place") is None:
            raise CorrectionError(_("Every row needs a player and a place."))
        values: dict[str, int] = {}
        for name in ("player_id", *CORRECTABLE):
            value = item.get(name)
            values[name] = 0 if value is None else _whole(name, value)
        rows.append(Row(**values))
    return rows


def _whole(name: str, value: Any) -> int:
    """``value`` as a whole number, refusing 2.5, True and "ten" rather than rounding."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    raise CorrectionError(
        _("%(field)s must be a whole number, not “%(value)s”.")
        % {"field": str(FIELD_LABELS.get(name, name)).capitalize(), "value": value}
    )


def results_validate(rows: Sequence[Row], names: Mapping[int, str]) -> None:
    """Refuse a table of results that is not a real ranking of real amounts.

    ``names`` gives each player's name for the messages. Raises ``CorrectionError``.
    """
    if not rows:
        raise CorrectionError(
            _(
                "A finished event keeps at least one result; to drop the event, leave it out "
                "of the standings instead."
            )
        )
    seen: set[int] = set()
    for row in rows:
        if row.player_id not in names:
            raise CorrectionError(_("Player #%(id)s does not exist.") % {"id": row.player_id})
        if row.player_id in seen:
            raise CorrectionError(
                _("%(player)s has two rows: one result per player.")
                % {"player": names[row.player_id]}
            )
        seen.add(row.player_id)
        for name in CORRECTABLE:
            if getattr(row, name) < 0:
                raise CorrectionError(
                    _("%(player)s's %(field)s cannot be negative (%(value)s).")
                    % {
                        "player": names[row.player_id],
                        "field": FIELD_LABELS[name],
                        "value": getattr(row, name),
                    }
                )
    field = len(rows)
    for row in rows:
        if not 1 <= row.place <= field:
            raise CorrectionError(
                _(
                    "%(player)s's place %(place)s is outside the field: with %(field)s results "
                    "the places run from 1 to %(field)s."
                )
                % {"player": names[row.player_id], "place": row.place, "field": field}
            )
    by_place: dict[int, list[str]] = {}
    for row in sorted(rows, key=lambda r: (r.place, name_key(names[r.player_id]))):
        by_place.setdefault(row.place, []).append(names[row.player_id])
    expected = 1
    previous: tuple[int, list[str]] | None = None
    for place, players in sorted(by_place.items()):
        if place > expected:
            raise CorrectionError(
                _("Nobody has place %(missing)s: the places go from %(before)s to %(place)s.")
                % {"missing": expected, "before": expected - 1, "place": place}
                if expected > 1
                else _("Nobody has place 1: the places start at %(place)s.") % {"place": place}
            )
        if place < expected and previous is not None:
            shared_place, sharing = previous
            raise CorrectionError(
                _(
                    "%(players)s share place %(shared)s, so the next place is %(next)s; "
                    "%(player)s has %(place)s."
                )
                % {
                    "players": _(" and ").join(sharing),
                    "shared": shared_place,
                    "next": expected,
                    "player": players[0],
                    "place": place,
                }
            )
        previous = (place, players)
        expected = place + len(players)


@transaction.atomic
def results_correct(
    event_id: int, rows: Iterable[Mapping[str, Any]], *, by: User, reason: str
) -> ResultChange:
    """Replace ``event_id``'s results with ``rows`` (the whole corrected table) and log it.

    Each row maps ``player_id`` and ``place`` (required) and the amounts of ``CORRECTABLE``
    (0 when left out). Raises ``CorrectionError`` and changes nothing when the event is not
    finished, the reason is empty, nothing changed, or the rows are not a valid ranking.
    """
    event = Event.objects.select_for_update().filter(pk=event_id).first()
    if event is None:
        raise CorrectionError(_("This event does not exist."))
    if event.finished_at is None:
        raise CorrectionError(
            _("%(event)s has not finished: its results come from the tournament's finish.")
            % {"event": event}
        )
    reason = reason.strip()
    if not reason:
        raise CorrectionError(_("Say why the results change: the reason goes in the history."))
    corrected = _rows_from(rows)
    players = Player.objects.in_bulk([row.player_id for row in corrected])
    results_validate(corrected, {pk: player.name for pk, player in players.items()})

    current = {r.player_id: r for r in Result.objects.filter(event=event).select_for_update()}
    before = result_rows(event)
    wanted = {row.player_id: row for row in corrected}
    if {pk: {n: getattr(r, n) for n in CORRECTABLE} for pk, r in current.items()} == {
        pk: row.values() for pk, row in wanted.items()
    }:
        raise CorrectionError(_("These are the results already: nothing to correct."))

    tournament_id = next((r.tournament_id for r in current.values() if r.tournament_id), None)
    Result.objects.filter(event=event).exclude(player_id__in=wanted).delete()
    for player_id, row in wanted.items():
        result = current.get(player_id)
        if result is None:
            Result.objects.create(
                event=event, player_id=player_id, tournament_id=tournament_id, **row.values()
            )
        elif {n: getattr(result, n) for n in CORRECTABLE} != row.values():
            for name, value in row.values().items():
                setattr(result, name, value)
            result.save(update_fields=list(CORRECTABLE))
    change = ResultChange.objects.create(
        event=event, by=by, before=before, after=result_rows(event), reason=reason[:300]
    )
    settle_up_refresh(event.pk)
    # After commit (standings_schedule waits for it): the task reads the committed results.
    standings_schedule(event.season_id)
    return change


@dataclass(frozen=True)
class ChangeLine:
    """One player's line in the history of a correction, in words."""

    player: str
    kind: str  # "added", "removed" or "changed"
    details: list[str]


def result_change_lines(change: ResultChange) -> list[ChangeLine]:
    """What a logged correction changed, player by player, for the event's history."""
    before = {row["player_id"]: row for row in change.before}
    after = {row["player_id"]: row for row in change.after}
    lines = []
    for player_id, row in after.items():
        old = before.get(player_id)
        if old is None:
            lines.append(
                ChangeLine(
                    row["player"],
                    "added",
                    [f"{FIELD_LABELS[n]} {row.get(n, 0)}" for n in CORRECTABLE if row.get(n)],
                )
            )
            continue
        details = [
            str(format_lazy("{} {} → {}", FIELD_LABELS[n], old.get(n, 0), row.get(n, 0)))
            for n in CORRECTABLE
            if old.get(n, 0) != row.get(n, 0)
        ]
        if details:
            lines.append(ChangeLine(row["player"], "changed", details))
    for player_id, old in before.items():
        if player_id not in after:
            lines.append(
                ChangeLine(old["player"], "removed", [f"{FIELD_LABELS['place']} {old['place']}"])
            )
    return lines
