"""A probe of every page a finished hand appears on: no folded or
mucked hand, no undealt card, and never the deck or its secret, for any viewer.

Over the long seeded session of tests/tables/test_replay.py (folds, mucks, all-in run-outs,
time-outs): the PHH download, the verify page, the table page's snapshot and the hand list,
as a spectator and as every player of each hand; and the table page after the last hand
for a newcomer who took the seat of one of its players before the next deal.
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
    BoardDealt,
    Burned,
    CardsShown,
    HoleDealt,
    Shown,
    record_from_json,
)
from tables.models import Hand, HandPlayer
from tables.selectors import hand_verification
from tests.tables.conftest import make_players
from tests.tables.test_replay import session  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db

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


@pytest.mark.long
def test_no_page_shows_a_card_its_viewer_did_not_see(
    session: list[Hand],  # noqa: F811
    client: Client,
) -> None:
    assert len(session) >= 40
    checked = 0
    for hand in session:
        records = [record_from_json(r) for r in hand.records]
        seats = dict(HandPlayer.objects.filter(hand=hand).values_list("user__username", "seat"))
        viewers: list[tuple[User | None, int | None]] = [(None, None)]
        viewers += [(User.objects.get(username=name), seat) for name, seat in seats.items()]
        for user, seat in viewers:
            if user is None:
                client.logout()
            else:
                client.force_login(user)
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
    viewers = [(p.user, p.seat) for p in players]
    viewers.append((make_players("newcomer")[0], None))
    # The one who leaves held cards the table never saw (folded or mucked).
    leaver = next(p for p in players if not seen_by(last, p.seat) <= seen_by(last, None))
    for user, seat in viewers:
        if seat is None:
            services.seat_leave(table.pk, leaver.user)
            services.seat_take(table.pk, user, leaver.seat, table.max_buy_in)
        client.force_login(user)
        page = client.get(reverse("tables:table", args=[table.pk])).content.decode()
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
