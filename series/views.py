from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language

from core.permissions import director_required
from series import selectors
from series.forms import SignUpForm
from series.services import player_sign_up
from series.services.languages import SESSION_KEY, language_is_supported, player_language_save


def home(request: HttpRequest) -> HttpResponse:
    next_event = selectors.event_next_for(request.user)
    # Only the next event's own season: another season's events are not "later this season".
    later = selectors.events_later_this_season(next_event, request.user)
    return render(
        request,
        "series/home.html",
        {
            "next_event": next_event,
            "later_events": later,
            "season": next_event.season if next_event else selectors.season_current(request.user),
        },
    )


def login_locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """django-axes' answer to a login over the limit: say so, and for how long (429)."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(request, "registration/locked_out.html", {"cooloff_minutes": minutes}, status=429)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = player_sign_up(
            form.cleaned_data["username"],
            form.cleaned_data["password1"],
            form.cleaned_data.get("email", ""),
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request,
            _("Welcome, %(name)s! You are signed up.") % {"name": user.get_username()},
        )
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


@director_required
def director_dashboard(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "series/director_dashboard.html",
        {
            "seasons": selectors.seasons_with_events(),
            # Who is coming to the next events: counts, below the minimum, late drops.
            "rsvp_overviews": selectors.rsvp_overviews(),
        },
    )


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """The header's language switch: Django's ``set_language`` (the cookie, back to the page),
    and for a logged-in player the choice kept on their account for their next logins."""
    response = set_language(request)
    language = request.POST.get("language", "")
    if language_is_supported(language) and request.user.is_authenticated:
        player_language_save(request.user, language)
        request.session[SESSION_KEY] = language
    return response
