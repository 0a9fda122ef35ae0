"""The set-up the browser tests share (``tests.chromium`` launches Debian's chromium).

Two ways to serve the pages, each with its fixture (in ``tests/conftest.py``):

- ``live_browser``: pytest-django's ``live_server`` in this process, its database the
  test's own, so a test builds its rows with the usual fixtures and reads them back;
- ``chromium`` with ``served_night``: ``manage.py serve`` in a process of its own (daphne
  and the embedded Celery, as in production), for the sockets, the clock's tasks, or a
  server a test stops and starts; its rows come from a ``manage.py shell`` script.

A test file names what it uses from here (``from tests.browser import PHONE, log_in``);
pytest finds the fixtures itself. ``log_in`` and ``console_page`` are the director's way
in (every test user's password is ``tests.conftest.PASSWORD``; the director of these
nights is "dana", as ``tests.conftest``'s ``director``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Locator, Page

from tests.chromium import CHROMIUM
from tests.conftest import PASSWORD
from tests.tables.servers import free_port, manage, migrate, server_env, start_serve, stop

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"

SCREENSHOTS = os.environ.get("SCREENSHOTS") == "1"
"""Set by `make screenshots`: the browser tests then save their pictures in ARTIFACTS."""


def picture(target: Page | Locator, path: str | Path, *, settle: int = 0, **options: Any) -> None:
    """A picture of a page or a part of it, for a person to look at, when they ask for one.

    `make screenshots` runs the browser tests with ``SCREENSHOTS=1`` and they save their
    pictures under test-artifacts/; `make test` takes none. A picture checks nothing and
    costs Chromium about a third of a core-second (a full page more), and the browser tests
    take some 380: a twentieth of their CPU. A test that reads a picture's pixels calls
    ``screenshot`` itself. ``settle``: milliseconds to let the page draw itself first (a
    resize, an htmx swap).
    """
    if not SCREENSHOTS:
        return
    if settle:
        (target if isinstance(target, Page) else target.page).wait_for_timeout(settle)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(path), **options)


def pictures_by_size(
    page: Page,
    stem: str,
    sizes: dict[str, dict[str, int]],
    *,
    back_to: dict[str, int],
    settle: int = 0,
    **options: Any,
) -> None:
    """``page`` at each of ``sizes`` ({name: viewport}) saved as ARTIFACTS/<stem>-<name>.png,
    then set back to ``back_to``. Without pictures the page is not resized at all."""
    if not SCREENSHOTS:
        return
    for name, size in sizes.items():
        page.set_viewport_size(size)
        picture(page, ARTIFACTS / f"{stem}-{name}.png", settle=settle, **options)
    page.set_viewport_size(back_to)


# The screens a night is seen on: a director's or a player's phone, a laptop, the TV.
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
TV = {"width": 1920, "height": 1080}

DIRECTOR = "dana"

needs_chromium = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed"),
]


def log_in(page: Page, base: str, username: str = DIRECTOR, *, then: str = "") -> None:
    """Log in through the form, then go on to the path ``then`` (the home page if none)."""
    url = f"{base}/accounts/login/"
    if then:
        url += f"?next={quote(then)}"
    page.goto(url)
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(lambda address: "/accounts/login/" not in address)


def console_page(
    browser: Browser,
    base: str,
    tournament_id: object,
    viewport: dict[str, int] = PHONE,
    **context: Any,
) -> Page:
    """The director's console in a browser context of its own (``context``: Playwright's
    options, e.g. ``is_mobile``), logged in."""
    page = browser.new_context(viewport=viewport, **context).new_page()
    log_in(page, base, then=f"/tournaments/{tournament_id}/console/")
    return page


# The start of every served night's set-up script: the director "dana" and a season on
# now. The script goes on with its event, blind structure and players, and leaves its
# tournament in ``tournament``.
SHELL_START = f"""
import json
from datetime import timedelta
from django.contrib.auth.models import User
from django.utils import timezone
from series.models import Event, Player, Season
from series.services import director_grant

director = director_grant(User.objects.create_user("{DIRECTOR}", password="{PASSWORD}"))
today = timezone.localdate()
season = Season.objects.create(name="Spring", starts_on=today, ends_on=today + timedelta(90))
"""
SHELL_END = """
print(json.dumps({"id": tournament.pk, "token": tournament.tv_token}))
"""


@contextmanager
def served_night(tmp_path: Path, setup: str) -> Iterator[dict[str, Any]]:
    """``manage.py serve`` on a free port with a SQLite file of its own, after ``setup``
    (a shell script run after ``SHELL_START``) made the night.

    Yields ``base`` (the server's address), ``id`` and ``token`` (the tournament's id and
    TV token), and what a test needs to stop and start the server again: ``env``,
    ``port``, ``log`` and ``process`` (the server running now: a test that starts another
    puts it there, and that one is stopped at the end).
    """
    env = server_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    env.pop("REDIS_URL", None)  # embedded mode: one process, the in-memory broker
    migrate(env)
    made = json.loads(manage(env, "shell", "-c", SHELL_START + setup + SHELL_END).splitlines()[-1])
    port = free_port()
    log = tmp_path / "serve.log"
    night: dict[str, Any] = {"base": f"http://127.0.0.1:{port}", "env": env, "port": port}
    night.update(made, log=log, process=start_serve(env, port, log=log))
    try:
        yield night
    finally:
        # Ended by SIGTERM, as Ctrl-C ends `make run`: a request or socket still open must
        # not keep the process waiting.
        assert stop(night["process"]), "the server did not end within 10 s of SIGTERM"
