"""The installable site: its web app manifest and its service worker, both at the root.

The manifest is a view, not a static file, so its name and description are in the
visitor's language (the locale middleware's) and its icons' addresses come from the static
storage. The service worker (``templates/pwa/sw.js``) must be served from the root to
control every page of the site, and without a long cache lifetime: a browser that kept an
old worker would keep its old rules. It keeps the last copy of the pages that must survive a
dropped network, with what they load: the pages other apps register
(``series.offline_pages``; the tournaments' TV clock and a player's night page).
"""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language_bidi
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from series import offline_pages

# static/css/site.css: --felt (the header, the theme) and --paper (the page).
THEME_COLOUR = "#0f5132"
BACKGROUND_COLOUR = "#f6f4ef"

# The icons, drawn once from static/favicon.svg by headless Chromium (a screenshot each).
ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/maskable-512.png", "512x512", "maskable"),
)

# The service worker's cache: bump the version when what it keeps, or how, changes; the new
# worker deletes every older cache when it takes over.
CACHE_VERSION = 2

# The pages kept for a dropped network are the other apps' (``series.offline_pages``), as
# paths the worker tests (JavaScript regular expressions, written so Python's ``re`` reads
# them the same). What they load: the static files and Django's JavaScript catalog.
KEPT_ASSETS = (r"^/static/", r"^/jsi18n/$")
# Posting these changes whose pages are whose: the personal pages are forgotten (with the
# other apps' own posts that do).
FORGET_ON = (
    r"^/accounts/login/$",
    r"^/accounts/logout/$",
    r"^/accounts/signup/$",
    r"^/admin/login/$",
)
# The series' own files every kept page loads, fetched when the worker installs.
PRECACHE = ("css/site.css", "js/pwa.js", "favicon.svg")


def kept_pages() -> tuple[str, ...]:
    return offline_pages.kept_pages()


def personal_pages() -> tuple[str, ...]:
    """Of the kept pages, those made for one person (a night): forgotten when another person
    uses the browser."""
    return offline_pages.personal_pages()


def forget_on() -> tuple[str, ...]:
    return FORGET_ON + offline_pages.forget_on()


@require_GET
@vary_on_headers("Accept-Language", "Cookie")
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest, in the visitor's language."""
    data = {
        "id": "/",
        "name": _("Home Game Omaha: poker series"),
        "short_name": _("Home Game"),
        "description": _(
            "Seasons of Omaha tournaments among friends: calendar, blind clock, live tables "
            "and standings."
        ),
        "lang": request.LANGUAGE_CODE,
        "dir": "rtl" if get_language_bidi() else "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "categories": ["games", "sports"],
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    # Short: a new language or icon shows within the hour.
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, for the whole site (scope "/")."""
    config = {
        "cache": f"hgo-v{CACHE_VERSION}",
        "pages": kept_pages(),
        "assets": KEPT_ASSETS,
        "personal": personal_pages(),
        "forget": forget_on(),
        "precache": [
            *(static(path) for path in PRECACHE + offline_pages.precached_static()),
            *(static(path) for path, _sizes, _purpose in ICONS),
        ],
        "catalog": reverse("javascript-catalog"),
    }
    source = render_to_string("pwa/sw.js", {"config": json.dumps(config, indent=2)})
    response = HttpResponse(source, content_type="text/javascript; charset=utf-8")
    # Browsers look for a new worker on each visit (at most a day apart) when the answer may
    # not be kept: a deploy reaches every phone at its next page.
    response["Cache-Control"] = "no-cache"
    return response
