"""Debian's chromium, launched the one way this machine allows, once per test process.

Playwright never downloads a browser here: it drives /usr/bin/chromium, headless, with
background networking off (the machine's closed network refuses those connections).

Starting Playwright's driver and Chromium costs a second or more of a shared core, so a test
process keeps one of each (``SHARED``) and every browser test opens contexts of its own in
it: isolation by context, not by process. Playwright's sync API runs an event loop in this
thread while it is started, which Django's ORM and asyncio take for an async context; so
``tests/conftest.py`` stops it before any test that does not use a browser (the browser
tests run last, so it is started once per worker), and it lets the ORM run in this thread
only while that loop is there, as the browser tests always have.
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import Browser, Playwright, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
ASYNC_UNSAFE = "DJANGO_ALLOW_ASYNC_UNSAFE"


def launch_chromium(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)


class SharedChromium:
    """This process's Playwright and Chromium, started at the first use, stopped on demand.

    ``browser_get`` gives the running browser (starting it, or starting it again if it went
    away); ``contexts_close`` ends what a test opened in it; ``stop`` ends both, and is
    harmless when nothing runs.
    """

    def __init__(self) -> None:
        self.playwright: Playwright | None = None
        self.browser: Browser | None = None
        self.async_unsafe: str | None = None
        self.launches = 0

    def playwright_get(self) -> Playwright:
        if self.playwright is None:
            self.async_unsafe = os.environ.get(ASYNC_UNSAFE)
            self.playwright = sync_playwright().start()
            os.environ[ASYNC_UNSAFE] = "true"
        return self.playwright

    def browser_get(self) -> Browser:
        if self.browser is not None and self.browser.is_connected():
            return self.browser
        self.browser = launch_chromium(self.playwright_get())
        self.launches += 1
        return self.browser

    def contexts_close(self) -> None:
        if self.browser is not None and self.browser.is_connected():
            for context in list(self.browser.contexts):
                context.close()

    def stop(self) -> None:
        if self.browser is not None:
            if self.browser.is_connected():
                self.browser.close()
            self.browser = None
        if self.playwright is not None:
            self.playwright.stop()
            self.playwright = None
            if self.async_unsafe is None:
                os.environ.pop(ASYNC_UNSAFE, None)
            else:
                os.environ[ASYNC_UNSAFE] = self.async_unsafe


SHARED = SharedChromium()
