"""``{% net_amount value %}`` and ``{% net_help %}``: a net result shown one way on every
page (the profile, the settle-up), with its definition from ``series.net``."""

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
    amount = int(value)
    text = amounts.money(amount)
    if amount > 0:
        return format_html('<span class="plus">+{}</span>', text)
    if amount < 0:
        return format_html('<span class="minus">{}</span>', text)
    return format_html("<span>{}</span>", text)


@register.simple_tag
def net_help() -> str:
    """The definition of net, for a tooltip or a line under the table."""
    return str(NET_HELP)
