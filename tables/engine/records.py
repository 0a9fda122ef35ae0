"""Every change to a hand as a frozen, JSON-ready record: a hand is its list of records.

One frozen class per kind of change (PokerKit's operations are the model). `record_to_json`
turns a record into a dict with a `"kind"` key and cards as text ("Ah"); `record_from_json`
reads it back. `Hand.from_records` (in `state.py`) replays the moves among them and checks
that the derived records match, so a stored list cannot disagree with the rules.

>>> record_to_json(Raised(seat=3, to=40, all_in=False))
{'kind': 'Raised', 'seat': 3, 'to': 40, 'all_in': False}
>>> record_from_json({'kind': 'Folded', 'seat': 2})
Folded(seat=2)

Callers recognise records by type, never by class name: `MOVE_RECORDS` are a player's moves,
and `record_action` turns one back into the `Action` (and amount) that made it.

>>> record_action(Raised(seat=3, to=40, all_in=False))
(<Action.RAISE: 'raise'>, 40)
>>> isinstance(Folded(seat=2), MOVE_RECORDS), isinstance(Burned(card=0), MOVE_RECORDS)
(True, False)
"""

from __future__ import annotations

from enum import StrEnum

from tables.engine._frozen import TYPE_CHECKING, Frozen, _set, maker
from tables.engine.config import Config
from tables.engine.errors import RuleError

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

_RANKS = "23456789TJQKA"
_SUITS = "cdhs"


def _card_text(card: int) -> str:
    # Same text form as cards.card_str (contract: rank * 4 + suit); kept local so the
    # records module does not depend on the evaluator package being importable.
    return _RANKS[card >> 2] + _SUITS[card & 3]


def _card_from_text(text: str) -> int:
    try:
        return _RANKS.index(text[0]) * 4 + _SUITS.index(text[1])
    except (ValueError, IndexError):
        raise RuleError(
            f"{text!r} is not a card", code="not_a_card", params={"card": text}
        ) from None


class Action(StrEnum):
    """A player's move, as `Hand.act` takes it (re-exported by `state.py`)."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    SHOW = "show"
    MUCK = "muck"


class Half(StrEnum):
    """Which share of a pot an award is."""

    WHOLE = "whole"
    HIGH = "high"
    LOW = "low"


class SeatSpec(Frozen):
    """A player dealt into a hand.

    `live_post` is a live big blind posted out of position by a player joining the table (it
    counts as that player's bet); `dead_post` is a dead small blind owed for missed blinds
    (it goes into the pot and is not a bet).
    """

    __slots__ = ("seat", "stack", "live_post", "dead_post")

    seat: int
    stack: int
    live_post: int
    dead_post: int

    def __init__(self, seat: int, stack: int, live_post: int = 0, dead_post: int = 0) -> None:
        _set(self, "seat", seat)
        _set(self, "stack", stack)
        _set(self, "live_post", live_post)
        _set(self, "dead_post", dead_post)


class HandStarted(Frozen):
    __slots__ = ("config", "seats", "button", "deck", "dead_small_blind", "straddle", "bomb_pot")

    config: Config
    seats: tuple[SeatSpec, ...]
    button: int
    deck: tuple[int, ...]
    dead_small_blind: bool
    """Nobody posts the small blind (a tournament's dead button: the player due for it has
    gone); the first seat left of the button posts the big blind. Left out of the JSON when
    False, so records stored before it existed read back unchanged."""
    straddle: int | None
    """The seat that posts a straddle this hand (`Config.straddle` says who may), or None.
    Left out of the JSON when None."""
    bomb_pot: bool
    """A bomb pot: every player posts `Config.bomb_pot_ante`, no blinds, and the betting
    starts on the flop. Left out of the JSON when False."""

    def __init__(
        self,
        config: Config,
        seats: tuple[SeatSpec, ...],
        button: int,
        deck: tuple[int, ...],
        dead_small_blind: bool = False,
        straddle: int | None = None,
        bomb_pot: bool = False,
    ) -> None:
        _set(self, "config", config)
        _set(self, "seats", seats)
        _set(self, "button", button)
        _set(self, "deck", deck)
        _set(self, "dead_small_blind", dead_small_blind)
        _set(self, "straddle", straddle)
        _set(self, "bomb_pot", bomb_pot)


class AntePosted(Frozen):
    __slots__ = ("seat", "amount", "all_in")

    seat: int
    amount: int
    all_in: bool

    def __init__(self, seat: int, amount: int, all_in: bool) -> None:
        _set(self, "seat", seat)
        _set(self, "amount", amount)
        _set(self, "all_in", all_in)


class BlindPosted(Frozen):
    __slots__ = ("seat", "amount", "blind", "all_in")

    seat: int
    amount: int
    blind: str
    """"small", "big", "live" (a new player's live big blind) or "dead" (a dead small blind)."""
    all_in: bool

    def __init__(self, seat: int, amount: int, blind: str, all_in: bool) -> None:
        _set(self, "seat", seat)
        _set(self, "amount", amount)
        _set(self, "blind", blind)
        _set(self, "all_in", all_in)


class HoleDealt(Frozen):
    __slots__ = ("seat", "cards")

    seat: int
    cards: tuple[int, ...]

    def __init__(self, seat: int, cards: tuple[int, ...]) -> None:
        _set(self, "seat", seat)
        _set(self, "cards", cards)


class Burned(Frozen):
    __slots__ = ("card",)

    card: int

    def __init__(self, card: int) -> None:
        _set(self, "card", card)


class BoardDealt(Frozen):
    __slots__ = ("street", "cards", "run")

    street: str
    cards: tuple[int, ...]
    run: int
    """2 for the second run of a board run twice (`RunTwiceVoted`); left out of the JSON
    when 1, so every other hand's records read as they always did."""

    def __init__(self, street: str, cards: tuple[int, ...], run: int = 1) -> None:
        _set(self, "street", street)
        _set(self, "cards", cards)
        _set(self, "run", run)


class Folded(Frozen):
    __slots__ = ("seat",)

    seat: int

    def __init__(self, seat: int) -> None:
        _set(self, "seat", seat)


class Checked(Frozen):
    __slots__ = ("seat",)

    seat: int

    def __init__(self, seat: int) -> None:
        _set(self, "seat", seat)


class Called(Frozen):
    __slots__ = ("seat", "amount", "all_in")

    seat: int
    amount: int
    """Chips added by the call."""
    all_in: bool

    def __init__(self, seat: int, amount: int, all_in: bool) -> None:
        _set(self, "seat", seat)
        _set(self, "amount", amount)
        _set(self, "all_in", all_in)


class Bet(Frozen):
    __slots__ = ("seat", "to", "all_in")

    seat: int
    to: int
    all_in: bool

    def __init__(self, seat: int, to: int, all_in: bool) -> None:
        _set(self, "seat", seat)
        _set(self, "to", to)
        _set(self, "all_in", all_in)


class Raised(Frozen):
    __slots__ = ("seat", "to", "all_in")

    seat: int
    to: int
    all_in: bool

    def __init__(self, seat: int, to: int, all_in: bool) -> None:
        _set(self, "seat", seat)
        _set(self, "to", to)
        _set(self, "all_in", all_in)


class AllInDeclared(Frozen):
    """House option: a player who timed out or disconnected plays on for what is in."""

    __slots__ = ("seat",)

    seat: int

    def __init__(self, seat: int) -> None:
        _set(self, "seat", seat)


class UncalledReturned(Frozen):
    __slots__ = ("seat", "amount")

    seat: int
    amount: int

    def __init__(self, seat: int, amount: int) -> None:
        _set(self, "seat", seat)
        _set(self, "amount", amount)


class Shown(Frozen):
    __slots__ = ("seat", "cards")

    seat: int
    cards: tuple[int, ...]

    def __init__(self, seat: int, cards: tuple[int, ...]) -> None:
        _set(self, "seat", seat)
        _set(self, "cards", cards)


class Mucked(Frozen):
    __slots__ = ("seat",)

    seat: int

    def __init__(self, seat: int) -> None:
        _set(self, "seat", seat)


class RunTwiceOffered(Frozen):
    """House option (`Config.run_it_twice`): the hands are turned up, cards are still to
    come and no betting can follow, so the players still in (`asked`, deal order) are asked
    whether to run the rest of the board twice. The hand waits for their `RunTwiceVoted`."""

    __slots__ = ("asked",)

    asked: tuple[int, ...]

    def __init__(self, asked: tuple[int, ...]) -> None:
        _set(self, "asked", asked)


class RunTwiceVoted(Frozen):
    """A player's answer to `RunTwiceOffered` (`Hand.vote_run_twice`). The first no ends
    the vote (one run); the last yes deals two. `silent`: the player did not answer in
    time, which counts as no; left out of the JSON when False."""

    __slots__ = ("seat", "agree", "silent")

    seat: int
    agree: bool
    silent: bool

    def __init__(self, seat: int, agree: bool, silent: bool = False) -> None:
        _set(self, "seat", seat)
        _set(self, "agree", agree)
        _set(self, "silent", silent)


class CardsShown(Frozen):
    """Cards a player chose to show once the hand was over (`Hand.show`): some or all of
    their own, never one already face up. It follows `HandEnded` and changes no chips."""

    __slots__ = ("seat", "cards")

    seat: int
    cards: tuple[int, ...]

    def __init__(self, seat: int, cards: tuple[int, ...]) -> None:
        _set(self, "seat", seat)
        _set(self, "cards", cards)


class PotAwarded(Frozen):
    __slots__ = ("pot", "seat", "amount", "half", "hand", "run")

    pot: int
    """0 is the main pot, 1 the first side pot, ..."""
    seat: int
    amount: int
    half: Half
    hand: str
    """What won: "Flush, ace high" or "8-6-4-3-2"; empty when nobody had to show."""
    run: int
    """Which run's board a half of a pot run twice was settled on (1 or 2); left out of
    the JSON when 1."""

    def __init__(
        self,
        pot: int,
        seat: int,
        amount: int,
        half: Half,
        hand: str,
        run: int = 1,
    ) -> None:
        _set(self, "pot", pot)
        _set(self, "seat", seat)
        _set(self, "amount", amount)
        _set(self, "half", half)
        _set(self, "hand", hand)
        _set(self, "run", run)


class HandEnded(Frozen):
    __slots__ = ("stacks",)

    stacks: tuple[tuple[int, int], ...]
    """(seat, final stack) for every seat dealt in, in seat order."""

    def __init__(self, stacks: tuple[tuple[int, int], ...]) -> None:
        _set(self, "stacks", stacks)


# The records a hand makes as it is played, made the fast way (`_frozen.maker`: a third
# less than calling the class), every field given. For `state.py`'s hot paths.
make_ante_posted = maker(AntePosted)
make_blind_posted = maker(BlindPosted)
make_hole_dealt = maker(HoleDealt)
make_burned = maker(Burned)
make_board_dealt = maker(BoardDealt)
make_called = maker(Called)
make_bet = maker(Bet)
make_raised = maker(Raised)
make_uncalled_returned = maker(UncalledReturned)
make_shown = maker(Shown)
make_mucked = maker(Mucked)
make_pot_awarded = maker(PotAwarded)
make_hand_ended = maker(HandEnded)
_FOLDED: dict[int, Folded] = {}
_CHECKED: dict[int, Checked] = {}
_make_folded = maker(Folded)
_make_checked = maker(Checked)


def folded(seat: int) -> Folded:
    """`Folded(seat)`, one shared record per seat (a record is an immutable value)."""
    record = _FOLDED.get(seat)
    if record is None:
        record = _make_folded(seat)
        if len(_FOLDED) < 64:
            _FOLDED[seat] = record
    return record


def checked(seat: int) -> Checked:
    """`Checked(seat)`, one shared record per seat."""
    record = _CHECKED.get(seat)
    if record is None:
        record = _make_checked(seat)
        if len(_CHECKED) < 64:
            _CHECKED[seat] = record
    return record


Record = (
    HandStarted
    | AntePosted
    | BlindPosted
    | HoleDealt
    | Burned
    | BoardDealt
    | Folded
    | Checked
    | Called
    | Bet
    | Raised
    | AllInDeclared
    | UncalledReturned
    | Shown
    | Mucked
    | PotAwarded
    | HandEnded
    | CardsShown
    | RunTwiceOffered
    | RunTwiceVoted
)

RECORD_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        HandStarted,
        AntePosted,
        BlindPosted,
        HoleDealt,
        Burned,
        BoardDealt,
        Folded,
        Checked,
        Called,
        Bet,
        Raised,
        AllInDeclared,
        UncalledReturned,
        Shown,
        Mucked,
        PotAwarded,
        HandEnded,
        CardsShown,
        RunTwiceOffered,
        RunTwiceVoted,
    )
}

Move = (
    Folded
    | Checked
    | Called
    | Bet
    | Raised
    | AllInDeclared
    | Shown
    | Mucked
    | CardsShown
    | RunTwiceVoted
)
"""A record that is a player's move."""

MOVE_RECORDS = (
    Folded,
    Checked,
    Called,
    Bet,
    Raised,
    AllInDeclared,
    Shown,
    Mucked,
    CardsShown,
    RunTwiceVoted,
)
"""The records that are a player's move (or, for AllInDeclared, stand for one): what a
replay feeds back to the hand (`Hand.apply`) and what restarts a turn clock. Every other
record follows from these and the deck. CardsShown is a move made after the hand
(`Hand.show`); RunTwiceVoted answers `Hand.vote_run_twice`. Use it with
`isinstance(record, MOVE_RECORDS)`."""

_MOVE_ACTIONS: dict[type[Any], Action] = {
    Folded: Action.FOLD,
    Checked: Action.CHECK,
    Called: Action.CALL,
    Bet: Action.BET,
    Raised: Action.RAISE,
    Shown: Action.SHOW,
    Mucked: Action.MUCK,
}


def record_action(record: Record) -> tuple[Action, int | None] | None:
    """The `Hand.act` arguments after the seat that make this move: (action, amount).

    The amount is the street total of a bet or raise ("raise to 40") and None otherwise (a
    call's amount follows from the hand). None for a record that is not an `Action`: every
    derived record, AllInDeclared, which `Hand.declare_all_in` makes, CardsShown, which
    `Hand.show` makes, and RunTwiceVoted, which `Hand.vote_run_twice` makes (`Hand.apply`
    replays any record of `MOVE_RECORDS`).
    """
    action = _MOVE_ACTIONS.get(type(record))
    if action is None:
        return None
    if isinstance(record, Bet | Raised):
        return action, record.to
    return action, None


_CARD_FIELDS = frozenset({"cards", "deck"})
# HandStarted's start options, written only when set: records stored before an option
# existed, and every hand played without it, read back and compare unchanged.
_LEFT_OUT_WHEN_UNSET = frozenset({"dead_small_blind", "straddle", "bomb_pot"})
_CARD_FIELD = "card"


def record_to_json(record: Record) -> dict[str, Any]:
    """A record as a JSON-ready dict: `{"kind": ..., field: value, ...}`, cards as text."""
    out: dict[str, Any] = {"kind": type(record).__name__}
    for name in record.__slots__:
        value = getattr(record, name)
        if name in _CARD_FIELDS:
            value = [_card_text(c) for c in value]
        elif name == _CARD_FIELD:
            value = _card_text(value)
        elif name == "config":
            value = value.to_json()
        elif name == "seats":
            value = [
                {
                    "seat": s.seat,
                    "stack": s.stack,
                    "live_post": s.live_post,
                    "dead_post": s.dead_post,
                }
                for s in value
            ]
        elif name == "stacks":
            value = [list(pair) for pair in value]
        elif name == "asked":
            value = list(value)
        elif name in _LEFT_OUT_WHEN_UNSET:
            if value is None or value is False:
                continue
        elif name == "run" or name == "silent":
            # A board run once (and an answer given in time) is written as it always was.
            if value is False or (name == "run" and value == 1):
                continue
        elif isinstance(value, StrEnum):
            value = str(value)
        out[name] = value
    return out


def record_from_json(data: dict[str, Any]) -> Record:
    """Read back what `record_to_json` wrote; raises RuleError on an unknown kind."""
    kind = data.get("kind")
    cls = RECORD_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise RuleError(
            f"unknown record kind {kind!r}", code="unknown_record", params={"kind": repr(kind)}
        )
    kwargs: dict[str, Any] = {}
    for name, value in data.items():
        if name == "kind":
            continue
        if name in _CARD_FIELDS:
            value = tuple(_card_from_text(c) for c in value)
        elif name == _CARD_FIELD:
            value = _card_from_text(value)
        elif name == "config":
            value = Config.from_json(value)
        elif name == "seats":
            value = tuple(SeatSpec(**s) for s in value)
        elif name == "stacks":
            value = tuple((int(a), int(b)) for a, b in value)
        elif name == "asked":
            value = tuple(int(seat) for seat in value)
        elif name == "half":
            value = Half(value)
        kwargs[name] = value
    try:
        record: Record = cls(**kwargs)
    except TypeError as exc:
        raise RuleError(
            f"malformed {kind} record: {exc}", code="malformed_record", params={"kind": kind}
        ) from None
    return record


def records_visible_to(records: Sequence[Record], seat: int | None) -> list[dict[str, Any]]:
    """The records as JSON, with only what the player in `seat` (None: a spectator) saw.

    The deck in `HandStarted` is dropped; other players' hole cards become "??" each unless
    they were shown (a card shown after the hand, `CardsShown`, is seen on its own); burns
    become "??". Who mucked is public, what they held is not.

    >>> from tables.engine.cards import parse_cards
    >>> dealt = [HoleDealt(1, parse_cards("AhKhQhJh")), HoleDealt(2, parse_cards("2c3c4c5c"))]
    >>> [r["cards"] for r in records_visible_to(dealt, 1)]
    [['Ah', 'Kh', 'Qh', 'Jh'], ['??', '??', '??', '??']]
    >>> later = [*dealt, CardsShown(2, parse_cards("4c"))]
    >>> [r["cards"] for r in records_visible_to(later, None)]
    [['??', '??', '??', '??'], ['??', '??', '4c', '??'], ['4c']]
    """
    shown = {r.seat for r in records if isinstance(r, Shown)}
    shown_after: dict[int, set[int]] = {}
    for r in records:
        if isinstance(r, CardsShown):
            shown_after.setdefault(r.seat, set()).update(r.cards)
    out: list[dict[str, Any]] = []
    for r in records:
        data = record_to_json(r)
        if isinstance(r, HandStarted):
            data.pop("deck", None)
        elif isinstance(r, HoleDealt):
            if r.seat != seat and r.seat not in shown:
                face_up = shown_after.get(r.seat, set())
                data["cards"] = [_card_text(c) if c in face_up else "??" for c in r.cards]
        elif isinstance(r, Burned):
            data["card"] = "??"
        out.append(data)
    return out
