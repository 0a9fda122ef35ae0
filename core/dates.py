"""Dates as the reader's language writes them, beyond what a format string can say.

French writes the first day of a month as an ordinal: "1er janvier", "ven. 1er janv."
(every other day is a plain number). Django's formats have no letter for it, so a date
already formatted is mended: the day 1 right before a month's name becomes "1er".

>>> from datetime import date
>>> from django.utils import translation
>>> with translation.override("fr"):
...     first_of_month("1 janv. 2027", date(2027, 1, 1))
'1er janv. 2027'
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import get_language

# The day 1 just before a French month's name, in full or short ("janvier", "janv.").
_FRENCH_FIRST = re.compile(
    r"(?<![\d])1(?=[ \u00a0](?:janv|févr|mars|avr|mai|juin|juil|août|sept|oct|nov|déc))"
)


def first_of_month(text: str, value: Any) -> str:
    """``text`` (``value`` formatted) with the first of the month as the language says it."""
    if getattr(value, "day", None) != 1 or not (get_language() or "").startswith("fr"):
        return text
    return _FRENCH_FIRST.sub("1er", text, count=1)
