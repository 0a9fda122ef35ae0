"""The tournament's status badge as it is now (``selectors.status_shown``):
``{% tournament_status tournament as status %}`` then ``status.css`` and ``status.words``."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments import selectors

register = template.Library()


@register.simple_tag
def tournament_status(tournament: Any) -> dict[str, str]:
    css, words = selectors.status_shown(tournament)
    return {"css": css, "words": words}
