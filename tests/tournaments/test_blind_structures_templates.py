"""The built-in templates: installed by the data migration, valid, idempotent."""

from __future__ import annotations

import importlib

import pytest

from tables.engine.config import AnteKind
from tournaments.blind_structures import BUILTIN_TEMPLATES, check_rows
from tournaments.models import BlindStructure
from tournaments.services import blind_structures as services

pytestmark = pytest.mark.django_db


def rows_of(name: str) -> list:  # type: ignore[type-arg]
    return services.blind_structure_rows(BlindStructure.objects.get(name=name, is_template=True))


def test_the_templates_exist(builtin_templates: list[BlindStructure]) -> None:
    names = {t.name for t in builtin_templates}
    assert {"Home series PLO8", "Limit Omaha/8", "Turbo"} <= names
    assert all(t.is_template and t.created_by is None for t in builtin_templates)


def test_installing_again_creates_nothing(builtin_templates: list[BlindStructure]) -> None:
    assert services.blind_structure_templates_install() == 0
    assert BlindStructure.objects.filter(is_template=True).count() == len(BUILTIN_TEMPLATES)


def test_every_template_is_a_valid_blind_structure() -> None:
    for template in BUILTIN_TEMPLATES:
        check_rows(template.rows, for_limit=template.for_limit, chip_set=template.chip_set)


def test_the_home_series_plo8_starts_at_the_seeds_blinds(
    builtin_templates: list[BlindStructure],
) -> None:
    # docs/rules/sources/home-series-event-plo8.txt: "20+5 Pot Limit Omaha/8" ... "if the blinds are
    # 25/50 and the button wants to raise the pot"
    blind_structure = BlindStructure.objects.get(name="Home series PLO8")
    assert not blind_structure.for_limit
    rows = rows_of("Home series PLO8")
    assert (rows[0].small_blind, rows[0].big_blind) == (25, 50)
    levels = [row for row in rows if not row.is_break]
    assert all(b.big_blind > a.big_blind for a, b in zip(levels, levels[1:], strict=False))
    assert any(row.colour_up for row in rows if row.is_break)


def test_the_limit_template_has_small_and_big_bets(
    builtin_templates: list[BlindStructure],
) -> None:
    blind_structure = BlindStructure.objects.get(name="Limit Omaha/8")
    assert blind_structure.for_limit
    for row in rows_of("Limit Omaha/8"):
        if not row.is_break:
            assert row.small_bet == row.big_blind and row.big_bet == 2 * row.big_blind


def test_the_turbo_has_short_levels(builtin_templates: list[BlindStructure]) -> None:
    assert {row.minutes for row in rows_of("Turbo") if not row.is_break} == {10}


def test_the_templates_are_offered_to_copy(builtin_templates: list[BlindStructure]) -> None:
    offered = list(services.blind_structures_templates())
    assert [t.name for t in offered] == sorted(t.name for t in builtin_templates)
    home = next(t for t in offered if t.name == "Home series PLO8")
    assert (home.levels_count, home.breaks_count) == (20, 4)


def test_the_data_migration_writes_the_templates_as_they_are_defined() -> None:
    # The migration keeps its own copy of the templates (a migration must not import the
    # code it outlives); today the two agree row for row.
    migration = importlib.import_module("tournaments.migrations.0002_t3_builtin_structures")
    written = {}
    for (
        name,
        description,
        for_limit,
        chips,
        groups,
        colour_ups,
        minutes,
        pause,
    ) in migration._TEMPLATES:
        rows = migration._rows(groups, colour_ups, minutes, pause, for_limit)
        written[name] = (description, for_limit, list(chips), list(rows))
    defined = {}
    for template in BUILTIN_TEMPLATES:
        rows = []
        for row in template.rows:
            values = {"kind": str(row.kind), "minutes": row.minutes}
            if row.is_break:
                values["colour_up"] = list(row.colour_up)
            else:
                values |= {
                    "small_blind": row.small_blind,
                    "big_blind": row.big_blind,
                    "small_bet": row.small_bet,
                    "big_bet": row.big_bet,
                    "colour_up": [],
                }
                assert (row.ante, row.ante_kind) == (0, AnteKind.NONE)
            rows.append(values)
        defined[template.name] = (
            template.description,
            template.for_limit,
            list(template.chip_set),
            rows,
        )
    assert written == defined
