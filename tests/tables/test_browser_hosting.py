"""Rebuys, the host's controls and private tables in Debian's chromium against a served site: a busted player is
offered the rebuy at once and adds chips; the ledger page and its CSV; the host pauses,
resumes, removes a player and closes the table; a private table, its invite link and a seat
request the host approves. Screenshots at a phone and a laptop size land in test-artifacts/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import needs_chromium, pictures_by_size
from tests.conftest import PASSWORD
from tests.tables.servers import free_port, manage, migrate, server_env, start_serve, stop
from tests.tables.test_browser_table import LAPTOP, PHONE

pytestmark = needs_chromium

# ann went broke at the open table (bob won her 40): she is sat out with no chips. The host's
# controls are tried at a table of their own (bob sat out there too), so neither test
# depends on which runs first (the long one does, in the suite).
SETUP = f"""
from django.contrib.auth.models import User
from tables import services
from tables.models import Seat, SeatState
director = User.objects.create_superuser("dana", password="{PASSWORD}")
ann, bob, cal = (User.objects.create_user(n, password="{PASSWORD}") for n in ("ann", "bob", "cal"))
table = services.table_create(
    created_by=director, name="Cash PLO8", big_blind=2, min_buy_in=40, max_buy_in=200
)
services.seat_take(table.pk, ann, 1, 40)
services.seat_take(table.pk, bob, 4, 100)
services.seat_sit_out(table.pk, bob)
Seat.objects.filter(table=table, number=1).update(
    stack=0, state=SeatState.SITTING_OUT, sat_out_reason="no chips"
)
Seat.objects.filter(table=table, number=4).update(stack=140)
hosted = services.table_create(
    created_by=director, name="Host's PLO8", big_blind=2, min_buy_in=40, max_buy_in=200
)
services.seat_take(hosted.pk, bob, 4, 100)
services.seat_sit_out(hosted.pk, bob)
private = services.table_create(
    created_by=director, name="Kitchen game", big_blind=2, min_buy_in=40, max_buy_in=200,
    private=True,
)
print(table.pk, hosted.pk, private.pk, private.invite_token)
"""


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[str, int, int, int, str]]:
    tmp_path = tmp_path_factory.mktemp("hosting")
    env = server_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    env.pop("REDIS_URL", None)  # embedded mode: one process, the in-memory broker
    migrate(env)
    table_id, hosted_id, private_id, token = manage(env, "shell", "-c", SETUP).split()[-4:]
    port = free_port()
    process = start_serve(env, port, log=tmp_path / "serve.log")
    try:
        yield f"http://127.0.0.1:{port}", int(table_id), int(hosted_id), int(private_id), token
    finally:
        stop(process)


@pytest.fixture
def browser(chromium: Browser) -> Browser:
    expect.set_options(timeout=10_000)
    return chromium


def log_in(browser: Browser, base: str, path: str, username: str) -> Page:
    page = browser.new_context(viewport=LAPTOP, accept_downloads=True).new_page()
    page.goto(f"{base}/accounts/login/?next={path}")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"**{path}")
    return page


def shoot(page: Page, label: str, full_page: bool = False) -> None:
    sizes = {"phone": PHONE, "laptop": LAPTOP}
    pictures_by_size(page, label, sizes, back_to=LAPTOP, settle=200, full_page=full_page)


@pytest.mark.long
def test_a_busted_player_rebuys_at_once_and_the_ledger_shows_it(
    browser: Browser, server: tuple[str, int, int, int, str]
) -> None:
    base, table_id, _hosted_id, _private_id, _token = server
    ann = log_in(browser, base, f"/tables/{table_id}/", "ann")
    dialog = ann.locator("#rebuy-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("You are out of chips")
    shoot(ann, "rebuy-offered")
    dialog.get_by_label("Chips (40 to 200)").fill("250")
    dialog.get_by_role("button", name="Add chips").click()
    expect(dialog).to_be_visible()  # over the maximum: the browser keeps the dialog open
    dialog.get_by_label("Chips (40 to 200)").fill("100")
    dialog.get_by_role("button", name="Add chips").click()
    expect(ann.locator(".seat-mine .seat-stack")).to_have_text("100")
    expect(dialog).to_be_hidden()
    # Add chips between hands, up to the maximum in all.
    ann.locator(".rebuy-open").click()
    expect(dialog).to_contain_text("Chips (1 to 100)")
    dialog.get_by_label("Chips (1 to 100)").fill("50")
    dialog.get_by_role("button", name="Add chips").click()
    expect(ann.locator(".seat-mine .seat-stack")).to_have_text("150")
    shoot(ann, "rebuy-done")

    ann.locator(".ledger-link").click()
    expect(ann.locator("h1")).to_contain_text("Ledger")
    players = ann.locator(".ledger-players tbody")
    expect(players.locator("tr", has_text="ann")).to_contain_text("190 (rebuys 150)")
    expect(players.locator("tr", has_text="ann").locator(".ledger-net")).to_have_text("-40")
    expect(players.locator("tr", has_text="bob").locator(".ledger-net")).to_have_text("+40")
    shoot(ann, "ledger", full_page=True)
    with ann.expect_download() as download:
        ann.get_by_role("link", name="Download CSV").click()
    text = Path(download.value.path()).read_text()
    assert text.splitlines()[0] == "Player,Bought in,Rebuys,Cashed out,Stack,Net"
    assert "ann,40,150,0,150,-40" in text and "bob,100,0,0,140,40" in text

    # Somebody who never sat here gets 403.
    cal = log_in(browser, base, f"/tables/{table_id}/", "cal")
    assert cal.goto(f"{base}/tables/{table_id}/ledger/").status == 403


@pytest.mark.long(25)
def test_the_host_pauses_removes_closes_and_approves_a_private_seat(
    browser: Browser, server: tuple[str, int, int, int, str]
) -> None:
    base, _table_id, table_id, private_id, token = server
    dana = log_in(browser, base, f"/tables/{table_id}/", "dana")
    bob = log_in(browser, base, f"/tables/{table_id}/", "bob")
    expect(dana.locator(".conn-status")).to_have_attribute("data-kind", "ok")
    dana.get_by_role("button", name="Pause after this hand").click()
    for page in (dana, bob):
        expect(page.locator(".host-banner")).to_have_text("Paused by the host")
    # A player has no host controls.
    expect(bob.get_by_role("button", name="Resume")).to_have_count(0)
    shoot(dana, "host-paused")
    shoot(bob, "player-paused")
    dana.get_by_role("button", name="Resume").click()
    expect(bob.locator(".host-banner")).to_have_count(0)

    # The private table: its page says so without the invite link; with it, cal asks.
    cal = log_in(browser, base, f"/tables/{table_id}/", "cal")
    assert cal.goto(f"{base}/tables/{private_id}/").status == 403
    expect(cal.locator("h1")).to_have_text("This table is private")
    shoot(cal, "private-refused")
    cal.goto(f"{base}/tables/{private_id}/invite/{token}/")
    form = cal.locator(".host-request")
    expect(form).to_be_visible()
    # The felt's "Sit" on seat 3 chooses the seat to ask for (no direct sit here).
    cal.get_by_role("button", name="Sit in seat 3").click()
    expect(form.get_by_label("Seat")).to_have_value("3")
    form.get_by_label("Buy-in (40 to 200)").fill("120")
    shoot(cal, "seat-request-form")
    form.get_by_role("button", name="Ask the host for a seat").click()
    expect(cal.locator(".host-request-status")).to_contain_text("waiting for the host")
    shoot(cal, "seat-requested")

    dana.goto(f"{base}/tables/{private_id}/host/")
    expect(dana.locator(".seat-requests")).to_contain_text("cal")
    shoot(dana, "host-page-request", full_page=True)
    dana.get_by_role("button", name="Approve").click()
    expect(dana.locator(".host-seats")).to_contain_text("cal")
    expect(cal.locator('.seat-mine[data-seat="3"]')).to_be_visible()
    expect(cal.locator('.seat-mine[data-seat="3"] .seat-stack')).to_contain_text("120")
    # After the approval the page reconnects, so cal counts as online at his new seat.
    expect(cal.locator(".seat-mine .seat-offline")).to_have_count(0)
    expect(cal.locator(".seat-mine .seat-stack")).to_have_text("120waiting")
    shoot(cal, "seat-approved")

    # Back at the cash table: the host removes bob and closes the table.
    dana.goto(f"{base}/tables/{table_id}/host/")
    dana.locator(".host-seats tr", has_text="bob").get_by_role("button", name="Remove").click()
    expect(dana.locator(".messages")).to_contain_text("Seat 4 is removed")
    expect(bob.locator('.seat[data-seat="4"] .seat-name')).to_have_count(0)
    dana.goto(f"{base}/tables/{table_id}/")
    dana.once("dialog", lambda d: d.accept())
    dana.get_by_role("button", name="Close the table").click()
    expect(dana.locator(".host-banner")).to_have_text("This table is closed.")
    expect(bob.locator(".host-banner")).to_have_text("This table is closed.")
    shoot(bob, "table-closed")
