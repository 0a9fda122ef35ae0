"""The live tables' refusals, below everything that raises or catches them.

- ``TableError``: a request the table refuses, with the protocol's error code; the services
  raise it, the protocol, the views and the tournaments catch it.
- ``Stale``: a conditional write found the table no longer at the version (and nonce) it was
  read at: another change came first (``tables.runtime``). The services refuse the change as
  ``TableError("stale")``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise

from tables.engine.errors import RuleError
from tables.i18n import render, rule_message


class TableError(Exception):
    """A request the table refuses; ``code`` is the protocol's error code.

    The message is lazy (``gettext_lazy``) with its named parameters apart, so it is worded
    in the language of whoever reads it, not of whoever caused it: ``message`` renders it in
    the active language (the socket's, ``tables.consumers``).
    """

    def __init__(
        self, code: str, message: str | Promise, params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(code)
        self.code = code
        self.text = message
        self.params = dict(params or {})

    @classmethod
    def from_rule(cls, code: str, exc: RuleError) -> TableError:
        """The engine's refusal ``exc``, worded by its rule code (``tables.i18n``)."""
        message, params = rule_message(exc)
        return cls(code, message, params)

    @property
    def message(self) -> str:
        return render(self.text, self.params)

    def __str__(self) -> str:
        return self.message


class Stale(Exception):
    """The table's version is not the one the caller read: another change came first."""
