"""Chip counts: the director enters the stacks counted at a table or in the whole room from
the console; the console and the TV show the chip leader, the average stack and the total
counted against the chips in play, a count that does not add up is kept with the difference
said, and the deal form starts from the last counts. Logged, undone and sent once like
every console action."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from tests.pages import without_tokens
from tests.tournaments.factories import seat
from tests.tournaments.lookups import last_action
from tournaments.errors import TournamentError
from tournaments.models import ActionKind, ChipCount, Entry, Tournament, TournamentState
from tournaments.services import chips, undo
from tournaments.services.clock.payload import clock_payload
from tournaments.services.results import entry_eliminate
from tournaments.views.once import FIELD

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# Six entries of 10,000 at two tables: 60,000 in play.
SIX = {
    1: {1: "Ann", 2: "Ben", 3: "Cal"},
    2: {1: "Dee", 2: "Eve", 3: "Fay"},
}


def url(name: str, tournament: Tournament) -> str:
    return reverse(f"tournaments:{name}", args=[tournament.pk])


def count(players: dict[str, Entry], **stacks: int) -> dict[int, int]:
    return {players[name].pk: chips for name, chips in stacks.items()}


def test_a_count_of_the_whole_room_gives_the_leader_the_average_and_the_total(
    tournament_in_play: Tournament, director: User
) -> None:
    players = seat(tournament_in_play, SIX)

    chips.chips_count(
        tournament_in_play.pk,
        count(players, Ann=22000, Ben=8000, Cal=10000, Dee=5000, Eve=9000, Fay=6000),
        by=director,
    )

    overview = chips.chips_overview(tournament_in_play)
    assert overview.in_play == 60000
    assert overview.average == 10000
    assert (overview.leader.name, overview.leader.chips) == ("Ann", 22000)
    assert overview.counted == 60000 and overview.players_counted == 6
    assert overview.check is not None and overview.check.difference == 0
    assert overview.check.text == "The stacks add up to the 60,000 in play."
    assert [[row.name for row in table.rows] for table in overview.tables] == [
        ["Ann", "Ben", "Cal"],
        ["Dee", "Eve", "Fay"],
    ]


def test_a_count_that_does_not_add_up_is_kept_and_the_difference_said(
    tournament_in_play: Tournament, director: User
) -> None:
    players = seat(tournament_in_play, SIX)

    chips.chips_count(
        tournament_in_play.pk,
        count(players, Ann=22000, Ben=8000, Cal=10000, Dee=5000, Eve=9000, Fay=16000),
        by=director,
    )

    overview = chips.chips_overview(tournament_in_play)
    assert overview.counted == 70000
    assert overview.check.difference == 10000
    assert overview.check.text == (
        "The stacks add up to 70,000, 10,000 more than the 60,000 in play."
    )
    assert ChipCount.objects.filter(tournament=tournament_in_play).count() == 6


def test_one_table_at_a_time_keeps_the_other_tables_last_counts(
    tournament_in_play: Tournament, director: User
) -> None:
    players = seat(tournament_in_play, SIX)
    chips.chips_count(
        tournament_in_play.pk,
        count(players, Ann=10000, Ben=10000, Cal=10000, Dee=10000, Eve=10000, Fay=10000),
        by=director,
    )

    chips.chips_count(
        tournament_in_play.pk, count(players, Dee=4000, Eve=16000, Fay=10000), by=director
    )

    overview = chips.chips_overview(tournament_in_play)
    assert (overview.leader.name, overview.leader.chips) == ("Eve", 16000)
    assert overview.counted == 60000 and overview.check.difference == 0
    stacks = {row.name: row.chips for table in overview.tables for row in table.rows}
    assert stacks == {
        "Ann": 10000,
        "Ben": 10000,
        "Cal": 10000,
        "Dee": 4000,
        "Eve": 16000,
        "Fay": 10000,
    }


def test_until_everyone_is_counted_no_difference_is_claimed(
    tournament_in_play: Tournament, director: User
) -> None:
    players = seat(tournament_in_play, SIX)

    chips.chips_count(tournament_in_play.pk, count(players, Ann=30000, Ben=5000), by=director)

    overview = chips.chips_overview(tournament_in_play)
    assert overview.players_counted == 2 and overview.players == 6
    assert overview.check is None
    assert (overview.leader.name, overview.leader.chips) == ("Ann", 30000)


def test_a_player_out_since_the_count_is_no_longer_the_leader(
    tournament_in_play: Tournament, director: User
) -> None:
    players = seat(tournament_in_play, SIX)
    chips.chips_count(tournament_in_play.pk, count(players, Ann=30000, Ben=20000), by=director)

    entry_eliminate(tournament_in_play.pk, [players["Ann"].pk], by=director)

    assert chips.chips_overview(tournament_in_play).leader.name == "Ben"


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("0", "Ann: a stack must be more than 0 chips"),
        ("-5", "Ann: a stack must be more than 0 chips"),
        ("ten", "Ann: “ten” is not a whole number of chips"),
        ("²", "Ann: “²” is not a whole number of chips"),
        ("99999999999999", "Ann: a stack cannot be more than"),
    ],
)
def test_a_bad_stack_is_refused_and_nothing_is_recorded(
    tournament_in_play: Tournament, director: User, value: str, reason: str
) -> None:
    players = seat(tournament_in_play, SIX)
    before = tournament_in_play.actions.count()

    with pytest.raises(TournamentError, match=reason):
        chips.chips_count(
            tournament_in_play.pk,
            {players["Ben"].pk: "9000", players["Ann"].pk: value},
            by=director,
        )

    assert not ChipCount.objects.exists()
    assert tournament_in_play.actions.count() == before


def test_a_stack_for_a_player_not_still_in_is_refused(
    tournament_in_play: Tournament, director: User
) -> None:
    players = seat(tournament_in_play, SIX)
    entry_eliminate(tournament_in_play.pk, [players["Fay"].pk], by=director)

    with pytest.raises(TournamentError, match="Fay is not still in"):
        chips.chips_count(tournament_in_play.pk, count(players, Ann=9000, Fay=1000), by=director)
    with pytest.raises(TournamentError, match="not a player of this tournament"):
        chips.chips_count(tournament_in_play.pk, {"999999": "1000"}, by=director)
    with pytest.raises(TournamentError, match="Enter at least one stack"):
        chips.chips_count(tournament_in_play.pk, {}, by=director)
    assert not ChipCount.objects.exists()


def test_chips_are_only_counted_while_the_tournament_is_in_play(
    tournament: Tournament, director: User
) -> None:
    with pytest.raises(TournamentError, match="not running"):
        chips.chips_count(tournament.pk, {}, by=director)


def test_a_count_is_logged_and_undone(tournament_in_play: Tournament, director: User) -> None:
    players = seat(tournament_in_play, SIX)
    chips.chips_count(tournament_in_play.pk, count(players, Ann=10000, Ben=10000), by=director)
    chips.chips_count(tournament_in_play.pk, count(players, Ann=25000, Ben=3000), by=director)

    action = last_action(tournament_in_play)
    assert action.kind == ActionKind.CHIP_COUNT
    assert action.summary_text == "Chip count: 2 players, Ann leads with 25,000"
    assert undo.action_can_undo(action)

    undo.action_undo(tournament_in_play.pk, action.pk, by=director)

    overview = chips.chips_overview(tournament_in_play)
    assert (overview.leader.name, overview.leader.chips) == ("Ann", 10000)
    assert ChipCount.objects.filter(tournament=tournament_in_play).count() == 2


def test_players_cannot_count_chips(tournament_in_play: Tournament, player: User) -> None:
    players = seat(tournament_in_play, SIX)

    with pytest.raises(PermissionDenied):
        chips.chips_count(tournament_in_play.pk, count(players, Ann=1000), by=player)
    assert not ChipCount.objects.exists()


# -- the console ------------------------------------------------------------------------


def test_the_count_page_has_one_field_per_player_by_table_with_a_token(
    tournament_in_play: Tournament, director: User, director_client: Client
) -> None:
    players = seat(tournament_in_play, SIX)
    chips.chips_count(tournament_in_play.pk, count(players, Ann=12000), by=director)

    page = director_client.get(url("console_chips", tournament_in_play)).content.decode()
    # A random token in the markup may hold "Ann" or "Dee" (tests/pages.py).
    text = without_tokens(page[page.index('id="chip-count-title"') :])

    assert text.index("Table 1") < text.index("Ann") < text.index("Table 2") < text.index("Dee")
    for entry in players.values():
        assert f'name="stack_{entry.pk}"' in page
    assert f'name="{FIELD}"' in page
    assert "12,000" in page  # Ann's last count, shown beside her field


def test_a_count_posted_from_the_console_is_recorded_and_said(
    tournament_in_play: Tournament, director_client: Client
) -> None:
    players = seat(tournament_in_play, SIX)
    data = {f"stack_{players[n].pk}": "10000" for n in ("Dee", "Eve")}
    data[f"stack_{players['Fay'].pk}"] = "15000"
    data[f"stack_{players['Ann'].pk}"] = ""  # not counted this time

    response = director_client.post(
        url("console_chips_count", tournament_in_play), data, follow=True
    )

    page = response.content.decode()
    assert response.redirect_chain[-1][0].startswith(url("console", tournament_in_play))
    assert "Chip count: 3 players" in page
    assert ChipCount.objects.filter(tournament=tournament_in_play).count() == 3
    assert "Fay" in page and "15,000" in page


def test_a_bad_count_posted_keeps_what_was_typed_and_records_nothing(
    tournament_in_play: Tournament, director_client: Client
) -> None:
    players = seat(tournament_in_play, SIX)
    data = {f"stack_{players['Ann'].pk}": "12000", f"stack_{players['Ben'].pk}": "12,5"}

    response = director_client.post(url("console_chips_count", tournament_in_play), data)

    page = response.content.decode()
    assert "Ben: “12,5” is not a whole number of chips" in page
    assert f'name="stack_{players["Ann"].pk}" value="12000"' in page
    assert not ChipCount.objects.exists()


def test_a_count_form_sent_twice_records_once(
    tournament_in_play: Tournament, director_client: Client
) -> None:
    players = seat(tournament_in_play, SIX)
    data = {f"stack_{players['Ann'].pk}": "12000", FIELD: "k3y-0f-0ne-ch1p-c0unt"}

    director_client.post(url("console_chips_count", tournament_in_play), data)
    second = director_client.post(url("console_chips_count", tournament_in_play), data, follow=True)

    assert "That was already recorded" in second.content.decode()
    assert ChipCount.objects.count() == 1


def test_players_get_403_from_the_count_page_and_form(
    tournament_in_play: Tournament, player_client: Client
) -> None:
    players = seat(tournament_in_play, SIX)

    assert player_client.get(url("console_chips", tournament_in_play)).status_code == 403
    response = player_client.post(
        url("console_chips_count", tournament_in_play), {f"stack_{players['Ann'].pk}": "1000"}
    )
    assert response.status_code == 403
    assert not ChipCount.objects.exists()


def test_the_console_shows_leader_average_and_the_count_against_the_chips_in_play(
    tournament_in_play: Tournament, director: User, director_client: Client
) -> None:
    players = seat(tournament_in_play, SIX)
    chips.chips_count(
        tournament_in_play.pk,
        count(players, Ann=22000, Ben=8000, Cal=10000, Dee=5000, Eve=9000, Fay=16000),
        by=director,
    )

    page = director_client.get(url("console", tournament_in_play)).content.decode()

    assert 'id="console-chips"' in page
    assert "Ann" in page and "22,000" in page
    assert "Average stack" in page and "10,000" in page
    assert "The stacks add up to 70,000, 10,000 more than the 60,000 in play." in page
    section = director_client.get(url("console_chips_section", tournament_in_play), **HTMX)
    assert "10,000 more than the 60,000 in play" in section.content.decode()


def test_the_deal_form_starts_from_the_last_counts(
    tournament_in_play: Tournament, director: User, director_client: Client
) -> None:
    players = seat(tournament_in_play, SIX)
    for name in ("Dee", "Eve", "Fay"):
        entry_eliminate(tournament_in_play.pk, [players[name].pk], by=director)
    chips.chips_count(
        tournament_in_play.pk, count(players, Ann=30000, Ben=20000, Cal=10000), by=director
    )

    page = director_client.get(url("console_results", tournament_in_play)).content.decode()

    assert f'name="stack_{players["Ann"].pk}" value="30000"' in page
    assert f'name="stack_{players["Cal"].pk}" value="10000"' in page


# -- the TV -----------------------------------------------------------------------------


def test_the_tv_payload_and_fragment_show_the_chip_leader(
    tournament_in_play: Tournament, director: User
) -> None:
    players = seat(tournament_in_play, SIX)
    payload = clock_payload(tournament_in_play.pk)
    assert payload["field"]["chip_leader"] is None

    chips.chips_count(tournament_in_play.pk, count(players, Cal=31000, Ann=12000), by=director)

    payload = clock_payload(tournament_in_play.pk)
    assert payload["field"]["chip_leader"] == {"name": "Cal", "chips": 31000}
    assert payload["field"]["chips_in_play"] == 60000
    html = render_to_string("tournaments/_tv_chips.html", {"payload": payload})
    assert "Cal" in html and "31,000" in html and "60,000" in html and "10,000" in html
    assert 'data-clock="chip-leader"' in html


def test_the_tv_fragment_says_when_nobody_is_counted(tournament_in_play: Tournament) -> None:
    seat(tournament_in_play, SIX)

    html = render_to_string(
        "tournaments/_tv_chips.html", {"payload": clock_payload(tournament_in_play.pk)}
    )

    assert "Not counted yet" in html


def test_a_finished_tournament_takes_no_count(
    tournament_in_play: Tournament, director: User
) -> None:
    players = seat(tournament_in_play, SIX)
    tournament_in_play.state = TournamentState.FINISHED
    tournament_in_play.save(update_fields=["state"])

    with pytest.raises(TournamentError, match="already finished"):
        chips.chips_count(tournament_in_play.pk, count(players, Ann=1000), by=director)
