"""Showing cards after the hand at a live table: the service, the socket frame, the pages.

docs/rules.md, Home-game options: "a player may show any of their own cards after the hand ends
(won without a showdown or folded). What is shown becomes part of the hand's record; no
other card of a folded or mucked hand is ever revealed." At a table a player may do it
until the next hand starts.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tables import services
from tables.engine.cards import card_str
from tables.engine.records import CardsShown, HoleDealt, record_from_json
from tables.models import Hand, Seat, Table
from tables.runtime.state import table_snapshot
from tables.selectors import hand_verification
from tests.tables.conftest import deal, later, make_players
from tests.tables.test_consumers import open_socket

# A card on its own ("Ah" in JSON, "shows Ah Kd" in words), not two characters of a hash.
WORD_CARD = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][cdhs](?![0-9A-Za-z])")
# PHH writes a player's cards as one run ("d dh p2 Ah??Kd??").
PHH_CARDS = re.compile(r"(?:d dh p\d+|d db|sm|shows) ((?:[2-9TJQKA?][cdhs?])+)")


def cards_in(text: str) -> set[str]:
    """Every card a page, a payload or a PHH text shows."""
    found = set(WORD_CARD.findall(text))
    for run in PHH_CARDS.findall(text):
        found |= {run[k : k + 2] for k in range(0, len(run), 2)} - {"??"}
    return found


def current(table: Table) -> Hand:
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    assert hand is not None
    return hand


def user_at(table: Table, seat: int) -> User:
    user = Seat.objects.get(table=table, number=seat).user
    assert user is not None
    return user


def version(table: Table) -> int:
    return Table.objects.values_list("version", flat=True).get(pk=table.pk)


def fold_out(table: Table, hand: Hand, now: Any = None) -> list[int]:
    """Fold until one player is left; the seats that folded, in order."""
    folded = []
    while not hand.is_complete:
        seat = hand.to_act
        assert seat is not None
        services.table_act(table.pk, user_at(table, seat), hand.pk, version(table), "fold", now=now)
        folded.append(seat)
        hand.refresh_from_db()
    return folded


def fold_to_the_last(table: Table) -> tuple[Hand, list[int]]:
    """Deal a hand and fold until one player is left: (the finished hand, the seats that
    folded, in order)."""
    now = deal(table)
    hand = current(table)
    return hand, fold_out(table, hand, now)


def folded_in(hand: Hand, seat: int) -> bool:
    return any(r["kind"] == "Folded" and r["seat"] == seat for r in hand.records)


def hole(hand: Hand, seat: int) -> list[str]:
    for r in (record_from_json(r) for r in hand.records):
        if isinstance(r, HoleDealt) and r.seat == seat:
            return [card_str(c) for c in r.cards]
    raise AssertionError(f"seat {seat} was not dealt in")


def seat_entry(snapshot: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(s for s in snapshot["seats"] if s["seat"] == seat)


def test_a_folded_player_shows_a_card_and_the_whole_table_sees_it(seated_table: Table) -> None:
    # docs/rules.md, Home-game options: "a player may show any of their own cards after the
    # hand ends (won without a showdown or folded)."
    hand, folded = fold_to_the_last(seated_table)
    shower = folded[0]
    cards = hole(hand, shower)
    mine = table_snapshot(seated_table, user_at(seated_table, shower))
    assert mine["you"]["can_show"] == {"hand": hand.pk, "cards": cards}
    assert "can_show" not in table_snapshot(seated_table, None)["you"]

    before = version(seated_table)
    assert services.cards_show(seated_table.pk, user_at(seated_table, shower), hand.pk, cards[2:3])
    assert version(seated_table) == before + 1
    hand.refresh_from_db()
    assert hand.records[-1] == {"kind": "CardsShown", "seat": shower, "cards": cards[2:3]}
    # Everyone at the table sees the card on that seat; its player may still show the rest.
    spectator = seat_entry(table_snapshot(seated_table, None), shower)
    assert spectator["shown_after"] == cards[2:3] and "cards" not in spectator
    mine = table_snapshot(seated_table, user_at(seated_table, shower))
    assert seat_entry(mine, shower)["shown_after"] == cards[2:3]
    assert mine["you"]["can_show"]["cards"] == cards[:2] + cards[3:]
    # The hand's page, its replay and its PHH hold it, for anyone who may see the hand.
    client = Client()
    page = client.get(reverse("tables:hand_detail", args=[hand.pk])).content.decode()
    assert f"shows {cards[2]} after the hand" in page
    phh = client.get(reverse("tables:hand_phh", args=[hand.pk])).content.decode()
    assert re.search(rf'"# p\d shows {cards[2]} after the hand"', phh)
    assert cards_in(phh) == {cards[2]}
    # Its fairness opening too: the table saw it.
    assert cards[2] in {o["card"] for o in hand_verification(hand)["openings"]}


def test_the_winner_shows_all_at_a_tournament_table(db: None) -> None:
    players = make_players("ann", "ben", "cal")
    table = services.tournament_table_open(
        name="Online PLO8, table 1",
        game="omaha-hi-lo",
        structure="pot-limit",
        seat_count=6,
        stakes=services.Stakes(small_blind=10, big_blind=20),
        sitters={n: services.Sitter(u.pk, 1500) for n, u in enumerate(players, 1)},
    )
    services.table_release(table.pk)
    table.refresh_from_db()
    assert services.table_tick(table.pk, now=table.next_hand_at)
    hand = current(table)
    fold_out(table, hand)
    table.refresh_from_db()
    assert table.held  # between hands, waiting on its tournament
    winner = next(n for n in (1, 2, 3) if not folded_in(hand, n))
    services.cards_show(table.pk, user_at(table, winner), hand.pk, hole(hand, winner))
    spectator = seat_entry(table_snapshot(table, None), winner)
    assert spectator["shown_after"] == hole(hand, winner)
    hand.refresh_from_db()
    phh = Client().get(reverse("tables:hand_phh", args=[hand.pk])).content.decode()
    assert f'sm {"".join(hole(hand, winner))}"' in phh


def refused(table: Table, code: str, call: Any) -> None:
    """``call`` is refused with ``code`` and changes nothing."""
    hand = current(table)
    before = (version(table), list(hand.records))
    with pytest.raises(services.TableError) as error:
        call()
    assert error.value.code == code, error.value.message
    hand.refresh_from_db()
    assert (version(table), hand.records) == before


def test_bad_shows_are_refused_and_change_nothing(seated_table: Table, director: User) -> None:
    now = deal(seated_table)
    hand = current(seated_table)
    first = hand.to_act
    assert first is not None
    user = user_at(seated_table, first)
    services.table_act(seated_table.pk, user, hand.pk, version(seated_table), "fold", now=now)
    cards = hole(hand, first)
    # The hand is not over yet, even for a player who folded.
    show = services.cards_show
    refused(seated_table, "hand_in_play", lambda: show(seated_table.pk, user, hand.pk, cards[:1]))
    hand.refresh_from_db()
    fold_out(seated_table, hand, now)
    winner = next(n for n in (1, 2, 3) if not folded_in(hand, n))
    # Another seat's cards, cards not held, a card twice, one already shown, not a card.
    refused(
        seated_table,
        "illegal_action",
        lambda: show(seated_table.pk, user, hand.pk, hole(hand, winner)[:1]),
    )
    services.cards_show(seated_table.pk, user, hand.pk, cards[:1])
    refused(seated_table, "illegal_action", lambda: show(seated_table.pk, user, hand.pk, cards[:1]))
    refused(
        seated_table,
        "illegal_action",
        lambda: show(seated_table.pk, user, hand.pk, [cards[1], cards[1]]),
    )
    refused(seated_table, "malformed", lambda: show(seated_table.pk, user, hand.pk, ["Zz"]))
    # A spectator, and a player of another hand or table.
    refused(
        seated_table, "not_dealt_in", lambda: show(seated_table.pk, director, hand.pk, cards[1:2])
    )
    refused(seated_table, "auth_required", lambda: show(seated_table.pk, None, hand.pk, cards[1:2]))
    refused(
        seated_table, "not_found", lambda: show(seated_table.pk, user, hand.pk + 999, cards[1:2])
    )
    # Once the next hand has started it is too late.
    deal(seated_table, later(60))
    assert current(seated_table).pk != hand.pk
    refused(seated_table, "stale", lambda: show(seated_table.pk, user, hand.pk, cards[1:2]))


def test_a_folded_hand_stays_hidden_everywhere_after_someone_else_shows(
    seated_table: Table, director: User
) -> None:
    # docs/rules.md, Home-game options: "no other card of a folded or mucked hand is ever
    # revealed."
    hand, folded = fold_to_the_last(seated_table)
    silent, shower = folded
    winner = next(n for n in (1, 2, 3) if n not in folded)
    services.cards_show(
        seated_table.pk, user_at(seated_table, shower), hand.pk, hole(hand, shower)[:2]
    )
    hand.refresh_from_db()
    assert isinstance(record_from_json(hand.records[-1]), CardsShown)
    secret = set(hole(hand, silent)) | set(hole(hand, shower)[2:]) | set(hole(hand, winner))
    viewers: list[tuple[User | None, set[str]]] = [
        (None, set()),
        (director, set()),
        (user_at(seated_table, winner), set(hole(hand, winner))),
        (user_at(seated_table, shower), set(hole(hand, shower))),
    ]
    for user, own in viewers:
        client = Client()
        if user is not None:
            client.force_login(user)
        texts = [
            json.dumps(table_snapshot(seated_table, user)),
            client.get(reverse("tables:table", args=[seated_table.pk])).content.decode(),
            client.get(reverse("tables:hand_detail", args=[hand.pk])).content.decode(),
            client.get(reverse("tables:hand_phh", args=[hand.pk])).content.decode(),
            # The page's worked example of a leaf ("7:Ah:<salt>") is not a card of the hand.
            client.get(reverse("tables:hand_verify", args=[hand.pk]))
            .content.decode()
            .replace("'7:Ah:&lt;salt&gt;'", ""),
            json.dumps(hand_verification(hand, user)),
        ]
        for text in texts:
            leaked = cards_in(text) & (secret - own)
            assert not leaked, (user, leaked)
    # The cards shown are everyone's.
    spectator_page = Client().get(reverse("tables:hand_detail", args=[hand.pk])).content.decode()
    assert set(hole(hand, shower)[:2]) <= cards_in(spectator_page)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_show_cards_frame_over_the_socket(director: User) -> None:
    table, hand, folded = await database_sync_to_async(_folded_hand_at_a_new_table)(director)
    shower = folded[0]
    user = await database_sync_to_async(user_at)(table, shower)
    cards = await database_sync_to_async(hole)(hand, shower)
    player = await open_socket(table, user, "shower")
    watcher = await open_socket(table, None, "spectator")
    try:
        # Bad input is refused to the sender alone, with a clear message.
        await player.send({"type": "show_cards", "hand": hand.pk, "cards": "Ah"})
        error = await player.reply()
        assert error["code"] == "malformed" and "'cards'" in error["message"]
        await watcher.send({"type": "show_cards", "hand": hand.pk, "cards": cards[:1]})
        assert (await watcher.reply())["code"] == "auth_required"
        await player.send({"type": "show_cards", "hand": hand.pk, "cards": cards[1:3], "ref": 7})
        seen = await watcher.until(lambda snap: seat_entry(snap, shower).get("shown_after"))
        assert seat_entry(seen, shower)["shown_after"] == cards[1:3]
        mine = await player.until(
            lambda snap: snap["you"].get("can_show", {}).get("cards") != cards
        )
        assert mine["you"]["can_show"]["cards"] == [cards[0], cards[3]]
        await player.send({"type": "show_cards", "hand": hand.pk, "cards": cards[1:2], "ref": 8})
        again = await player.reply()
        assert again["code"] == "illegal_action" and again["ref"] == 8
        assert "already shown" in again["message"]
    finally:
        await player.ws.disconnect()
        await watcher.ws.disconnect()


def _folded_hand_at_a_new_table(director: User) -> tuple[Table, Hand, list[int]]:
    table = services.table_create(
        created_by=director, name="Show table", big_blind=2, min_buy_in=40, max_buy_in=200
    )
    for number, player in enumerate(make_players("ann", "ben", "cal"), start=1):
        services.seat_take(table.pk, player, number, 100)
    hand, folded = fold_to_the_last(table)
    return table, hand, folded
