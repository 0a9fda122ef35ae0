"""A night imported from The Tournament Director keeps its levels and breaks as a blind
blind structure of the site (``series.event_sections.levels_keep``): one the host can open,
copy and play again. Nights played on the same levels share one blind structure."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tables.engine.config import AnteKind
from tournaments.blind_structures import BlindStructureError, Row, RowKind
from tournaments.models import BlindStructure
from tournaments.services.blind_structures import blind_structure_create, blind_structure_rows

# Marks the blind structures made from TD's nights: a later night on the same levels finds its.
IMPORTED = "The Tournament Director"


def _rows(levels: list[dict[str, Any]]) -> list[Row]:
    rows = []
    for level in levels:
        if level["kind"] == RowKind.BREAK:
            rows.append(Row(kind=RowKind.BREAK, minutes=level["minutes"]))
            continue
        ante = level.get("ante", 0)
        # TD keeps one ante and no kind: one above the small blind is the big blind's ante
        # for the table (no room takes that much from every player).
        kind = AnteKind.NONE if not ante else AnteKind.EACH
        if ante > level["small_blind"]:
            kind = AnteKind.BIG_BLIND
        rows.append(
            Row(
                minutes=level["minutes"],
                small_blind=level["small_blind"],
                big_blind=level["big_blind"],
                ante=ante,
                ante_kind=kind,
            )
        )
    return rows


def td_levels_keep(name: str, levels: list[dict[str, Any]], by: Any) -> str:
    """The night's levels as a blind structure named after the night, or the blind structure an
    earlier imported night already has with the same rows; what was done, in the reader's
    language. Levels that break a rule of blind structures are not kept, and the answer says why
    (the night's results are imported all the same)."""
    rows = _rows(levels)
    for blind_structure in BlindStructure.objects.filter(description=IMPORTED).order_by("pk"):
        if blind_structure_rows(blind_structure) == rows:
            return _("The levels of “%(night)s” are those of the blind structure “%(name)s”.") % {
                "night": name,
                "name": blind_structure.name,
            }
    try:
        blind_structure = blind_structure_create(
            by=by, name=name[:100], description=IMPORTED, rows=rows
        )
    except BlindStructureError as refused:
        return _("The levels of “%(night)s” are not kept as a blind structure: %(why)s") % {
            "night": name,
            "why": str(refused),
        }
    return _("The levels of “%(night)s” are the blind structure “%(name)s”.") % {
        "night": name,
        "name": blind_structure.name,
    }
