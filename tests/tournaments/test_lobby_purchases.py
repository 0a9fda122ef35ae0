"""Rebuys, re-entries and add-ons a player takes on their own screen (services.purchases)."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import User
from django.db import close_old_connections, connection

from tables.models import Seat
from tests.tournaments.factories import start
from tests.tournaments.levels import BREAK_1, LEVEL_4
from tests.tournaments.online_tables import bust, chips_of, hand_dealt
from tournaments.errors import TournamentError
from tournaments.models import Entry, EntryState, TournamentAction, TournamentTable
from tournaments.services import purchases


def user(name: str) -> User:
    return User.objects.get(username=name)


def kinds(tournament, name: str) -> list[str]:
    return [purchase.kind for purchase in purchases.purchases_for(tournament, user(name))]


def test_a_rebuy_shows_at_or_below_the_limit_within_the_rebuy_levels(
    online_tournament, online_night
) -> None:
    # Ann has 6,000 (at or below the 10,000 starting stack); Ben 14,000.
    assert kinds(online_tournament, "ann") == ["rebuy"]
    assert kinds(online_tournament, "ben") == []
    start(online_tournament, LEVEL_4)  # rebuys end with level 3
    assert kinds(online_tournament, "ann") == []


def test_a_rebuy_records_the_money_once_and_puts_the_chips_on_the_seat(
    online_tournament, online_night
) -> None:
    ann = online_night["ann"]
    purchase = purchases.purchases_for(online_tournament, user("ann"))[0]
    assert (purchase.price, purchase.chips, purchase.seen) == (20, 10000, 0)
    purchases.purchase_take(ann.pk, user("ann"), "rebuy", seen=purchase.seen)
    ann.refresh_from_db()
    assert ann.rebuys == 1
    assert chips_of(ann) == 16000
    # The same tap again (a double tap, a second tab) carries the count it saw: refused.
    with pytest.raises(TournamentError, match="already taken"):
        purchases.purchase_take(ann.pk, user("ann"), "rebuy", seen=purchase.seen)
    ann.refresh_from_db()
    assert ann.rebuys == 1
    assert chips_of(ann) == 16000
    assert TournamentAction.objects.filter(kind="rebuy").count() == 1


def test_a_rebuy_during_a_hand_waits_for_it_and_still_counts_once(
    online_tournament, online_night
) -> None:
    ann = online_night["ann"]
    hand_dealt(TournamentTable.objects.get(tournament=online_tournament, number=1).live_table)
    purchases.purchase_take(ann.pk, user("ann"), "rebuy", seen=0)
    seat = Seat.objects.get(table__tournament_table__number=1, number=1)
    assert (seat.stack, seat.adding) == (6000, 10000)
    # Her stack still reads 6,000 until the hand ends; the count stops a second rebuy.
    with pytest.raises(TournamentError, match="already taken"):
        purchases.purchase_take(ann.pk, user("ann"), "rebuy", seen=0)


def test_a_rebuy_above_the_limit_is_refused(online_tournament, online_night) -> None:
    ben = online_night["ben"]
    with pytest.raises(TournamentError, match="only allowed at or below 10,000 chips"):
        purchases.purchase_take(ben.pk, user("ben"), "rebuy", seen=0)
    ben.refresh_from_db()
    assert ben.rebuys == 0


def test_nobody_buys_on_someone_elses_entry(online_tournament, online_night) -> None:
    ann = online_night["ann"]
    with pytest.raises(TournamentError, match="not your entry"):
        purchases.purchase_take(ann.pk, user("ben"), "rebuy", seen=0)
    with pytest.raises(TournamentError, match="does not exist"):
        purchases.purchase_take("x", user("ann"), "rebuy", seen=0)
    with pytest.raises(TournamentError, match="rebuy, a re-entry or the add-on"):
        purchases.purchase_take(ann.pk, user("ann"), "cashout", seen=0)
    ann.refresh_from_db()
    assert ann.rebuys == 0


def test_the_add_on_shows_at_its_break_and_is_taken_once(online_tournament, online_night) -> None:
    assert "addon" not in kinds(online_tournament, "ben")
    start(online_tournament, BREAK_1)
    assert "addon" in kinds(online_tournament, "ben")
    ben = online_night["ben"]
    purchases.purchase_take(ben.pk, user("ben"), "addon")
    with pytest.raises(TournamentError, match="already taken the add-on"):
        purchases.purchase_take(ben.pk, user("ben"), "addon")
    ben.refresh_from_db()
    assert ben.addon is True
    assert chips_of(ben) == 14000 + 15000
    assert "addon" not in kinds(online_tournament, "ben")


def test_a_busted_player_re_enters_once_within_the_window(online_tournament, online_night) -> None:
    cal = online_night["cal"]
    bust(cal, 4)
    assert kinds(online_tournament, "cal") == ["reentry"]
    new = purchases.purchase_take(cal.pk, user("cal"), "reentry")
    assert (new.number, new.state) == (2, EntryState.PLAYING)
    # Seated on the live tables with a fresh starting stack.
    assert chips_of(new) == 10000
    # The second tap: refused (one re-entry allowed, and Cal plays again).
    with pytest.raises(TournamentError, match="used all 1 re-entries"):
        purchases.purchase_take(cal.pk, user("cal"), "reentry")
    assert Entry.objects.filter(player=cal.player).count() == 2


def test_an_in_person_tournament_sells_nothing_on_screens(tournament, director) -> None:
    from tests.tournaments.online_tables import seat_online

    start(tournament)
    entries = seat_online(tournament, {1: {1: ("ann", 500), 2: ("ben", 500)}})
    assert purchases.purchases_for(tournament, user("ann")) == []
    with pytest.raises(TournamentError, match="director takes rebuys"):
        purchases.purchase_take(entries["ann"].pk, user("ann"), "rebuy", seen=0)


@pytest.mark.django_db(transaction=True)
def test_two_tabs_rebuying_at_once_pay_once(online_tournament, online_night) -> None:
    if connection.vendor == "sqlite":
        pytest.skip("SQLite serialises writers on its own; the race needs row locks (PostgreSQL)")
    ann = online_night["ann"]
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def tap() -> None:
        try:
            barrier.wait()
            purchases.purchase_take(ann.pk, User.objects.get(username="ann"), "rebuy", seen=0)
            outcomes.append("taken")
        except TournamentError as error:
            outcomes.append(error.message)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=tap) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["That rebuy is already taken.", "taken"]
    ann.refresh_from_db()
    assert ann.rebuys == 1
    assert chips_of(ann) == 16000


def test_nothing_is_bought_while_a_deal_is_pending(
    online_tournament, online_night, director
) -> None:
    from tournaments.services import deals

    deals.deal_offer(online_tournament.pk, "icm", by=director)
    assert kinds(online_tournament, "ann") == []
    with pytest.raises(TournamentError, match="A deal is on the table"):
        purchases.purchase_take(online_night["ann"].pk, user("ann"), "rebuy", seen=0)


def test_the_directors_console_buttons_put_the_chips_on_the_live_seat(
    online_tournament, online_night, director_client
) -> None:
    from django.urls import reverse

    ann, cal = online_night["ann"], online_night["cal"]
    url = reverse("tournaments:console_rebuy", args=[online_tournament.pk, ann.pk])
    director_client.post(url)  # no stack typed: online it is the live seat's 6,000
    ann.refresh_from_db()
    assert ann.rebuys == 1
    assert chips_of(ann) == 16000
    ben = online_night["ben"]
    refused = director_client.post(
        reverse("tournaments:console_rebuy", args=[online_tournament.pk, ben.pk]),
        HTTP_HX_REQUEST="true",
    )
    assert "only allowed at or below 10,000 chips" in refused.content.decode()
    bust(cal, 4)
    director_client.post(
        reverse("tournaments:console_reentry", args=[online_tournament.pk, cal.pk])
    )
    new = Entry.objects.get(player=cal.player, number=2)
    assert chips_of(new) == 10000
