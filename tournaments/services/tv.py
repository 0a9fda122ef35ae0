"""The TV clock's own part of the screens' state: the director's layout and theme, the
add-on break, the colour-ups the blind structure implies, and once it is over, who won what.

``tv_layout_set`` is a console action like the others: it locks the tournament, refuses
what it cannot show, and records itself in the action log with the layout as it was, so
Undo puts it back; the log's signal then sends the new state to every screen.

``tv_parts`` is read by ``services.clock.payload.clock_payloads`` for every payload it
builds, so the TV, its socket and the JSON for overlays agree. It reads several tournaments with a
fixed number of queries (chip sets, and only when needed the add-on break's row and the
results), as the payloads do. Once a tournament is finished the places name the players:
the results are the room's news, as on the series' pages.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import SimpleNamespace
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from core.names import name_key
from series.selectors import places_tied
from tournaments.clock import ClockRow
from tournaments.colour_ups import colour_ups
from tournaments.errors import TournamentError
from tournaments.models import (
    ActionKind,
    BlindLevel,
    BlindStructure,
    Entry,
    EntryState,
    Tournament,
    TournamentAction,
    TournamentState,
    TvTheme,
)
from tournaments.permissions import require_director
from tournaments.services import undo
from tournaments.services.locks import tournament_locked
from tournaments.summaries import Message, joined, message

# The layout's switches: Tournament field, payload key, the log's words when it is off.
SWITCHES = (
    ("tv_show_payouts", "show_payouts", gettext_noop("payouts off")),
    ("tv_show_chips", "show_chips", gettext_noop("chip counts off")),
    ("tv_show_next_levels", "show_next_levels", gettext_noop("levels coming up off")),
)
THEME_LOG = {
    TvTheme.DARK: gettext_noop("dark theme"),
    TvTheme.LIGHT: gettext_noop("light theme"),
    TvTheme.CONTRAST: gettext_noop("high-contrast theme"),
    TvTheme.FELT: gettext_noop("green felt theme"),
}
# The final places a TV lists: the paid ones, and at least this many (a final table).
PLACES_SHOWN = 10
# At most this many, whatever the field: more would not fit the screen.
PLACES_MAX = 15


def tv_layout(tournament: Tournament) -> dict[str, Any]:
    """The layout as the screens read it."""
    layout: dict[str, Any] = {"theme": tournament.tv_theme}
    for field, key, _off in SWITCHES:
        layout[key] = bool(getattr(tournament, field))
    return layout


def _stored(tournament: Tournament) -> dict[str, Any]:
    return {"tv_theme": tournament.tv_theme} | {
        field: getattr(tournament, field) for field, _key, _off in SWITCHES
    }


def _summary(tournament: Tournament) -> Message:
    off = [message(words) for field, _key, words in SWITCHES if not getattr(tournament, field)]
    return message(
        gettext_noop("TV: %(theme)s; %(shown)s"),
        theme=message(THEME_LOG[TvTheme(tournament.tv_theme)]),
        shown=joined(off) if off else message(gettext_noop("everything shown")),
    )


def tv_layout_set(
    tournament_id: int,
    *,
    theme: Any,
    show_payouts: Any,
    show_chips: Any,
    show_next_levels: Any,
    by: Any,
) -> Tournament:
    """Choose what the TV shows besides the clock, and its theme.

    Refused, changing nothing, for a theme that is not one of ``TvTheme`` or a switch that
    is not a boolean, and when the TV already looks like that (nothing to log or undo).
    """
    require_director(by)
    if not isinstance(theme, str) or theme not in TvTheme.values:
        raise TournamentError(
            _("Choose one of the themes: %(themes)s.")
            % {"themes": ", ".join(str(label) for label in TvTheme.labels)}
        )
    switches = {"show_payouts": show_payouts, "show_chips": show_chips}
    switches["show_next_levels"] = show_next_levels
    if not all(isinstance(value, bool) for value in switches.values()):
        raise TournamentError(_("Say for each part of the TV whether it is shown."))
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        before = _stored(tournament)
        tournament.tv_theme = theme
        for field, key, _off in SWITCHES:
            setattr(tournament, field, switches[key])
        if _stored(tournament) == before:
            raise TournamentError(_("The TV already shows this."))
        tournament.save(update_fields=list(before))
        undo.action_record(
            tournament, ActionKind.TV, _summary(tournament), by=by, undo={"tv": before}
        )
    return tournament


@undo.register(ActionKind.TV)
def _undo_layout(tournament: Tournament, action: TournamentAction) -> None:
    """The layout as it was before the change."""
    before = action.undo.get("tv")
    if not isinstance(before, dict) or before.get("tv_theme") not in TvTheme.values:
        raise TournamentError(_("This TV change kept nothing to undo it with."))
    tournament.tv_theme = before["tv_theme"]
    for field, _key, _off in SWITCHES:
        setattr(tournament, field, bool(before.get(field, True)))
    tournament.save(update_fields=list(_stored(tournament)))


# ---------------------------------------------------------------------------- the screens


def tv_parts(
    tournaments: Sequence[Tournament],
    rows_by_blind_structure: Mapping[int, Sequence[ClockRow]],
    in_play: Mapping[int, int],
) -> dict[int, dict[str, Any]]:
    """Each tournament's ``tv`` part of the clock payload: ``layout``, ``addon_break`` (the
    row index of the add-on break, or None), ``colour_up`` (the chips no longer used from
    the row in play on, ``in_play``: each tournament's row index) and ``results`` (None
    unless finished)."""
    colours = tv_colour_ups({t.blind_structure_id for t in tournaments}, rows_by_blind_structure)
    addon_rows = _addon_rows([t for t in tournaments if t.addon_at_break is not None])
    results = _results([t for t in tournaments if t.state == TournamentState.FINISHED])
    return {
        t.pk: {
            "layout": tv_layout(t),
            "addon_break": addon_rows.get(t.pk),
            "colour_up": tv_colour_up(colours[t.blind_structure_id], in_play[t.pk]),
            "results": results.get(t.pk),
        }
        for t in tournaments
    }


def tv_colour_ups(
    blind_structure_ids: set[int], rows_by_blind_structure: Mapping[int, Sequence[ClockRow]]
) -> dict[int, list[list[int]]]:
    """Each blind structure's chips no longer used from each of its rows on (by row index), as the
    TV's ``colour_up`` names them, in one query."""
    chip_sets = dict(
        BlindStructure.objects.filter(pk__in=blind_structure_ids).values_list("pk", "chip_set")
    )
    return {
        blind_structure_id: [
            list(chips)
            for chips in colour_ups(
                rows_by_blind_structure.get(blind_structure_id, ()),
                chip_sets.get(blind_structure_id) or [],
            )
        ]
        for blind_structure_id in blind_structure_ids
    }


def tv_colour_up(colours: Sequence[list[int]], index: int) -> list[int]:
    """The chips no longer used from row ``index`` on, from a blind structure's list of
    ``tv_colour_ups`` (past the blind structure's end, its extra levels, no chip goes)."""
    return colours[index] if 0 <= index < len(colours) else []


def _addon_rows(tournaments: Sequence[Tournament]) -> dict[int, int]:
    """The clock row (index in position order) of each tournament's add-on break."""
    if not tournaments:
        return {}
    positions: dict[int, list[int]] = {}
    for blind_structure_id, position in (
        BlindLevel.objects.filter(
            blind_structure_id__in={t.blind_structure_id for t in tournaments}
        )
        .order_by("blind_structure_id", "position", "pk")
        .values_list("blind_structure_id", "position")
    ):
        positions.setdefault(blind_structure_id, []).append(position)
    found = {}
    for tournament in tournaments:
        rows = positions.get(tournament.blind_structure_id, [])
        if tournament.addon_at_break in rows:
            found[tournament.pk] = rows.index(tournament.addon_at_break)
    return found


def _results(tournaments: Sequence[Tournament]) -> dict[int, dict[str, Any]]:
    """Who won what in each finished tournament: each player's place (their last entry's),
    the prize actually paid (a deal's amount when there was one) and the bounties won over
    all their entries."""
    if not tournaments:
        return {}
    ids = [t.pk for t in tournaments]
    players: dict[tuple[int, int], dict[str, Any]] = {}
    for row in (
        Entry.objects.filter(tournament_id__in=ids, state__in=(EntryState.PLAYING, EntryState.OUT))
        .order_by("tournament_id", "player_id", "number")
        .values("tournament_id", "player_id", "player__name", "place", "prize", "bounties", "state")
    ):
        key = (row["tournament_id"], row["player_id"])
        player = players.setdefault(
            key, {"name": row["player__name"], "prize": 0, "bounties": 0, "place": None}
        )
        player["prize"] += row["prize"]
        player["bounties"] += row["bounties"]
        # Entries come oldest first: the last one's place and state are the player's.
        player["place"] = row["place"]
        player["still_in"] = row["state"] == EntryState.PLAYING
    # A deal ends the tournament (``results.deal_record``): a deal not undone is its end.
    dealt = set(
        TournamentAction.objects.filter(
            tournament_id__in=ids, kind=ActionKind.DEAL, undone_at__isnull=True
        ).values_list("tournament_id", flat=True)
    )
    by_tournament: dict[int, list[dict[str, Any]]] = {}
    for (tournament_id, _player), player in players.items():
        if player["place"] is not None:
            by_tournament.setdefault(tournament_id, []).append(player)
    return {
        tournament_id: _standing(placed, deal=tournament_id in dealt)
        for tournament_id, placed in by_tournament.items()
    }


def _standing(placed: Iterable[dict[str, Any]], *, deal: bool) -> dict[str, Any]:
    ranked = sorted(placed, key=lambda p: (p["place"], name_key(p["name"])))
    places = [
        {
            "place": p["place"],
            "name": p["name"],
            "prize": p["prize"],
            "bounties": p["bounties"],
            # The players still in when the deal ended it share the money it says.
            "deal": deal and p["still_in"],
        }
        for p in ranked
    ]
    paid = sum(1 for p in places if p["prize"] > 0 or p["deal"])
    shown = places[: min(PLACES_MAX, max(PLACES_SHOWN, paid))]
    return {
        "winner": shown[0] if shown else None,
        "places": shown,
        "players": len(places),
        "deal": deal,
        "deal_players": sum(1 for p in places if p["deal"]),
        # Places players share ("tied": out on one hand with equal stacks, or at different
        # tables on one hand-for-hand hand).
        "tied_places": sorted(places_tied(SimpleNamespace(place=p["place"]) for p in places)),
    }
