"""``{% once_token %}``: the hidden one-time token every console form carries.

Rendered fresh for each form on each paint, so two forms never share one; the console's
views (``tournaments.views.once``) refuse a token already spent by a recorded action.
"""

from __future__ import annotations

import secrets

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from tournaments.views.once import FIELD

register = template.Library()


@register.simple_tag
def once_token() -> SafeString:
    return format_html(
        '<input type="hidden" name="{}" value="{}">', FIELD, secrets.token_urlsafe(16)
    )
