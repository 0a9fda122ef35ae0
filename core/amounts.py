"""Money and chips: the most a home game ever takes, and how people read an amount.

The bounds, in one place. Every form, model validator and service that takes an amount
checks it against these, so "99999999999999" for a buy-in (a finger left on the 9) is
refused with a message instead of being stored and multiplied into a prize pool:

- ``MONEY_MAX``: one price in the event's currency unit (a buy-in, fee, rebuy, add-on or
  bounty, the money unit, the season pot per entry). A home game's buy-in is tens or
  hundreds; a million is far past any.
- ``PRIZE_MAX``: money that adds up (a prize, the bounties won, what a player paid in, one
  payment of the settle-up, a deal's amount): a hundred entries at the largest price.
- ``CHIPS_MAX``: any number of chips (a starting stack, a rebuy's or add-on's chips, a stack
  typed by the director, a blind, ante or bet). A billion is a thousand times the deepest
  home structure's last big blind, and still fits PostgreSQL's integer column twice over.

An amount in a sentence is written by ``number``, ``money`` or ``chips``: grouped as the
active language groups thousands ("10,000 chips", "10 000 jetons") and, for chips, with
the word's plural as the language chooses it (French: "0 jeton", "1 jeton", "2 jetons").

>>> from django.utils import translation
>>> with translation.override("en"):
...     chips(10000), chips(1), money(2500)
('10,000 chips', '1 chip', '2,500')
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.utils.deconstruct import deconstructible
from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext

MONEY_MAX = 1_000_000
PRIZE_MAX = 100 * MONEY_MAX
CHIPS_MAX = 1_000_000_000


def number(value: int) -> str:
    """A whole number grouped the active language's way: "10,000", "10 000"."""
    return number_format(value, decimal_pos=0, use_l10n=True, force_grouping=True)


def money(value: int) -> str:
    """An amount of money in the event's currency unit, as people read it ("2,500").

    The site keeps no currency symbol (a series plays in one currency everyone knows), so
    money reads as its number; it is a function of its own so a symbol has one place to go.
    """
    return number(value)


def chips(value: int) -> str:
    """Chips as people say them: "10,000 chips", "1 chip"; "10 000 jetons", "0 jeton"."""
    return ngettext("%(count)s chip", "%(count)s chips", value) % {"count": number(value)}


@deconstructible(path="core.amounts.AtMost")
class AtMost(MaxValueValidator):
    """Django's upper bound, saying the bound as people read it ("Enter at most
    1,000,000.", "Enter at most 1,000,000,000 chips.") instead of "less than or equal to
    1000000"."""

    def __init__(self, limit_value: int, *, of_chips: bool = False) -> None:
        super().__init__(limit_value)
        self.of_chips = of_chips

    def __call__(self, value: Any) -> None:
        try:
            super().__call__(value)
        except ValidationError:
            limit = chips(self.limit_value) if self.of_chips else money(self.limit_value)
            raise ValidationError(
                gettext("Enter at most %(limit)s.") % {"limit": limit}, code="max_value"
            ) from None

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, AtMost)
            and self.limit_value == other.limit_value
            and self.of_chips == other.of_chips
        )

    def __hash__(self) -> int:
        return hash((self.limit_value, self.of_chips))


def money_max() -> AtMost:
    return AtMost(MONEY_MAX)


def prize_max() -> AtMost:
    return AtMost(PRIZE_MAX)


def chips_max() -> AtMost:
    return AtMost(CHIPS_MAX, of_chips=True)


def field_bound(field: forms.IntegerField, validator: AtMost) -> forms.IntegerField:
    """Give a form's whole-number field the bound of ``validator``: checked with its
    message, and the input's ``max`` so a browser says so before sending."""
    field.max_value = validator.limit_value
    field.validators.append(validator)
    field.widget.attrs["max"] = validator.limit_value
    return field


def money_field(**kwargs: Any) -> forms.IntegerField:
    """A form field for one price (0 to ``MONEY_MAX``)."""
    kwargs.setdefault("min_value", 0)
    return field_bound(forms.IntegerField(**kwargs), money_max())


def chips_field(**kwargs: Any) -> forms.IntegerField:
    """A form field for a number of chips (up to ``CHIPS_MAX``)."""
    kwargs.setdefault("min_value", 0)
    return field_bound(forms.IntegerField(**kwargs), chips_max())


def bound_of(field: Any) -> AtMost | None:
    """The ``AtMost`` among a model field's validators, if it has one."""
    return next((v for v in getattr(field, "validators", ()) if isinstance(v, AtMost)), None)
