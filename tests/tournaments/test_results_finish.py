"""The end of a tournament: every entrant's place, prize, bounties, rebuys, add-ons and
re-entries stored, the tournament finished, the signal sent once after commit; undo."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from series.models import Player, Result
from tests.tournaments.factories import seat
from tests.tournaments.lookups import last_action
from tournaments.errors import TournamentError
from tournaments.models import ActionKind, Entry, EntryState, Tournament, TournamentState
from tournaments.services import undo
from tournaments.services.results import entry_eliminate, tournament_finish

pytestmark = pytest.mark.django_db

SIX = {1: {1: "Ann", 2: "Ben", 3: "Cal"}, 2: {1: "Dee", 2: "Eve", 3: "Fay"}}


def play_down(tournament_in_play: Tournament, director: User) -> dict[str, Entry]:
    """Six players, a bounty of 5 in the 20 buy-in; Ann knocks out everyone but Dee and
    Eve, who go out together with equal stacks; Ben rebought, Cal bought the add-on.

    The pool: 6 x (20 - 5) + a rebuy and an add-on at 20 = 130, paid 65% / 35% (up to six
    entries): 85 and 45.
    """
    tournament_in_play.bounty = 5
    tournament_in_play.save(update_fields=["bounty"])
    players = seat(tournament_in_play, SIX)
    Entry.objects.filter(pk=players["Ben"].pk).update(rebuys=1)
    Entry.objects.filter(pk=players["Cal"].pk).update(addon=True)
    ann = players["Ann"].pk
    entry_eliminate(tournament_in_play.pk, [players["Fay"].pk], by=director, eliminated_by=ann)
    entry_eliminate(
        tournament_in_play.pk,
        [players["Dee"].pk, players["Eve"].pk],
        by=director,
        eliminated_by=players["Ben"].pk,
        stacks_at_hand_start={players["Dee"].pk: 4000, players["Eve"].pk: 4000},
    )
    entry_eliminate(tournament_in_play.pk, [players["Cal"].pk], by=director, eliminated_by=ann)
    entry_eliminate(tournament_in_play.pk, [players["Ben"].pk], by=director, eliminated_by=ann)
    return players


def test_finishing_stores_every_result_and_marks_the_tournament_finished(
    tournament_in_play: Tournament, director: User
) -> None:
    players = play_down(tournament_in_play, director)

    results = tournament_finish(tournament_in_play.pk, by=director)

    tournament_in_play.refresh_from_db()
    assert (
        tournament_in_play.state == TournamentState.FINISHED
        and tournament_in_play.finished_at is not None
    )
    stored = {
        name: (e.place, e.prize, e.bounties, e.knockouts_count)
        for name, e in ((n, Entry.objects.get(pk=p.pk)) for n, p in players.items())
    }
    assert stored == {
        # Ann's three knockouts, and the bounty on her own head, nobody having taken it.
        "Ann": (1, 85, 20, 3),
        "Ben": (2, 45, 10, 2),
        "Cal": (3, 0, 0, 0),
        "Dee": (4, 0, 0, 0),
        "Eve": (4, 0, 0, 0),
        "Fay": (6, 0, 0, 0),
    }
    assert results[0] == {
        "player_id": players["Ann"].player_id,
        "player_name": "Ann",
        "is_guest": True,
        "entry_numbers": [1],
        "place": 1,
        "prize": 85,
        "bounties": 20,
        "knockouts": 3,
        "rebuys": 0,
        "addons": 0,
        "reentries": 0,
        "paid_in": 25,
    }
    # What each paid: the 20+5 entry, and Ben's rebuy and Cal's add-on at their prices.
    assert [r["paid_in"] for r in results] == [
        25,
        25 + tournament_in_play.rebuy_price,
        25 + tournament_in_play.addon_price,
        25,
        25,
        25,
    ]
    assert [(r["player_name"], r["place"], r["rebuys"], r["addons"]) for r in results] == [
        ("Ann", 1, 0, 0),
        ("Ben", 2, 1, 0),
        ("Cal", 3, 0, 1),
        ("Dee", 4, 0, 0),
        ("Eve", 4, 0, 0),
        ("Fay", 6, 0, 0),
    ]
    # Every buy-in's money is accounted for: prizes and bounties make the buy-ins.
    assert sum(r["prize"] + r["bounties"] for r in results) == 6 * 20 + 20 + 20
    assert last_action(tournament_in_play).kind == ActionKind.FINISH


def test_the_signal_is_sent_once_after_commit_with_plain_data(
    tournament_in_play: Tournament,
    director: User,
    finished_signals: list[dict[str, Any]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    play_down(tournament_in_play, director)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        results = tournament_finish(tournament_in_play.pk, by=director)
        assert finished_signals == []
    assert finished_signals == []
    for callback in callbacks:
        callback()

    assert len(finished_signals) == 1
    sent = finished_signals[0]
    assert (sent["signal"], sent["tournament_id"], sent["event_id"]) == (
        "finished",
        tournament_in_play.pk,
        tournament_in_play.event_id,
    )
    assert sent["results"] == results
    assert all(type(value) in (int, str, bool, list) for r in results for value in r.values())


def test_the_signal_is_not_sent_when_the_finish_is_refused(
    tournament_in_play: Tournament,
    director: User,
    finished_signals: list[dict[str, Any]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    seat(tournament_in_play, SIX)

    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(TournamentError, match="6 players are still in"):
            tournament_finish(tournament_in_play.pk, by=director)

    assert finished_signals == []
    tournament_in_play.refresh_from_db()
    assert tournament_in_play.state == TournamentState.RUNNING


def test_a_tournament_finishes_once(tournament_in_play: Tournament, director: User) -> None:
    play_down(tournament_in_play, director)
    tournament_finish(tournament_in_play.pk, by=director)

    with pytest.raises(TournamentError, match="already finished"):
        tournament_finish(tournament_in_play.pk, by=director)


def test_a_re_entered_player_has_one_result_with_both_entries(
    tournament_in_play: Tournament, director: User
) -> None:
    players = seat(tournament_in_play, {1: {1: "Ann", 2: "Ben", 3: "Cal"}})
    entry_eliminate(
        tournament_in_play.pk, [players["Ben"].pk], by=director, eliminated_by=players["Ann"].pk
    )
    # Ben re-enters (the entries' re-entry makes a new entry of the same player) at his old seat.
    again = Entry.objects.create(
        tournament=tournament_in_play,
        player=Player.objects.get(pk=players["Ben"].player_id),
        number=2,
        state=EntryState.PLAYING,
        table_number=1,
        seat_number=2,
    )
    entry_eliminate(tournament_in_play.pk, [players["Cal"].pk], by=director, eliminated_by=again.pk)
    entry_eliminate(tournament_in_play.pk, [players["Ann"].pk], by=director, eliminated_by=again.pk)

    results = tournament_finish(tournament_in_play.pk, by=director)

    # Four entries at 20: a pool of 80; the built-in table pays the winner alone up to three
    # entries and 65/35 from four: 52 and 28.
    assert [
        (r["player_name"], r["place"], r["prize"], r["entry_numbers"], r["reentries"])
        for r in results
    ] == [("Ben", 1, 52, [1, 2], 1), ("Ann", 2, 28, [1], 0), ("Cal", 3, 0, [1], 0)]
    assert Entry.objects.get(pk=players["Ben"].pk).place is None
    assert results[0]["knockouts"] == 2


def test_undoing_the_finish_reopens_it_and_says_so(
    tournament_in_play: Tournament,
    director: User,
    finished_signals: list[dict[str, Any]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    players = play_down(tournament_in_play, director)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_finish(tournament_in_play.pk, by=director)

    with django_capture_on_commit_callbacks(execute=True):
        undo.action_undo_last(tournament_in_play.pk, by=director)

    tournament_in_play.refresh_from_db()
    assert (tournament_in_play.state, tournament_in_play.finished_at) == (
        TournamentState.RUNNING,
        None,
    )
    ann = Entry.objects.get(pk=players["Ann"].pk)
    assert (ann.state, ann.place, ann.prize, ann.bounties) == (EntryState.PLAYING, None, 0, 15)
    assert Entry.objects.get(pk=players["Ben"].pk).prize == 45
    assert [s["signal"] for s in finished_signals] == ["finished"]
    # The series no longer has its results: the finish again sends them anew.
    assert not Result.objects.filter(event_id=tournament_in_play.event_id).exists()

    # Then the eliminations undo in order, newest first.
    undo.action_undo_last(tournament_in_play.pk, by=director)
    assert Entry.objects.get(pk=players["Ben"].pk).state == EntryState.PLAYING
