"""The console's results section: eliminations, payouts, deals and the end, from a phone;
players get 403 and nothing changes."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import seat
from tests.tournaments.lookups import last_action
from tournaments.models import ActionKind, Entry, EntryState, Tournament, TournamentState
from tournaments.services.results import entry_eliminate

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
TEN = {
    1: {1: "Ann", 2: "Ben", 3: "Cal", 4: "Dee", 5: "Eve"},
    2: {1: "Fay", 2: "Gus", 3: "Hal", 4: "Ivy", 5: "Jon"},
}


def url(name: str, tournament: Tournament) -> str:
    return reverse(f"tournaments:{name}", args=[tournament.pk])


def state(entry: Entry) -> tuple[str, int | None, int]:
    entry.refresh_from_db()
    return entry.state, entry.place, entry.prize


def test_the_console_shows_the_payouts_and_the_elimination_form(
    tournament_in_play: Tournament, director_client: Client
) -> None:
    seat(tournament_in_play, TEN)

    page = director_client.get(url("console", tournament_in_play)).content.decode()

    assert 'id="console-results"' in page
    assert "Prize pool 200 from 10 entries" in page
    assert "<strong>100</strong>" in page and "<strong>60</strong>" in page
    assert "Record the elimination" in page
    assert "Knocked out by" in page


def test_two_out_on_one_hand_from_the_console(
    tournament_in_play: Tournament, director_client: Client
) -> None:
    players = seat(tournament_in_play, TEN)
    ann, ben, cal = players["Ann"], players["Ben"], players["Cal"]

    response = director_client.post(
        url("results_eliminate", tournament_in_play),
        {
            "out": [ben.pk, cal.pk],
            f"stack_{ben.pk}": "3000",
            f"stack_{cal.pk}": "5000",
            # A stack typed for someone not ticked is ignored.
            f"stack_{ann.pk}": "9000",
            "by": ann.pk,
        },
        **HTMX,
    )

    assert response.status_code == 204 and response["HX-Trigger"] == "tournament-changed"
    assert state(cal)[:2] == (EntryState.OUT, 9)
    assert state(ben)[:2] == (EntryState.OUT, 10)
    ann.refresh_from_db()
    assert ann.knockouts_count == 2
    section = director_client.get(url("console_results", tournament_in_play)).content.decode()
    assert "Out: Cal (place 9), Ben (place 10), by Ann" in section


def test_an_elimination_of_a_player_already_out_is_refused_in_the_section(
    tournament_in_play: Tournament, director: User, director_client: Client
) -> None:
    players = seat(tournament_in_play, TEN)
    entry_eliminate(tournament_in_play.pk, [players["Jon"].pk], by=director)

    response = director_client.post(
        url("results_eliminate", tournament_in_play), {"out": [players["Jon"].pk]}, **HTMX
    )

    assert response.status_code == 200
    assert "Jon is already out (place 10)." in response.content.decode()
    assert last_action(tournament_in_play).summary == "Out: Jon (place 10)"


def test_two_out_without_their_stacks_is_refused(
    tournament_in_play: Tournament, director_client: Client
) -> None:
    players = seat(tournament_in_play, TEN)

    response = director_client.post(
        url("results_eliminate", tournament_in_play),
        {"out": [players["Ann"].pk, players["Ben"].pk]},
        **HTMX,
    )

    assert "enter the stack of Ann, Ben" in response.content.decode()
    assert state(players["Ann"])[0] == EntryState.PLAYING


def three_left(tournament_in_play: Tournament, director: User) -> dict[str, Entry]:
    players = seat(tournament_in_play, TEN)
    for name in ("Jon", "Ivy", "Hal", "Gus", "Fay", "Eve", "Dee"):
        entry_eliminate(tournament_in_play.pk, [players[name].pk], by=director)
    return players


def test_an_icm_proposal_is_shown_to_edit_and_a_deal_recorded(
    tournament_in_play: Tournament, director: User, director_client: Client
) -> None:
    players = three_left(tournament_in_play, director)
    ann, ben, cal = players["Ann"], players["Ben"], players["Cal"]
    stacks = {f"stack_{ann.pk}": "50000", f"stack_{ben.pk}": "30000", f"stack_{cal.pk}": "20000"}

    proposal = director_client.post(
        url("results_deal_propose", tournament_in_play), {**stacks, "method": "icm"}, **HTMX
    )

    body = proposal.content.decode()
    assert proposal.status_code == 200
    assert "ICM proposal" in body and "the amounts must add up to 200" in body
    assert f'name="prize_{ann.pk}" value="77"' in body
    assert f'name="prize_{ben.pk}" value="65"' in body
    assert f'name="prize_{cal.pk}" value="58"' in body
    assert tournament_in_play.actions.count() == 7  # a proposal records nothing

    recorded = director_client.post(
        url("results_deal_record", tournament_in_play),
        {f"prize_{ann.pk}": "80", f"prize_{ben.pk}": "65", f"prize_{cal.pk}": "55", **stacks},
        **HTMX,
    )

    assert recorded.status_code == 204
    tournament_in_play.refresh_from_db()
    assert tournament_in_play.state == TournamentState.FINISHED
    assert [state(e)[1:] for e in (ann, ben, cal)] == [(1, 80), (2, 65), (3, 55)]
    assert last_action(tournament_in_play).kind == ActionKind.DEAL
    final = director_client.get(url("console_results", tournament_in_play)).content.decode()
    assert "Final results" in final


def test_a_deal_that_does_not_add_up_keeps_what_was_typed(
    tournament_in_play: Tournament, director: User, director_client: Client
) -> None:
    players = three_left(tournament_in_play, director)
    ann, ben, cal = players["Ann"], players["Ben"], players["Cal"]

    response = director_client.post(
        url("results_deal_record", tournament_in_play),
        {f"prize_{ann.pk}": "90", f"prize_{ben.pk}": "65", f"prize_{cal.pk}": "55"},
        **HTMX,
    )

    body = response.content.decode()
    assert "The deal pays 210, but 200 is left to pay" in body
    assert f'name="prize_{ann.pk}" value="90"' in body
    tournament_in_play.refresh_from_db()
    assert tournament_in_play.state == TournamentState.RUNNING


def test_a_chip_chop_proposal_without_javascript_has_its_own_page(
    tournament_in_play: Tournament, director: User, director_client: Client
) -> None:
    players = three_left(tournament_in_play, director)
    stacks = {
        f"stack_{players[n].pk}": s for n, s in (("Ann", 50000), ("Ben", 30000), ("Cal", 20000))
    }

    page = director_client.post(
        url("results_deal_propose", tournament_in_play), {**stacks, "method": "chip-chop"}
    ).content.decode()

    assert "<!doctype html>" in page and "Chip-chop proposal" in page
    assert f'name="prize_{players["Ann"].pk}" value="80"' in page


def test_ending_the_tournament_from_the_console(
    tournament_in_play: Tournament, director: User, director_client: Client
) -> None:
    players = seat(tournament_in_play, {1: {1: "Ann", 2: "Ben"}})
    entry_eliminate(
        tournament_in_play.pk, [players["Ben"].pk], by=director, eliminated_by=players["Ann"].pk
    )
    # The end is asked at the top of the players, where the last one out was put out.
    assert (
        "End the tournament: Ann wins"
        in director_client.get(url("console", tournament_in_play)).content.decode()
    )

    response = director_client.post(url("results_finish", tournament_in_play), follow=True)

    assert "The tournament is over: Ann wins." in response.content.decode()
    tournament_in_play.refresh_from_db()
    assert tournament_in_play.state == TournamentState.FINISHED
    assert state(players["Ann"])[1:] == (1, 40)


ACTIONS = ["results_eliminate", "results_deal_propose", "results_deal_record", "results_finish"]


@pytest.mark.parametrize("name", ACTIONS)
def test_players_get_403_and_nothing_changes(
    tournament_in_play: Tournament, player_client: Client, name: str
) -> None:
    players = seat(tournament_in_play, {1: {1: "Ann", 2: "Ben"}})
    ben = players["Ben"]

    response = player_client.post(
        url(name, tournament_in_play),
        {"out": [ben.pk], f"stack_{ben.pk}": "10", f"prize_{ben.pk}": "40", "method": "icm"},
    )

    assert response.status_code == 403
    assert state(ben) == (EntryState.PLAYING, None, 0)
    tournament_in_play.refresh_from_db()
    assert (
        tournament_in_play.state == TournamentState.RUNNING
        and not tournament_in_play.actions.exists()
    )


def test_players_cannot_read_the_section(
    tournament_in_play: Tournament, player_client: Client
) -> None:
    assert player_client.get(url("console_results", tournament_in_play)).status_code == 403
