"""One hand of Omaha as a state machine: start it, ask what is legal, act, read its records.

>>> from tables.engine.config import Config, Game, Structure
>>> config = Config(Game.OMAHA_HI_LO, Structure.POT_LIMIT, big_blind=2)
>>> hand = Hand.start(config, [SeatSpec(1, 200), SeatSpec(2, 200), SeatSpec(3, 200)], 3,
...                   tuple(range(52)))
>>> options = hand.legal_actions()
>>> options.seat, options.call, options.min_to, options.max_to
(3, 2, 4, 7)
>>> _ = hand.act(3, Action.RAISE, 7)
>>> hand.act(1, Action.RAISE, 8)
Traceback (most recent call last):
...
tables.engine.errors.RuleError: raise to 8 is below the minimum 12

Positions are indices in the hand's deal order: 0 is the first seat left of the button and
the last index is the button. That order is also "closest to the left of the button" for
odd chips, so a tie's odd chips go to the lowest index first.

Every move is validated completely before anything changes, so a RuleError leaves the hand
exactly as it was; no copy or rollback is needed and `act` stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from enum import StrEnum
from functools import lru_cache

from tables.engine._frozen import TYPE_CHECKING
from tables.engine.config import AnteKind, Config, Game, Straddle, Structure
from tables.engine.errors import RuleError
from tables.engine.evaluator import describe_high, describe_low, showdown_values
from tables.engine.records import (
    MOVE_RECORDS,
    Action,
    AllInDeclared,
    BoardDealt,
    CardsShown,
    Half,
    HandStarted,
    Move,
    PotAwarded,
    Record,
    RunTwiceOffered,
    RunTwiceVoted,
    SeatSpec,
    Shown,
    _card_text,
    checked,
    folded,
    make_ante_posted,
    make_bet,
    make_blind_posted,
    make_board_dealt,
    make_burned,
    make_called,
    make_hand_ended,
    make_hole_dealt,
    make_mucked,
    make_pot_awarded,
    make_raised,
    make_shown,
    make_uncalled_returned,
    record_action,
)

if TYPE_CHECKING:
    from typing import Any, NamedTuple
else:
    from tables.engine._frozen import NamedTuple

__all__ = ["Action", "Hand", "LegalActions", "RunTwiceVote", "SeatSpec", "Street", "straddle_seat"]

MAX_PLAYERS = 10


class Street(StrEnum):
    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"
    SHOWDOWN = "showdown"
    COMPLETE = "complete"


_STREETS = tuple(Street)
_STREET_TEXTS = tuple(street.value for street in _STREETS)
"""Each street's text, as `BoardDealt` records it (an enum's `.value` is a property)."""
_PREFLOP, _FLOP, _TURN, _RIVER, _SHOWDOWN, _COMPLETE = range(6)
_BOARD_COUNTS = (0, 3, 1, 1)
_FULL_DECK_SET = frozenset(range(52))


class LegalActions(NamedTuple):
    """Exactly which buttons the player to act gets, with the amounts to put on them.

    - `call` is the chips a call adds (already capped at the stack; `call_all_in` says so),
      `call_to` the street total after it.
    - `min_to` / `max_to` are street totals for `bet_or_raise` ("bet" or "raise"); in limit
      they are equal. `complete` is the limit case of completing a short all-in to a full
      bet or raise. `raise_all_in` says `max_to` is the whole stack.
    - At showdown `actions` is (show, muck).

    Immutable (a NamedTuple: cheap to build once per move).
    """

    seat: int | None
    actions: tuple[Action, ...] = ()
    call: int = 0
    call_to: int = 0
    call_all_in: bool = False
    bet_or_raise: Action | None = None
    min_to: int = 0
    max_to: int = 0
    raise_all_in: bool = False
    complete: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "actions": [str(a) for a in self.actions],
            "call": self.call,
            "call_to": self.call_to,
            "call_all_in": self.call_all_in,
            "bet_or_raise": None if self.bet_or_raise is None else str(self.bet_or_raise),
            "min_to": self.min_to,
            "max_to": self.max_to,
            "raise_all_in": self.raise_all_in,
            "complete": self.complete,
        }


class RunTwiceVote(NamedTuple):
    """An open vote on running the board twice (`Hand.run_twice_vote`): the seats asked, in
    deal order, and those that have agreed so far."""

    asked: tuple[int, ...]
    agreed: tuple[int, ...]

    @property
    def waiting(self) -> tuple[int, ...]:
        """The seats yet to answer, in deal order."""
        return tuple(seat for seat in self.asked if seat not in self.agreed)


_NOBODY = LegalActions(None)
_new_legal = tuple.__new__
"""How a move's `LegalActions` is made, every field given: the namedtuple's own `__new__`
is a Python function around this call."""
_BET = Action.BET
_RAISE = Action.RAISE
_FOLD_ACT = Action.FOLD
_CHECK_ACT = Action.CHECK
_CALL_ACT = Action.CALL
_SHOW = Action.SHOW
_MUCK = Action.MUCK
# Read once a hand: an enum's member read from its class costs ten times a module global's.
_LIMIT, _POT_LIMIT = Structure.LIMIT, Structure.POT_LIMIT
_HI_LO = Game.OMAHA_HI_LO
_ANTE_EACH, _ANTE_BIG_BLIND = AnteKind.EACH, AnteKind.BIG_BLIND
_SHOW_MUCK = (Action.SHOW, Action.MUCK)
_FOLD_CHECK = (Action.FOLD, Action.CHECK)
_FOLD_CALL = (Action.FOLD, Action.CALL)
_CHECK_BET = (Action.FOLD, Action.CHECK, Action.BET)
_CHECK_RAISE = (Action.FOLD, Action.CHECK, Action.RAISE)
_CALL_RAISE = (Action.FOLD, Action.CALL, Action.RAISE)


class Hand:
    """The state of one hand. Build it with `Hand.start` or `Hand.from_records`."""

    __slots__ = (
        "_acted_at",
        "_actor",
        "_bet",
        "_bet_count",
        "_bet_size",
        "_agreed",
        "_board",
        "_board2",
        "_button",
        "_collected",
        "_config",
        "_contrib",
        "_current",
        "_dead",
        "_dead_put",
        "_declared",
        "_deck",
        "_folded",
        "_full_level",
        "_hi_lo",
        "_hole",
        "_last_aggressor",
        "_last_full_raiser",
        "_last_inc",
        "_legal",
        "_live",
        "_limit",
        "_muck_seq",
        "_mucked",
        "_n",
        "_need",
        "_next_card",
        "_pot_limit",
        "_records",
        "_sd_order",
        "_sd_pos",
        "_seat_index",
        "_sb_i",
        "_seats",
        "_showdown_pots",
        "_shown",
        "_stack",
        "_start_stack",
        "_street",
        "_uncapped",
        "_values",
        "_values2",
        "_vote",
    )

    _acted_at: list[int]
    _actor: int
    _bet: list[int]
    _bet_count: int
    _bet_size: int
    _agreed: list[int]
    _board: list[int]
    _board2: list[int]
    _button: int
    _collected: int
    _config: Config
    _contrib: list[int]
    _current: int
    _dead: int
    _dead_put: list[int]
    _declared: list[bool]
    _deck: tuple[int, ...]
    _folded: list[bool]
    _full_level: int
    _hi_lo: bool
    _hole: list[tuple[int, ...]]
    _last_aggressor: int
    _last_full_raiser: int
    _last_inc: int
    _legal: LegalActions | None
    _live: int
    _limit: bool
    _muck_seq: list[int]
    _mucked: list[bool]
    _n: int
    _need: list[bool]
    _next_card: int
    _pot_limit: bool
    _records: list[Record]
    _sd_order: list[int]
    _sd_pos: int
    _sb_i: int
    _seat_index: dict[int, int]
    _seats: list[int]
    _showdown_pots: list[tuple[int, list[int]]] | None
    _shown: list[bool]
    _stack: list[int]
    _start_stack: tuple[int, ...]
    _street: int
    _uncapped: bool
    _values: dict[int, tuple[int, int | None]]
    _values2: dict[int, tuple[int, int | None]]
    _vote: list[int]

    # ------------------------------------------------------------------ building

    def __init__(self) -> None:
        raise TypeError("use Hand.start(...) or Hand.from_records(...)")

    @classmethod
    def start(
        cls,
        config: Config,
        seats: Sequence[SeatSpec],
        button: int,
        deck: Sequence[int],
        *,
        dead_small_blind: bool = False,
        straddle: int | None = None,
        bomb_pot: bool = False,
    ) -> Hand:
        """Post antes and blinds, deal the hole cards and wait for the first action.

        `seats` in any order; `button` is a seat number (it may be an empty seat: a dead
        button); `deck` is a full 52-card order dealt from the top. The first seat dealt in
        left of the button posts the small blind and the next the big blind; heads-up the
        button posts the small blind. With `dead_small_blind` (a tournament's dead button,
        `seating.deal_in` decides it) nobody posts the small blind and the first seat left of
        the button posts the big blind; heads-up it is refused, the button posting it there.
        `straddle` is the seat that posts a straddle (`straddle_seat` says who may);
        `bomb_pot` makes the hand a bomb pot (see `_post_bomb_pot_antes`).
        """
        deck_t = tuple(deck)
        if len(deck_t) != 52 or set(deck_t) != _FULL_DECK_SET:
            raise RuleError("the deck must be 52 distinct cards", code="bad_deck")
        specs = sorted(seats, key=lambda s: s.seat)
        posts = _check_seats(config, specs, button, dead_small_blind, straddle, bomb_pot)
        # Deal order: first seat clockwise (higher number, wrapping) after the button.
        first = 0
        for k, s in enumerate(specs):
            if s.seat > button:
                first = k
                break
        in_seat_order = tuple(specs)
        if first:
            specs = specs[first:] + specs[:first]

        self = object.__new__(cls)
        n = len(specs)
        self._config = config
        self._n = n
        self._button = button
        self._seats = [s.seat for s in specs]
        self._seat_index = {s.seat: i for i, s in enumerate(specs)}
        self._stack = [s.stack for s in specs]
        self._start_stack = tuple(self._stack)
        self._bet = [0] * n
        self._contrib = [0] * n
        self._dead_put = [0] * n
        self._dead = 0
        self._collected = 0
        self._folded = [False] * n
        self._live = n
        self._legal = None
        self._declared = [False] * n
        self._mucked = [False] * n
        self._shown = [False] * n
        self._muck_seq = []
        self._need = [False] * n
        self._acted_at = [-1] * n
        self._deck = deck_t
        self._board = []
        # Run it twice (house option): the players asked and those who agreed, by index
        # (empty: no vote open), and the second run's whole board once it is dealt.
        self._vote = []
        self._agreed = []
        self._board2 = []
        self._values2 = {}
        self._street = _PREFLOP
        self._actor = -1
        self._limit = config.structure is _LIMIT
        self._pot_limit = config.structure is _POT_LIMIT
        self._hi_lo = config.game is _HI_LO
        self._values = {}
        self._sd_order = []
        self._sd_pos = 0
        self._showdown_pots = None
        self._last_aggressor = -1
        self._last_full_raiser = -1
        self._records = [
            HandStarted(
                config,
                in_seat_order,
                button,
                deck_t,
                bool(dead_small_blind),
                straddle,
                bool(bomb_pot),
            )
        ]
        records = self._records
        stack = self._stack
        seat_of = self._seats

        sb_i, bb_i = (1, 0) if n == 2 else (-1, 0) if dead_small_blind else (0, 1)
        self._sb_i = sb_i
        self._post_forced_bets(specs if posts else (), bb_i, straddle, bomb_pot)

        self._hole = [
            (deck_t[i], deck_t[n + i], deck_t[2 * n + i], deck_t[3 * n + i]) for i in range(n)
        ]
        self._next_card = 4 * n
        for i in range(n):
            records.append(make_hole_dealt(seat_of[i], self._hole[i]))

        # Before the flop the big blind is the round's bet (it counts toward the cap).
        current = max(self._bet)
        self._current = current
        self._bet_count = 1
        self._full_level = current
        self._last_inc = config.big_blind
        self._bet_size = config.big_blind
        self._uncapped = config.uncapped_heads_up and n == 2
        if straddle is not None:
            # docs/rules.md, Home-game options: "In pot-limit the straddle counts as the last
            # bet: the pot is counted with it, and the smallest raise is one straddle more";
            # "the straddler acts last (the action starts on their left)" (for the button's
            # straddle that is the small blind: "the blinds act first").
            self._last_inc = 2 * config.big_blind
            bb_i = self._seat_index[straddle]
        # A bomb pot has "no betting before the flop": nobody acts, the flop comes at once.
        self._need = [stack[i] > 0 and not bomb_pot for i in range(n)]
        self._actor = self._next_actor(bb_i + 1)
        if self._actor < 0:
            self._end_round()
        return self

    def _post_forced_bets(
        self, posting: Sequence[SeatSpec], bb_i: int, straddle: int | None, bomb_pot: bool
    ) -> None:
        """The antes, the blinds, a straddle and the seats' own posts (`posting`: the specs
        in dealing order, or none when no seat posts out of position)."""
        config = self._config
        records = self._records
        stack = self._stack
        seat_of = self._seats
        n = self._n
        sb_i = self._sb_i
        # Antes are dead money, collected before the blinds: they sit in the main pot and
        # are no level of the side pots (a player all-in on a short ante still plays for
        # the main pot), as PokerKit does with ante trimming off.
        if bomb_pot:
            self._post_bomb_pot_antes()
        elif config.ante_kind is _ANTE_EACH:
            for i in range(n):
                amount = min(stack[i], config.ante)
                stack[i] -= amount
                self._dead += amount
                self._dead_put[i] += amount
                self._collected += amount
                records.append(make_ante_posted(seat_of[i], amount, stack[i] == 0))
        elif config.ante_kind is _ANTE_BIG_BLIND:
            amount = min(stack[bb_i], config.ante)
            stack[bb_i] -= amount
            self._dead += amount
            self._dead_put[bb_i] += amount
            self._collected += amount
            records.append(make_ante_posted(seat_of[bb_i], amount, stack[bb_i] == 0))
        assert config.small_blind is not None
        if sb_i >= 0 and not bomb_pot:
            self._post(sb_i, config.small_blind, "small")
        if not bomb_pot:
            self._post(bb_i, config.big_blind, "big")
        if straddle is not None:
            # docs/rules.md, Home-game options: "a live straddle of exactly twice the big blind".
            self._post(self._seat_index[straddle], 2 * config.big_blind, "straddle")
        for i, spec in enumerate(posting):
            if spec.dead_post and stack[i]:
                amount = min(stack[i], spec.dead_post)
                stack[i] -= amount
                self._dead += amount
                self._dead_put[i] += amount
                self._collected += amount
                records.append(make_blind_posted(seat_of[i], amount, "dead", stack[i] == 0))
            if spec.live_post:
                self._post(i, spec.live_post, "live")

    def _post(self, i: int, amount: int, kind: str) -> None:
        amount = min(self._stack[i], amount)
        if amount <= 0:
            return
        self._stack[i] -= amount
        self._bet[i] += amount
        self._contrib[i] += amount
        self._records.append(make_blind_posted(self._seats[i], amount, kind, self._stack[i] == 0))

    def _post_bomb_pot_antes(self) -> None:
        """docs/rules.md, Home-game options: "every player dealt in posts the agreed ante (in big
        blinds); no blinds". Unlike a tournament's antes (dead money, see `start`), each is
        its player's stake in the pot, as a bet collected before the flop would be: a
        player all-in on a short ante plays for what they put in, and the pots above it go
        to the others. With no bet on the table, pot-limit "counts the antes as the pot".
        """
        ante = self._config.bomb_pot_ante
        stack = self._stack
        for i in range(self._n):
            amount = min(stack[i], ante)
            stack[i] -= amount
            self._contrib[i] += amount
            self._collected += amount
            self._records.append(make_ante_posted(self._seats[i], amount, stack[i] == 0))

    @classmethod
    def from_records(cls, records: Sequence[Record]) -> Hand:
        """Rebuild a hand by replaying the moves in `records` from its HandStarted record.

        Every derived record (deals, awards, ...) must match what the rules produce, or a
        RuleError names the first record that differs.
        """
        hand = cls._dealt(records)
        hand._replay(records, len(hand._records))
        return hand

    @classmethod
    def replay_steps(cls, records: Sequence[Record]) -> Iterator[tuple[Move | None, Hand]]:
        """Rebuild a hand one move at a time, for a replayer that shows every step.

        Yields (None, the hand as dealt), then (move record, the hand after it) for each
        move in `records`, checked as `from_records` checks them. The hand is one object
        moved on at each step: read it (`view`, ...) before taking the next, or `copy()` it.
        The records a move brings with it (a street dealt, the hands the engine turns up at
        an all-in, the awards) are part of its step.
        """
        hand = cls._dealt(records)
        yield None, hand
        k = len(hand._records)
        while k < len(records):
            move = records[k]
            k = hand._replay_move(records, k)
            assert isinstance(move, MOVE_RECORDS)  # _replay_move refuses anything else
            yield move, hand

    @classmethod
    def _dealt(cls, records: Sequence[Record]) -> Hand:
        """The hand `records` start, checked against what its start produces."""
        if not records or not isinstance(records[0], HandStarted):
            raise RuleError("a hand's records start with HandStarted", code="records_start")
        hand = cls.from_started(records[0])
        mine = hand._records
        if tuple(records[: len(mine)]) != tuple(mine):
            k = _first_difference(records, mine)
            raise RuleError(
                f"record {k} does not follow the rules", code="record_breaks_rules", params={"k": k}
            )
        return hand

    @classmethod
    def from_started(cls, started: HandStarted) -> Hand:
        """The hand as its HandStarted record began it: blinds posted, cards dealt, no move
        made yet. A replayer steps on from here with `apply`, one move record at a time."""
        return cls.start(
            started.config,
            started.seats,
            started.button,
            started.deck,
            dead_small_blind=started.dead_small_blind,
            straddle=started.straddle,
            bomb_pot=started.bomb_pot,
        )

    def catch_up(self, later: Sequence[Record]) -> None:
        """Apply `later`, the records that follow this hand's own, as `from_records` would.

        For a server process whose kept hand another process has moved on: it replays only
        the moves it missed. Every derived record must match, as in `from_records`; on a
        RuleError the hand is left part way and must be dropped.
        """
        if any(type(r) is HandStarted for r in later):
            raise RuleError(
                "a hand's later records cannot start another hand", code="records_restart"
            )
        self._replay([*self._records, *later], len(self._records))

    def _replay(self, records: Sequence[Record], k: int) -> None:
        total = len(records)
        while k < total:
            k = self._replay_move(records, k)

    def _replay_move(self, records: Sequence[Record], k: int) -> int:
        """Apply the move `records[k]`; check what it brought matches `records` from k on;
        return where the next move is."""
        r = records[k]
        if not isinstance(r, MOVE_RECORDS):
            raise RuleError(
                f"record {k} ({type(r).__name__}) is not a move the hand expects",
                code="record_not_a_move",
                params={"k": k},
            )
        self.apply(r)
        mine = self._records
        new_k = len(mine)
        if new_k > len(records) or tuple(records[k:new_k]) != tuple(mine[k:new_k]):
            k = _first_difference(records, mine)
            raise RuleError(
                f"record {k} does not follow the rules", code="record_breaks_rules", params={"k": k}
            )
        return new_k

    def apply(self, record: Move) -> list[Record]:
        """Make the move a record of `MOVE_RECORDS` describes, as `act` (or `declare_all_in`)
        would; returns the new records, the first of them equal to `record` when it follows
        the rules. Raises RuleError (and changes nothing) when it does not."""
        if isinstance(record, AllInDeclared):
            return self.declare_all_in(record.seat)
        if isinstance(record, CardsShown):
            return self.show(record.seat, record.cards)
        if isinstance(record, RunTwiceVoted):
            return self.vote_run_twice(record.seat, record.agree, silent=record.silent)
        move = record_action(record)
        if move is None:
            raise RuleError(
                f"{type(record).__name__} is not a move",
                code="not_a_move",
                params={"record": type(record).__name__},
            )
        return self.act(record.seat, move[0], move[1])

    def copy(self) -> Hand:
        """An independent copy: moves on either leave the other as it was.

        Cheaper than `from_records` (no replay), for a server that keeps a hand between
        moves while readers still hold the previous state.
        """
        twin = object.__new__(Hand)
        for name in Hand.__slots__:
            value = getattr(self, name)
            if type(value) is list:
                value = list(value)
            elif type(value) is dict:
                value = dict(value)
            setattr(twin, name, value)
        return twin

    # ------------------------------------------------------------------ reading

    @property
    def config(self) -> Config:
        return self._config

    @property
    def records(self) -> tuple[Record, ...]:
        return tuple(self._records)

    @property
    def button(self) -> int:
        return self._button

    @property
    def straddle(self) -> int | None:
        """The seat that posted a straddle this hand, or None."""
        return self._started.straddle

    @property
    def bomb_pot(self) -> bool:
        """Whether this hand is a bomb pot (antes from everyone, the betting on the flop)."""
        return self._started.bomb_pot

    @property
    def _started(self) -> HandStarted:
        started = self._records[0]
        assert isinstance(started, HandStarted)
        return started

    @property
    def street(self) -> Street:
        return _STREETS[self._street]

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats dealt in, in deal order (left of the button first, the button last)."""
        return tuple(self._seats)

    @property
    def board(self) -> tuple[int, ...]:
        return tuple(self._board)

    @property
    def is_complete(self) -> bool:
        return self._street == _COMPLETE

    @property
    def to_act(self) -> int | None:
        """The seat whose move it is (a bet or a show/muck), or None."""
        return None if self._actor < 0 else self._seats[self._actor]

    @property
    def final_stacks(self) -> dict[int, int] | None:
        if self._street != _COMPLETE:
            return None
        return {self._seats[i]: self._stack[i] for i in range(self._n)}

    @property
    def pot_total(self) -> int:
        """Every chip in the middle: the pots and this street's bets."""
        if self._street == _COMPLETE:
            return 0
        return self._collected + sum(self._bet)

    def stacks(self) -> dict[int, int]:
        return {self._seats[i]: self._stack[i] for i in range(self._n)}

    def starting_stacks(self) -> dict[int, int]:
        return {self._seats[i]: self._start_stack[i] for i in range(self._n)}

    def hole_cards(self, seat: int) -> tuple[int, ...]:
        return self._hole[self._index(seat)]

    @property
    def current_bet(self) -> int:
        """The bet to match in this betting round, as a street total (0 before any bet)."""
        return self._current

    def to_call(self, seat: int) -> int:
        """The chips ``seat`` would add to call now, at most its stack (0: nothing to call).

        What ``legal_actions().call`` tells the player to act, for any seat dealt in: a
        pre-action is chosen against it (``tables.engine.preactions``)."""
        i = self._index(seat)
        owed = self._current - self._bet[i]
        return 0 if owed <= 0 else min(owed, self._stack[i])

    def may_bet_later(self, seat: int) -> bool:
        """Whether ``seat`` may still have a betting decision to make in this hand: dealt in,
        not folded, not all-in, and the betting not over."""
        i = self._seat_index.get(seat)
        if i is None or self._street > _RIVER:
            return False
        return not (self._folded[i] or self._declared[i] or self._mucked[i]) and self._stack[i] > 0

    def pots(self) -> list[tuple[int, tuple[int, ...]]]:
        """Main pot then side pots as (amount, eligible seats), bets of this street excluded."""
        collected = [self._contrib[i] - self._bet[i] for i in range(self._n)]
        return [
            (amount, tuple(self._seats[i] for i in eligible))
            for amount, eligible in self._pot_list(collected)
        ]

    def _index(self, seat: int) -> int:
        i = self._seat_index.get(seat)
        if i is None:
            raise RuleError(
                f"seat {seat} is not in this hand", code="seat_not_in_hand", params={"seat": seat}
            )
        return i

    # ------------------------------------------------------------------ legal moves

    def legal_actions(self) -> LegalActions:
        """Who acts and exactly which buttons to show them, with amounts.

        Worked out once a move (kept until the next), here rather than in a helper: a
        player's every move asks for it, and a call less is a tenth of it."""
        legal = self._legal
        if legal is not None:
            return legal
        i = self._actor
        if i < 0:
            return _NOBODY
        seat = self._seats[i]
        if self._street == _SHOWDOWN:
            legal = self._legal = _new_legal(
                LegalActions, (seat, _SHOW_MUCK, 0, 0, False, None, 0, 0, False, False)
            )
            return legal
        stacks = self._stack
        bets = self._bet
        stack = stacks[i]
        b = bets[i]
        cur = self._current
        total = stack + b
        call = 0 if cur <= b else (cur - b if cur - b < stack else stack)
        if self._limit:
            can_raise = total > cur and self._raise_blocker(i) is None
        elif total <= cur:
            can_raise = False
        else:
            # The pot-/no-limit part of _raise_blocker, inlined (the hot path).
            bb = self._config.big_blind
            last = self._last_inc
            acted = self._acted_at[i]
            if acted >= 0 and cur - acted < (last if last > bb else bb):
                can_raise = False
            else:
                can_raise = False
                folded = self._folded
                declared = self._declared
                for j in range(self._n):
                    if j != i and not folded[j] and not declared[j] and stacks[j] + bets[j] > cur:
                        can_raise = True
                        break
        if not can_raise:
            legal = self._legal = _new_legal(
                LegalActions,
                (
                    seat,
                    _FOLD_CALL if call else _FOLD_CHECK,
                    call,
                    b + call,
                    call > 0 and call == stack,
                    None,
                    0,
                    0,
                    False,
                    False,
                ),
            )
            return legal
        if cur:
            kind = _RAISE
            actions = _CALL_RAISE if call else _CHECK_RAISE
        else:
            kind = _BET
            actions = _CHECK_BET
        if self._limit:
            min_to = max_to = min(self._full_level + self._bet_size, total)
            complete = self._full_level < cur
        else:
            # _raise_range, inlined.
            min_to = cur + (last if last > bb else bb)
            if self._pot_limit:
                pot_max = 2 * cur - b + self._collected + sum(bets)
                if self._config.pot_assumes_small_blind_call:
                    pot_max += self._assumed_small_blind_call(i)
                max_to = pot_max if pot_max > min_to else min_to
            else:
                max_to = total
            if min_to > total:
                min_to = total
            if max_to > total:
                max_to = total
            complete = False
        legal = self._legal = _new_legal(
            LegalActions,
            (
                seat,
                actions,
                call,
                b + call,
                call > 0 and call == stack,
                kind,
                min_to,
                max_to,
                max_to == total,
                complete,
            ),
        )
        return legal

    def _raise_blocker(self, i: int) -> RuleError | None:
        """Why player i may not bet or raise now (the error to raise), or None if they may."""
        cur = self._current
        b = self._bet[i]
        total = self._stack[i] + b
        if total <= cur:
            return RuleError(
                "a player who cannot cover the bet can only call", code="cannot_cover_bet"
            )
        cap = self._config.raise_cap
        if self._limit:
            if cap is not None and self._bet_count >= cap and not self._uncapped:
                return _cap_message(cap)
            if self._acted_at[i] >= 0:
                if i == self._last_full_raiser:
                    return RuleError("nobody may raise their own bet", code="raise_own_bet")
                return RuleError(
                    "an all-in for less than half a bet does not reopen the betting"
                    " for a player who has already acted",
                    code="limit_short_all_in_not_reopened",
                )
        elif self._acted_at[i] >= 0 and cur - self._acted_at[i] < max(
            self._last_inc, self._config.big_blind
        ):
            if i == self._last_full_raiser:
                return RuleError("nobody may raise their own bet", code="raise_own_bet")
            return RuleError(
                "an all-in short of a full raise does not reopen the betting"
                " for a player who has already acted",
                code="short_all_in_not_reopened",
            )
        folded = self._folded
        declared = self._declared
        stack = self._stack
        bet = self._bet
        for j in range(self._n):
            if j != i and not folded[j] and not declared[j] and stack[j] + bet[j] > cur:
                return None
        return RuleError("nobody is left with chips to call a raise", code="nobody_to_call_raise")

    def _raise_range(self, i: int) -> tuple[int, int]:
        total = self._stack[i] + self._bet[i]
        cur = self._current
        if self._limit:
            target = min(self._full_level + self._bet_size, total)
            return target, target
        bb = self._config.big_blind
        last = self._last_inc
        min_to = cur + (last if last > bb else bb)
        if self._pot_limit:
            pot_max = 2 * cur - self._bet[i] + self._collected + sum(self._bet)
            if self._config.pot_assumes_small_blind_call:
                pot_max += self._assumed_small_blind_call(i)
            max_to = pot_max if pot_max > min_to else min_to
        else:
            max_to = total
        return (min_to if min_to < total else total), (max_to if max_to < total else total)

    def _assumed_small_blind_call(self, i: int) -> int:
        """What the home series' pot-limit rule adds to the pot for player ``i``.

        docs/rules/sources/home-series-event-plo8.txt: "before the first raise in the first round of
        betting, it can be assumed that the small blind will call the big blind". Only
        before any raise, before the flop, while the small blind is still in and has not
        completed, and for anyone but the small blind (whose own call is counted anyway).
        """
        sb = self._sb_i
        if self._street != _PREFLOP or sb < 0 or sb == i or self._folded[sb]:
            return 0
        big = self._config.big_blind
        if self._current > big:
            return 0
        return max(0, big - self._bet[sb])

    def can_act(self, seat: int, action: Action | str, amount: int | None = None) -> bool:
        """Whether `act(seat, action, amount)` would be accepted."""
        try:
            self._check(seat, action, amount)
        except RuleError:
            return False
        return True

    def _check(
        self, seat: int, action: Action | str, amount: int | None
    ) -> tuple[int, Action, int]:
        """Validate a move completely; return (index, action as applied, street total).

        The common case is checked against the cached legal actions; anything else (and
        every error, so its message can name the rule) goes through the full checks.
        """
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if seat == legal.seat and action in legal.actions:
            act = action if action.__class__ is Action else Action(action)
            i = self._actor
            if act is Action.CALL:
                if amount is None or amount == legal.call_to:
                    return i, act, legal.call_to
            elif act is Action.FOLD or act is Action.CHECK:
                return i, act, self._bet[i]
            elif act is Action.SHOW or act is Action.MUCK:
                return i, act, 0
            elif (
                type(amount) is int
                and legal.min_to <= amount <= legal.max_to
                and (
                    self._config.chip_unit == 1
                    or not amount % self._config.chip_unit
                    or amount == legal.min_to
                    or amount == legal.max_to
                )
            ):
                return i, act, amount
        return self._check_fully(seat, action, amount)

    def _check_fully(
        self, seat: int, action: Action | str, amount: int | None
    ) -> tuple[int, Action, int]:
        try:
            act = Action(action)
        except ValueError:
            raise RuleError(
                f"{action!r} is not an action", code="not_an_action", params={"action": str(action)}
            ) from None
        i = self._check_turn(seat)
        if self._street == _SHOWDOWN:
            if act is Action.SHOW or act is Action.MUCK:
                return i, act, 0
            raise RuleError(
                f"at the showdown a player shows or mucks; {act} is not possible",
                code="showdown_show_or_muck",
                params={"action": str(act)},
            )
        if act is Action.SHOW or act is Action.MUCK:
            raise RuleError(
                f"there is no showdown yet; {act} is not possible",
                code="no_showdown_yet",
                params={"action": str(act)},
            )
        b = self._bet[i]
        cur = self._current
        stack = self._stack[i]
        if act is Action.FOLD:
            return i, act, b
        if act is Action.CHECK:
            if cur > b:
                raise RuleError(
                    f"cannot check facing a bet of {cur}; call {cur - b} or fold",
                    code="check_facing_bet",
                    params={"bet": cur, "call": cur - b},
                )
            return i, act, b
        if act is Action.CALL:
            if cur <= b:
                raise RuleError("there is no bet to call; check instead", code="nothing_to_call")
            to = min(cur, stack + b)
            if amount is not None and amount != to:
                raise RuleError(
                    f"a call is to {to}, not {amount}",
                    code="call_amount",
                    params={"to": to, "amount": amount},
                )
            return i, act, to
        return self._check_bet_or_raise(i, seat, act, amount)

    def _check_turn(self, seat: int) -> int:
        """The index of `seat`, if it is the one to act in a hand still played."""
        if self._street == _COMPLETE:
            raise RuleError("the hand is over", code="hand_over")
        i = self._seat_index.get(seat)
        if i is None:
            raise RuleError(
                f"seat {seat} is not in this hand", code="seat_not_in_hand", params={"seat": seat}
            )
        if i != self._actor:
            if self._vote:
                raise _vote_open()
            if self._actor < 0:
                raise RuleError("nobody is to act now", code="nobody_to_act")
            actor = self._seats[self._actor]
            raise RuleError(
                f"it is seat {actor}'s turn, not seat {seat}'s",
                code="not_your_turn",
                params={"actor": actor, "seat": seat},
            )
        return i

    def _check_bet_or_raise(
        self, i: int, seat: int, act: Action, amount: int | None
    ) -> tuple[int, Action, int]:
        """A bet or raise to `amount` by the player to act, checked against the betting's
        rules; an all-in for less than the bet is a call."""
        b = self._bet[i]
        cur = self._current
        stack = self._stack[i]
        if amount is None:
            raise RuleError(
                f"say how much to {act} to",
                code=_bet_or_raise(act, "bet_needs_amount", "raise_needs_amount"),
            )
        if type(amount) is not int:
            raise RuleError(
                f"{amount!r} is not a number of chips",
                code="not_a_number_of_chips",
                params={"amount": repr(amount)},
            )
        total = stack + b
        if amount == total and total <= cur:
            # An all-in for less than the bet is accepted as a call at the stack total.
            return i, Action.CALL, total
        if act is Action.BET and cur:
            raise RuleError(
                f"there is already a bet of {cur}; raise instead",
                code="bet_facing_bet",
                params={"bet": cur},
            )
        if act is Action.RAISE and not cur:
            raise RuleError("there is no bet to raise; bet instead", code="nothing_to_raise")
        blocker = self._raise_blocker(i)
        if blocker is not None:
            raise blocker
        min_to, max_to = self._raise_range(i)
        if amount > total:
            raise RuleError(
                f"{act} to {amount} is more than the {total} in front of seat {seat}",
                code=_bet_or_raise(act, "bet_above_stack", "raise_above_stack"),
                params={"amount": amount, "total": total, "seat": seat},
            )
        if amount < min_to:
            raise RuleError(
                f"{act} to {amount} is below the minimum {min_to}",
                code=_bet_or_raise(act, "bet_below_minimum", "raise_below_minimum"),
                params={"amount": amount, "minimum": min_to},
            )
        if amount > max_to:
            if self._limit:
                raise RuleError(
                    f"in limit a {act} is exactly one more bet: to {max_to}",
                    code=_bet_or_raise(act, "limit_bet_exact", "limit_raise_exact"),
                    params={"to": max_to},
                )
            raise RuleError(
                f"{act} to {amount} is above the maximum {max_to}",
                code=_bet_or_raise(act, "bet_above_maximum", "raise_above_maximum"),
                params={"amount": amount, "maximum": max_to},
            )
        unit = self._config.chip_unit
        if unit > 1 and amount % unit and amount not in (total, min_to, max_to):
            raise RuleError(
                f"{act} to {amount} is not a multiple of the chip unit {unit}",
                code=_bet_or_raise(act, "bet_not_chip_unit", "raise_not_chip_unit"),
                params={"amount": amount, "unit": unit},
            )
        return i, act, amount

    # ------------------------------------------------------------------ moves

    def act(self, seat: int, action: Action | str, amount: int | None = None) -> list[Record]:
        """Apply a move and return the records it produced; RuleError changes nothing.

        Bet and raise amounts are the street total ("raise to 40"); an all-in for less is
        accepted as a bet, raise or call at the stack total.
        """
        # The common case of _check, inlined: a move the cached legal actions allow.
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        i = -1
        if seat == legal.seat and action in legal.actions:
            act = action if action.__class__ is Action else Action(action)
            if act is _CALL_ACT:
                if amount is None or amount == legal.call_to:
                    i = self._actor
                    to = legal.call_to
            elif act is _FOLD_ACT or act is _CHECK_ACT:
                i = self._actor
                to = self._bet[i]
            elif act is _SHOW or act is _MUCK:
                i = self._actor
                to = 0
            elif (
                type(amount) is int
                and legal.min_to <= amount <= legal.max_to
                and (
                    self._config.chip_unit == 1
                    or not amount % self._config.chip_unit
                    or amount == legal.min_to
                    or amount == legal.max_to
                )
            ):
                i = self._actor
                to = amount
        if i < 0:
            i, act, to = self._check_fully(seat, action, amount)
        self._legal = None
        records = self._records
        start = len(records)
        if self._street == _SHOWDOWN:
            self._showdown_move(i, act is _SHOW)
            return records[start:]
        if act is _FOLD_ACT:
            self._folded[i] = True
            self._live -= 1
            self._need[i] = False
            records.append(folded(seat))
            if self._config.uncapped_heads_up and not self._uncapped:
                cap = self._config.raise_cap
                if self._live == 2 and (cap is None or self._bet_count < cap):
                    self._uncapped = True
        elif act is _CHECK_ACT:
            self._acted_at[i] = self._current
            self._need[i] = False
            records.append(checked(seat))
        elif act is _CALL_ACT:
            bet = self._bet
            stack = self._stack
            add = to - bet[i]
            left = stack[i] - add
            stack[i] = left
            bet[i] = to
            self._contrib[i] += add
            self._acted_at[i] = self._current
            self._need[i] = False
            records.append(make_called(seat, add, left == 0))
        else:
            self._raise_to(i, to)
            records.append(
                (make_bet if act is _BET else make_raised)(seat, to, self._stack[i] == 0)
            )
        # After the move: the round ends when one player is left or nobody else acts.
        if self._live == 1:
            self._actor = -1
            self._end_round()
        else:
            nxt = self._actor = self._next_actor(i + 1)
            if nxt < 0:
                self._end_round()
        return records[start:]

    def _raise_to(self, i: int, to: int) -> None:
        add = to - self._bet[i]
        self._stack[i] -= add
        self._bet[i] = to
        self._contrib[i] += add
        cur = self._current
        if self._limit:
            # Card room: an all-in of half a bet or more counts as a full bet or raise.
            full = 2 * (to - self._full_level) >= self._bet_size
            if full:
                self._full_level = to
                self._bet_count += 1
        else:
            inc = to - cur
            last = self._last_inc
            bb = self._config.big_blind
            full = inc >= (last if last > bb else bb)
            if full:
                self._last_inc = inc
        self._current = to
        self._last_aggressor = i
        need = self._need
        stack = self._stack
        folded = self._folded
        declared = self._declared
        acted_at = self._acted_at
        for j in range(self._n):
            if j != i and not folded[j] and not declared[j] and stack[j]:
                need[j] = True
                if full:
                    acted_at[j] = -1
        if full:
            self._last_full_raiser = i
        need[i] = False
        acted_at[i] = to

    def declare_all_in(self, seat: int) -> list[Record]:
        """House option: treat a player who timed out or disconnected as all-in.

        They stay in the hand for what they have put in (main pot and the side pots they
        reached), keep the rest of their stack and make no more moves.
        """
        i = self._check_declare_all_in(seat)
        start = len(self._records)
        self._legal = None
        self._declared[i] = True
        self._need[i] = False
        self._records.append(AllInDeclared(seat))
        if self._actor == i:
            self._after_move(i)
        elif self._actor >= 0 and not self._still_needs(self._actor):
            self._after_move(self._actor)
        return self._records[start:]

    def can_declare_all_in(self, seat: int) -> bool:
        """Whether `declare_all_in(seat)` would be accepted."""
        if not self._config.all_in_on_timeout:
            return False  # the usual table: no exception made and caught per time-out
        try:
            self._check_declare_all_in(seat)
        except RuleError:
            return False
        return True

    def _check_declare_all_in(self, seat: int) -> int:
        """Validate `declare_all_in(seat)` completely; return the seat's index."""
        if not self._config.all_in_on_timeout:
            raise RuleError(
                "this table does not treat a timed-out player as all-in",
                code="no_all_in_on_timeout",
            )
        if self._street >= _SHOWDOWN or self._vote:
            raise RuleError("the betting is over", code="betting_over")
        i = self._index(seat)
        if self._folded[i]:
            raise RuleError(f"seat {seat} has folded", code="seat_folded", params={"seat": seat})
        if self._declared[i] or not self._stack[i]:
            raise RuleError(
                f"seat {seat} is already all-in", code="seat_all_in", params={"seat": seat}
            )
        if not self._contrib[i] and not self._dead_put[i]:
            raise RuleError(
                f"seat {seat} has no chips in the pot; fold instead",
                code="nothing_in_pot",
                params={"seat": seat},
            )
        return i

    def _still_needs(self, j: int) -> bool:
        return self._need[j] and self._next_actor(j) == j

    def _contenders(self) -> int:
        return self._live

    def _after_move(self, i: int) -> None:
        if self._live == 1:
            self._actor = -1
            self._end_round()
            return
        self._actor = self._next_actor(i + 1)
        if self._actor < 0:
            self._end_round()

    def _next_actor(self, start: int) -> int:
        n = self._n
        need = self._need
        folded = self._folded
        declared = self._declared
        stack = self._stack
        bet = self._bet
        cur = self._current
        for k in range(start, start + n):
            j = k % n
            if not need[j]:
                continue
            if folded[j] or declared[j] or not stack[j]:
                need[j] = False
                continue
            if bet[j] >= cur:
                # Nothing to call and nobody left who could call a raise: no move to make.
                for o in range(n):
                    if o != j and not folded[o] and not declared[o] and stack[o]:
                        return j
                need[j] = False
                continue
            return j
        return -1

    # ------------------------------------------------------------------ after the hand

    def can_show(self, seat: int, cards: Sequence[int]) -> bool:
        """Whether `show(seat, cards)` would be accepted."""
        try:
            self._check_show(seat, cards)
        except RuleError:
            return False
        return True

    def show(self, seat: int, cards: Sequence[int]) -> list[Record]:
        """Show some of a seat's own cards once the hand is over; returns the new record.

        docs/rules.md, Home-game options: "a player may show any of their own cards after the
        hand ends (won without a showdown or folded). What is shown becomes part of the
        hand's record; no other card of a folded or mucked hand is ever revealed." Any seat
        dealt in may show, in as many goes as it likes, any of its cards not yet face up
        (shown at the showdown or before): a `CardsShown` record with exactly those cards.
        A RuleError (and nothing changes) for a hand not over, a seat not dealt in, a card
        the seat did not hold or one already shown.

        >>> from tables.engine.cards import parse_cards
        >>> from tables.engine.config import Config, Game, Structure
        >>> config = Config(Game.OMAHA, Structure.POT_LIMIT, big_blind=2)
        >>> hand = Hand.start(config, [SeatSpec(4, 100), SeatSpec(7, 100)], 7, tuple(range(52)))
        >>> _ = hand.act(7, Action.FOLD)
        >>> hand.show(7, parse_cards("2d"))
        [CardsShown(seat=7, cards=(1,))]
        >>> hand.show(7, parse_cards("2c"))
        Traceback (most recent call last):
        ...
        tables.engine.errors.RuleError: seat 7 does not hold 2c
        """
        record = CardsShown(seat, self._check_show(seat, cards))
        self._records.append(record)
        return [record]

    def _check_show(self, seat: int, cards: Sequence[int]) -> tuple[int, ...]:
        """Validate a show after the hand completely; return its cards as given."""
        if self._street != _COMPLETE:
            raise RuleError(
                "cards are shown once the hand is over, and this hand is not",
                code="show_before_hand_over",
            )
        i = self._index(seat)
        wanted = tuple(cards)
        if not wanted:
            raise RuleError("say which cards to show", code="show_no_cards")
        hole = self._hole[i]
        face_up = set(hole) if self._shown[i] else set(self._shown_after().get(i, ()))
        named: set[int] = set()
        for card in wanted:
            if type(card) is not int or not 0 <= card < 52:
                raise RuleError(
                    f"{card!r} is not a card", code="not_a_card", params={"card": repr(card)}
                )
            text = _card_text(card)
            if card in named:
                raise RuleError(
                    f"{text} is named twice", code="show_card_twice", params={"card": text}
                )
            named.add(card)
            if card not in hole:
                raise RuleError(
                    f"seat {seat} does not hold {text}",
                    code="show_card_not_held",
                    params={"seat": seat, "card": text},
                )
            if card in face_up:
                raise RuleError(
                    f"seat {seat} has already shown {text}",
                    code="show_card_already_shown",
                    params={"seat": seat, "card": text},
                )
        return wanted

    def _shown_after(self) -> dict[int, list[int]]:
        """The cards each seat (by index) showed after the hand, in the order dealt.

        Only `CardsShown` records follow `HandEnded`, so a hand nobody showed from costs one
        look at its last record (`view` runs for every snapshot of the table).
        """
        records = self._records
        if self._street != _COMPLETE or not isinstance(records[-1], CardsShown):
            return {}
        found: dict[int, set[int]] = {}
        for r in reversed(records):
            if not isinstance(r, CardsShown):
                break
            found.setdefault(self._seat_index[r.seat], set()).update(r.cards)
        return {i: [c for c in self._hole[i] if c in shown] for i, shown in found.items()}

    # ------------------------------------------------------------------ streets

    def _end_round(self) -> None:
        n = self._n
        bet = self._bet
        records = self._records
        stack = self._stack
        folded = self._folded
        declared = self._declared
        # The top bet (the first of equals) and the highest other bet, in one pass.
        top = 0
        high = bet[0]
        second = 0
        for j in range(1, n):
            v = bet[j]
            if v > high:
                second = high
                high = v
                top = j
            elif v > second:
                second = v
        if high > second:
            back = high - second
            bet[top] = second
            stack[top] += back
            self._contrib[top] -= back
            records.append(make_uncalled_returned(self._seats[top], back))
        self._collected += sum(bet)
        self._bet = [0] * n
        self._actor = -1
        if self._live == 1:
            winner = folded.index(False)
            amount = self._collected
            stack[winner] += amount
            records.append(make_pot_awarded(0, self._seats[winner], amount, Half.WHOLE, "", 1))
            self._finish()
            return
        if self._street == _RIVER:
            self._begin_showdown()
            return
        need = [not folded[j] and not declared[j] and stack[j] > 0 for j in range(n)]
        if need.count(True) <= 1:
            # No betting can follow: every hand is turned up, then the board is run out.
            for j in self._contender_order(0):
                if not self._shown[j]:
                    self._shown[j] = True
                    records.append(make_shown(self._seats[j], self._hole[j]))
            if not self._offer_run_twice():
                self._run_out()
            return
        self._deal_street()
        self._current = 0
        self._bet_count = 0
        self._full_level = 0
        self._last_inc = 0
        self._last_aggressor = -1
        self._last_full_raiser = -1
        self._bet_size = (
            self._config.big_blind if self._street == _FLOP else self._config.big_bet or 0
        )
        self._uncapped = self._config.uncapped_heads_up and self._live == 2
        self._acted_at = [-1] * n
        self._need = need
        self._actor = self._next_actor(0)
        if self._actor < 0:
            self._end_round()

    def _deal_street(self) -> None:
        self._street += 1
        deck = self._deck
        p = self._next_card
        count = _BOARD_COUNTS[self._street]
        self._records.append(make_burned(deck[p]))
        cards = deck[p + 1 : p + 1 + count]
        self._board.extend(cards)
        self._next_card = p + 1 + count
        self._records.append(make_board_dealt(_STREET_TEXTS[self._street], cards, 1))

    def _run_out(self) -> None:
        """Deal the rest of the board once and settle: nobody can bet any more."""
        while self._street < _RIVER:
            self._deal_street()
        self._street = _SHOWDOWN
        self._settle()

    # ------------------------------------------------------------------ run it twice

    def _offer_run_twice(self) -> bool:
        """Open the vote on running the board twice, if this hand may: returns whether it did.

        docs/rules.md, Home-game options: "offered when all but at most one player still in are
        all-in and cards are still to come, and no betting can follow" (the caller's case:
        the hands are turned up). Both runs come from this deck with their burns; with ten
        players all in before the flop it holds too few cards, and the board is run once.
        """
        if not self._config.run_it_twice or self._street >= _RIVER:
            return False
        per_run = sum(1 + _BOARD_COUNTS[s] for s in range(self._street + 1, _RIVER + 1))
        if self._next_card + 2 * per_run > len(self._deck):
            return False
        self._vote = self._contender_order(0)
        self._agreed = []
        self._actor = -1
        self._records.append(RunTwiceOffered(tuple(self._seats[j] for j in self._vote)))
        return True

    @property
    def run_twice_vote(self) -> RunTwiceVote | None:
        """The open vote on running the board twice (`Config.run_it_twice`), or None.

        While it is open nobody acts (`to_act` is None) and the hand waits for every player
        asked to answer with `vote_run_twice`; the table decides how long silence may last.
        """
        if not self._vote:
            return None
        seats = self._seats
        agreed = self._agreed
        return RunTwiceVote(
            tuple(seats[j] for j in self._vote),
            tuple(seats[j] for j in self._vote if j in agreed),
        )

    def can_vote_run_twice(self, seat: int) -> bool:
        """Whether `vote_run_twice(seat, ...)` would be accepted now."""
        try:
            self._check_vote(seat, True, silent=False)
        except RuleError:
            return False
        return True

    def vote_run_twice(self, seat: int, agree: bool, *, silent: bool = False) -> list[Record]:
        """A player asked whether to run the board twice answers; returns the new records.

        docs/rules.md, Home-game options: "Every player still in must agree (silence is no)."
        The first no ends the vote and the board is run once, as without the option; the
        last yes deals it twice (`_run_twice`). `silent`: the player let the time to answer
        pass, which is a no. A RuleError (and nothing changes) when no vote is open, for a
        seat not asked (not in the hand, or folded) or one that has already agreed.

        >>> from tables.engine.config import Config, Game, Structure
        >>> config = Config(Game.OMAHA, Structure.NO_LIMIT, big_blind=2, run_it_twice=True)
        >>> hand = Hand.start(config, [SeatSpec(1, 50), SeatSpec(2, 50)], 2, tuple(range(52)))
        >>> _ = hand.act(2, Action.RAISE, 50)
        >>> _ = hand.act(1, Action.CALL)
        >>> hand.run_twice_vote
        RunTwiceVote(asked=(1, 2), agreed=())
        >>> _ = hand.vote_run_twice(2, True)
        >>> _ = hand.vote_run_twice(1, True)
        >>> len(hand.boards), hand.is_complete
        (2, True)
        """
        i = self._check_vote(seat, agree, silent=silent)
        self._legal = None
        records = self._records
        start = len(records)
        records.append(RunTwiceVoted(seat, bool(agree), bool(silent)))
        if not agree:
            self._vote = []
            self._agreed = []
            self._run_out()
            return records[start:]
        self._agreed.append(i)
        if len(self._agreed) == len(self._vote):
            self._vote = []
            self._run_twice()
        return records[start:]

    def _check_vote(self, seat: int, agree: bool, *, silent: bool) -> int:
        if not self._vote:
            raise RuleError("no vote on running it twice is open", code="no_run_twice_vote")
        i = self._seat_index.get(seat)
        if i is None:
            raise RuleError(
                f"seat {seat} is not in this hand", code="seat_not_in_hand", params={"seat": seat}
            )
        if i not in self._vote:
            raise RuleError(
                f"seat {seat} is not still in the hand, so it is not asked",
                code="not_asked_run_twice",
                params={"seat": seat},
            )
        if i in self._agreed:
            raise RuleError(
                f"seat {seat} has already agreed to run it twice",
                code="run_twice_answered",
                params={"seat": seat},
            )
        if silent and agree:
            raise RuleError("silence is no: a silent answer cannot agree", code="silence_is_no")
        return i

    def _run_twice(self) -> None:
        """Deal the rest of the board twice and settle each pot's halves on their runs.

        docs/rules.md, Home-game options: "The remaining board cards are dealt twice from the
        same shuffled deck, in order, with the usual burns": the first run to the river as
        usual, then the second from where the first stopped, burn and cards street by
        street; the second board shares the cards out before the vote.
        """
        start = self._street
        shared = len(self._board)
        while self._street < _RIVER:
            self._deal_street()
        deck = self._deck
        records = self._records
        board2 = self._board[:shared]
        p = self._next_card
        for street in range(start + 1, _RIVER + 1):
            count = _BOARD_COUNTS[street]
            records.append(make_burned(deck[p]))
            cards = deck[p + 1 : p + 1 + count]
            board2.extend(cards)
            p += 1 + count
            records.append(make_board_dealt(_STREET_TEXTS[street], cards, 2))
        self._next_card = p
        self._board2 = board2
        self._street = _SHOWDOWN
        self._settle()

    @property
    def boards(self) -> tuple[tuple[int, ...], ...]:
        """The board, or both boards of a hand run twice (the first run first)."""
        if self._board2:
            return (tuple(self._board), tuple(self._board2))
        return (tuple(self._board),)

    def _contender_order(self, start: int) -> list[int]:
        n = self._n
        return [(start + k) % n for k in range(n) if not self._folded[(start + k) % n]]

    # ------------------------------------------------------------------ showdown

    def _begin_showdown(self) -> None:
        self._street = _SHOWDOWN
        # The last to bet or raise on the river shows first; else the first left of the
        # button. Hands already face up need no decision.
        start = self._last_aggressor if self._last_aggressor >= 0 else 0
        self._sd_order = [j for j in self._contender_order(start) if not self._shown[j]]
        self._sd_pos = 0
        self._next_shower()

    def _next_shower(self) -> None:
        order = self._sd_order
        if self._sd_pos < len(order):
            if self._live - len(self._muck_seq) > 1 or any(self._shown):
                self._actor = order[self._sd_pos]
                return
            # Everyone else has mucked: the last hand wins without being shown.
        self._actor = -1
        self._settle()

    def _showdown_move(self, i: int, show: bool) -> None:
        seat = self._seats[i]
        if show:
            self._shown[i] = True
            self._records.append(make_shown(seat, self._hole[i]))
        else:
            self._mucked[i] = True
            self._muck_seq.append(i)
            self._records.append(make_mucked(seat))
        self._sd_pos += 1
        self._next_shower()

    def _value(self, i: int) -> tuple[int, int | None]:
        values = self._values
        if not values:
            # Every hand still in, in one batch: the board's share of the work is done once.
            players = [j for j in range(self._n) if not self._folded[j]]
            batch = showdown_values(
                self._config.game, [self._hole[j] for j in players], self._board
            )
            values.update(zip(players, batch, strict=True))
        return values[i]

    def _value2(self, i: int) -> tuple[int, int | None]:
        """`_value` on the second run's board (a hand run twice)."""
        values = self._values2
        if not values:
            players = [j for j in range(self._n) if not self._folded[j]]
            batch = showdown_values(
                self._config.game, [self._hole[j] for j in players], self._board2
            )
            values.update(zip(players, batch, strict=True))
        return values[i]

    def showing_could_win(self, seat: int) -> bool:
        """Whether showing this hand could win any part of a pot, given what is face up.

        A table can auto-muck a hand for which this is False (it can only lose).
        """
        i = self._index(seat)
        if self._folded[i] or self._mucked[i] or len(self._board) < 5:
            return False
        hi, lo = self._value(i)
        for _, eligible in (
            self._final_pots() if self._street == _SHOWDOWN else self._pot_list(self._contrib)
        ):
            if i not in eligible:
                continue
            rivals = [j for j in eligible if j != i and not self._mucked[j]]
            if any(not self._shown[j] for j in rivals):
                return True
            best_hi = max((self._value(j)[0] for j in rivals), default=-1)
            if hi >= best_hi:
                return True
            if lo is not None:
                best_lo = max(
                    (v for j in rivals if (v := self._value(j)[1]) is not None), default=-1
                )
                if lo >= best_lo:
                    return True
        return False

    def _pot_list(self, amounts: Sequence[int]) -> list[tuple[int, list[int]]]:
        """Main and side pots from each player's contribution: (amount, eligible indices).

        Dead money (antes, dead small blinds) is the first pot, which every player still in
        plays for, even one all-in on the ante; consecutive pots with the same players are
        one pot.
        """
        n = self._n
        folded = self._folded
        pots: list[tuple[int, list[int]]] = []
        if self._dead:
            pots.append((self._dead, [i for i in range(n) if not folded[i]]))
        levels = sorted({amounts[i] for i in range(n) if not folded[i] and amounts[i] > 0})
        prev = 0
        for level in levels:
            amount = 0
            for a in amounts:
                if a > prev:
                    amount += (a if a < level else level) - prev
            eligible = [i for i in range(n) if not folded[i] and amounts[i] >= level]
            if pots and pots[-1][1] == eligible:
                amount += pots.pop()[0]
            pots.append((amount, eligible))
            prev = level
        extra = sum(a - prev for a in amounts if a > prev)
        if extra:
            if pots:
                amount, eligible = pots[-1]
                pots[-1] = (amount + extra, eligible)
            else:
                pots.append((extra, [i for i in range(n) if not folded[i]]))
        return pots

    def _final_pots(self) -> list[tuple[int, list[int]]]:
        """`_pot_list` of the contributions once the betting is over (at the showdown), made
        once: every player's show asks whether showing could win (`showing_could_win`)."""
        pots = self._showdown_pots
        if pots is None:
            pots = self._showdown_pots = self._pot_list(self._contrib)
        return pots

    def _settle(self) -> None:
        pots = self._final_pots()
        if self._board2:
            # docs/rules.md, Home-game options: "each pot (main and side) is split into two
            # halves, the odd chip to the first run; each half is settled on its own run's
            # board by the showdown rules".
            unit = self._config.chip_unit
            for k, (amount, eligible) in enumerate(pots):
                second = amount // (2 * unit) * unit
                self._settle_pot(k, amount - second, eligible, self._value, 1)
                self._settle_pot(k, second, eligible, self._value2, 2)
        else:
            for k, (amount, eligible) in enumerate(pots):
                self._settle_pot(k, amount, eligible, self._value, 1)
        self._finish()

    def _settle_pot(
        self,
        k: int,
        amount: int,
        eligible: list[int],
        value: Callable[[int], tuple[int, int | None]],
        run: int,
    ) -> None:
        """Award pot `k` (or, run twice, its half for `run`), hands valued by `value`."""
        unit = self._config.chip_unit
        mucked = self._mucked
        live = [j for j in eligible if not mucked[j]]
        if not live:
            # Each muck conceded to whoever was still live; the last to muck was.
            last = max(eligible, key=self._muck_seq.index)
            self._award(k, last, amount, Half.WHOLE, "", run)
            return
        if len(live) == 1 and not self._shown[live[0]]:
            self._award(k, live[0], amount, Half.WHOLE, "", run)
            return
        values = [value(j) for j in live]
        lows = [v[1] for v in values if v[1] is not None]
        if lows:
            low_half = amount // (2 * unit) * unit
            high_half = amount - low_half
            best_lo = max(lows)
            winners = [j for j, v in zip(live, values, strict=True) if v[1] == best_lo]
            self._split(k, high_half, live, values, Half.HIGH, run)
            self._split_among(k, low_half, winners, Half.LOW, describe_low(best_lo), run)
        else:
            self._split(k, amount, live, values, Half.WHOLE, run)

    def _split(
        self,
        k: int,
        amount: int,
        live: list[int],
        values: list[tuple[int, int | None]],
        half: Half,
        run: int = 1,
    ) -> None:
        best = max(v[0] for v in values)
        winners = [j for j, v in zip(live, values, strict=True) if v[0] == best]
        self._split_among(k, amount, winners, half, describe_high(best), run)

    def _split_among(
        self, k: int, amount: int, winners: list[int], half: Half, text: str, run: int = 1
    ) -> None:
        # Equal shares in chip units; odd chips one by one to the tied winners closest to
        # the left of the button (lowest deal index first).
        unit = self._config.chip_unit
        winners = sorted(winners)
        share = amount // (len(winners) * unit) * unit
        left = amount - share * len(winners)
        for j in winners:
            extra = min(unit, left)
            left -= extra
            self._award(k, j, share + extra, half, text, run)

    def _award(self, k: int, j: int, amount: int, half: Half, text: str, run: int = 1) -> None:
        if amount <= 0:
            return
        self._stack[j] += amount
        self._records.append(make_pot_awarded(k, self._seats[j], amount, half, text, run))

    def _finish(self) -> None:
        self._street = _COMPLETE
        self._actor = -1
        self._records.append(
            make_hand_ended(tuple(sorted((self._seats[i], self._stack[i]) for i in range(self._n))))
        )

    # ------------------------------------------------------------------ views

    @property
    def runout_from(self) -> int | None:
        """Board cards out when every hand was turned up for a run-out, else None.

        docs/rules.md: "When all but one are all-in and no betting can follow, every hand is
        turned up before the board is run out." The engine deals that run-out at once; a
        table may show it street by street from this point with `runout_view`.
        """
        board = 0
        shown = False
        for r in self._records:
            t = type(r)
            if t is Shown:
                shown = True
            elif t is BoardDealt:
                if shown:
                    return board if board < 5 else None
                board += len(r.cards)  # type: ignore[union-attr]
        return None

    def runout_view(self, seat: int | None, board_cards: int) -> dict[str, Any]:
        """`view(seat)` as the hand stood during its run-out with `board_cards` cards out.

        Only for a hand with a run-out (`runout_from` is not None), from `runout_from` up
        to the full board: the hands turned up, every chip still in the middle, no award.
        """
        start = self.runout_from
        if start is None or not start <= board_cards <= len(self._board):
            raise RuleError(
                f"this hand has no run-out with {board_cards} board cards",
                code="no_runout",
                params={"board_cards": board_cards},
            )
        out = self.view(seat)
        out["board"] = out["board"][:board_cards]
        if out["boards"] is not None:
            # Run twice: both runs are dealt to the table street by street, side by side.
            out["boards"] = [board[:board_cards] for board in out["boards"]]
        out["street"] = str(_board_street(board_cards))
        out["to_act"] = None
        out["legal_actions"] = None
        out["awards"] = []
        out["complete"] = False
        for entry, i in zip(out["seats"], range(self._n), strict=True):
            entry["stack"] = self._start_stack[i] - entry["put_in"]
            entry["bet"] = 0
            if entry["status"] == "active":
                # Awarded chips are not back in front of the player yet.
                entry["status"] = "all-in" if entry["stack"] == 0 else "active"
        return out

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What `seat` (None: a spectator) may see, JSON-ready.

        Never another player's unshown cards, the undealt deck or the burned cards. A seat's
        `cards` are its whole hand (the viewer's own, or shown at the showdown); its
        `shown_after` the cards it chose to show once the hand was over (`show`).
        """
        viewer = self._seat_index.get(seat) if seat is not None else None
        shown_after = self._shown_after()
        seats_out = []
        for i in range(self._n):
            if self._folded[i]:
                status = "folded"
            elif self._mucked[i]:
                status = "mucked"
            elif self._declared[i] or not self._stack[i]:
                status = "all-in"
            else:
                status = "active"
            visible = i == viewer or self._shown[i]
            seats_out.append(
                {
                    "seat": self._seats[i],
                    "stack": self._stack[i],
                    "bet": self._bet[i],
                    "put_in": self._contrib[i] + self._dead_put[i],
                    "status": status,
                    "shown": self._shown[i],
                    "cards": [_card_text(c) for c in self._hole[i]] if visible else None,
                    # Public once shown after the hand (Hand.show), whoever looks.
                    "shown_after": [_card_text(c) for c in shown_after.get(i, ())],
                }
            )
        legal = self.legal_actions()
        twice = bool(self._board2)
        awards = [
            {
                "pot": r.pot,
                "seat": r.seat,
                "amount": r.amount,
                "half": str(r.half),
                "hand": r.hand,
                **({"run": r.run} if twice else {}),
            }
            for r in self._records
            if type(r) is PotAwarded
        ]
        vote = self.run_twice_vote
        return {
            "config": dict(_config_json(self._config)),
            "street": str(self.street),
            "button": self._button,
            "straddle": self.straddle,
            "bomb_pot": self.bomb_pot,
            "seats": seats_out,
            "board": [_card_text(c) for c in self._board],
            # Run twice: both whole boards, the first run first (`board` is the first).
            "boards": (
                [[_card_text(c) for c in board] for board in self.boards] if twice else None
            ),
            # The open vote on running it twice: who is asked and who has agreed.
            "run_twice": (
                None if vote is None else {"asked": list(vote.asked), "agreed": list(vote.agreed)}
            ),
            "pots": [
                {"amount": amount, "eligible": list(eligible)} for amount, eligible in self.pots()
            ],
            "to_act": self.to_act,
            "legal_actions": (
                legal.to_json() if viewer is not None and legal.seat == seat else None
            ),
            "awards": awards,
            "complete": self.is_complete,
        }


def straddle_seat(
    config: Config,
    seats: Sequence[SeatSpec],
    button: int,
    *,
    dead_small_blind: bool = False,
) -> int | None:
    """The seat that may straddle a hand dealt to `seats` with this button, or None.

    docs/rules.md, Home-game options: "the player left of the big blind may post a live straddle
    of exactly twice the big blind"; with the "Mississippi" option (`Straddle.BUTTON`) "the
    button posts it". None when the table has no straddle; heads-up (the button posts the
    small blind there and acts first before the flop, so there is no seat left of the big
    blind to act after it: common practice, followed here, is no straddle heads-up); when
    the small blind is dead (a tournament's dead button; straddles are a cash table's
    option); when the player in that position posts to come in (a live or dead blind), or
    cannot post the whole straddle.

    >>> from tables.engine.config import Game, Structure
    >>> config = Config(Game.OMAHA, Structure.POT_LIMIT, big_blind=2, straddle=Straddle.BUTTON)
    >>> straddle_seat(config, [SeatSpec(1, 100), SeatSpec(4, 100), SeatSpec(6, 100)], 6)
    6
    >>> straddle_seat(config, [SeatSpec(1, 100), SeatSpec(6, 100)], 6) is None
    True
    """
    spec = _straddle_position(config, seats, button, dead_small_blind)
    if spec is None or spec.live_post or spec.dead_post or spec.stack < 2 * config.big_blind:
        return None
    return spec.seat


def _straddle_position(
    config: Config, seats: Sequence[SeatSpec], button: int, dead_small_blind: bool
) -> SeatSpec | None:
    """Who sits where the table's straddle is posted, able to post it or not."""
    if config.straddle is Straddle.NONE or dead_small_blind or len(seats) < 3:
        return None
    order = sorted(seats, key=lambda s: s.seat)
    first = next((k for k, s in enumerate(order) if s.seat > button), 0)
    order = order[first:] + order[:first]
    # Deal order: the small blind, the big blind, the player left of it, ..., the button.
    if config.straddle is Straddle.UNDER_THE_GUN:
        return order[2]
    return order[-1] if order[-1].seat == button else None


def _check_seats(
    config: Config,
    specs: Sequence[SeatSpec],
    button: int,
    dead_small_blind: bool,
    straddle: int | None,
    bomb_pot: bool,
) -> bool:
    """Refuses a hand that cannot start with these seats (sorted by seat), this button and
    these forced bets; whether any seat posts out of position."""
    if len(specs) < 2:
        raise RuleError("a hand needs at least two players", code="too_few_players")
    if len(specs) > MAX_PLAYERS:
        raise RuleError(
            f"a hand has at most {MAX_PLAYERS} players",
            code="too_many_players",
            params={"maximum": MAX_PLAYERS},
        )
    prev_seat = None
    posts = False
    for s in specs:
        # Sorted by seat, so a seat dealt in twice shows up as two neighbours.
        if s.seat == prev_seat:
            raise RuleError("each seat may be dealt in only once", code="seat_dealt_twice")
        prev_seat = s.seat
    for s in specs:
        if s.stack <= 0:
            raise RuleError(
                f"seat {s.seat} has no chips to play", code="no_chips", params={"seat": s.seat}
            )
        if s.live_post or s.dead_post:
            posts = True
            if s.live_post < 0 or s.dead_post < 0:
                raise RuleError(
                    f"seat {s.seat} cannot post a negative blind",
                    code="negative_blind",
                    params={"seat": s.seat},
                )
    if type(button) is not int or button < 0:
        raise RuleError(
            f"the button must be a seat number, not {button!r}",
            code="bad_button",
            params={"button": repr(button)},
        )
    if dead_small_blind and len(specs) == 2:
        raise RuleError(
            "heads-up the button posts the small blind: it cannot be dead",
            code="heads_up_dead_small_blind",
        )
    if straddle is not None or bomb_pot:
        _check_forced_bets(config, specs, button, dead_small_blind, straddle, bomb_pot)
    return posts


def _check_forced_bets(
    config: Config,
    specs: Sequence[SeatSpec],
    button: int,
    dead_small_blind: bool,
    straddle: int | None,
    bomb_pot: bool,
) -> None:
    """Refuse a straddle or a bomb pot `Hand.start` is asked for that the rules do not allow."""
    if bomb_pot:
        if not config.bomb_pot_ante:
            raise RuleError("this table plays no bomb pots", code="no_bomb_pots")
        if straddle is not None:
            raise RuleError(
                "a bomb pot has no betting before the flop, so no straddle",
                code="bomb_pot_straddle",
            )
        if dead_small_blind or any(s.live_post or s.dead_post for s in specs):
            raise RuleError(
                "a bomb pot has no blinds: every player posts the ante and nothing else",
                code="bomb_pot_blinds",
            )
        return
    if config.straddle is Straddle.NONE:
        raise RuleError("this table plays no straddle", code="no_straddle")
    if len(specs) < 3:
        raise RuleError("there is no straddle heads-up", code="straddle_heads_up")
    if dead_small_blind:
        raise RuleError(
            "there is no straddle when the small blind is dead", code="straddle_dead_small_blind"
        )
    spec = _straddle_position(config, specs, button, dead_small_blind)
    if spec is None:
        # The button's straddle with the button on an empty seat.
        raise RuleError("nobody is on the button to straddle", code="straddle_no_button")
    if spec.seat != straddle:
        raise RuleError(
            f"only seat {spec.seat} may straddle this hand, not seat {straddle}",
            code="straddle_position",
            params={"position": spec.seat, "seat": straddle},
        )
    if spec.live_post or spec.dead_post:
        raise RuleError(
            f"seat {straddle} posts a blind to come in and cannot straddle",
            code="straddle_posting",
            params={"seat": straddle},
        )
    if spec.stack < 2 * config.big_blind:
        raise RuleError(
            f"a straddle is twice the big blind, {2 * config.big_blind}; seat {straddle} has"
            f" {spec.stack}",
            code="straddle_short",
            params={"straddle": 2 * config.big_blind, "seat": straddle, "stack": spec.stack},
        )


@lru_cache(maxsize=256)
def _config_json(config: Config) -> dict[str, Any]:
    # Every view carries the configuration; asdict() was a tenth of a table's snapshot.
    return config.to_json()


def _board_street(cards: int) -> Street:
    return (
        Street.PREFLOP
        if cards < 3
        else Street.FLOP
        if cards == 3
        else (Street.TURN if cards == 4 else Street.RIVER)
    )


def _vote_open() -> RuleError:
    return RuleError(
        "the players still in are answering whether to run it twice; nobody acts meanwhile",
        code="run_twice_vote_open",
    )


def _bet_or_raise(act: Action, bet_code: str, raise_code: str) -> str:
    """One of two rule codes, as the refused move is a bet or a raise."""
    return bet_code if act is Action.BET else raise_code


def _cap_message(cap: int) -> RuleError:
    words = ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
    raises = cap - 1
    if raises == 0:
        return RuleError("a single bet is the cap in this round", code="cap_single_bet")
    count = words[raises] if raises < len(words) else str(raises)
    noun = "raise" if raises == 1 else "raises"
    return RuleError(
        f"a bet and {count} {noun} is the cap in this round",
        code="cap_reached",
        params={"raises": raises},
    )


def _first_difference(given: Sequence[Record], mine: Sequence[Record]) -> int:
    for k, (a, b) in enumerate(zip(given, mine, strict=False)):
        if a != b:
            return k
    return min(len(given), len(mine))
