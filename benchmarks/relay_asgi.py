"""A bare Channels relay: the live tables' yardstick, with no database and no engine.

``benchmarks/tables_load.py --baseline`` serves this next to the real site, in the same way
(embedded: one daphne on the site's in-memory layer; distributed: two daphnes on the site's
channels-redis pub/sub layer, read from ``config.settings``), and drives it with the same bot
clients, so the real tables' latency can be read as a multiple of what Channels itself costs
on this machine at that minute.

A socket is one seat: ``/ws/relay/<run>/<table>/<seat>/`` (seats 1 to 6). Each socket gets
snapshot frames built from a real snapshot recorded by the load test (the file named by
``RELAY_SNAPSHOT``), so the frames have the real size and shape. On every ``act`` frame from
seat k the socket's consumer makes the next version, derived from the frame alone (version
+ 1, same hand id, seat k's neighbour to act), and does one ``group_send`` to the table's
six sockets, as the site does after a move: with the snapshot's parts in the message when
the layer reaches other processes, and a bare "changed" otherwise, the parts then staying in
this process (as the site's cache of built versions). Each socket joins the parts into its
own text, marking ``you.legal`` only on the seat to act.

The relay keeps no table state but the newest parts it has seen per table in this process,
so that a socket connecting late starts from the table's current turn.
"""

from __future__ import annotations

import gc
import json
import os
import random
import time
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.layers import InMemoryChannelLayer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import path  # noqa: E402

SEATS = 6
RANKS = "23456789TJQKA"
SUITS = "cdhs"


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class Template:
    """The parts of a recorded snapshot that do not change from one relayed move to the next.

    The recording is the view of the seat to act (its own cards and ``you.legal`` filled).
    Every seat gets its own four cards here (the recorded seat keeps its own), so the bots'
    ``decide`` works on every seat as it does at the real table.
    """

    def __init__(self, snapshot: dict[str, Any]) -> None:
        you = snapshot["you"]
        self.legal: dict[str, Any] = dict(you["legal"])
        self.muck_losing = you.get("muck_losing")
        self.hand: dict[str, Any] = dict(snapshot["hand"])
        self.middle = f',"table":{_json(snapshot["table"])},"seats":'
        self.recent = snapshot.get("recent_hands", [])
        self.chat = snapshot.get("chat", [])
        self.end = f',"recent_hands":{_json(self.recent)},"chat":{_json(self.chat)}}}'
        entries = [dict(e) for e in snapshot["seats"]][:SEATS]
        while len(entries) < SEATS:
            entries.append(dict(entries[-1], seat=len(entries) + 1))
        board = set(self.hand.get("board") or [])
        taken = board | {c for e in entries for c in e.get("cards") or []}
        deck = [r + s for r in RANKS for s in SUITS if r + s not in taken]
        random.Random(len(deck)).shuffle(deck)
        self.seat_texts: list[str] = []
        self.own_texts: list[str] = []
        for index, entry in enumerate(entries):
            entry["seat"] = index + 1
            cards = entry.pop("cards", None) or [deck.pop() for _ in range(4)]
            entry["card_count"] = 4
            self.seat_texts.append(_json(entry))
            self.own_texts.append(_json({**entry, "cards": cards}))
        self.spectator = _json({"seat": None, "legal": None, "muck_losing": None, "owes": None})

    def wire(self, hand_id: int, version: int, to_act: int) -> dict[str, Any]:
        """Every socket's parts for this version, as the site's ``selectors._wire`` has them."""
        legal = _json({**self.legal, "hand": hand_id, "version": version})
        you = {}
        for index in range(SEATS):
            seat = index + 1
            mine = legal if seat == to_act else "null"
            you[str(seat)] = [
                index,
                self.own_texts[index],
                f'{{"seat":{seat},"legal":{mine},"muck_losing":{_json(self.muck_losing)},'
                '"owes":null}',
            ]
        return {
            "version": version,
            "hand": hand_id,
            "head": f'{{"type":"snapshot","version":{version},"now":',
            "middle": self.middle,
            "seats": self.seat_texts,
            "tail": f',"hand":{_json({**self.hand, "id": hand_id, "to_act": to_act})},"you":',
            "end": self.end,
            "recent": self.recent,
            "chat": self.chat,
            "you": you,
            "spectator": self.spectator,
        }


_TEMPLATE: tuple[tuple[int, int], Template] | None = None


def template() -> Template:
    """The recorded snapshot, read again when the load test records a newer one."""
    global _TEMPLATE
    name = os.environ["RELAY_SNAPSHOT"]
    stat = os.stat(name)
    key = (stat.st_mtime_ns, stat.st_size)
    if _TEMPLATE is None or _TEMPLATE[0] != key:
        with open(name, encoding="utf-8") as f:
            _TEMPLATE = (key, Template(json.loads(f.read())))
    return _TEMPLATE[1]


def text_for_seat(wire: dict[str, Any], seat: int) -> str:
    """One socket's snapshot text from the parts: as ``selectors.snapshot_text_from_wire``."""
    index, own, you_text = wire["you"][str(seat)]
    seat_texts = wire["seats"]
    seat_texts = [*seat_texts[:index], own, *seat_texts[index + 1 :]]
    return "".join(
        (
            wire["head"],
            str(int(time.time() * 1000)),
            wire["middle"],
            "[",
            ",".join(seat_texts),
            "]",
            wire["tail"],
            you_text,
            wire["end"],
        )
    )


# Per group, the newest parts this process has seen (built or heard).
_NEWEST: dict[str, dict[str, Any]] = {}


def _remember(group: str, wire: dict[str, Any]) -> dict[str, Any]:
    known = _NEWEST.get(group)
    if known is None or known["version"] < wire["version"]:
        _NEWEST[group] = wire
        return wire
    return known


class RelayConsumer(AsyncWebsocketConsumer):
    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its database clean-up hop, as the site's consumer does.

        The stock dispatch closes stale database connections through the thread-sensitive
        executor before every handler; the site's ``TableConsumer`` skips that hop, so the
        relay, which touches no database, must too, or the yardstick would carry a cost the
        site does not. The handler is named by Channels' documented rule: the message type
        with "." replaced by "_".
        """
        handler = getattr(self, message["type"].replace(".", "_"), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        self.seat = int(kwargs["seat"])
        self.table_id = int(kwargs["table"])
        if not 1 <= self.seat <= SEATS:
            await self.close()
            return
        self.group = f"relay-{kwargs['run']}-{self.table_id}"
        self.carry = not isinstance(self.channel_layer, InMemoryChannelLayer)
        self.sent_version = 0
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)
        wire = _NEWEST.get(self.group) or template().wire(self.table_id, 1, 1)
        await self._send_wire(wire)

    async def disconnect(self, code: int) -> None:
        group = getattr(self, "group", None)
        if group is not None:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            frame = json.loads(text_data if text_data is not None else bytes_data or b"")
        except (ValueError, UnicodeDecodeError):
            return
        if not isinstance(frame, dict) or frame.get("type") != "act":
            return
        hand, version = frame.get("hand"), frame.get("version")
        if type(hand) is not int or type(version) is not int:
            return
        wire = template().wire(hand, version + 1, self.seat % SEATS + 1)
        if self.carry:
            message = {"type": "relay.changed", "version": wire["version"], "wire": wire}
        else:
            _remember(self.group, wire)
            message = {"type": "relay.changed", "version": wire["version"]}
        await self.channel_layer.group_send(self.group, message)

    async def relay_changed(self, event: dict[str, Any]) -> None:
        if event["version"] <= self.sent_version:
            return
        wire = event.get("wire")
        wire = _remember(self.group, wire) if wire is not None else _NEWEST[self.group]
        await self._send_wire(wire)

    async def _send_wire(self, wire: dict[str, Any]) -> None:
        if wire["version"] <= self.sent_version:
            return
        self.sent_version = wire["version"]
        await self.send(text_data=text_for_seat(wire, self.seat))


# Served as the site is (config.asgi): the origin check, and the collector kept off what
# start-up loaded.
gc.collect()
gc.freeze()
gc.set_threshold(50_000, 20, 100)

application = ProtocolTypeRouter(
    {
        "websocket": AllowedHostsOriginValidator(
            URLRouter(
                [
                    path(
                        "ws/relay/<slug:run>/<int:table>/<int:seat>/",
                        RelayConsumer.as_asgi(),
                    )
                ]
            )
        ),
    }
)
