"""The leaderboard (with its chart and CSV) and the season's scoring settings.

Thin views: selectors read the stored standings, ``series.standings_chart`` lays out the
picture, ``series.services.standings`` previews and saves new settings.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from core.permissions import director_required, is_director
from series import selectors, standings_chart
from series.forms_scoring import ScoringForm
from series.formula import VARIABLES, FormulaError
from series.models import Season, Standing
from series.services.standings import (
    SCORING_FIELDS,
    Move,
    formula_error_text,
    season_scoring_update,
    standings_preview,
)
from series.standings_export import standings_csv

MOVES_SESSION_KEY = "series_scoring_moves"


def _movement(line: Standing) -> tuple[str, str, str]:
    """(symbol text, css class, words for a screen reader) of a rank change."""
    if line.movement is None:
        if not line.events:
            return "", "", ""
        return _("new"), "move-new", _("new since the last event")
    if line.movement > 0:
        return f"▲{line.movement}", "move-up", _("up %(n)s") % {"n": line.movement}
    if line.movement < 0:
        return f"▼{-line.movement}", "move-down", _("down %(n)s") % {"n": -line.movement}
    return "—", "move-same", _("no change")


@require_GET
def season_standings(request: HttpRequest, season_id: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=season_id)
    lines = list(selectors.standings_of(season))
    for line in lines:
        line.move_text, line.move_class, line.move_words = _movement(line)  # type: ignore[attr-defined]
    events = selectors.standings_events(season)
    top = [line for line in lines if line.events][: standings_chart.TOP_PLAYERS]
    history = selectors.standings_history(season, [line.player_id for line in top])
    chart = standings_chart.chart_build(events, top, history)
    return render(
        request,
        "series/season_standings.html",
        {
            "season": season,
            "lines": lines,
            "chart": chart,
            "last_event": events[-1] if events else None,
            "counted": len(events),
            "unqualified": any(not line.qualified for line in lines),
            "not_counted": selectors.events_not_counted(season),
            "is_director": is_director(request.user),
        },
    )


@require_GET
def season_standings_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=season_id)
    response = HttpResponse(standings_csv(season), content_type="text/csv; charset=utf-8")
    name = slugify(season.name) or f"season-{season.pk}"
    response["Content-Disposition"] = f'attachment; filename="{name}-standings.csv"'
    return response


def _changes(form: ScoringForm) -> dict[str, Any]:
    return {name: form.cleaned_data[name] for name in SCORING_FIELDS}


def _moves_for_session(moves: list[Move]) -> list[dict[str, Any]]:
    return [
        {
            "name": m.player_name,
            "before": m.rank_before,
            "after": m.rank_after,
            "change": m.change,
            "size": m.size,
            "points_before": None if m.points_before is None else f"{m.points_before:.2f}",
            "points_after": f"{m.points_after:.2f}",
        }
        for m in moves
    ]


@director_required
@require_http_methods(["GET", "POST"])
def season_scoring(request: HttpRequest, season_id: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=season_id)
    form = ScoringForm(request.POST or None, instance=Season.objects.get(pk=season.pk))
    preview = None
    current_error = None
    if request.method == "POST" and form.is_valid():
        try:
            if "save" in request.POST:
                change = season_scoring_update(season, _changes(form))
                request.session[MOVES_SESSION_KEY] = _moves_for_session(change.moves)
                return redirect("series:scoring", season_id=season.pk)
            preview = standings_preview(season, _changes(form))
        except FormulaError as error:
            field = "custom_formula" if form.cleaned_data.get("custom_formula") else None
            form.add_error(field, formula_error_text(error, season))
    elif request.method == "GET":
        try:
            preview = standings_preview(season, {})
        except FormulaError as error:
            # A result stored since the formula was saved breaks it (a freeroll's b = 0 under
            # "100 / b", say): the standings stay as they were until the director fixes it.
            current_error = formula_error_text(error, season)
    saved = request.session.pop(MOVES_SESSION_KEY, None) if request.method == "GET" else None
    return render(
        request,
        "series/season_scoring.html",
        {
            "season": season,
            "form": form,
            "preview": preview,
            "current_error": current_error,
            "saved": saved,
            "moved": [m for m in saved or [] if m["change"]],
            "variables": VARIABLES,
        },
    )
