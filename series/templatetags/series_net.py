"""``{% net_amount value %}`` and ``{% net_help %}``: a net result shown one way on every
page (the profile, the settle-up), with its definition from ``series.net``.

The night's shared money is counted in cents (``core.amounts``): ``{% net_cents value %}``
shows a balance in cents the way ``net_amount`` shows one in units ("+15.67", "-2,500"),
and ``{{ value|money_cents }}`` an amount in cents ("23.50", French "23,50")."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from core import amounts
from series.net import NET_HELP

register = template.Library()


@register.simple_tag
def net_amount(value: int) -> SafeString:
    """The net with its sign ("+25", "-1,250", "0"), as money reads in the reader's language
    (``core.amounts``), green above zero and red below (``.plus`` / ``.minus``)."""
    return _signed(int(value), amounts.money(int(value)))


@register.simple_tag
def net_cents(value: int) -> SafeString:
    """A balance counted in cents, with its sign and colour as ``net_amount``: "+15.67",
    "-27.83", "+20" (whole amounts without decimals)."""
    return _signed(int(value), amounts.money_cents(int(value)))


@register.filter
def money_cents(value: int) -> str:
    """An amount counted in cents as people read it (``core.amounts.money_cents``)."""
    return amounts.money_cents(int(value))


def _signed(amount: int, text: str) -> SafeString:
    if amount > 0:
        return format_html('<span class="plus">+{}</span>', text)
    if amount < 0:
        return format_html('<span class="minus">{}</span>', text)
    return format_html("<span>{}</span>", text)


@register.simple_tag
def net_help() -> str:
    """The definition of net, for a tooltip or a line under the table."""
    return str(NET_HELP)
