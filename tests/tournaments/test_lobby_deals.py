"""Deals offered on the players' screens (tournaments.services.deals)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import close_old_connections, connection

from tests.tournaments.factories import start
from tests.tournaments.online_tables import LAYOUT, clock_running, hand_in_play, seat_online
from tournaments.errors import TournamentError
from tournaments.models import (
    DealEnd,
    DealOffer,
    DealState,
    Entry,
    EntryState,
    Tournament,
    TournamentAction,
    TournamentState,
    TournamentTable,
)
from tournaments.services import deals


def users(*names: str) -> list[User]:
    return [User.objects.get(username=name) for name in names]


def paused(tournament: Tournament) -> bool:
    """Whether the tournament is paused online (the clock stopped, no table deals)."""
    return Tournament.objects.get(pk=tournament.pk).online_paused


def held_offer(tournament: Tournament, director: User, number: int) -> tuple[Any, Any, DealOffer]:
    """An ICM deal offered while table ``number`` plays a hand: its live table, the hand
    and the offer, held."""
    table = TournamentTable.objects.get(tournament=tournament, number=number).live_table
    hand = hand_in_play(table)
    return table, hand, deals.deal_offer(tournament.pk, "icm", by=director)


def hand_end(hand: Any) -> None:
    """The hand ends (its chips as the test set them)."""
    hand.ended_at = hand.started_at
    hand.save(update_fields=["ended_at"])


def test_an_offer_holds_the_tables_and_asks_every_player_still_in(
    online_tournament, online_night, director
) -> None:
    offer = deals.deal_offer(online_tournament.pk, "icm", by=director)
    assert offer.state == DealState.OPEN
    assert paused(online_tournament)
    assert {a.entry_id for a in offer.answers.all()} == {e.pk for e in online_night.values()}
    # The chips come from the live seats; the amounts pay exactly the prizes of places 1-4.
    assert offer.stacks == {
        str(online_night[n].pk): c for t in LAYOUT.values() for n, c in t.values()
    }
    assert sum(offer.amounts.values()) == 4 * 20  # four buy-ins of 20, top places only
    ben, ann = (
        offer.amounts[str(online_night["ben"].pk)],
        offer.amounts[str(online_night["ann"].pk)],
    )
    assert ben > ann  # more chips, more of the pool


def test_everyone_accepting_ends_the_tournament_with_the_offered_prizes(
    online_tournament, online_night, director
) -> None:
    offer = deals.deal_offer(online_tournament.pk, "chip-chop", by=director)
    for user in users("ann", "ben", "cal"):
        deals.deal_answer(offer.pk, user, "accept")
        online_tournament.refresh_from_db()
        assert online_tournament.state == TournamentState.RUNNING
    deals.deal_answer(offer.pk, users("dee")[0], "accept")
    online_tournament.refresh_from_db()
    offer.refresh_from_db()
    assert online_tournament.state == TournamentState.FINISHED
    assert offer.state == DealState.ACCEPTED
    prizes = {e.pk: e.prize for e in Entry.objects.filter(tournament=online_tournament)}
    assert {str(k): v for k, v in prizes.items()} == offer.amounts
    assert TournamentAction.objects.filter(tournament=online_tournament, kind="deal").count() == 1
    # An accepted deal leaves the tables to the core, which closes them with the tournament.
    assert paused(online_tournament)


def test_one_decline_cancels_the_deal_and_the_tables_resume(
    online_tournament, online_night, director
) -> None:
    offer = deals.deal_offer(online_tournament.pk, "icm", by=director)
    deals.deal_answer(offer.pk, users("ann")[0], "accept")
    deals.deal_answer(offer.pk, users("cal")[0], "decline")
    offer.refresh_from_db()
    online_tournament.refresh_from_db()
    assert offer.state == DealState.DECLINED
    assert offer.settled_text == "Cal declined"
    assert online_tournament.state == TournamentState.RUNNING
    assert not paused(online_tournament)
    with pytest.raises(TournamentError, match="already settled: declined"):
        deals.deal_answer(offer.pk, users("dee")[0], "accept")


def test_tables_the_director_held_before_the_offer_stay_held_after_a_decline(
    online_tournament, online_night, director
) -> None:
    from tournaments.services import online

    online.online_pause(online_tournament.pk, by=director)
    offer = deals.deal_offer(online_tournament.pk, "icm", by=director)
    assert not offer.paused_tables
    deals.deal_answer(offer.pk, users("ann")[0], "decline")
    assert paused(online_tournament)


def test_a_tampered_answer_changes_nothing(online_tournament, online_night, director) -> None:
    offer = deals.deal_offer(online_tournament.pk, "icm", by=director)
    stranger = User.objects.create_user("zed")
    with pytest.raises(TournamentError, match="not offered to you"):
        deals.deal_answer(offer.pk, stranger, "accept")
    with pytest.raises(TournamentError, match="accept or decline"):
        deals.deal_answer(offer.pk, users("ann")[0], "maybe")
    with pytest.raises(TournamentError, match="does not exist"):
        deals.deal_answer(offer.pk + 100, users("ann")[0], "accept")
    with pytest.raises(TournamentError, match="does not exist"):
        deals.deal_answer("1; drop", users("ann")[0], "accept")
    assert not offer.answers.exclude(answer="").exists()


def test_a_player_of_another_offer_cannot_answer_this_one(
    online_tournament, online_night, director, event, blind_structure
) -> None:
    from series.models import Event

    other_event = Event.objects.create(
        season=event.season, name="Other night", starts_at=event.starts_at, buy_in=10, fee=0
    )
    other = Tournament.objects.create(
        event=other_event, blind_structure=blind_structure, online=True
    )
    start(other)
    clock_running(other)
    seat_online(other, {1: {1: ("eve", 5000), 2: ("fay", 5000)}})
    offer = deals.deal_offer(online_tournament.pk, "icm", by=director)
    other_offer = deals.deal_offer(other.pk, "icm", by=director)
    with pytest.raises(TournamentError, match="not offered to you"):
        deals.deal_answer(other_offer.pk, users("ann")[0], "accept")
    with pytest.raises(TournamentError, match="not offered to you"):
        deals.deal_answer(offer.pk, users("eve")[0], "accept")


def test_answering_twice_counts_once_and_an_answer_stands(
    online_tournament, online_night, director
) -> None:
    offer = deals.deal_offer(online_tournament.pk, "icm", by=director)
    ann = users("ann")[0]
    deals.deal_answer(offer.pk, ann, "accept")
    deals.deal_answer(offer.pk, ann, "accept")  # a double tap: nothing more
    assert offer.answers.filter(answer="accept").count() == 1
    with pytest.raises(TournamentError, match="already answered"):
        deals.deal_answer(offer.pk, ann, "decline")


def test_a_deal_offered_during_a_hand_waits_for_the_hand_to_end(
    online_tournament, online_night, director
) -> None:
    table, hand, offer = held_offer(online_tournament, director, 2)
    assert offer.state == DealState.HELD
    assert offer.amounts == {}
    assert paused(online_tournament)
    with pytest.raises(TournamentError, match="hands in play have ended"):
        deals.deal_answer(offer.pk, users("cal")[0], "accept")
    assert deals.deal_release(offer.pk).state == DealState.HELD  # still in play: no change

    # The hand ends: Cal won 2,000 from Dee. The amounts use the chips after it.
    from tables.models import Seat

    Seat.objects.filter(table=table, number=2).update(stack=11000)
    Seat.objects.filter(table=table, number=5).update(stack=9000)
    hand_end(hand)
    offer = deals.deal_release(offer.pk)
    assert offer.state == DealState.OPEN
    assert offer.stacks[str(online_night["cal"].pk)] == 11000
    assert deals.deal_release(offer.pk).amounts == offer.amounts  # idempotent


def test_a_player_out_in_the_held_hand_is_not_asked(
    online_tournament, online_night, director
) -> None:
    table, hand, offer = held_offer(online_tournament, director, 1)
    # Ann busts in that hand (the core records the elimination).
    ann = online_night["ann"]
    Entry.objects.filter(pk=ann.pk).update(state=EntryState.OUT, place=4)
    from tables.models import Seat

    Seat.objects.filter(table=table, number=1).update(stack=0)
    hand_end(hand)
    offer = deals.deal_release(offer.pk)
    assert offer.state == DealState.OPEN
    assert ann.pk not in {a.entry_id for a in offer.answers.all()}
    assert len(offer.amounts) == 3


def test_a_held_hand_that_leaves_one_player_ends_the_offer_saying_so(
    online_tournament, online_night, director
) -> None:
    _table, hand, offer = held_offer(online_tournament, director, 1)
    # Everyone but Cal busts in that hand, and the core ends the tournament: Cal has won.
    cal = online_night["cal"]
    Entry.objects.filter(tournament=online_tournament).exclude(pk=cal.pk).update(
        state=EntryState.OUT
    )
    Tournament.objects.filter(pk=online_tournament.pk).update(state=TournamentState.FINISHED)
    hand_end(hand)
    offer = deals.deal_release(offer.pk)
    assert (offer.state, offer.settled_reason) == (DealState.CANCELLED, DealEnd.ONE_LEFT)


def test_offers_are_refused_with_a_reason(
    online_tournament, online_night, director, player
) -> None:
    with pytest.raises(PermissionDenied):
        deals.deal_offer(online_tournament.pk, "icm", by=player)
    with pytest.raises(TournamentError, match="ICM or chip-chop"):
        deals.deal_offer(online_tournament.pk, "half", by=director)
    deals.deal_offer(online_tournament.pk, "icm", by=director)
    with pytest.raises(TournamentError, match="already offered"):
        deals.deal_offer(online_tournament.pk, "icm", by=director)
    assert DealOffer.objects.count() == 1


def test_an_in_person_tournament_has_no_deal_on_screens(tournament, director) -> None:
    start(tournament)
    with pytest.raises(TournamentError, match="online"):
        deals.deal_offer(tournament.pk, "icm", by=director)


def test_the_director_withdraws_a_deal(online_tournament, online_night, director) -> None:
    offer = deals.deal_offer(online_tournament.pk, "icm", by=director)
    deals.deal_cancel(offer.pk, by=director)
    offer.refresh_from_db()
    assert offer.state == DealState.CANCELLED
    assert not paused(online_tournament)
    with pytest.raises(TournamentError, match="already settled"):
        deals.deal_answer(offer.pk, users("ann")[0], "accept")
    with pytest.raises(TournamentError, match="already settled"):
        deals.deal_cancel(offer.pk, by=director)


@pytest.mark.django_db(transaction=True)
def test_two_last_answers_at_once_record_the_deal_once(
    online_tournament, online_night, director
) -> None:
    if connection.vendor == "sqlite":
        pytest.skip("SQLite serialises writers on its own; the race needs row locks (PostgreSQL)")
    offer = deals.deal_offer(online_tournament.pk, "icm", by=director)
    for user in users("ann", "ben"):
        deals.deal_answer(offer.pk, user, "accept")
    barrier = threading.Barrier(2)
    errors: list[Exception] = []

    def answer(name: str) -> None:
        try:
            barrier.wait()
            deals.deal_answer(offer.pk, User.objects.get(username=name), "accept")
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=answer, args=(n,)) for n in ("cal", "dee")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    offer.refresh_from_db()
    assert offer.state == DealState.ACCEPTED
    assert TournamentAction.objects.filter(tournament=online_tournament, kind="deal").count() == 1
    assert (
        sum(Entry.objects.filter(tournament=online_tournament).values_list("prize", flat=True))
        == 80
    )


def test_the_held_deal_task_looks_again_until_the_hand_has_ended(
    online_tournament, online_night, director, monkeypatch, settings
) -> None:
    from tournaments import tasks

    settings.TOURNAMENTS_SCHEDULE_TASKS = True
    scheduled: list[tuple[int, int]] = []
    monkeypatch.setattr(
        tasks, "_enqueue_release", lambda offer_id, attempt: scheduled.append((offer_id, attempt))
    )
    table = TournamentTable.objects.get(tournament=online_tournament, number=1).live_table
    hand = hand_in_play(table)
    from django.test import TestCase

    # The "held" signal is sent on commit: run the offer's commit callbacks.
    with TestCase.captureOnCommitCallbacks(execute=True):
        offer = deals.deal_offer(online_tournament.pk, "icm", by=director)
    assert scheduled == [(offer.pk, 1)]
    tasks.deal_release_task(offer.pk, 1)
    assert scheduled[-1] == (offer.pk, 2)
    hand.ended_at = hand.started_at
    hand.save(update_fields=["ended_at"])
    tasks.deal_release_task(offer.pk, 2)
    assert DealOffer.objects.get(pk=offer.pk).state == DealState.OPEN
    assert len(scheduled) == 2  # open: nothing more to look at


def test_a_deal_on_a_real_online_start_ends_it_and_the_core_closes_the_tables(
    online_tournament, director
) -> None:
    from django.test import TestCase

    from series.models import Player
    from tables.models import Table
    from tests.tournaments.factories import make_user
    from tournaments.services.lifecycle import tournament_start

    for name in ("ann", "ben", "cal"):
        user = make_user(name)
        Entry.objects.create(
            tournament=online_tournament, player=Player.objects.create(user=user, name=name)
        )
    tournament_start(online_tournament.pk, by=director)  # online: opens the live tables
    live = list(
        TournamentTable.objects.filter(tournament=online_tournament).values_list(
            "live_table", flat=True
        )
    )
    assert live and None not in live
    offer = deals.deal_offer(online_tournament.pk, "icm", by=director)
    assert offer.state == DealState.OPEN
    assert sorted(offer.stacks.values()) == [10000, 10000, 10000]
    with TestCase.captureOnCommitCallbacks(execute=True):
        for name in ("ann", "ben", "cal"):
            deals.deal_answer(offer.pk, User.objects.get(username=name), "accept")
    online_tournament.refresh_from_db()
    assert online_tournament.state == TournamentState.FINISHED
    assert not Table.objects.filter(pk__in=live, closed_at__isnull=True).exists()
