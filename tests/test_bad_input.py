"""No bad request value makes a 500, and none changes anything: every URL of the site walked.

Every URL pattern is resolved with real ids (``tests/bad_input_world.py``) and requested
with GET and POST, as a visitor, the player and the director. Each parameter a view reads
(the fields of the forms its pages show, found by rendering them, and the names views read
from ``request.GET``/``request.POST`` themselves, listed here and checked against the code)
is sent with each bad value (NUL, "²", "1e400", a number beyond bigint, one beyond integer,
"-1", "", 100 kB): alone, and in its form among the form's own values, so a bad value gets
as deep as a good one would; with and without htmx.

Two checks on every request (``tests/bad_input_walk.py`` says how):
- no 5xx: bad input is a 400, or the form again, saying why;
- the database is unchanged, unless the value is one the field may take (a walk-in named
  "²", an optional field left empty, ``seconds=-1``) or the action needs no input (the
  clock's pause); and what was written, PostgreSQL would have taken (on SQLite too).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib import admin
from django.db import connection
from django.test import Client
from django.urls import get_resolver, reverse

from core.request_values import AMOUNT_MAX
from series.models import NoticeTopic
from series.services.health import beat_tick_record, worker_heartbeat_record
from series.services.mailing_messages import unsubscribe_token
from tests.bad_input_walk import (
    FLAG,
    ID,
    IGNORED,
    OPTIONAL_ID,
    Database,
    Kind,
    Static,
    Walk,
    choice,
    number,
    text,
    url_patterns,
)
from tests.bad_input_world import World, world_build
from tournaments.services.clock.reads import clock_dealer_key

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
AMOUNT = number(1, AMOUNT_MAX, required=False)

# The names views read from request.GET / request.POST themselves (not through a form the
# page shows), by URL name and method, with a good value for the form-like base request.
# ``test_the_walk_knows_every_name_the_views_read`` checks this list against the code.
Good = Callable[[World], str] | str
STATIC: dict[tuple[str, str], dict[str, tuple[Kind, Good]]] = {
    ("series:my_ical", "GET"): {"token": (ID, lambda w: w.me.calendar_token)},
    ("series:my_calendar_link", "POST"): {"next": (IGNORED, "/series/")},
    ("series:settle_up", "POST"): {
        "action": (choice("mark", "expense_add", "expense_remove", "close", "reopen"), "mark"),
        "transfer": (ID, lambda w: str(w.finished_event.transfers.first().pk)),
        "paid": (FLAG, "1"),
        "expense": (ID, "1"),
    },
    ("series:rsvp", "POST"): {
        "answer": (choice("going", "maybe", "no"), "maybe"),
        "guests": (number(0, 3, required=False), "0"),
        "guest_names": (text("guest_names", maxlength=200), ""),
    },
    ("series:season_pot", "POST"): {
        "action": (choice("add", "remove"), "remove"),
        "payout": (ID, "1"),
    },
    ("health", "GET"): {
        "check": (choice("database", "channel_layer", "broker", "beat", "worker"), "database")
    },
    ("series:scoring", "POST"): {"save": (FLAG, "1"), "share": (FLAG, "1")},
    # The director's nights: a duplicate's source, which button saved, what comes next.
    ("series:event_new", "GET"): {"from": (OPTIONAL_ID, "")},
    ("series:event_new", "POST"): {"save": (choice("publish", "draft"), "draft")},
    # The form sent without its address field keeps the address (not a browser's form).
    ("series:notice_settings", "POST"): {
        "address": (text("address", maxlength=254), "ann@example.org"),
    },
    ("series:events_recurring", "POST"): {"save": (choice("publish", "draft"), "draft")},
    ("set_language", "POST"): {"language": (choice("en", "fr"), "fr"), "next": (IGNORED, "/")},
    ("tables:hands", "GET"): {"page": (IGNORED, "1")},
    ("tables:table_host_action", "POST"): {
        "action": (choice("pause", "resume", "close", "remove", "approve", "refuse"), "remove"),
        "seat": (ID, "1"),
        "request": (ID, "1"),
    },
    ("tournaments:console_walk_in", "POST"): {"player": (ID, lambda w: str(w.guest.pk))},
    ("tournaments:console_walk_in_suggest", "GET"): {"name": (text("name", maxlength=100), "a")},
    ("tournaments:register", "POST"): {"next": (IGNORED, "/")},
    ("tournaments:unregister", "POST"): {"next": (IGNORED, "/")},
    ("tournaments:blind_structure_new", "POST"): {
        "source": (choice("blank", "template", "generate", "copy", "last"), "copy"),
        "blind_structure": (ID, lambda w: str(w.blind_structure.pk)),
        "name": (text("name", maxlength=100), "Copy"),
    },
    ("tournaments:blind_structure_edit", "POST"): {
        "op": (choice("add-level", "add-break", "settings", "delete"), "add-level")
    },
    ("tournaments:blind_structure_edit", "GET"): {
        "preview_start": (Kind("date"), "2030-01-01T19:00"),
        "preview_players": (number(2, 1000), "20"),
        "preview_stack": (number(1, 10_000_000), "5000"),
    },
    ("tournaments:blind_structure_row", "GET"): {"edit": (IGNORED, "1")},
    ("tournaments:blind_structure_row", "POST"): {
        "op": (choice("save", "remove", "up", "down", "add-level", "add-break"), "down")
    },
    ("tournaments:clock_adjust", "POST"): {
        "seconds": (number(), "60"),
        "next": (IGNORED, "/"),
    },
    ("tournaments:seating_move", "POST"): {
        "entry": (ID, lambda w: str(w.late_entry.pk)),
        "table": (ID, "1"),
        "seat": (ID, "4"),
    },
    ("tournaments:seating_button", "POST"): {"seat": (ID, "2")},
    ("tournaments:night_ask", "POST"): {
        "kind": (choice("rebuy", "addon"), "rebuy"),
        "stack": (number(0, 10_000_000, required=False), "1500"),
    },
    ("tournaments:night_withdraw", "POST"): {"ask": (ID, "1")},
    ("tournaments:console_request_approve", "POST"): {"ask": (ID, "1")},
    ("tournaments:console_request_refuse", "POST"): {"ask": (ID, "1")},
    ("tournaments:seating_final_table", "POST"): {"seats": (number(2, 10, required=False), "7")},
    ("tournaments:results_eliminate", "POST"): {
        "out": (ID, lambda w: str(w.my_live_entry.pk)),
        "by": (OPTIONAL_ID, ""),
        "stack_": (AMOUNT, "500"),
    },
    ("tournaments:results_deal_propose", "POST"): {
        "method": (choice("icm", "chip-chop"), "icm"),
        "stack_": (AMOUNT, "5000"),
    },
    ("tournaments:results_deal_record", "POST"): {
        "method": (IGNORED, "icm"),
        "prize_": (number(0, AMOUNT_MAX, required=False), "25"),
        "stack_": (AMOUNT, "5000"),
    },
    ("tournaments:online_bots", "POST"): {"count": (number(1, 300), "2")},
    ("tournaments:online_deal_offer", "POST"): {"method": (choice("icm", "chip-chop"), "icm")},
    ("tournaments:online_deal_cancel", "POST"): {"offer": (ID, lambda w: str(w.offer.pk))},
    ("tournaments:online_player", "POST"): {
        "action": (choice("sit-out", "remove"), "sit-out"),
        "entry": (ID, lambda w: str(w.online.entries.filter(state="playing").first().pk)),
        "reason": (text("reason", required=True, maxlength=200), "Back in five minutes"),
    },
    ("tournaments:purchase_take", "POST"): {
        "kind": (choice("rebuy", "addon", "reentry"), "rebuy"),
        "entry": (ID, lambda w: str(w.online.entries.get(player=w.me).pk)),
        "seen": (IGNORED, ""),
        "table": (IGNORED, ""),
        "next": (IGNORED, "/"),
    },
    ("tournaments:deal_answer", "POST"): {
        "offer": (ID, lambda w: str(w.offer.pk)),
        "answer": (choice("accept", "decline"), "decline"),
        "table": (IGNORED, ""),
        "next": (IGNORED, "/"),
    },
}
# Names that mean the same wherever they are sent.
NAMED_KINDS = {
    # The console's one-time token (tournaments.views.once): any token of that form may be
    # a fresh one, which lets the action happen.
    "once_token": Kind("token", pattern=r"[A-Za-z0-9_-]{16,64}"),
    "next": IGNORED,
    # A formset's bounds are the server's (Django reads only the counts of forms sent).
    "form-MIN_NUM_FORMS": IGNORED,
    "form-MAX_NUM_FORMS": IGNORED,
    # The admin's buttons: which page comes after the save.
    "_save": IGNORED,
    "_continue": IGNORED,
    "_addanother": IGNORED,
    # The blind-structure editor's preview, sent along with every edit (hx-include): it
    # only decides what the answer shows.
    "preview_start": IGNORED,
    "preview_players": IGNORED,
    "preview_stack": IGNORED,
    # The console's clock panel a form came from: kept open in the answer.
    "panel": IGNORED,
}
# Names ending in "_" are prefixes: one field per player (``stack_<entry id>``).
PREFIXED = {"stack_", "prize_"}
# The printable sheets all read the paper they print on.
for _sheet in ("seats", "blind_structure", "payouts", "results"):
    STATIC[(f"tournaments:sheet_{_sheet}", "GET")] = {"paper": (choice("a4", "letter"), "letter")}
# The clock's quick changes and hand-for-hand read these themselves.
STATIC[("tournaments:clock_level_add", "POST")] = {
    "minutes": (number(1, 240, required=False), "20"),
    "ante_kind": (choice("none", "each", "big-blind"), "none"),
}
STATIC[("tournaments:clock_hand_done", "POST")] = {
    "table": (Kind("table", required=True, pattern=r"all|[0-9]+"), "all"),
}
# The clock's controls all read ``next``.
for _control in ("start", "pause", "resume", "next", "previous", "break"):
    STATIC[(f"tournaments:clock_{_control}", "POST")] = {"next": (IGNORED, "/")}
# "Break now" keeps the rest of the level for after the break, or skips it.
STATIC[("tournaments:clock_break", "POST")]["rest"] = (choice("keep", "skip"), "keep")
# The import's second step: which step was posted, and the file's text sent back with it.
STATIC[("series:import_results", "POST")] = {
    "step": (choice("map"), "map"),
    "content": (text("content"), ""),
}
# Resuming online while a deal is open: the deal is withdrawn only when the director says so.
STATIC[("tournaments:console_online_resume", "POST")] = {"withdraw_deal": (FLAG, "1")}
# A guest's new PIN: the guest's id.
STATIC[("tournaments:console_guest_pin", "POST")] = {"player": (ID, "1")}
# The TV's layout: a theme, and checkboxes (on when sent).
STATIC[("tournaments:tv_layout", "POST")] = {
    "theme": (choice("dark", "light", "contrast", "felt"), "light"),
    "show_payouts": (FLAG, "on"),
    "show_chips": (FLAG, "on"),
    "show_next_levels": (FLAG, "on"),
}


# -- the URLs, with real ids --------------------------------------------------------------


ONLINE = {
    "tournaments:console_online",
    "tournaments:online_start",
    "tournaments:online_bots",
    "tournaments:console_online_pause",
    "tournaments:console_online_resume",
    "tournaments:online_deal_offer",
    "tournaments:online_deal_cancel",
    "tournaments:online_player",
    "tournaments:lobby",
    "tournaments:lobby_public",
    "tournaments:lobby_mine",
    "tournaments:purchase_take",
    "tournaments:deal_answer",
}


def _token(name: str, world: World, table: Any) -> str:
    if name == "tables:table_invite":
        return str(table.invite_token)
    if name == "series:unsubscribe":
        assert world.me.user_id is not None
        return unsubscribe_token(world.me.user_id, NoticeTopic.REMINDERS.value)
    return str(world.live.tv_token)


def _kwargs(name: str, keys: list[str], world: World) -> dict[str, Any]:
    tournament = world.online if name in ONLINE else world.live
    table = world.private_table if name == "tables:table_invite" else world.table
    values: dict[str, Any] = {
        "season_id": world.season.pk,
        "event_id": world.next_event.pk if name == "tournaments:new" else world.finished_event.pk,
        "player_id": world.me.pk,
        "table_id": table.pk,
        "hand_id": world.hand.pk,
        "tournament_id": tournament.pk,
        "blind_structure_id": world.blind_structure.pk,
        "row_id": world.row.pk,
        "entry_id": world.late_entry.pk
        if name == "tournaments:seating_seat"
        else world.my_live_entry.pk,
        "table_number": 1,
        "key": clock_dealer_key(world.live, 1),
        "token": _token(name, world, table),
        "topic": NoticeTopic.REMINDERS.value,
        # No notice is recorded in this world: the decision page answers 404 for any id.
        "notice_id": 1,
        # No move is in this world's logs: "move it back" refuses any id.
        "action_id": 1,
    }
    return {key: values[key] for key in keys}


def site_urls(world: World) -> dict[str, str]:
    """Every named URL of the site (the admin's too) as a path with real ids."""
    urls: dict[str, str] = {}
    for name, pattern in url_patterns(get_resolver().url_patterns):
        keys = list(pattern.pattern.regex.groupindex)
        if name.startswith("admin:"):
            path = _admin_path(name, keys)
            if path:
                urls[name] = path
            continue
        urls[name] = reverse(name, kwargs=_kwargs(name, keys, world))
    return urls


def _admin_path(name: str, keys: list[str]) -> str | None:
    """The admin's pages, on a row of each model it edits (one that is not there when the
    world has none: the admin's own answer to that)."""
    if not keys:
        return reverse(name)
    if keys == ["app_label"]:
        return reverse(name, kwargs={"app_label": "tournaments"})
    for model in apps.get_models():
        prefix = f"admin:{model._meta.app_label}_{model._meta.model_name}_"
        if name.startswith(prefix) and admin.site.is_registered(model):
            # The newest row: the world's own (a blind structure of six rows, not a
            # built-in one of thirty), so a page is quick to render.
            row = model.objects.order_by("-pk").first()  # type: ignore[attr-defined]
            return reverse(name, kwargs={k: row.pk if row else 1 for k in keys})
    return None  # the admin's redirect to a page on the site, and its catch-all


# The admin's own redirect to an object's page on the site, and its catch-all.
ADMIN_NOT_WALKED = {"admin:view_on_site", "admin:None"}


def extra_pages(world: World) -> list[str]:
    """Pages whose forms the URLs' own pages do not show: the online console, the player's
    panel, the registration of an event to come, a private table's host page, a row of the
    blind structure open for editing."""
    return [
        reverse("tournaments:console", args=[world.online.pk]),
        reverse("tournaments:lobby_mine", args=[world.live.pk]),
        reverse("tournaments:detail", args=[world.online.pk]),
        reverse("tables:table_host", args=[world.private_table.pk]),
        reverse("series:event", args=[world.next_event.pk]),
        reverse("tournaments:blind_structure_row", args=[world.blind_structure.pk, world.row.pk])
        + "?edit=1",
    ]


def static_names(name: str, method: str, world: World) -> Static:
    """The names ``name``'s view reads itself, with their kinds and good values; a prefix
    (``stack_``) stands for one name per player in play."""
    found: Static = {}
    for param, (kind, good) in STATIC.get((name, method), {}).items():
        value = good(world) if callable(good) else good
        if param in PREFIXED:
            for entry in world.live.entries.filter(state="playing").order_by("pk"):
                found[f"{param}{entry.pk}"] = (kind, value)
        else:
            found[param] = (kind, value)
    return found


@pytest.fixture
def world(settings: Any) -> World:
    settings.TABLES_SCHEDULE_TASKS = False
    # A site whose beat and worker are running, for the whole walk: /health/ then answers
    # 200 to good values, and its 503 (a part is down) is not what this test looks for.
    settings.WORKER_SILENT_AFTER_SECONDS = 24 * 3600
    beat_tick_record()
    worker_heartbeat_record("walk")
    return world_build()


@pytest.fixture
def clients(world: World) -> dict[str, Client]:
    player, director = Client(), Client()
    player.force_login(world.player)
    director.force_login(world.director)
    return {"visitor": Client(), "player": player, "director": director}


# One walk per role, each on a world of its own, so the suite's workers share the walk: a
# role's requests find its own forms and change nothing, whatever another role sends.
@pytest.mark.long(120)
@pytest.mark.parametrize("role", ["visitor", "player", "director"])
def test_bad_values_make_no_500_and_change_nothing(
    world: World, clients: dict[str, Client], role: str
) -> None:
    urls = site_urls(world)
    database = Database()
    walk = Walk({role: clients[role]}, database, NAMED_KINDS)
    with connection.execute_wrapper(database):
        forms = walk.forms([*urls.values(), *extra_pages(world)])
        for name, path in urls.items():
            for method in ("GET", "POST"):
                static = static_names(name, method, world)
                own = [f for f in forms.get((role, name), []) if f.method == method]
                walk.url(role, name, method, path, static, own)
    assert walk.failures == [], f"{len(walk.failures)} of {walk.count} requests:\n" + "\n".join(
        walk.failures[:60]
    )
    # Every view was sent bad values by this role; and by the director, who is shown every
    # form, every name each view reads itself (a visitor is sent to log in first).
    named = {name for name, _pattern in url_patterns(get_resolver().url_patterns)}
    assert named - walk.walked <= ADMIN_NOT_WALKED
    if role == "director":
        for (name, _method), params in STATIC.items():
            for param in params:
                assert any(n == name and p.startswith(param) for n, p in walk.sent), (name, param)


# A view reads a name when its code says ``request.POST.get("name")`` and the like.
READ = re.compile(
    r"""request\.(?:GET|POST)\.get(?:list)?\(\s*"(\w+)"   # request.POST.get("seat")
    | "(\w+)"\s+in\s+request\.(?:GET|POST)              # "save" in request.POST
    | (?:_amounts|_post_int|_posted_id)\(\s*request(?:\.POST)?,\s*"(\w+)"  # helpers
    | else\s+"(\w+)"\)                                    # _post_int(..., "a" if x else "b")
    """,
    re.VERBOSE,
)


def test_the_walk_knows_every_name_the_views_read() -> None:
    known = {param for params in STATIC.values() for param in params} | set(NAMED_KINDS)
    views = [
        path
        for app in ("series", "tables", "tournaments")
        for path in (ROOT / app).rglob("*.py")
        if "views" in path.name or path.parent.name == "views"
    ]
    read = {
        name
        for path in views
        for found in READ.finditer(path.read_text())
        for name in found.groups()
        if name
    }
    assert read, "the pattern finds nothing: it no longer matches how views read"
    assert read <= known, f"names read by views the walk does not send: {read - known}"
