"""The season pot's ledger: what each finished event's entries put in, the director's
payouts, the running balance; payouts beyond the pot or to strangers are refused."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from series.ledgers import season_pot_ledger
from series.models import Event, Player, Result, Season, SeasonPotPayout
from series.services.pot import PotError, season_pot_payout_add
from tests.series.night import account, finished_event, season

pytestmark = pytest.mark.django_db


@pytest.fixture
def pot_season() -> dict[str, object]:
    """2 per entry: event 1 has two entries and a re-entry (6), event 2 two entries (4)."""
    s = season(season_pot_per_entry=2)
    ann, ben = account("Ann"), account("Ben")
    first = finished_event(s, [(ann, 1, 70, 50), (ben, 2, 0, 25)], number=1)
    Result.objects.filter(event=first, player=ann).update(reentries=1)
    second = finished_event(s, [(ben, 1, 40, 25), (ann, 2, 0, 25)], number=2)
    finished_event(s, [(ann, 1, 0, 0)], number=3, finished=False)
    return {"season": s, "first": first, "second": second, "ann": ann, "ben": ben}


def test_each_finished_event_puts_its_entries_share_in(pot_season: dict[str, object]) -> None:
    lines = season_pot_ledger(pot_season["season"])  # type: ignore[arg-type]
    assert [(line.event, line.amount, line.balance) for line in lines] == [
        (pot_season["first"], 6, 6),
        (pot_season["second"], 4, 10),
    ]


def test_a_payout_comes_after_its_event_with_the_running_balance(
    pot_season: dict[str, object], director: User
) -> None:
    s = pot_season["season"]
    season_pot_payout_add(
        s.pk,  # type: ignore[attr-defined]
        player_id=pot_season["ann"].pk,  # type: ignore[attr-defined]
        amount=5,
        reason="Trophy",
        event_id=pot_season["first"].pk,  # type: ignore[attr-defined]
        by=director,
    )
    lines = season_pot_ledger(s)  # type: ignore[arg-type]
    assert [(line.amount, line.balance) for line in lines] == [(6, 6), (-5, 1), (4, 5)]
    assert lines[1].text == "Paid to Ann: Trophy"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"amount": 11}, "holds 10: it cannot pay out 11"),
        ({"amount": -1}, "positive whole amount"),
        ({"reason": ""}, "Say what the payout is for"),
    ],
)
def test_bad_payouts_are_refused(
    pot_season: dict[str, object], director: User, change: dict[str, object], message: str
) -> None:
    values: dict[str, object] = {
        "player_id": pot_season["ann"].pk,  # type: ignore[attr-defined]
        "amount": 10,
        "reason": "Final",
    } | change
    with pytest.raises(PotError, match=message):
        season_pot_payout_add(pot_season["season"].pk, by=director, **values)  # type: ignore[arg-type, attr-defined]
    assert not SeasonPotPayout.objects.exists()


def test_a_player_of_another_season_is_refused(
    pot_season: dict[str, object], director: User
) -> None:
    stranger = account("Zed")
    finished_event(season(description="other"), [(stranger, 1, 0, 0)], number=7)
    with pytest.raises(PotError, match="only players of this season"):
        season_pot_payout_add(
            pot_season["season"].pk,  # type: ignore[attr-defined]
            player_id=stranger.pk,
            amount=3,
            reason="x",
            by=director,
        )


def test_the_page_is_read_by_players_and_paid_out_by_the_director(
    director_client: Client, pot_season: dict[str, object]
) -> None:
    url = reverse("series:season_pot", args=[pot_season["season"].pk])  # type: ignore[attr-defined]
    player = Client()
    player.force_login(pot_season["ben"].user)  # type: ignore[attr-defined]
    body = player.get(url).content.decode()
    assert "Season pot" in body and "Pay out of the pot" not in body
    assert (
        player.post(url, {"player": pot_season["ben"].pk, "amount": 1, "reason": "x"}).status_code
        == 403
    )  # type: ignore[attr-defined]
    assert Client().get(url).status_code == 302
    response = director_client.post(
        url,
        {"player": pot_season["ann"].pk, "amount": "4", "reason": "Final prize"},
        follow=True,  # type: ignore[attr-defined]
    )
    assert "The payout is entered." in response.content.decode()
    response = director_client.post(
        url,
        {"player": pot_season["ann"].pk, "amount": "7", "reason": "Too much"},  # type: ignore[attr-defined]
    )
    assert response.status_code == 400 and "cannot pay out 7" in response.content.decode()
    stranger = account("Zed")
    response = director_client.post(url, {"player": stranger.pk, "amount": "1", "reason": "x"})
    assert response.status_code == 400 and "Select a valid choice" in response.content.decode()
    payout = SeasonPotPayout.objects.get()
    director_client.post(url, {"action": "remove", "payout": payout.pk})
    assert not SeasonPotPayout.objects.exists()
    response = director_client.post(url, {"action": "remove", "payout": "²"}, follow=True)
    assert "no longer exists" in response.content.decode()


def test_the_calendar_shows_what_the_pot_page_holds(
    director_client: Client, pot_season: dict[str, object], director: User
) -> None:
    s: Season = pot_season["season"]  # type: ignore[assignment]
    ann: Player = pot_season["ann"]  # type: ignore[assignment]
    # A night without a fee (points only) puts nothing in: the pot is taken from the fees.
    finished_event(s, [(ann, 1, 0, 0), (pot_season["ben"], 2, 0, 0)], number=4, fee=0)  # type: ignore[list-item]
    season_pot_payout_add(s.pk, player_id=ann.pk, amount=3, reason="Trophy", by=director)
    assert season_pot_ledger(s)[-1].balance == 7
    pot_page = director_client.get(reverse("series:season_pot", args=[s.pk])).content.decode()
    assert '<span class="stat-value">7</span>' in pot_page
    calendar = director_client.get(reverse("series:season", args=[s.pk])).content.decode()
    assert "Season pot: 7" in calendar and "3 paid out" in calendar


def test_a_payout_of_an_event_not_finished_comes_last(
    pot_season: dict[str, object], director: User
) -> None:
    s: Season = pot_season["season"]  # type: ignore[assignment]
    later = Event.objects.get(season=s, number=3)
    season_pot_payout_add(
        s.pk,
        player_id=pot_season["ann"].pk,  # type: ignore[attr-defined]
        amount=2,
        reason="Final",
        event_id=later.pk,
        by=director,
    )
    lines = season_pot_ledger(s)
    assert [(line.event, line.amount, line.balance) for line in lines] == [
        (pot_season["first"], 6, 6),
        (pot_season["second"], 4, 10),
        (later, -2, 8),
    ]
