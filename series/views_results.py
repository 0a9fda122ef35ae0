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

from core import request_values
from core.permissions import director_required, is_director
from series import ledgers, selectors
from series.access import event_refusal
from series.models import Event, NightClose
from series.money_forms import ExpenseForm
from series.result_forms import CorrectionFormSet, ReasonForm
from series.services.corrections import (
    CorrectionError,
    result_change_lines,
    result_rows,
    results_correct,
)
from series.services.expenses import expense_add, expense_remove
from series.services.settle import (
    SettleUpError,
    night_close,
    night_money,
    night_reopen,
    settle_up_imbalance,
    settle_up_night,
    transfer_mark_paid,
    transfers_problem,
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
    refusal = event_refusal(request, event)
    if refusal is not None:
        return refusal
    if not selectors.names_shown_to(event.season, request.user):
        return redirect_to_login(request.get_full_path())
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
    """Who pays whom after the night: for the players of the event (and of the debts it
    settles) and the directors. The host (a director) adds shared expenses, marks transfers
    paid, and closes the night (or reopens it). With htmx a change answers with the page's
    body only."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    event = _event(event_id)
    director = is_director(request.user)
    readers = selectors.event_player_user_ids(event) | ledgers.carried_user_ids(event)
    if not director and request.user.pk not in readers:
        raise PermissionDenied(_("Only the players of this event may read its settle-up."))
    expense_form = None
    if request.method == "POST":
        if not director:
            raise PermissionDenied(_("Only the host (a director) changes the settle-up."))
        expense_form = _settle_up_change(request, event)
        if expense_form is None and not request.htmx:
            return redirect("series:settle_up", event_id=event.pk)
    context = _settle_up_context(request, event, director=director, expense_form=expense_form)
    # A refused expense comes back with its errors: say so to the client.
    status = 400 if expense_form is not None else 200
    template = "series/_settle_up_body.html" if request.htmx else "series/settle_up.html"
    return render(request, template, context, status=status)


def _settle_up_change(request: HttpRequest, event: Event) -> ExpenseForm | None:
    """Apply the director's change; return the expense form when it was refused (to show
    its errors), else None (the outcome is a message)."""
    action = request.POST.get("action", "mark")
    try:
        if action == "expense_add":
            form = ExpenseForm(request.POST, event=event)
            if not form.is_valid():
                return form
            expense = expense_add(
                event.pk,
                payer_id=form.cleaned_data["payer"].pk,
                amount_cents=form.cleaned_data["amount_cents"],
                description=form.cleaned_data["description"],
                sharer_ids=[player.pk for player in form.cleaned_data["sharers"]],
                **form.split_parts(),
                by=request.user,  # type: ignore[arg-type]
            )
            messages.success(request, _("Expense added: %(expense)s.") % {"expense": expense})
        elif action == "expense_remove":
            expense_id = request_values.id_or_none(request.POST.get("expense"))
            expense = expense_remove(event.pk, expense_id or 0, by=request.user)  # type: ignore[arg-type]
            messages.success(
                request, _("Expense removed: %(expense)s.") % {"expense": expense.description}
            )
        elif action == "close":
            night_close(event.pk, by=request.user)  # type: ignore[arg-type]
            messages.success(
                request,
                _("The night is closed. Payments not marked paid are carried to the next night."),
            )
        elif action == "reopen":
            night_reopen(event.pk, by=request.user)  # type: ignore[arg-type]
            messages.success(request, _("The night is open again: its carried debts are back."))
        else:
            _transfer_mark(request, event)
    except SettleUpError as refused:
        messages.error(request, str(refused))
    return None


def _transfer_mark(request: HttpRequest, event: Event) -> None:
    transfer_id = request_values.id_or_none(request.POST.get("transfer"))
    mine = selectors.transfers_of(event).filter(pk=transfer_id or 0)
    if not mine.exists():
        raise SettleUpError(
            _("This transfer no longer exists: the results changed and the settle-up with them.")
        )
    transfer = transfer_mark_paid(
        mine.get().pk,
        by=request.user,  # type: ignore[arg-type]
        paid=request.POST.get("paid") == "1",
    )
    if transfer.paid_at:
        messages.success(request, _("Marked paid: %(transfer)s.") % {"transfer": transfer})
    else:
        messages.success(request, _("Marked not paid: %(transfer)s.") % {"transfer": transfer})


def _settle_up_context(
    request: HttpRequest, event: Event, *, director: bool, expense_form: ExpenseForm | None
) -> dict[str, object]:
    closed = NightClose.objects.filter(event=event).select_related("closed_by").first()
    # The stored results are the truth: bring the transfers up to date (nothing is written
    # when they already are, nor on a closed night), so a finish or a correction shows here
    # at once.
    try:
        settled = settle_up_night(event.pk)
    except SettleUpError as refused:
        problem: str | None = str(refused)
        money, transfers = night_money(event), []
    else:
        money, transfers = settled.money, settled.transfers
        # A closed night keeps its transfers even when its results were corrected since and
        # no longer balance: then it says why instead of showing them.
        problem = settle_up_imbalance(money.lines)
        if problem:
            transfers = []
    lines, balances = money.lines, money.balances
    # A player looks for their own payments first (stable: the rest keep their order).
    transfers.sort(key=lambda t: request.user.pk not in (t.payer.user_id, t.payee.user_id))
    mismatch = transfers_problem(balances, transfers) if closed and not problem else None
    # The payee's handle only on a transfer the reader pays, and still owes.
    owed_to = {t.payee_id for t in transfers if t.payer.user_id == request.user.pk}
    handles = ledgers.handles_of(owed_to) if owed_to else {}
    rows = [
        (t, handles.get(t.payee_id, "") if t.payer.user_id == request.user.pk else "")
        for t in transfers
    ]
    season_pot = event.season.season_pot_per_entry
    return {
        "event": event,
        "lines": lines,
        "balances": balances,
        "has_extras": any(b.expenses or b.carried for b in balances),
        "transfers": transfers,
        "rows": rows,
        "problem": problem,
        "mismatch": mismatch,
        "closed": closed,
        "director": director,
        "can_mark": director and closed is None,
        "expenses": money.expenses,
        "expense_form": expense_form
        if expense_form is not None
        else (ExpenseForm(event=event) if director and closed is None and lines else None),
        "carried_in": money.carried_in,
        "fees_total": sum(line.fees for line in lines),
        "season_pot_per_entry": season_pot,
        "season_pot_total": ledgers.pot_intake_of(lines, season_pot),
        "me": request.user.pk,
    }
