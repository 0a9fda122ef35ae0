"""Links to series pages that another branch of the work may not have added yet.

A player's name links to their profile (``series:player``) once that page exists; until
then, and on a site without it, the name stays plain text instead of breaking the page.
"""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html, urlize
from django.utils.safestring import mark_safe

register = template.Library()


@register.simple_tag
def url_if_exists(name: str, *args: Any) -> str:
    """``{% url %}`` that gives "" when the URL name is not there."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return ""


# A site path in a director's notes ("see /series/events/3/ for last year's blind structure"):
# starts with a slash after a space or the line's start, no spaces inside.
_SITE_PATH = re.compile(r"(?<![^\s(])(/[A-Za-z0-9][\w\-./?=&%#]*)")


def _link_paths(text: str) -> str:
    parts = []
    last = 0
    for found in _SITE_PATH.finditer(text):
        path = found.group(1).rstrip(".,;:)")
        end = found.start(1) + len(path)
        parts.append(urlize(text[last : found.start(1)], autoescape=True))
        parts.append(format_html('<a href="{}">{}</a>', path, path))
        last = end
    parts.append(urlize(text[last:], autoescape=True))
    return "".join(parts)


@register.filter(is_safe=True)
def notes_html(text: str) -> str:
    """A director's notes as paragraphs, with web addresses and site paths as links (the
    home series' page in docs/rules/sources/home-series-event-plo8.txt: "For the blind
    blind structure we used last year, click here.")."""
    paragraphs = [p for p in re.split(r"\n\s*\n", str(text).replace("\r\n", "\n")) if p.strip()]
    html = "".join(
        "<p>" + "<br>".join(_link_paths(line) for line in paragraph.strip().split("\n")) + "</p>"
        for paragraph in paragraphs
    )
    return mark_safe(html)  # noqa: S308 - every piece is escaped by urlize or format_html
