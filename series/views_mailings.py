"""E-mail notices: a player's choices, the one-click unsubscribe link, and the director's
answer to a message that may not have gone out. Thin views over
``series.services.mailings``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from core.permissions import director_required, is_director
from series.forms_mailings import NoticeSettingsForm
from series.models import NoticeTopic
from series.services.mailings import (
    NoticeError,
    mailings_unconfirmed,
    notice_link_user,
    notice_resolve,
    notice_settings_of,
    notice_settings_save,
    notice_unsubscribe,
)
from series.services.players import player_for_account


@login_required
@require_http_methods(["GET", "POST"])
def notice_settings(request: HttpRequest) -> HttpResponse:
    """The e-mails a player receives, and their language."""
    user = request.user
    host = is_director(user)
    kept = notice_settings_of(user)  # type: ignore[arg-type]
    if request.method == "POST":
        form = NoticeSettingsForm(request.POST, host=host)
        if form.is_valid():
            notice_settings_save(
                user,  # type: ignore[arg-type]
                form.chosen_topics(kept),
                form.cleaned_data["language"],
                # A form sent without the field (not a browser's) leaves the address be.
                address=form.cleaned_data["address"] if "address" in request.POST else None,
            )
            messages.success(request, _("Your e-mail choices are saved."))
            return redirect("series:notice_settings")
        if "language" in form.errors:
            messages.error(request, _("Choose a language from the list."))
    else:
        initial = NoticeSettingsForm.initial_of(kept, user.email)  # type: ignore[union-attr]
        form = NoticeSettingsForm(initial=initial, host=host)
    player = player_for_account(user)  # type: ignore[arg-type]
    return render(
        request,
        "series/notice_settings.html",
        {"form": form, "has_address": bool(user.email), "player": player},  # type: ignore[union-attr]
        status=400 if form.is_bound else 200,
    )


# The link's own page needs no login (it is opened from a mail program) and the one-click
# POST comes from the mail provider with no cookie at all (RFC 8058): the signed token is
# what authorizes it, so there is no CSRF token to check.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, topic: str, token: str) -> HttpResponse:
    """GET: what the link turns off, and a button; POST: turn it off (that topic only)."""
    user = notice_link_user(topic, token)
    if user is None:
        return render(request, "series/unsubscribe.html", {"invalid": True}, status=400)
    context = {
        "topic": topic,
        "topic_label": NoticeTopic(topic).label,
        "token": token,
        "name": _display_name(user),
    }
    if request.method == "POST":
        notice_unsubscribe(topic, token)
        return render(request, "series/unsubscribe.html", {**context, "done": True})
    return render(request, "series/unsubscribe.html", context)


def _display_name(user: object) -> str:
    player = player_for_account(user)  # type: ignore[arg-type]
    return player.name if player else user.get_username()  # type: ignore[attr-defined]


@director_required
@require_http_methods(["GET", "POST"])
def notice_decide(request: HttpRequest, notice_id: int) -> HttpResponse:
    """The director sends a message again, or lets it be (GET: the message and the two
    buttons, as on the director's page; a message decided already says so)."""
    if request.method == "GET":
        notice = mailings_unconfirmed().filter(pk=notice_id).first()
        return render(request, "series/notice_decide.html", {"notices": [notice] if notice else []})
    action = request.POST.get("action", "")
    if action not in ("send_again", "let_be"):
        messages.error(request, _("Choose to send the message again or to let it be."))
        return redirect("director_dashboard")
    try:
        notice_resolve(notice_id, send_again=action == "send_again")
    except NoticeError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("The message will be sent again within a minute.")
            if action == "send_again"
            else _("The message is left as it is."),
        )
    return redirect("director_dashboard")
