"""A page's markup without its random tokens, for tests that look for a name or its order.

A page holds random values: the CSRF token (64 letters and digits) in ``<body hx-headers>``
and in every form, a form's once-only key, the TV's token in its links. A player's
three-letter name is in a 64-character token about once in 4,000 pages, so a test that
says "Ben" is not on the page, or that "Dee" comes before "Cal", fails now and then by
chance. It reads the page with each such token blanked: any run of 20 or more URL-safe
characters between quotes or slashes. Everything else stays, attributes and scripts
included, so a name that leaks into a page's data still counts.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"(?<=[\"'/=])[A-Za-z0-9_-]{20,}(?=[\"'/&])")


def without_tokens(html: str) -> str:
    """``html`` with its random tokens blanked (``…``).

    >>> without_tokens('<body hx-headers=\\'{"X-CSRFToken": "q8Benx0Tz4Lw9KcAnnM2p3Rs"}\\'>Ann')
    '<body hx-headers=\\'{"X-CSRFToken": "…"}\\'>Ann'
    >>> without_tokens('<a href="/ws/tournaments/aB3-Ben_x9aB3-Ben_x9aB3/clock/">Ben</a>')
    '<a href="/ws/tournaments/…/clock/">Ben</a>'
    """
    return _TOKEN.sub("…", html)
