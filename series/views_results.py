"""Pages of a finished event's results: the director's corrections, their history, and the
night's settle-up."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from series import request_values, selectors
from series.models import Event
from series.permissions import director_required, is_director
from series.result_forms import CorrectionFormSet, ReasonForm
from series.services.corrections import (
    CorrectionError,
    result_change_lines,
    result_rows,
    results_correct,
)
from series.services.settle import (
    SettleUpError,
    settle_up_compute,
    settle_up_imbalance,
    settle_up_lines,
    transfer_mark_paid,
)


def _event(event_id: int) -> Event:
    return get_object_or_404(Event.objects.select_related("season"), pk=event_id)


@director_required
@require_http_methods(["GET", "POST"])
def event_corrections(request: HttpRequest, event_id: int) -> HttpResponse:
    """The director's table of an event's results, every cell editable, with a reason."""
    event = _event(event_id)
    current = result_rows(event)
    initial = [
        {
            "player": row["player_id"],
            **{k: v for k, v in row.items() if k not in ("player_id", "player")},
        }
        for row in current
    ]
    formset = CorrectionFormSet(request.POST or None, initial=initial)
    reason = ReasonForm(request.POST or None)
    error = None
    if request.method == "POST" and event.finished_at is not None:
        if formset.is_valid() and reason.is_valid():
            rows = [row for form in formset for row in [form.row()] if row is not None]
            try:
                results_correct(
                    event.pk,
                    rows,
                    by=request.user,
                    reason=reason.cleaned_data["reason"],  # type: ignore[arg-type]
                )
            except CorrectionError as refused:
                error = str(refused)
            else:
                messages.success(
                    request, _("The results of %(event)s are corrected.") % {"event": event}
                )
                return redirect("series:event_history", event_id=event.pk)
    return render(
        request,
        "series/event_corrections.html",
        {
            "event": event,
            "formset": formset,
            "reason_form": reason,
            "error": error,
            "changes": _described(event)[:3],
        },
        # A POST that gets here was refused (the form or the service): say so to the client.
        status=400 if request.method == "POST" and event.finished_at is not None else 200,
    )


def _described(event: Event) -> list[tuple[object, list[object]]]:
    return [(change, result_change_lines(change)) for change in selectors.result_changes_of(event)]


def event_history(request: HttpRequest, event_id: int) -> HttpResponse:
    """Every correction of an event's results: who, when, why, and what it was before."""
    event = _event(event_id)
    return render(
        request,
        "series/event_history.html",
        {
            "event": event,
            "changes": _described(event),
            "is_event_director": is_director(request.user),
        },
    )


@require_http_methods(["GET", "POST"])
def settle_up(request: HttpRequest, event_id: int) -> HttpResponse:
    """Who pays whom after the night: for the players of the event and the directors; the
    host (a director) marks transfers paid."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    event = _event(event_id)
    director = is_director(request.user)
    if not director and request.user.pk not in selectors.event_player_user_ids(event):
        raise PermissionDenied(_("Only the players of this event may read its settle-up."))
    if request.method == "POST":
        if not director:
            raise PermissionDenied(_("Only the host (a director) marks transfers paid."))
        transfer_id = request_values.id_or_none(request.POST.get("transfer"))
        mine = selectors.transfers_of(event).filter(pk=transfer_id or 0)
        try:
            if not mine.exists():
                raise SettleUpError(
                    _(
                        "This transfer no longer exists: the results changed and the settle-up "
                        "with them."
                    )
                )
            transfer = transfer_mark_paid(
                mine.get().pk,
                by=request.user,
                paid=request.POST.get("paid") == "1",  # type: ignore[arg-type]
            )
        except SettleUpError as refused:
            messages.error(request, str(refused))
        else:
            if transfer.paid_at:
                messages.success(request, _("Marked paid: %(transfer)s.") % {"transfer": transfer})
            else:
                messages.success(
                    request, _("Marked not paid: %(transfer)s.") % {"transfer": transfer}
                )
        return redirect("series:settle_up", event_id=event.pk)
    lines = settle_up_lines(event)
    problem = settle_up_imbalance(lines)
    transfers = []
    if not problem and lines:
        # The stored results are the truth: bring the transfers up to date (nothing is
        # written when they already are), so a finish or a correction shows here at once.
        try:
            transfers = settle_up_compute(event.pk)
        except SettleUpError as refused:
            problem = str(refused)
        # A player looks for their own payments first (stable: the rest keep their order).
        transfers.sort(key=lambda t: request.user.pk not in (t.payer.user_id, t.payee.user_id))
    entries = sum(line.entries for line in lines)
    season_pot = event.season.season_pot_per_entry
    fees_total = sum(line.fees for line in lines)
    return render(
        request,
        "series/settle_up.html",
        {
            "event": event,
            "lines": lines,
            "transfers": transfers,
            "problem": problem,
            "can_mark": director,
            "fees_total": fees_total,
            "season_pot_per_entry": season_pot,
            "season_pot_total": min(fees_total, season_pot * entries) if season_pot else 0,
            "me": request.user.pk,
        },
    )
