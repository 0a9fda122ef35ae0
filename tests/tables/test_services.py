"""The table's workflows, with the clock moved by hand: deal, time out, sit out, leave, bots."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from tables import fairness, services, timing
from tables.bots import bot_move, decide
from tables.engine.cards import cards_str
from tables.engine.records import BlindPosted, HoleDealt, Shown, record_from_json
from tables.models import Hand, HandPlayer, Seat, SeatState, ServerProcess, Table, TableLedger
from tables.replay import hand_replay_steps
from tables.runtime.state import STATE, table_snapshot
from tables.selectors import (
    hand_phh_for,
    hand_records_for,
    hand_verification,
    hands_played_by,
    table_chip_count,
)
from tests.tables.conftest import deal, later, make_players

pytestmark = pytest.mark.django_db


def current(table: Table) -> Hand:
    return Hand.objects.filter(table=table).order_by("-number").first()


def user_at(table: Table, seat: int) -> User:
    return Seat.objects.get(table=table, number=seat).user


def play_out(table: Table, now, choose=lambda legal: "call" if legal["call"] else "check"):  # type: ignore[no-untyped-def]
    """Act for whoever is to act until the hand ends, as each player's snapshot allows."""
    hand = current(table)
    for _ in range(100):
        hand.refresh_from_db()
        if hand.is_complete:
            return hand
        user = user_at(table, hand.to_act)
        legal = table_snapshot(table, user)["you"]["legal"]
        action = choose(legal)
        services.table_act(table.pk, user, legal["hand"], legal["version"], action, now=now)
    raise AssertionError("the hand did not end")


def test_a_hand_starts_a_few_seconds_after_two_players_sit(table: Table) -> None:
    ann, ben = make_players("ann", "ben")
    services.seat_take(table.pk, ann, 1, 100)
    assert not services.table_tick(table.pk, now=later(10))  # one player: no hand
    services.seat_take(table.pk, ben, 2, 100)
    table.refresh_from_db()
    assert not services.table_tick(table.pk, now=table.next_hand_at - timedelta(seconds=1))
    assert services.table_tick(table.pk, now=table.next_hand_at)
    hand = current(table)
    assert hand.number == 1 and hand.to_act is not None
    assert hand.deadline == hand.turn_started_at + timedelta(seconds=30)
    # Running the tick again changes nothing: the next hand is not due, no time-out yet.
    assert not services.table_tick(table.pk, now=hand.turn_started_at + timedelta(seconds=5))


def test_the_button_moves_after_each_hand(seated_table: Table) -> None:
    buttons = []
    now = later(10)
    for _ in range(4):
        now = deal(seated_table, now + timedelta(seconds=5))
        buttons.append(current(seated_table).button)
        play_out(seated_table, now)
    assert buttons == [1, 2, 3, 1]


def test_a_player_who_times_out_checks_or_folds_and_is_sat_out(seated_table: Table) -> None:
    now = deal(seated_table)
    hand = current(seated_table)
    to_act = hand.to_act
    # docs/rules.md: "10 seconds, then a visible 20-second countdown".
    snapshot = table_snapshot(seated_table, None)
    assert snapshot["hand"]["countdown_from"] == int(
        (hand.turn_started_at + timedelta(seconds=10)).timestamp() * 1000
    )
    assert not services.table_tick(seated_table.pk, now=now + timedelta(seconds=29))
    assert services.table_tick(seated_table.pk, now=now + timedelta(seconds=30))
    hand.refresh_from_db()
    # Facing the big blind, checking is not free: the player folds.
    assert hand.records[-1]["kind"] in {"Folded"} or any(
        r["kind"] == "Folded" and r["seat"] == to_act for r in hand.records
    )
    seat = Seat.objects.get(table=seated_table, number=to_act)
    assert seat.state == SeatState.SITTING_OUT and seat.sat_out_reason == "timed out"


def test_a_timed_out_player_checks_when_checking_is_free(seated_table: Table) -> None:
    now = deal(seated_table)
    # Everyone calls before the flop; on the flop the first player does nothing.
    hand = current(seated_table)
    for _ in range(3):
        hand.refresh_from_db()
        if hand.records[-1]["kind"] == "BoardDealt":
            break
        user = user_at(seated_table, hand.to_act)
        legal = table_snapshot(seated_table, user)["you"]["legal"]
        services.table_act(
            seated_table.pk, user, hand.pk, legal["version"], "call" if legal["call"] else "check"
        )
    hand.refresh_from_db()
    idle = hand.to_act
    assert services.table_tick(seated_table.pk, now=hand.deadline)
    hand.refresh_from_db()
    assert {"kind": "Checked", "seat": idle} in hand.records
    del now


def test_leaving_mid_hand_cashes_out_when_the_hand_ends(seated_table: Table) -> None:
    now = deal(seated_table)
    hand = current(seated_table)
    leaver_seat = next(n for n in (1, 2, 3) if n != hand.to_act)
    leaver = user_at(seated_table, leaver_seat)
    services.seat_leave(seated_table.pk, leaver, now=now)
    assert Seat.objects.get(table=seated_table, number=leaver_seat).leaving
    play_out(seated_table, now)
    seat = Seat.objects.get(table=seated_table, number=leaver_seat)
    assert seat.user is None and seat.state == SeatState.EMPTY
    cash_out = TableLedger.objects.get(table=seated_table, user=leaver, kind="cash_out")
    assert cash_out.amount == HandPlayer.objects.get(hand=hand, user=leaver).stack_after
    counts = table_chip_count(seated_table)
    assert counts["bought_in"] - counts["cashed_out"] == counts["seated"]


def test_a_new_player_waits_for_the_big_blind_or_posts_at_once(seated_table: Table) -> None:
    now = deal(seated_table)
    play_out(seated_table, now)
    dee, eve = make_players("dee", "eve")
    services.seat_take(seated_table.pk, dee, 5, 100, wait_for_big_blind=True)
    services.seat_take(seated_table.pk, eve, 6, 100, wait_for_big_blind=False)
    now = deal(seated_table, now + timedelta(seconds=5))
    hand = current(seated_table)
    records = [record_from_json(r) for r in hand.records]
    posts = {(r.seat, r.blind) for r in records if isinstance(r, BlindPosted)}
    dealt = {r["seat"] for r in hand.records[0]["seats"]}
    # Button 2: small blind 3, big blind 5 would pass dee... dee is dealt in only as the
    # big blind; eve posts a live big blind out of position.
    assert (6, "live") in posts or 6 in dealt
    if 5 in dealt:
        assert (5, "big") in posts
    else:
        assert Seat.objects.get(table=seated_table, number=5).state == SeatState.WAITING


def test_a_player_sitting_out_owes_the_blinds_that_passed(seated_table: Table) -> None:
    now = deal(seated_table)
    play_out(seated_table, now)
    dee = make_players("dee")[0]
    services.seat_take(seated_table.pk, dee, 4, 100, wait_for_big_blind=False)
    for _ in range(3):
        now = deal(seated_table, now + timedelta(seconds=5))
        play_out(seated_table, now)
    ben = user_at(seated_table, 2)
    services.seat_sit_out(seated_table.pk, ben)
    for _ in range(4):
        now = deal(seated_table, now + timedelta(seconds=5))
        play_out(seated_table, now)
    seat = Seat.objects.get(table=seated_table, number=2)
    assert seat.owes_big and seat.owes_small
    assert table_snapshot(seated_table, ben)["you"]["owes"] == {"small": True, "big": True}
    services.seat_sit_in(seated_table.pk, ben, wait_for_big_blind=False)
    for _ in range(3):
        now = deal(seated_table, now + timedelta(seconds=5))
        hand = current(seated_table)
        play_out(seated_table, now)
        if any(r["seat"] == 2 for r in hand.records[0]["seats"]):
            break
    posts = [
        r
        for r in hand.records
        if r["kind"] == "BlindPosted" and r["seat"] == 2 and r["blind"] in ("live", "dead", "big")
    ]
    assert posts, "ben came back without posting what he owed"
    seat.refresh_from_db()
    assert not seat.owes_big and not seat.owes_small


def test_every_finished_hand_verifies_and_reveals_only_after_the_end(seated_table: Table) -> None:
    now = deal(seated_table)
    hand = current(seated_table)
    live = table_snapshot(seated_table, None)["hand"]
    assert live["commitment"] == hand.commitment and live["reveal"] is None
    assert hand_verification(hand)["openings"] is None
    play_out(seated_table, now)
    hand.refresh_from_db()
    result = hand_verification(hand)
    assert result["hash_matches"] and result["deal_matches"]
    reveal = table_snapshot(seated_table, None)["hand"]["reveal"]
    assert reveal == {"leaves": result["leaves"], "openings": result["openings"]}
    call_command("verify_hand", str(hand.pk))


def test_a_tampered_deck_does_not_verify(seated_table: Table) -> None:
    now = deal(seated_table)
    hand = play_out(seated_table, now)
    hand.deck = hand.deck[2:4] + hand.deck[0:2] + hand.deck[4:]
    result = hand_verification(hand)
    assert not result["hash_matches"] and not result["deal_matches"]


def test_mucked_and_folded_cards_never_leave_the_server_after_the_hand(
    seated_table: Table, players: list[User]
) -> None:
    # the verify page and hand.reveal showed the whole deck, so anyone
    # could rebuild a folded or mucked hand. Now only what the table saw is opened, and each
    # player gets the openings of their own cards on their own snapshot.
    now = deal(seated_table)
    hand = current(seated_table)
    first = hand.to_act
    version = Table.objects.get(pk=seated_table.pk).version
    services.table_act(
        seated_table.pk, user_at(seated_table, first), hand.pk, version, "fold", now=now
    )
    hand = play_out(seated_table, now)
    records = [record_from_json(r) for r in hand.records]
    folded = next(r.cards for r in records if isinstance(r, HoleDealt) and r.seat == first)
    shown = {c for r in records if isinstance(r, Shown) for c in r.cards}
    hidden = {cards_str([c]) for c in folded} - {cards_str([c]) for c in shown}
    assert hidden
    spectator = table_snapshot(seated_table, None)
    verification = hand_verification(hand)
    for text in (json.dumps(spectator), json.dumps(verification)):
        assert hand.deck not in text and hand.secret not in text
    opened = {o["card"] for o in verification["openings"]}
    opened |= {o["card"] for o in spectator["hand"]["reveal"]["openings"]}
    opened |= {c for seat in spectator["seats"] for c in seat.get("cards") or []}
    assert not opened & hidden
    # The folded player proves their own cards from their snapshot, and only they see them.
    mine = table_snapshot(seated_table, user_at(seated_table, first))["you"]["openings"]
    assert sorted(o["card"] for o in mine) == sorted(cards_str([c]) for c in folded)
    leaves = spectator["hand"]["reveal"]["leaves"]
    assert fairness.openings_verify(hand.commitment, leaves, mine) == (True, True)
    other = next(n for n in (1, 2, 3) if n != first)
    assert not any(
        o["card"] in hidden
        for o in table_snapshot(seated_table, user_at(seated_table, other))["you"]["openings"]
    )


def test_histories_show_a_player_only_what_they_could_see(seated_table: Table) -> None:
    now = deal(seated_table)
    hand = play_out(seated_table, now, choose=lambda legal: "fold" if legal["call"] else "check")
    ann = user_at(seated_table, 1)
    assert list(hands_played_by(ann)) == [hand]
    records = hand_records_for(hand, ann)
    assert "deck" not in records[0]
    holes = {r["seat"]: r["cards"] for r in records if r["kind"] == "HoleDealt"}
    assert "??" not in holes[1]
    shown = {r["seat"] for r in records if r["kind"] == "Shown"}
    for seat in (2, 3):
        if seat not in shown:
            assert holes[seat] == ["??"] * 4
    phh = hand_phh_for(hand, ann)
    assert "????????" in phh or shown
    steps = hand_replay_steps(hand, ann)["steps"]
    assert steps[0]["move"] is None and len(steps) >= 2
    for step in steps:
        for seat in step["view"]["seats"]:
            if seat["seat"] != 1 and seat["seat"] not in shown:
                assert seat.get("cards") is None


def test_bots_fill_empty_seats_and_play_through_the_protocol(
    table: Table, director: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Driven here with no thinking time: a raising war could pass the players' flood limit.
    monkeypatch.setattr("tables.protocol.frame_allowed", lambda user: True)
    added = services.table_add_bots(table.pk, director, count=3)
    assert [s.bot_style != "" for s in added] == [True, True, True]
    with pytest.raises(services.TableError):
        services.table_add_bots(table.pk, make_players("pat2")[0])
    now = deal(table)
    for _ in range(200):
        hand = current(table)
        if hand.is_complete:
            break
        if hand.reveal_at is not None:  # all in: the run-out is dealt street by street
            assert services.table_tick(table.pk, now=hand.reveal_at)
            continue
        assert bot_move(table.pk)
    assert current(table).is_complete
    counts = table_chip_count(table)
    # A bot that busted bought in again: every chip is still accounted.
    rebought = TableLedger.objects.filter(table=table, kind="buy_in").count() - 3
    assert counts["bought_in"] == (3 + rebought) * table.max_buy_in
    assert counts["bought_in"] - counts["cashed_out"] == counts["seated"]
    del now


def test_a_bot_decides_only_on_its_turn(seated_table: Table) -> None:
    deal(seated_table)
    hand = current(seated_table)
    for seat in (1, 2, 3):
        snapshot = table_snapshot(seated_table, user_at(seated_table, seat))
        frame = decide("tight", snapshot)
        if seat == hand.to_act:
            assert frame is not None and frame["version"] == snapshot["version"]
        else:
            assert frame is None


def test_only_directors_open_tables_unless_the_site_allows_players(settings) -> None:  # type: ignore[no-untyped-def]
    pat = make_players("pat3")[0]
    with pytest.raises(services.TableError):
        services.table_create(created_by=pat, name="mine")
    settings.TABLES_PLAYERS_MAY_OPEN = True
    table = services.table_create(created_by=pat, name="mine", big_blind=10)
    # The card room's house minimum: five times the maximum bet.
    assert table.min_buy_in == 5 * 20
    assert table.seats.count() == 6


def test_one_seat_per_player_and_one_player_per_seat(seated_table: Table) -> None:
    ann = user_at(seated_table, 1)
    with pytest.raises(services.TableError, match="already"):
        services.seat_take(seated_table.pk, ann, 4, 100)
    dee = make_players("dee")[0]
    with pytest.raises(services.TableError, match="taken"):
        services.seat_take(seated_table.pk, dee, 1, 100)


def test_load_demo_tables_opens_a_table_with_bots(director: User) -> None:
    call_command("load_demo_tables")
    table = Table.objects.get()
    assert table.seats.exclude(bot_style="").count() == 4
    call_command("load_demo_tables")
    assert Table.objects.count() == 1


def test_house_option_a_disconnected_player_who_times_out_is_all_in(
    director: User, players: list[User]
) -> None:
    # docs/rules.md: "a player who times out while disconnected, with chips in the pot, is
    # treated as all-in" (house option, off by default).
    table = services.table_create(
        created_by=director, name="Online rules", big_blind=2, all_in_on_disconnect=True
    )
    for number, player in enumerate(players, start=1):
        services.seat_take(table.pk, player, number, 100)
    deal(table)
    hand = current(table)
    first = user_at(table, hand.to_act)
    legal = table_snapshot(table, first)["you"]["legal"]
    services.table_act(table.pk, first, hand.pk, legal["version"], "raise", legal["raise"]["min"])
    hand.refresh_from_db()
    blind_seat = hand.to_act  # a blind: chips already in the pot, nobody connected
    assert services.table_tick(table.pk, now=hand.deadline)
    hand.refresh_from_db()
    assert {"kind": "AllInDeclared", "seat": blind_seat} in hand.records


def all_in_heads_up(director: User) -> tuple[Table, Hand]:
    """Two players of 100 chips each all in before the flop: the run-out is next."""
    table = services.table_create(
        created_by=director, name="Shove", structure="no-limit", big_blind=2, max_buy_in=200
    )
    ann, ben = make_players("ann", "ben")
    services.seat_take(table.pk, ann, 1, 100)
    services.seat_take(table.pk, ben, 2, 100)
    now = deal(table)
    hand = current(table)
    first = user_at(table, hand.to_act)
    legal = table_snapshot(table, first)["you"]["legal"]
    services.table_act(table.pk, first, legal["hand"], legal["version"], "raise", 100, now=now)
    second = ben if first == ann else ann
    legal = table_snapshot(table, second)["you"]["legal"]
    services.table_act(table.pk, second, legal["hand"], legal["version"], "call", now=now)
    return table, hand


def test_an_all_in_run_out_is_dealt_street_by_street_with_the_equity_before_each_card(
    director: User,
) -> None:
    # docs/rules.md: "When all but one are all-in and no betting can follow, every hand is
    # turned up before the board is run out." The table then deals it a street at a time.
    table, hand = all_in_heads_up(director)

    boards = []
    for _ in range(3):
        hand.refresh_from_db()
        assert not hand.is_complete and hand.to_act is None and hand.deadline is None
        spectator = table_snapshot(table, None)
        boards.append(len(spectator["hand"]["board"]))
        assert spectator["hand"]["results"] is None and spectator["hand"]["equity"]
        assert abs(sum(spectator["hand"]["equity"].values()) - 1) < 1e-3
        dealt = [s for s in spectator["seats"] if s["player"]]
        assert all(s["stack"] == 0 and len(s["cards"]) == 4 for s in dealt)
        assert spectator["you"]["legal"] is None
        assert not services.table_tick(table.pk, now=hand.reveal_at - timedelta(seconds=0.1))
        assert services.table_tick(table.pk, now=hand.reveal_at)
    assert boards == [0, 3, 4]
    hand.refresh_from_db()
    assert hand.is_complete and hand.reveal_at is None
    finished = table_snapshot(table, None)
    assert len(finished["hand"]["board"]) == 5 and finished["hand"]["results"]
    stacks = Seat.objects.filter(table=table, user__isnull=False).values_list("stack", flat=True)
    assert sum(stacks) == 200


def test_the_sweep_finds_a_run_out_due_from_its_stored_time(director: User) -> None:
    # The street shown and the time of the next are stored on the hand.
    table, hand = all_in_heads_up(director)
    hand.refresh_from_db()
    assert services.tables_due(now=hand.reveal_at) == [table.pk]
    assert table.pk not in services.tables_due(now=hand.reveal_at - timedelta(seconds=1))


def test_a_player_may_choose_to_show_a_hand_that_cannot_win(table: Table) -> None:
    # docs/rules.md: "Others show or muck in turn; a mucked hand wins nothing." The table asks
    # nobody at the showdown: each player's standing choice decides for a losing hand.
    from tables.engine.records import Mucked, Shown

    ann, ben = make_players("ann", "ben")
    services.seat_take(table.pk, ann, 1, 200)
    services.seat_take(table.pk, ben, 2, 200)
    services.seat_options(table.pk, ann, muck_losing=False)
    assert table_snapshot(table, ann)["you"]["muck_losing"] is False
    assert table_snapshot(table, ben)["you"]["muck_losing"] is True
    now = later(timing.NEXT_HAND_DELAY_SECONDS + 1)
    for _ in range(12):
        if not services.table_tick(table.pk, now=now):
            break
        hand = play_out(table, now)
        records = [record_from_json(r) for r in hand.records]
        assert not any(isinstance(r, Mucked) and r.seat == 1 for r in records)
        assert any(isinstance(r, Shown) for r in records)
        table.refresh_from_db()
        now = table.next_hand_at


def test_showing_options_need_a_seat(table: Table, players: list[User]) -> None:
    with pytest.raises(services.TableError) as refused:
        services.seat_options(table.pk, players[0], muck_losing=False)
    assert refused.value.code == "not_seated"


def test_sockets_of_a_server_that_stopped_beating_are_forgotten(
    seated_table: Table, django_capture_on_commit_callbacks
) -> None:
    """A server killed outright never closes its sockets: once its heartbeat is older than
    SERVER_GONE_SECONDS the sweep forgets them, and its players show as disconnected."""
    ann, ben = user_at(seated_table, 1), user_at(seated_table, 2)
    start = later(0)
    services.server_heartbeat("alive", now=start)
    services.server_heartbeat("killed", now=start)
    services.seat_connection(seated_table.pk, ann, 1, server="killed", now=start)
    services.seat_connection(seated_table.pk, ben, 1, server="killed", now=start)
    services.seat_connection(seated_table.pk, ben, 1, server="alive", now=start)
    assert Seat.objects.get(table=seated_table, number=1).sockets == {"killed": 1}

    soon = start + timedelta(seconds=timing.SERVER_GONE_SECONDS - 1)
    services.server_heartbeat("alive", now=soon)
    assert services.servers_forget_gone(now=soon) == 0  # not yet gone

    gone = start + timedelta(seconds=timing.SERVER_GONE_SECONDS + 1)
    services.server_heartbeat("alive", now=gone)
    seated_table.refresh_from_db()
    version = seated_table.version
    with django_capture_on_commit_callbacks(execute=True):
        assert services.servers_forget_gone(now=gone) == 1  # ann: ben is still on "alive"
    seated = {s.number: s for s in Seat.objects.filter(table=seated_table)}
    assert seated[1].sockets == {} and not seated[1].connected
    assert seated[2].sockets == {"alive": 1} and seated[2].connected
    seated_table.refresh_from_db()
    assert seated_table.version == version + 1  # the table shows it
    assert table_snapshot(seated_table, None)["seats"][0]["connected"] is False
    assert not ServerProcess.objects.filter(name="killed").exists()

    # The embedded server starting is the only process: it forgets every other one's sockets,
    # also under names no heartbeat recorded.
    services.seat_connection(seated_table.pk, ann, 1, server="never-beat", now=gone)
    assert services.servers_forget_gone(now=gone, all_but="new") == 2
    assert all(s.sockets == {} for s in Seat.objects.filter(table=seated_table))


def test_sockets_are_counted_per_player_across_servers(seated_table: Table) -> None:
    ann = user_at(seated_table, 1)
    for server, delta in [("a", 1), ("b", 1), ("a", 1), ("a", -1), ("b", -1)]:
        services.seat_connection(seated_table.pk, ann, delta, server=server)
    assert Seat.objects.get(table=seated_table, number=1).sockets == {"a": 1}
    services.seat_connection(seated_table.pk, ann, -1, server="a")
    services.seat_connection(seated_table.pk, ann, -1, server="a")  # a stray close: no harm
    seat = Seat.objects.get(table=seated_table, number=1)
    assert seat.sockets == {} and not seat.connected


def test_a_busted_house_bot_buys_in_again_so_a_demo_table_plays_on(
    table: Table, director: User
) -> None:
    # within ten minutes three bots sat at 0 chips "AWAY" and the demo
    # table stalled on "Waiting for the next hand".
    services.table_add_bots(table.pk, director, count=3)
    Seat.objects.filter(table=table, user__isnull=False).update(stack=2)  # one big blind each
    TableLedger.objects.filter(table=table).update(amount=2)
    now = later(timing.NEXT_HAND_DELAY_SECONDS + 1)
    for _ in range(20):
        assert services.table_tick(table.pk, now=now)
        for _ in range(200):
            hand = current(table)
            if hand.is_complete:
                break
            if hand.reveal_at is not None:
                assert services.table_tick(table.pk, now=hand.reveal_at)
                continue
            assert bot_move(table.pk)
        if TableLedger.objects.filter(table=table, kind="buy_in").count() > 3:
            break
        now = later(timing.NEXT_HAND_DELAY_SECONDS + 1, now)
    rebuys = TableLedger.objects.filter(table=table, kind="buy_in", amount=table.max_buy_in)
    assert rebuys.exists()
    bots = Seat.objects.filter(table=table, user__isnull=False)
    assert all(s.stack > 0 and s.state == SeatState.PLAYING for s in bots)
    counts = table_chip_count(table)
    assert counts["bought_in"] - counts["cashed_out"] == counts["seated"]
    # The summary names a bot as the felt does, not by its account name.
    assert "bot-" not in current(table).summary


def test_house_option_the_home_series_pot_counts_the_small_blinds_call(director: User) -> None:
    # docs/rules/sources/home-series-event-plo8.txt: "if the blinds are 25/50 and the button wants
    # to raise the pot, the total bet will be 200". Off by default.
    def first_raise_max(option: bool) -> int:
        table = services.table_create(
            created_by=director,
            name=f"Home rules {option}",
            big_blind=50,
            small_blind=25,
            min_buy_in=1000,
            max_buy_in=5000,
            pot_assumes_small_blind_call=option,
        )
        for number, player in enumerate(make_players(*(f"h{option:d}{k}" for k in range(3))), 1):
            services.seat_take(table.pk, player, number, 5000, wait_for_big_blind=False)
        deal(table)
        hand = current(table)
        legal = table_snapshot(table, user_at(table, hand.to_act))["you"]["legal"]
        return legal["raise"]["max"]

    assert first_raise_max(True) == 200
    assert first_raise_max(False) == 175


def test_a_tables_next_hand_replaces_its_previous_hands_engine(seated_table: Table) -> None:
    """A server keeps about one engine per table it serves, not every finished hand; an
    older hand read again (a history page) is kept beside the newest without pushing it out."""
    deal(seated_table)
    first = Hand.objects.get(table=seated_table, ended_at__isnull=True)
    kept = STATE.engine(first)  # (a move files it after its commit; this test commits none)
    assert STATE.engine(first) is kept
    for _ in range(2):  # three players: two folds end the hand
        hand = Hand.objects.get(pk=first.pk)
        services.table_act(
            seated_table.pk,
            user_at(seated_table, hand.to_act),
            hand.pk,
            Table.objects.get(pk=seated_table.pk).version,
            "fold",
        )
    first.refresh_from_db()
    ended = STATE.engine(first)
    assert STATE.engine(first) is ended
    deal(seated_table, later(2 * (timing.NEXT_HAND_DELAY_SECONDS + 1)))
    second = Hand.objects.get(table=seated_table, ended_at__isnull=True)
    assert second.number == first.number + 1
    newest = STATE.engine(second)
    assert STATE.engine(second) is newest
    # The finished hand read again: rebuilt (its engine was let go), then kept beside the
    # newest, which stays.
    first.refresh_from_db()
    again = STATE.engine(first)
    assert again is not ended and STATE.engine(first) is again
    assert STATE.engine(second) is newest
