"""``{% worker_notice %}``: on the director's pages, a warning when no worker runs tasks."""

from __future__ import annotations

from typing import Any

from django import template

from series.services.health import worker_health

register = template.Library()


@register.inclusion_tag("series/_worker_notice.html")
def worker_notice() -> dict[str, Any]:
    return {"worker": worker_health()}
