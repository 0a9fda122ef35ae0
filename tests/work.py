"""The work a piece of code does, counted instead of timed: exact whatever else the machine
is doing, so a test that bounds it fails on a slower algorithm and never on a busy host.
(Speeds themselves are measured by the benchmarks, run by hand.)"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any


@contextmanager
def python_calls(budget: int, failure: str = "more work than the budget") -> Iterator[list[int]]:
    """Counts the Python function calls made inside (Python's profiler hook); past
    ``budget`` it fails at once."""
    count = [0]

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            count[0] += 1
            assert count[0] <= budget, failure

    before = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield count
    finally:
        sys.setprofile(before)


@contextmanager
def python_lines(budget: int, failure: str = "more work than the budget") -> Iterator[list[int]]:
    """Counts the lines of Python run inside (Python's trace hook), loops included; past
    ``budget`` it fails at once."""
    count = [0]

    def trace(frame: FrameType, event: str, arg: object) -> Any:
        if event == "line":
            count[0] += 1
            assert count[0] <= budget, failure
        return trace

    before = sys.gettrace()
    sys.settrace(trace)
    try:
        yield count
    finally:
        sys.settrace(before)
