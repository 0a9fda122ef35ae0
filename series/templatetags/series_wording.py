"""Amounts and names as the reader's language writes them in a sentence.

``{{ n|chip_count }}`` "10,000 chips" / "10 000 jetons" / "0 jeton"; ``{{ n|money }}`` and
``{{ n|grouped }}`` "10,000" / "10 000" (``core.amounts``); ``{% if name|elides %}`` picks
the message in the context "name starting with a vowel sound", which French translates with
"d’" (``series.elision``). An empty value ("–") passes through, as a missing stack shows.
"""

from __future__ import annotations

from typing import Any

from django import template

from core import amounts
from series import elision, selectors

register = template.Library()


def _whole(value: Any) -> int | None:
    if value is None or value == "" or isinstance(value, bool):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@register.filter
def grouped(value: Any) -> Any:
    number = _whole(value)
    return value if number is None else amounts.number(number)


@register.filter
def money(value: Any) -> Any:
    number = _whole(value)
    return value if number is None else amounts.money(number)


@register.filter
def chip_count(value: Any) -> Any:
    number = _whole(value)
    return value if number is None else amounts.chips(number)


@register.filter
def elides(name: Any) -> bool:
    return elision.elides(str(name or ""))


@register.filter
def name_shown(name: Any) -> str:
    """A person's name as other people read it: never an e-mail address
    (``series.selectors.name_shown``)."""
    return selectors.name_shown(str(name))
