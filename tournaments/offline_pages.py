"""The tournament pages the installable site keeps for a dropped network, registered with
the series' service worker (``series.offline_pages``) by ``TournamentsConfig.ready``: the
TV clock and its JSON (``tournaments.views.clock``), and a player's night page
(``tournaments:night``), with the clock's own files. The clock on them counts down from the
stored end time (static/tournaments/clock.js), so a copy reloaded offline still shows the
right time. tests/series/test_pwa.py checks the patterns against the real URLs.
"""

from __future__ import annotations

from series.offline_pages import OfflinePages

PAGES = OfflinePages(
    kept=(
        r"^/tournaments/tv/[\w-]+/$",
        r"^/tournaments/tv/[\w-]+\.json$",
        r"^/tournaments/\d+/night/$",
    ),
    # A night is one person's; the TV clock is the same for everyone who holds its link.
    personal=(r"^/tournaments/\d+/night/$",),
    # A night's PIN signs a guest in on this browser.
    forget_on=(r"^/tournaments/\d+/night/pin/$",),
    static=("tournaments/clock.css", "tournaments/clock.js"),
)
