"""The tests' own page helper (``tests/pages.py``): its examples run, and it blanks the
tokens a real page holds and nothing a person reads."""

from __future__ import annotations

import doctest

from django.middleware.csrf import get_token
from django.test import RequestFactory

from tests import pages


def test_the_examples_run() -> None:
    assert doctest.testmod(pages).failed == 0


def test_a_real_csrf_token_is_blanked_and_the_names_stay() -> None:
    token = get_token(RequestFactory().get("/"))
    html = (
        f'<body hx-headers=\'{{"X-CSRFToken": "{token}"}}\'><form>'
        f'<input type="hidden" name="csrfmiddlewaretoken" value="{token}">'
        '<span data-name="Ben">Ann</span></form></body>'
    )

    blanked = pages.without_tokens(html)

    assert token not in blanked
    assert 'data-name="Ben">Ann<' in blanked
