"""A series' past brought in from a CSV file: one row per player's result in one event.

``results_import_preview`` reads the file and says what an import would do (events new or
found, players new or matched to one of the site's, results new or already there) and every
problem with its line and column; ``results_import_apply`` does it, in one transaction, only
when the file has no problem at all. The format is described in ``docs/import.md``; the
site's own results CSV (``series.exports``) is one such file.

Importing a file twice changes nothing the second time: an event is found by its season,
its date and its name (accents and case aside), a result by its event and player; a result
already there and equal is left, one that differs is a problem naming the line. An event
that already has results is not changed by an import: its results are corrected on its
corrections page, with a reason in its history.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import IO, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import amounts, csv_safe
from core.names import name_key
from series import event_sections
from series.models import GAME_NAME_MAX, Event, Player, Result, Season
from series.services.standings import standings_schedule
from series.td_nights import TDNight, td_night_key

# The largest file read. The page sends the file back with its confirmation as a form
# field, and Django refuses a form whose fields pass 2.5 MB (DATA_UPLOAD_MAX_MEMORY_SIZE):
# 2 MB is some 40,000 results, more than any home series has played.
IMPORT_MAX_BYTES = 2 * 1024 * 1024
# A count of rebuys, add-ons, re-entries or knockouts: the columns' own bound (smallint).
COUNT_MAX = 32_767
NAME_MAX = 100  # Event.name and Player.name
# When the night started, if the file gives only its date.
DEFAULT_START = time(20, 0)

REQUIRED = ("date", "event", "player", "place")
RESULT_BOUNDS = {
    "prize": amounts.PRIZE_MAX,
    "bounties": amounts.PRIZE_MAX,
    "paid_in": amounts.PRIZE_MAX,
    "knockouts": COUNT_MAX,
    "rebuys": COUNT_MAX,
    "addons": COUNT_MAX,
    "reentries": COUNT_MAX,
}
EVENT_BOUNDS = {"buy_in": amounts.MONEY_MAX, "fee": amounts.MONEY_MAX}
EVENT_FLAGS = ("counts", "points_only")
# Columns of money, read as people type amounts (``_amount``).
MONEY = ("buy_in", "fee", "prize", "bounties", "paid_in")
# Text kept on a new event, and its longest: not compared with an event found. A night of
# another game keeps that game's name (TD's Hold'em nights), shown instead of the site's.
EVENT_TEXT = {"notes": 1000, "game_name": GAME_NAME_MAX}
# The site's export writes these; the site computes them, so an import reads past them.
DERIVED = ("points", "net")
COLUMNS = (*REQUIRED, *EVENT_BOUNDS, *RESULT_BOUNDS, *EVENT_FLAGS, *EVENT_TEXT, *DERIVED)
# What a result is compared on when it is already on the site.
COMPARED = ("place", *RESULT_BOUNDS)
YES = {"yes": True, "y": True, "true": True, "1": True, "no": False, "n": False}
YES |= {"false": False, "0": False}
WHOLE = re.compile(r"[0-9]+")


class ResultsImportError(Exception):
    """An import refused: ``problems`` says what is wrong, line by line."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(str(problem) for problem in problems[:5]))
        self.problems = problems


@dataclass(frozen=True, order=True)
class Problem:
    """What is wrong with the file: at a line (0: the file as a whole) and a column."""

    line: int
    column: str
    message: str

    def __str__(self) -> str:
        if self.line and self.column:
            return _("Line %(line)s, column %(column)s: %(message)s") % {
                "line": self.line,
                "column": self.column,
                "message": self.message,
            }
        if self.line:
            return _("Line %(line)s: %(message)s") % {"line": self.line, "message": self.message}
        return self.message


@dataclass(frozen=True)
class Row:
    """One line of the file, read: a player's result in one event."""

    line: int
    day: date
    start: time | None
    event: str
    player: str
    place: int
    values: dict[str, int]  # the result's amounts the file gives
    event_values: dict[str, Any]  # buy_in, fee, counts, points_only, as far as given


@dataclass
class Person:
    """A name of the file (its spellings that differ only by accents or case are one
    person) and the site's players it may be."""

    key: str
    name: str
    candidates: list[Player]
    choice: Player | None  # None: a new guest
    rows: int = 0


@dataclass
class PlannedEvent:
    name: str
    day: date
    start: time | None
    line: int
    existing: Event | None
    values: dict[str, Any]
    rows: list[Row] = field(default_factory=list)
    new_results: int = 0
    unchanged: int = 0


@dataclass
class ImportPlan:
    """What an import of the file does, and what is wrong with it."""

    season: Season | None
    season_name: str
    events: list[PlannedEvent]
    people: list[Person]
    problems: list[Problem]
    # The nights of TD saves the file was made from, with their notes (``import_source_read``).
    nights: list[TDNight] = field(default_factory=list)
    skipped: list[TDNight] = field(default_factory=list)
    source_notes: list[str] = field(default_factory=list)
    formulas: list[tuple[str, Any]] = field(default_factory=list)  # TD's, and said here

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def ask_date_order(self) -> bool:
        """The file's dates read two ways: the director says which comes first."""
        return any(problem.column == DATES_AMBIGUOUS for problem in self.problems)

    @property
    def new_results(self) -> int:
        return sum(event.new_results for event in self.events)

    @property
    def unchanged(self) -> int:
        return sum(event.unchanged for event in self.events)

    @property
    def new_events(self) -> int:
        return sum(1 for event in self.events if event.existing is None)

    @property
    def new_players(self) -> int:
        return sum(1 for person in self.people if person.choice is None)

    @property
    def changes_nothing(self) -> bool:
        return self.valid and not self.new_results and self.season is not None


@dataclass(frozen=True)
class ImportOutcome:
    season: Season
    events_created: int
    players_created: int
    results_created: int
    unchanged: int
    # What other apps kept of the nights imported from TD (their blind structures).
    kept: list[str] = field(default_factory=list)


# -- reading the file ------------------------------------------------------------------------


def _bare(name: str) -> str:
    return name_key(name)[0]


def file_text(source: bytes | IO[bytes]) -> tuple[str, list[Problem]]:
    """The file's text, read from bytes or a stream, never more than ``IMPORT_MAX_BYTES``
    (a larger stream is not read to its end). UTF-8, with or without the byte-order mark a
    spreadsheet writes, else Windows-1252."""
    data = source if isinstance(source, bytes) else source.read(IMPORT_MAX_BYTES + 1)
    if len(data) > IMPORT_MAX_BYTES:
        return "", [
            Problem(
                0,
                "",
                _("The file is larger than %(size)s MB: split it into seasons.")
                % {"size": IMPORT_MAX_BYTES // (1024 * 1024)},
            )
        ]
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        try:
            # What a spreadsheet saves as plain "CSV" on Windows in Western Europe.
            return _no_nul(data.decode("cp1252"))
        except UnicodeDecodeError:
            pass
        line = data[: error.start].count(b"\n") + 1
        return "", [
            Problem(
                line,
                "",
                _(
                    "the file is neither UTF-8 nor Windows-1252 text. Save it as “CSV UTF-8” "
                    "(in a spreadsheet) or as UTF-8 (in a text editor)."
                ),
            )
        ]
    return _no_nul(text)


def _no_nul(text: str) -> tuple[str, list[Problem]]:
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        return "", [Problem(line, "", _("the file holds a NUL character: it is not a CSV file."))]
    return text, []


CURRENCY = re.compile(
    r"^[\s$€£¥₣]*(?:CHF|EUR|USD|GBP|SEK|kr|Fr\.?)?[\s$€£¥₣]*|[\s$€£¥₣]*(?:CHF|EUR|USD|GBP|SEK|kr|Fr\.?)?[\s$€£¥₣]*$"
)
THOUSANDS = re.compile(r"[0-9]{1,3}(?:[ \u00a0\u202f'.,][0-9]{3})+")


def _amount(text: str) -> str:
    """A money cell as people type it, made plain: its currency sign taken off (``20 €``,
    ``$1,234``), its thousands separators (a space, an apostrophe, a comma or a point
    before three digits) and a decimal part of zeros (``20,00``, ``20.00``) dropped. What
    is not such a number is left for ``_whole`` to refuse."""
    plain = CURRENCY.sub("", text.strip())
    sign = ""
    if plain.startswith("-"):
        sign, plain = "-", plain[1:].strip()
    decimals = re.fullmatch(r"(.*?)[.,]([0-9]{1,2})", plain)
    if decimals and not THOUSANDS.fullmatch(plain):
        if int(decimals[2]) != 0:
            return text  # not a whole amount: refused as it is
        plain = decimals[1]
    if THOUSANDS.fullmatch(plain):
        separators = {c for c in plain if not c.isdigit()}
        if len(separators) == 1:
            plain = "".join(c for c in plain if c.isdigit())
    return sign + plain


def _whole(text: str, column: str, line: int, bound: int, problems: list[Problem]) -> int | None:
    if column in MONEY:
        text = _amount(text)
    text = text.strip()
    if WHOLE.fullmatch(text):
        value = int(text)
        if value <= bound:
            return value
        problems.append(
            Problem(
                line,
                column,
                _("%(value)s is too large: at most %(limit)s.")
                % {"value": text, "limit": amounts.number(bound)},
            )
        )
        return None
    if text.startswith("-") and WHOLE.fullmatch(text[1:]):
        message = _("%(value)s is negative: amounts and counts are 0 or more.") % {"value": text}
    else:
        message = _("“%(value)s” is not a whole number.") % {"value": text[:40]}
    problems.append(Problem(line, column, message))
    return None


DAY_FIRST, MONTH_FIRST = "dmy", "mdy"
DATE_ORDERS = (DAY_FIRST, MONTH_FIRST)
# 12/09/2025, 12.09.2025 or 12-09-2025 (or 25 for 2025), maybe with a time: 20:00 or 20h00.
TYPED_DATE = re.compile(
    r"([0-9]{1,2})[/.-]([0-9]{1,2})[/.-]([0-9]{4}|[0-9]{2})(?:[ T]+([0-9]{1,2})[:hH]([0-9]{2}))?"
)
# The column of the problem that asks which comes first, the day or the month.
DATES_AMBIGUOUS = "dates"


def _date_order(texts: list[str], given: str, problems: list[Problem]) -> str:
    """Whether the file's typed dates put the day or the month first: ``given`` when the
    director said it, else what a part above 12 shows; a file where every date reads both
    ways is a problem that asks."""
    if given in DATE_ORDERS:
        return given
    day_first = month_first = False
    example = ""
    for text in texts:
        match = TYPED_DATE.fullmatch(text.strip())
        if match is None:
            continue
        example = example or text.strip()
        if int(match[1]) > 12:
            day_first = True
        if int(match[2]) > 12:
            month_first = True
    if day_first and not month_first:
        return DAY_FIRST
    if month_first and not day_first:
        return MONTH_FIRST
    if example:
        problems.append(
            Problem(
                0,
                DATES_AMBIGUOUS,
                _(
                    "The dates can be read two ways (is %(example)s day/month or month/day?): "
                    "say which comes first."
                )
                % {"example": example[:20]},
            )
        )
    return ""


def _when(
    text: str, line: int, problems: list[Problem], order: str = ""
) -> tuple[date, time | None] | None:
    text = text.strip()
    typed = TYPED_DATE.fullmatch(text)
    try:
        if typed is not None:
            if not order:
                return None  # the file's problem asks the order
            first, second, year = int(typed[1]), int(typed[2]), int(typed[3])
            day, month = (first, second) if order == DAY_FIRST else (second, first)
            year = year + 2000 if year < 100 else year
            start = time(int(typed[4]), int(typed[5])) if typed[4] else None
            return date(year, month, day), start
        if len(text) == 10:
            return date.fromisoformat(text), None
        moment = datetime.fromisoformat(text)
    except ValueError:
        problems.append(
            Problem(
                line,
                "date",
                _("“%(value)s” is not a date: write it as 2025-03-14 (or 2025-03-14 20:00).")
                % {"value": text[:40]},
            )
        )
        return None
    return moment.date(), moment.time().replace(tzinfo=None)


def _name(text: str, column: str, line: int, problems: list[Problem]) -> str | None:
    name = " ".join(csv_safe.unguard(text.strip()).split())
    if not name:
        problems.append(Problem(line, column, _("the name is empty.")))
        return None
    if len(name) > NAME_MAX:
        problems.append(
            Problem(
                line,
                column,
                _("the name is longer than %(count)s characters.") % {"count": NAME_MAX},
            )
        )
        return None
    return name


IGNORE = "ignore"


def csv_delimiter(text: str) -> str:
    """The separator of the file's columns: a comma, a semicolon (what a French or German
    spreadsheet writes) or a tab, whichever its first line has most of."""
    first = text.split("\n", 1)[0]
    counts = {delimiter: first.count(delimiter) for delimiter in (",", ";", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def csv_rows(text: str, limit: int) -> list[list[str]]:
    """The file's first ``limit`` rows (its header first), for the mapping step."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=csv_delimiter(text))
    rows: list[list[str]] = []
    try:
        for cells in reader:
            rows.append(cells)
            if len(rows) >= limit:
                break
    except csv.Error:
        pass
    return rows


def _header(
    cells: list[str], problems: list[Problem], mapping: Mapping[str, str] | None = None
) -> list[str]:
    mapping = {" ".join(k.split()).lower(): v for k, v in (mapping or {}).items()}
    header = []
    for cell in cells:
        own = " ".join(csv_safe.unguard(cell.strip()).split()).lower()
        header.append(mapping.get(own, own))
    seen: set[str] = set()
    for name in header:
        if name == IGNORE:
            continue
        if name not in COLUMNS:
            problems.append(
                Problem(
                    1,
                    name or "?",
                    _(
                        "unknown column “%(name)s”. The columns are: %(columns)s. Map it to "
                        "one of them, or ignore it."
                    )
                    % {"name": name[:40], "columns": ", ".join(COLUMNS)},
                )
            )
        elif name in seen:
            problems.append(Problem(1, name, _("this column is there twice.")))
        seen.add(name)
    for name in REQUIRED:
        if name not in seen:
            problems.append(Problem(1, name, _("the column is missing: it is required.")))
    return header


def results_file_read(
    text: str, mapping: Mapping[str, str] | None = None, date_order: str = ""
) -> tuple[list[Row], list[Problem], set[tuple[date, str]]]:
    """The file's rows, what is wrong with them, and the events (date, name key) of rows
    left out for a problem, whose places are then not checked (nothing read from the
    database). ``mapping`` names the column of the site each of the file's own headers is
    (or ``IGNORE``); ``date_order`` says whether typed dates (12/09/2025) put the day or
    the month first, when the file cannot tell."""
    problems: list[Problem] = []
    broken: set[tuple[date, str]] = set()
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=csv_delimiter(text))
    try:
        first = next(reader, None)
        if first is None:
            return [], [Problem(0, "", _("The file is empty."))], broken
        header = _header(first, problems, mapping)
        if problems:
            return [], problems, broken
        lines = []
        for cells in reader:
            if any(cell.strip() for cell in cells):
                lines.append((reader.line_num, cells))
        at = header.index("date")
        order = _date_order(
            [cells[at] for _line, cells in lines if len(cells) > at], date_order, problems
        )
        if problems:
            return [], problems, broken
        rows = []
        for line, cells in lines:
            row = _row(line, header, cells, problems, broken, order)
            if row is not None:
                rows.append(row)
    except csv.Error as error:
        problems.append(
            Problem(reader.line_num, "", _("unreadable CSV (%(error)s).") % {"error": error})
        )
        return [], problems, broken
    if not rows and not problems:
        problems.append(Problem(0, "", _("The file has a header but no results.")))
    return rows, problems, broken


def _row(
    line: int,
    header: list[str],
    cells: list[str],
    problems: list[Problem],
    broken: set[tuple[date, str]],
    order: str = "",
) -> Row | None:
    if len(cells) != len(header):
        problems.append(
            Problem(
                line,
                "",
                _("%(cells)s cells, but the header has %(columns)s columns.")
                % {"cells": len(cells), "columns": len(header)},
            )
        )
        return None
    given = dict(zip(header, cells, strict=True))
    before = len(problems)
    when = _when(given["date"], line, problems, order)
    event = _name(given["event"], "event", line, problems)
    player = _name(given["player"], "player", line, problems)
    place = None
    if given["place"].strip():
        place = _whole(given["place"], "place", line, COUNT_MAX, problems)
        if place == 0:
            problems.append(Problem(line, "place", _("places start at 1.")))
    else:
        problems.append(Problem(line, "place", _("the place is empty.")))
    values: dict[str, int] = {}
    for name, bound in RESULT_BOUNDS.items():
        if name in given and given[name].strip():
            value = _whole(given[name], name, line, bound, problems)
            if value is not None:
                values[name] = value
    event_values: dict[str, Any] = {}
    for name, bound in EVENT_BOUNDS.items():
        if name in given and given[name].strip():
            value = _whole(given[name], name, line, bound, problems)
            if value is not None:
                event_values[name] = value
    for name in EVENT_FLAGS:
        if name in given and given[name].strip():
            flag = YES.get(given[name].strip().lower())
            if flag is None:
                problems.append(
                    Problem(
                        line,
                        name,
                        _("“%(value)s” is neither yes nor no.") % {"value": given[name][:40]},
                    )
                )
            else:
                event_values[name] = flag
    for name, longest in EVENT_TEXT.items():
        if name in given and given[name].strip():
            event_values[name] = " ".join(csv_safe.unguard(given[name].strip()).split())[:longest]
    if len(problems) > before or when is None or event is None or player is None or not place:
        if when is not None and event is not None:
            broken.add((when[0], _bare(event)))
        return None
    return Row(line, when[0], when[1], event, player, place, values, event_values)


# -- what an import does ---------------------------------------------------------------------


def _season(season_id: int | None, season_name: str, problems: list[Problem]) -> Season | None:
    if season_id is not None:
        season = Season.objects.filter(pk=season_id).first()
        if season is None:
            problems.append(Problem(0, "", _("No season with id %(id)s.") % {"id": season_id}))
        return season
    name = " ".join(season_name.split())
    if not name:
        problems.append(Problem(0, "", _("Choose a season, or name a new one.")))
        return None
    return Season.objects.filter(name=name).order_by("pk").first()


def _people(
    rows: list[Row], choices: Mapping[str, int | None], problems: list[Problem]
) -> list[Person]:
    people: dict[str, Person] = {}
    for row in rows:
        key = _bare(row.player)
        if key not in people:
            people[key] = Person(key, row.player, [], None)
        people[key].rows += 1
    by_key: dict[str, list[Player]] = {}
    for player in Player.objects.only("pk", "name", "user_id"):
        key = _bare(player.name)
        if key in people:
            by_key.setdefault(key, []).append(player)
    for key, person in people.items():
        # The same spelling first, then as a reader orders names.
        found = sorted(
            by_key.get(key, []), key=lambda p: (p.name != person.name, name_key(p.name), p.pk)
        )
        person.candidates = found
        if key in choices:
            chosen = choices[key]
            if chosen is None:
                person.choice = None
            else:
                person.choice = next((p for p in found if p.pk == chosen), None)
                if person.choice is None:
                    problems.append(
                        Problem(
                            0,
                            "player",
                            _("%(name)s: the player chosen is not one of those offered.")
                            % {"name": person.name},
                        )
                    )
        else:
            person.choice = found[0] if found else None
    return list(people.values())


def _events(season: Season | None, rows: list[Row], problems: list[Problem]) -> list[PlannedEvent]:
    found: dict[tuple[date, str], Event] = {}
    if season is not None:
        for event in Event.objects.filter(season=season).order_by("starts_at", "pk"):
            found.setdefault((timezone.localdate(event.starts_at), _bare(event.name)), event)
    planned: dict[tuple[date, str], PlannedEvent] = {}
    for row in rows:
        key = (row.day, _bare(row.event))
        event = planned.get(key)
        if event is None:
            event = planned[key] = PlannedEvent(
                row.event, row.day, row.start, row.line, found.get(key), dict(row.event_values)
            )
        else:
            for name, value in row.event_values.items():
                if event.values.setdefault(name, value) != value:
                    problems.append(
                        Problem(
                            row.line,
                            name,
                            _("%(value)s, but %(other)s on line %(line)s for the same event.")
                            % {
                                "value": _shown(value),
                                "other": _shown(event.values[name]),
                                "line": event.line,
                            },
                        )
                    )
        event.rows.append(row)
    return list(planned.values())


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


def _paid_in(row: Row, event: PlannedEvent) -> int:
    """What the player paid when the file does not say: each entry's buy-in and fee, and
    each rebuy and add-on at the buy-in's price; nothing at a points-only event."""
    if "paid_in" in row.values:
        return row.values["paid_in"]
    if event.values.get("points_only", False):
        return 0
    buy_in = event.values.get("buy_in", 0)
    entries = 1 + row.values.get("reentries", 0)
    extras = row.values.get("rebuys", 0) + row.values.get("addons", 0)
    return (buy_in + event.values.get("fee", 0)) * entries + buy_in * extras


def _result_values(row: Row, event: PlannedEvent) -> dict[str, int]:
    values = {name: row.values.get(name, 0) for name in RESULT_BOUNDS}
    values["paid_in"] = _paid_in(row, event)
    return {"place": row.place, **values}


def _check_event(
    event: PlannedEvent,
    people: dict[str, Person],
    existing_only: bool,
    season: Season | None,
    complete: bool,
    problems: list[Problem],
) -> None:
    if event.existing is None and existing_only:
        problems.append(
            Problem(
                event.line,
                "event",
                _(
                    "no event “%(event)s” on %(date)s in %(season)s, and this import only adds "
                    "results to events already on the site."
                )
                % {"event": event.name, "date": event.day.isoformat(), "season": season or "?"},
            )
        )
        return
    if event.existing is not None:
        own = {
            "buy_in": event.existing.buy_in,
            "fee": event.existing.fee,
            "counts": event.existing.counts,
            "points_only": event.existing.points_only,
        }
        for name, value in event.values.items():
            if name in own and own[name] != value:
                problems.append(
                    Problem(
                        event.line,
                        name,
                        _("%(value)s, but %(event)s has %(own)s on the site.")
                        % {"value": _shown(value), "event": event.name, "own": _shown(own[name])},
                    )
                )
        event.values = own
    seen: dict[str, int] = {}
    for row in event.rows:
        key = _bare(row.player)
        if key in seen:
            problems.append(
                Problem(
                    row.line,
                    "player",
                    _("%(player)s is on line %(line)s already: one result per player and event.")
                    % {"player": row.player, "line": seen[key]},
                )
            )
        seen.setdefault(key, row.line)
        if row.values.get("paid_in") is None and _paid_in(row, event) > amounts.PRIZE_MAX:
            problems.append(
                Problem(row.line, "paid_in", _("what the player paid in is too large."))
            )
    stored = (
        {result.player_id: result for result in event.existing.results.all()}
        if event.existing is not None
        else {}
    )
    if stored:
        _check_against_site(event, stored, people, problems)
    else:
        if complete:
            _check_places(event, problems)
        event.new_results = len(event.rows)


def _check_against_site(
    event: PlannedEvent,
    stored: dict[int, Result],
    people: dict[str, Person],
    problems: list[Problem],
) -> None:
    """An event that has its results on the site: the file may repeat them, not change them."""
    for row in event.rows:
        person = people[_bare(row.player)]
        result = stored.get(person.choice.pk) if person.choice is not None else None
        if result is None:
            problems.append(
                Problem(
                    row.line,
                    "player",
                    _(
                        "%(event)s already has its results, and %(player)s is not among them: "
                        "correct the event on its corrections page."
                    )
                    % {"event": event.name, "player": row.player},
                )
            )
            continue
        wanted = _result_values(row, event)
        differ = [
            _("%(field)s %(site)s on the site, %(file)s in the file")
            % {"field": name, "site": getattr(result, name), "file": wanted[name]}
            for name in COMPARED
            if (name == "place" or name in row.values) and getattr(result, name) != wanted[name]
        ]
        if differ:
            problems.append(
                Problem(
                    row.line,
                    "",
                    _("%(player)s's result in %(event)s differs from the site's: %(diff)s.")
                    % {"player": row.player, "event": event.name, "diff": "; ".join(differ)},
                )
            )
        else:
            event.unchanged += 1


def _check_places(event: PlannedEvent, problems: list[Problem]) -> None:
    """The places form a ranking of the field: 1 to the number of players, a place shared by
    ``c`` players making the next place ``k + c`` (as on the corrections page)."""
    field_size = len(event.rows)
    inside = []
    for row in event.rows:
        if row.place > field_size:
            problems.append(
                Problem(
                    row.line,
                    "place",
                    _(
                        "place %(place)s is outside the field: %(event)s has %(field)s players "
                        "in the file, so the places run from 1 to %(field)s."
                    )
                    % {"place": row.place, "event": event.name, "field": field_size},
                )
            )
        else:
            inside.append(row)
    if len(inside) < field_size:
        return
    by_place: dict[int, list[Row]] = {}
    for row in sorted(inside, key=lambda r: (r.place, r.line)):
        by_place.setdefault(row.place, []).append(row)
    expected = 1
    for place, rows in sorted(by_place.items()):
        if place > expected:
            problems.append(
                Problem(
                    rows[0].line,
                    "place",
                    _("nobody in %(event)s has place %(missing)s, the next place is %(place)s.")
                    % {"event": event.name, "missing": expected, "place": place},
                )
            )
            return
        if place < expected:
            problems.append(
                Problem(
                    rows[0].line,
                    "place",
                    _(
                        "place %(place)s follows a shared place in %(event)s: players sharing a "
                        "place make the next place skip, so it is %(next)s."
                    )
                    % {"place": place, "event": event.name, "next": expected},
                )
            )
            return
        expected = place + len(rows)


def results_import_preview(
    source: bytes | IO[bytes] | str,
    *,
    season_id: int | None = None,
    season_name: str = "",
    existing_events_only: bool = False,
    choices: Mapping[str, int | None] | None = None,
    mapping: Mapping[str, str] | None = None,
    date_order: str = "",
) -> ImportPlan:
    """What importing ``source`` (the file's bytes or stream, or its text) does, without
    writing anything. ``choices`` maps a person's key (``Person.key``) to the player they
    are (a player id among ``Person.candidates``) or to ``None``, a new guest; a person not
    in it is the candidate with their exact name, or the first one, or a new guest."""
    if isinstance(source, str):
        text, problems = source, []
    else:
        text, problems = file_text(source)
    season = _season(season_id, season_name, problems)
    name = season.name if season is not None else " ".join(season_name.split())
    if problems:
        return ImportPlan(season, name, [], [], sorted(problems))
    rows, problems, broken = results_file_read(text, mapping, date_order)
    people = _people(rows, choices or {}, problems)
    events = _events(season, rows, problems)
    by_key = {person.key: person for person in people}
    for event in events:
        complete = (event.day, _bare(event.name)) not in broken
        _check_event(event, by_key, existing_events_only, season, complete, problems)
    return ImportPlan(season, name, events, people, sorted(set(problems)))


def _starts_at(event: PlannedEvent) -> datetime:
    return timezone.make_aware(
        datetime.combine(event.day, event.start or DEFAULT_START),
        timezone.get_current_timezone(),
    )


def results_import_apply(
    source: bytes | IO[bytes] | str,
    *,
    season_id: int | None = None,
    season_name: str = "",
    existing_events_only: bool = False,
    choices: Mapping[str, int | None] | None = None,
    mapping: Mapping[str, str] | None = None,
    date_order: str = "",
    levels: Mapping[str, list[dict[str, Any]]] | None = None,
    by: Any = None,
) -> ImportOutcome:
    """Import ``source`` as ``results_import_preview`` shows it, all or nothing.

    Raises ``ResultsImportError`` (and writes nothing) when the file has any problem. The
    season's standings are recomputed after the commit. ``levels`` are the levels of TD's
    nights the source was made from (``series.td_nights.td_levels_of``): those of each
    night imported anew are offered to the other apps (``series.event_sections.levels_keep``),
    in the same transaction.
    """
    with transaction.atomic():
        if season_id is not None:
            # Two imports into one season take turns: the second finds the first's events.
            Season.objects.select_for_update().filter(pk=season_id).first()
        plan = results_import_preview(
            source,
            season_id=season_id,
            season_name=season_name,
            existing_events_only=existing_events_only,
            choices=choices,
            mapping=mapping,
            date_order=date_order,
        )
        if plan.problems:
            raise ResultsImportError(plan.problems)
        season = plan.season
        if season is None:
            days = [event.day for event in plan.events]
            season = Season.objects.create(
                name=plan.season_name[:NAME_MAX], starts_on=min(days), ends_on=max(days)
            )
        players, created_players = _players_of(plan)
        results = []
        created_events = 0
        kept: list[str] = []
        for planned in plan.events:
            event = planned.existing
            if event is None:
                night_levels = (levels or {}).get(td_night_key(planned.day, planned.name))
                if night_levels:
                    name = f"{planned.name} {planned.day.isoformat()}"
                    kept += event_sections.levels_keep(name, night_levels, by)
                event = _event_create(season, planned)
                created_events += 1
            elif planned.new_results and event.finished_at is None:
                event.finished_at = _starts_at(planned)
                event.save(update_fields=["finished_at"])
            if planned.new_results:
                results.extend(
                    Result(
                        event=event,
                        player=players[_bare(row.player)],
                        **_result_values(row, planned),
                    )
                    for row in planned.rows
                )
        Result.objects.bulk_create(results)
        if results:
            standings_schedule(season.pk)
    return ImportOutcome(
        season, created_events, created_players, len(results), plan.unchanged, kept
    )


def _players_of(plan: ImportPlan) -> tuple[dict[str, Player], int]:
    """The player each person of the file is, by their key (new ones created), and how many
    were created."""
    players: dict[str, Player] = {}
    created = 0
    for person in plan.people:
        if person.choice is None:
            person.choice = Player.objects.create(name=person.name)
            created += 1
        players[person.key] = person.choice
    return players, created


def _event_create(season: Season, planned: PlannedEvent) -> Event:
    """A night of the file that the season does not have yet."""
    starts_at = _starts_at(planned)
    return Event.objects.create(
        season=season,
        name=planned.name,
        starts_at=starts_at,
        buy_in=planned.values.get("buy_in", 0),
        fee=planned.values.get("fee", 0),
        counts=planned.values.get("counts", True),
        points_only=planned.values.get("points_only", False),
        notes=planned.values.get("notes", ""),
        game_name=planned.values.get("game_name", ""),
        # The file does not say when the night ended.
        finished_at=starts_at,
    )
