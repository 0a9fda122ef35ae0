"""Seating on a night played in person: the seats drawn before the start, the final table's
size and the director's say in it, late entries after a table break, and the seat each
player is shown."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from playwright.sync_api import Browser, expect

from series.models import Player
from tests.browser import ARTIFACTS, LAPTOP, PHONE, log_in, needs_chromium, picture
from tests.tournaments.factories import full, make_user, register, seat
from tests.tournaments.lookups import last_action, seats_of, url, where
from tournaments.errors import TournamentError
from tournaments.models import ActionKind, Entry, EntryState, Tournament, TournamentTable
from tournaments.services import undo
from tournaments.services.entries import entry_late, entry_reentry, entry_register
from tournaments.services.lifecycle import start_refusal, tournament_start
from tournaments.services.results import entry_eliminate
from tournaments.services.seating import (
    seating_draw,
    seating_final_table,
    seating_moves_needed,
    table_break,
)

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def six_handed(tournament: Tournament) -> Tournament:
    tournament.seats_per_table = 6
    tournament.save(update_fields=["seats_per_table"])
    return tournament


def out(tournament: Tournament, director: User, *names: str) -> None:
    """Players out one by one, each on a hand of their own."""
    for name in names:
        entry = Entry.objects.get(tournament=tournament, player__name=name, state="playing")
        entry_eliminate(tournament.pk, [entry.pk], by=director)


# Draw the seats first, start later ----------------------------------------------------------


def test_after_the_draw_the_tournament_starts_and_keeps_the_seats(
    tournament: Tournament, director: User
) -> None:
    register(tournament, ["Ann", "Ben", "Cal", "Dee", "Eve"])
    seating_draw(tournament, by=director, rng=random.Random(1))
    drawn = seats_of(tournament)

    assert start_refusal(tournament) is None
    started = tournament_start(tournament.pk, by=director)

    assert started.state == "running"
    assert seats_of(tournament) == drawn
    assert last_action(tournament).summary == "Started with 5 players"


def test_players_registered_after_the_draw_get_open_seats_at_the_start(
    tournament: Tournament, director: User
) -> None:
    register(tournament, ["Ann", "Ben", "Cal"])
    seating_draw(tournament, by=director, rng=random.Random(2))
    drawn = seats_of(tournament)
    (dee,) = register(tournament, ["Dee"])

    tournament_start(tournament.pk, by=director)

    after = seats_of(tournament)
    assert where(dee)[0] == 1
    for number, seats in drawn.items():
        for seat_number, name in seats.items():
            assert after[number][seat_number] == name
    assert last_action(tournament).summary == "Started with 4 players"


def test_undo_of_a_start_after_the_draw_keeps_the_draw_and_can_start_again(
    tournament: Tournament, director: User
) -> None:
    register(tournament, ["Ann", "Ben", "Cal"])
    seating_draw(tournament, by=director, rng=random.Random(3))
    drawn = seats_of(tournament)
    tournament_start(tournament.pk, by=director)

    assert undo.action_undo_last(tournament.pk, by=director).kind == ActionKind.START
    tournament.refresh_from_db()
    assert tournament.state == "registering" and seats_of(tournament) == drawn

    tournament_start(tournament.pk, by=director)
    assert seats_of(tournament) == drawn


def test_the_console_offers_the_start_after_the_draw(
    tournament: Tournament, director_client: Client
) -> None:
    register(tournament, ["Ann", "Ben", "Cal"])
    response = director_client.post(url("seating_draw", tournament), **HTMX)
    assert response.status_code == 204

    page = director_client.get(url("console", tournament)).content.decode()

    assert "At least two players must be registered to start." not in page
    assert url("console_start", tournament) in page
    assert "Start with 3 players" in page
    assert "The seats are drawn: the start keeps them" in page

    director_client.post(url("console_start", tournament), **HTMX)
    tournament.refresh_from_db()
    assert tournament.state == "running"


# The final table's size ----------------------------------------------------------------------


def test_seven_left_on_six_seat_tables_are_told_why_the_final_table_seats_seven(
    tournament_in_play: Tournament, director_client: Client
) -> None:
    # docs/rules.md, TDA RP-9: "for 7- and 6-handed, two tables of 4 into a 7-handed one".
    seat(six_handed(tournament_in_play), {1: full("A", range(1, 5)), 2: full("B", range(1, 4))})

    (step,) = seating_moves_needed(tournament_in_play)
    assert (step.kind, step.seats, step.usual_seats, step.players) == ("final-table", 7, 6, 7)

    section = director_client.get(url("console_seating", tournament_in_play)).content.decode()
    assert "7 players are left: they fit at a final table of 7 seats" in section
    assert "one more than your 6-seat tables" in section
    assert "play on at 6-seat tables until 6 are left" in section
    assert 'name="seats" value="7"' in section
    assert 'name="seats" value="6"' not in section


def test_an_optional_final_table_does_not_hold_up_balancing(
    tournament_in_play: Tournament, director: User
) -> None:
    # 5 and 2 on six-seat tables: the director may play on rather than seat seven at one
    # table, and the tables still have to be balanced (within 1 with few tables).
    seat(six_handed(tournament_in_play), {1: full("A", range(1, 6)), 2: full("B", range(1, 3))})

    steps = [(i.kind, i.table) for i in seating_moves_needed(tournament_in_play)]

    assert steps == [("final-table", None), ("button", 1), ("button", 2)]


def test_the_director_draws_a_six_seat_final_table_once_six_are_left(
    tournament_in_play: Tournament, director: User, director_client: Client
) -> None:
    seat(six_handed(tournament_in_play), {1: full("A", range(1, 4)), 2: full("B", range(1, 4))})
    (step,) = seating_moves_needed(tournament_in_play)
    assert (step.kind, step.seat_choices) == ("final-table", (6, 7))

    response = director_client.post(
        url("seating_final_table", tournament_in_play), {"seats": "6"}, **HTMX
    )

    assert response.status_code == 204
    assert sorted(seats_of(tournament_in_play)[1]) == list(range(1, 7))
    final = TournamentTable.objects.get(tournament=tournament_in_play, number=1)
    assert final.seats is None  # six, the tournament's own setting
    assert "6 seats" in last_action(tournament_in_play).summary


def test_a_final_table_too_small_for_the_players_left_is_refused(
    tournament_in_play: Tournament, director: User
) -> None:
    seat(six_handed(tournament_in_play), {1: full("A", range(1, 5)), 2: full("B", range(1, 4))})
    before = seats_of(tournament_in_play)

    with pytest.raises(TournamentError, match="7 players are left: a final table of 6 seats"):
        seating_final_table(tournament_in_play.pk, by=director, seats=6)
    with pytest.raises(TournamentError, match="“many” is not a number of seats"):
        seating_final_table(tournament_in_play.pk, by=director, seats="many")
    with pytest.raises(TournamentError, match="The final table takes at most 7 seats, not 8"):
        seating_final_table(tournament_in_play.pk, by=director, seats=8)

    assert seats_of(tournament_in_play) == before


def test_the_director_s_seven_seat_final_table_is_honoured(
    tournament_in_play: Tournament, director_client: Client
) -> None:
    seat(six_handed(tournament_in_play), {1: full("A", range(1, 5)), 2: full("B", range(1, 4))})

    director_client.post(url("seating_final_table", tournament_in_play), {"seats": "7"}, **HTMX)

    assert sorted(seats_of(tournament_in_play)[1]) == list(range(1, 8))
    assert TournamentTable.objects.get(tournament=tournament_in_play, number=1).seats == 7
    section = director_client.get(url("console_seating", tournament_in_play)).content.decode()
    assert "final table: 7 seats" in section


# Late entries after a table break --------------------------------------------------------------


def test_a_late_entry_after_a_table_break_sits_at_a_table_with_room(
    tournament_in_play: Tournament, director: User
) -> None:
    seat(
        six_handed(tournament_in_play),
        {1: full("A", range(1, 7)), 2: full("B", range(1, 6)), 3: full("C", range(1, 4))},
    )
    out(tournament_in_play, director, "A6", "B5", "C3")
    table_break(tournament_in_play.pk, 3, by=director, rng=random.Random(4))
    # 6 / 5 or 5 / 6 after the break, and one seat open.
    assert sum(len(s) for s in seats_of(tournament_in_play).values()) == 11

    zed = Player.objects.create(name="Zed")
    late = entry_late(tournament_in_play.pk, zed.pk, by=director)

    assert where(late)[0] in (1, 2)
    assert sorted(seats_of(tournament_in_play)) == [1, 2]
    assert not TournamentTable.objects.filter(tournament=tournament_in_play, number=4).exists()
    assert (
        TournamentTable.objects.get(tournament=tournament_in_play, number=3).broken_at is not None
    )


def test_a_re_entry_sits_at_the_table_with_fewest_players(
    tournament_in_play: Tournament, director: User
) -> None:
    seat(six_handed(tournament_in_play), {1: full("A", range(1, 6)), 2: full("B", range(1, 6))})
    out(tournament_in_play, director, "B1", "B2")
    gone = Entry.objects.get(tournament=tournament_in_play, player__name="B1")

    again = entry_reentry(gone.pk, by=director)

    assert where(again)[0] == 2
    assert sorted(seats_of(tournament_in_play)) == [1, 2]


def test_a_re_entry_at_a_final_table_with_an_open_seat_takes_it(
    tournament_in_play: Tournament, director: User
) -> None:
    seat(six_handed(tournament_in_play), {1: full("A", range(1, 5)), 2: full("B", range(1, 4))})
    seating_final_table(tournament_in_play.pk, by=director, seats=7, rng=random.Random(5))
    out(tournament_in_play, director, "B3")
    gone = Entry.objects.get(tournament=tournament_in_play, player__name="B3")

    again = entry_reentry(gone.pk, by=director)

    assert where(again)[0] == 1
    assert list(seats_of(tournament_in_play)) == [1]
    assert (
        TournamentTable.objects.filter(
            tournament=tournament_in_play, broken_at__isnull=True
        ).count()
        == 1
    )


def test_a_new_table_never_takes_a_broken_table_s_number(
    tournament_in_play: Tournament, director: User, director_client: Client
) -> None:
    seat(
        six_handed(tournament_in_play),
        {1: full("A", range(1, 7)), 2: full("B", range(1, 7)), 3: {}},
    )
    table_break(tournament_in_play.pk, 3, by=director)

    zed = Player.objects.create(name="Zed")
    late = entry_late(tournament_in_play.pk, zed.pk, by=director)

    assert where(late)[0] == 4
    section = director_client.get(url("console_seating", tournament_in_play)).content.decode()
    assert "Every seat at the open tables was taken: table 4 is opened." in section


# The seat each player is shown -------------------------------------------------------------------


def test_the_tournament_page_shows_the_player_s_table_and_seat(
    tournament_in_play: Tournament, player: User, player_client: Client
) -> None:
    seat(tournament_in_play, {1: {1: "Ann"}})
    Entry.objects.create(
        tournament=tournament_in_play,
        player=Player.objects.create(name="Pat", user=player),
        state=EntryState.PLAYING,
        table_number=1,
        seat_number=4,
    )

    page = player_client.get(url("detail", tournament_in_play)).content.decode()

    assert page.count("Your seat: table 1, seat 4.") == 1


def test_a_player_waiting_for_a_seat_is_told_so(
    tournament_in_play: Tournament, player: User, player_client: Client
) -> None:
    Entry.objects.create(
        tournament=tournament_in_play,
        player=Player.objects.create(name="Pat", user=player),
        state=EntryState.PLAYING,
    )

    page = player_client.get(url("detail", tournament_in_play)).content.decode()

    assert "You are playing: the director gives you your seat." in page


def test_the_panel_keeps_its_separator_with_the_event_name(
    tournament_in_play: Tournament, player: User
) -> None:
    # The panel's head wraps on a phone: the "·" stays at the end of the name's line
    # rather than starting the next one on its own.
    entry = Entry.objects.create(
        tournament=tournament_in_play,
        player=Player.objects.create(name="Pat", user=player),
        state=EntryState.PLAYING,
        table_number=1,
        seat_number=4,
    )
    request = RequestFactory().get("/")
    request.user = player
    html = render_to_string(
        "tournaments/_my_panel.html",
        {"panel": {"tournament": tournament_in_play, "my_entry": entry}},
        request=request,
    )

    assert "</strong>&#160;·&#160;you play at table 1, seat 4" in " ".join(html.split())


# On a phone ------------------------------------------------------------------------------------


@needs_chromium[0]
@needs_chromium[1]
@pytest.mark.django_db(transaction=True)
def test_a_night_drawn_early_on_a_phone(
    tournament: Tournament, director: User, live_server, live_browser: Browser
) -> None:
    """The director draws the seats, starts later, and is offered the final table; a player
    sees their seat on the tournament page. Screenshots in test-artifacts/."""
    ARTIFACTS.mkdir(exist_ok=True)
    six_handed(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(capacity=None)
    entry_register(tournament.pk, make_user("pat"))
    register(tournament, ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"])
    base = live_server.url

    page = live_browser.new_page(viewport=PHONE)
    page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, base, director.get_username(), then=f"/tournaments/{tournament.pk}/console/")
    page.get_by_role("button", name="Draw the seats for 10 players").click()
    start = page.get_by_role("button", name="Start with 10 players")
    expect(start).to_be_visible()
    expect(page.get_by_text("The seats are drawn: the start keeps them")).to_be_visible()
    picture(page, str(ARTIFACTS / "seating-drawn-phone.png"), full_page=True)
    picture(
        page.locator("section[aria-labelledby=start-title]"),
        str(ARTIFACTS / "seating-drawn-start-card-phone.png"),
    )
    drawn = seats_of(tournament)
    start.click()
    expect(page.get_by_text("has started")).to_be_visible(timeout=20_000)
    assert seats_of(tournament) == drawn

    # Three out: seven left on two six-seat tables.
    for table, count in ((1, 2), (2, 1)):
        for entry in Entry.objects.filter(
            tournament=tournament, state="playing", table_number=table
        ).exclude(player__name="pat")[:count]:
            entry_eliminate(tournament.pk, [entry.pk], by=director)
    page.reload()
    offer = page.locator(".ops-step-final-table")
    expect(offer).to_contain_text("one more than your 6-seat tables")
    offer.scroll_into_view_if_needed()
    picture(page.locator("#console-seating"), str(ARTIFACTS / "seating-final-offer-phone.png"))
    page.set_viewport_size(LAPTOP)
    picture(page.locator("#console-seating"), str(ARTIFACTS / "seating-final-offer-desk.png"))
    page.close()

    pat = Entry.objects.get(tournament=tournament, player__name="pat")
    player_page = live_browser.new_page(viewport=PHONE)
    log_in(player_page, base, "pat", then=f"/tournaments/{tournament.pk}/")
    expect(player_page.get_by_text(f"Your seat: table {pat.table_number}")).to_be_visible()
    picture(player_page, str(ARTIFACTS / "seating-seat-phone.png"))
    player_page.set_viewport_size(LAPTOP)
    picture(player_page, str(ARTIFACTS / "seating-seat-desk.png"))
    player_page.close()
