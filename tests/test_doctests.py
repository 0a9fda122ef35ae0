"""The docstring examples outside the engine are tests too (the engine has its own list,
``tests/engine/test_doctests.py``).

Every module of the site's packages that shows an example is found here and run, so an
example that stops being true fails the suite, and one added tomorrow is run without being
listed anywhere. Migrations and management commands are left out: they run as commands,
not as libraries.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

PACKAGES = ["config", "core", "series", "tables", "tournaments"]
SKIPPED = ("tables.engine", ".migrations", ".management")


def modules_with_examples() -> list[str]:
    finder = doctest.DocTestFinder()
    found = []
    for package in PACKAGES:
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            if info.name.startswith(SKIPPED[0]) or any(part in info.name for part in SKIPPED[1:]):
                continue
            module = importlib.import_module(info.name)
            if any(test.examples for test in finder.find(module)):
                found.append(info.name)
    return found


MODULES = modules_with_examples()


def test_the_site_has_examples_to_run() -> None:
    # A guard on the finder itself: if it found nothing, every test below would vanish.
    assert len(MODULES) >= 20, MODULES


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_the_docstrings_run_as_shown(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} fail"
