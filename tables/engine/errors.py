"""The one error type the engine raises for a move or a setup that breaks a rule."""

from __future__ import annotations

from collections.abc import Mapping


class RuleError(ValueError):
    """A move, a configuration or a record that breaks a rule of the game.

    The message names the rule, in English, so a developer or a log reads it as it is:

    >>> raise RuleError("raise to 30 is below the minimum 40")
    Traceback (most recent call last):
    ...
    tables.engine.errors.RuleError: raise to 30 is below the minimum 40

    ``code`` names the rule for good and ``params`` holds its numbers, so a table can word
    the same refusal in its player's language without reading the English:

    >>> err = RuleError(
    ...     "raise to 30 is below the minimum 40",
    ...     code="raise_below_minimum",
    ...     params={"amount": 30, "minimum": 40},
    ... )
    >>> err.code, err.params
    ('raise_below_minimum', {'amount': 30, 'minimum': 40})
    """

    def __init__(
        self, message: str, *, code: str = "rule", params: Mapping[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.params: dict[str, object] = dict(params or {})
