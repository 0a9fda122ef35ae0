"""The installable site: its web app manifest and its service worker, both at the root.

The manifest is a view, not a static file, so its name and description are in the
visitor's language (the locale middleware's) and its icons' addresses come from the static
storage. The service worker (``templates/pwa/sw.js``) must be served from the root to
control every page of the site, and without a long cache lifetime: a browser that kept an
old worker would keep its old rules. It keeps the last copy of the pages that must survive a
dropped network, the TV clock and a player's night page, with what they load; the clock on
them counts down from the stored end time (static/tournaments/clock.js), so a copy reloaded
offline still shows the right time.
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

# The pages kept for a dropped network, as paths the worker tests (JavaScript regular
# expressions, written so Python's ``re`` reads them the same: tests check them against
# the real URLs): the TV clock and its JSON (tournaments.views.clock), a player's night
# page (tournaments:night).
KEPT_PAGES = (
    r"^/tournaments/tv/[\w-]+/$",
    r"^/tournaments/tv/[\w-]+\.json$",
    r"^/tournaments/\d+/night/$",
)
# What those pages load: the static files and Django's JavaScript catalog.
KEPT_ASSETS = (r"^/static/", r"^/jsi18n/$")
# Of those, the pages made for one person (their night): forgotten when another person uses
# the browser. The TV clock is the same for everyone who holds its link, and stays.
PERSONAL_PAGES = (r"^/tournaments/\d+/night/$",)
# Posting these changes whose pages are whose: the personal pages are forgotten.
FORGET_ON = (
    r"^/accounts/login/$",
    r"^/accounts/logout/$",
    r"^/accounts/signup/$",
    r"^/admin/login/$",
    r"^/tournaments/\d+/night/pin/$",
)


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
        "pages": KEPT_PAGES,
        "assets": KEPT_ASSETS,
        "personal": PERSONAL_PAGES,
        "forget": FORGET_ON,
        "precache": [
            static("css/site.css"),
            static("js/pwa.js"),
            static("favicon.svg"),
            static("tournaments/clock.css"),
            static("tournaments/clock.js"),
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
