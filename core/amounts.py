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
  home blind structure's last big blind, and still fits PostgreSQL's integer column twice over.

A night's shared money (its expenses, the balances they enter, the settle-up's payments,
the debts carried to the next night) is counted in cents, so a pizza of 23.50 splits three
ways without losing a cent: ``CENTS`` to the unit, the bounds ``MONEY_MAX`` and
``PRIZE_MAX`` times ``CENTS``. Buy-ins, fees and prizes stay whole units (×100 where they
meet the cents). ``CentsField`` reads an amount typed with cents the reader's way ("23.50",
"23,50" on a French page) and ``money_cents`` writes one back.

An amount in a sentence is written by ``number``, ``money``, ``money_cents`` or ``chips``:
grouped as the active language groups thousands ("10,000 chips", "10 000 jetons") and, for
chips, with the word's plural as the language chooses it (French: "0 jeton", "1 jeton",
"2 jetons").

>>> from django.utils import translation
>>> with translation.override("en"):
...     chips(10000), chips(1), money(2500), money_cents(2350), money_cents(250000)
('10,000 chips', '1 chip', '2,500', '23.50', '2,500')
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.utils.deconstruct import deconstructible
from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_lazy, ngettext

MONEY_MAX = 1_000_000
PRIZE_MAX = 100 * MONEY_MAX
CHIPS_MAX = 1_000_000_000
# Cents to the unit: the night's shared money is counted in cents.
CENTS = 100


def number(value: int) -> str:
    """A whole number grouped the active language's way: "10,000", "10 000"."""
    return number_format(value, decimal_pos=0, use_l10n=True, force_grouping=True)


def money(value: int) -> str:
    """An amount of money in the event's currency unit, as people read it ("2,500").

    The site keeps no currency symbol (a series plays in one currency everyone knows), so
    money reads as its number; it is a function of its own so a symbol has one place to go.
    """
    return number(value)


def money_cents(cents: int) -> str:
    """An amount counted in cents, as people read it: with its two decimals when it has
    cents ("23.50", "0.05", French "23,50"), as ``money`` when it is whole ("2,500").

    A night's expenses and payments are mostly whole (a room of 40, a payment of 25): they
    read as every other amount of the site, and a pizza of 23.50 reads to the cent.
    """
    whole, part = divmod(abs(cents), CENTS)
    sign = "-" if cents < 0 else ""
    if not part:
        return sign + money(whole)
    value = Decimal(abs(cents)) / CENTS
    return sign + number_format(value, decimal_pos=2, use_l10n=True, force_grouping=True)


def chips(value: int) -> str:
    """Chips as people say them: "10,000 chips", "1 chip"; "10 000 jetons", "0 jeton"."""
    return ngettext("%(count)s chip", "%(count)s chips", value) % {"count": number(value)}


@deconstructible(path="core.amounts.AtMost")
class AtMost(MaxValueValidator):
    """Django's upper bound, saying the bound as people read it ("Enter at most
    1,000,000.", "Enter at most 1,000,000,000 chips.") instead of "less than or equal to
    1000000"."""

    def __init__(self, limit_value: int, *, of_chips: bool = False, of_cents: bool = False) -> None:
        super().__init__(limit_value)
        self.of_chips = of_chips
        self.of_cents = of_cents

    def __call__(self, value: Any) -> None:
        try:
            super().__call__(value)
        except ValidationError:
            if self.of_chips:
                limit = chips(self.limit_value)
            elif self.of_cents:
                limit = money_cents(self.limit_value)
            else:
                limit = money(self.limit_value)
            raise ValidationError(
                gettext("Enter at most %(limit)s.") % {"limit": limit}, code="max_value"
            ) from None

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, AtMost)
            and self.limit_value == other.limit_value
            and self.of_chips == other.of_chips
            and self.of_cents == other.of_cents
        )

    def __hash__(self) -> int:
        return hash((self.limit_value, self.of_chips, self.of_cents))


def money_max() -> AtMost:
    return AtMost(MONEY_MAX)


def prize_max() -> AtMost:
    return AtMost(PRIZE_MAX)


def chips_max() -> AtMost:
    return AtMost(CHIPS_MAX, of_chips=True)


def money_max_cents() -> AtMost:
    """``MONEY_MAX`` counted in cents (one expense, one share of it)."""
    return AtMost(MONEY_MAX * CENTS, of_cents=True)


def prize_max_cents() -> AtMost:
    """``PRIZE_MAX`` counted in cents (one payment of the settle-up, a carried debt)."""
    return AtMost(PRIZE_MAX * CENTS, of_cents=True)


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


# Characters Python's ``Decimal`` reads that nobody types as an amount: an exponent
# ("1e3"), digit groups ("1_000"). Non-ASCII digits ("٣") are refused with them.
_NOT_TYPED = frozenset("eE_")


class CentsField(forms.DecimalField):
    """An amount of money with at most two decimals, typed as the reader's language writes
    it (Django's localized input: "23.50", "23.5", French "23,50" too), cleaned to a
    ``Decimal``; ``cents()`` turns it into the whole number of cents stored.

    Refused with a message: more than two decimals, below ``min_cents`` (an expense is at
    least 0.01), above ``max_cents``, an exponent ("1e3"), "NaN", "Infinity", anything that
    is no number. The input is a text box with the decimal keypad on a phone.
    """

    default_error_messages = {
        "max_decimal_places": gettext_lazy("Enter the amount with at most 2 decimal places."),
    }

    def __init__(self, *, min_cents: int = 1, max_cents: int = MONEY_MAX * CENTS, **kwargs: Any):
        kwargs.setdefault("localize", True)
        super().__init__(decimal_places=2, **kwargs)
        self.min_cents = min_cents
        self.max_cents = max_cents
        self.widget.attrs.setdefault("inputmode", "decimal")

    def to_python(self, value: Any) -> Decimal | None:
        if isinstance(value, str) and (not value.isascii() or _NOT_TYPED & set(value)):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)

    def run_validators(self, value: Any) -> None:
        # The bounds after Django's checks: "0.001" is refused for its decimals first.
        super().run_validators(value)
        if value in self.empty_values:
            return
        if value * CENTS < self.min_cents:
            raise ValidationError(
                gettext("Enter at least %(limit)s.") % {"limit": money_cents(self.min_cents)},
                code="min_value",
            )
        if value * CENTS > self.max_cents:
            raise ValidationError(
                gettext("Enter at most %(limit)s.") % {"limit": money_cents(self.max_cents)},
                code="max_value",
            )

    @staticmethod
    def cents(value: Decimal) -> int:
        """A cleaned amount (two decimals at most) as its whole number of cents."""
        return int(value * CENTS)
