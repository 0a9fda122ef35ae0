"""``{% notices_unconfirmed %}``: on the director's page, the e-mail notices that may not
have gone out (``series.services.notices``), each with "send again" and "let it be"."""

from __future__ import annotations

from typing import Any

from django import template

from series.services.notices import notices_unconfirmed as unconfirmed

register = template.Library()


@register.inclusion_tag("series/_notices_unconfirmed.html")
def notices_unconfirmed() -> dict[str, Any]:
    return {"notices": list(unconfirmed())}
