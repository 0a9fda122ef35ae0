"""The console's seating section and its actions: shown to directors, refused to players,
htmx and plain POSTs, refusals shown in the section with nothing changed."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.pages import without_tokens
from tests.tournaments.factories import full, register, seat
from tests.tournaments.lookups import last_action, seats_of, url, where
from tournaments.models import ActionKind, EntryState, Tournament, TournamentTable
from tournaments.services.seating import table_button_set

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_the_console_shows_seat_cards_and_asks_for_the_buttons(
    tournament_in_play: Tournament, director_client: Client
) -> None:
    seat(
        tournament_in_play,
        {1: full("A", range(1, 8)), 2: full("B", range(1, 8)), 3: full("C", range(1, 6))},
    )

    page = director_client.get(url("console", tournament_in_play)).content.decode()

    assert 'id="console-seating"' in page
    assert "A7" in page and "C5" in page
    assert "console_ops.css" in page
    assert "A player must move to or from table 1: where is its button for the next hand?" in page
    assert "A player must move to or from table 3" in page


def test_the_section_alone_for_its_refresh(
    tournament_in_play: Tournament, director_client: Client
) -> None:
    seat(tournament_in_play, {1: {1: "Ann", 2: "Ben"}})
    response = director_client.get(url("console_seating", tournament_in_play), **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.startswith('<section id="console-seating"')
    assert 'hx-trigger="tournament-changed from:body, entries-changed from:body"' in body


def test_a_move_is_shown_and_confirmed_with_htmx(
    tournament_in_play: Tournament, director: User, director_client: Client
) -> None:
    players = seat(
        tournament_in_play,
        {1: full("A", range(1, 8)), 2: full("B", range(1, 8)), 3: full("C", range(1, 6))},
    )
    table_button_set(tournament_in_play.pk, 1, 5, by=director)
    table_button_set(tournament_in_play.pk, 3, 2, by=director)
    section = director_client.get(url("console_seating", tournament_in_play)).content.decode()
    assert "table 1 seat 7 → table 3 seat 6" in section

    response = director_client.post(
        url("seating_move", tournament_in_play),
        {"entry": players["A7"].pk, "table": 3, "seat": 6},
        **HTMX,
    )

    assert response.status_code == 204
    assert response["HX-Trigger"] == "tournament-changed"
    assert where(players["A7"]) == (3, 6)
    assert (
        "A7: table 1 seat 7 → table 3 seat 6"
        in director_client.get(url("console_seating", tournament_in_play)).content.decode()
    )


def test_a_move_to_an_occupied_seat_is_refused_in_the_section(
    tournament_in_play: Tournament, director_client: Client
) -> None:
    players = seat(tournament_in_play, {1: {1: "Ann", 2: "Ben"}})

    response = director_client.post(
        url("seating_move", tournament_in_play),
        {"entry": players["Ann"].pk, "table": 1, "seat": 2},
        **HTMX,
    )

    assert response.status_code == 200
    assert "Table 1 seat 2 is taken by Ben." in response.content.decode()
    assert "HX-Trigger" not in response
    assert where(players["Ann"]) == (1, 1)


def test_without_javascript_actions_redirect_to_the_console_with_a_message(
    tournament_in_play: Tournament, director_client: Client
) -> None:
    players = seat(tournament_in_play, {1: {1: "Ann", 2: "Ben"}})

    refused = director_client.post(
        url("seating_move", tournament_in_play),
        {"entry": players["Ann"].pk, "table": 1, "seat": 2},
        follow=True,
    )
    assert refused.redirect_chain == [(url("console", tournament_in_play), 302)]
    assert "Table 1 seat 2 is taken by Ben." in refused.content.decode()

    done = director_client.post(
        url("seating_button", tournament_in_play, 1), {"seat": 2}, follow=True
    )
    assert "Table 1: button at seat 2." in done.content.decode()
    assert TournamentTable.objects.get(tournament=tournament_in_play, number=1).button == 2


def test_the_draw_from_the_console(tournament: Tournament, director_client: Client) -> None:
    register(tournament, ["Ann", "Ben", "Cal"])
    page = director_client.get(url("console", tournament)).content.decode()
    assert "Draw the seats for 3 players" in page

    response = director_client.post(url("seating_draw", tournament), **HTMX)

    assert response.status_code == 204
    assert sorted(seats_of(tournament)[1].values()) == ["Ann", "Ben", "Cal"]
    assert last_action(tournament).kind == ActionKind.SEAT


def test_a_player_without_a_seat_draws_one_from_the_console(
    tournament_in_play: Tournament, director_client: Client
) -> None:
    seat(tournament_in_play, {1: {1: "Ann", 2: "Ben"}})
    (late,) = register(tournament_in_play, ["Zed"])
    late.state = EntryState.PLAYING
    late.save(update_fields=["state"])
    # Val registered but has not paid in: the entries' "Late entry" seats her, not this section.
    register(tournament_in_play, ["Val"])
    section = director_client.get(url("console_seating", tournament_in_play)).content.decode()
    assert "Waiting for a seat" in section and "Zed" in section
    assert "Val" not in without_tokens(section)

    director_client.post(url("seating_seat", tournament_in_play, late.pk), **HTMX)

    assert where(late)[0] == 1


def test_breaking_a_table_and_the_final_table_from_the_console(
    tournament_in_play: Tournament, director_client: Client
) -> None:
    seat(
        tournament_in_play,
        {1: full("A", range(1, 5)), 2: full("B", range(1, 4)), 3: full("C", range(1, 3))},
    )
    assert (
        "Draw the final table"
        in director_client.get(url("console_seating", tournament_in_play)).content.decode()
    )

    director_client.post(url("seating_break", tournament_in_play, 3), **HTMX)
    assert sorted(seats_of(tournament_in_play)) == [1, 2]
    section = director_client.get(url("console_seating", tournament_in_play)).content.decode()
    # The new seat cards to hand out; no button is known, so the director is told to ask.
    assert "New seats:" in section and "<strong>C1</strong> →" in section
    assert "Where the button is not known, ask the dealer" in section

    director_client.post(url("seating_final_table", tournament_in_play), **HTMX)
    assert list(seats_of(tournament_in_play)) == [1]


ACTIONS = [
    ("seating_draw", ()),
    ("seating_seat", ("entry",)),
    ("seating_move", ()),
    ("seating_button", (1,)),
    ("seating_break", (1,)),
    ("seating_final_table", ()),
]


@pytest.mark.parametrize(("name", "args"), ACTIONS)
def test_players_get_403_and_nothing_changes(
    tournament_in_play: Tournament, player_client: Client, name: str, args: tuple[object, ...]
) -> None:
    players = seat(tournament_in_play, {1: {1: "Ann", 2: "Ben"}, 2: {1: "Cal"}})
    actions = tournament_in_play.actions.count()
    resolved = [players["Ann"].pk if a == "entry" else a for a in args]

    response = player_client.post(
        url(name, tournament_in_play, *resolved),  # type: ignore[arg-type]
        {"entry": players["Ann"].pk, "table": 2, "seat": 5, "seat_number": 1},
    )

    assert response.status_code == 403
    assert tournament_in_play.actions.count() == actions
    assert where(players["Ann"]) == (1, 1)


def test_players_cannot_read_the_section(
    tournament_in_play: Tournament, player_client: Client
) -> None:
    assert player_client.get(url("console_seating", tournament_in_play)).status_code == 403


def test_anonymous_visitors_are_sent_to_log_in(
    tournament_in_play: Tournament, client: Client
) -> None:
    response = client.post(url("seating_draw", tournament_in_play))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_actions_are_post_only(tournament_in_play: Tournament, director_client: Client) -> None:
    assert director_client.get(url("seating_draw", tournament_in_play)).status_code == 405


def test_a_late_seat_between_the_small_blind_and_the_button_is_told_to_wait(
    tournament_in_play: Tournament, director: User, director_client: Client
) -> None:
    # TDA 10: seats 1-6 taken, the button at 6 (small blind 1): open seats 7-9 wait.
    seat(tournament_in_play, {1: full("A", range(1, 7))})
    table_button_set(tournament_in_play.pk, 1, 6, by=director)
    (late,) = register(tournament_in_play, ["Zed"])
    late.state = EntryState.PLAYING
    late.save(update_fields=["state"])

    director_client.post(url("seating_seat", tournament_in_play, late.pk), **HTMX)

    section = director_client.get(url("console_seating", tournament_in_play)).content.decode()
    assert "<strong>Zed</strong> →" in section and "waits for the button" in section
    assert "Where the button is not known" not in section
