"""A finishing place as people read it: ``{{ entry.place|place_shown:tied }}``, "3" or
"3 (tied)" (``series.templatetags.series_places``, where the filter lives so the series'
pages show a shared place the same way). ``tied`` is ``results.places_tied`` or a row's
own True/False.
"""

from __future__ import annotations

from django import template

from series.templatetags.series_places import place_shown

register = template.Library()
register.filter("place_shown", place_shown)
