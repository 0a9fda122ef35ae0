"""Django's ``date`` filter, then the first of the month as the language writes it
(``core.dates``: "1er janv." in French). A builtin of the templates (settings.TEMPLATES), so
every page's dates follow without loading anything."""

from __future__ import annotations

from typing import Any

from django import template
from django.template import defaultfilters

from core.dates import first_of_month

register = template.Library()


@register.filter(expects_localtime=True, is_safe=False)
def date(value: Any, arg: str | None = None) -> str:
    return first_of_month(defaultfilters.date(value, arg), value)
