"""Pages of the series' players: profiles, and the director's guests with their merge."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from core.ordinals import place_ordinal
from core.permissions import director_required, is_director
from series import ledgers, selectors
from series.models import PaymentHandle, Player
from series.money_forms import PaymentHandleForm
from series.profile_chart import Finish, results_chart
from series.result_forms import MergeForm
from series.services.players import PlayerError, player_for_account, player_merge


def _profile_page(
    request: HttpRequest, player: Player, *, own: bool, played: bool = True
) -> HttpResponse:
    profile = selectors.player_profile(player) if played else selectors.PlayerProfile(player, [])
    chart = results_chart(
        [
            Finish(
                label=str(r.event.number or index + 1),
                title=_("%(event)s: %(place)s of %(field)s")
                % {"event": r.event.name, "place": place_ordinal(r.place), "field": r.field},
                place=r.place,
                field=r.field,
                cashed=r.cashed,
            )
            for index, r in enumerate(profile.results)
        ]
    )
    return render(
        request,
        "series/player.html",
        {
            "player": player,
            "profile": profile,
            "results": list(reversed(profile.results)),
            "chart": chart,
            "own": own,
            **_money_of(request, player, own=own),
        },
    )


def _money_of(request: HttpRequest, player: Player, *, own: bool) -> dict[str, object]:
    """The player's season balances (for the player and the directors only) and, on their
    own page, the form of their payment handle."""
    if player.pk is None or not (own or is_director(request.user)):
        return {}
    handle = PaymentHandle.objects.filter(player=player).first() if own else None
    return {
        "balances": ledgers.ledger_balances(player),
        "handle_form": PaymentHandleForm(initial={"text": handle.text if handle else ""})
        if own
        else None,
    }


@login_required
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's profile: for the series' members (logged in), never for a visitor."""
    player = get_object_or_404(Player.objects.select_related("user"), pk=player_id)
    own = request.user.is_authenticated and player.user_id == request.user.pk
    return _profile_page(request, player, own=own)


@login_required
def player_me(request: HttpRequest) -> HttpResponse:
    """The header's "my profile": the account's player page, or an empty record if it
    never played (nothing is created by looking)."""
    player = player_for_account(request.user)  # type: ignore[arg-type]
    if player is not None:
        return redirect("series:player", player_id=player.pk)
    return _profile_page(
        request,
        Player(name=request.user.get_username(), user=request.user),  # type: ignore[misc]
        own=True,
        played=False,
    )


@director_required
@require_http_methods(["GET", "POST"])
def guests(request: HttpRequest) -> HttpResponse:
    """The guests (walk-ins without an account), each with a form merging it into one."""
    if request.method == "POST":
        form = MergeForm(request.POST)
        if form.is_valid():
            guest = form.cleaned_data["guest"]
            try:
                player = player_merge(guest.pk, form.cleaned_data["account"], by=request.user)  # type: ignore[arg-type]
            except PlayerError as error:
                messages.error(request, str(error))
            else:
                messages.success(
                    request,
                    _("%(guest)s's results are now %(account)s's.")
                    % {"guest": guest.name, "account": player.user or player.name},
                )
            return redirect("series:guests")
        messages.error(request, _("Choose an account to merge the guest into."))
        return redirect("series:guests")
    rows = [
        # One form per guest on one page: their own ids, the same field names.
        (guest, MergeForm(initial={"guest": guest.pk}, auto_id=f"guest{guest.pk}_%s"))
        for guest in selectors.guests_with_results()
    ]
    return render(request, "series/guests.html", {"rows": rows})
