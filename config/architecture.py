"""Print the import graph between the apps, and fail if an arrow points up or if the
tournaments reach into the live tables past their doors.

    make architecture

The order of the apps is the first import-linter contract's in pyproject.toml (the site on
top, then the tournaments, the series, the live tables, and core at the bottom), read from
there so that it is written once. Each line is "app -> app (how many imports)"; an arrow
from a lower app to a higher one is printed with "UP".

Then each module of the live tables the tournaments import, with the modules importing it.
The doors are ``tables.services`` (and its modules), ``tables.selectors`` and the engine's
public modules (``tables.engine.<module>``, no leading underscore); any other target is
printed with "PAST THE DOORS". import-linter holds the same rule with a list of the other
modules; this check also catches a module that list does not name yet, such as a new one.

Either finding makes the exit status 1.
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections import Counter, defaultdict
from pathlib import Path

import grimp

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
# The engine is drawn apart: it is the bottom of the live tables.
ENGINE = "tables.engine"
TABLES_DOORS = ("tables.services", "tables.selectors")


def layers() -> list[list[str]]:
    """The first import-linter contract's layers, top first, each a list of its apps (a
    layer "a | b" holds two apps side by side)."""
    with PYPROJECT.open("rb") as file:
        contract = tomllib.load(file)["tool"]["importlinter"]["contracts"][0]
    return [[name.strip() for name in re.split(r"[|:]", layer)] for layer in contract["layers"]]


def app_of(module: str) -> str:
    if module == ENGINE or module.startswith(ENGINE + "."):
        return ENGINE
    return module.split(".")[0]


def is_door(module: str) -> bool:
    """Whether the tournaments may import ``module`` of the live tables."""
    if any(module == door or module.startswith(door + ".") for door in TABLES_DOORS):
        return True
    if module == ENGINE:
        return True
    if module.startswith(ENGINE + "."):
        return not any(part.startswith("_") for part in module.split(".")[2:])
    return False


def arrows_check(graph: grimp.ImportGraph, rank: dict[str, int]) -> int:
    """Print the arrows between the apps; how many point up."""
    arrows: Counter[tuple[str, str]] = Counter()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            source, target = app_of(module), app_of(imported)
            if source != target:
                arrows[(source, target)] += 1
    bottom = max(rank.values())
    up = 0
    for (source, target), count in sorted(arrows.items(), key=lambda a: (rank[a[0][0]], a[0])):
        # The bottom layer (core) and the engine import no app.
        wrong = rank[target] < rank[source] or rank[source] == bottom
        up += wrong
        print(f"{source:>13} -> {target:<13} ({count}){'  UP' if wrong else ''}")
    print("no arrow points up" if not up else f"{up} arrow(s) point up")
    return up


def doors_check(graph: grimp.ImportGraph) -> int:
    """Print what the tournaments import of the live tables, by module; how many of those
    modules are past the doors."""
    importers: defaultdict[str, set[str]] = defaultdict(set)
    for module in graph.find_descendants("tournaments") | {"tournaments"}:
        for imported in graph.find_modules_directly_imported_by(module):
            if app_of(imported) in ("tables", ENGINE):
                importers[imported].add(module)
    print("\ntournaments -> tables, by the module imported:")
    past = 0
    for target in sorted(importers):
        wrong = not is_door(target)
        past += wrong
        print(f"  {target} ({len(importers[target])}){'  PAST THE DOORS' if wrong else ''}")
        for module in sorted(importers[target]):
            print(f"      {module}")
    print(
        "every import goes through a door: tables.services, tables.selectors, the engine"
        if not past
        else f"{past} module(s) of the tables reached past the doors"
    )
    return past


def main() -> int:
    order = layers()
    apps = [app for layer in order for app in layer]
    rank = {app: index for index, layer in enumerate(order) for app in layer}
    rank[ENGINE] = len(order) - 1  # below the tables, beside the bottom layer (core)
    graph = grimp.build_graph(*apps)
    up = arrows_check(graph, rank)
    past = doors_check(graph)
    return 1 if up or past else 0


if __name__ == "__main__":
    sys.exit(main())
