"""The hand replayer's steps (tables/replay.py), and every other page a finished hand appears
on, over every hand of a long seeded session.

The session (tests/tables/sessions.py) holds folds, showdowns with mucks, all-in run-outs,
time-outs and the house all-in of a disconnected player. Every finished hand must replay on
its page, in the live snapshot's shape, and show nobody a card they could not see; no other
page (the PHH download, the verify page, the table page's snapshot) shows a folded or
mucked hand, an undealt card, or the deck or its secret, to any viewer.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tables import services
from tables.engine.cards import cards_str
from tables.engine.records import (
    AllInDeclared,
    BoardDealt,
    Burned,
    CardsShown,
    HoleDealt,
    Mucked,
    Shown,
    record_from_json,
)
from tables.models import Hand, HandPlayer
from tables.replay import HandInPlay, hand_replay_steps
from tables.selectors import hand_verification
from tables.services import dealing
from tests.tables.conftest import make_players
from tests.tables.sessions import play_session, seeded_deal_new

pytestmark = pytest.mark.django_db

SNAPSHOT_SEAT_KEYS = {"seat", "player", "stack", "state", "bet", "folded", "all_in", "card_count"}
SNAPSHOT_HAND_KEYS = {
    "id", "number", "button", "straddle", "bomb_pot", "street", "board", "pots", "to_act", "deadline",
    "countdown_from", "commitment", "equity", "pot_equity", "results", "reveal", "complete",
    "boards", "run_twice",
}  # fmt: skip


@pytest.fixture
def session(director: User, monkeypatch: pytest.MonkeyPatch) -> list[Hand]:
    """Two tables' hands: short-stacked no-limit, where players shove, and pot-limit Hi/Lo
    with the house all-in for a disconnected player who times out."""
    monkeypatch.setattr(dealing, "deal_new", seeded_deal_new(20240615))
    shove = services.table_create(
        created_by=director,
        name="Shove",
        game="omaha",
        structure="no-limit",
        big_blind=2,
        min_buy_in=20,
        max_buy_in=60,
        seat_count=4,
    )
    online = services.table_create(
        created_by=director, name="Online", big_blind=2, all_in_on_disconnect=True, seat_count=6
    )
    for table, names in ((shove, "ann ben cal dee"), (online, "eve fay gus hal ivy")):
        for number, user in enumerate(make_players(*names.split()), start=1):
            services.seat_take(table.pk, user, number, table.max_buy_in, False)
    # A seed whose session has hands everyone folds before the flop: at this table only a
    # time-out folds the calling station, so they are rare.
    hands = play_session(shove, 45, seed=4, time_out=0.03)
    return hands + play_session(online, 35, seed=2, time_out=0.12)


def visible_to(records: list[Any], seat: int | None) -> set[str]:
    """The cards ``seat`` (None: a spectator) could see by the end of the hand."""
    seen: set[str] = set()
    for r in records:
        if isinstance(r, BoardDealt | Shown) or (isinstance(r, HoleDealt) and r.seat == seat):
            seen |= {cards_str((c,)) for c in r.cards}
    return seen


def viewers_of(hand: Hand) -> list[tuple[User | None, int | None]]:
    """A spectator (None, no seat), then every player of ``hand`` with their seat."""
    seats = dict(HandPlayer.objects.filter(hand=hand).values_list("user__username", "seat"))
    return [
        (None, None),
        *((User.objects.get(username=name), seat) for name, seat in seats.items()),
    ]


class Viewers:
    """A client per viewer, logged in once: the spectator's (nobody logged in) and each
    player's. A login is a dozen statements (the session, the last login, the login
    throttle's records), and the walks below ask for some 900 viewers' pages."""

    def __init__(self) -> None:
        self.clients: dict[int | None, Client] = {}

    def __call__(self, user: User | None) -> Client:
        key = None if user is None else user.pk
        client = self.clients.get(key)
        if client is None:
            client = self.clients[key] = Client()
            if user is not None:
                client.force_login(user)
        return client


CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")
EVERY_CARD = {cards_str((c,)) for c in range(52)}


def replay_in(page: str) -> dict[str, Any]:
    found = re.search(r'<script id="replay" type="application/json">(.*?)</script>', page, re.S)
    assert found, "the page embeds the replay"
    return json.loads(found.group(1))  # type: ignore[no-any-return]


@pytest.mark.long(30)
def test_every_page_of_a_long_session_shows_each_viewer_only_what_they_saw(
    session: list[Hand],
) -> None:
    """The session is played once (80 hands, a few seconds of CPU), and every check of it runs
    on it: the replays, a run-out street by street, then the other pages' probe."""
    viewers = Viewers()
    every_hand_replays_showing_only_what_each_viewer_saw(session, viewers)
    a_run_out_replays_street_by_street_with_the_chips_in_the_middle(session)
    no_page_shows_a_card_its_viewer_did_not_see(session, viewers)


def every_hand_replays_showing_only_what_each_viewer_saw(
    session: list[Hand], viewers: Viewers
) -> None:
    kinds = [[type(record_from_json(r)) for r in hand.records] for hand in session]
    # The session holds what broke the old replayer and the rest of a hand's endings.
    runouts = sum(1 for hand in session if hand.board_shown is not None)
    assert runouts >= 5, f"only {runouts} all-in run-outs"
    assert sum(AllInDeclared in k for k in kinds) >= 1
    assert sum(Mucked in k for k in kinds) >= 3
    assert sum(BoardDealt not in k for k in kinds) >= 3  # everyone folded before the flop

    for hand in session:
        records = [record_from_json(r) for r in hand.records]
        for user, seat in viewers_of(hand):
            response = viewers(user).get(reverse("tables:hand_detail", args=[hand.pk]))
            assert response.status_code == 200, (hand.number, response.status_code)
            replay = replay_in(response.content.decode())
            assert replay["seat"] == seat
            unseen = EVERY_CARD - visible_to(records, seat)
            steps = replay["steps"]
            assert steps[0]["kind"] == "deal" and steps[-1]["kind"] == "result"
            shown_so_far: set[int] = set()
            for step in steps:
                text = json.dumps(step)
                leaked = set(CARD.findall(text)) & unseen
                assert not leaked, (hand.number, seat, step["text"], leaked)
                view = step["view"]
                assert set(view) == {"table", "seats", "hand", "you"}
                assert set(view["hand"]) == SNAPSHOT_HAND_KEYS
                assert view["hand"]["reveal"] is None
                for entry in view["seats"]:
                    if entry["player"] is None:
                        assert entry["cards"] is None
                        continue
                    assert SNAPSHOT_SEAT_KEYS <= set(entry)
                    if entry["cards"] is not None and entry["seat"] != seat:
                        shown_so_far.add(entry["seat"])
            # Only hands shown at the table were ever face up, mucked ones never.
            shown = {r.seat for r in records if isinstance(r, Shown)}
            mucked = {r.seat for r in records if isinstance(r, Mucked)}
            assert shown_so_far <= shown and not (shown_so_far & mucked)
            # The board grows a street at a time, each with its line.
            boards = [len(step["view"]["hand"]["board"]) for step in steps]
            assert boards == sorted(boards) and boards[-1] == sum(
                len(r.cards) for r in records if isinstance(r, BoardDealt)
            )
            streets = [step["text"].split(":")[0] for step in steps if step["kind"] == "street"]
            dealt = [r.street.capitalize() for r in records if isinstance(r, BoardDealt)]
            assert streets == dealt, (hand.number, [s["text"] for s in steps], hand.records)
            assert steps[-1]["view"]["hand"]["results"] and "wins" in steps[-1]["text"]


def a_run_out_replays_street_by_street_with_the_chips_in_the_middle(session: list[Hand]) -> None:
    def preflop_all_in(hand: Hand) -> bool:
        kinds = [type(record_from_json(r)) for r in hand.records]
        return (
            BoardDealt in kinds and Shown in kinds and kinds.index(Shown) < kinds.index(BoardDealt)
        )

    hand = next(h for h in session if preflop_all_in(h))
    steps = hand_replay_steps(hand, None)["steps"]
    ends = [k for k, step in enumerate(steps) if step["kind"] == "street"]
    turned_up = steps[ends[0] - 1]
    assert turned_up["kind"] == "move" and turned_up["view"]["hand"]["equity"]
    for step in [turned_up, *(steps[k] for k in ends)]:
        hand_view = step["view"]["hand"]
        assert hand_view["results"] is None and hand_view["to_act"] is None
        assert abs(sum(hand_view["equity"].values()) - 1) < 1e-3
        in_hand = [s for s in step["view"]["seats"] if s["player"] and not s["folded"]]
        assert all(len(s["cards"]) == 4 for s in in_hand)
    assert [steps[k]["text"].split(":")[0] for k in ends] == ["Flop", "Turn", "River"]
    assert steps[-1]["kind"] == "result" and steps[-1]["view"]["hand"]["complete"]


def test_a_hand_in_play_has_no_replay_and_no_history_yet(director: User, player: User) -> None:
    table = services.table_create(created_by=director, name="Now", big_blind=2)
    services.seat_take(table.pk, director, 1, table.max_buy_in, False)
    services.seat_take(table.pk, player, 2, table.max_buy_in, False)
    table.refresh_from_db()
    assert services.table_tick(table.pk, now=table.next_hand_at)
    hand = Hand.objects.get(table=table)
    with pytest.raises(HandInPlay):
        hand_replay_steps(hand, player)
    client = Client()
    client.force_login(player)
    page = client.get(reverse("tables:hand_detail", args=[hand.pk]))
    assert page.status_code == 200
    assert "still being played" in page.content.decode()
    assert 'id="replay"' not in page.content.decode()
    phh = client.get(reverse("tables:hand_phh", args=[hand.pk]))
    assert phh.status_code == 404
    assert "still being played" in phh.content.decode()


def test_the_pages_load_the_javascript_catalog_before_their_modules(
    client: Client, director: User
) -> None:
    catalog = client.get(reverse("tables:jsi18n"))
    assert catalog.status_code == 200 and "gettext" in catalog.content.decode()
    table = services.table_create(created_by=director, name="Words", big_blind=2)
    page = client.get(reverse("tables:table", args=[table.pk])).content.decode()
    assert page.index(reverse("tables:jsi18n")) < page.index('type="module"')
    assert 'type="module" src="/static/tables/table.js"' in page


PHH_CARDS = re.compile(r'"(?:d dh p\d+|d db|p\d+ sm) ([2-9TJQKA?][cdhs?](?:[2-9TJQKA?][cdhs?])*)"')


def _cards(text: str) -> set[str]:
    return {text[k : k + 2] for k in range(0, len(text), 2)} - {"??"}


def seen_by(records: list[Any], seat: int | None) -> set[str]:
    seen: set[str] = set()
    for r in records:
        # Cards shown after the hand (CardsShown) are everyone's too.
        if isinstance(r, BoardDealt | Shown | CardsShown) or (
            isinstance(r, HoleDealt) and r.seat == seat
        ):
            seen |= {cards_str((c,)) for c in r.cards}
        elif isinstance(r, Burned):
            seen.add(cards_str((r.card,)))  # opened after the hand for the fairness check
    return seen


def snapshot_in(page: str) -> dict[str, Any]:
    found = re.search(r'<script id="snapshot" type="application/json">(.*?)</script>', page, re.S)
    assert found, "the table page embeds its snapshot"
    return json.loads(found.group(1))  # type: ignore[no-any-return]


def no_page_shows_a_card_its_viewer_did_not_see(session: list[Hand], viewers: Viewers) -> None:
    """No folded or mucked hand, no undealt card, and never the deck or its secret, for any
    viewer: the PHH download, the verify page and the hand list, as a spectator and as every
    player of each hand; and the table page after the last hand for a newcomer who took the
    seat of one of its players before the next deal."""
    assert len(session) >= 40
    checked = 0
    for hand in session:
        records = [record_from_json(r) for r in hand.records]
        for user, seat in viewers_of(hand):
            client = viewers(user)
            allowed = seen_by(records, seat)
            phh = client.get(reverse("tables:hand_phh", args=[hand.pk])).content.decode()
            for cards in PHH_CARDS.findall(phh):
                assert _cards(cards) <= allowed, (hand.number, seat, cards)
                checked += 1
            verify = client.get(reverse("tables:hand_verify", args=[hand.pk])).content.decode()
            assert hand.deck not in verify and hand.secret not in verify
            opened = hand_verification(hand, user)
            for opening in (opened["openings"] or []) + (opened["own_openings"] or []):
                assert opening["card"] in allowed, (hand.number, seat, opening)
            assert opened["hash_matches"] and opened["deal_matches"], hand.number
    assert checked > 500, checked  # the PHH lines were read, not skipped
    # The table page after the last hand, for every player of it, then for a newcomer who
    # took one of their seats before the next deal: the cards of their own hand only.
    table = session[-1].table
    last = [record_from_json(r) for r in session[-1].records]
    players = list(HandPlayer.objects.filter(hand=session[-1]).select_related("user"))
    at_the_table = [(p.user, p.seat) for p in players]
    at_the_table.append((make_players("newcomer")[0], None))
    # The one who leaves held cards the table never saw (folded or mucked).
    leaver = next(p for p in players if not seen_by(last, p.seat) <= seen_by(last, None))
    for user, seat in at_the_table:
        if seat is None:
            services.seat_leave(table.pk, leaver.user)
            services.seat_take(table.pk, user, leaver.seat, table.max_buy_in)
        page = viewers(user).get(reverse("tables:table", args=[table.pk])).content.decode()
        allowed = seen_by(last, seat)
        assert snapshot_cards(snapshot_in(page)) <= allowed, (user.username, seat)
        assert session[-1].deck not in page and session[-1].secret not in page


def snapshot_cards(snapshot: dict[str, Any]) -> set[str]:
    """Every card a snapshot holds in a seat or in its viewer's own parts."""
    found: set[str] = set()
    for entry in snapshot["seats"]:
        found |= set(entry.get("cards") or []) | set(entry.get("shown_after") or [])
    you = snapshot["you"]
    found |= {opening["card"] for opening in you.get("openings") or []}
    found |= set((you.get("can_show") or {}).get("cards") or [])
    return found
