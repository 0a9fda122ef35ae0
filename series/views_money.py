"""Pages of money across nights: a player's ledger of a season, the season pot, and the
player's payment handle."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from core import request_values
from core.permissions import is_director
from series import ledgers
from series.models import Player, Season
from series.money_forms import PaymentHandleForm, PayoutForm
from series.services.handles import HandleError, payment_handle_set
from series.services.pot import PotError, season_pot_payout_add, season_pot_payout_remove


@login_required
def player_ledger(request: HttpRequest, season_id: int, player_id: int) -> HttpResponse:
    """A player's money across the season: for the player and the directors. The payees'
    payment handles show only to the player, on the debts they owe."""
    season = get_object_or_404(Season, pk=season_id)
    player = get_object_or_404(Player.objects.select_related("user"), pk=player_id)
    own = player.user_id is not None and player.user_id == request.user.pk
    if not own and not is_director(request.user):
        raise PermissionDenied(_("Only the player and the directors may read a player's ledger."))
    ledger = ledgers.player_ledger(player, season, with_handles=own)
    return render(
        request, "series/player_ledger.html", {"ledger": ledger, "own": own, "season": season}
    )


@login_required
@require_http_methods(["GET", "POST"])
def season_pot(request: HttpRequest, season_id: int) -> HttpResponse:
    """The season pot, event by event: for every account to read; the directors enter and
    take back payouts."""
    season = get_object_or_404(Season, pk=season_id)
    director = is_director(request.user)
    form = PayoutForm(season=season) if director else None
    status = 200
    if request.method == "POST":
        if not director:
            raise PermissionDenied(_("Only a director pays out of the season pot."))
        if request.POST.get("action") == "remove":
            payout_id = request_values.id_or_none(request.POST.get("payout"))
            try:
                season_pot_payout_remove(season.pk, payout_id or 0, by=request.user)  # type: ignore[arg-type]
            except PotError as refused:
                messages.error(request, str(refused))
            else:
                messages.success(request, _("The payout is taken back."))
            return redirect("series:season_pot", season_id=season.pk)
        form = PayoutForm(request.POST, season=season)
        if form.is_valid():
            data = form.cleaned_data
            try:
                season_pot_payout_add(
                    season.pk,
                    player_id=data["player"].pk,
                    amount=data["amount"],
                    reason=data["reason"],
                    event_id=data["event"].pk if data["event"] else None,
                    by=request.user,  # type: ignore[arg-type]
                )
            except PotError as refused:
                form.add_error(None, str(refused))
            else:
                messages.success(request, _("The payout is entered."))
                return redirect("series:season_pot", season_id=season.pk)
        status = 400
    lines = ledgers.season_pot_ledger(season)
    return render(
        request,
        "series/season_pot.html",
        {
            "season": season,
            "lines": lines,
            "balance": lines[-1].balance if lines else 0,
            "form": form,
            "director": director,
        },
        status=status,
    )


@login_required
@require_POST
def payment_handle(request: HttpRequest) -> HttpResponse:
    """The player sets (or removes) how to pay them, from their own page."""
    form = PaymentHandleForm(request.POST)
    if form.is_valid():
        try:
            handle = payment_handle_set(request.user, form.cleaned_data["text"])  # type: ignore[arg-type]
        except HandleError as refused:
            messages.error(request, str(refused))
        else:
            messages.success(
                request,
                _("Your payment handle is saved.")
                if handle
                else _("Your payment handle is removed."),
            )
    else:
        messages.error(request, " ".join(str(e) for e in form.errors.get("text", [])))
    return redirect("series:player_me")
