"""The prize pool and payouts of a tournament, and deals: ICM and chip-chop proposals, edited
and recorded, refused when they do not pay exactly the prizes left; undo of a deal."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from series.models import Result
from tests.tournaments.factories import seat
from tests.tournaments.lookups import last_action
from tournaments.errors import TournamentError
from tournaments.models import ActionKind, Entry, EntryState, Tournament, TournamentState
from tournaments.services import undo
from tournaments.services.results import (
    deal_propose,
    deal_record,
    entry_eliminate,
    payouts_compute,
    tournament_finish,
)

pytestmark = pytest.mark.django_db

TEN = {
    1: {1: "Ann", 2: "Ben", 3: "Cal", 4: "Dee", 5: "Eve"},
    2: {1: "Fay", 2: "Gus", 3: "Hal", 4: "Ivy", 5: "Jon"},
}


def test_the_pool_is_buy_ins_rebuys_and_add_ons_without_fees_or_bounties(
    tournament_in_play: Tournament,
) -> None:
    # "20+5": 20 to the prize pool, 5 outside it; the bounty of 5 is paid to eliminators.
    tournament_in_play.bounty = 5
    tournament_in_play.save(update_fields=["bounty"])
    players = seat(tournament_in_play, TEN)
    Entry.objects.filter(pk__in=[players["Ann"].pk, players["Ben"].pk]).update(rebuys=1)
    Entry.objects.filter(pk__in=[players[n].pk for n in ("Ann", "Cal", "Dee")]).update(addon=True)

    payouts = payouts_compute(tournament_in_play)

    # 10 x (20 - 5) + 2 rebuys x 20 + 3 add-ons x 20
    assert payouts.pool == 250
    assert payouts.entries == 10
    # The built-in table: 50/30/20 up to twelve entries.
    assert (payouts.percentages, payouts.prizes, payouts.custom) == (
        [5000, 3000, 2000],
        [125, 75, 50],
        False,
    )


def test_the_directors_own_percentages_are_used(tournament_in_play: Tournament) -> None:
    tournament_in_play.payout_basis_points = [6000, 4000]
    tournament_in_play.save(update_fields=["payout_basis_points"])
    seat(tournament_in_play, TEN)

    assert payouts_compute(tournament_in_play).prizes == [120, 80]


def test_percentages_that_do_not_sum_to_100_are_refused_and_the_end_waits(
    tournament_in_play: Tournament, director: User
) -> None:
    tournament_in_play.payout_basis_points = [5000, 3000, 1500]
    tournament_in_play.save(update_fields=["payout_basis_points"])
    players = seat(tournament_in_play, {1: {1: "Ann", 2: "Ben"}})
    entry_eliminate(tournament_in_play.pk, [players["Ben"].pk], by=director)

    with pytest.raises(TournamentError, match="95.00%, not 100%"):
        payouts_compute(tournament_in_play)
    with pytest.raises(TournamentError, match="95.00%, not 100%"):
        tournament_finish(tournament_in_play.pk, by=director)

    tournament_in_play.refresh_from_db()
    assert tournament_in_play.state == TournamentState.RUNNING
    assert last_action(tournament_in_play).kind == ActionKind.ELIMINATE


def three_left(tournament_in_play: Tournament, director: User) -> dict[str, Entry]:
    """Ten entries at 20: a pool of 200 paid 100 / 60 / 40, with Ann, Ben and Cal left and
    the ten starting stacks of 10,000 in play (a deal's stacks add up to 100,000)."""
    players = seat(tournament_in_play, TEN)
    for name in ("Jon", "Ivy", "Hal", "Gus", "Fay", "Eve", "Dee"):
        entry_eliminate(tournament_in_play.pk, [players[name].pk], by=director)
    return players


def test_icm_proposal_worked_example(tournament_in_play: Tournament, director: User) -> None:
    players = three_left(tournament_in_play, director)
    ann, ben, cal = players["Ann"], players["Ben"], players["Cal"]

    proposal = deal_propose(
        tournament_in_play.pk,
        method="icm",
        stacks={ann.pk: "50000", ben.pk: "30000", cal.pk: "20000"},
    )

    # Malmuth-Harville: Ann wins with 5/10; second with 3/10 x 5/7 + 2/10 x 5/8; and so on.
    # Equities 76.79 / 65.50 / 57.71 of the 200 left; rounded down to whole units (76, 65,
    # 57), the two units left go to the largest remainders, Ann's .79 and Cal's .71.
    assert proposal.prizes_left == [100, 60, 40]
    assert [(line.name, line.stack, line.prize) for line in proposal.lines] == [
        ("Ann", 50000, 77),
        ("Ben", 30000, 65),
        ("Cal", 20000, 58),
    ]
    assert proposal.total == 200


def test_chip_chop_proposal_worked_example(tournament_in_play: Tournament, director: User) -> None:
    players = three_left(tournament_in_play, director)
    ann, ben, cal = players["Ann"], players["Ben"], players["Cal"]

    proposal = deal_propose(
        tournament_in_play.pk,
        method="chip-chop",
        stacks={ann.pk: 50000, ben.pk: 30000, cal.pk: 20000},
    )

    # Everyone is guaranteed third's 40; the other 80 goes 50% / 30% / 20% by chips.
    assert [(line.name, line.prize) for line in proposal.lines] == [
        ("Ann", 80),
        ("Ben", 64),
        ("Cal", 56),
    ]


@pytest.mark.parametrize(
    ("method", "stacks", "message"),
    [
        ("coin-flip", {}, "Choose ICM or chip-chop"),
        ("icm", {}, "Enter the chips for"),
        ("icm", {"Ann": 0}, "must be more than 0"),
        ("chip-chop", {"Ann": "many"}, "is not a whole number"),
    ],
)
def test_a_proposal_needs_a_method_and_every_stack(
    tournament_in_play: Tournament,
    director: User,
    method: str,
    stacks: dict[str, object],
    message: str,
) -> None:
    players = three_left(tournament_in_play, director)
    full = {players[n].pk: 1000 for n in ("Ann", "Ben", "Cal")}
    full.update({players[name].pk: value for name, value in stacks.items()})
    if not stacks and method == "icm":
        full.pop(players["Cal"].pk)

    with pytest.raises(TournamentError, match=message):
        deal_propose(tournament_in_play.pk, method=method, stacks=full)


def test_an_edited_icm_deal_is_recorded_and_ends_the_tournament(
    tournament_in_play: Tournament, director: User
) -> None:
    players = three_left(tournament_in_play, director)
    ann, ben, cal = players["Ann"], players["Ben"], players["Cal"]
    proposal = deal_propose(
        tournament_in_play.pk, method="icm", stacks={ann.pk: 50000, ben.pk: 30000, cal.pk: 20000}
    )
    edited = {line.entry_id: line.prize for line in proposal.lines}
    # The players agree Ann takes one more and Ben one less.
    edited[ann.pk] += 1
    edited[ben.pk] -= 1

    results = deal_record(tournament_in_play.pk, edited, by=director)

    tournament_in_play.refresh_from_db()
    assert tournament_in_play.state == TournamentState.FINISHED
    assert [(r["player_name"], r["place"], r["prize"]) for r in results[:4]] == [
        ("Ann", 1, 78),
        ("Ben", 2, 64),
        ("Cal", 3, 58),
        ("Dee", 4, 0),
    ]
    for entry, (place, prize) in ((ann, (1, 78)), (ben, (2, 64)), (cal, (3, 58))):
        entry.refresh_from_db()
        assert (entry.state, entry.place, entry.prize) == (EntryState.PLAYING, place, prize)
    assert last_action(tournament_in_play).kind == ActionKind.DEAL
    assert "Ann 78" in last_action(tournament_in_play).summary


def test_a_chip_chop_deal_is_recorded(tournament_in_play: Tournament, director: User) -> None:
    players = three_left(tournament_in_play, director)
    stacks = {players["Ann"].pk: 50000, players["Ben"].pk: 30000, players["Cal"].pk: 20000}
    proposal = deal_propose(tournament_in_play.pk, method="chip-chop", stacks=stacks)

    deal_record(
        tournament_in_play.pk, {line.entry_id: line.prize for line in proposal.lines}, by=director
    )

    assert sorted(
        Entry.objects.filter(tournament=tournament_in_play, prize__gt=0).values_list(
            "prize", flat=True
        )
    ) == [56, 64, 80]


def test_equal_deal_prizes_share_the_place(tournament_in_play: Tournament, director: User) -> None:
    players = three_left(tournament_in_play, director)

    deal_record(
        tournament_in_play.pk,
        {players["Ann"].pk: 80, players["Ben"].pk: 60, players["Cal"].pk: 60},
        by=director,
    )

    places = {
        name: Entry.objects.get(pk=players[name].pk).place for name in ("Ann", "Ben", "Cal", "Dee")
    }
    assert places == {"Ann": 1, "Ben": 2, "Cal": 2, "Dee": 4}


@pytest.mark.parametrize(
    ("prizes", "message"),
    [
        ({"Ann": 100, "Ben": 60, "Cal": 39}, "The deal pays 199, but 200 is left to pay"),
        ({"Ann": 100, "Ben": 60}, "Enter the prize for Cal"),
        ({"Ann": 120, "Ben": 100, "Cal": -20}, "cannot be negative"),
        ({"Ann": 100, "Ben": 60, "Cal": 40, "Dee": 0}, "not still in"),
    ],
)
def test_a_deal_that_does_not_pay_the_prizes_left_is_refused(
    tournament_in_play: Tournament, director: User, prizes: dict[str, int], message: str
) -> None:
    players = three_left(tournament_in_play, director)
    actions = tournament_in_play.actions.count()

    with pytest.raises(TournamentError, match=message):
        deal_record(
            tournament_in_play.pk, {players[n].pk: v for n, v in prizes.items()}, by=director
        )

    tournament_in_play.refresh_from_db()
    assert tournament_in_play.state == TournamentState.RUNNING
    assert tournament_in_play.actions.count() == actions
    assert not Entry.objects.filter(
        tournament=tournament_in_play, state=EntryState.PLAYING, place__isnull=False
    )


def test_undoing_a_deal_reopens_the_tournament(
    tournament_in_play: Tournament,
    director: User,
    finished_signals: list[dict[str, object]],
    django_capture_on_commit_callbacks: object,
) -> None:
    players = three_left(tournament_in_play, director)
    deal = {players["Ann"].pk: 100, players["Ben"].pk: 60, players["Cal"].pk: 40}
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        deal_record(tournament_in_play.pk, deal, by=director)
    assert Result.objects.filter(event_id=tournament_in_play.event_id).exists()

    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        undone = undo.action_undo_last(tournament_in_play.pk, by=director)

    assert undone.kind == ActionKind.DEAL
    tournament_in_play.refresh_from_db()
    assert (tournament_in_play.state, tournament_in_play.finished_at) == (
        TournamentState.RUNNING,
        None,
    )
    for name in ("Ann", "Ben", "Cal"):
        entry = Entry.objects.get(pk=players[name].pk)
        assert (entry.place, entry.prize) == (None, 0)
    assert Entry.objects.get(pk=players["Dee"].pk).place == 4
    assert [s["signal"] for s in finished_signals] == ["finished"]
    assert not Result.objects.filter(event_id=tournament_in_play.event_id).exists()
