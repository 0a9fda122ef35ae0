"""Pages of the live tables: the lobby, a table, and the hands played there.

Thin views: check who may do it, call a selector or a service, render. The table page is
painted from `table_state.table_snapshot` so it shows before its socket connects; from then on
static/tables/table.js renders each snapshot the socket sends.
"""

import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotFound, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from core import csv_safe, request_values
from core.permissions import is_director
from tables import panels, selectors, services
from tables.engine.config import Structure
from tables.fairness import commitment_of_leaves
from tables.forms import BotsForm, ForcedBetsForm, TableCreateForm
from tables.models import Hand, SeatRequestStatus, Table
from tables.replay import HandInPlay, hand_replay_steps
from tables.runtime import state as table_state
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
            raise PermissionDenied(_("Only directors may open a table."))
        return view(request, *args, **kwargs)

    wrapper.director_only = True  # type: ignore[attr-defined]
    return wrapper


def _open_tables(user: Any = None) -> list[Table]:
    # A private table is listed only for its host (directors host every table).
    listed = Q(is_private=False)
    if user is not None and user.is_authenticated:
        listed |= Q(created_by=user.pk)
        if is_director(user):
            listed = Q()
    tables = list(
        Table.objects.filter(listed, closed_at__isnull=True).annotate(
            seats_taken=Count("seats", filter=Q(seats__user__isnull=False)),
            # Players who could be dealt a hand: a full table where fewer than two can play
            # is offered to watch, not as a game.
            players_ready=Count("seats", filter=Q(seats__user__isnull=False, seats__stack__gt=0)),
        )
    )
    for table in tables:
        # The engine's Config says what an empty small blind means.
        config = table.config
        low, high = (
            (config.big_blind, config.big_bet)
            if table.structure == Structure.LIMIT
            else (config.small_blind, config.big_blind)
        )
        table.stakes = f"{low}/{high}"  # type: ignore[attr-defined]
    return tables


def lobby(request: HttpRequest) -> HttpResponse:
    context: dict[str, Any] = {"tables": _open_tables(request.user)}
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
            messages.success(
                request, _("Table “%(name)s” is open. Take a seat!") % {"name": table.name}
            )
            url = reverse("tables:table", args=[table.pk])
            if request.htmx:
                response = HttpResponse(status=204)
                response["HX-Redirect"] = url
                return response
            return redirect(url)
    status = 400 if request.method == "POST" else 200
    template = "tables/_create_form.html" if request.htmx else "tables/table_new.html"
    return render(request, template, {"form": form}, status=status)


INVITES_SESSION_KEY = selectors.INVITES_SESSION_KEY


def _invited(request: HttpRequest, table: Table) -> bool:
    return table.pk in request.session.get(INVITES_SESSION_KEY, [])


def _may_watch(request: HttpRequest, table: Table) -> bool:
    return selectors.may_watch(table, request.user, request.session)


def _private_page(request: HttpRequest, table: Table) -> HttpResponse:
    return render(request, "tables/private.html", {"table": table}, status=403)


def table_invite(request: HttpRequest, table_id: int, token: str) -> HttpResponse:
    """A private table's invite link: whoever has it may watch and ask the host for a seat."""
    table = get_object_or_404(Table, pk=table_id, is_private=True)
    if not secrets.compare_digest(token.encode(), table.invite_token.encode()):
        raise Http404("no such invite")
    invites = [i for i in request.session.get(INVITES_SESSION_KEY, []) if i != table.pk]
    request.session[INVITES_SESSION_KEY] = [*invites[-49:], table.pk]
    return redirect("tables:table", table_id=table.pk)


def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    if not _may_watch(request, table):
        return _private_page(request, table)
    context = {
        "table": table,
        "snapshot": table_state.table_snapshot(table, request.user),
        # House bots join a tournament through its console, not at one of its tables.
        "bots_form": BotsForm() if is_director(request.user) and not table.is_tournament else None,
        "chat_max_length": CHAT_MAX_LENGTH,
        "panels_claimed": panels.claimed(table),
        "panels": panels.panels_for(table, request),
        # At a tournament's table, "Lobby" is the tournament's lobby, not the cash tables'.
        "lobby_url": panels.lobby_url_for(table) or reverse("tables:lobby"),
        "panels_refresh": panels.PANELS_REFRESH_SECONDS,
    }
    return render(request, "tables/table.html", context)


def table_panels(request: HttpRequest, table_id: int) -> HttpResponse:
    """The panels other apps add to the table's page (``tables.panels``), refreshed by htmx
    when a hand ends and now and then."""
    table = get_object_or_404(Table, pk=table_id)
    if not _may_watch(request, table):
        return _private_page(request, table)
    return render(
        request,
        "tables/_panels.html",
        {"table": table, "panels": panels.panels_for(table, request)},
    )


@require_POST
def table_bots(request: HttpRequest, table_id: int) -> HttpResponse:
    """A director seats house bots. POST only, so it is not in the director-page walk (that
    walk opens each page with GET); the check is the same."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("tables:table", args=[table_id]))
    if not is_director(request.user):
        raise PermissionDenied(_("Only directors may add bots."))
    table = get_object_or_404(Table, pk=table_id)
    form = BotsForm(request.POST)
    said, ok = _("Choose how many bots (1 to 9) and a style from the list."), False
    if form.is_valid():
        try:
            added = services.table_add_bots(
                table.pk,
                request.user,
                form.cleaned_data["count"],
                form.cleaned_data["style"] or None,
            )
        except services.TableError as error:
            said = error.message
        else:
            said, ok = (
                (
                    ngettext("%(count)d bot sat down.", "%(count)d bots sat down.", len(added))
                    % {"count": len(added)}
                ),
                True,
            )
    # From the page (htmx), a line beside the form: a reload would drop what the director
    # is doing on the table meanwhile (a "Sit" tapped as the bots' seats arrive).
    if request.htmx:
        return HttpResponse(said, status=200 if ok else 400, content_type="text/plain")
    (messages.success if ok else messages.error)(request, said)
    return redirect("tables:table", table_id=table.pk)


@login_required
def hands(request: HttpRequest) -> HttpResponse:
    page = Paginator(selectors.hands_played_by(request.user), HANDS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    template = "tables/_hand_rows.html" if request.htmx else "tables/hands.html"
    return render(request, template, {"page": page})


def _watched_hand(request: HttpRequest, hand_id: int) -> Hand | HttpResponse:
    """A hand's page or download follows its table's rule: a private table's hands are for
    whoever may watch the table (its host, its players, its invited guests), not for anyone
    who guesses a hand's number."""
    hand = get_object_or_404(Hand.objects.select_related("table"), pk=hand_id)
    if not _may_watch(request, hand.table):
        return _private_page(request, hand.table)
    return hand


def hand_detail(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand = _watched_hand(request, hand_id)
    if isinstance(hand, HttpResponse):
        return hand
    try:
        replay = hand_replay_steps(hand, request.user)
    except HandInPlay:
        replay = None  # the page says the hand is still being played
    return render(request, "tables/hand.html", {"hand": hand, "replay": replay})


def hand_phh(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand = _watched_hand(request, hand_id)
    if isinstance(hand, HttpResponse):
        return hand
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
    hand = _watched_hand(request, hand_id)
    if isinstance(hand, HttpResponse):
        return hand
    verification = selectors.hand_verification(hand, request.user)
    if verification["complete"]:
        verification["recomputed"] = commitment_of_leaves(verification["leaves"])
    return render(request, "tables/verify.html", {"hand": hand, "verification": verification})


# ----------------------------------------------------------------------------- the host


def table_me(request: HttpRequest, table_id: int) -> JsonResponse:
    """What static/tables/host.js shows this viewer: the host's bar, the ledger link, and on
    a private table the invite token (for its host and invited players only)."""
    table = get_object_or_404(Table, pk=table_id)
    if not _may_watch(request, table):
        return JsonResponse({"error": _("This table is private.")}, status=403)
    host = services.may_host(table, request.user)
    out: dict[str, Any] = {
        "host": host,
        "private": table.is_private,
        # The host's choice: the invite link seats a player at once.
        "invite_seats": table.invite_seats,
        "authenticated": request.user.is_authenticated,
        "invite": table.invite_token
        if table.is_private and (host or _invited(request, table))
        else None,
        "ledger_url": reverse("tables:table_ledger", args=[table.pk])
        if selectors.may_see_ledger(table, request.user)
        else None,
        "host_url": reverse("tables:table_host", args=[table.pk]) if host else None,
        "requests": table.seat_requests.filter(status=SeatRequestStatus.PENDING).count()
        if host
        else 0,
    }
    if request.user.is_authenticated:
        mine = table.seat_requests.filter(user=request.user).order_by("-id").first()
        out["my_request"] = None if mine is None else {"seat": mine.seat, "status": mine.status}
    return JsonResponse(out)


def _host_only(request: HttpRequest, table_id: int) -> Table | HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    table = get_object_or_404(Table, pk=table_id)
    if not services.may_host(table, request.user):
        raise PermissionDenied(_("Only the table's host or a director may open this page."))
    return table


def table_host(request: HttpRequest, table_id: int) -> HttpResponse:
    """The host's page: invite link, pause and resume, close, remove seats, seat requests."""
    table = _host_only(request, table_id)
    if isinstance(table, HttpResponse):
        return table
    invite_url = (
        request.build_absolute_uri(
            reverse("tables:table_invite", args=[table.pk, table.invite_token])
        )
        if table.is_private
        else None
    )
    context = {
        "table": table,
        "seats": table.seats.filter(user__isnull=False).select_related("user"),
        "requests": table.seat_requests.filter(status=SeatRequestStatus.PENDING).select_related(
            "user"
        ),
        "invite_url": invite_url,
        "in_hand": table.hands.filter(ended_at__isnull=True).exists(),
        "forced_bets_form": None
        if table.is_tournament
        else ForcedBetsForm(
            initial={
                "straddle": table.straddle,
                "bomb_pot_ante": table.bomb_pot_ante,
                "bomb_pot_every": table.bomb_pot_every,
                "bomb_pot_by_vote": table.bomb_pot_by_vote,
            }
        ),
    }
    return render(request, "tables/host.html", context)


@require_POST
def table_host_forced_bets(request: HttpRequest, table_id: int) -> HttpResponse:
    """The host page's straddle and bomb pot options ("save"), and the host's call of a
    bomb pot for the next hand ("bomb_pot", "bomb_pot_off")."""
    table = _host_only(request, table_id)
    if isinstance(table, HttpResponse):
        return table
    action = request.POST.get("action", "")
    try:
        if action in ("bomb_pot", "bomb_pot_off"):
            services.bomb_pot_call(table.pk, request.user, action == "bomb_pot")
            messages.success(
                request,
                _("The next hand is a bomb pot.")
                if action == "bomb_pot"
                else _("The bomb pot is called off."),
            )
        elif action == "save":
            form = ForcedBetsForm(request.POST)
            if not form.is_valid():
                raise services.TableError(
                    "malformed",
                    _("Check the straddle and bomb pot options: %(errors)s")
                    % {"errors": " ".join(e for errors in form.errors.values() for e in errors)},
                )
            services.table_forced_bets_set(table.pk, request.user, **form.cleaned_data)
            messages.success(request, _("Straddle and bomb pot options saved for the next hand."))
        else:
            raise services.TableError("malformed", _("Choose one of the host's controls."))
    except services.TableError as error:
        messages.error(request, error.message)
    return redirect("tables:table_host", table_id=table.pk)


HOST_ACTIONS = {"pause", "resume", "close", "remove", "approve", "refuse"}


@require_POST
def table_host_action(request: HttpRequest, table_id: int) -> HttpResponse:
    """One of the host's controls from the host page (the socket's frames do the same)."""
    table = _host_only(request, table_id)
    if isinstance(table, HttpResponse):
        return table
    action = request.POST.get("action", "")
    try:
        if action not in HOST_ACTIONS:
            raise services.TableError("malformed", _("Choose one of the host's controls."))
        if action == "pause":
            services.table_pause(table.pk, request.user)
            messages.success(request, _("Paused: no new hand is dealt until you resume."))
        elif action == "resume":
            services.table_resume(table.pk, request.user)
            messages.success(request, _("Resumed: the next hand is dealt in a few seconds."))
        elif action == "close":
            closed = services.table_close(table.pk, request.user)
            messages.success(
                request,
                _("The table is closed; everyone is cashed out.")
                if not closed.is_open
                else _("The table closes when the hand in play ends."),
            )
        else:
            number = _post_int(request, "seat" if action == "remove" else "request")
            if action == "remove":
                services.seat_remove(table.pk, request.user, number)
                messages.success(
                    request, _("Seat %(n)d is removed (after the hand if in one).") % {"n": number}
                )
            else:
                services.seat_request_decide(table.pk, request.user, number, action == "approve")
                messages.success(
                    request,
                    _("Request approved: the player is seated.")
                    if action == "approve"
                    else _("Request refused."),
                )
    except services.TableError as error:
        messages.error(request, error.message)
    return redirect("tables:table_host", table_id=table.pk)


def _post_int(request: HttpRequest, name: str) -> int:
    """A seat number or a seat request's id from the host's form."""
    number = request_values.id_or_none(request.POST.get(name))
    if number is None:
        raise services.TableError("malformed", _("That form was incomplete."))
    return number


# ----------------------------------------------------------------------------- the ledger


def _ledger_table(request: HttpRequest, table_id: int) -> Table | HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    table = get_object_or_404(Table, pk=table_id)
    if not selectors.may_see_ledger(table, request.user):
        raise PermissionDenied(_("Only the players of this table may see its ledger."))
    return table


def table_ledger(request: HttpRequest, table_id: int) -> HttpResponse:
    """Every buy-in, rebuy and cash-out, and each player's net: for the table's players."""
    table = _ledger_table(request, table_id)
    if isinstance(table, HttpResponse):
        return table
    return render(
        request, "tables/ledger.html", {"table": table, "ledger": selectors.table_ledger(table)}
    )


def table_ledger_csv(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _ledger_table(request, table_id)
    if isinstance(table, HttpResponse):
        return table
    ledger = selectors.table_ledger(table)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="table{table.pk}-ledger.csv"'
    writer = csv_safe.writer(response)
    writer.writerow(
        [_("Player"), _("Bought in"), _("Rebuys"), _("Cashed out"), _("Stack"), _("Net")]
    )
    for row in ledger["players"]:
        writer.writerow(
            [
                row["name"],
                row["buy_in"],
                row["rebuy"],
                row["cash_out"],
                row["stack"],
                row["net"],
            ]
        )
    writer.writerow([])
    writer.writerow([_("Time"), _("Player"), _("Seat"), _("Kind"), _("Amount")])
    for entry in ledger["entries"]:
        writer.writerow(
            [
                entry["at"].isoformat(),
                entry["name"],
                entry["seat"],
                entry["kind_label"],
                entry["amount"],
            ]
        )
    return response
