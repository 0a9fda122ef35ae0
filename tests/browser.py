"""Debian's chromium for the browser tests, launched the one way this machine allows.

Playwright never downloads a browser here: it drives /usr/bin/chromium, headless, with
background networking off (the machine's closed network refuses those connections).
"""

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"

needs_chromium = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed"),
]


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
