"""What the installable site keeps for a dropped network besides the series' own files: the
pages other apps register at start-up (their ``AppConfig.ready``), so the service worker
(``series.views_pwa``) names none of their addresses or files. The tournaments register the
TV clock and a player's night page (docs/architecture.md: the series reads no tournament
internals). With nothing registered the worker keeps the series' own static files alone.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OfflinePages:
    """One app's pages kept for a dropped network. The patterns are paths the worker tests
    (JavaScript regular expressions, written so Python's ``re`` reads them the same)."""

    # The pages kept: their last copy is shown when the network drops.
    kept: tuple[str, ...] = ()
    # Of those, the pages made for one person: forgotten when another uses the browser.
    personal: tuple[str, ...] = ()
    # Posting these changes whose pages are whose: the personal pages are forgotten.
    forget_on: tuple[str, ...] = ()
    # The static files those pages load (paths for ``static()``), fetched when installing.
    static: tuple[str, ...] = ()


_registered: list[OfflinePages] = []


def offline_pages_register(pages: OfflinePages) -> OfflinePages:
    """Add ``pages``; registering the same again (``ready`` runs twice in some test set-ups)
    changes nothing."""
    if pages not in _registered:
        _registered.append(pages)
    return pages


def _joined(field: str) -> tuple[str, ...]:
    out: dict[str, None] = {}
    for pages in _registered:
        for value in getattr(pages, field):
            out.setdefault(value, None)
    return tuple(out)


def kept_pages() -> tuple[str, ...]:
    return _joined("kept")


def personal_pages() -> tuple[str, ...]:
    return _joined("personal")


def forget_on() -> tuple[str, ...]:
    return _joined("forget_on")


def precached_static() -> tuple[str, ...]:
    return _joined("static")
