"""The engine's docstring examples are tests: every module that shows how it is used keeps
showing what it really does.

A module listed here must have examples, and each must pass; a module that loses all its
examples fails too, so an example cannot quietly stop being run.
"""

import doctest
import importlib

import pytest

DOCUMENTED = [
    "tables.engine.autoplay",
    "tables.engine.cards",
    "tables.engine.config",
    "tables.engine.equity",
    "tables.engine.errors",
    "tables.engine.evaluator",
    "tables.engine.phh",
    "tables.engine.preactions",
    "tables.engine.records",
    "tables.engine.deal_in",
    "tables.engine.state",
    "tables.engine.timebank",
    "tables.engine._toml_subset",
    "tables.engine._frozen",
]


@pytest.mark.parametrize("name", DOCUMENTED)
def test_the_examples_in_the_docstrings_run_as_shown(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples left to run"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} fail"


def test_every_engine_module_with_examples_is_listed() -> None:
    import pkgutil

    import tables.engine

    finder = doctest.DocTestFinder()
    with_examples = set()
    for info in pkgutil.iter_modules(tables.engine.__path__, "tables.engine."):
        module = importlib.import_module(info.name)
        if any(test.examples for test in finder.find(module)):
            with_examples.add(info.name)
    assert with_examples == set(DOCUMENTED)
