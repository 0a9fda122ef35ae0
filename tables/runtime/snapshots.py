"""The live read model: each viewer's snapshot of a table, built once per version.

A snapshot is the per-viewer picture of docs/protocol.md. What cards a viewer may see comes
from the engine's ``Hand.view(seat)``, never from here: this module only arranges what the
engine shows that seat, to the player dealt into it in that hand, who may not be the one
sitting there now (``_held_seats``). ``Snapshots`` keeps the built versions; the table state
(``tables.runtime.state``) owns the one of this process, files each new version in it right
after its commit and reads it for the sockets; across processes the broadcast carries its
parts (``Snapshots.wire_if_cached``, ``snapshot_text_from_wire``).

Page reads (histories, replays, verification) are in ``tables.selectors``.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from tables import fairness
from tables.botbrain import bets_this_round
from tables.engine.cards import RANKS, Card, card_str
from tables.engine.config import Game, Straddle
from tables.engine.equity import PotShares, expected_shares, runout_pots
from tables.engine.evaluator import high_category, high_low_values, high_ranks, low_ranks
from tables.engine.preactions import BETTING_STREETS, pre_action_kinds
from tables.engine.records import BoardDealt
from tables.engine.state import Hand as EngineHand
from tables.i18n import HIGH_CODES, hand_shape
from tables.models import Hand, HandPlayer, Seat, SeatState, Table, bomb_pot_voters
from tables.runtime import rows
from tables.runtime.engines import Engines
from tables.timing import COUNTDOWN_AFTER_SECONDS

_Equities = tuple[dict[str, float] | None, list[dict[str, Any]] | None]

# The table page recalls the last 10 hands (their summaries link to the replayer).
RECENT_HANDS = 10
CHAT_LINES = 20


def _ms(value: Any) -> int | None:
    return None if value is None else int(value.timestamp() * 1000)


def _player(seat: Seat) -> dict[str, Any] | None:
    if seat.user is None:
        return None
    name = seat.user.first_name if seat.is_bot and seat.user.first_name else seat.user.username
    return {"id": seat.user_id, "name": name}


def _legal(engine: EngineHand, hand: Hand, version: int) -> dict[str, Any]:
    legal = engine.legal_actions()
    names = {str(a) for a in legal.actions}
    bet_or_raise = None if legal.bet_or_raise is None else str(legal.bet_or_raise)
    span = {"min": legal.min_to, "max": legal.max_to}
    return {
        "hand": hand.pk,
        "version": version,
        "fold": "fold" in names,
        "check": "check" in names,
        "call": legal.call if "call" in names else None,
        "call_all_in": legal.call_all_in,
        "bet": span if bet_or_raise == "bet" else None,
        "raise": span if bet_or_raise == "raise" else None,
        "show": "show" in names,
        "muck": "muck" in names,
        # The house bots stop raising on it (tables/botbrain.py).
        "bets": bets_this_round(engine.records),
    }


@dataclass
class _TableState:
    """Everything but the viewer: built once per table version and shared by its sockets."""

    table: Table
    seats: list[Seat]
    hand: Hand | None
    engine: EngineHand | None
    # As JSON text: passed on unchanged from version to version (and in the broadcast) until
    # a hand ends or a chat line comes, so a version costs no objects for them.
    recent: str
    chat: str
    # The seats whose player now is the one dealt into them in ``hand`` (``_held_seats``):
    # only they are shown that seat's cards of the hand and what is made of them.
    held: frozenset[int] = frozenset()
    equity: dict[str, float] | None = None
    pot_equity: list[dict[str, Any]] | None = None
    shared: _Shared | None = None
    wire: dict[str, Any] | None = None


@dataclass(frozen=True)
class _Filed:
    """A built version as the cache keeps it: its snapshot texts (``_wire``), nothing else.

    The rows, the engine and the shared dicts a state is built from are dropped once its
    texts exist. A process keeps a few versions of every table, and every object kept is
    one more for the garbage collector to scan: the full states (over a hundred objects
    each) made collections of 40-60 ms, a stall of every table in the process.
    """

    version: int
    wire: dict[str, Any]

    @property
    def recent(self) -> str:
        return self.wire["recent"]  # type: ignore[no-any-return]

    @property
    def chat(self) -> str:
        return self.wire["chat"]  # type: ignore[no-any-return]


class _StateCache:
    """Built versions by (table id, created_at, version): the newest few per table.

    Only the current version and the one before are asked for (a socket behind reads the
    table afresh), so a table keeps VERSIONS; the cache is then bounded by the tables in
    play, not by the moves of the last seconds. That matters beyond memory: every entry kept
    is young objects for the garbage collector to scan, and a cache of the last thousand
    versions made its collections pauses of 50-90 ms on every table of the process.
    """

    VERSIONS = 3
    TABLES = 4096

    def __init__(self) -> None:
        self._tables: OrderedDict[int, OrderedDict[tuple[Any, int], _Filed]] = OrderedDict()

    def get(self, key: tuple[int, Any, int]) -> _Filed | None:
        versions = self._tables.get(key[0])
        return None if versions is None else versions.get(key[1:])

    def __setitem__(self, key: tuple[int, Any, int], state: _Filed) -> None:
        versions = self._tables.get(key[0])
        if versions is None:
            versions = self._tables[key[0]] = OrderedDict()
        self._tables.move_to_end(key[0])
        versions[key[1:]] = state
        versions.move_to_end(key[1:])
        while len(versions) > self.VERSIONS:
            versions.popitem(last=False)
        while len(self._tables) > self.TABLES:
            self._tables.popitem(last=False)

    def clear(self) -> None:
        self._tables.clear()


class _Memo:
    """What a snapshot is made of that never changes once computed, kept per hand: who was
    dealt into its seats, each seat's hand helper per board length, a run-out's equity per
    street. Keyed by the hand's id and commitment, so a hand dealt again under the same id
    (a rollback in tests, a database restored) is never mistaken for the first."""

    def __init__(self) -> None:
        # Per table, the newest hand a state was built for here, (id, commitment), and who
        # was dealt into its seats ({seat: user id}): that never changes once it is dealt.
        self.dealt: dict[int, tuple[tuple[int, str], dict[int, int]]] = {}
        self.helpers: dict[tuple[int, str, int, int], dict[str, Any]] = {}
        # Per (hand, commitment, board cards): each seat's share of every chip in the pots,
        # and each pot's amount and shares, as the snapshot carries them; None: no run-out.
        self.equities: dict[tuple[int, str, int | None], _Equities] = {}

    def clear(self) -> None:
        self.dealt.clear()
        self.helpers.clear()
        self.equities.clear()


@dataclass(frozen=True)
class Built:
    """A move's new state, built before its write is known to have gone through
    (``Snapshots.built``): filed only once it has (``Snapshots.file``)."""

    key: tuple[int, Any, int]
    filed: _Filed


class Snapshots:
    """The tables' states this process has built, per version, and what other processes'
    broadcasts told it (the recent hands and chat of their newest version).

    One per process, owned by the table state (``tables.runtime.state``), which files a state
    once its change is written and reads them for the sockets.
    """

    def __init__(self, engines: Engines) -> None:
        self._engines = engines
        self._cache = _StateCache()
        # Per table, the newest version another process built, as its broadcast told this
        # one: (table id, created_at, version) and that version's recent hands and chat.
        self._tails: dict[int, tuple[tuple[int, Any, int], tuple[str, str]]] = {}
        self._memo = _Memo()
        self._lock = threading.Lock()

    def forget(self) -> None:
        """Drop every table state, tail and per-hand memo (after the database restarted)."""
        with self._lock:
            self._cache.clear()
            self._tails.clear()
            self._memo.clear()

    def current(self, table_id: int) -> _Filed:
        """The table at its current version: one query when another socket already built it.

        The version is read first and the rest after, so the rows are at least that new; the
        state is filed under the version read with the table row itself.
        """
        row = Table.objects.filter(pk=table_id).values_list("version", "created_at").first()
        if row is None:
            raise Table.DoesNotExist(f"there is no table {table_id}")
        version, created_at = row
        # created_at tells apart two tables that got the same id (after a rollback in tests).
        with self._lock:
            cached = self._cache.get((table_id, created_at, version))
        if cached is not None:
            return cached
        table = Table.objects.get(pk=table_id)
        seats = list(Seat.objects.filter(table_id=table_id).select_related("user"))
        hand = Hand.objects.filter(table_id=table_id).order_by("-number").first()
        engine = self._engines.of(hand) if hand is not None else None
        held = _held_seats(self._memo, hand, engine, seats, may_read=True)
        return self._store(
            _TableState(table, seats, hand, engine, _recent(table_id), _chat(table_id), held)
        )

    def _store(self, state: _TableState) -> _Filed:
        filed = _filed(state, self._memo)
        table = state.table
        with self._lock:
            self._cache[(table.pk, table.created_at, table.version)] = filed
        return filed

    def built(self, table: Table, hand: Hand, engine: EngineHand, seats: list[Seat]) -> Built:
        """``after_move``'s state, built and not filed: for a move made on an event loop,
        which builds it while PostgreSQL writes the move (``tail_known`` must have said it
        needs no query)."""
        state = self._state_after_move(table, hand, engine, seats, on_loop=True)
        return Built((table.pk, table.created_at, table.version), _filed(state, self._memo))

    def file(self, built: Built) -> None:
        """File a state ``built`` made, now that its move is written."""
        with self._lock:
            self._cache[built.key] = built.filed

    def after_move(self, table: Table, hand: Hand, engine: EngineHand, seats: list[Seat]) -> None:
        """File the state a move just committed, from the rows it wrote, without reading back.

        The objects are the writer's, never changed after its commit. The recent hands and
        chat come from the version before when this process has it (its own state, or the
        parts a broadcast from another process carried) and no hand ended since (a chat line
        bumps the version and is read back in full); otherwise they are read. A move that
        ends the hand puts it at the head of the recent hands.
        """
        self._store(self._state_after_move(table, hand, engine, seats))

    def _state_after_move(
        self,
        table: Table,
        hand: Hand,
        engine: EngineHand,
        seats: list[Seat],
        *,
        on_loop: bool = False,
    ) -> _TableState:
        key = (table.pk, table.created_at, table.version - 1)
        with self._lock:
            before = self._cache.get(key)
            heard = self._tails.get(table.pk)
        if before is not None:
            tail = (before.recent, before.chat)
        elif heard is not None and heard[0] == key:
            tail = heard[1]
        else:
            tail = None
        if tail is None:
            recent = _recent(table.pk)
        elif hand.ended_at is None:
            recent = tail[0]
        else:
            hands = json.loads(tail[0])
            if hands and hands[0]["id"] == hand.pk:
                recent = tail[0]  # the version before already had this hand ended (a chat line)
            else:
                # This move ended the hand: it heads the recent hands (hands end in order).
                recent = _json([_recent_hand(hand), *hands[: RECENT_HANDS - 1]])
        chat = tail[1] if tail is not None else _chat(table.pk)
        held = _held_seats(self._memo, hand, engine, seats, may_read=not on_loop)
        return _TableState(
            table, sorted(seats, key=lambda s: s.number), hand, engine, recent, chat, held
        )

    def tail_known(self, table: Table) -> bool:
        """Whether ``after_move`` can file the move about to be made on ``table`` (its row as
        read, before the move's version bump) without a query: this process has the recent
        hands and chat of that version, built here or carried by a broadcast."""
        key = (table.pk, table.created_at, table.version)
        with self._lock:
            heard = self._tails.get(table.pk)
            return self._cache.get(key) is not None or (heard is not None and heard[0] == key)

    def heard(self, table_id: int, created_at: Any, version: int, wire: dict[str, Any]) -> bool:
        """Keep the recent hands and chat a broadcast carried; whether it was news (a newer
        version than this process had heard of)."""
        key = (table_id, created_at, version)
        with self._lock:
            known = self._tails.get(table_id)
            fresh = known is None or known[0][1] != created_at or known[0][2] < version
            if fresh:
                self._tails[table_id] = (key, (wire["recent"], wire["chat"]))
        return fresh

    def text(self, table_id: int, user: Any) -> tuple[int, str]:
        """The snapshot JSON text a socket sends ``user``, with its version."""
        filed = self.current(table_id)
        return filed.version, snapshot_text_from_wire(filed.wire, user)

    def text_if_cached(self, table_id: int, created_at: Any, version: int, user: Any) -> str | None:
        """The snapshot text of that version if this process has built it, without a query.

        Pure Python, so a consumer may call it on the event loop: after a move, the process
        that made it has built the new state, and its sockets skip the database entirely.
        """
        wire = self.wire_if_cached(table_id, created_at, version)
        return None if wire is None else snapshot_text_from_wire(wire, user)

    def wire_if_cached(self, table_id: int, created_at: Any, version: int) -> dict[str, Any] | None:
        """The parts every viewer's snapshot text of that version is made of (``_wire``)."""
        with self._lock:
            filed = self._cache.get((table_id, created_at, version))
        return None if filed is None else filed.wire

    def warm(self, table_id: int) -> None:
        """Build the current state now (right after a commit), for the sockets about to ask."""
        try:
            self.current(table_id)
        except Table.DoesNotExist:
            pass


def _recent(table_id: int) -> str:
    return _json([_recent_hand(h) for h in rows.recent_hands(table_id, RECENT_HANDS)])


def _recent_hand(hand: Hand) -> dict[str, Any]:
    """A finished hand in the "last hands" list: who won what as data (``awards``), which
    the page words in its reader's language. A hand stored before awards were kept has
    only its English ``summary``."""
    entry: dict[str, Any] = {"id": hand.pk, "number": hand.number, "awards": hand.awards}
    if not hand.awards:
        entry["summary"] = hand.summary
    return entry


def _chat(table_id: int) -> str:
    return _json(
        [
            {"name": name, "text": text, "at": _ms(at)}
            for name, text, at in reversed(rows.chat_lines(table_id, CHAT_LINES))
        ]
    )


def _filed(state: _TableState, memo: _Memo) -> _Filed:
    hand = state.hand
    if (
        hand is not None
        and state.engine is not None
        and (
            hand.is_complete
            or hand.board_shown is not None
            or state.engine.run_twice_vote is not None
        )
    ):
        # Computed here, in a worker thread, not on the sockets' event loop.
        # A finished hand shows the equity of the moment the hands were turned up, and so
        # does a hand whose players are asked to run it twice (no card is out yet).
        board_cards = state.engine.runout_from if hand.is_complete else hand.board_shown
        state.equity, state.pot_equity = _runout_equity(memo, hand, state.engine, board_cards)
    return _Filed(state.table.version, _wire(state, memo))


def _held_seats(
    memo: _Memo, hand: Hand | None, engine: EngineHand | None, seats: list[Seat], *, may_read: bool
) -> frozenset[int]:
    """The seats whose player now is the player dealt into them in ``hand``.

    A seat's cards of a hand, their openings, the helper made of them and the offer to show
    them are its dealt player's (``HandPlayer``), not whoever sits there now: between two
    hands a player may leave and another take the seat before the next deal.

    No query while a hand is played: its players keep their seats until it ends (a seat is
    taken only when empty; leaving, a host's removal and a tournament's move wait for the
    hand's end), so its dealt seats' players are its dealt players. That holds too for a
    move on an event loop (``may_read`` False), always a move of a hand in play, even one
    that ends it. After the hand, a process that did not see it played here reads who was
    dealt in, once per hand; the snapshots themselves never ask.
    """
    if hand is None or engine is None:
        return frozenset()
    key = (hand.pk, hand.commitment)
    known = memo.dealt.get(hand.table_id)
    if known is not None and known[0] == key:
        dealt = known[1]
    else:
        if hand.is_complete and may_read:
            dealt = dict(HandPlayer.objects.filter(hand_id=hand.pk).values_list("seat", "user_id"))
        else:
            numbers = set(engine.seats)
            dealt = {
                s.number: s.user_id for s in seats if s.number in numbers and s.user_id is not None
            }
        if len(memo.dealt) > _StateCache.TABLES:
            memo.dealt.clear()
        memo.dealt[hand.table_id] = (key, dealt)
    return frozenset(
        s.number for s in seats if s.user_id is not None and dealt.get(s.number) == s.user_id
    )


@dataclass
class _Shared:
    """The snapshot as a spectator sees it, built once per table version for every socket.

    A seated player's snapshot differs only in their own seat's cards, the legal actions
    when it is their turn, and ``you``; the rest is also kept as JSON text, so a move costs
    one encoding of the shared part instead of one per socket.
    """

    hand: dict[str, Any] | None
    legal: dict[str, Any] | None
    head: str
    middle: str
    tail: str
    end: str
    seat_texts: list[str]
    own_seat_texts: dict[int, str]
    # After the hand, each dealt seat's openings of its own hole cards (fairness).
    own_openings: dict[int, list[dict[str, Any]]] | None = None
    # From the flop on, each seat still in the hand: its best hands so far (the hand helper).
    own_helpers: dict[int, dict[str, Any]] | None = None
    # After the hand, until the next: each dealt seat's cards still face down, which its
    # player may show (docs/rules.md, Home-game options: "Showing after the hand").
    own_showable: dict[int, list[str]] | None = None
    # Each seat in the betting whose turn it is not: the pre-actions it may choose now.
    own_pre_actions: dict[int, dict[str, Any]] | None = None
    # The table has a time bank: each player's ``you`` says what is left of theirs.
    time_bank: bool = False


def _shared(state: _TableState, memo: _Memo) -> _Shared:
    found = state.shared
    if found is None:
        found = state.shared = _build_shared(state, memo)
    return found


def _build_shared(state: _TableState, memo: _Memo) -> _Shared:
    table, hand, engine = state.table, state.hand, state.engine
    running_out = hand is not None and not hand.is_complete and hand.board_shown is not None
    view = _shared_view(hand, engine, running_out)
    seats_out, own_cards, helpers = _shared_seats(state, memo, view)
    hand_out = _shared_hand(state, view, running_out)
    legal = (
        _legal(engine, hand, table.version)  # type: ignore[arg-type]
        if hand_out is not None
        and not hand_out["complete"]
        and not running_out
        and engine.to_act is not None  # type: ignore[union-attr]
        else None
    )
    pre_actions = (
        _pre_action_offers(hand, engine)
        if hand is not None and engine is not None and not hand.is_complete and not running_out
        else None
    )
    table_out = _shared_table(table, state.seats)
    return _Shared(
        hand=hand_out,
        legal=legal,
        head=f'{{"type":"snapshot","version":{table.version},"now":',
        middle=f',"table":{_json(table_out)},"seats":',
        tail=f',"hand":{_json(hand_out)},"you":',
        end=f',"recent_hands":{state.recent},"chat":{state.chat}}}',
        seat_texts=[_json(entry) for entry in seats_out],
        own_openings=_own_openings(state),
        own_helpers=helpers,
        own_showable=_showable(hand, engine, view, state.held),
        own_pre_actions=pre_actions,
        time_bank=bool(table.time_bank_cap_seconds),
        own_seat_texts={
            entry["seat"]: _json({**entry, "cards": own_cards[entry["seat"]]})
            for entry in seats_out
            if entry["seat"] in own_cards
        },
    )


def _shared_view(
    hand: Hand | None, engine: EngineHand | None, running_out: bool
) -> dict[str, Any] | None:
    """The engine's view of the hand for a spectator (``Hand.view(None)``); None: no hand."""
    if engine is None:
        return None
    if running_out:
        # An all-in run-out, dealt to the table street by street.
        return engine.runout_view(None, hand.board_shown)  # type: ignore[union-attr,arg-type]
    return engine.view(None)


def _shared_seats(
    state: _TableState, memo: _Memo, view: dict[str, Any] | None
) -> tuple[list[dict[str, Any]], dict[int, list[str]], dict[int, dict[str, Any]]]:
    """Each seat as a spectator sees it; each dealt seat's hole cards, for its own snapshot
    only; and, from the flop on, each seat still in the hand: its hand helper."""
    hand, engine = state.hand, state.engine
    seen = {s["seat"]: s for s in view["seats"]} if view else {}
    seats_out = []
    own_cards: dict[int, list[str]] = {}
    helpers: dict[int, dict[str, Any]] = {}
    board_seen = len(view["board"]) if view else 0
    for seat in state.seats:
        if seat.user is None:
            seats_out.append({"seat": seat.number, "player": None, "state": SeatState.EMPTY.value})
            continue
        entry = _seat_entry(seat)
        # The hand's part of a seat is its dealt player's: none for a player who took the
        # seat after that hand (``_held_seats``).
        dealt = seen.get(seat.number) if seat.number in state.held else None
        if dealt is not None:
            if not hand.is_complete:  # type: ignore[union-attr]
                entry["stack"] = dealt["stack"]
                entry["bet"] = dealt["bet"]
                entry["state"] = SeatState.PLAYING.value
            entry["folded"] = dealt["status"] == "folded"
            entry["all_in"] = dealt["status"] == "all-in"
            entry["card_count"] = 4 if dealt["status"] in ("active", "all-in") else 0
            if entry["card_count"] and board_seen >= 3:
                helpers[seat.number] = _helper(memo, hand, engine, seat.number, board_seen)  # type: ignore[arg-type]
            if dealt["shown_after"]:
                # Cards its player showed after the hand (the engine's Hand.show): public.
                entry["shown_after"] = dealt["shown_after"]
            if dealt["cards"] is not None:
                # The spectator's view holds only the hands shown at the table.
                entry["cards"] = dealt["cards"]
            else:
                # Only for this seat's own snapshot (the engine's hole cards of the seat).
                own_cards[seat.number] = [card_str(c) for c in engine.hole_cards(seat.number)]  # type: ignore[union-attr]
        seats_out.append(entry)
    return seats_out, own_cards, helpers


def _seat_entry(seat: Seat) -> dict[str, Any]:
    """A taken seat as it stands between hands (its part of a hand in play comes after)."""
    entry: dict[str, Any] = {
        "seat": seat.number,
        "player": _player(seat),
        "bot": seat.is_bot,
        "connected": seat.connected,
        "stack": seat.stack,
        "state": seat.state,
        "bet": 0,
        "folded": False,
        "all_in": False,
        "card_count": 0,
    }
    if seat.state == SeatState.SITTING_OUT and seat.sat_out_reason:
        entry["sat_out_reason"] = seat.sat_out_reason
    if seat.adding:
        entry["adding"] = seat.adding  # chips bought for the next hand
    if seat.removing:
        entry["removing"] = True  # the host removes this player after the hand
    return entry


def _shared_hand(
    state: _TableState, view: dict[str, Any] | None, running_out: bool
) -> dict[str, Any] | None:
    """The hand in play or just ended, as a spectator sees it; None: no hand yet."""
    hand, engine = state.hand, state.engine
    if hand is None or engine is None or view is None:
        return None
    complete = hand.is_complete
    voting = view["run_twice"] is not None
    return {
        "id": hand.pk,
        "number": hand.number,
        "button": hand.button,
        # docs/rules.md, Home-game options: the seat that straddled, and a bomb pot.
        "straddle": view["straddle"],
        "bomb_pot": view["bomb_pot"],
        "street": view["street"],
        "board": view["board"],
        # Run it twice: both boards (the first is `board`), dealt side by side.
        "boards": view["boards"],
        # The players still in are asked to run it twice: who, who has agreed, and
        # until when they may answer (silence is no).
        "run_twice": (
            {**view["run_twice"], "until": _ms(hand.vote_until)}
            if view["run_twice"] is not None
            else None
        ),
        "pots": view["pots"],
        "to_act": view["to_act"],
        "deadline": _ms(hand.deadline),
        "countdown_from": _ms(
            hand.turn_started_at + timedelta(seconds=COUNTDOWN_AFTER_SECONDS)
            if hand.turn_started_at
            else None
        ),
        # When the turn's own time ends and the player's time bank starts to count down
        # (the deadline includes it); None when the player to act has no bank.
        "bank_from": _bank_from(state.table, state.seats, hand),
        "commitment": hand.commitment,
        "equity": state.equity if complete or running_out or voting else None,
        "pot_equity": state.pot_equity if complete or running_out or voting else None,
        "results": [
            {**a, "name": _winner_name(state, a["seat"]), "hand": hand_shape(a["hand"])}
            for a in view["awards"]
        ]
        if complete
        else None,
        "reveal": (
            fairness.hand_reveal(hand.deck, hand.secret, engine.records) if complete else None
        ),
        "complete": complete,
    }


def _shared_table(table: Table, seats: list[Seat]) -> dict[str, Any]:
    """The table's settings and where it stands (paused, closing, the next hand's time)."""
    return {
        "id": table.pk,
        "name": table.name,
        "game": table.game,
        "structure": table.structure,
        "small_blind": int(table.config.small_blind or 0),
        "big_blind": table.big_blind,
        "big_bet": table.big_bet or 2 * table.big_blind,
        "ante": table.ante,
        "seat_count": table.seat_count,
        "min_buy_in": table.min_buy_in,
        "max_buy_in": table.max_buy_in,
        "all_in_on_disconnect": table.all_in_on_disconnect,
        "run_it_twice": table.run_it_twice and not table.is_tournament,
        "time_bank": (
            {
                "start": table.time_bank_seconds,
                "refill": table.time_bank_refill_seconds,
                "cap": table.time_bank_cap_seconds,
            }
            if table.time_bank_cap_seconds
            else None
        ),
        "next_hand_at": _ms(table.next_hand_at),
        "paused": table.paused,
        "closing": table.closing,
        "closed": not table.is_open,
        "private": table.is_private,
        # A tournament's table: no seat to take, no leaving (the tournament seats and moves).
        "tournament": table.is_tournament,
        "held": table.held,
        "forced_bets": _forced_bets(table, seats),
    }


def _own_openings(state: _TableState) -> dict[int, list[dict[str, Any]]] | None:
    """After the hand, each dealt seat still held by its player: the openings of its own
    hole cards (fairness)."""
    hand, engine = state.hand, state.engine
    if hand is None or engine is None or not hand.is_complete:
        return None
    return {
        number: fairness.seat_openings(hand.deck, hand.secret, engine.records, number)
        for number in engine.seats
        if number in state.held
    }


def _forced_bets(table: Table, seats: list[Seat]) -> dict[str, Any] | None:
    """The straddle and bomb pot options of a cash table that plays them, and where they
    stand for the next hand: who may straddle it, whether it is a bomb pot, the votes."""
    if table.is_tournament or (table.straddle == Straddle.NONE and not table.bomb_pot_ante):
        return None
    voters = bomb_pot_voters(seats)
    return {
        "straddle": table.straddle,
        "straddle_seat": table.next_straddle_seat(seats),
        "bomb_pot_ante": table.bomb_pot_ante,
        "bomb_pot_every": table.bomb_pot_every,
        "bomb_pot_by_vote": table.bomb_pot_by_vote,
        "bomb_pot_next": table.bomb_pot_coming,
        "bomb_pot_called": table.bomb_pot_next,  # by the host or the players' vote
        "bomb_pot_votes": sum(1 for s in voters if s.votes_bomb_pot),
        "bomb_pot_voters": len(voters),
        # The vote is open until then (ms; null: no vote open); silence is no after it.
        "bomb_pot_vote_until": _ms(table.bomb_pot_vote_until),
    }


def _bank_from(table: Table, seats: list[Seat], hand: Hand) -> int | None:
    """When the turn in play draws on its player's time bank (ms), if they have one."""
    if hand.deadline is None or hand.to_act is None:
        return None
    actor = next((s for s in seats if s.number == hand.to_act), None)
    bank = table.turn_bank_ms(actor) if actor is not None else 0
    return _ms(hand.deadline - timedelta(milliseconds=bank)) if bank else None


def _showable(
    hand: Hand | None,
    engine: EngineHand | None,
    view: dict[str, Any] | None,
    held: frozenset[int],
) -> dict[int, list[str]] | None:
    """Per dealt seat still held by its player (``_held_seats``), after the hand, its cards
    not yet face up (not shown at the showdown nor after the hand), in the order dealt;
    seats with none left are not listed."""
    if hand is None or engine is None or view is None or not hand.is_complete:
        return None
    found = {}
    for entry in view["seats"]:
        if entry["shown"] or entry["seat"] not in held:
            continue
        up = set(entry["shown_after"])
        left = [card_str(c) for c in engine.hole_cards(entry["seat"])]
        left = [c for c in left if c not in up]
        if left:
            found[entry["seat"]] = left
    return found


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _you(shared: _Shared, mine: Seat | None) -> dict[str, Any]:
    """The snapshot's ``you`` for the player in seat ``mine`` (None: a spectator)."""
    legal = None
    if (
        mine is not None
        and shared.legal is not None
        and shared.hand is not None
        and shared.hand["to_act"] == mine.number
    ):
        legal = shared.legal
    you: dict[str, Any] = {
        "seat": mine.number if mine else None,
        "legal": legal,
        "muck_losing": mine.muck_losing if mine else None,
        "owes": (
            {"small": mine.owes_small, "big": mine.owes_big}
            if mine and (mine.owes_small or mine.owes_big)
            else None
        ),
    }
    if mine is not None and mine.straddle_next:
        you["straddle_next"] = True  # asked to straddle the next hand
    if mine is not None and mine.straddle_always:
        you["straddle_always"] = True  # straddles every hand in the straddle's seat
    if mine is not None and mine.votes_bomb_pot:
        you["votes_bomb_pot"] = True  # voted for a bomb pot next hand
    if mine is not None and shared.time_bank and not mine.is_bot:
        # Only on this player's own socket: what is left of their time bank (ms).
        you["time_bank"] = mine.time_bank_ms
    if mine is not None and mine.state == SeatState.WAITING:
        # Seated and not yet dealt in: whether the big blind brings them in or they post
        # (the blinds owed, if any) at the next deal, a choice the page lets them change.
        you["wait_for_big_blind"] = mine.wait_for_big_blind
    if mine is not None and shared.own_openings and mine.number in shared.own_openings:
        # Only on this player's own socket: the proof their hole cards were committed.
        you["openings"] = shared.own_openings[mine.number]
    if mine is not None and shared.own_helpers and mine.number in shared.own_helpers:
        # Only on this player's own socket: it is made of their hole cards.
        you["helper"] = shared.own_helpers[mine.number]
    if mine is not None and shared.own_showable and mine.number in shared.own_showable:
        # Only on this player's own socket: their cards nobody has seen yet.
        you["can_show"] = {
            "hand": shared.hand["id"],  # type: ignore[index]
            "cards": shared.own_showable[mine.number],
        }
    if (
        mine is not None
        and shared.own_pre_actions
        and mine.number in shared.own_pre_actions
        and not mine.leaving  # folded when the turn comes
    ):
        # Only on this player's own socket: what they chose to do is nobody else's to see.
        offer = shared.own_pre_actions[mine.number]
        chosen = mine.pre_action_in(offer["number"])
        you["pre_action"] = {
            **offer,
            "chosen": chosen and {"kind": str(chosen.kind), "amount": chosen.to_call},
        }
    return you


def _pre_action_offers(hand: Hand, engine: EngineHand) -> dict[int, dict[str, Any]]:
    """For each seat in the betting whose turn it is not, the pre-actions it may choose
    now (the engine's ``pre_action_kinds``) and the amount to call they are chosen against."""
    if engine.street not in BETTING_STREETS:
        return {}
    stacks = engine.stacks()
    offers = {}
    for number in engine.seats:
        if number == engine.to_act or not engine.may_bet_later(number):
            continue
        to_call = engine.to_call(number)
        offers[number] = {
            "hand": hand.pk,
            "number": hand.number,
            "to_call": to_call,
            "all_in": 0 < to_call == stacks[number],
            "kinds": [str(kind) for kind in pre_action_kinds(to_call)],
        }
    return offers


def _helper(
    memo: _Memo, hand: Hand, engine: EngineHand, seat: int, board_cards: int
) -> dict[str, Any]:
    """A seat's best high (and in Hi/Lo its best low, or None) with the board shown so far.

    Codes and ranks, not words: ``{"high": {"code": "two-pair", "ranks": ["K", "K", "5", "5",
    "9"]}, "low": ["8", "6", "4", "3", "A"]}`` (``"low"`` only in Hi/Lo). The engine finds
    the hands; a hand's helper changes only with the board, so it is kept per board length.
    """
    key = (hand.pk, hand.commitment, seat, board_cards)
    found = memo.helpers.get(key)
    if found is not None:
        return found
    hole: tuple[Card, ...] = engine.hole_cards(seat)
    board: tuple[Card, ...] = engine.board[:board_cards]
    # The engine's table lookups (the values its showdowns compare), not a search of the
    # sixty fives: this runs for every seat whenever the board grows.
    value, low = high_low_values(hole, board)
    found = {
        "high": {
            "code": HIGH_CODES[high_category(value)],
            "ranks": [RANKS[rank] for rank in high_ranks(value)],
        }
    }
    if engine.config.game is Game.OMAHA_HI_LO:
        found["low"] = None if low is None else [RANKS[rank] for rank in low_ranks(low)]
    if len(memo.helpers) > 4096:
        memo.helpers.clear()
    memo.helpers[key] = found
    return found


def _wire(state: _TableState, memo: _Memo) -> dict[str, Any]:
    """Everything any socket's snapshot text is made of, as JSON text parts.

    Built once per version by the process that made the change, and sent with the "changed"
    broadcast, so the sockets of every other process build their snapshots without a query.
    It holds every seat's own cards: it travels only between the site's processes (the
    channel layer), and ``snapshot_text_from_wire`` hands each socket only its own seat's.
    Keys are strings, as msgpack (channels-redis) wants them.
    """
    found = state.wire
    if found is not None:
        return found
    shared = _shared(state, memo)
    # Per seated player: where their seat is in the list, its text with their own cards
    # (None when they hold none), and their "you".
    you: dict[str, list[Any]] = {}
    for index, seat in enumerate(state.seats):
        if seat.user_id is None:
            continue
        you[str(seat.user_id)] = [
            index,
            shared.own_seat_texts.get(seat.number),
            _json(_you(shared, seat)),
        ]
    found = state.wire = {
        "head": shared.head,
        "middle": shared.middle,
        "seats": shared.seat_texts,
        "tail": shared.tail,
        "end": shared.end,
        "recent": state.recent,
        "chat": state.chat,
        "you": you,
        "spectator": _json(_you(shared, None)),
    }
    return found


def snapshot_text_from_wire(wire: dict[str, Any], user: Any) -> str:
    """The snapshot JSON text for ``user`` (None or anonymous: a spectator) from ``_wire``."""
    seat_texts = wire["seats"]
    you_text = wire["spectator"]
    if user is not None and getattr(user, "is_authenticated", False):
        entry = wire["you"].get(str(user.pk))
        if entry is not None:
            index, own, you_text = entry
            if own is not None:
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


# Before the flop the equity is a seeded estimate over this many boards (standard error under
# 1.6 points). It runs in Python with the GIL held, so it stalls every table of the process:
# 10,000 boards took 100-240 ms, 1,000 take 10-25 ms.
LIVE_PREFLOP_SAMPLES = 1_000


def _runout_equity(
    memo: _Memo, hand: Hand, engine: Any, board_cards: int | None = None
) -> _Equities:
    """All-in equity at the run-out (with ``board_cards`` of the board out, while it is
    dealt): per seat, its expected share of all the chips in the middle, and per pot (main
    pot first), the share each hand that can win it may expect. The records of a run-out
    never change, so each process computes it once per street (a pre-flop estimate samples
    boards and takes tens of milliseconds)."""
    key = (hand.pk, hand.commitment, board_cards)
    if key not in memo.equities:
        if len(memo.equities) > 256:
            memo.equities.clear()
        memo.equities[key] = runout_equities(engine.records, board_cards)
    return memo.equities[key]


def runout_equities(records: Any, board_cards: int | None) -> _Equities:
    """``hand.equity`` and ``hand.pot_equity`` of a snapshot (docs/protocol.md) from the
    engine's ``runout_pots``, rounded, with seats as strings (JSON keys)."""

    pots = runout_pots(records, samples=LIVE_PREFLOP_SAMPLES, board_cards=board_cards)
    if pots is None:
        return None, None
    if board_cards is not None and any(isinstance(r, BoardDealt) and r.run == 2 for r in records):
        # Run twice: each pot is half the first run's and half the second's, so a hand's
        # share of it is the mean of its shares on the two boards dealt so far.
        second = runout_pots(records, samples=LIVE_PREFLOP_SAMPLES, board_cards=board_cards, run=2)
        assert second is not None
        pots = tuple(
            PotShares(
                pot.amount,
                {seat: (share + again.shares[seat]) / 2 for seat, share in pot.shares.items()},
            )
            for pot, again in zip(pots, second, strict=True)
        )
    return (
        {str(seat): round(share, 4) for seat, share in expected_shares(pots).items()},
        [
            {
                "amount": pot.amount,
                "shares": {str(seat): round(share, 4) for seat, share in pot.shares.items()},
            }
            for pot in pots
        ],
    )


def _name_at(seats: list[Seat], number: int) -> str | None:
    for s in seats:
        if s.number == number and s.user is not None:
            player = _player(s)
            return None if player is None else str(player["name"])
    return None


def _winner_name(state: _TableState, number: int) -> str | None:
    """Who won at seat ``number`` in the state's hand: its player, or the name the hand
    stored when it ended (``Hand.awards``) if another player has taken the seat since."""
    if number in state.held:
        return _name_at(state.seats, number)
    awards = state.hand.awards if state.hand is not None else []
    return next((a.get("name") for a in awards if a["seat"] == number), None)
