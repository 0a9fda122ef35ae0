"""Pages of the live tables: the lobby, a table, and the hands played there.

Thin views: check who may do it, call a selector or a service, render. The table page is
painted from `live.table_snapshot` so it shows before its socket connects; from then on
static/tables/table.js renders each snapshot the socket sends.
"""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from series.permissions import is_director
from tables import live, selectors, services
from tables.fairness import commitment_of_leaves
from tables.forms import BotsForm, TableCreateForm
from tables.models import Hand, Table
from tables.replay import HandInPlay, hand_replay_steps
from tables.services.chat import CHAT_MAX_LENGTH

HANDS_PER_PAGE = 25
View = Callable[..., HttpResponse]


def table_opener_required(view: View) -> View:
    """Like `director_required`, widened to players when the site allows player tables
    (`services.may_open_table`).

    Marked ``director_only`` because it is one unless TABLES_PLAYERS_MAY_OPEN is set, so the
    director-page walk in tests/series checks it with the others.
    """

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not services.may_open_table(request.user):
            raise PermissionDenied("Only directors may open a table.")
        return view(request, *args, **kwargs)

    wrapper.director_only = True  # type: ignore[attr-defined]
    return wrapper


def _open_tables() -> list[Table]:
    tables = list(
        Table.objects.filter(closed_at__isnull=True).annotate(
            seats_taken=Count("seats", filter=Q(seats__user__isnull=False))
        )
    )
    for table in tables:
        # The engine's Config says what an empty small blind means.
        config = table.config
        low, high = (
            (config.big_blind, config.big_bet)
            if table.structure == "limit"
            else (config.small_blind, config.big_blind)
        )
        table.stakes = f"{low}/{high}"  # type: ignore[attr-defined]
    return tables


def lobby(request: HttpRequest) -> HttpResponse:
    context: dict[str, Any] = {"tables": _open_tables()}
    if request.htmx:
        return render(request, "tables/_table_list.html", context)
    if services.may_open_table(request.user):
        context["form"] = TableCreateForm()
    return render(request, "tables/lobby.html", context)


@table_opener_required
@require_http_methods(["GET", "POST"])
def table_new(request: HttpRequest) -> HttpResponse:
    form = TableCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            table = services.table_create(created_by=request.user, **form.cleaned_data)
        except services.TableError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, f"Table “{table.name}” is open. Take a seat!")
            url = reverse("tables:table", args=[table.pk])
            if request.htmx:
                response = HttpResponse(status=204)
                response["HX-Redirect"] = url
                return response
            return redirect(url)
    status = 400 if request.method == "POST" else 200
    template = "tables/_create_form.html" if request.htmx else "tables/table_new.html"
    return render(request, template, {"form": form}, status=status)


def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    context = {
        "table": table,
        "snapshot": live.table_snapshot(table, request.user),
        "bots_form": BotsForm() if is_director(request.user) else None,
        "chat_max_length": CHAT_MAX_LENGTH,
    }
    return render(request, "tables/table.html", context)


@require_POST
def table_bots(request: HttpRequest, table_id: int) -> HttpResponse:
    """A director seats house bots. POST only, so it is not in the director-page walk (that
    walk opens each page with GET); the check is the same."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("tables:table", args=[table_id]))
    if not is_director(request.user):
        raise PermissionDenied("Only directors may add bots.")
    table = get_object_or_404(Table, pk=table_id)
    form = BotsForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose how many bots (1 to 9) and a style from the list.")
    else:
        try:
            added = services.table_add_bots(
                table.pk,
                request.user,
                form.cleaned_data["count"],
                form.cleaned_data["style"] or None,
            )
        except services.TableError as error:
            messages.error(request, error.message)
        else:
            messages.success(
                request,
                ngettext("%(count)d bot sat down.", "%(count)d bots sat down.", len(added))
                % {"count": len(added)},
            )
    return redirect("tables:table", table_id=table.pk)


@login_required
def hands(request: HttpRequest) -> HttpResponse:
    page = Paginator(selectors.hands_played_by(request.user), HANDS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    template = "tables/_hand_rows.html" if request.htmx else "tables/hands.html"
    return render(request, template, {"page": page})


def hand_detail(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand = get_object_or_404(Hand.objects.select_related("table"), pk=hand_id)
    try:
        replay = hand_replay_steps(hand, request.user)
    except HandInPlay:
        replay = None  # the page says the hand is still being played
    return render(request, "tables/hand.html", {"hand": hand, "replay": replay})


def hand_phh(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand = get_object_or_404(Hand.objects.select_related("table"), pk=hand_id)
    if not hand.is_complete:
        # As for the replay: the stored records may run ahead of the board the table shows.
        return HttpResponseNotFound(
            _("Hand #%(number)s is still being played: its history is ready when it ends.")
            % {"number": hand.number},
            content_type="text/plain; charset=utf-8",
        )
    response = HttpResponse(
        selectors.hand_phh_for(hand, request.user), content_type="text/plain; charset=utf-8"
    )
    response["Content-Disposition"] = (
        f'attachment; filename="table{hand.table_id}-hand{hand.number}.phh"'
    )
    return response


def hand_verify(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand = get_object_or_404(Hand.objects.select_related("table"), pk=hand_id)
    verification = selectors.hand_verification(hand, request.user)
    if verification["complete"]:
        verification["recomputed"] = commitment_of_leaves(verification["leaves"])
    return render(request, "tables/verify.html", {"hand": hand, "verification": verification})
