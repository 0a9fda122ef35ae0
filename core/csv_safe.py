"""CSV the site writes, safe to open in a spreadsheet.

A spreadsheet runs a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a formula (and
some treat a leading tab or carriage return the same way), so a player who calls themselves
``=HYPERLINK("http://x","y")`` would put a live link, or worse, in the director's
spreadsheet. OWASP's advice: start such a cell with an apostrophe, which the spreadsheet
shows as text. Only text is guarded: numbers are written as numbers (a net of -20 stays
the number -20), so a program reading the file finds what it always found.

Every CSV writer of the site goes through ``writer``; the importer undoes the guard with
``unguard`` so a file exported here imports back as it was.

>>> import io
>>> out = io.StringIO()
>>> writer(out, lineterminator="\\n").writerow(["=1+1", -20, "Ann"])  # the characters written
14
>>> out.getvalue()
"'=1+1,-20,Ann\\n"
>>> unguard("'=1+1")
'=1+1'
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Any

# The first characters a spreadsheet reads as the start of a formula (OWASP: CSV injection).
TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    """``value`` as it is written: text that would start a formula gets an apostrophe."""
    if isinstance(value, str) and value[:1] in TRIGGERS:
        return "'" + value
    return value


def unguard(text: str) -> str:
    """The text a guarded cell stood for: the apostrophe ``cell`` added, taken off."""
    if text[:1] == "'" and text[1:2] in TRIGGERS and text[1:2]:
        return text[1:]
    return text


class SafeWriter:
    """``csv.writer``'s ``writerow``/``writerows``, with every text cell guarded."""

    def __init__(self, file: Any, **kwargs: Any) -> None:
        self._writer = csv.writer(file, **kwargs)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([cell(value) for value in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def writer(file: Any, **kwargs: Any) -> SafeWriter:
    """A CSV writer on ``file`` (the arguments of ``csv.writer``) that guards text cells."""
    return SafeWriter(file, **kwargs)
