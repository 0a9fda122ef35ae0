"""Printable sheets: seat cards, the structure, the payouts and the final results.

Each is a page of its own, printed from the browser on A4 or Letter (``@page`` sizes, the
site's navigation left off), linked from the console, and the final results from the
tournament's public page too.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Browser

from series.models import Event, Season
from tests.browser import ARTIFACTS, LAPTOP, PHONE, log_in, needs_chromium, picture
from tests.tournaments.factories import make_player, make_user, start
from tests.tournaments.levels import LEVEL_2, ROWS
from tournaments.models import (
    BlindLevel,
    BlindStructure,
    Entry,
    EntryState,
    LevelKind,
    Tournament,
    TournamentState,
)
from tournaments.services.entries import entry_register
from tournaments.services.lifecycle import tournament_start

pytestmark = pytest.mark.django_db


SHEETS = ["sheet_seats", "sheet_blind_structure", "sheet_payouts", "sheet_results"]
DIRECTOR_SHEETS = ["sheet_seats", "sheet_blind_structure", "sheet_payouts"]


def sheet_url(name: str, tournament: Tournament) -> str:
    return reverse(f"tournaments:{name}", args=[tournament.pk])


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def seated(tournament: Tournament, name: str, table: int, seat: int) -> Entry:
    return Entry.objects.create(
        tournament=tournament,
        player=make_player(name),
        state=EntryState.PLAYING,
        table_number=table,
        seat_number=seat,
    )


@pytest.fixture
def night(tournament: Tournament) -> Tournament:
    """Ten players of a 250 buy-in seated at two tables, in level 2."""
    tournament.event.buy_in = 250
    tournament.event.save(update_fields=["buy_in"])
    tournament.capacity = 20
    tournament.save(update_fields=["capacity"])
    for number in range(10):
        seated(tournament, f"player{number}", table=1 + number // 5, seat=1 + number % 5)
    return start(tournament, LEVEL_2)


@pytest.fixture
def finished(night: Tournament) -> Tournament:
    prizes = {1: 1250, 2: 750, 3: 500}
    for place, entry in enumerate(night.entries.order_by("pk"), start=1):
        entry.state = EntryState.PLAYING if place == 1 else EntryState.OUT
        entry.place = place
        entry.prize = prizes.get(place, 0)
        entry.save(update_fields=["state", "place", "prize"])
    night.state = TournamentState.FINISHED
    night.finished_at = timezone.now()
    night.save(update_fields=["state", "finished_at"])
    return night


# -- who may print them ---------------------------------------------------------------------


def test_players_cannot_print_the_directors_sheets(
    night: Tournament, player_client: Client
) -> None:
    for name in DIRECTOR_SHEETS:
        assert player_client.get(sheet_url(name, night)).status_code == 403, name


def test_anyone_may_print_the_final_results(finished: Tournament, client: Client) -> None:
    response = client.get(sheet_url("sheet_results", finished))
    assert response.status_code == 200 and "player0" in response.content.decode()


# -- the page around them -------------------------------------------------------------------


@pytest.mark.parametrize("name", SHEETS)
def test_each_sheet_prints_on_a4_without_the_sites_navigation(
    finished: Tournament, director_client: Client, name: str
) -> None:
    page = director_client.get(sheet_url(name, finished)).content.decode()
    assert "@page" in page and "size: A4" in page
    assert "site-header" not in page and "site-footer" not in page
    assert 'class="sheet-toolbar"' in page  # on screen only (sheets.css hides it in print)
    assert "Thursday PLO8" in page


@pytest.mark.parametrize("name", SHEETS)
def test_each_sheet_prints_on_letter_when_asked(
    finished: Tournament, director_client: Client, name: str
) -> None:
    page = director_client.get(sheet_url(name, finished), {"paper": "letter"}).content.decode()
    assert "size: letter" in page and "size: A4" not in page
    assert f'href="{sheet_url(name, finished)}?paper=a4"' in page


def test_an_unknown_paper_is_a4(night: Tournament, director_client: Client) -> None:
    page = director_client.get(sheet_url("sheet_blind_structure", night), {"paper": "<x>"})
    assert "size: A4" in page.content.decode()


def test_the_old_address_of_the_blind_structure_sheet_sends_the_browser_on(
    night: Tournament, director_client: Client
) -> None:
    old = f"/tournaments/{night.pk}/print/structure/?paper=letter"
    response = director_client.get(old)
    assert response.status_code == 301
    assert response["Location"] == f"{sheet_url('sheet_blind_structure', night)}?paper=letter"
    assert response["Location"] == f"/tournaments/{night.pk}/print/blind-structure/?paper=letter"


def test_the_print_stylesheet_hides_the_toolbar_and_sizes_the_page() -> None:
    from django.contrib.staticfiles import finders

    css = open(finders.find("tournaments/sheets.css"), encoding="utf-8").read()
    assert "@media print" in css and ".sheet-toolbar" in css


# -- what each one shows --------------------------------------------------------------------


def test_one_seat_card_per_seated_player(night: Tournament, director_client: Client) -> None:
    Entry.objects.create(
        tournament=night, player=make_player("waiting"), state=EntryState.REGISTERED
    )
    page = director_client.get(sheet_url("sheet_seats", night)).content.decode()
    assert page.count('class="seat-card"') == 10
    card = re.search(r'<article class="seat-card">(.*?)</article>', page, re.S).group(1)
    assert "player0" in card and "Table" in card and "Seat" in card
    assert "waiting" not in text(page)


def test_seat_cards_before_the_draw_say_so(tournament: Tournament, director_client: Client) -> None:
    page = director_client.get(sheet_url("sheet_seats", tournament)).content.decode()
    assert "No seats are drawn yet." in page and 'class="seat-card"' not in page


def test_the_blind_structure_sheet_lists_levels_breaks_durations_and_antes(
    night: Tournament, director_client: Client
) -> None:
    level = night.blind_structure.levels.get(position=4)
    level.ante, level.ante_kind = 1000, "each"
    level.small_blind, level.big_blind = 1000, 2000
    level.save()
    page = text(director_client.get(sheet_url("sheet_blind_structure", night)).content.decode())
    assert "25 / 50" in page and "1,000 / 2,000" in page
    assert page.count("Break") >= 2 and "Ante" in page and "1,000" in page
    # Durations, and when each row starts counted from the start of play.
    assert "20 min" in page and "1:10" in page


def test_the_payout_sheet_lists_places_and_amounts(
    night: Tournament, director_client: Client
) -> None:
    page = text(director_client.get(sheet_url("sheet_payouts", night)).content.decode())
    assert "Prize pool 2,500 from 10 entries" in page
    assert "1st" in page and "1,250" in page and "750" in page and "500" in page


def test_the_results_sheet_lists_places_and_prizes(
    finished: Tournament, director_client: Client
) -> None:
    page = text(director_client.get(sheet_url("sheet_results", finished)).content.decode())
    assert re.search(r"1 player0 1,250", page) and re.search(r"2 player1 750", page)
    assert "player9" in page


def test_the_results_sheet_before_the_finish_says_so(
    night: Tournament, director_client: Client
) -> None:
    page = director_client.get(sheet_url("sheet_results", night)).content.decode()
    assert "The tournament has not finished yet." in page


def test_numbers_read_in_french(night: Tournament, director: User) -> None:
    client = Client()
    client.cookies["django_language"] = "fr"
    client.force_login(director)
    response = client.get(sheet_url("sheet_payouts", night))
    assert response["Content-Language"] == "fr" and '<html lang="fr">' in response.content.decode()
    assert "1\u00a0250" in response.content.decode()


# -- where they are linked ------------------------------------------------------------------


def test_the_console_links_the_sheets(night: Tournament, director_client: Client) -> None:
    page = director_client.get(reverse("tournaments:console", args=[night.pk])).content.decode()
    for name in DIRECTOR_SHEETS:
        assert sheet_url(name, night) in page, name
    assert sheet_url("sheet_results", night) not in page


def test_the_console_and_the_tournament_page_link_the_final_results(
    finished: Tournament, director_client: Client, client: Client
) -> None:
    console = director_client.get(reverse("tournaments:console", args=[finished.pk]))
    assert sheet_url("sheet_results", finished) in console.content.decode()
    public = client.get(finished.get_absolute_url()).content.decode()
    assert sheet_url("sheet_results", finished) in public


def test_the_tournament_page_has_no_results_sheet_before_the_finish(
    night: Tournament, client: Client
) -> None:
    public = client.get(night.get_absolute_url()).content.decode()
    assert sheet_url("sheet_results", night) not in public


def test_a_break_is_a_break_row(night: Tournament, director_client: Client) -> None:
    breaks = night.blind_structure.levels.filter(kind=LevelKind.BREAK).count()
    page = director_client.get(sheet_url("sheet_blind_structure", night)).content.decode()
    assert page.count('class="break-row"') == breaks


# -- printed by Chromium --------------------------------------------------------------------


@pytest.fixture
def printed_night(director: User, season: Season) -> Tournament:
    """Ten players drawn to two tables by the real start, and a long structure with antes
    and colour-ups (the test finishes the tournament before printing its results)."""
    event = Event.objects.create(
        season=season,
        name="Thursday PLO8",
        starts_at=timezone.now(),
        venue="Ann's kitchen",
        buy_in=250,
        fee=10,
        starting_stack=10000,
    )
    blind_structure = BlindStructure.objects.create(name="Home PLO8")
    BlindLevel.objects.bulk_create(
        BlindLevel(
            blind_structure=blind_structure,
            position=position,
            kind=kind,
            minutes=minutes,
            small_blind=small * 10,
            big_blind=big * 10,
            ante=big * 10 if position > 3 and kind == LevelKind.LEVEL else 0,
            ante_kind="each" if position > 3 and kind == LevelKind.LEVEL else "none",
            colour_up=[25] if position == 3 else [],
        )
        for position, (kind, minutes, small, big) in enumerate(ROWS * 3)
    )
    tournament = Tournament.objects.create(
        event=event, blind_structure=blind_structure, capacity=20, seats_per_table=6
    )
    names = ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Maximilienne", "Ida"]
    for name in names:
        entry_register(tournament.pk, make_user(name))
    tournament_start(tournament.pk, by=director)
    return tournament


@needs_chromium[0]
@needs_chromium[1]
def test_the_sheets_print_on_a4_and_letter(
    printed_night: Tournament, live_server, live_browser: Browser
) -> None:
    """Chromium prints each sheet as the director's browser would: the seat cards four to a
    page on both papers, and every sheet without the toolbar. The PDFs land in
    test-artifacts/ to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    tournament = printed_night
    base = live_server.url
    page = live_browser.new_page(viewport=PHONE)
    log_in(page, base, then=f"/tournaments/{tournament.pk}/console/")
    page.get_by_role("link", name="seat cards").wait_for()
    picture(page, str(ARTIFACTS / "console-print-links-390.png"))
    pages_printed: dict[tuple[str, str], int] = {}
    for name in SHEETS:
        if name == "sheet_results":
            Tournament.objects.filter(pk=tournament.pk).update(state=TournamentState.FINISHED)
            for place, entry in enumerate(tournament.entries.order_by("pk"), start=1):
                Entry.objects.filter(pk=entry.pk).update(
                    place=place, prize={1: 1250, 2: 750, 3: 500}.get(place, 0)
                )
        for paper in ("a4", "letter"):
            page.goto(f"{base}{sheet_url(name, tournament)}?paper={paper}")
            if paper == "a4":
                for viewport in (PHONE, LAPTOP):
                    page.set_viewport_size(viewport)
                    picture(page, str(ARTIFACTS / f"{name}-{viewport['width']}.png"))
            # The toolbar is on screen, and gone in print.
            assert page.locator(".sheet-toolbar").is_visible()
            page.emulate_media(media="print")
            assert not page.locator(".sheet-toolbar").is_visible()
            pdf = page.pdf(prefer_css_page_size=True, print_background=True)
            page.emulate_media(media="screen")
            (ARTIFACTS / f"{name}-{paper}.pdf").write_bytes(pdf)
            pages_printed[name, paper] = len(re.findall(rb"/Type\s*/Page\b", pdf))
    # Ten players, four cards a page: three pages on either paper.
    assert pages_printed["sheet_seats", "a4"] == pages_printed["sheet_seats", "letter"] == 3
    assert pages_printed["sheet_payouts", "a4"] == pages_printed["sheet_payouts", "letter"] == 1
    assert pages_printed["sheet_results", "a4"] == 1


def test_a_blind_structure_without_antes_has_no_ante_column(
    night: Tournament, director_client: Client
) -> None:
    page = text(director_client.get(sheet_url("sheet_blind_structure", night)).content.decode())
    assert "Ante" not in page and "25 / 50" in page
