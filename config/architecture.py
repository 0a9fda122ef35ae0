"""Print the import graph between the apps, and fail if an arrow points up.

    make architecture

The order is docs/architecture.md's (and the first import-linter contract's): the site on
top, then the tournaments, the series, the live tables, and core at the bottom. Each line
is "app -> app (how many imports)"; an arrow from a lower app to a higher one is printed
with "UP" and makes the exit status 1.
"""

from __future__ import annotations

import sys
from collections import Counter

import grimp

ORDER = ["config", "tournaments", "series", "tables", "core"]
# The engine is drawn apart: it is the bottom of the live tables.
ENGINE = "tables.engine"


def app_of(module: str) -> str:
    if module == ENGINE or module.startswith(ENGINE + "."):
        return ENGINE
    return module.split(".")[0]


def main() -> int:
    graph = grimp.build_graph(*ORDER)
    arrows: Counter[tuple[str, str]] = Counter()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            source, target = app_of(module), app_of(imported)
            if source != target:
                arrows[(source, target)] += 1
    rank = {app: ORDER.index(app.split(".")[0]) for pair in arrows for app in pair}
    rank[ENGINE] = len(ORDER)  # below the tables, beside core
    up = 0
    for (source, target), count in sorted(arrows.items(), key=lambda a: (rank[a[0][0]], a[0])):
        # The engine and core are the bottom: they import no app.
        wrong = rank[target] < rank[source] or source in (ENGINE, "core")
        up += wrong
        print(f"{source:>13} -> {target:<13} ({count}){'  UP' if wrong else ''}")
    print("no arrow points up" if not up else f"{up} arrow(s) point up")
    return 1 if up else 0


if __name__ == "__main__":
    sys.exit(main())
