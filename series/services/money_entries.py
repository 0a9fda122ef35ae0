"""Money the director enters with a word of what it is for (a night's shared expense, a
season pot payout), checked one way: a positive whole amount (of units, or of cents for an
expense) within its bound, and a text
that says what for, short and without NUL (PostgreSQL refuses NUL in text)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _

from core import amounts


@dataclass(frozen=True)
class Wording:
    """The messages of one kind of entry, marked with ``gettext_noop`` (translated when a
    check refuses, in the reader's language): ``too_much`` takes ``%(limit)s``, ``no_text``
    ``%(count)s``."""

    not_positive: str
    too_much: str
    no_text: str


def money_entry_problem(
    amount: object,
    text: str,
    *,
    limit: int,
    text_max: int,
    wording: Wording,
    shown: Callable[[int], str] = amounts.money,
) -> str | None:
    """Why an entry of ``amount`` for ``text`` (already stripped) is refused, or None.
    ``shown`` writes the limit as people read it: ``money_cents`` for an amount in cents."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        return _(wording.not_positive)
    if amount > limit:
        return _(wording.too_much) % {"limit": shown(limit)}
    if not text or len(text) > text_max or "\x00" in text:
        return _(wording.no_text) % {"count": text_max}
    return None
