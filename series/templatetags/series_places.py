"""A finishing place as people read it: ``{{ result.place|place_shown:tied }}``.

"3", or "3 (tied)" when players share it (TDA: players out on one hand with equal stacks,
or at different tables on one hand-for-hand hand, share the place and its prize; a director
may also type a shared place into the event's results). ``tied`` is the set of shared
places (``series.selectors.places_tied``) or
a row's own True/False; a missing place ("re-entered", a player still in) shows "–".

Here, below both apps, so the series' pages and the tournaments' (``tournament_places``
registers the same filter) show a shared place alike.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django import template
from django.utils.translation import pgettext

register = template.Library()


@register.filter
def place_shown(place: Any, tied: bool | Collection[int] | None = None) -> str:
    if place is None or place == "":
        return "–"
    shared = tied if isinstance(tied, bool) else place in (tied or ())
    if not shared:
        return str(place)
    return pgettext("a finishing place shared by players who tie", "%(place)s (tied)") % {
        "place": place
    }
