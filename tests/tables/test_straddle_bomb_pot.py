"""The straddle and the bomb pot at a cash table: the host's options and call, a player's
"straddle next hand" and bomb pot vote, what the deal does with them, what the snapshot
says, and the refusals that change nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tables import services, timing
from tables.engine.records import AntePosted, BlindPosted
from tables.models import Hand, Seat, SeatState, Table
from tables.protocol import handle_frame
from tables.replay import hand_replay_steps
from tables.runtime.state import STATE, table_snapshot
from tables.services import forced_bets
from tests.tables.conftest import deal, make_players

pytestmark = pytest.mark.django_db


def open_table(director: User, **options: Any) -> Table:
    return services.table_create(
        created_by=director,
        name="Straddle night",
        big_blind=2,
        min_buy_in=40,
        max_buy_in=200,
        **options,
    )


def seat_four(table: Table) -> list[User]:
    """ann, ben, cal and dee in seats 1-4: the first hand's button is seat 1, the small
    blind 2, the big blind 3, and seat 4 is left of the big blind."""
    users = make_players("ann", "ben", "cal", "dee")
    for number, user in enumerate(users, start=1):
        services.seat_take(table.pk, user, number, 100)
    return users


def current(table: Table) -> Hand:
    return Hand.objects.filter(table=table).order_by("-number").first()


def state(table: Table) -> tuple[int, list[tuple[bool, bool]], bool]:
    """What a refusal must leave as it was: the version, every seat's choices, the call."""
    table.refresh_from_db()
    seats = Seat.objects.filter(table=table).order_by("number")
    return table.version, [(s.straddle_next, s.votes_bomb_pot) for s in seats], table.bomb_pot_next


def refused(table_id: int, user: User | None, frame: dict[str, Any]) -> dict[str, Any]:
    [error] = handle_frame(table_id, user, frame)
    assert error["type"] == "error"
    return error


# --- the straddle --------------------------------------------------------------------------


def test_the_player_left_of_the_big_blind_straddles_the_next_hand(director: User) -> None:
    # docs/rules.md, Home-game options: "before the cards, the player left of the big blind may
    # post a live straddle of exactly twice the big blind. Before the flop the straddler
    # acts last (the action starts on their left)"
    table = open_table(director, straddle="under-the-gun")
    ann, _ben, _cal, dee = seat_four(table)
    snap = table_snapshot(table, dee)
    assert snap["table"]["forced_bets"]["straddle_seat"] == 4
    assert handle_frame(table.pk, dee, {"type": "straddle", "on": True}) == []
    assert table_snapshot(table, dee)["you"]["straddle_next"] is True
    deal(table)
    engine = STATE.engine(current(table))
    posts = [(r.seat, r.amount, r.blind) for r in engine.records if isinstance(r, BlindPosted)]
    assert posts == [(2, 1, "small"), (3, 2, "big"), (4, 4, "straddle")]
    assert engine.to_act == 1
    snap = table_snapshot(table, ann)
    assert snap["hand"]["straddle"] == 4 and snap["hand"]["bomb_pot"] is False
    assert snap["you"]["legal"]["call"] == 4 and snap["you"]["legal"]["raise"]["min"] == 8
    # "Straddle next hand" was for that hand only.
    assert not Seat.objects.get(table=table, number=4).straddle_next
    assert "straddle_next" not in table_snapshot(table, dee)["you"]
    _finish(table)
    steps = hand_replay_steps(current(table), ann)["steps"]
    assert steps[0]["text"] == "Blinds and a straddle posted, cards dealt"
    assert steps[0]["view"]["hand"]["straddle"] == 4


def test_a_straddle_asked_out_of_position_or_with_the_option_off_is_refused(
    director: User,
) -> None:
    # docs/rules.md, Home-game options: only "the player left of the big blind" may straddle.
    table = open_table(director, straddle="under-the-gun")
    ann, *_ = seat_four(table)
    before = state(table)
    error = refused(table.pk, ann, {"type": "straddle", "on": True, "ref": 7})
    assert (error["code"], error["ref"]) == ("straddle_position", 7)
    assert error["message"] == "only seat 4 may straddle the next hand, not seat 1"
    spectator, *_ = make_players("eve")
    assert refused(table.pk, spectator, {"type": "straddle", "on": True})["code"] == "not_seated"
    assert refused(table.pk, ann, {"type": "straddle"})["code"] == "malformed"
    assert refused(table.pk, ann, {"type": "straddle", "on": "yes"})["code"] == "malformed"
    assert state(table) == before
    plain = open_table(director)
    services.seat_take(plain.pk, ann, 1, 100)
    assert refused(plain.pk, ann, {"type": "straddle", "on": True})["code"] == "straddle_off"


def test_the_button_straddle_lets_the_blinds_act_first(director: User) -> None:
    # docs/rules.md, Home-game options: 'Button straddle ("Mississippi", second option): the
    # button posts it and acts last before the flop; the blinds act first.'
    table = open_table(director, straddle="button")
    ann, *_ = seat_four(table)
    services.seat_straddle(table.pk, ann, True)
    deal(table)
    engine = STATE.engine(current(table))
    assert engine.straddle == 1 and engine.to_act == 2


def test_nobody_straddles_heads_up_and_limit_tables_have_no_straddle(director: User) -> None:
    # docs/rules.md, Home-game options, "Straddle" (heads-up: no straddle, as is common practice).
    table = open_table(director, straddle="under-the-gun")
    ann, ben = make_players("ann", "ben")
    services.seat_take(table.pk, ann, 1, 100)
    services.seat_take(table.pk, ben, 2, 100)
    error = refused(table.pk, ben, {"type": "straddle", "on": True})
    assert error["code"] == "straddle_position" and "nobody" in error["message"]
    with pytest.raises(services.TableError, match="pot-limit and no-limit only"):
        open_table(director, structure="limit", straddle="under-the-gun")


def test_a_straddle_asked_for_a_bomb_pot_is_refused(director: User) -> None:
    table = open_table(director, straddle="under-the-gun", bomb_pot_ante=2)
    *_, dee = seat_four(table)
    services.bomb_pot_call(table.pk, director, True)
    assert refused(table.pk, dee, {"type": "straddle", "on": True})["code"] == "bomb_pot_next"


# --- the bomb pot --------------------------------------------------------------------------


def test_when_every_player_votes_the_next_hand_is_a_bomb_pot(director: User) -> None:
    # docs/rules.md, Home-game options: "every player dealt in posts the agreed ante (in big
    # blinds); no blinds, no betting before the flop; the first betting round is on the
    # flop, starting left of the button". The table's vote: every player in the game.
    table = open_table(director, bomb_pot_ante=2, bomb_pot_by_vote=True)
    users = seat_four(table)
    deal(table)  # an ordinary hand; the players are in the game now, and vote for the next
    for user in users[:3]:
        assert handle_frame(table.pk, user, {"type": "bomb_pot_vote", "yes": True}) == []
    forced = table_snapshot(table, users[0])["table"]["forced_bets"]
    assert (forced["bomb_pot_votes"], forced["bomb_pot_voters"]) == (3, 4)
    assert forced["bomb_pot_next"] is False
    assert table_snapshot(table, users[0])["you"]["votes_bomb_pot"] is True
    services.bomb_pot_vote(table.pk, users[3], True)
    table.refresh_from_db()
    assert table.bomb_pot_next
    forced = table_snapshot(table, users[0])["table"]["forced_bets"]
    assert forced["bomb_pot_next"] is True and forced["bomb_pot_votes"] == 0
    _finish(table)
    deal(table)
    engine = STATE.engine(current(table))
    assert engine.bomb_pot and engine.street.value == "flop"
    assert [r.amount for r in engine.records if isinstance(r, AntePosted)] == [4, 4, 4, 4]
    assert not any(isinstance(r, BlindPosted) for r in engine.records)
    assert engine.to_act == 3  # left of the button, seat 2
    assert engine.legal_actions().max_to == 16  # pot-limit: the antes are the pot
    snap = table_snapshot(table, users[0])
    assert snap["hand"]["bomb_pot"] is True
    assert snap["table"]["forced_bets"]["bomb_pot_next"] is False


def _finish(table: Table) -> None:
    """Everyone folds to the last player in, as each player's snapshot allows."""
    for _ in range(20):
        hand = current(table)
        if hand.is_complete:
            return
        user = Seat.objects.get(table=table, number=hand.to_act).user
        legal = table_snapshot(table, user)["you"]["legal"]
        action = "show" if legal["show"] else "check" if legal["check"] else "fold"
        services.table_act(table.pk, user, legal["hand"], legal["version"], action)
    raise AssertionError("the hand did not end")


def test_a_bomb_pot_comes_every_n_hands_and_when_the_host_calls_one(director: User) -> None:
    table = open_table(director, bomb_pot_ante=1, bomb_pot_every=2)
    seat_four(table)
    kinds = []
    for _ in range(3):
        deal(table)
        kinds.append(STATE.engine(current(table)).bomb_pot)
        _finish(table)
    assert kinds == [False, True, False]
    # The hand's page replays it as it was dealt.
    steps = hand_replay_steps(Hand.objects.get(table=table, number=2), None)["steps"]
    assert steps[0]["text"] == "Bomb pot: antes posted, cards dealt"
    assert steps[0]["view"]["hand"]["bomb_pot"]
    flop = steps[1]  # dealt with the cards: nobody acts before it
    assert flop["kind"] == "street" and len(flop["view"]["hand"]["board"]) == 3
    services.bomb_pot_call(table.pk, director, True)
    deal(table)
    assert STATE.engine(current(table)).bomb_pot
    assert not Table.objects.get(pk=table.pk).bomb_pot_next  # the call is used up


def test_bad_bomb_pot_frames_are_refused_and_change_nothing(director: User) -> None:
    table = open_table(director, bomb_pot_ante=2)
    ann, *_ = seat_four(table)
    before = state(table)
    # Votes are off at this table; only the host calls a bomb pot.
    assert refused(table.pk, ann, {"type": "bomb_pot_vote", "yes": True})["code"] == "bomb_pot_off"
    assert refused(table.pk, ann, {"type": "bomb_pot_call"})["code"] == "forbidden"
    assert refused(table.pk, ann, {"type": "bomb_pot_vote"})["code"] == "malformed"
    assert state(table) == before
    plain = open_table(director)
    error = refused(plain.pk, director, {"type": "bomb_pot_call", "on": True})
    assert error["code"] == "bomb_pot_off"
    voting = open_table(director, bomb_pot_ante=2, bomb_pot_by_vote=True)
    services.seat_take(voting.pk, ann, 1, 100)  # seated, not yet in the game
    assert Seat.objects.get(table=voting, number=1).state == SeatState.WAITING
    assert refused(voting.pk, ann, {"type": "bomb_pot_vote", "yes": True})["code"] == "not_playing"


# --- the host ------------------------------------------------------------------------------


def test_the_host_sets_the_options_on_the_host_page(
    director: User, director_client: Client
) -> None:
    table = open_table(director)
    page = director_client.get(reverse("tables:table_host", args=[table.pk]))
    assert b"Straddle and bomb pots" in page.content
    url = reverse("tables:table_host_forced_bets", args=[table.pk])
    options = {
        "action": "save",
        "straddle": "button",
        "bomb_pot_ante": "3",
        "bomb_pot_every": "",
        "bomb_pot_by_vote": "on",
    }
    director_client.post(url, options)
    table.refresh_from_db()
    assert (table.straddle, table.bomb_pot_ante, table.bomb_pot_every) == ("button", 3, 0)
    assert table.bomb_pot_by_vote and table.config.bomb_pot_ante == 6
    director_client.post(url, {"action": "bomb_pot"})
    table.refresh_from_db()
    assert table.bomb_pot_next
    page = director_client.get(reverse("tables:table_host", args=[table.pk]))
    assert b"Call off the bomb pot" in page.content
    # A limit table refuses a straddle, and a player is not the host: nothing changes.
    limit = open_table(director, structure="limit")
    response = director_client.post(
        reverse("tables:table_host_forced_bets", args=[limit.pk]),
        {**options, "straddle": "under-the-gun"},
        follow=True,
    )
    assert b"pot-limit and no-limit only" in response.content
    limit.refresh_from_db()
    assert limit.straddle == "none"
    ann, *_ = make_players("ann")
    with pytest.raises(services.TableError) as caught:
        services.table_forced_bets_set(
            table.pk,
            ann,
            straddle="none",
            bomb_pot_ante=0,
            bomb_pot_every=0,
            bomb_pot_by_vote=False,
        )
    assert caught.value.code == "forbidden"


def test_the_new_table_form_takes_the_options(director_client: Client) -> None:
    response = director_client.post(
        reverse("tables:table_new"),
        {
            "name": "Bombs",
            "game": "omaha",
            "structure": "no-limit",
            "big_blind": 2,
            "seat_count": 6,
            "raise_cap": "4",
            "straddle": "under-the-gun",
            "bomb_pot_ante": "2",
            "bomb_pot_every": "5",
        },
    )
    assert response.status_code == 302
    table = Table.objects.get(name="Bombs")
    assert (table.straddle, table.bomb_pot_ante, table.bomb_pot_every) == ("under-the-gun", 2, 5)


# --- the socket ----------------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_straddle_and_the_vote_over_the_socket(director: User) -> None:
    from tests.tables.test_consumers import open_socket

    table = await database_sync_to_async(open_table)(
        director, straddle="under-the-gun", bomb_pot_ante=2, bomb_pot_by_vote=True
    )
    users = await database_sync_to_async(seat_four)(table)
    ann = await open_socket(table, users[0], "ann")
    dee = await open_socket(table, users[3], "dee")
    await ann.send({"type": "straddle", "on": True, "ref": "s1"})
    reply = await ann.reply()
    assert (reply["code"], reply["ref"]) == ("straddle_position", "s1")
    await dee.send({"type": "straddle", "on": True})
    await dee.until(lambda s: s["you"].get("straddle_next") is True)
    await ann.send({"type": "bomb_pot_vote", "yes": True})  # seated, not in the game yet
    reply = await ann.reply()
    assert reply["code"] == "not_playing"
    for viewer in (ann, dee):
        await viewer.ws.disconnect()


def test_straddle_every_hand_is_a_standing_choice(director: User) -> None:
    # docs/rules.md, Home-game options: the player in the straddle's seat may straddle; a player
    # who always does says so once, and straddles each hand they are in that seat.
    table = open_table(director, straddle="under-the-gun")
    ann, _ben, _cal, dee = seat_four(table)
    # Chosen from any seat: it is a standing choice, not a straddle of the next hand.
    for user in (ann, dee):
        assert handle_frame(table.pk, user, {"type": "straddle", "on": True, "always": True}) == []
    assert table_snapshot(table, ann)["you"]["straddle_always"] is True
    deal(table)
    posts = [
        (r.seat, r.amount, r.blind)
        for r in STATE.engine(current(table)).records
        if isinstance(r, BlindPosted)
    ]
    assert (4, 4, "straddle") in posts
    _finish(table)
    # The next hand: button 2, big blind 4, and ann (seat 1) left of it straddles too.
    deal(table)
    posts = [
        (r.seat, r.amount, r.blind)
        for r in STATE.engine(current(table)).records
        if isinstance(r, BlindPosted)
    ]
    assert (1, 4, "straddle") in posts
    assert Seat.objects.get(table=table, number=1).straddle_always
    # Taken back, and gone with the host's option.
    handle_frame(table.pk, ann, {"type": "straddle", "on": False, "always": True})
    assert "straddle_always" not in table_snapshot(table, ann)["you"]
    services.table_forced_bets_set(
        table.pk,
        director,
        straddle="none",
        bomb_pot_ante=0,
        bomb_pot_every=0,
        bomb_pot_by_vote=False,
    )
    assert not Seat.objects.get(table=table, number=4).straddle_always
    plain = open_table(director)
    services.seat_take(plain.pk, ann, 1, 100)
    frame = {"type": "straddle", "on": True, "always": True}
    assert refused(plain.pk, ann, frame)["code"] == "straddle_off"


# --- the vote's bots and its time ----------------------------------------------------------


def test_the_house_bots_answer_a_bomb_pot_vote(director: User) -> None:
    # The house bots vote too: they say yes as soon as a player opens the vote, so the
    # vote passes when every player in the game, bots included, has said yes.
    table = open_table(director, bomb_pot_ante=2, bomb_pot_by_vote=True)
    ann, ben = make_players("ann", "ben")
    services.seat_take(table.pk, ann, 1, 100)
    services.seat_take(table.pk, ben, 2, 100)
    services.table_add_bots(table.pk, director, count=2)
    deal(table)
    forced = table_snapshot(table, ann)["table"]["forced_bets"]
    assert (forced["bomb_pot_votes"], forced["bomb_pot_voters"]) == (0, 4)
    assert forced["bomb_pot_vote_until"] is None
    services.bomb_pot_vote(table.pk, ann, True)
    forced = table_snapshot(table, ann)["table"]["forced_bets"]
    assert (forced["bomb_pot_votes"], forced["bomb_pot_voters"]) == (3, 4)
    assert forced["bomb_pot_vote_until"] is not None and forced["bomb_pot_next"] is False
    bots = Seat.objects.filter(table=table).exclude(bot_style="")
    assert [s.votes_bomb_pot for s in bots] == [True, True]
    services.bomb_pot_vote(table.pk, ben, True)
    table.refresh_from_db()
    assert table.bomb_pot_next and table.bomb_pot_vote_until is None
    assert not Seat.objects.filter(table=table, votes_bomb_pot=True).exists()
    _finish(table)
    deal(table)
    assert STATE.engine(current(table)).bomb_pot


def test_taking_back_the_last_players_vote_closes_it_bots_and_all(director: User) -> None:
    table = open_table(director, bomb_pot_ante=2, bomb_pot_by_vote=True)
    ann, ben = make_players("ann", "ben")
    services.seat_take(table.pk, ann, 1, 100)
    services.seat_take(table.pk, ben, 2, 100)
    services.table_add_bots(table.pk, director, count=1)
    deal(table)
    services.bomb_pot_vote(table.pk, ann, True)
    services.bomb_pot_vote(table.pk, ann, False)
    table.refresh_from_db()
    assert table.bomb_pot_vote_until is None and not table.bomb_pot_next
    assert not Seat.objects.filter(table=table, votes_bomb_pot=True).exists()


def test_an_unanswered_vote_lapses_as_no_and_the_table_moves_on(
    director: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Silence is no: once the vote's time is up without every player's yes, the votes go,
    # and the next hand is an ordinary one. (A vote shorter than the turn in play, so only
    # the vote is due.)
    monkeypatch.setattr(forced_bets, "BOMB_POT_VOTE_SECONDS", 5)
    table = open_table(director, bomb_pot_ante=2, bomb_pot_by_vote=True)
    ann, ben, _cal, _dee = seat_four(table)
    deal(table)
    services.bomb_pot_vote(table.pk, ann, True)
    services.bomb_pot_vote(table.pk, ben, True)
    table.refresh_from_db()
    until = table.bomb_pot_vote_until
    assert until is not None
    assert table.pk not in services.tables_due(until - timedelta(seconds=1))
    before = state(table)
    assert services.table_tick(table.pk, now=until - timedelta(seconds=1)) is False
    assert state(table) == before  # not yet: nothing changes
    # The time is up in the middle of the hand: the sweep finds the table and the votes go.
    assert table.pk in services.tables_due(until)
    assert services.table_tick(table.pk, now=until)
    table.refresh_from_db()
    assert table.bomb_pot_vote_until is None and not table.bomb_pot_next
    assert not Seat.objects.filter(table=table, votes_bomb_pot=True).exists()
    forced = table_snapshot(table, ann)["table"]["forced_bets"]
    assert forced["bomb_pot_votes"] == 0 and forced["bomb_pot_vote_until"] is None
    _finish(table)
    deal(table, now=until + timedelta(seconds=timing.NEXT_HAND_DELAY_SECONDS + 1))
    assert not STATE.engine(current(table)).bomb_pot


def test_a_vote_that_lapses_between_hands_is_no_for_the_hand_dealt(director: User) -> None:
    table = open_table(director, bomb_pot_ante=2, bomb_pot_by_vote=True)
    ann, *_others = seat_four(table)
    deal(table)
    _finish(table)
    services.bomb_pot_vote(table.pk, ann, True)
    table.refresh_from_db()
    # The next deal comes after the vote's time: the vote lapses first, then the deal.
    deal(table, now=table.bomb_pot_vote_until + timedelta(seconds=1))
    assert not STATE.engine(current(table)).bomb_pot
    table.refresh_from_db()
    assert table.bomb_pot_vote_until is None
    assert not Seat.objects.filter(table=table, votes_bomb_pot=True).exists()
