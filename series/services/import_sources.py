"""The files an import is given, read into the one thing an import reads: the site's
results CSV (``series.services.imports``).

A CSV file is taken as it is. The Tournament Director's saves (``.tdt``), one or many, in a
folder or a ``.zip``, are read (``series.tdt``, never run), each night turned into rows
(``series.td_nights``), and the nights written as one CSV: the preview, the dry run, the
transaction and the second import that changes nothing are then the CSV's.

Real saves are untidy, and what is done about it is said, night by night: a night saved
twice (the same TD tournament id in two files) is read from its later save; a night with
nobody bought in is skipped with a line; a file that is not a save is refused with its name.
"""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import PurePosixPath

from django.utils.translation import gettext as _

from series import tdt
from series.services.imports import IMPORT_MAX_BYTES, Problem, file_text
from series.td_nights import TDNight, td_night, td_night_key, td_nights_csv
from series.tdt import TDFileError

# A .zip's bounds: its members, and their size once expanded (read with a limit, whatever
# the archive claims).
ZIP_MAX_MEMBERS = 1000
ZIP_MAX_BYTES = 128 * 1024 * 1024
ZIP_MAGIC = b"PK\x03\x04"


@dataclass
class ImportSource:
    """What the files hold, as the import reads it."""

    text: str = ""  # the results CSV
    nights: list[TDNight] = field(default_factory=list)  # TD's, in date order
    skipped: list[TDNight] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # about the files as a whole
    problems: list[Problem] = field(default_factory=list)

    @property
    def is_td(self) -> bool:
        return bool(self.nights or self.skipped)

    @property
    def season_names(self) -> list[str]:
        """TD's league and season names of the nights, each once."""
        names: list[str] = []
        for night in self.nights:
            if night.season_label and night.season_label not in names:
                names.append(night.season_label)
        return names

    @property
    def formulas(self) -> list[str]:
        found: list[str] = []
        for night in self.nights:
            if night.formula and night.formula not in found:
                found.append(night.formula)
        return found


def is_td_save(name: str, data: bytes) -> bool:
    stripped = data[:64].lstrip(b"\xef\xbb\xbf \t\r\n")
    return ".tdt" in name.lower() or stripped.startswith(b"{ V:") or stripped.startswith(b"{V:")


XLSX_MAX_ROWS = 50_000
XLSX_MAX_COLUMNS = 60
XLSX_MAX_BYTES = 64 * 1024 * 1024


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return (
            value.strftime("%Y-%m-%d %H:%M")
            if value.time() != time(0)
            else value.date().isoformat()
        )
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def xlsx_text(name: str, data: bytes, problems: list[Problem]) -> str:
    """The first sheet of a spreadsheet (.xlsx) as CSV text: read-only, values only (a
    formula's last computed value, never the formula), bounded in rows, columns and size."""
    unreadable = Problem(0, "", _("%(name)s: not a readable .xlsx file.") % {"name": name})
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if sum(info.file_size for info in archive.infolist()) > XLSX_MAX_BYTES:
                problems.append(
                    Problem(
                        0,
                        "",
                        _("%(name)s expands to more than %(size)s MB: split it.")
                        % {"name": name, "size": XLSX_MAX_BYTES // (1024 * 1024)},
                    )
                )
                return ""
        import openpyxl  # noqa: PLC0415 - a tenth of a second to import: when a sheet comes

        book = openpyxl.load_workbook(
            io.BytesIO(data), read_only=True, data_only=True, keep_links=False
        )
    except Exception:  # openpyxl raises many kinds on a broken file
        problems.append(unreadable)
        return ""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    try:
        sheet = book.worksheets[0]
        for number, row in enumerate(sheet.iter_rows(values_only=True), start=1):
            if number > XLSX_MAX_ROWS:
                problems.append(
                    Problem(
                        0,
                        "",
                        _("%(name)s has more than %(count)s rows: split it into seasons.")
                        % {"name": name, "count": XLSX_MAX_ROWS},
                    )
                )
                return ""
            cells = [_cell(value) for value in row[:XLSX_MAX_COLUMNS]]
            while cells and cells[-1] == "":
                cells.pop()
            writer.writerow(cells)
    except Exception:
        problems.append(unreadable)
        return ""
    finally:
        book.close()
    return out.getvalue()


def _expand(name: str, data: bytes, problems: list[Problem]) -> list[tuple[str, bytes]]:
    """A .zip's files (its folders walked), or the file itself."""
    if not data.startswith(ZIP_MAGIC):
        return [(name, data)]
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = [info for info in archive.infolist() if not info.is_dir()]
    except (zipfile.BadZipFile, OSError, ValueError):
        problems.append(Problem(0, "", _("%(name)s: not a readable .zip file.") % {"name": name}))
        return []
    if len(members) > ZIP_MAX_MEMBERS:
        problems.append(
            Problem(
                0,
                "",
                _("%(name)s holds more than %(count)s files: split it.")
                % {"name": name, "count": ZIP_MAX_MEMBERS},
            )
        )
        return []
    files: list[tuple[str, bytes]] = []
    total = 0
    for info in members:
        inner = PurePosixPath(info.filename).name
        if inner.startswith(".") or "__MACOSX" in info.filename:
            continue
        try:
            with archive.open(info) as member:
                content = member.read(tdt.MAX_BYTES + 1)
        except (zipfile.BadZipFile, OSError, NotImplementedError, RuntimeError, ValueError):
            problems.append(
                Problem(0, "", _("%(name)s: a file of it cannot be read.") % {"name": name})
            )
            return []
        total += len(content)
        if len(content) > tdt.MAX_BYTES or total > ZIP_MAX_BYTES:
            problems.append(
                Problem(
                    0,
                    "",
                    _("%(name)s expands to more than %(size)s MB: split it.")
                    % {"name": name, "size": ZIP_MAX_BYTES // (1024 * 1024)},
                )
            )
            return []
        files.append((f"{name}/{info.filename}", content))
    return files


def _same_title_and_day(latest: dict[str, TDNight], source: ImportSource) -> None:
    """Nights of the same title and day held by TD under several tournament ids: one event
    of the site would hold every player twice. A save of it never started (the buy-ins
    taken, the clock not) is an earlier state of the night that did start: it is left out.
    Nights that started at different times are different tournaments of one day (a host
    who did not rename the copy): each is its own event, the later ones named "(2)", "(3)".
    Two saves that started at the same time, or neither: the later save is read."""
    groups: dict[str, list[TDNight]] = {}
    for night in latest.values():
        if not night.skipped and night.day is not None:
            groups.setdefault(td_night_key(night.day, night.title), []).append(night)
    for nights in groups.values():
        if len(nights) < 2:
            continue
        started = [night for night in nights if night.starts_at is not None]
        kept: list[TDNight] = []
        for night in sorted(started or nights, key=lambda n: (n.starts_at or 0, n.saved_at)):
            if kept and kept[-1].starts_at == night.starts_at:
                kept[-1] = night  # the same start: the later save
            else:
                kept.append(night)
        for night in nights:
            if night not in kept:
                del latest[night.uuid]
                source.notes.append(
                    _(
                        "%(title)s of %(day)s is also saved as another of TD's tournaments, in "
                        "%(earlier)s: that save is an earlier state of the night, left out."
                    )
                    % {"title": night.title, "day": night.day, "earlier": night.source}
                )
        for number, night in enumerate(kept[1:], start=2):
            title = night.title
            night.title = f"{title} ({number})"
            source.notes.append(
                _(
                    "%(title)s of %(day)s is the name of %(count)s of TD's tournaments that "
                    "started at different times: %(file)s is imported as “%(name)s”."
                )
                % {
                    "title": title,
                    "day": night.day,
                    "count": len(kept),
                    "file": night.source,
                    "name": night.title,
                }
            )


def import_source_read(files: list[tuple[str, bytes]]) -> ImportSource:
    """What ``files`` (name and content of each) hold: one CSV, or TD saves (and .zip files
    of them)."""
    source = ImportSource()
    problems = source.problems
    expanded: list[tuple[str, bytes]] = []
    for name, data in files:
        if name.lower().endswith(".xlsx"):
            if len(files) > 1:
                problems.append(Problem(0, "", _("Give one spreadsheet at a time.")))
                return source
            if len(data) > IMPORT_MAX_BYTES:
                problems.append(problem_too_large())
                return source
            source.text = xlsx_text(name, data, problems)
            return source
        expanded.extend(_expand(name, data, problems))
    saves: list[tuple[str, bytes]] = []
    others: list[tuple[str, bytes]] = []
    for name, data in expanded:
        (saves if is_td_save(name, data) else others).append((name, data))
    if others and (saves or len(others) > 1):
        problems.append(
            Problem(
                0,
                "",
                _(
                    "Give one CSV file, or TD saves (.tdt, one or many, or a .zip of them), "
                    "not %(name)s with them."
                )
                % {"name": others[0][0]},
            )
        )
        return source
    if others:
        name, data = others[0]
        if len(data) > IMPORT_MAX_BYTES:
            problems.append(problem_too_large())
            return source
        source.text, more = file_text(data)
        problems.extend(more)
        return source
    if not saves:
        problems.append(Problem(0, "", _("No file to import.")))
        return source
    _saves_read(saves, source)
    source.text = td_nights_csv(source.nights)
    return source


def problem_too_large() -> Problem:
    """The problem of a file over the import's size limit."""
    return Problem(
        0,
        "",
        _("The file is larger than %(size)s MB: split it into seasons.")
        % {"size": IMPORT_MAX_BYTES // (1024 * 1024)},
    )


def _saves_read(saves: list[tuple[str, bytes]], source: ImportSource) -> None:
    """The nights of TD ``saves`` into ``source``: each night once (the latest of its saves),
    in date order, those that cannot be imported apart with why."""
    problems = source.problems
    latest: dict[str, TDNight] = {}
    for name, data in saves:
        try:
            night = td_night(tdt.tdt_parse(tdt.tdt_decode(data)), name)
        except TDFileError as error:
            problems.append(Problem(0, "", f"{name}: {error}"))
            continue
        kept = latest.get(night.uuid)
        if kept is None:
            latest[night.uuid] = night
            continue
        later, earlier = (night, kept) if night.saved_at >= kept.saved_at else (kept, night)
        latest[night.uuid] = later
        source.notes.append(
            _(
                "%(title)s is saved in %(earlier)s and %(later)s: the later save, %(later)s, is read."
            )
            % {"title": later.title, "earlier": earlier.source, "later": later.source}
        )
    _same_title_and_day(latest, source)
    nights = sorted(
        latest.values(),
        key=lambda n: (n.day is None, n.day, n.starts_at is None, n.starts_at, n.title),
    )
    source.nights = [night for night in nights if not night.skipped]
    source.skipped = [night for night in nights if night.skipped]
    if not source.nights and not problems:
        problems.append(Problem(0, "", _("No night of these saves can be imported.")))
        problems.extend(Problem(0, "", f"{n.source}: {n.skipped}") for n in source.skipped)
