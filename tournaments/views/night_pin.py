"""The guest's way into their night page: pick your name, type the PIN from your seat card.

Guests (players with no account) cannot log in, so the director prints a PIN on each
guest's seat card (``tournaments.services.guest_pins``). This page lists the tournament's
guests by name only (no account, no e-mail), checks the PIN with the throttled service, and
on success remembers the proof in the session (``tournaments.night_access``) and sends the
guest to the night page. A visitor who is logged in, or has proved a PIN already, goes
straight there.
"""

from __future__ import annotations

from typing import Any

from axes.helpers import get_client_ip_address
from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from tournaments import selectors
from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.night_access import night_pin_remember, night_player
from tournaments.services.guest_pins import PIN_DIGITS, guest_pin_check


class GuestPinForm(forms.Form):
    player = forms.ModelChoiceField(
        label=gettext_lazy("Your name"),
        queryset=None,
        empty_label=gettext_lazy("Pick your name"),
        error_messages={"invalid_choice": gettext_lazy("Pick your name from the list.")},
    )
    pin = forms.CharField(
        label=gettext_lazy("PIN"),
        max_length=20,
        help_text=gettext_lazy("The digits printed on your seat card."),
        widget=forms.TextInput(
            attrs={
                "inputmode": "numeric",
                "autocomplete": "one-time-code",
                "size": PIN_DIGITS,
                "class": "night-pin-digits",
            }
        ),
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        player = self.fields["player"]
        assert isinstance(player, forms.ModelChoiceField)
        player.queryset = selectors.guest_entrants(tournament)
        player.label_from_instance = lambda guest: guest.name


def _night_url(tournament: Tournament) -> str:
    return reverse("tournaments:night", args=[tournament.pk])


@require_http_methods(["GET", "POST"])
def night_pin(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("event"), pk=tournament_id)
    if request.user.is_authenticated or night_player(request.user, request.session, tournament.pk):
        return redirect(_night_url(tournament))
    if request.method == "POST":
        form = GuestPinForm(request.POST, tournament=tournament)
        if form.is_valid():
            try:
                proof = guest_pin_check(
                    tournament.pk,
                    form.cleaned_data["player"].pk,
                    form.cleaned_data["pin"],
                    get_client_ip_address(request) or "",
                )
            except TournamentError as error:
                form.add_error(error.field if error.field in form.fields else None, error.message)
                # A refused PIN is typed again from the card, not corrected digit by digit.
                form.data = {**form.data.dict(), "pin": ""}
            else:
                # A new session key for the new right, so a key planted before cannot ride it.
                request.session.cycle_key()
                night_pin_remember(
                    request.session, tournament.pk, proof.player.pk, proof.expires_at
                )
                return redirect(_night_url(tournament))
    else:
        form = GuestPinForm(initial={"player": request.GET.get("player")}, tournament=tournament)
    context = {
        "tournament": tournament,
        "event": tournament.event,
        "form": form,
        "has_guests": selectors.guest_entrants(tournament).exists(),
        "login_url": f"{reverse('login')}?{urlencode({'next': _night_url(tournament)})}",
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "tournaments/night_pin.html", context, status=status)


urlpatterns: list[URLPattern] = [
    path("<int:tournament_id>/night/pin/", night_pin, name="night_pin"),
]
