"""How tests/test_bad_input.py walks the site: the bad values, what a parameter may take,
the forms a page shows, what a request wrote, and the walk itself.

A request runs in a savepoint rolled back after it, so each starts from the same rows.
While the walk runs, every SQL statement passes through ``Database``: it refuses what
PostgreSQL refuses and SQLite takes (NUL in text), and notes the tables a statement wrote,
whose rows are then compared with the ones before the walk and checked against
PostgreSQL's column types (a number beyond ``integer``, text beyond a ``varchar``).
"""

from __future__ import annotations

import copy
import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit

from django.apps import apps
from django.db import connection, transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.test import Client
from django.urls import URLPattern, URLResolver, resolve
from django.urls.exceptions import Resolver404

from core.amounts import MONEY_MAX

NUL = "\x00"
HUGE = "99999999999999999999999"  # beyond bigint
BIG = "99999999999999"  # fits bigint, beyond PostgreSQL's integer (the money columns)
LONG = "x" * 100_000
BAD_VALUES = (NUL, "²", "1e400", HUGE, BIG, "-1", "", LONG)
# What can go wrong with a value only read as text (a name, where to go back to).
FEW_VALUES = (NUL, "²", LONG)
# The admin is Django's own, its forms checked field by field: every field gets these at
# once (one request per value), and the values only a save may refuse go to one text box
# at a time (see ``Walk._admin_form``). Not BIG: its model validators take the range of
# the database in use, PostgreSQL's refusing BIG in the form, SQLite's letting it be stored
# (its columns hold it).
ADMIN_VALUES = (NUL, "²", HUGE, "-1")
ADMIN_ALONE = ("1e400", "", LONG)
# The admin's formset machinery (the row template, the initial values, the counts) is
# Django's to check; garbage there is ignored or refused as a whole.
ADMIN_MACHINERY = re.compile(r"__prefix__|^initial-|_FORMS$")


# -- what a parameter may take -------------------------------------------------------------


@dataclass(frozen=True)
class Kind:
    """What a parameter is, as far as deciding whether a bad value may change anything.

    ``text``: any text without NUL up to ``maxlength`` (``words``: text no one parses, a
    name or a reason, by the field's name); ``number``: an ASCII whole number
    from ``minimum`` to ``maximum``; ``money``: an amount with at most two decimals ("23.50")
    up to ``maximum``; ``choice``: one of ``options``; ``id``, ``date``: no
    bad value is one; ``flag``: any value means "on"; ``ignored``: read, but it never
    decides what is written (where to go back to, which panel to show). ``pattern``: the
    values it takes, when that says it better.
    """

    name: str
    required: bool = False
    maxlength: int | None = None
    minimum: int | None = None
    maximum: int | None = None
    options: tuple[str, ...] = ()
    pattern: str | None = None
    box: bool = False  # a <textarea>

    def worth_trying(self, value: str) -> bool:
        """Whether ``value`` may go wrong other than the others do. A choice among words
        is compared, a flag or an ignored value hardly read; an id is looked up; anything
        else may be parsed as a number (a text box too: "50, 30" as payouts, "25, 100" as
        chips)."""
        ids = self.name == "choice" and all(re.fullmatch(r"[0-9]*", o) for o in self.options)
        if self.name in ("id", "token") or ids:
            # Not a number to reckon with: "1e400" fails as "²" does, BIG is no row.
            return value not in ("1e400", BIG)
        if self.name in ("flag", "ignored", "words", "choice"):
            return value in FEW_VALUES or (value == "" and self.name != "ignored")
        return True

    def accepts(self, value: str) -> bool:
        """Whether ``value`` is one this parameter may take (and so may change things)."""
        if self.name in ("ignored", "flag"):
            return True
        if value == "":
            return not self.required
        if self.pattern is not None:
            return re.fullmatch(self.pattern, value) is not None
        if self.name in ("text", "words"):
            return NUL not in value and (self.maxlength is None or len(value) <= self.maxlength)
        if self.name == "number":
            if not re.fullmatch(r"-?[0-9]+", value):
                return False
            number = int(value)
            return (self.minimum is None or number >= self.minimum) and (
                self.maximum is None or number <= self.maximum
            )
        if self.name == "money":
            if not re.fullmatch(r"[0-9]+(\.[0-9]{1,2})?", value):
                return False
            return self.maximum is None or Decimal(value) <= self.maximum
        if self.name == "choice":
            return value in self.options
        return False


ID = Kind("id", required=True)
OPTIONAL_ID = Kind("id")
IGNORED = Kind("ignored")
FLAG = Kind("flag")


def choice(*options: str) -> Kind:
    return Kind("choice", required=True, options=options)


# Text boxes whose text no one parses, by their names.
WORDS = re.compile(r"name|description|reason|password|email|^q$")


def text(name: str, required: bool = False, maxlength: int | None = None) -> Kind:
    kind = "words" if WORDS.search(name) else "text"
    return Kind(kind, required=required, maxlength=maxlength)


def number(minimum: int | None = None, maximum: int | None = None, required: bool = True) -> Kind:
    return Kind("number", required=required, minimum=minimum, maximum=maximum)


def money(required: bool) -> Kind:
    """An amount typed with cents (a text box with the decimal keypad: a shared expense and
    its parts), at most ``MONEY_MAX``."""
    return Kind("money", required=required, maximum=MONEY_MAX)


# -- the forms a page shows --------------------------------------------------------------


@dataclass
class Form:
    action: str  # the path it is sent to
    method: str
    fields: dict[str, Kind] = field(default_factory=dict)
    values: dict[str, list[str]] = field(default_factory=dict)  # what a browser would send

    def signature(self) -> tuple[str, ...]:
        return (self.action, self.method, *sorted(self.fields))


def _int_or_none(text: str | None) -> int | None:
    return int(text) if text and re.fullmatch(r"-?[0-9]+", text) else None


class FormParser(HTMLParser):
    """The forms of a page: each field's kind (from its input's type and attributes) and
    the value a browser would send, with a required field filled and the first of a group
    of boxes ticked (one player out), so the form as sent does what it is for."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.boxes: dict[str, list[tuple[str, bool]]] = {}
        self.buttons: set[str] = set()
        self.select: tuple[str, bool, list[str], str | None] | None = None
        self.textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        if tag == "form":
            action = a.get("action") or a.get("hx-post") or a.get("hx-get") or self.page
            post = a.get("method", "get").lower() == "post" or "hx-post" in a
            self.form = Form(urlsplit(action).path, "POST" if post else "GET")
            self.boxes, self.buttons = {}, set()
            return
        if self.form is None:
            return
        if tag == "option" and self.select is not None:
            name, required, options, chosen = self.select
            value = a.get("value", "")
            options.append(value)
            if "selected" in a and (value or chosen is None):
                chosen = value
            elif chosen in (None, "") and value and required:
                chosen = value  # a required choice left at "---": the first real one
            self.select = (name, required, options, chosen)
            return
        name = a.get("name")
        if not name or name == "csrfmiddlewaretoken":
            return
        if "disabled" in a:
            # A browser does not send it, and Django's form ignores it if sent.
            self._field(name, IGNORED, a.get("value", ""))
            return
        required = "required" in a
        if tag == "select":
            self.select = (name, required, [], None)
        elif tag == "textarea":
            maxlength = _int_or_none(a.get("maxlength"))
            kind = text(name, required, maxlength)
            self._field(name, Kind(kind.name, required, maxlength, box=True), "")
            self.textarea = name
        elif tag == "button" and a.get("type", "submit") == "submit":
            self._button(name, a.get("value", ""))
        elif tag == "input":
            self._input(name, a, required)

    def _input(self, name: str, a: dict[str, str], required: bool) -> None:
        assert self.form is not None
        kind_of = a.get("type", "text").lower()
        value = a.get("value", "")
        if kind_of == "submit":
            self._button(name, value)
        elif kind_of == "checkbox":
            self.boxes.setdefault(name, []).append((value or "on", "checked" in a))
        elif kind_of == "radio":
            options = (*self.form.fields.get(name, choice()).options, value)
            self.form.fields[name] = Kind("choice", required=True, options=options)
            if "checked" in a or name not in self.form.values:
                self.form.values[name] = [value]
        elif kind_of == "number":
            minimum, maximum = _int_or_none(a.get("min")), _int_or_none(a.get("max"))
            filled = value or (a.get("min") or "1" if required else "")
            self._field(name, number(minimum, maximum, required), filled)
        elif kind_of == "hidden":
            self._field(name, ID, value)
        elif kind_of == "text" and a.get("inputmode") == "decimal":
            self._field(name, money(required), value or ("1" if required else ""))
        elif kind_of in ("date", "datetime-local", "time"):
            self._field(name, Kind("date", required=required), value)
        elif kind_of not in ("button", "image", "reset", "file"):
            maxlength = _int_or_none(a.get("maxlength"))
            filled = value or ("Test" if required else "")
            self._field(name, text(name, required, maxlength), filled)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_data(self, data: str) -> None:
        if self.form is not None and self.textarea:
            self.form.values[self.textarea] = [self.form.values[self.textarea][0] + data]

    def handle_endtag(self, tag: str) -> None:
        if self.form is None:
            return
        if tag == "textarea" and self.textarea:
            text = self.form.values[self.textarea][0].removeprefix("\n")
            filled = text or ("Test" if self.form.fields[self.textarea].required else "")
            self.form.values[self.textarea] = [filled]
            self.textarea = None
        elif tag == "select" and self.select is not None:
            name, required, options, chosen = self.select
            if chosen is None:  # nothing selected: a browser sends the first option
                chosen = options[0] if options else ""
            self.form.fields[name] = Kind("choice", required=required, options=tuple(options))
            self.form.values[name] = [chosen]
            self.select = None
        elif tag == "form":
            for name, boxes in self.boxes.items():
                values = [value for value, _checked in boxes]
                if len(values) > 1:
                    self.form.fields[name] = Kind("choice", options=tuple(values))
                    self.form.values[name] = values[:1]
                else:
                    self.form.fields[name] = FLAG
                    self.form.values[name] = values if boxes[0][1] else []
            self.forms.append(self.form)
            self.form = None

    def _button(self, name: str, value: str) -> None:
        """A browser sends the button the form was sent with: here the first."""
        assert self.form is not None
        options = (*self.form.fields.get(name, choice()).options, value)
        self.form.fields[name] = Kind("choice", required=True, options=options)
        if not self.buttons:
            self.form.values[name] = [value]
        self.buttons.add(name)

    def _field(self, name: str, kind: Kind, value: str) -> None:
        assert self.form is not None
        self.form.fields.setdefault(name, kind)
        self.form.values.setdefault(name, [value])


def page_forms(page: str, html: str) -> list[Form]:
    parser = FormParser(page)
    parser.feed(html)
    return parser.forms


def url_patterns(
    patterns: list[URLPattern | URLResolver], namespace: str = ""
) -> Iterator[tuple[str, URLPattern]]:
    """Every URL pattern with its full name ("tournaments:lobby")."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from url_patterns(pattern.url_patterns, inner)
        else:
            yield f"{namespace}{pattern.name}", pattern


# -- the database ------------------------------------------------------------------------

# Written by a visit whatever it sends: sessions, login attempts, the time of a login.
UNWATCHED_TABLES = re.compile(r"django_session$|axes_")
UNWATCHED_COLUMNS = {"last_login"}
RANGES = BaseDatabaseOperations.integer_field_ranges  # PostgreSQL's, whatever runs the tests
_WRITE = re.compile(r'\s*(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)', re.I)
_JSON_NUL = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")


class Database:
    """Every statement passes through here while the walk runs (``execute_wrapper``)."""

    def __init__(self) -> None:
        self.written: set[str] = set()
        self.baseline = self.prints(connection.introspection.table_names())

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        # PostgreSQL refuses NUL in text, and "\u0000" in jsonb; SQLite stores both.
        for batch in (params if many else [params]) or []:
            values = batch.values() if isinstance(batch, dict) else batch or ()
            for value in values:
                if isinstance(value, str) and (NUL in value or _JSON_NUL.search(value)):
                    raise ValueError("PostgreSQL text fields cannot contain NUL (0x00) bytes")
        result = execute(sql, params, many, context)
        written = _WRITE.match(sql)
        if written and context["cursor"].rowcount != 0:
            self.written.add(written.group(1))
        return result

    def prints(self, tables: Iterable[str]) -> dict[str, str]:
        """Each watched table's rows, hashed."""
        found: dict[str, str] = {}
        with connection.cursor() as cursor:
            for table in tables:
                if UNWATCHED_TABLES.match(table):
                    continue
                cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
                columns = [c[0] for c in cursor.description]
                keep = [i for i, c in enumerate(columns) if c not in UNWATCHED_COLUMNS]
                rows = sorted(repr([row[i] for i in keep]) for row in cursor.fetchall())
                found[table] = hashlib.sha1("\n".join(rows).encode()).hexdigest()
        return found

    def changed(self) -> set[str]:
        """The tables whose rows differ from the walk's start, of those just written."""
        now = self.prints(self.written)
        return {table for table, print_ in now.items() if self.baseline.get(table) != print_}


def refused_by_postgresql(tables: set[str]) -> list[str]:
    """Values in ``tables`` that PostgreSQL's columns would have refused and SQLite
    stored: a number beyond an integer column, text longer than a ``varchar``."""
    problems = []
    by_table = {m._meta.db_table: m for m in apps.get_models()}
    with connection.cursor() as cursor:
        for table in sorted(tables):
            model = by_table.get(table)
            for f in model._meta.concrete_fields if model is not None else ():
                column = connection.ops.quote_name(f.column)
                bounds = RANGES.get(f.get_internal_type())
                if bounds is not None:
                    where, params = f"{column} < %s OR {column} > %s", list(bounds)
                elif f.get_internal_type() == "CharField" and f.max_length:
                    where, params = f"LENGTH({column}) > %s", [f.max_length]
                else:
                    continue
                quoted = connection.ops.quote_name(table)
                cursor.execute(f"SELECT {column} FROM {quoted} WHERE {where}", params)
                problems += [f"{table}.{f.column} = {str(v)[:40]}" for (v,) in cursor.fetchall()]
    return problems


# -- the walk ----------------------------------------------------------------------------


@dataclass
class Sent:
    status: int
    location: str
    problem: str  # the view's exception, or a value PostgreSQL would have refused
    changed: set[str]  # the tables whose rows changed
    html: str = ""  # the page, when it is one


def short(value: str) -> str:
    return repr(value if len(value) < 20 else f"{value[:5]}…({len(value)})")


# What a URL's view reads itself: {name: (kind, a good value)}.
Static = dict[str, tuple[Kind, str]]


@dataclass
class Walk:
    clients: dict[str, Client]
    database: Database
    named_kinds: dict[str, Kind]  # names that mean the same wherever they are sent
    failures: list[str] = field(default_factory=list)
    count: int = 0
    walked: set[str] = field(default_factory=set)  # URL names
    sent: set[tuple[str, str]] = field(default_factory=set)  # (URL name, parameter)
    pages: dict[tuple[str, str], Sent] = field(default_factory=dict)  # (role, path): GET

    def forms(self, pages: list[str]) -> dict[tuple[str, str], list[Form]]:
        """The forms each role's pages show, by role and the URL name they are sent to.
        Forms alike but for their hidden values (a copy button per blind structure) count
        once. Each page's answer is kept: it is the URL's GET with nothing sent."""
        forms: dict[tuple[str, str], list[Form]] = {}
        for role in self.clients:
            seen: set[tuple[str, ...]] = set()
            for page in pages:
                sent = self.pages[(role, page)] = self.request(role, "GET", page, {}, htmx=False)
                if sent.status >= 500 or sent.problem:
                    self.failures.append(f"{role} GET {page}: {sent.problem}")
                for form in page_forms(page, sent.html):
                    try:
                        name = resolve(form.action).view_name
                    except Resolver404:
                        continue
                    if form.signature() not in seen:
                        seen.add(form.signature())
                        forms.setdefault((role, name), []).append(form)
        return forms

    def request(
        self, role: str, method: str, path: str, data: dict[str, Any], *, htmx: bool
    ) -> Sent:
        """One request, in a savepoint rolled back after it."""
        client = self.clients[role]
        self.count += 1
        # A request may log the client out or change its language: each starts as the last.
        cookies = copy.deepcopy(client.cookies)
        problem, location, changed, html = "", "", set(), ""
        with transaction.atomic():
            self.database.written.clear()
            try:
                send = client.get if method == "GET" else client.post
                response = send(path, data, headers={"HX-Request": "true"} if htmx else {})
                status, location = response.status_code, response.get("Location", "")
                if status == 200 and "html" in response.get("Content-Type", ""):
                    html = response.content.decode()
            except Exception as error:  # the test client raises what the view raised
                status, problem = 500, f"{type(error).__name__}: {str(error)[:200]}"
            if status < 500 and self.database.written:
                changed = self.database.changed()
                problem = "; ".join(f"wrote {p}" for p in refused_by_postgresql(changed))
            transaction.set_rollback(True)
        client.cookies = cookies
        return Sent(status, location, problem, changed, html)

    def send(
        self,
        role: str,
        method: str,
        path: str,
        data: dict[str, Any],
        *,
        htmx: bool,
        allowed: bool,
        label: str,
    ) -> None:
        """A request with a bad value: no 5xx, and nothing changed unless ``allowed``."""
        sent = self.request(role, method, path, data, htmx=htmx)
        what = f"{role} {method} {path} {label}{' (htmx)' if htmx else ''}"
        if sent.status >= 500:
            self.failures.append(f"{what}: {sent.problem or f'status {sent.status}'}")
        elif sent.changed and not allowed:
            self.failures.append(f"{what}: changed {', '.join(sorted(sent.changed))}")
        elif sent.problem:
            self.failures.append(f"{what}: {sent.problem}")

    def url(
        self, role: str, name: str, method: str, path: str, static: Static, forms: list[Form]
    ) -> None:
        """Walk one URL with one method as one role."""
        self.walked.add(name)
        admin = name.startswith("admin:")
        # The door: a request with nothing in it (a page's GET was sent for its forms).
        # The method refused: nothing is read. Refused (log in, 403): a few bad values
        # show nothing is read before the door. Done: the action needs no input.
        bare = self.pages.get((role, path)) if method == "GET" else None
        if bare is None:
            bare = self.request(role, method, path, {}, htmx=False)
            if bare.status >= 500 or bare.problem:
                self.failures.append(f"{role} {method} {path} (nothing sent): {bare.problem}")
        if bare.status == 405:
            return
        acts_anyway = bool(bare.changed) or admin  # the admin saves what it saves
        closed = bare.status == 403 or (bare.status == 302 and "login" in bare.location)
        if closed or (admin and role != "director"):
            names = [*static, *(f for form in forms for f in form.fields)] or ["x"]
            # The admin's door is Django's: once is enough.
            for i, value in enumerate(FEW_VALUES[:1] if admin else FEW_VALUES):
                data = {param: value for param in names}
                self.send(
                    role, method, path, data, htmx=bool(i % 2), allowed=acts_anyway, label="all"
                )
            return

        # Alone: each name the view reads itself with nothing else, or once a name it
        # does not know when it acts on a POST and reads none. An htmx answer takes
        # another path (a fragment, not a redirect): the values testing the parsing
        # itself go both ways.
        alone = {p: kind for p, (kind, _good) in static.items()}
        if not alone and not forms and method == "POST":
            self.send(role, method, path, {"x": NUL}, htmx=True, allowed=acts_anyway, label="x")
        for param, value in _samples(list(alone), alone):
            self.sent.add((name, param))
            for htmx in (False, True) if value in FEW_VALUES else (False,):
                self.send(
                    role,
                    method,
                    path,
                    {param: value},
                    htmx=htmx,
                    allowed=acts_anyway or alone[param].accepts(value),
                    label=f"{param}={short(value)}",
                )

        # In its form: the values the form sends, one of them bad (plain and htmx in
        # turn), and the names the view reads itself that the form does not carry, added
        # to it. A view whose form no page shows (the deal's amounts come after a
        # proposal) gets the good values of the names it reads.
        bases = [(f.action, f.values, f.fields) for f in forms]
        if not bases and static:
            bases = [(path, {p: [good] for p, (_kind, good) in static.items()}, {})]
        for action, base, fields in bases:
            # The form as sent: whether it acts (a name it does not carry may be ignored).
            good = self.request(role, method, action, base, htmx=False)
            if good.status >= 500 or good.problem:
                self.failures.append(f"{role} {method} {action} (the form): {good.problem}")
            if admin:
                if not name.endswith("_delete"):  # any POST deletes: nothing in it is read
                    self._admin_form(role, name, method, action, base, fields)
                continue
            kinds = {p: self._kind(p, fields.get(p, IGNORED), static) for p in base}
            extra = {p: kind for p, (kind, _good) in static.items() if p not in base}
            kinds.update(extra)
            for i, bad in enumerate(_form_samples([*base, *extra], kinds)):
                self.sent.update((name, param) for param in bad)
                self.send(
                    role,
                    method,
                    action,
                    {**base, **{param: [value] for param, value in bad.items()}},
                    htmx=bool(i % 2),
                    allowed=acts_anyway
                    or all(
                        (param in extra and bool(good.changed)) or kinds[param].accepts(value)
                        for param, value in bad.items()
                    ),
                    label="form " + " ".join(f"{p}={short(v)}" for p, v in bad.items())[:200],
                )

    def _admin_form(
        self,
        role: str,
        name: str,
        method: str,
        action: str,
        base: dict[str, list[str]],
        fields: dict[str, Kind],
    ) -> None:
        """Django's own model forms check each field on its own: every field bad at once
        tries each value on each field, in a request per value. What a field's own check
        lets through only the save can refuse (JSON reads "1e400" as infinity, an emptied
        box as nothing), so each text box (JSON, long text) also gets those on its own in
        the form as sent, once per inline, and a name the long value."""
        names = [p for p in base if not ADMIN_MACHINERY.search(p)]
        self.sent.update((name, p) for p in names)
        for i, value in enumerate(ADMIN_VALUES):
            self.send(
                role,
                method,
                action,
                {**base, **{p: [value] for p in names}},
                htmx=bool(i % 2),
                allowed=True,
                label=f"form all={short(value)}",
            )
        boxes = {p: fields[p] for p in names if p in fields and fields[p].box}
        words = [p for p in names if p in fields and fields[p].name == "words"]
        singles = [*_samples(list(boxes), boxes), *((p, LONG) for p in words)]
        for param, value in singles:
            if value not in ADMIN_ALONE:
                continue
            self.send(
                role,
                method,
                action,
                {**base, param: [value]},
                htmx=False,
                allowed=True,
                label=f"form {param}={short(value)}",
            )

    def _kind(self, param: str, scraped: Kind, static: Static) -> Kind:
        """What the view says a name is wins over what its input looks like."""
        if param in static:
            return static[param][0]
        return self.named_kinds.get(param, scraped)


def _form_samples(params: list[str], kinds: dict[str, Kind]) -> Iterator[dict[str, str]]:
    """The bad values to put in a form, a request's worth at a time: each name on its own
    with each value worth trying on it, but names that differ from an earlier one only by
    a number (a formset's other rows, the other players' ``stack_<entry id>``) all in one
    request, one value each: a form checks each field on its own."""
    others: dict[str, str] = {}
    for param, value in _samples(params, kinds):
        if param in others or re.sub(r"[0-9]+", "#", param) == param or _first(param, params):
            yield {param: value}
        else:
            others[param] = value
    if others:
        yield others


def _first(param: str, params: list[str]) -> bool:
    group = re.sub(r"[0-9]+", "#", param)
    return next(p for p in params if re.sub(r"[0-9]+", "#", p) == group) == param


def _samples(params: list[str], kinds: dict[str, Kind]) -> Iterator[tuple[str, str]]:
    """(name, value) pairs to send. Every name gets every bad value worth trying on it,
    but of names that differ only by a number (a formset's rows, ``stack_<entry id>``)
    only the first does: the others get one each, in turn."""
    groups: dict[str, int] = {}
    for param in params:
        group = re.sub(r"[0-9]+", "#", param)
        turn = groups.get(group, 0)
        groups[group] = turn + 1
        sample = [v for v in BAD_VALUES if kinds[param].worth_trying(v)]
        if turn == 0:
            yield from ((param, value) for value in sample)
        else:
            yield param, sample[turn % len(sample)]
