"""One "net" everywhere (what a player received minus everything they paid, fees included),
and an event too small to count said so where players look: the leaderboard and its page."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.test import Client
from django.urls import reverse

from series.models import Player, Standing
from series.net import net_result
from series.selectors import player_profile
from series.services.settle import settle_up_compute, settle_up_lines
from series.services.standings import standings_recompute
from tests.series.night import account, finished_event, guest, season

pytestmark = pytest.mark.django_db


@pytest.fixture
def night() -> dict[str, object]:
    """Four players paid 25 each (a 20 buy-in and a 5 fee): Ann won 50, Ben 30."""
    s = season()
    ann, ben, cal, dee = account("Ann"), account("Ben"), account("Cal"), guest("Dee")
    event = finished_event(
        s, [(ann, 1, 50, 25), (ben, 2, 30, 25), (cal, 3, 0, 25), (dee, 4, 0, 25)]
    )
    return {"event": event, "ann": ann, "season": s}


def client_of(player: Player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def test_net_is_what_a_player_received_minus_everything_they_paid() -> None:
    assert net_result(prize=50, bounties=10, paid_in=25) == 35
    assert net_result(prize=0, bounties=0, paid_in=25) == -25


def test_the_profile_the_settle_up_and_the_standings_agree_on_net(
    night: dict[str, object],
) -> None:
    event, ann, s = night["event"], night["ann"], night["season"]
    standings_recompute(s.pk)  # type: ignore[attr-defined]

    lines = {line.player_name: line for line in settle_up_lines(event)}  # type: ignore[arg-type]
    assert lines["Ann"].net == 25
    assert lines["Cal"].net == -25
    assert player_profile(ann).net == 25  # type: ignore[arg-type]
    assert Standing.objects.get(season=s, player=ann).net == 25


def test_the_transfers_still_settle_the_prize_pool_with_fees_apart(
    night: dict[str, object],
) -> None:
    event = night["event"]
    lines = {line.player_name: line for line in settle_up_lines(event)}  # type: ignore[arg-type]
    # What the transfers settle: won against what went into the prize pool.
    assert lines["Ann"].to_settle == 30 and lines["Dee"].to_settle == -20
    transfers = settle_up_compute(event.pk)  # type: ignore[attr-defined]
    assert sum(t.amount_cents for t in transfers) == 4000


def test_the_settle_up_page_shows_net_with_the_fees_and_explains_it(
    night: dict[str, object],
) -> None:
    html = (
        client_of(night["ann"])
        .get(reverse("series:settle_up", args=[night["event"].pk]))
        .content.decode()
    )  # type: ignore[attr-defined]

    ann_row = re.search(r"<tr><td[^>]*>Ann</td>.*?</tr>", html, re.S)
    assert ann_row and "+25" in ann_row.group(0) and "+30" not in ann_row.group(0)
    assert "minus everything they paid" in html
    assert "The payments settle the prize pool" in html
    # The column header carries the definition as a tooltip.
    assert re.search(r'<th class="num"><abbr title="[^"]*minus everything they paid', html)


def test_the_profile_page_explains_net_the_same_way(night: dict[str, object]) -> None:
    ann = night["ann"]
    html = client_of(ann).get(reverse("series:player", args=[ann.pk])).content.decode()  # type: ignore[attr-defined]
    assert "+25" in html
    assert "minus everything they paid" in html


@pytest.fixture
def small_night() -> dict[str, object]:
    """A season counting fields of five or more: event 1 had five players, event 2 three."""
    s = season(min_field=5)
    players = [guest(name) for name in ("Ann", "Ben", "Cal", "Dee", "Eve")]
    finished_event(s, [(p, place, 0, 25) for place, p in enumerate(players, start=1)], number=1)
    small = finished_event(
        s, [(p, place, 0, 25) for place, p in enumerate(players[:3], start=1)], number=2
    )
    standings_recompute(s.pk)
    return {"season": s, "small": small}


def test_the_leaderboard_says_which_events_do_not_count(
    player_client: Client, small_night: dict[str, object]
) -> None:
    s, small = small_night["season"], small_night["small"]
    html = player_client.get(reverse("series:standings", args=[s.pk])).content.decode()  # type: ignore[attr-defined]

    listed = re.search(r'<ul class="not-counted">(.*?)</ul>', html, re.S)
    assert listed, "the leaderboard lists the events that do not count"
    assert reverse("series:event", args=[small.pk]) in listed.group(1)  # type: ignore[attr-defined]
    assert "Event 2" in listed.group(1) and "Event 1" not in listed.group(1)
    assert "does not count: fewer than 5 players" in listed.group(1)


def test_the_event_page_says_an_event_too_small_does_not_count(
    client: Client, small_night: dict[str, object]
) -> None:
    small = small_night["small"]
    html = client.get(reverse("series:event", args=[small.pk])).content.decode()  # type: ignore[attr-defined]

    assert "Does not count: fewer than 5 players" in html


def test_the_calendar_marks_an_event_too_small_as_not_counting(
    client: Client, small_night: dict[str, object]
) -> None:
    s = small_night["season"]
    html = client.get(reverse("series:season", args=[s.pk])).content.decode()  # type: ignore[attr-defined]

    assert html.count("does not count") == 1


def test_the_results_csv_has_a_net_column_with_the_same_definition(
    night: dict[str, object], player_client: Client
) -> None:
    event = night["event"]
    response = player_client.get(reverse("series:event_results_csv", args=[event.pk]))  # type: ignore[attr-defined]
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert {row["player"]: row["net"] for row in rows} == {
        "Ann": "25",
        "Ben": "5",
        "Cal": "-25",
        "Dee": "-25",
    }
