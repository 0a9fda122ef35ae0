"""Run it twice at a cash table: the 10-second vote, its answers and the two boards.

docs/rules.md, Home-game options: "Run it twice: offered when all but at most one player still
in are all-in and cards are still to come, and no betting can follow. Every player still in
must agree (silence is no)."
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tables import fairness, services
from tables.engine.cards import card_str
from tables.engine.records import (
    BoardDealt,
    Burned,
    PotAwarded,
    RunTwiceVoted,
    Shown,
    record_from_json,
)
from tables.models import Hand, Seat, Table
from tables.protocol import handle_frame
from tables.replay import hand_replay_steps
from tables.runtime.state import table_snapshot
from tables.selectors import hand_verification
from tables.timing import RUN_TWICE_VOTE_SECONDS
from tests.tables.conftest import deal, make_players

pytestmark = pytest.mark.django_db


def current(table: Table) -> Hand:
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    assert hand is not None
    return hand


def records(hand: Hand) -> list[object]:
    hand.refresh_from_db()
    return [record_from_json(r) for r in hand.records]


def all_in(director: User, *, run_it_twice: bool = True) -> tuple[Table, list[User], datetime]:
    """ann (seat 1) and ben (seat 2), 100 chips each, all in before the flop; cal watches
    from seat 3, seated after the deal."""
    table = services.table_create(
        created_by=director,
        name="Twice",
        structure="no-limit",
        big_blind=2,
        max_buy_in=200,
        run_it_twice=run_it_twice,
    )
    ann, ben, cal = make_players("ann", "ben", "cal")
    services.seat_take(table.pk, ann, 1, 100)
    services.seat_take(table.pk, ben, 2, 100)
    now = deal(table)
    services.seat_take(table.pk, cal, 3, 100)
    for _ in range(2):
        hand = current(table)
        user = Seat.objects.get(table=table, number=hand.to_act).user
        legal = table_snapshot(table, user)["you"]["legal"]
        action = "raise" if legal["raise"] else "call"
        amount = 100 if action == "raise" else None
        services.table_act(table.pk, user, legal["hand"], legal["version"], action, amount, now=now)
    return table, [ann, ben, cal], now


def vote(table: Table, user: User, agree: bool, **extra: object) -> list[dict[str, object]]:
    """An answer as a socket sends it (the consumer hands every frame to handle_frame)."""
    frame = {"type": "run_twice", "hand": current(table).pk, "agree": agree, **extra}
    return handle_frame(table.pk, user, frame)


def reveal_all(table: Table) -> list[dict[str, object]]:
    """Tick the run-out street by street, as the sweep would; the spectator's snapshots."""
    shown = []
    for _ in range(4):
        hand = current(table)
        if hand.reveal_at is None:
            break
        assert services.table_tick(table.pk, now=hand.reveal_at)
        shown.append(table_snapshot(table, None))
    return shown


def test_the_players_still_in_are_asked_and_two_yeses_deal_two_boards(director: User) -> None:
    table, (ann, ben, cal), now = all_in(director)
    hand = current(table)
    assert hand.vote_until == now + timedelta(seconds=RUN_TWICE_VOTE_SECONDS)
    assert hand.to_act is None and hand.deadline is None and hand.reveal_at is None
    asked = table_snapshot(table, ann)
    assert asked["table"]["run_it_twice"] is True
    # Asked in deal order: heads-up the button (seat 1) is dealt last.
    assert asked["hand"]["run_twice"] == {
        "asked": [2, 1],
        "agreed": [],
        "until": int(hand.vote_until.timestamp() * 1000),
    }
    # The hands are turned up and the equity shown while the players decide.
    assert asked["hand"]["equity"] and asked["you"]["legal"] is None
    assert all(len(s["cards"]) == 4 for s in asked["seats"] if s["seat"] in (1, 2))
    assert services.tables_due(now=hand.vote_until) == [table.pk]
    assert not services.table_tick(table.pk, now=hand.vote_until - timedelta(seconds=0.1))

    assert vote(table, ben, True) == []
    assert table_snapshot(table, cal)["hand"]["run_twice"]["agreed"] == [2]
    assert vote(table, ann, True) == []
    hand = current(table)
    assert hand.vote_until is None and hand.board_shown == 0 and hand.reveal_at is not None

    shown = reveal_all(table)
    flop = shown[0]["hand"]
    assert [len(board) for board in flop["boards"]] == [3, 3] and flop["results"] is None
    final = shown[-1]["hand"]
    assert final["complete"] and [len(board) for board in final["boards"]] == [5, 5]
    assert final["board"] == final["boards"][0]
    assert {result["run"] for result in final["results"]} == {1, 2}
    assert sum(result["amount"] for result in final["results"]) == 200
    stacks = Seat.objects.filter(table=table, number__in=(1, 2)).values_list("stack", flat=True)
    assert sum(stacks) == 200
    # Who won what, run by run, for the recent hands.
    hand = current(table)
    assert {award["run"] for award in hand.awards} == {1, 2}


def test_silence_is_no_when_the_time_to_answer_is_up(director: User) -> None:
    table, (ann, ben, _cal), _now = all_in(director)
    assert vote(table, ann, True) == []
    hand = current(table)
    assert services.table_tick(table.pk, now=hand.vote_until)
    answers = [r for r in records(hand) if isinstance(r, RunTwiceVoted)]
    assert answers == [RunTwiceVoted(1, True), RunTwiceVoted(2, False, True)]
    hand = current(table)
    assert hand.vote_until is None and hand.reveal_at is not None
    final = reveal_all(table)[-1]["hand"]
    assert final["boards"] is None and len(final["board"]) == 5
    assert all("run" not in result for result in final["results"])


def test_one_no_runs_the_board_once(director: User) -> None:
    table, (ann, _ben, _cal), _now = all_in(director)
    assert vote(table, ann, False) == []
    assert [r for r in records(current(table)) if isinstance(r, RunTwiceVoted)] == [
        RunTwiceVoted(1, False)
    ]
    assert reveal_all(table)[-1]["hand"]["boards"] is None


def test_bad_answers_are_refused_and_change_nothing(director: User) -> None:
    table, (ann, ben, cal), _now = all_in(director)
    spectator = make_players("dee")[0]
    version = Table.objects.get(pk=table.pk).version
    refused = {
        "not seated": vote(table, spectator, True),
        "not in the hand": vote(table, cal, True),
        "another seat": vote(table, ann, True, seat=2),
        "no answer": handle_frame(table.pk, ann, {"type": "run_twice", "hand": 1}),
        "not a bool": vote(table, ann, "yes"),  # type: ignore[arg-type]
        "old hand": handle_frame(
            table.pk, ann, {"type": "run_twice", "hand": current(table).pk + 1, "agree": True}
        ),
    }
    codes = {why: frames[0]["code"] for why, frames in refused.items()}
    assert codes == {
        "not seated": "not_seated",
        "not in the hand": "illegal_action",
        "another seat": "not_your_seat",
        "no answer": "malformed",
        "not a bool": "malformed",
        "old hand": "stale",
    }
    assert refused["not in the hand"][0]["message"] == "seat 3 is not in this hand"
    assert refused["another seat"][0]["message"] == "you may answer only for your own seat"
    assert Table.objects.get(pk=table.pk).version == version
    assert vote(table, ann, True) == []
    twice = vote(table, ann, True)
    assert twice[0]["code"] == "illegal_action"
    assert twice[0]["message"] == "seat 1 has already agreed to run it twice"


def test_no_vote_is_open_during_the_betting_or_without_the_option(director: User) -> None:
    table, (ann, _ben, _cal), _now = all_in(director, run_it_twice=False)
    hand = current(table)
    assert hand.vote_until is None and hand.reveal_at is not None
    assert table_snapshot(table, ann)["hand"]["run_twice"] is None
    refused = vote(table, ann, True)
    assert refused[0]["code"] == "illegal_action"
    assert refused[0]["message"] == "no vote on running it twice is open"


def test_house_bots_answer_at_once_so_a_bot_table_never_waits(director: User) -> None:
    table = services.table_create(
        created_by=director, name="Bots", structure="no-limit", big_blind=2, run_it_twice=True
    )
    ann, ben = make_players("ann", "ben")
    services.seat_take(table.pk, ann, 1, 100)
    services.seat_take(table.pk, ben, 2, 100)
    Seat.objects.filter(table=table).update(bot_style="tight")
    now = deal(table)
    for _ in range(2):
        hand = current(table)
        user = Seat.objects.get(table=table, number=hand.to_act).user
        legal = table_snapshot(table, user)["you"]["legal"]
        action, amount = ("raise", 100) if legal["raise"] else ("call", None)
        services.table_act(table.pk, user, legal["hand"], legal["version"], action, amount, now=now)
    hand = current(table)
    # botbrain.run_twice_answer: a house bot always agrees.
    answers = [r for r in records(hand) if isinstance(r, RunTwiceVoted)]
    assert sorted(answers, key=lambda r: r.seat) == [RunTwiceVoted(1, True), RunTwiceVoted(2, True)]
    assert hand.vote_until is None and hand.reveal_at is not None


def test_the_proof_replay_and_history_show_both_runs(director: User, client: Client) -> None:
    table, (ann, ben, _cal), _now = all_in(director)
    vote(table, ann, True)
    vote(table, ben, True)
    reveal_all(table)
    hand = current(table)
    stored = records(hand)
    second = [c for r in stored if isinstance(r, BoardDealt) and r.run == 2 for c in r.cards]
    burns = [r.card for r in stored if isinstance(r, Burned)]
    assert len(second) == 5 and len(burns) == 6
    # The fairness proof opens both runs' cards and burns, and nothing else face down.
    reveal = fairness.hand_reveal(hand.deck, hand.secret, stored)
    opened = {o["card"] for o in reveal["openings"]}
    assert {card_str(c) for c in second + burns} <= opened
    shown = {card_str(c) for r in stored if isinstance(r, Shown) for c in r.cards}
    board = {card_str(c) for r in stored if isinstance(r, BoardDealt) for c in r.cards}
    assert opened == shown | board | {card_str(c) for c in burns}
    check = hand_verification(hand, ann)
    assert check["hash_matches"] and check["deal_matches"]
    assert [len(b) for b in check["boards"]] == [5, 5]
    page = client.get(reverse("tables:hand_verify", args=[hand.pk])).content.decode()
    assert "Board, run 1:" in page and "Board, run 2:" in page
    # The replayer: the answers are steps, and the run-out deals both boards.
    steps = hand_replay_steps(hand, ann)["steps"]
    texts = [step["text"] for step in steps]
    assert "ann agrees to run it twice" in texts and "ben agrees to run it twice" in texts
    boards = [step["view"]["hand"]["boards"] for step in steps if step["kind"] == "street"]
    assert [[len(b) for b in pair] for pair in boards] == [[3, 3], [4, 4], [5, 5]]
    assert steps[-1]["text"].startswith("Run 1: ")
    assert sum(r.amount for r in stored if isinstance(r, PotAwarded)) == 200
