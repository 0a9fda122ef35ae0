"""``{{ event|not_counted }}``: why an event scores no points in the standings ("" when it
counts), from ``series.selectors.event_not_counted``, for the calendar's badge."""

from __future__ import annotations

from django import template

from series import selectors
from series.models import Event

register = template.Library()


@register.filter
def not_counted(event: Event) -> str:
    return selectors.event_not_counted(event)
