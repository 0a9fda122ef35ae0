"""``{% mailings_unconfirmed %}``: on the director's page, the e-mail notices that may not
have gone out (``series.services.mailings``), each with "send again" and "let it be"."""

from __future__ import annotations

from typing import Any

from django import template

from series.services.mailings import mailings_unconfirmed as unconfirmed

register = template.Library()


@register.inclusion_tag("series/_mailings_unconfirmed.html")
def mailings_unconfirmed() -> dict[str, Any]:
    return {"notices": list(unconfirmed())}
