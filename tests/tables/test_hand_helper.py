"""The hand helper: each player's best high and, in Hi/Lo, best low.

The engine finds the hands; the snapshot carries them as codes, only in the player's own
``you``: they are made of that player's hole cards, so no other socket may see them.
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User

from tables import services
from tables.engine.cards import RANKS, parse_cards
from tables.engine.evaluator import best_high, best_low, high_category, high_ranks, low_ranks
from tables.models import Hand, Seat, Table
from tables.runtime import snapshots
from tables.runtime.state import STATE
from tests.tables.conftest import deal

pytestmark = pytest.mark.django_db


def _to_flop(table: Table, now, capture) -> Hand:  # type: ignore[no-untyped-def]
    """Call and check until the flop is out."""
    for _ in range(20):
        hand = Hand.objects.filter(table=table).order_by("-number").first()
        snap = STATE.snapshot(table.pk, None)
        if len(snap["hand"]["board"]) >= 3:
            return hand
        actor = Seat.objects.get(table=table, number=hand.to_act).user
        legal = STATE.snapshot(table.pk, actor)["you"]["legal"]
        with capture(execute=True):
            services.table_act(
                table.pk,
                actor,
                legal["hand"],
                legal["version"],
                "call" if legal["call"] else "check",
                now=now,
            )
    raise AssertionError("the flop never came")


def _expected(seat: dict, board: list[str], hi_lo: bool) -> dict:
    hole, cards = parse_cards(seat["cards"]), parse_cards(board)
    value, _ = best_high(hole, cards)
    out: dict = {
        "high": {
            "code": snapshots.HIGH_CODES[high_category(value)],
            "ranks": [RANKS[r] for r in high_ranks(value)],
        }
    }
    if hi_lo:
        low = best_low(hole, cards)
        out["low"] = None if low is None else [RANKS[r] for r in low_ranks(low[0])]
    return out


@pytest.mark.parametrize("game", ["omaha-hi-lo", "omaha"])
def test_each_player_gets_their_own_best_hands_and_nobody_else_does(
    seated_table: Table, players: list[User], django_capture_on_commit_callbacks, game: str
) -> None:
    Table.objects.filter(pk=seated_table.pk).update(game=game)
    now = deal(seated_table)
    # Before the flop there is no helper: nothing but the hole cards to go on.
    for player in players:
        assert "helper" not in STATE.snapshot(seated_table.pk, player)["you"]

    _to_flop(seated_table, now, django_capture_on_commit_callbacks)
    stranger = User.objects.create_user("rail", password="x")
    for viewer in (stranger, None):
        assert "helper" not in STATE.snapshot(seated_table.pk, viewer)["you"]
    seated_table.refresh_from_db()
    key = (seated_table.pk, seated_table.created_at, seated_table.version)
    for player in players:
        snap = STATE.snapshot(seated_table.pk, player)
        mine = next(s for s in snap["seats"] if s["seat"] == snap["you"]["seat"])
        assert snap["you"]["helper"] == _expected(
            mine, snap["hand"]["board"], game == "omaha-hi-lo"
        )
        # In every other viewer's text there is no helper but their own.
        for other in [p for p in players if p != player] + [stranger, None]:
            text = STATE.snapshot_text_if_cached(*key, other)
            assert text is not None
            other_you = json.loads(text)["you"]
            assert text.count('"helper"') == (1 if other in players else 0)
            assert other_you.get("seat") != mine["seat"]
    # The parts every socket shares (what the broadcast carries beside each player's own
    # "you") hold no helper at all.
    wire = STATE.wire_if_cached(*key)
    assert wire is not None
    shared = [wire["head"], wire["middle"], *wire["seats"], wire["tail"], wire["end"]]
    assert not any('"helper"' in part for part in [*shared, wire["spectator"]])
    assert all(('"helper"' in entry[2]) for entry in wire["you"].values() if entry[1] is not None)


def test_a_folded_player_gets_no_helper(
    seated_table: Table, players: list[User], django_capture_on_commit_callbacks
) -> None:
    now = deal(seated_table)
    hand = Hand.objects.filter(table=seated_table).get()
    folder = Seat.objects.get(table=seated_table, number=hand.to_act).user
    legal = STATE.snapshot(seated_table.pk, folder)["you"]["legal"]
    with django_capture_on_commit_callbacks(execute=True):
        services.table_act(
            seated_table.pk, folder, legal["hand"], legal["version"], "fold", now=now
        )
    _to_flop(seated_table, now, django_capture_on_commit_callbacks)
    assert "helper" not in STATE.snapshot(seated_table.pk, folder)["you"]
    others = [p for p in players if p != folder]
    assert all("helper" in STATE.snapshot(seated_table.pk, p)["you"] for p in others)


def _helper_paths(value: object, path: str = "") -> list[str]:
    """Where a frame holds a "helper" key."""
    out: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "helper":
                out.append(f"{path}.{key}")
            out += _helper_paths(item, f"{path}.{key}")
    elif isinstance(value, list):
        for k, item in enumerate(value):
            out += _helper_paths(item, f"{path}[{k}]")
    return out


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_over_the_sockets_each_helper_reaches_only_its_player(
    seated_table: Table, players: list[User]
) -> None:
    """Five whole hands through the real sockets: every frame any socket gets holds a helper
    only in its own ``you``, made of that viewer's own cards, and the spectator gets none."""
    from tests.tables.test_consumers import open_socket, play_hands

    viewers = [await open_socket(seated_table, p, p.username) for p in players]
    spectator = await open_socket(seated_table, None, "spectator")
    await play_hands(seated_table, viewers, [*viewers, spectator], hands=5)

    assert not any(_helper_paths(frame) for frame in spectator.frames)
    seen = 0
    for viewer in viewers:
        for frame in viewer.frames:
            paths = _helper_paths(frame)
            assert paths in ([], [".you.helper"]), (viewer.name, paths)
            if not paths:
                continue
            mine = next(s for s in frame["seats"] if s["seat"] == frame["you"]["seat"])
            assert frame["you"]["helper"] == _expected(mine, frame["hand"]["board"], True)
            seen += 1
    assert seen > 5
    for v in [*viewers, spectator]:
        await v.ws.disconnect()
