"""A finishing place in words: "1st", "22nd", "7th"; in French "1er", "22e", "7e"."""

from __future__ import annotations

from django.utils.translation import gettext as _


def place_ordinal(place: int) -> str:
    """ "1st", "21st", "11th" in English; one message per English ending, so French can write
    "1er" for the first only and "%(n)se" for all the others. (Django's humanize ``ordinal``
    writes French with <sup> markup, which a chart's tooltip cannot show.)"""
    if place == 1:
        return _("1st")
    if place % 100 in (11, 12, 13):
        return _("%(n)sth") % {"n": place}
    endings = {1: _("%(n)sst"), 2: _("%(n)snd"), 3: _("%(n)srd")}
    return endings.get(place % 10, _("%(n)sth")) % {"n": place}
