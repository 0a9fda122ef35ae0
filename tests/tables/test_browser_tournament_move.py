"""A tournament moves a player to another table, and their page follows by itself.

Two tournament tables are served (``manage.py serve``, embedded mode, its own SQLite file);
ann watches her seat at the first from Debian's chromium. The move is made by another
process (``manage.py shell``, as a Celery worker or another daphne would), so its news
cannot reach the served sockets through the in-memory channel layer: the page learns it
from the server's own check (the socket's resync asks where the player sits now) and goes
to the new table. Screenshots before and after, at a laptop and a phone size.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser import ARTIFACTS, needs_chromium, picture
from tests.conftest import PASSWORD
from tests.tables.servers import free_port, manage, migrate, server_env, start_serve, stop

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

pytestmark = needs_chromium

SETUP = f"""
from django.contrib.auth.models import User
from tables import services
ann = User.objects.create_user("ann", password="{PASSWORD}")
bots = [services.house_bot_user("browser", k) for k in range(1, 4)]
stakes = services.Stakes(small_blind=10, big_blind=20)
def table(name, sitters):
    return services.tournament_table_open(
        name=name, game="omaha-hi-lo", structure="pot-limit", seat_count=6, stakes=stakes,
        sitters=sitters, group="online-plo8",
    )
one = table("Online PLO8, table 1", {{
    1: services.Sitter(ann.pk, 1500), 2: services.Sitter(bots[0].pk, 1500, "tight")}})
two = table("Online PLO8, table 2", {{
    1: services.Sitter(bots[1].pk, 1500, "tight"), 2: services.Sitter(bots[2].pk, 1500, "loose")}})
print(one.pk, two.pk)
"""

MOVE = """
from tables import services
services.seat_move({one}, 1, {two}, 4)
"""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, int, int, dict[str, str]]]:
    env = server_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    env.pop("REDIS_URL", None)
    migrate(env)
    one, two = (int(x) for x in manage(env, "shell", "-c", SETUP).split()[-2:])
    port = free_port()
    process = start_serve(env, port, tmp_path / "serve.log")
    try:
        yield f"http://127.0.0.1:{port}", one, two, env
    finally:
        stop(process)


@pytest.fixture
def browser(chromium: Browser) -> Browser:
    expect.set_options(timeout=10_000)
    return chromium


@pytest.mark.long(30, waits=True)
def test_a_moved_players_page_follows_them_to_the_new_table(
    browser: Browser, served: tuple[str, int, int, dict[str, str]]
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    base, one, two, env = served
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{base}/accounts/login/?next=/tables/{one}/")
    page.locator("#id_username").fill("ann")
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".conn-status")).to_have_attribute("data-kind", "ok")
    expect(page.locator('.seat-mine[data-seat="1"]')).to_be_visible()
    picture(page, str(ARTIFACTS / "tournament-move-before-laptop.png"))
    page.set_viewport_size(PHONE)
    picture(page, str(ARTIFACTS / "tournament-move-before-phone.png"))

    manage(env, "shell", "-c", MOVE.format(one=one, two=two))
    # The socket's resync (every 10 s while nothing is heard) finds the new seat.
    page.wait_for_url(f"{base}/tables/{two}/", timeout=30_000)
    expect(page.locator(".conn-status")).to_have_attribute("data-kind", "ok")
    expect(page.locator('.seat-mine[data-seat="4"]')).to_be_visible()
    expect(page.locator('.seat-mine[data-seat="4"]')).to_contain_text("1,500")
    picture(page, str(ARTIFACTS / "tournament-move-after-phone.png"))
    page.set_viewport_size(LAPTOP)
    picture(page, str(ARTIFACTS / "tournament-move-after-laptop.png"), settle=150)
