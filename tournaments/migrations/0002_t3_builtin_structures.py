"""The built-in blind structures every director may copy (``is_template=True``).

A data migration rather than creation on first use: the templates are there from the first
deploy for every page that offers a blind structure (the tournament settings, the admin, the
editor), and no page has to write while it reads. It is idempotent: a template whose name
is already stored is left alone (a director may have adjusted it in the admin), so running
it again, or after a database was filled by other means, creates only what is missing.

Self-contained, as Django asks of a data migration: the templates are written out here as
they were when this migration was made, with the historical models, so a later change to
``tournaments.blind_structures.BUILTIN_TEMPLATES`` or to the services cannot change what an
old database gets. At this migration a level names its blind structure ``structure``
(``blind_structure`` from 0017). A description is stored in English, as its catalog's
message id.
"""

from typing import Any

from django.db import migrations

_HOME_CHIPS = [25, 100, 500, 1000, 5000]
_HOME_BLINDS = (
    (50, 100, 150, 200),
    (300, 400, 600, 800),
    (1000, 1200, 1600, 2000),
    (3000, 4000, 6000, 8000),
    (10000, 12000, 16000, 20000),
)
_HOME_COLOUR_UPS = ((), (25,), (100,), (500,))
_TURBO_BLINDS = (
    (50, 100, 200, 300, 400, 600),
    (800, 1000, 1200, 1600, 2000, 3000),
    (4000, 6000, 8000, 10000, 15000, 20000),
    (30000, 40000, 60000),
)
_TURBO_COLOUR_UPS = ((25,), (100,), (500,))

# (name, description, for limit, chip set, groups of big blinds, colour-ups at the breaks
# between them, minutes per level, minutes per break)
_TEMPLATES = (
    (
        "Home series PLO8",
        "Pot-limit Omaha/8 for a 20+5 home-series event (the 2007 series, event 2): "
        "10,000 chips, blinds from 25/50, 20-minute levels, a 10-minute break every four "
        "levels with the small chips coloured up. About five and a half hours for ten "
        "players, five for eight.",
        False,
        _HOME_CHIPS,
        _HOME_BLINDS,
        _HOME_COLOUR_UPS,
        20,
        10,
    ),
    (
        "Limit Omaha/8",
        "Limit Omaha/8: 10,000 chips, small bet = big blind and big bet = twice it, from "
        "25/50 (bets 50/100), 20-minute levels, a 10-minute break every four levels.",
        True,
        _HOME_CHIPS,
        _HOME_BLINDS,
        _HOME_COLOUR_UPS,
        20,
        10,
    ),
    (
        "Turbo",
        "A pot-limit turbo: 10,000 chips, blinds from 25/50, 10-minute levels growing "
        "about 1.5x, a 5-minute break every six levels. About two and a half hours for "
        "ten players.",
        False,
        _HOME_CHIPS,
        _TURBO_BLINDS,
        _TURBO_COLOUR_UPS,
        10,
        5,
    ),
)


def _rows(groups: Any, colour_ups: Any, minutes: int, break_minutes: int, for_limit: bool) -> Any:
    """The level rows' values: groups of big blinds with a break between two groups."""
    for number, group in enumerate(groups):
        if number:
            yield {
                "kind": "break",
                "minutes": break_minutes,
                "colour_up": sorted(set(colour_ups[number - 1])),
            }
        for big_blind in group:
            yield {
                "kind": "level",
                "minutes": minutes,
                "small_blind": big_blind // 2,
                "big_blind": big_blind,
                "small_bet": big_blind if for_limit else None,
                "big_bet": 2 * big_blind if for_limit else None,
                "colour_up": [],
            }


def install(apps: Any, schema_editor: Any) -> None:
    blind_structure = apps.get_model("tournaments", "BlindStructure")
    level = apps.get_model("tournaments", "StructureLevel")
    for name, description, for_limit, chips, groups, colour_ups, minutes, pause in _TEMPLATES:
        if blind_structure.objects.filter(name=name, is_template=True).exists():
            continue
        created = blind_structure.objects.create(
            name=name,
            description=description,
            for_limit=for_limit,
            chip_set=list(chips),
            is_template=True,
        )
        level.objects.bulk_create(
            level(structure=created, position=position, ante=0, ante_kind="none", **values)
            for position, values in enumerate(
                _rows(groups, colour_ups, minutes, pause, for_limit), start=1
            )
        )


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]

    operations = [migrations.RunPython(install, migrations.RunPython.noop)]
