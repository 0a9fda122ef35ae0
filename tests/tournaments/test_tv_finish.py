"""The TV clock once the night is over and what it says along the way: the winner, the final
places and what each was actually paid (a deal's amounts, not the standard payouts), nothing
about a next break; the add-on break named as such; a limit game's blinds beside its limits;
the socket answering the page's pings, so a screen can tell a live link from a dead one."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from config.asgi import application
from tests.tournaments.factories import seat
from tests.tournaments.levels import BREAK_1, BREAK_2, LEVEL_3
from tournaments.models import BlindLevel, Entry, Tournament
from tournaments.services import undo
from tournaments.services.results import entry_eliminate, tournament_finish

from .tv_html import clock_text, shown, tv_json, tv_page

TEN = {
    1: {1: "Ann", 2: "Ben", 3: "Cal", 4: "Dee", 5: "Eve"},
    2: {1: "Fay", 2: "Gus", 3: "Hal", 4: "Ivy", 5: "Jon"},
}


def clock_running(tournament: Tournament, index: int) -> Tournament:
    """The clock on row ``index`` with ten minutes left, running."""
    Tournament.objects.filter(pk=tournament.pk).update(
        level_index=index, level_ends_at=timezone.now() + timedelta(minutes=10)
    )
    tournament.refresh_from_db()
    return tournament


def three_left(tournament_in_play: Tournament, director: User) -> dict[str, Entry]:
    """Ten entries at 20: a pool of 200 paid 100 / 60 / 40, with Ann, Ben and Cal left."""
    players = seat(tournament_in_play, TEN)
    for name in ("Jon", "Ivy", "Hal", "Gus", "Fay", "Eve", "Dee"):
        entry_eliminate(tournament_in_play.pk, [players[name].pk], by=director)
    return players


def places_shown(html: str) -> list[tuple[str, str, str]]:
    return [
        (
            " ".join(find_in(item, "tv-place")),
            " ".join(find_in(item, "tv-name")),
            " ".join(find_in(item, "tv-prize")),
        )
        for item in shown(html, "data-place")
    ]


def find_in(element, css_class: str) -> list[str]:  # type: ignore[no-untyped-def]
    found = []
    for child in element.children:
        if css_class in (child.attrs.get("class") or "").split():
            found.append(child.words)
        found.extend(find_in(child, css_class))
    return found


# ---------------------------------------------------------------------------- the finish


def test_after_the_finish_the_tv_shows_the_winner_the_places_and_the_prizes(
    client: Client, tournament_in_play: Tournament, director: User
) -> None:
    clock_running(tournament_in_play, LEVEL_3)
    players = three_left(tournament_in_play, director)
    entry_eliminate(tournament_in_play.pk, [players["Cal"].pk], by=director)
    entry_eliminate(tournament_in_play.pk, [players["Ben"].pk], by=director)
    tournament_finish(tournament_in_play.pk, by=director)

    html = tv_page(client, tournament_in_play)

    (winner,) = shown(html, "data-tv", "winner")
    assert winner.words == "Ann"
    assert shown(html, "data-tv", "winner-prize")[0].words == "100"
    assert places_shown(html)[:4] == [
        ("1", "Ann", "100"),
        ("2", "Ben", "60"),
        ("3", "Cal", "40"),
        ("4", "Dee", "–"),
    ]
    # The clock of a night that is over: no countdown, no next break, no standard payouts.
    assert not shown(html, "data-clock", "next-break")
    assert not shown(html, "data-clock", "time")
    assert not shown(html, "data-tv", "payouts")
    assert not shown(html, "data-tv", "deal")
    assert clock_text(html, "status") == "Finished"

    results = tv_json(client, tournament_in_play)["tv"]["results"]
    assert results["winner"] == {
        "place": 1,
        "name": "Ann",
        "prize": 100,
        "bounties": 0,
        "deal": False,
    }
    assert [(p["place"], p["name"], p["prize"]) for p in results["places"][:3]] == [
        (1, "Ann", 100),
        (2, "Ben", 60),
        (3, "Cal", 40),
    ]
    assert results["deal"] is False


def test_a_deal_shows_the_amounts_actually_paid(
    client: Client, tournament_in_play: Tournament, director: User
) -> None:
    from tournaments.services.results import deal_record

    players = three_left(tournament_in_play, director)
    ann, ben, cal = players["Ann"], players["Ben"], players["Cal"]
    deal_record(tournament_in_play.pk, {ann.pk: 78, ben.pk: 64, cal.pk: 58}, by=director)

    html = tv_page(client, tournament_in_play)

    assert shown(html, "data-tv", "winner")[0].words == "Ann"
    assert places_shown(html)[:4] == [
        ("1", "Ann", "78"),
        ("2", "Ben", "64"),
        ("3", "Cal", "58"),
        ("4", "Dee", "–"),
    ]
    (deal,) = shown(html, "data-tv", "deal")
    assert deal.words == "Deal among the last 3 players"
    in_deal = [item.attrs.get("data-deal") for item in shown(html, "data-place")]
    assert in_deal[:4] == ["1", "1", "1", None]
    results = tv_json(client, tournament_in_play)["tv"]["results"]
    assert results["deal"] is True
    assert [p["prize"] for p in results["places"][:3]] == [78, 64, 58]


def test_undoing_the_finish_puts_the_clock_back_on_the_tv(
    client: Client, tournament_in_play: Tournament, director: User
) -> None:
    clock_running(tournament_in_play, LEVEL_3)
    players = three_left(tournament_in_play, director)
    entry_eliminate(tournament_in_play.pk, [players["Cal"].pk], by=director)
    entry_eliminate(tournament_in_play.pk, [players["Ben"].pk], by=director)
    tournament_finish(tournament_in_play.pk, by=director)
    undo.action_undo_last(tournament_in_play.pk, by=director)

    html = tv_page(client, tournament_in_play)

    assert not shown(html, "data-tv", "winner")
    assert shown(html, "data-clock", "time")
    assert shown(html, "data-clock", "next-break")
    assert tv_json(client, tournament_in_play)["tv"]["results"] is None


def test_the_winner_of_a_bounty_tournament_keeps_the_bounty_on_their_head(
    client: Client, tournament_in_play: Tournament, director: User
) -> None:
    tournament_in_play.bounty = 5
    tournament_in_play.save(update_fields=["bounty"])
    players = seat(tournament_in_play, {1: {1: "Ann", 2: "Ben", 3: "Cal"}})
    entry_eliminate(
        tournament_in_play.pk, [players["Cal"].pk], by=director, eliminated_by=players["Ann"].pk
    )
    entry_eliminate(
        tournament_in_play.pk, [players["Ben"].pk], by=director, eliminated_by=players["Ann"].pk
    )
    tournament_finish(tournament_in_play.pk, by=director)

    results = tv_json(client, tournament_in_play)["tv"]["results"]

    assert (results["winner"]["name"], results["winner"]["bounties"]) == ("Ann", 15)
    html = tv_page(client, tournament_in_play)
    assert "15" in shown(html, "data-tv", "winner-bounties")[0].words


# ---------------------------------------------------------------------------- breaks and limits


def test_the_add_on_break_is_called_the_add_on_break(
    client: Client, tournament_in_play: Tournament
) -> None:
    clock_running(tournament_in_play, LEVEL_3)
    html = tv_page(client, tournament_in_play)
    assert clock_text(html, "next") == "Add-on break, 10 min"

    clock_running(tournament_in_play, BREAK_1)
    html = tv_page(client, tournament_in_play)
    assert clock_text(html, "level") == "Add-on break"

    # The other break is an ordinary one.
    clock_running(tournament_in_play, BREAK_2)
    assert clock_text(tv_page(client, tournament_in_play), "level") == "Break"
    assert tv_json(client, tournament_in_play)["tv"]["addon_break"] == BREAK_1


def test_a_limit_game_shows_its_blinds_as_well_as_its_limits(
    client: Client, tournament_in_play: Tournament
) -> None:
    BlindLevel.objects.filter(blind_structure=tournament_in_play.blind_structure).exclude(
        kind="break"
    ).update(small_bet=100, big_bet=200)
    clock_running(tournament_in_play, 0)  # level 1: blinds 25 / 50, limits 100 / 200

    html = tv_page(client, tournament_in_play)

    assert clock_text(html, "bets-label") == "Limits"
    assert clock_text(html, "bets") == "100 / 200"
    assert shown(html, "data-clock", "blinds")
    assert clock_text(html, "blinds") == "Blinds 25 / 50"


def test_a_no_limit_or_pot_limit_game_shows_its_blinds_once(
    client: Client, tournament_in_play: Tournament
) -> None:
    clock_running(tournament_in_play, 0)
    html = tv_page(client, tournament_in_play)
    assert clock_text(html, "bets-label") == "Blinds"
    assert not shown(html, "data-clock", "blinds")


# ---------------------------------------------------------------------------- the live light


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_clock_socket_answers_a_ping(tournament: Tournament) -> None:
    """The page pings now and then and counts its link dead when no answer comes: a socket
    whose far end has gone (a dropped Wi-Fi) never says it closed."""
    socket = WebsocketCommunicator(
        application,
        f"/ws/tournaments/{tournament.tv_token}/clock/",
        headers=[(b"host", b"localhost"), (b"origin", b"http://localhost")],
    )
    connected, _ = await socket.connect(timeout=5)
    assert connected
    assert (await socket.receive_json_from(timeout=5))["type"] == "clock"
    await socket.send_to(text_data="ping")
    assert await socket.receive_json_from(timeout=5) == {"type": "pong"}
    await socket.disconnect()
