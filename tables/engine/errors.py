"""The one error type the engine raises for a move or a setup that breaks a rule."""


class RuleError(ValueError):
    """A move, a configuration or a record that breaks a rule of the game.

    The message names the rule, so a table can show it to the player as it is:

    >>> raise RuleError("raise to 30 is below the minimum 40")
    Traceback (most recent call last):
    ...
    tables.engine.errors.RuleError: raise to 30 is below the minimum 40
    """
