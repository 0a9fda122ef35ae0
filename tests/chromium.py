"""Debian's chromium, launched the one way this machine allows.

Playwright never downloads a browser here: it drives /usr/bin/chromium, headless, with
background networking off (the machine's closed network refuses those connections).
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Playwright

CHROMIUM = Path("/usr/bin/chromium")


def launch_chromium(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM),
        args=[
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
        ],
    )
