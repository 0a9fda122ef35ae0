"""The live tables' refusals, below everything that raises or catches them.

- ``TableError``: a request the table refuses, with the protocol's error code; the services
  raise it, the protocol, the views and the tournaments catch it.
- ``Stale``: a conditional write found the table no longer at the version (and nonce) it was
  read at: another change came first (``tables.runtime``); a ``TableError("stale")``.
- ``NeedsLock``: a change tried without the table's lock writes more than that way carries.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

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


class Stale(TableError):
    """The table's version is not the one the caller read: another change came first. The
    change is refused as ``stale``, nothing written."""

    def __init__(self, detail: str = "") -> None:
        super().__init__("stale", _("the table moved on meanwhile; try again"))
        self.detail = detail


class NeedsLock(Exception):
    """A change tried without the table's lock (a move read unlocked, or made on an event
    loop) writes more than that way can carry: the table state makes it again under the
    lock (``tables.runtime.state.TableState.change``)."""
