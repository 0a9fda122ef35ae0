"""The leaderboard (with its chart and CSV), its embed page, and the season's scoring
settings.

Thin views: selectors read the stored standings, ``series.standings_chart`` lays out the
picture, ``series.services.standings`` previews and saves new settings.

The embed page is the leaderboard alone, for an ``<iframe>`` on another site: only when the
director made the season's standings public (on the scoring page), and the only page of the
site a frame may show (``xframe_options_exempt``; every other answer says DENY).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_GET, require_http_methods

from core.permissions import director_required, is_director
from series import selectors, standings_chart
from series.forms_scoring import ScoringForm, StandingsShareForm
from series.formula import VARIABLES, FormulaError
from series.models import Season, SeasonVisibility, Standing
from series.services.standings import (
    SCORING_FIELDS,
    Move,
    formula_error_text,
    season_scoring_update,
    season_standings_public_set,
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


def _lines(season: Season) -> list[Standing]:
    """The leaderboard's lines, each with its rank change in words."""
    lines = list(selectors.standings_of(season))
    for line in lines:
        line.move_text, line.move_class, line.move_words = _movement(line)  # type: ignore[attr-defined]
    return lines


def _embed_code(request: HttpRequest, season: Season) -> str:
    """The ``<iframe>`` a director pastes into another site."""
    return format_html(
        '<iframe src="{}" title="{}" width="100%" height="600" loading="lazy" '
        'style="border:0"></iframe>',
        request.build_absolute_uri(reverse("series:standings_embed", args=[season.pk])),
        _("Standings · %(name)s") % {"name": season.name},
    )


@require_GET
def season_standings(request: HttpRequest, season_id: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=season_id)
    if not selectors.names_shown_to(season, request.user):
        return redirect_to_login(request.get_full_path())
    lines = _lines(season)
    director = is_director(request.user)
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
            "is_director": director,
            "embed_code": _embed_code(request, season)
            if director and season.standings_public
            else None,
        },
    )


@xframe_options_exempt
@require_GET
def season_standings_embed(request: HttpRequest, season_id: int) -> HttpResponse:
    """The leaderboard alone, for another site's ``<iframe>``: 404 unless made public."""
    season = get_object_or_404(Season, pk=season_id)
    # The host's choice to show the leaderboard elsewhere; never for a members-only season.
    if not season.standings_public or season.visibility == SeasonVisibility.MEMBERS:
        raise Http404(_("These standings are not public."))
    lines = _lines(season)
    return render(
        request,
        "series/standings_embed.html",
        {
            "season": season,
            "lines": lines,
            "counted": len(selectors.standings_events(season)),
            "standings_url": request.build_absolute_uri(
                reverse("series:standings", args=[season.pk])
            ),
        },
    )


@require_GET
def season_standings_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=season_id)
    if not selectors.names_shown_to(season, request.user):
        return redirect_to_login(request.get_full_path())
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


def _share(request: HttpRequest, season: Season) -> HttpResponse:
    """The scoring page's second form: the standings public (embeddable) or not. A checkbox
    is on when sent, so no value can be out of range; nothing is re-scored."""
    form = StandingsShareForm(request.POST, instance=season)
    form.is_valid()
    public = bool(form.cleaned_data.get("standings_public"))
    season_standings_public_set(season.pk, public)
    if public:
        messages.success(request, _("The standings are public: the code to embed them is below."))
        return redirect("series:standings", season_id=season.pk)
    messages.success(request, _("The standings are no longer shown on other sites."))
    return redirect("series:scoring", season_id=season.pk)


@director_required
@require_http_methods(["GET", "POST"])
def season_scoring(request: HttpRequest, season_id: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=season_id)
    if request.method == "POST" and "share" in request.POST:
        return _share(request, season)
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
            "share_form": StandingsShareForm(instance=season),
            "saved": saved,
            "moved": [m for m in saved or [] if m["change"]],
            "variables": VARIABLES,
        },
    )
