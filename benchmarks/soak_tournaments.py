"""Soak of whole online tournaments: people and house bots, through the real servers.

    python benchmarks/soak_tournaments.py                        # 6 tournaments, both modes
    python benchmarks/soak_tournaments.py --tournaments 2 --modes embedded
    python benchmarks/soak_tournaments.py --busy 2 --seed 7 --tournament-timeout 600
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/0 \\
        python benchmarks/soak_tournaments.py --modes distributed

For each mode it starts its own servers on 127.0.0.1 with a fresh database (as
``benchmarks/tables_load.py`` does, through ``tests/tables/servers.py``), DEBUG off as
deployed:
- embedded: ``manage.py serve`` (daphne, the in-memory channel layer, the Celery worker and
  beat in the process) on a new SQLite file;
- distributed: two web processes (``manage.py serve``, a daphne each), one Celery worker
  (threads) and one beat on a new PostgreSQL database beside DATABASE_URL's (dropped at the
  end) and a private ``redis-server`` on a free port (``--shared-redis``: REDIS_URL's server
  instead, database ``--redis-db``, flushed first). Private, because channels-redis's
  pub/sub channels belong to the Redis server whatever the database number: another site or
  test run on the same server with tables of the same ids talks to this run's sockets, and a
  socket that heard another table's higher version ignores its own table's next ones (a
  spectator here stayed at version 5 for four minutes, with 48 snapshots of another run's
  tables).

Then it plays ``--tournaments`` online tournaments to the end, ``--parallel`` at a time,
only over HTTP and WebSockets, as people would:
- the director logs in on the login page, adds the season and each event in the admin,
  generates a blind structure of one-minute levels (``/tournaments/blind-structures/new/``) and
  raises each level's blinds in the editor (times 1.5 a level, from 50/100 for stacks of
  1000), sets the tournament up (online, rebuys, an add-on at the first break) on its
  settings page, fills seats with house bots and starts it from the console (each console
  form posted with its one-time token, read from the rendered page); it watches the console
  and the lobby, and once the lobby says two or three players are left it offers a deal on
  the players' screens (every other tournament, ICM or chip-chop, a minute to answer);
- three or four people per tournament sign up on the sign-up page (a second tab logs in on
  the login page), register on the tournament's page, and play over the table socket
  (the frames of ``static/tables/*.js``: a move carries the hand id and the version its
  player saw) with think times; some let their turn clock run out and sit in again, close
  the socket mid-hand and come back, open a second tab; they take rebuys and the add-on
  from the lobby's panel, answer deals (some decline, some let them lapse), follow a move to
  another table, and watch the lobby and its public fragment now and then; the first person
  of each tournament plays all in until they bust during the rebuy period, then takes the
  rebuy their panel offers (their seat kept meanwhile) and plays on to the end;
- a spectator socket watches every table of every tournament.

The games and betting structures rotate: tournament k plays ``GAMES[k % 2]`` with
``STRUCTURES[k % 3]``, so six tournaments play every pair once.

Reported per mode: tournaments started and finished (and how: a winner or a deal), the
time from the start to the end, HTTP requests and 5xx answers, socket handshakes made and
refused, error frames, Celery task failures and retries and "database is locked" lines in
the servers' logs, tracebacks, how late each table dealt past its ``next_hand_at`` and how
late each turn clock acted past the hand's ``deadline`` (from the spectators' snapshots, in
the server's own ``now``), and the chips. The chips are checked three ways:
- at every hand's start and end at any table, the stacks, bets, chips being added and pots
  of the latest snapshot of every table of the tournament add up to the chips in play
  (entries x starting stack + rebuys x rebuy chips + add-ons x add-on chips, counted as the
  people take them; the house bots' rebuys, taken by the server when a bot busts, are the
  tournament's rebuys on its TV clock less the people's); snapshots of different tables arrive at different moments (a player
  moved between two tables is in both for a few milliseconds), so a sum that is off must
  come right within ``SETTLE_SECONDS`` or it is a failure;
- within a hand, the dealt seats' stacks and bets and the pots never change;
- after the run, from the database: every hand ends with the chips it started with, the
  chips in play are what the soak counted, and the winner holds them all (or the deal
  shared them all out).

Goals (the exit status is 1 when one fails): every tournament finished; a person who busted
during a rebuy period rebought and played on; no HTTP 5xx; no
socket handshake refused; no Celery task failed; no table waited more than
``LATE_GOAL_SECONDS`` past a deadline; the chips exact. Every run is bounded
(``--tournament-timeout`` per tournament) and talks to 127.0.0.1 only.

The suite's short version (tests/tournaments/test_soak_short.py) imports ``soak_mode``.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

BASE_DIR = Path(__file__).resolve().parents[1]
if str(BASE_DIR) not in sys.path:
    sys.path.insert(0, str(BASE_DIR))

PYTHON = sys.executable
HOST = "127.0.0.1"
GAMES = ("omaha", "omaha-hi-lo")
STRUCTURES = ("limit", "pot-limit", "no-limit")
# A chip sum that is off at a hand's start must come right within this long (snapshots of
# two tables arrive apart; a rebuy's chips may show before its page answers).
SETTLE_SECONDS = 15.0
# The goal: no table deals, or acts for a player whose clock ran out, later than this.
LATE_GOAL_SECONDS = 10.0
HTTP_TIMEOUT = 60.0
PASSWORD = "soak-" + secrets.token_urlsafe(12)


# --------------------------------------------------------------------------- the database
# These run in a subprocess with the servers' environment (``--child``): the soak itself
# never imports Django, so the suite's own Django setup and database stay out of it.


def child_director(username: str, password: str) -> dict[str, Any]:
    """The director's account: made once, as ``load_demo`` makes the demo's."""
    import django

    django.setup()
    from django.contrib.auth.models import User

    from series.services import director_grant

    user = User.objects.create_user(username, password=password)
    director_grant(user)
    return {"director": user.pk}


def child_check(ids: list[int]) -> dict[str, Any]:
    """What the database says of each tournament: its end, its money and its chips."""
    import django

    django.setup()
    from django.db.models import Count, Sum

    from tables.models import Hand, HandPlayer
    from tournaments.models import DealOffer, DealState, Entry, EntryState, Tournament

    out: dict[str, Any] = {}
    for tournament in Tournament.objects.filter(pk__in=ids).select_related("event"):
        entries = Entry.objects.filter(
            tournament=tournament, state__in=(EntryState.PLAYING, EntryState.OUT)
        )
        count = entries.count()
        rebuys = entries.aggregate(total=Sum("rebuys"))["total"] or 0
        addons = entries.filter(addon=True).count()
        chips = (
            count * tournament.event.starting_stack
            + rebuys * tournament.rebuy_chips
            + addons * tournament.addon_chips
        )
        hands = Hand.objects.filter(table__tournament_table__tournament=tournament)
        ended = hands.filter(ended_at__isnull=False)
        sums = (
            HandPlayer.objects.filter(hand__in=ended)
            .values("hand")
            .annotate(before=Sum("stack_before"), after=Sum("stack_after"), n=Count("pk"))
        )
        unbalanced = [
            {"hand": s["hand"], "before": s["before"], "after": s["after"]}
            for s in sums
            if s["before"] != s["after"]
        ]
        last = ended.order_by("-ended_at", "-pk").first()
        at_the_end = (
            HandPlayer.objects.filter(hand=last).aggregate(total=Sum("stack_after"))["total"]
            if last is not None
            else None
        )
        deal = DealOffer.objects.filter(tournament=tournament, state=DealState.ACCEPTED).first()
        offers = list(
            DealOffer.objects.filter(tournament=tournament).values_list(
                "method", "state", "settled_reason"
            )
        )
        out[str(tournament.pk)] = {
            "state": tournament.state,
            "started_at": tournament.started_at.timestamp() if tournament.started_at else None,
            "finished_at": tournament.finished_at.timestamp() if tournament.finished_at else None,
            "entries": count,
            "rebuys": rebuys,
            "addons": addons,
            "chips_in_play": chips,
            "hands": hands.count(),
            "hands_in_play": hands.filter(ended_at__isnull=True).count(),
            "hands_unbalanced": unbalanced[:10],
            "hands_unbalanced_count": len(unbalanced),
            "chips_at_the_end": at_the_end,
            "deal_chips": sum(int(v) for v in deal.stacks.values()) if deal is not None else None,
            "offers": [list(o) for o in offers],
            "places": entries.filter(place__isnull=False).count(),
            "playing": entries.filter(state=EntryState.PLAYING).count(),
            "tables": [] if tournament.state == "finished" else _tables_left(tournament),
        }
    return out


def _tables_left(tournament: Any) -> list[dict[str, Any]]:
    """Where an unfinished tournament's open tables stood when the servers stopped: what a
    stall waits on (a held table, a deal never scheduled, chips never added to a seat)."""
    from tables.models import Seat
    from tournaments.models import TournamentTable

    out = []
    for tt in TournamentTable.objects.filter(
        tournament=tournament, broken_at__isnull=True, live_table__isnull=False
    ).select_related("live_table"):
        table = tt.live_table
        seats = Seat.objects.filter(table=table, user__isnull=False).order_by("number")
        out.append(
            {
                "table": tt.number,
                "hand_seen": tt.hand_seen,
                "hand_count": table.hand_count,
                "held": table.held,
                "next_hand_at": table.next_hand_at.isoformat() if table.next_hand_at else None,
                "hand_in_play": table.hands.filter(ended_at__isnull=True).exists(),
                "seats": [[s.number, s.state, s.stack, s.adding] for s in seats],
            }
        )
    return out


def run_child(env: dict[str, str], *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [PYTHON, __file__, "--child", *args],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode:
        raise RuntimeError(f"soak helper {args[0]} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- what we count


@dataclass
class Counts:
    """What one mode's run counted, across its tournaments."""

    requests: int = 0
    http_5xx: list[str] = field(default_factory=list)
    http_errors: list[str] = field(default_factory=list)
    handshakes: int = 0
    refused: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    error_frames: Counter[str] = field(default_factory=Counter)
    foreign: int = 0
    # (seconds late, where) for deals past next_hand_at and turns acted on past the deadline.
    deal_late: list[tuple[float, str]] = field(default_factory=list)
    turn_late: list[tuple[float, str]] = field(default_factory=list)
    chip_checks: int = 0
    chip_failures: list[str] = field(default_factory=list)
    hand_checks: int = 0
    http_ms: list[float] = field(default_factory=list)


# --------------------------------------------------------------------------- HTTP and forms


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: str

    @property
    def location(self) -> str:
        return self.headers.get("location", "")


MESSAGE = re.compile(r'<li class="message message-(\w+)">(.*?)</li>', re.S)


def messages_in(html: str) -> list[tuple[str, str]]:
    """The page's messages as (level, text): ("success", "Rebuy taken: …")."""
    return [(level, re.sub(r"\s+", " ", text).strip()) for level, text in MESSAGE.findall(html)]


class Browser:
    """One person's browser: a cookie jar, plain HTTP/1.1 to one port of the site.

    Its own jar rather than ``http.cookiejar``: the site marks its cookies Secure (DEBUG
    off), which a standard jar would not send back over plain HTTP on the loopback.
    """

    def __init__(self, port: int, counts: Counts, who: str) -> None:
        self.port = port
        self.counts = counts
        self.who = who
        self.cookies: dict[str, str] = {}

    @property
    def origin(self) -> str:
        return f"http://{HOST}:{self.port}"

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def _request(
        self, method: str, path: str, body: bytes | None, htmx: bool
    ) -> Response:  # runs in a thread
        headers = {"Origin": self.origin, "Referer": self.origin + path}
        if self.cookies:
            headers["Cookie"] = self.cookie_header()
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if htmx:
            headers["HX-Request"] = "true"
        started = time.monotonic()
        connection = http.client.HTTPConnection(HOST, self.port, timeout=HTTP_TIMEOUT)
        try:
            connection.request(method, path, body=body, headers=headers)
            answer = connection.getresponse()
            text = answer.read().decode("utf-8", "replace")
            for raw in answer.headers.get_all("Set-Cookie") or []:
                name, _, rest = raw.partition("=")
                value = rest.split(";", 1)[0]
                if "max-age=0" in raw.lower() or value in ('""', ""):
                    self.cookies.pop(name.strip(), None)
                else:
                    self.cookies[name.strip()] = value
            response = Response(answer.status, {k.lower(): v for k, v in answer.getheaders()}, text)
        except (OSError, http.client.HTTPException) as error:
            self.counts.http_errors.append(f"{self.who}: {method} {path}: {error!r}")
            return Response(0, {}, "")
        finally:
            connection.close()
        self.counts.requests += 1
        self.counts.http_ms.append((time.monotonic() - started) * 1000)
        if response.status >= 500:
            snippet = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text))[:300]
            self.counts.http_5xx.append(
                f"{self.who}: {method} {path} -> {response.status}: {snippet}"
            )
        return response

    async def get(self, path: str, *, htmx: bool = False) -> Response:
        return await asyncio.get_running_loop().run_in_executor(
            None, self._request, "GET", path, None, htmx
        )

    async def post(self, path: str, data: list[tuple[str, str]], *, htmx: bool = False) -> Response:
        body = urlencode(data).encode()
        return await asyncio.get_running_loop().run_in_executor(
            None, self._request, "POST", path, body, htmx
        )

    async def submit(
        self,
        page: str,
        page_path: str,
        *,
        action: str | None = None,
        having: str | None = None,
        valued: tuple[str, str] | None = None,
        values: dict[str, Any] | None = None,
        htmx: bool = False,
    ) -> Response:
        """Fill in the page's form (the one whose action ends with ``action``, or which has
        a field named ``having``) as a browser would, with ``values`` over its defaults,
        and post it."""
        form = find_form(page, page_path, action=action, having=having, valued=valued)
        if form is None:
            raise LookupError(f"{self.who}: no form ({action or having}) on {page_path}")
        return await self.post(form.action, form.data(values or {}), htmx=htmx)

    async def follow(self, response: Response) -> Response:
        """Where a redirect leads (the page that shows the action's message)."""
        if response.status in (301, 302, 303) and response.location.startswith("/"):
            return await self.get(response.location)
        return response


@dataclass
class Form:
    action: str
    method: str
    # [name, value, kind, checked]: kind "text", "checkbox", "radio", "submit", "select"...
    fields: list[list[Any]] = field(default_factory=list)

    def names(self) -> set[str]:
        return {f[0] for f in self.fields}

    def value(self, name: str) -> str | None:
        return next((f[1] for f in self.fields if f[0] == name), None)

    def data(self, values: dict[str, Any]) -> list[tuple[str, str]]:
        """The pairs a browser posts: each field's own value (checked boxes only, no
        buttons) unless ``values`` names it (False or None: left out; True: a box checked)."""
        out: list[tuple[str, str]] = []
        done: set[str] = set()
        for name, value, kind, checked in self.fields:
            if name in values:
                if name in done:
                    continue
                done.add(name)
                wanted = values[name]
                if wanted is None or wanted is False:
                    continue
                if wanted is True:
                    out.append((name, value if kind == "checkbox" else "on"))
                else:
                    out.append((name, str(wanted)))
                continue
            if kind == "submit":
                continue
            if kind in ("checkbox", "radio") and not checked:
                continue
            out.append((name, value))
        for name, wanted in values.items():
            if name not in done and name not in self.names() and wanted not in (None, False):
                out.append((name, "on" if wanted is True else str(wanted)))
        return out


class _FormParser(HTMLParser):
    def __init__(self, page_path: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page_path = page_path
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.select: list[Any] | None = None
        self.options: list[tuple[str, bool]] = []
        self.option: list[Any] | None = None
        self.textarea: list[Any] | None = None
        self.multiple = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            action = (a.get("action") or self.page_path).split("#", 1)[0]
            self.form = Form(action, (a.get("method") or "get").lower())
            self.forms.append(self.form)
            return
        if self.form is None:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text").lower()
            if kind in ("submit", "button", "image", "reset"):
                kind = "submit"
            default = "on" if kind in ("checkbox", "radio") else ""
            self.form.fields.append([name, a.get("value", default), kind, "checked" in a])
        elif tag == "button" and name:
            self.form.fields.append([name, a.get("value", ""), "submit", False])
        elif tag == "select" and name:
            self.select = [name, "", "select", True]
            self.options = []
            self.multiple = "multiple" in a
        elif tag == "option" and self.select is not None:
            self.option = [a.get("value"), "selected" in a, ""]
        elif tag == "textarea" and name:
            self.textarea = [name, "", "textarea", True]

    def handle_data(self, data: str) -> None:
        if self.option is not None:
            self.option[2] += data
        if self.textarea is not None:
            self.textarea[1] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "option" and self.option is not None:
            value = self.option[0] if self.option[0] is not None else self.option[2].strip()
            self.options.append((value, self.option[1]))
            self.option = None
        elif tag == "select" and self.select is not None and self.form is not None:
            chosen = [v for v, selected in self.options if selected]
            if not chosen and self.options and not self.multiple:
                chosen = [self.options[0][0]]
            for value in chosen:
                self.form.fields.append([self.select[0], value, "select", True])
            if not chosen:
                # Nothing to post, but the name is the form's (values may set it).
                self.form.fields.append([self.select[0], "", "submit", False])
            self.select = None
        elif tag == "textarea" and self.textarea is not None and self.form is not None:
            value = self.textarea[1]
            self.textarea[1] = value[1:] if value.startswith("\n") else value
            self.form.fields.append(self.textarea)
            self.textarea = None
        elif tag == "form":
            self.form = None


def forms_in(html: str, page_path: str) -> list[Form]:
    parser = _FormParser(page_path)
    parser.feed(html)
    return parser.forms


def find_form(
    html: str,
    page_path: str,
    *,
    action: str | None = None,
    having: str | None = None,
    valued: tuple[str, str] | None = None,
) -> Form | None:
    """The page's first form posting to an address ending with ``action``, with a field
    named ``having``, with the field ``valued[0]`` set to ``valued[1]``."""
    for form in forms_in(html, page_path):
        if form.method != "post":
            continue
        if action is not None and not form.action.endswith(action):
            continue
        if having is not None and having not in form.names():
            continue
        if valued is not None and form.value(valued[0]) != valued[1]:
            continue
        return form
    return None


def errors_in(html: str) -> list[str]:
    """A refused form's errors, as the page lists them."""
    found = re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', html, re.S)
    found += re.findall(r'<p class="errornote">(.*?)</p>', html, re.S)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", e)).strip() for e in found]


def ids_in(pattern: str, text: str) -> list[int]:
    return [int(x) for x in re.findall(pattern, text)]


# --------------------------------------------------------------------------- sockets


async def socket_open(
    port: int, path: str, counts: Counts, who: str, cookie: str = ""
) -> Any | None:
    """A WebSocket to the site, or None when the handshake was refused (counted)."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidHandshake

    headers = {"Cookie": cookie} if cookie else None
    counts.handshakes += 1
    try:
        return await connect(
            f"ws://{HOST}:{port}{path}",
            origin=f"http://{HOST}:{port}",  # type: ignore[arg-type]
            additional_headers=headers,
            open_timeout=30,
            max_size=2**22,
        )
    except (InvalidHandshake, OSError, TimeoutError) as error:
        counts.refused.append(f"{who}: {path}: {error!r}")
        return None


def close_code(ws: Any) -> int | None:
    try:
        return ws.close_code  # type: ignore[no-any-return]
    except AttributeError:
        return None


ABNORMAL_CLOSE = {1006, 1011, 4003, 4004, 4008, 4009}


async def frames(ws: Any, counts: Counts, who: str, stop: asyncio.Event) -> Any:
    """The socket's frames as dicts until ``stop`` or the socket closes (an abnormal close
    by the server counted)."""
    from websockets.exceptions import ConnectionClosed

    while not stop.is_set():
        try:
            raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
        except TimeoutError:
            continue
        except ConnectionClosed:
            code = close_code(ws)
            if code in ABNORMAL_CLOSE:
                counts.dropped.append(f"{who}: closed by the server with {code}")
            return
        yield json.loads(raw)


# --------------------------------------------------------------------------- a table's chips


def table_chips(
    snapshot: dict[str, Any], dealt_seats: frozenset[int] | None
) -> tuple[int, int | None, frozenset[int]]:
    """From one snapshot: the table's chips (stacks, bets, chips being added, and the pots of
    a hand in play); the chips of the hand in play (the stacks and bets of ``dealt_seats``,
    or of the seats dealt in as this snapshot shows them, plus the pots; None between
    hands); and the seats dealt in (holding cards or folded: a player seated during the
    hand, moved from another table, waits for the next)."""
    hand = snapshot.get("hand")
    in_play = hand is not None and not hand["complete"]
    total = 0
    chips_at: dict[int, int] = {}
    dealt: set[int] = set()
    for seat in snapshot["seats"]:
        if not seat.get("player"):
            continue
        chips = int(seat.get("stack", 0)) + int(seat.get("bet", 0))
        total += chips + int(seat.get("adding", 0))
        chips_at[seat["seat"]] = chips
        if in_play and (seat.get("card_count") or seat.get("folded")):
            dealt.add(seat["seat"])
    if not in_play:
        return total, None, frozenset()
    pots = sum(int(p["amount"]) for p in hand["pots"])  # type: ignore[index]
    seats = dealt_seats if dealt_seats is not None else frozenset(dealt)
    return total + pots, pots + sum(chips_at.get(n, 0) for n in seats), seats


@dataclass
class TableView:
    """The latest snapshot of one table, as its spectator saw it."""

    table_id: int
    version: int = 0
    now: float = 0.0  # the server's clock, ms
    closed: bool = False
    hand_id: int | None = None
    hand_number: int | None = None
    complete: bool = True
    total: int = 0
    # The hand in play: the dealt seats' chips and pots at its start.
    dealt_at_start: int | None = None
    dealt_seats: frozenset[int] | None = None
    # When the next hand is due (ms), between hands; the turn in play (to_act, deadline ms).
    deal_due: float | None = None
    turn: tuple[int, int, float] | None = None


# --------------------------------------------------------------------------- the plan


@dataclass(frozen=True)
class Plan:
    """One tournament: its game, betting structure and field."""

    index: int
    game: str
    structure: str
    humans: int
    bots: int
    seats_per_table: int
    starting_stack: int
    growth: float  # each level's blinds are the last one's times this
    deal: str | None  # offer a deal ("icm" or "chip-chop") once 2-3 players are left
    time_outs: int  # people who let their clock run out (first at their first turn)
    seed: int
    time_outs_each: int = 2  # each of them, 1 to this many times
    deal_silence: float = 0.2  # the chance a person leaves a deal unanswered (it lapses)
    break_every: int = 3  # levels between one-minute breaks (0: none, and no add-on)
    think: float = 3.0  # a person thinks up to this many seconds before a move
    first_small_blind: int = 50

    @property
    def label(self) -> str:
        return f"t{self.index} {self.game} {self.structure}"


def plans_make(
    count: int,
    seed: int,
    *,
    humans: tuple[int, int] = (3, 4),
    players: tuple[int, int] = (9, 12),
    seats_per_table: int = 6,
    starting_stack: int = 1000,
    growth: float = 1.5,
    deals: bool = True,
    time_outs: int | None = None,
) -> list[Plan]:
    """``count`` tournaments, the games and betting structures rotating."""
    rng = random.Random(seed)
    plans = []
    for k in range(count):
        people = rng.randint(*humans)
        field_size = max(people + 1, rng.randint(*players))
        plans.append(
            Plan(
                index=k,
                game=GAMES[k % len(GAMES)],
                structure=STRUCTURES[k % len(STRUCTURES)],
                humans=people,
                bots=field_size - people,
                seats_per_table=seats_per_table,
                starting_stack=starting_stack,
                growth=growth,
                deal=(("icm", "chip-chop")[(k // 2) % 2] if deals and k % 2 == 1 else None),
                time_outs=time_outs if time_outs is not None else rng.randint(1, 2),
                seed=rng.randrange(2**31),
            )
        )
    return plans


# --------------------------------------------------------------------------- one tournament


@dataclass
class Outcome:
    """How one tournament went, as the soak saw it."""

    label: str
    tournament: int | None = None
    started: bool = False
    finished: bool = False
    seconds: float | None = None
    hands_started: int = 0
    entries: int = 0
    rebuys: int = 0
    # The house bots' rebuys (the tournament's count less the people's, from the TV clock).
    bot_rebuys: int = 0
    # People who busted during the rebuy period and rebought with their seat kept; and those
    # the panel put out instead.
    bust_rebuys: int = 0
    busts_put_out: list[str] = field(default_factory=list)
    addons: int = 0
    deal_offered: str | None = None
    deal_answers: list[str] = field(default_factory=list)
    time_outs: int = 0
    reconnects: int = 0
    second_tabs: int = 0
    moves_followed: int = 0
    problems: list[str] = field(default_factory=list)


class Tournament:
    """One tournament's run: the director, the people, a spectator per table, the checks."""

    def __init__(self, plan: Plan, site: Site, counts: Counts, director: Browser) -> None:
        self.plan = plan
        self.site = site
        self.counts = counts
        self.director = director
        self.rng = random.Random(plan.seed)
        self.outcome = Outcome(plan.label)
        self.id = 0
        self.event_name = f"Soak {site.run} {plan.label}"
        self.views: dict[int, TableView] = {}
        self.watching: dict[int, asyncio.Task[None]] = {}
        self.finished = asyncio.Event()
        self.stop = asyncio.Event()
        self.started_at = 0.0
        self.rebuy_chips = plan.starting_stack
        self.addon_chips = plan.starting_stack
        # A chip sum found off, waiting to come right: (since (monotonic), what was seen).
        self.off_since: tuple[float, str] | None = None
        self.off_seen = 0
        self.humans: list[Human] = []
        self.tv_json: str | None = None

    # -- the chips in play, as the soak counted them
    @property
    def chips_in_play(self) -> int:
        o = self.outcome
        return (
            o.entries * self.plan.starting_stack
            + (o.rebuys + o.bot_rebuys) * self.rebuy_chips
            + o.addons * self.addon_chips
        )

    def log(self, text: str) -> None:
        if self.site.verbose:
            print(
                f"[{self.site.mode} {self.plan.label} {time.strftime('%H:%M:%S')}] {text}",
                flush=True,
            )

    # -- setting up, as the director and the people do it on the site's pages
    async def set_up(self, season_id: int) -> None:
        d = self.director
        plan = self.plan
        today = time.strftime("%Y-%m-%d")
        page = await d.get("/admin/series/event/add/")
        done = await d.submit(
            page.body,
            "/admin/series/event/add/",
            having="starts_at_0",
            values={
                "season": season_id,
                "name": self.event_name,
                "starts_at_0": today,
                "starts_at_1": time.strftime("%H:%M:%S", time.gmtime()),
                "game": plan.game,
                "structure": plan.structure,
                "buy_in": 20,
                "fee": 0,
                "starting_stack": plan.starting_stack,
                "_continue": "1",
            },
        )
        event = ids_in(r"/admin/series/event/(\d+)/change/", done.location)
        if not event:
            raise RuntimeError(
                f"{plan.label}: the event was not added: {done.status} {errors_in(done.body)}"
            )
        page = await d.get("/tournaments/blind-structures/new/")
        done = await d.submit(
            page.body,
            "/tournaments/blind-structures/new/",
            having="gen-name",
            values={
                "gen-name": f"{self.event_name} levels",
                "gen-betting": "limit" if plan.structure == "limit" else "pot-limit",
                "gen-starting_stack": plan.starting_stack,
                "gen-players": plan.humans + plan.bots,
                "gen-hours": "0.5",
                "gen-chip_set": "25, 100, 500, 1000",
                "gen-level_minutes": 1,
                "gen-break_every": plan.break_every,
                "gen-break_minutes": 1,
                "gen-ante_kind": "none",
            },
        )
        blind_structure = ids_in(r"/tournaments/blind-structures/(\d+)/", done.location)
        if not blind_structure:
            raise RuntimeError(
                f"{plan.label}: no blind structure: {done.status} {errors_in(done.body)}"
            )
        # Faster: each level's blinds raised in the editor, row by row (the generator's
        # own rise is gentle, and made for evenings, not minutes).
        page = await d.get(f"/tournaments/blind-structures/{blind_structure[0]}/")
        rows = re.findall(r'<li id="row-(\d+)" class="srow( srow-break)?', page.body)
        levels = [int(row) for row, is_break in rows if not is_break]
        small = float(plan.first_small_blind)
        for row in levels:
            # Round figures, as the chips of later levels are bigger (colour-ups).
            unit = 25 if small < 500 else 100 if small < 5000 else 1000
            blind = int(round(small / unit) * unit)
            path = f"/tournaments/blind-structures/{blind_structure[0]}/rows/{row}/"
            page = await d.get(path + "?edit=1")
            fields = {"small_blind": blind, "big_blind": 2 * blind}
            if plan.structure == "limit":
                fields.update(small_bet=2 * blind, big_bet=4 * blind)
            done = await d.submit(page.body, path, having="small_blind", values=fields)
            if done.status != 302:
                raise RuntimeError(
                    f"{plan.label}: row {row} not saved: {done.status} {errors_in(done.body)}"
                )
            small *= plan.growth
        # Rebuys until the first break, and the add-on at it.
        first_break = next((n for n, (_, is_break) in enumerate(rows) if is_break), None)
        path = f"/tournaments/event/{event[0]}/new/"
        page = await d.get(path)
        done = await d.submit(
            page.body,
            path,
            having="blind_structure",
            values={
                "game": plan.game,
                "structure": plan.structure,
                "online": True,
                "blind_structure": blind_structure[0],
                "buy_in": 20,
                "fee": 0,
                "starting_stack": plan.starting_stack,
                "seats_per_table": plan.seats_per_table,
                "rebuys_allowed": 2,
                "rebuy_until_level": first_break or 2,
                "rebuy_chips": self.rebuy_chips,
                "rebuy_price": 20,
                "addon_after_level": first_break,
                "addon_chips": self.addon_chips,
                "addon_price": 20,
                "reentries_allowed": 0,
                "hand_for_hand_minutes": 1,
            },
        )
        made = ids_in(r"^/tournaments/(\d+)/$", done.location)
        if not made:
            raise RuntimeError(f"{plan.label}: no tournament: {done.status} {errors_in(done.body)}")
        self.id = made[0]
        self.outcome.tournament = self.id
        for k in range(plan.humans):
            human = Human(self, k)
            self.humans.append(human)
            await human.sign_up()
        await self.console_post("/console/online/bots/", {"count": plan.bots}, success="house bot")
        self.outcome.entries = plan.bots + sum(1 for h in self.humans if h.registered)
        self.log(f"set up: tournament {self.id}, {self.outcome.entries} entries")

    async def console_post(
        self, action: str, values: dict[str, Any], *, success: str | None = None
    ) -> list[tuple[str, str]]:
        """Post one of the console's forms as the director's browser would: the console
        rendered (each form has its one-time token), the form filled in, its answer read."""
        path = f"/tournaments/{self.id}/console/"
        page = await self.director.get(path)
        done = await self.director.submit(page.body, path, action=action, values=values)
        shown = await self.director.follow(done)
        said = messages_in(shown.body)
        if success is not None and not any(success in text for _, text in said):
            self.outcome.problems.append(f"console {action}: {said or done.status}")
        return said

    # -- playing
    async def play(self, timeout: float) -> Outcome:
        tasks: list[asyncio.Task[Any]] = []
        try:
            said = await self.console_post("/console/online/start/", {}, success="started")
            if not any(level == "success" and "started" in text for level, text in said):
                raise RuntimeError(f"{self.plan.label}: the start was refused: {said}")
            self.started_at = time.monotonic()
            self.outcome.started = True
            self.log("started")
            tasks.append(asyncio.create_task(self.director_loop()))
            tasks += [asyncio.create_task(h.run()) for h in self.humans]
            try:
                await asyncio.wait_for(self.finished.wait(), timeout)
            except TimeoutError:
                self.outcome.problems.append(f"not finished within {timeout:.0f} s")
        finally:
            self.finish_checks()
            self.stop.set()
            for task in [*tasks, *self.watching.values()]:
                task.cancel()
            await asyncio.gather(*tasks, *self.watching.values(), return_exceptions=True)
        return self.outcome

    def trouble(self, who: str, error: Exception) -> None:
        """Something the soak did not expect of the site (a form missing from a page, a
        frame it cannot read): noted, and the run goes on."""
        self.outcome.problems.append(f"{who}: {type(error).__name__}: {error}")

    async def director_loop(self) -> None:
        """The director's screen: the live tables (a spectator on each), the lobby, the
        deal once two or three are left, the end."""
        rounds = 0
        while not self.stop.is_set():
            try:
                await self.bot_rebuys_read()
                if await self.director_looks(rounds):
                    await asyncio.sleep(2)  # the last snapshots
                    self.finished.set()
                    return
            except Exception as error:  # noqa: BLE001 - reported with the tournament
                self.trouble("director", error)
            rounds += 1
            await asyncio.sleep(1.5)

    async def bot_rebuys_read(self) -> None:
        """The house bots' rebuys: the tournament's rebuys on its TV clock (the link on the
        console) less the ones the people took."""
        if self.tv_json is None:
            page = await self.director.get(f"/tournaments/{self.id}/console/")
            found = re.findall(r'href="[^"]*/tournaments/tv/([\w-]+)/"', page.body)
            if not found:
                return
            self.tv_json = f"/tournaments/tv/{found[0]}.json"
        answer = await self.director.get(self.tv_json)
        if answer.status != 200:
            return
        rebuys = int(json.loads(answer.body)["field"]["rebuys"])
        self.outcome.bot_rebuys = max(0, rebuys - self.outcome.rebuys)

    async def director_looks(self, rounds: int) -> bool:
        """One look at the console and the lobby; True once the tournament is over."""
        section = await self.director.get(f"/tournaments/{self.id}/console/online/", htmx=True)
        for table_id in set(ids_in(r'href="/tables/(\d+)/"', section.body)):
            if table_id not in self.watching:
                self.watching[table_id] = asyncio.create_task(self.watch(table_id))
        if rounds % 3 == 0:
            page = await self.director.get(f"/tournaments/{self.id}/lobby/")
            if "state-finished" in page.body:
                self.outcome.finished = True
                self.outcome.seconds = time.monotonic() - self.started_at
                self.log(f"finished after {self.outcome.seconds:.0f} s")
                return True
        deal = self.plan.deal if not self.outcome.deal_offered else None
        if deal is None and rounds % 3 != 1:
            return False
        public = await self.director.get(f"/tournaments/{self.id}/lobby/public/", htmx=True)
        found = ids_in(r"(\d+) players? left", public.body)
        left = found[0] if found else 0
        if deal is not None and 2 <= left <= 3:
            said = await self.console_post(
                "/console/online/deal/", {"method": deal, "answer_minutes": 1}
            )
            if any(level == "success" and "Deal offered" in text for level, text in said):
                self.outcome.deal_offered = deal
                self.log(f"deal offered ({deal}) with {left} left")
            else:
                self.log(f"deal not offered: {said}")
        return False

    # -- a spectator at each table: the deadlines and the chips
    async def watch(self, table_id: int) -> None:
        view = self.views.setdefault(table_id, TableView(table_id))
        port = self.site.ports[table_id % len(self.site.ports)]
        who = f"{self.plan.label} spectator of table {table_id}"
        while not self.stop.is_set() and not view.closed:
            ws = await socket_open(port, f"/ws/tables/{table_id}/", self.counts, who)
            if ws is None:
                await asyncio.sleep(2)
                continue
            try:
                async for frame in frames(ws, self.counts, who, self.stop):
                    if frame.get("type") == "snapshot":
                        try:
                            self.seen(view, frame)
                        except Exception as error:  # noqa: BLE001 - reported, watching on
                            self.trouble(who, error)
                        if view.closed:
                            break
                    elif frame.get("type") == "error":
                        self.counts.error_frames[frame.get("code", "?")] += 1
            finally:
                await ws.close()

    def seen(self, view: TableView, snapshot: dict[str, Any]) -> None:
        table = snapshot["table"]
        if not table["name"].startswith(self.event_name):
            self.counts.foreign += 1  # another run's table of the same id on this Redis
            return
        if snapshot["version"] <= view.version:
            return
        now = float(snapshot["now"])
        where = f"{self.plan.label} table {view.table_id}"
        hand = snapshot.get("hand")
        hand_id = hand["id"] if hand else None
        in_play = hand is not None and not hand["complete"]
        new_hand = in_play and hand_id != view.hand_id
        total, dealt, dealt_seats = table_chips(snapshot, None if new_hand else view.dealt_seats)
        ended = hand is not None and hand["complete"] and not view.complete
        # The turn clock: the turn in play ended (a move, a time-out, the hand's end) past
        # its deadline.
        turn = None
        if in_play and hand["to_act"] is not None and hand["deadline"]:  # type: ignore[index]
            turn = (hand_id, int(hand["to_act"]), float(hand["deadline"]))  # type: ignore[index]
        if view.turn is not None and turn != view.turn and now > view.turn[2]:
            late = (now - view.turn[2]) / 1000
            self.counts.turn_late.append(
                (late, f"{where} hand {view.hand_number} seat {view.turn[1]}")
            )
        view.turn = turn
        # The deal: due at next_hand_at between hands.
        if new_hand:
            if view.deal_due is not None:
                late = max(0.0, now - view.deal_due) / 1000
                self.counts.deal_late.append((late, f"{where} hand {hand['number']}"))  # type: ignore[index]
            view.deal_due = None
        elif not in_play:
            due = table["next_hand_at"]
            if due != view.deal_due:
                if view.deal_due is not None and now > view.deal_due:
                    # Due, not dealt, and now held or put off: it waited this long.
                    self.counts.deal_late.append(
                        ((now - view.deal_due) / 1000, f"{where} after hand {view.hand_number}")
                    )
                view.deal_due = float(due) if due is not None else None
        # The chips of the hand in play never change, whoever moves.
        if new_hand:
            view.dealt_at_start = dealt
            view.dealt_seats = dealt_seats
        elif in_play and dealt != view.dealt_at_start and view.dealt_at_start is not None:
            self.counts.chip_failures.append(
                f"{where} hand {hand['number']} (version {snapshot['version']}): the dealt "  # type: ignore[index]
                f"seats and pots hold {dealt}, {view.dealt_at_start} at the hand's start"
            )
            view.dealt_at_start = dealt
        elif in_play:
            self.counts.hand_checks += 1
        view.version = snapshot["version"]
        view.now = now
        view.closed = bool(table["closed"])
        view.hand_id = hand_id
        view.hand_number = hand["number"] if hand else None
        view.complete = not in_play
        view.total = total
        if new_hand:
            self.outcome.hands_started += 1
            self.log(
                f"table {view.table_id} hand {view.hand_number}: {len(dealt_seats)} dealt in, "
                f"blinds {table['small_blind']}/{table['big_blind']}, held {table['held']}"
            )
        if new_hand or ended:
            self.chips_check(f"{where}, hand {view.hand_number} {'start' if new_hand else 'end'}")
        elif self.off_since is not None:
            self.chips_check(None)

    def chips_check(self, moment: str | None) -> None:
        """The tables' chips against the chips in play (``moment``: a hand's start or end;
        None: a later snapshot while an earlier sum is waiting to come right)."""
        if self.finished.is_set() or self.outcome.entries == 0:
            return
        total = sum(v.total for v in self.views.values() if not v.closed)
        expected = self.chips_in_play
        if moment is not None:
            self.counts.chip_checks += 1
        if total == expected:
            self.off_since = None
            self.off_seen = 0
            return
        self.off_seen += 1
        if self.off_since is None:
            tables = ", ".join(
                f"{v.table_id}: {v.total} (v{v.version})"
                for v in self.views.values()
                if not v.closed
            )
            self.off_since = (
                time.monotonic(),
                f"{self.plan.label} at {moment}: the tables hold {total} chips, "
                f"{expected} in play [{tables}]",
            )
        elif time.monotonic() - self.off_since[0] > SETTLE_SECONDS and self.off_seen >= 3:
            # Off at every snapshot for that long (not two passing moments apart).
            self.counts.chip_failures.append(
                f"{self.off_since[1]}; still {total} after {SETTLE_SECONDS:.0f} s"
            )
            self.off_since = None
            self.off_seen = 0

    def finish_checks(self) -> None:
        """At the end: deadlines still open count as late till now; a sum still off is
        reported if the tournament did not finish (a finish closes the tables)."""
        now = time.time() * 1000
        for view in self.views.values():
            if view.closed or self.outcome.finished:
                continue
            where = f"{self.plan.label} table {view.table_id}"
            if view.deal_due is not None and now > view.deal_due:
                self.counts.deal_late.append(
                    ((now - view.deal_due) / 1000, f"{where}: still not dealt at the end")
                )
            if view.turn is not None and now > view.turn[2]:
                self.counts.turn_late.append(
                    ((now - view.turn[2]) / 1000, f"{where}: a turn still open at the end")
                )
        if self.off_since is not None and not self.outcome.finished:
            self.counts.chip_failures.append(self.off_since[1] + " (still off at the end)")


# --------------------------------------------------------------------------- the people


def all_in_move(legal: dict[str, Any]) -> dict[str, Any]:
    """The buster's choice: the most they may bet or raise, else a call, never a fold."""
    span = legal.get("raise") or legal.get("bet")
    if span:
        return {"action": "raise" if legal.get("raise") else "bet", "amount": span["max"]}
    if legal.get("call") is not None:
        return {"action": "call"}
    return {"action": "check"}


def human_move(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A loose player's choice: calls a lot, raises and moves in now and then."""
    roll = rng.random()
    span = legal.get("raise") or legal.get("bet")
    kind = "raise" if legal.get("raise") else "bet"
    if span and roll < 0.06:
        return {"action": kind, "amount": span["max"]}
    if span and roll < 0.25:
        return {"action": kind, "amount": span["min"]}
    if legal.get("check"):
        return {"action": "check"}
    if roll > 0.85 and legal.get("fold"):
        return {"action": "fold"}
    if legal.get("call") is not None:
        return {"action": "call"}
    return {"action": "fold"}


class Human:
    """One person: an account, a browser, the table's socket (sometimes two tabs)."""

    def __init__(self, tournament: Tournament, index: int) -> None:
        self.t = tournament
        self.index = index
        plan = tournament.plan
        self.rng = random.Random(plan.seed * 31 + index)
        self.name = f"soak{tournament.site.run}t{plan.index}p{index}"
        site = tournament.site
        self.port = site.ports[index % len(site.ports)]
        self.browser = Browser(self.port, tournament.counts, self.name)
        # The second tab: another session of the same account, logged in on the login page.
        self.tab = Browser(site.ports[(index + 1) % len(site.ports)], tournament.counts, self.name)
        self.registered = False
        self.time_outs = self.rng.randint(1, plan.time_outs_each) if index < plan.time_outs else 0
        self.turns = 0
        self.rebuys_wanted = self.rng.choice((0, 1, 1, 2))
        # The first person plays all in until they bust in the rebuy period, then rebuys.
        self.buster = index == 0
        self.busted_at: float | None = None
        self.addon_wanted = self.rng.random() < 0.8
        self.answered: set[str] = set()
        self.out = False
        self.next_table: int | None = None
        self.latest: dict[str, Any] | None = None
        self.version = 0
        self.sockets: list[Any] = []
        self.pending: asyncio.Task[None] | None = None
        self.sitting_in = False
        self.seatless_since: float | None = None
        # Tasks started from a frame (a sit-in a few seconds later), kept till done.
        self.chores: set[asyncio.Task[None]] = set()

    @property
    def counts(self) -> Counts:
        return self.t.counts

    async def sign_up(self) -> None:
        page = await self.browser.get("/accounts/signup/")
        done = await self.browser.submit(
            page.body,
            "/accounts/signup/",
            having="password1",
            values={"username": self.name, "password1": PASSWORD, "password2": PASSWORD},
        )
        if done.status != 302:
            self.t.outcome.problems.append(f"{self.name}: sign-up answered {done.status}")
            return
        page = await self.tab.get("/accounts/login/")
        done = await self.tab.submit(
            page.body,
            "/accounts/login/",
            having="password",
            values={"username": self.name, "password": PASSWORD},
        )
        if done.status != 302:
            self.t.outcome.problems.append(f"{self.name}: log-in answered {done.status}")
        path = f"/tournaments/{self.t.id}/"
        page = await self.browser.get(path)
        done = await self.browser.submit(page.body, path, action="/register/")
        shown = await self.browser.follow(done)
        if any(
            "registered" in text for level, text in messages_in(shown.body) if level == "success"
        ):
            self.registered = True
        else:
            self.t.outcome.problems.append(
                f"{self.name}: registration said {messages_in(shown.body)}"
            )

    async def run(self) -> None:
        panel = asyncio.create_task(self.panel_loop())
        try:
            while not self.t.stop.is_set() and not self.out:
                table_id = self.next_table or await self.my_table()
                self.next_table = None
                if table_id is None:
                    await asyncio.sleep(2)
                    continue
                try:
                    await self.play_at(table_id)
                except Exception as error:  # noqa: BLE001 - reported with the tournament
                    self.t.trouble(self.name, error)
                    await asyncio.sleep(2)
            # Out (or the end): the lobby stays open in the other tab till the end.
            await self.t.stop.wait()
        finally:
            panel.cancel()
            await asyncio.gather(panel, return_exceptions=True)

    async def my_table(self) -> int | None:
        """Where the lobby's panel says this player sits ("Go to my table"), if anywhere;
        marks the player out when it says so."""
        answer = await self.browser.get(f"/tournaments/{self.t.id}/lobby/mine/", htmx=True)
        found = ids_in(r'href="/tables/(\d+)/"', answer.body)
        if found:
            return found[0]
        if "you are out</span>" in answer.body or "you finished in place" in answer.body:
            self.out = True
        return None

    async def play_at(self, table_id: int) -> None:
        """Play at one table until moved, out, the end, or a break to reconnect."""
        who = f"{self.name} at table {table_id}"
        path = f"/ws/tables/{table_id}/"
        ws = await socket_open(self.port, path, self.counts, who, self.browser.cookie_header())
        if ws is None:
            await asyncio.sleep(2)
            return
        self.sockets = [ws]
        self.latest = None
        self.version = 0
        self.seatless_since = None
        stop = asyncio.Event()
        tab_task: asyncio.Task[None] | None = None
        reader = self.read(ws, who, stop)
        try:
            while not self.t.stop.is_set():
                try:
                    await asyncio.wait_for(asyncio.shield(reader), timeout=1.0)
                except TimeoutError:
                    pass
                if reader.done() or self.next_table is not None or self.out:
                    return
                if self.seatless_since is not None and time.monotonic() - self.seatless_since > 3:
                    return  # no seat here and no "moved" frame: ask the lobby
                # Now and then: close the socket mid-hand and come back in a few seconds.
                if self.in_hand() and self.rng.random() < 0.01:
                    self.t.outcome.reconnects += 1
                    await self.close_all()
                    await asyncio.sleep(self.rng.uniform(2, 6))
                    return
                # Now and then: a second tab of the same table (the other session).
                if (tab_task is None or tab_task.done()) and self.rng.random() < 0.01:
                    self.t.outcome.second_tabs += 1
                    tab_task = asyncio.create_task(self.second_tab(table_id, stop))
        finally:
            stop.set()
            await self.close_all()
            if tab_task is not None:
                await asyncio.gather(tab_task, return_exceptions=True)
            if not reader.done():
                reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)

    def read(self, ws: Any, who: str, stop: asyncio.Event) -> asyncio.Task[None]:
        async def loop() -> None:
            async for frame in frames(ws, self.counts, who, stop):
                self.on_frame(frame)
                if self.next_table is not None or self.out:
                    return

        return asyncio.create_task(loop())

    async def second_tab(self, table_id: int, stop: asyncio.Event) -> None:
        who = f"{self.name} (second tab) at table {table_id}"
        ws = await socket_open(
            self.tab.port, f"/ws/tables/{table_id}/", self.counts, who, self.tab.cookie_header()
        )
        if ws is None:
            return
        self.sockets.append(ws)
        tab_stop = asyncio.Event()
        until = time.monotonic() + self.rng.uniform(5, 20)

        async def close_later() -> None:
            while time.monotonic() < until and not stop.is_set():
                await asyncio.sleep(0.5)
            tab_stop.set()

        closer = asyncio.create_task(close_later())
        try:
            async for frame in frames(ws, self.counts, who, tab_stop):
                self.on_frame(frame)
        finally:
            closer.cancel()
            if ws in self.sockets:
                self.sockets.remove(ws)
            await ws.close()

    async def close_all(self) -> None:
        for ws in list(self.sockets):
            await ws.close()
        self.sockets = []

    def in_hand(self) -> bool:
        s = self.latest
        if s is None or s.get("hand") is None or s["hand"]["complete"]:
            return False
        mine = s["you"]["seat"]
        return any(seat["seat"] == mine and seat.get("card_count") for seat in s["seats"])

    def on_frame(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind == "moved":
            self.next_table = int(frame["table"])
            self.t.outcome.moves_followed += 1
            return
        if kind == "error":
            self.counts.error_frames[frame.get("code", "?")] += 1
            return
        if kind != "snapshot" or frame["version"] <= self.version:
            return
        if not frame["table"]["name"].startswith(self.t.event_name):
            return
        self.version = frame["version"]
        self.latest = frame
        me = frame["you"]["seat"]
        if frame["table"]["closed"] or me is None:
            # The table closed, or this player has no seat here (out, or moved while the
            # page was away): the lobby says where to go.
            if self.seatless_since is None:
                self.seatless_since = time.monotonic()
            return
        self.seatless_since = None
        seat = next((s for s in frame["seats"] if s["seat"] == me), None) if me else None
        if seat is not None and seat.get("state") == "sitting_out" and not self.sitting_in:
            # Back from a time-out (or a reconnect): the table's "Sit in" button.
            self.sitting_in = True
            chore = asyncio.create_task(self.sit_in())
            self.chores.add(chore)
            chore.add_done_callback(self.chores.discard)
        legal = frame["you"]["legal"]
        if legal is not None and (self.pending is None or self.pending.done()):
            self.turns += 1
            if self.time_outs > 0 and (self.turns == 1 or self.rng.random() < 0.1):
                # Let the clock run out: do nothing until the table acts for us.
                self.time_outs -= 1
                self.t.outcome.time_outs += 1
                self.pending = asyncio.create_task(self.wait_out(legal))
            else:
                self.pending = asyncio.create_task(self.act(legal))

    def legal_now(self) -> dict[str, Any] | None:
        return None if self.latest is None else self.latest["you"]["legal"]  # type: ignore[no-any-return]

    async def wait_out(self, legal: dict[str, Any]) -> None:
        """Do nothing while the turn lasts: the table's clock acts for this player."""
        while (now := self.legal_now()) is not None and now["hand"] == legal["hand"]:
            await asyncio.sleep(0.5)

    async def sit_in(self) -> None:
        try:
            await asyncio.sleep(self.rng.uniform(2, 5))
            await self.send({"type": "sit_in", "wait_for_big_blind": False})
        finally:
            self.sitting_in = False

    async def act(self, legal: dict[str, Any]) -> None:
        """Think, then move with the hand and version on screen now. The version moves on
        while it is this player's turn too (a socket of the table opens or closes), and a
        move sent with the old one is refused as stale: then move again with the new one."""
        await asyncio.sleep(self.rng.uniform(0.3, max(0.3, self.t.plan.think)))
        for _ in range(10):
            current = self.legal_now()
            if current is None or current["hand"] != legal["hand"]:
                return
            frame = {"type": "act", "hand": current["hand"], "version": current["version"]}
            frame.update(all_in_move(current) if self.buster else human_move(current, self.rng))
            await self.send(frame)
            for _ in range(50):
                await asyncio.sleep(0.1)
                now = self.legal_now()
                if now is None or now["hand"] != current["hand"]:
                    return
                if now["version"] != current["version"]:
                    break  # refused as stale, or this player's turn again: look again

    async def send(self, frame: dict[str, Any]) -> None:
        from websockets.exceptions import ConnectionClosed

        if not self.sockets:
            return
        ws = self.rng.choice(self.sockets)
        try:
            await ws.send(json.dumps(frame))
        except ConnectionClosed:
            pass

    async def panel_loop(self) -> None:
        """The lobby in another tab: the player's panel (rebuys, the add-on, the deal), and
        now and then the lobby page and its public part."""
        lobby = f"/tournaments/{self.t.id}/lobby/"
        while not self.t.stop.is_set():
            await asyncio.sleep(self.rng.uniform(2, 5))
            try:
                answer = await self.browser.get(lobby + "mine/", htmx=True)
                if self.buster and "No chips left" in answer.body and self.busted_at is None:
                    self.busted_at = time.monotonic()
                    self.t.log(f"{self.name} busted; the panel offers the rebuy")
                # The panel's title says it (its rebuy note says "or you are out" too).
                out = "you are out</span>" in answer.body
                if self.buster and self.busted_at is not None and out:
                    self.t.outcome.busts_put_out.append(self.name)
                    self.buster = False
                for form in forms_in(answer.body, lobby):
                    if form.action.endswith("/take/"):
                        await self.take(form, lobby)
                    elif form.action.endswith("/deal/answer/"):
                        await self.answer_deal(form, lobby)
                if self.rng.random() < 0.2:
                    await self.browser.get(lobby)
                if self.rng.random() < 0.2:
                    await self.browser.get(lobby + "public/", htmx=True)
            except Exception as error:  # noqa: BLE001 - reported with the tournament
                self.t.trouble(f"{self.name}'s lobby", error)

    async def take(self, form: Form, lobby: str) -> None:
        kind = form.value("kind")
        if kind == "rebuy" and self.buster and self.busted_at is not None:
            done = await self.browser.post(form.action, form.data({}), htmx=True)
            if "Rebuy taken" in done.body:
                self.t.outcome.rebuys += 1
                self.t.outcome.bust_rebuys += 1
                self.t.log(
                    f"{self.name} rebought {time.monotonic() - self.busted_at:.0f} s after busting"
                )
                # Rebought: plays on as the others do.
                self.buster = False
            else:
                self.t.log(f"{self.name}: rebuy after the bust refused: {messages_in(done.body)}")
        elif (
            kind == "rebuy"
            and not self.buster
            and self.rebuys_wanted > 0
            and self.rng.random() < 0.5
        ):
            done = await self.browser.post(form.action, form.data({}), htmx=True)
            if "Rebuy taken" in done.body:
                self.rebuys_wanted -= 1
                self.t.outcome.rebuys += 1
                self.t.log(f"{self.name} took a rebuy")
            else:
                self.t.log(f"{self.name}: rebuy refused: {messages_in(done.body)}")
        elif kind == "addon" and self.addon_wanted:
            done = await self.browser.post(form.action, form.data({}), htmx=True)
            if "Add-on taken" in done.body:
                self.addon_wanted = False
                self.t.outcome.addons += 1
                self.t.log(f"{self.name} took the add-on")
            else:
                self.t.log(f"{self.name}: add-on refused: {messages_in(done.body)}")

    async def answer_deal(self, form: Form, lobby: str) -> None:
        offer = form.value("offer") or ""
        if offer in self.answered:
            return
        self.answered.add(offer)
        if self.rng.random() < self.t.plan.deal_silence:
            self.t.outcome.deal_answers.append(f"{self.name}: no answer")
            self.t.log(f"{self.name} leaves the deal unanswered")
            return  # lets it lapse
        answer = "decline" if self.rng.random() < 0.5 else "accept"
        done = await self.browser.post(form.action, form.data({"answer": answer}), htmx=True)
        self.t.outcome.deal_answers.append(f"{self.name}: {answer} ({messages_in(done.body)})")
        self.t.log(f"{self.name} answered the deal: {answer}")


# --------------------------------------------------------------------------- the servers


class Site:
    """The servers of one mode, on a fresh database, and the logs they write."""

    def __init__(self, mode: str, workdir: Path, options: Options) -> None:
        from tests.tables.servers import (
            deployed_env,
            free_port,
            postgres_database_new,
            redis_url_on,
            server_env,
        )

        self.mode = mode
        self.workdir = workdir
        self.verbose = options.verbose
        self.run = secrets.token_hex(2)
        self.processes: list[subprocess.Popen[bytes]] = []
        self.ports = [free_port()] if mode == "embedded" else [free_port(), free_port()]
        self.log = workdir / f"{mode}-servers.log"
        self.celery_log = workdir / f"{mode}-celery.log"
        self.admin_url = ""
        self.database = ""
        self.redis_port: int | None = None
        timing = {
            "TABLES_NEXT_HAND_DELAY_MS": str(options.next_hand_ms),
            "TABLES_BOT_THINK_MS": str(options.bot_think_ms),
            "TABLES_TURN_SECONDS": str(options.turn_seconds),
        }
        if mode == "embedded":
            env = server_env(DATABASE_URL=f"sqlite:///{workdir / 'soak.sqlite3'}", **timing)
            env.pop("REDIS_URL", None)
            # The worker's lines (a task failed, a retry) are in the server's own log.
            env["WORKER_LOG_LEVEL"] = "INFO"
        elif mode == "distributed":
            url = os.environ.get("DATABASE_URL", "")
            redis = os.environ.get("REDIS_URL", "")
            if not url.startswith(("postgres://", "postgresql://")) or not redis:
                raise SystemExit("distributed mode needs a PostgreSQL DATABASE_URL and REDIS_URL")
            database_url, self.database = postgres_database_new(url, "soak")
            self.admin_url = url
            if options.shared_redis or shutil.which("redis-server") is None:
                # REDIS_URL's server, on a database of its own. Its pub/sub channels are
                # the server's: another site or test run on it with tables of the same ids
                # talks to this run's sockets (counted as foreign snapshots).
                redis_url = redis_url_on(redis, options.redis_db)
                import redis as redis_client

                redis_client.Redis.from_url(redis_url).flushdb()
            else:
                self.redis_port = free_port()
                redis_url = f"redis://{HOST}:{self.redis_port}/0"
            env = server_env(DATABASE_URL=database_url, REDIS_URL=redis_url, **timing)
        else:
            raise SystemExit(f"unknown mode {mode!r}: embedded or distributed")
        self.env = deployed_env(env, "soak")
        self.env["LOG_LEVEL"] = "WARNING"

    def start(self) -> None:
        from tests.tables.servers import start_redis, start_site

        if self.redis_port is not None:
            self.processes.append(start_redis(self.redis_port, self.workdir / "redis.log"))
        self.processes += start_site(
            self.env,
            self.mode,
            self.ports,
            self.log,
            celery_log=self.celery_log,
            celery_loglevel="INFO",
        )

    def stop(self) -> None:
        from tests.tables.servers import stop

        # The servers first, the private Redis they use last.
        for process in reversed(self.processes):
            stop(process)
        self.processes = []

    def drop(self) -> None:
        if self.database:
            from tests.tables.servers import postgres_database_drop

            postgres_database_drop(self.admin_url, self.database)
            self.database = ""


LOG_PATTERNS = {
    "task_failed": re.compile(r"raised unexpected|sweep: .* failed|scheduling .* failed"),
    "task_retry": re.compile(r"Retry in|retry: "),
    "database_locked": re.compile(r"database is locked"),
    "traceback": re.compile(r"^Traceback \(most recent call last\)"),
    "error_lines": re.compile(r"\bERROR\b|Internal Server Error|Exception in"),
}


def logs_read(paths: list[Path]) -> dict[str, Any]:
    """Count the patterns of ``LOG_PATTERNS`` in the servers' and workers' logs, with the
    first few occurrences and the lines after them."""
    found: dict[str, Any] = {name: 0 for name in LOG_PATTERNS}
    examples: dict[str, list[str]] = {name: [] for name in LOG_PATTERNS}
    for path in paths:
        if not path.exists():
            continue
        lines = path.read_text(errors="replace").splitlines()
        for n, line in enumerate(lines):
            for name, pattern in LOG_PATTERNS.items():
                if pattern.search(line):
                    found[name] += 1
                    if len(examples[name]) < 3:
                        context = lines[n : n + (12 if name == "traceback" else 2)]
                        examples[name].append(f"{path.name}:{n + 1}: " + " | ".join(context)[:1500])
    found["examples"] = {k: v for k, v in examples.items() if v}
    return found


# --------------------------------------------------------------------------- one mode


@dataclass
class Options:
    tournaments: int = 6
    parallel: int = 6
    seed: int = 1
    busy: int = 0
    tournament_timeout: float = 900.0
    next_hand_ms: int = 1000
    bot_think_ms: int = 300
    turn_seconds: int = 30
    redis_db: int = 9
    shared_redis: bool = False
    verbose: bool = False
    keep_logs: Path | None = None
    plans: list[Plan] | None = None


@dataclass
class Report:
    mode: str
    outcomes: list[Outcome]
    counts: Counts
    logs: dict[str, Any]
    database: dict[str, Any]
    seconds: float
    problems: list[str] = field(default_factory=list)

    def goals(self) -> list[tuple[str, bool, str]]:
        """(goal, met, what was seen) for each goal."""
        c = self.counts
        finished = [o for o in self.outcomes if o.finished]
        db_unfinished = [k for k, v in self.database.items() if v.get("state") not in ("finished",)]
        deal_worst = max(c.deal_late, default=(0.0, "-"))
        turn_worst = max(c.turn_late, default=(0.0, "-"))
        chips = list(c.chip_failures)
        for tournament_id, row in self.database.items():
            if row["hands_unbalanced_count"]:
                chips.append(
                    f"tournament {tournament_id}: {row['hands_unbalanced_count']} hands end with "
                    f"other chips than they started with: {row['hands_unbalanced']}"
                )
            counted = next((o for o in self.outcomes if str(o.tournament) == tournament_id), None)
            if counted is not None and counted.started:
                soak_chips = (
                    counted.entries,
                    counted.rebuys + counted.bot_rebuys,
                    counted.addons,
                )
                if soak_chips != (row["entries"], row["rebuys"], row["addons"]):
                    chips.append(
                        f"tournament {tournament_id}: the soak counted entries, rebuys, add-ons "
                        f"{soak_chips}, the database {row['entries'], row['rebuys'], row['addons']}"
                    )
            if row["state"] == "finished":
                end = (
                    row["deal_chips"] if row["deal_chips"] is not None else row["chips_at_the_end"]
                )
                if end != row["chips_in_play"]:
                    chips.append(
                        f"tournament {tournament_id}: {row['chips_in_play']} chips in play, "
                        f"{end} at the end"
                    )
        busts = sum(o.bust_rebuys for o in self.outcomes)
        put_out = [b for o in self.outcomes for b in o.busts_put_out]
        return [
            (
                "every tournament finished",
                len(finished) == len(self.outcomes) and not db_unfinished,
                f"{len(finished)} of {len(self.outcomes)}"
                + (f"; not finished in the database: {db_unfinished}" if db_unfinished else ""),
            ),
            (
                # Whether a person busts within the rebuy period is the cards' to say: the
                # goal is that none who did was put out (the count says how many rebought).
                "a person busted in the rebuy period rebought and played on",
                not put_out,
                f"{busts} rebought with their seat kept"
                + (f"; put out instead: {put_out}" if put_out else ""),
            ),
            (
                "no HTTP 5xx",
                not c.http_5xx and not c.http_errors,
                f"{len(c.http_5xx)} of {c.requests} requests, "
                f"{len(c.http_errors)} without an answer in {HTTP_TIMEOUT:.0f} s",
            ),
            (
                "no socket handshake refused",
                not c.refused and not c.dropped,
                f"{len(c.refused)} of {c.handshakes} handshakes, "
                f"{len(c.dropped)} sockets closed by the server",
            ),
            (
                "no Celery task failed",
                not self.logs["task_failed"] and not self.logs["database_locked"],
                f"{self.logs['task_failed']} failed, {self.logs['task_retry']} retries, "
                f"{self.logs['database_locked']} 'database is locked'",
            ),
            (
                f"no table waited more than {LATE_GOAL_SECONDS:.0f} s past a deadline",
                deal_worst[0] <= LATE_GOAL_SECONDS and turn_worst[0] <= LATE_GOAL_SECONDS,
                f"deal {deal_worst[0]:.1f} s ({deal_worst[1]}), "
                f"turn clock {turn_worst[0]:.1f} s ({turn_worst[1]})",
            ),
            (
                "chips exact",
                not chips,
                f"{c.chip_checks} sums and {c.hand_checks} in-hand snapshots checked, "
                f"{len(chips)} off",
            ),
        ]

    def failures(self) -> list[str]:
        return [goal for goal, met, _ in self.goals() if not met]

    def soak_problems(self) -> list[str]:
        """What kept the soak from playing as planned (a page without the form it expected,
        a tournament that could not start): a failed run too, whatever the goals say."""
        return self.problems + [f"{o.label}: {p}" for o in self.outcomes for p in o.problems]

    def details(self) -> list[str]:
        """The evidence behind each failed goal, for the reader of the report."""
        c = self.counts
        out: list[str] = []
        failed = set(self.failures())
        if "every tournament finished" in failed:
            out += [f"{o.label}: {o.problems}" for o in self.outcomes if not o.finished]
            out += [
                f"tournament {tournament_id}'s open tables (seats: number, state, stack, "
                f"adding): {row['tables']}"
                for tournament_id, row in self.database.items()
                if row.get("tables")
            ]
        if "no HTTP 5xx" in failed:
            out += c.http_5xx[:10] + c.http_errors[:10]
        if "no socket handshake refused" in failed:
            out += c.refused[:10] + c.dropped[:10]
        if "no Celery task failed" in failed:
            for name in ("task_failed", "database_locked", "traceback"):
                out += self.logs["examples"].get(name, [])
        if any(goal.startswith("no table waited") for goal in failed):
            worst = sorted([*c.deal_late, *c.turn_late], reverse=True)[:10]
            out += [f"{late:.1f} s late: {where}" for late, where in worst]
        if "chips exact" in failed:
            out += c.chip_failures[:10]
            for tournament_id, row in self.database.items():
                if row["hands_unbalanced_count"]:
                    out.append(f"tournament {tournament_id}: {row['hands_unbalanced']}")
        return out

    def summary(self) -> dict[str, Any]:
        c = self.counts
        deals = sorted(late for late, _ in c.deal_late)
        turns = sorted(late for late, _ in c.turn_late)
        http_ms = sorted(c.http_ms)

        def pct(values: list[float], q: float) -> float | None:
            return round(values[min(len(values) - 1, int(q * len(values)))], 2) if values else None

        return {
            "mode": self.mode,
            "seconds": round(self.seconds, 1),
            "tournaments": [
                {
                    "label": o.label,
                    "id": o.tournament,
                    "started": o.started,
                    "finished": o.finished,
                    "seconds_to_end": round(o.seconds, 1) if o.seconds is not None else None,
                    "end": (
                        "deal"
                        if self.database.get(str(o.tournament), {}).get("deal_chips") is not None
                        else "winner"
                    )
                    if o.finished
                    else None,
                    "hands": self.database.get(str(o.tournament), {}).get("hands"),
                    "entries": o.entries,
                    "rebuys": o.rebuys,
                    "bot_rebuys": o.bot_rebuys,
                    "bust_rebuys": o.bust_rebuys,
                    "addons": o.addons,
                    "deal": o.deal_offered,
                    "deal_answers": o.deal_answers,
                    "time_outs": o.time_outs,
                    "reconnects": o.reconnects,
                    "second_tabs": o.second_tabs,
                    "moves_followed": o.moves_followed,
                    "problems": o.problems,
                }
                for o in self.outcomes
            ],
            "http_requests": c.requests,
            "http_5xx": len(c.http_5xx),
            "http_errors": len(c.http_errors),
            "http_p50_ms": pct(http_ms, 0.5),
            "http_p99_ms": pct(http_ms, 0.99),
            "handshakes": c.handshakes,
            "handshakes_refused": len(c.refused),
            "sockets_closed_by_server": len(c.dropped),
            "error_frames": dict(c.error_frames),
            "foreign_snapshots": c.foreign,
            "tasks_failed": self.logs["task_failed"],
            "task_retries": self.logs["task_retry"],
            "database_locked": self.logs["database_locked"],
            "tracebacks": self.logs["traceback"],
            "log_errors": self.logs["error_lines"],
            "deals_dealt": len(deals),
            "deal_late_p50_s": pct(deals, 0.5),
            "deal_late_p99_s": pct(deals, 0.99),
            "deal_late_max_s": round(deals[-1], 2) if deals else None,
            "turns_ended_past_deadline": len(turns),
            "turn_late_max_s": round(turns[-1], 2) if turns else None,
            "chip_sums_checked": c.chip_checks,
            "in_hand_snapshots_checked": c.hand_checks,
            "chip_failures": len(c.chip_failures),
            "problems": self.problems,
        }


def busy_start(count: int) -> list[subprocess.Popen[bytes]]:
    """``count`` processes spinning on the cores for the run."""
    return [
        subprocess.Popen(
            [PYTHON, "-c", "while True: pass"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        for _ in range(count)
    ]


def busy_stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        try:
            os.kill(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(timeout=10)


async def _soak(site: Site, options: Options, counts: Counts) -> list[Outcome]:
    loop = asyncio.get_running_loop()
    loop.set_default_executor(ThreadPoolExecutor(max_workers=64, thread_name_prefix="soak-http"))
    username = f"soak-director-{site.run}"
    await loop.run_in_executor(None, lambda: run_child(site.env, "director", username, PASSWORD))
    director = Browser(site.ports[0], counts, username)
    page = await director.get("/accounts/login/")
    done = await director.submit(
        page.body,
        "/accounts/login/",
        having="password",
        values={"username": username, "password": PASSWORD},
    )
    if done.status != 302:
        raise RuntimeError(f"the director could not log in: {done.status}")
    page = await director.get("/admin/series/season/add/")
    today = time.strftime("%Y-%m-%d")
    later = time.strftime("%Y-%m-%d", time.gmtime(time.time() + 30 * 86400))
    done = await director.submit(
        page.body,
        "/admin/series/season/add/",
        having="starts_on",
        values={
            "name": f"Soak {site.run}",
            "starts_on": today,
            "ends_on": later,
            "_continue": "1",
        },
    )
    season = ids_in(r"/admin/series/season/(\d+)/change/", done.location)
    if not season:
        raise RuntimeError(f"the season was not added: {done.status} {errors_in(done.body)}")
    plans = options.plans or plans_make(options.tournaments, options.seed)
    slots = asyncio.Semaphore(max(1, options.parallel))

    async def one(plan: Plan) -> Outcome:
        async with slots:
            # Each tournament's own director screen (one account, sessions apart).
            screen = Browser(site.ports[plan.index % len(site.ports)], counts, username)
            screen.cookies = dict(director.cookies)
            tournament = Tournament(plan, site, counts, screen)
            try:
                await tournament.set_up(season[0])
                return await tournament.play(options.tournament_timeout)
            except Exception as error:  # noqa: BLE001 - one tournament's failure is reported
                tournament.outcome.problems.append(f"{type(error).__name__}: {error}")
                return tournament.outcome

    tasks = []
    for plan in plans:
        tasks.append(asyncio.create_task(one(plan)))
        await asyncio.sleep(3)  # staggered starts
    return list(await asyncio.gather(*tasks))


def soak_mode(mode: str, options: Options) -> Report:
    """Play ``options``' tournaments through fresh servers of ``mode``; the report."""
    started = time.monotonic()
    counts = Counts()
    with tempfile.TemporaryDirectory(prefix=f"soak-{mode}-") as tmp:
        workdir = Path(tmp)
        site = Site(mode, workdir, options)
        busy = busy_start(options.busy)
        outcomes: list[Outcome] = []
        problems: list[str] = []
        database: dict[str, Any] = {}
        try:
            site.start()
            try:
                outcomes = asyncio.run(_soak(site, options, counts))
            except Exception as error:  # noqa: BLE001 - reported as the run's problem
                problems.append(f"{type(error).__name__}: {error}")
            finally:
                site.stop()
            ids = [str(o.tournament) for o in outcomes if o.tournament]
            if ids:
                database = run_child(site.env, "check", *ids)
        finally:
            busy_stop(busy)
            logs = logs_read([site.log, site.celery_log])
            if options.keep_logs is not None:
                options.keep_logs.mkdir(parents=True, exist_ok=True)
                for path in (site.log, site.celery_log):
                    if path.exists():
                        (options.keep_logs / path.name).write_bytes(path.read_bytes())
            site.drop()
    return Report(mode, outcomes, counts, logs, database, time.monotonic() - started, problems)


def print_report(report: Report) -> None:
    print(json.dumps(report.summary()), flush=True)
    for goal, met, seen in report.goals():
        print(f"{report.mode:12} {'PASS' if met else 'FAIL'}  {goal}: {seen}", flush=True)
    for line in report.details():
        print(f"{report.mode:12}       {line}", flush=True)
    for line in report.soak_problems():
        print(f"{report.mode:12} SOAK  {line}", flush=True)


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        if sys.argv[2] == "director":
            print(json.dumps(child_director(sys.argv[3], sys.argv[4])))
        elif sys.argv[2] == "check":
            print(json.dumps(child_check([int(x) for x in sys.argv[3:]])))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tournaments", type=int, default=6)
    parser.add_argument("--parallel", type=int, default=6, help="tournaments played at once")
    parser.add_argument(
        "--modes",
        nargs="+",
        help="embedded, distributed (default: both, or embedded alone "
        "without DATABASE_URL=postgres://... and REDIS_URL)",
    )
    parser.add_argument("--busy", type=int, default=0, help="processes spinning on the cores")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tournament-timeout", type=float, default=900.0, help="seconds")
    parser.add_argument("--next-hand-ms", type=int, default=1000)
    parser.add_argument("--bot-think-ms", type=int, default=300)
    parser.add_argument("--turn-seconds", type=int, default=30, help="the turn clock")
    parser.add_argument(
        "--shared-redis",
        action="store_true",
        help="distributed: use REDIS_URL's server (database --redis-db, flushed) instead "
        "of a private redis-server",
    )
    parser.add_argument("--redis-db", type=int, default=9)
    parser.add_argument("--keep-logs", type=Path, help="copy the servers' logs here")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    from tests.tables.servers import benchmark_modes

    options = Options(
        tournaments=args.tournaments,
        parallel=args.parallel,
        seed=args.seed,
        busy=args.busy,
        tournament_timeout=args.tournament_timeout,
        next_hand_ms=args.next_hand_ms,
        bot_think_ms=args.bot_think_ms,
        turn_seconds=args.turn_seconds,
        redis_db=args.redis_db,
        shared_redis=args.shared_redis,
        verbose=args.verbose,
        keep_logs=args.keep_logs,
    )
    # Stopped by a signal (a `kill`, a CI timeout), unwind as Ctrl-C does, through the
    # `finally`s that stop the servers, the worker and the spinning processes.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    failed = False
    for mode in benchmark_modes(args.modes):
        report = soak_mode(mode, options)
        print_report(report)
        failed = failed or bool(report.failures()) or bool(report.soak_problems())
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
