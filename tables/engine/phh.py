"""PHH hand histories: read, write and replay hands in the Poker Hand History format.

PHH (https://phh.readthedocs.io) is the TOML format PokerKit reads and writes. A `.phh` file
is one hand; a `.phhs` file is several, each a TOML table (`[1]`, `[final-table-3]`, ...)
whose name is the hand's name. Players are listed in position order: p1 is the small blind,
the button is last; heads-up, p1 is the big blind and p2 the button, who posts the small
blind (`antes` and `blinds_or_straddles` are still written in role order, small blind first,
and land reversed). A tournament hand with a dead small blind (nobody posts it) has p1 post
the big blind: `blinds_or_straddles = [BB, 0, 0, ...]`, which PokerKit plays the same way.
A straddle (docs/rules.md, Home-game options) is twice the big blind in `blinds_or_straddles`,
left of the big blind (p3) or on the button (the last player); a bomb pot has no blinds, the
same ante from everyone with `ante_trimming_status = true` (each ante is its player's stake
in the pot), and a check from every player with chips before the flop, as PokerKit still
opens that round. PokerKit takes a raise over a straddle of one big blind more; the engine
asks one straddle more, so a hand played here replays there, not every PokerKit hand here.

This module is the adapter between that format and the engine: it never decides a rule.
Replay builds the deck from the cards the file deals, starts a `Hand` and feeds it the file's
moves one by one; whatever the engine refuses, the replay refuses with the engine's message.

Variant codes: PHH's own `PO` (pot-limit Omaha) and `FO/8` (fixed-limit Omaha hi/lo), and
for the other four games the same fields under `FO`, `PO/8`, `NO` and `NO/8`. A limit
replay caps a round at four bets (a bet and three raises; before the flop the big blind is
the bet), heads-up too, as the hands PokerKit plays for us are capped.

How a replay reads what PokerKit writes (each choice follows PokerKit's reader, which
applies the file's lines with its default automations and repairs nothing we accept):
- Hole cards may come in one `d dh` line per player or card by card, in any player order,
  all before the first bet; a street's board in one `d db` line or several, exactly when
  the engine deals it. Burns are never written; the deck takes unused cards for them.
- Showdown: every player the engine asks must have an `sm` line (PokerKit does not show by
  itself: without `sm` it turns a hand up as unknown cards and kills it, so the pot is
  never paid). `sm` lines may come in any order, as PokerKit allows; a bare `sm` mucks,
  `sm -` shows, `sm CARDS` shows and must be the cards dealt. When no more betting can
  follow an all-in the engine turns every hand up before the runout, and the file's `sm`
  lines confirm it there.
- When everyone else still in is all-in, the engine closes the round without asking the
  last player with chips; PokerKit asks that player to check, and its `cc` is accepted.
- Unknown cards (`??`) are dealt as stand-ins; cards a later `sm` shows fill them. A hand
  that needs a stand-in evaluated (shown at a showdown) is refused.
- `finishing_stacks` in a file are never read back; a replay computes them.
- Showing after the hand (docs/rules.md, Home-game options): an `sm` once the hand is over, by
  the player whose hand won unseen, shows that hand whole, as PokerKit allows; the replay
  records it (`Hand.show`). PokerKit refuses such a show in part or from a folded or mucked
  hand, so the writer puts those in commentary lines (`# p3 shows Ah after the hand`), which
  a replay, like PokerKit, passes over.

>>> phh = parse_phh('''
... variant = "PO"
... antes = [0, 0]
... blinds_or_straddles = [1, 2]
... min_bet = 2
... starting_stacks = [100, 100]
... actions = ["d dh p1 AhKhQhJh", "d dh p2 2c3c4c5c", "p2 f"]
... ''')
>>> phh.variant, phh.player_count, phh.actions[2]
('PO', 2, PhhAction(line='p2 f', actor=1, verb='f', cards=(), amount=None, show=None))
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Collection, Iterator, Sequence
from functools import lru_cache
from itertools import chain
from types import ModuleType

from tables.engine import _toml_subset
from tables.engine._frozen import TYPE_CHECKING, Frozen, _set
from tables.engine.cards import RANKS, SUITS, Card, parse_card
from tables.engine.config import AnteKind, Config, Game, Straddle, Structure
from tables.engine.errors import RuleError
from tables.engine.records import (
    AllInDeclared,
    AntePosted,
    Bet,
    BlindPosted,
    BoardDealt,
    Called,
    CardsShown,
    Checked,
    Folded,
    HandStarted,
    HoleDealt,
    Mucked,
    Raised,
    Record,
    RunTwiceVoted,
    SeatSpec,
    Shown,
)
from tables.engine.state import Action, Hand, Street

if TYPE_CHECKING:
    from typing import Any

VARIANTS: dict[str, tuple[Game, Structure]] = {
    "FO": (Game.OMAHA, Structure.LIMIT),
    "PO": (Game.OMAHA, Structure.POT_LIMIT),
    "NO": (Game.OMAHA, Structure.NO_LIMIT),
    "FO/8": (Game.OMAHA_HI_LO, Structure.LIMIT),
    "PO/8": (Game.OMAHA_HI_LO, Structure.POT_LIMIT),
    "NO/8": (Game.OMAHA_HI_LO, Structure.NO_LIMIT),
}
"""PHH variant code -> (game, betting structure)."""

VARIANT_CODES: dict[tuple[Game, Structure], str] = {v: k for k, v in VARIANTS.items()}

LIMIT_RAISE_CAP = 4
"""Bets a limit round allows in a replay: a bet and three raises, heads-up too."""

HOLE_CARD_COUNT = 4

REQUIRED_FIELDS: dict[Structure, tuple[str, ...]] = {
    Structure.LIMIT: (
        "variant",
        "antes",
        "blinds_or_straddles",
        "small_bet",
        "big_bet",
        "starting_stacks",
        "actions",
    ),
    Structure.POT_LIMIT: (
        "variant",
        "antes",
        "blinds_or_straddles",
        "min_bet",
        "starting_stacks",
        "actions",
    ),
    Structure.NO_LIMIT: (
        "variant",
        "antes",
        "blinds_or_straddles",
        "min_bet",
        "starting_stacks",
        "actions",
    ),
}

OPTIONAL_FIELDS: tuple[str, ...] = (
    "author",
    "event",
    "url",
    "venue",
    "address",
    "city",
    "region",
    "postal_code",
    "country",
    "time",
    "time_zone",
    "time_zone_abbreviation",
    "day",
    "month",
    "year",
    "hand",
    "level",
    "seats",
    "seat_count",
    "table",
    "players",
    "finishing_stacks",
    "winnings",
    "currency",
    "currency_symbol",
    "ante_trimming_status",
    "time_limit",
    "time_banks",
)
"""Fields PHH defines beyond the required ones; kept as they are, never used by a replay."""


class PhhError(ValueError):
    """Text that is not valid PHH, or PHH that no hand of ours can be (a second straddle, a
    stud variant, a card dealt twice). A move the rules forbid is the engine's `RuleError`."""


# --- actions -------------------------------------------------------------------------------

_PLAYER = re.compile(r"p([1-9][0-9]*)")
_AMOUNT = re.compile(r"[0-9]+(\.[0-9]*)?")


class PhhAction(Frozen):
    """One line of the `actions` field.

    `actor` is the 0-based player index (p1 is 0), None for the dealer (`d`) and for a
    no-op. `verb` is `dh`, `db`, `f`, `cc`, `cbr`, `sm` or "" (a no-op or a lone comment).
    `cards` holds None for an unknown card (`??`). For `sm`, `show` is False for a bare
    `sm` (a muck) and True otherwise; `sm -` shows the dealt cards and has no `cards`.
    """

    __slots__ = ("line", "actor", "verb", "cards", "amount", "show")

    line: str
    actor: int | None
    verb: str
    cards: tuple[Card | None, ...]
    amount: int | None
    show: bool | None

    def __init__(
        self,
        line: str,
        actor: int | None,
        verb: str,
        cards: tuple[Card | None, ...] = (),
        amount: int | None = None,
        show: bool | None = None,
    ) -> None:
        _set(self, "line", line)
        _set(self, "actor", actor)
        _set(self, "verb", verb)
        _set(self, "cards", cards)
        _set(self, "amount", amount)
        _set(self, "show", show)

    @property
    def player(self) -> str:
        return "d" if self.actor is None else f"p{self.actor + 1}"


def parse_cards_text(text: str) -> tuple[Card | None, ...]:
    """Concatenated two-character cards, `??` for an unknown card.

    >>> parse_cards_text("Ah??2c")
    (50, None, 0)
    """
    if not text or len(text) % 2:
        raise PhhError(f"{text!r} is not a list of two-character cards")
    out: list[Card | None] = []
    for i in range(0, len(text), 2):
        chunk = text[i : i + 2]
        if chunk == "??":
            out.append(None)
            continue
        try:
            out.append(parse_card(chunk))
        except RuleError:
            raise PhhError(
                f"{chunk!r} is not a card: a rank of {RANKS} then a suit of {SUITS}"
            ) from None
    return tuple(out)


def parse_amount(text: str) -> int:
    """A chip amount: a whole number (`40`, or `40.0` as TOML floats are written)."""
    if text.isdigit() and text.isascii():
        return int(text)
    if not _AMOUNT.fullmatch(text):
        raise PhhError(f"{text!r} is not an amount of chips")
    from decimal import Decimal  # noqa: PLC0415 - rare: a file's amounts are whole numbers

    value = Decimal(text)
    if value != value.to_integral_value():
        raise PhhError(f"{text!r} is not a whole number of chips")
    return int(value)


def parse_action(line: str) -> PhhAction:
    """Read one action line as PokerKit does (`pokerkit.notation.parse_action`).

    >>> parse_action("p3 cbr 40 # a raise")
    PhhAction(line='p3 cbr 40 # a raise', actor=2, verb='cbr', cards=(), amount=40, show=None)
    >>> parse_action("p2 sm").show, parse_action("d db 7c8c9c").cards
    (False, (20, 24, 28))
    """
    if not isinstance(line, str):
        raise PhhError(f"action {line!r} is not a string")
    return _parse_action(line)


@lru_cache(maxsize=4096)
def _parse_action(line: str) -> PhhAction:
    # Cached: most lines ("p2 f", "p1 cbr 40") come back hand after hand, and an action is
    # immutable.
    words = line.split()
    # A commentary starts at a lone '#' word (PokerKit splits the same way).
    if "#" in words:
        words = words[: words.index("#")]

    def player(word: str) -> int:
        found = _PLAYER.fullmatch(word)
        if not found:
            raise PhhError(f"{word!r} in {line!r} is not a player (p1, p2, ...)")
        return int(found.group(1)) - 1

    match words:
        case []:
            return PhhAction(line, None, "")
        case ["d", "db", cards]:
            return PhhAction(line, None, "db", parse_cards_text(cards))
        case ["d", "dh", who, cards]:
            return PhhAction(line, player(who), "dh", parse_cards_text(cards))
        case [who, ("f" | "cc") as verb]:
            return PhhAction(line, player(who), verb)
        case [who, "cbr", amount]:
            return PhhAction(line, player(who), "cbr", amount=parse_amount(amount))
        case [who, "sm"]:
            return PhhAction(line, player(who), "sm", show=False)
        case [who, "sm", "-"]:
            return PhhAction(line, player(who), "sm", show=True)
        case [who, "sm", cards]:
            return PhhAction(line, player(who), "sm", parse_cards_text(cards), show=True)
        case [who, ("sd" | "pb") as verb, *_]:
            player(who)
            raise PhhError(f"{line!r}: Omaha has no {'draw' if verb == 'sd' else 'bring-in'}")
        case _:
            raise PhhError(f"{line!r} is not a PHH action")


# --- a hand's fields -----------------------------------------------------------------------


def _whole(name: str, value: Any, *, minimum: int = 0) -> int:
    if type(value) is int and value >= minimum:
        return value
    from decimal import Decimal  # noqa: PLC0415 - rare: a float (TOML's as Decimal) or an error

    if isinstance(value, bool) or not isinstance(value, int | Decimal | float):
        raise PhhError(f"{name} must be a number, not {value!r}")
    if isinstance(value, Decimal | float) and not math.isfinite(value):
        raise PhhError(f"{name} {value} is not a number of chips (unknown amounts are not played)")
    if isinstance(value, Decimal | float) and value != int(value):
        raise PhhError(f"{name} {value} is not a whole number of chips")
    number = int(value)
    if number < minimum:
        raise PhhError(f"{name} {number} must be at least {minimum}")
    return number


def _whole_list(name: str, value: Any, count: int | None, *, minimum: int = 0) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise PhhError(f"{name} must be an array, not {value!r}")
    if count is not None and len(value) != count:
        raise PhhError(f"{name} has {len(value)} entries for {count} players")
    if {*map(type, value)} <= _INT_ONLY and (not value or min(value) >= minimum):
        return tuple(value)  # whole numbers all (no bool, no float): the usual file
    return tuple(_whole(f"{name}[{i}]", v, minimum=minimum) for i, v in enumerate(value))


_INT_ONLY = frozenset({int})


class PhhHand(Frozen):
    """One hand history, its fields checked for type and shape (not yet for the rules)."""

    __slots__ = (
        "variant",
        "antes",
        "blinds_or_straddles",
        "starting_stacks",
        "actions",
        "small_bet",
        "big_bet",
        "min_bet",
        "fields",
    )

    variant: str
    antes: tuple[int, ...]
    blinds_or_straddles: tuple[int, ...]
    starting_stacks: tuple[int, ...]
    actions: tuple[PhhAction, ...]
    small_bet: int | None
    big_bet: int | None
    min_bet: int | None
    fields: dict[str, Any]
    """Every other field, as read (author, players, finishing_stacks, ...)."""

    def __init__(
        self,
        variant: str,
        antes: tuple[int, ...],
        blinds_or_straddles: tuple[int, ...],
        starting_stacks: tuple[int, ...],
        actions: tuple[PhhAction, ...],
        small_bet: int | None = None,
        big_bet: int | None = None,
        min_bet: int | None = None,
        fields: dict[str, Any] | None = None,
    ) -> None:
        _set(self, "variant", variant)
        _set(self, "antes", antes)
        _set(self, "blinds_or_straddles", blinds_or_straddles)
        _set(self, "starting_stacks", starting_stacks)
        _set(self, "actions", actions)
        _set(self, "small_bet", small_bet)
        _set(self, "big_bet", big_bet)
        _set(self, "min_bet", min_bet)
        _set(self, "fields", {} if fields is None else fields)

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)

    @property
    def game(self) -> Game:
        return VARIANTS[self.variant][0]

    @property
    def dead_small_blind(self) -> bool:
        """Three or more players and only p1 posts a blind: the small blind is dead and p1
        posts the big blind (a tournament's dead button)."""
        blinds = self.blinds_or_straddles
        return len(blinds) > 2 and blinds[0] > 0 and not any(blinds[1:])

    @property
    def bomb_pot(self) -> bool:
        """No blind and an ante from everyone: a bomb pot (docs/rules.md, Home-game options),
        whose first betting round is on the flop."""
        return not any(self.blinds_or_straddles) and any(self.antes)

    @property
    def straddle_index(self) -> int | None:
        """Where a straddle stands in `blinds_or_straddles`: 2, left of the big blind, or
        the button's (last) for the "Mississippi" straddle; None without one. Three-handed
        the two are one seat. Anything else past the blinds is left for `config` to refuse."""
        blinds = self.blinds_or_straddles
        if not any(blinds[2:]):
            return None
        extra = [i for i in range(2, len(blinds)) if blinds[i]]
        if len(extra) == 1 and extra[0] in (2, len(blinds) - 1):
            return extra[0]
        return None

    @property
    def runout_count(self) -> int:
        """How many times the board was run: 2 for a hand run twice, else 1.

        PHH writes each run's board cards as `d db` lines, one run after the other (as
        PokerKit's multi-runout hands are dealt), but has no action for the players' choice
        of how many runs; our files say it in the user-defined field `_runout_count`
        (docs/engine-contract.md, "Hand histories").
        """
        value = self.fields.get("_runout_count", 1)
        if isinstance(value, bool) or value not in (1, 2):
            raise PhhError(f"_runout_count must be 1 or 2, not {value!r}")
        return int(value)

    @property
    def big_blind_index(self) -> int:
        """Where the big blind stands in the role-ordered `antes` and `blinds_or_straddles`."""
        return 0 if self.dead_small_blind else 1

    @property
    def structure(self) -> Structure:
        return VARIANTS[self.variant][1]

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> PhhHand:
        """Check a decoded TOML table: the variant, the fields it requires and their shapes."""
        variant = data.get("variant")
        if variant is None:
            raise PhhError("missing required field 'variant'")
        if not isinstance(variant, str) or variant not in VARIANTS:
            raise PhhError(
                f"variant {variant!r} is not an Omaha code this engine plays"
                f" ({', '.join(VARIANTS)})"
            )
        structure = VARIANTS[variant][1]
        for name in REQUIRED_FIELDS[structure]:
            if name not in data:
                raise PhhError(f"missing required field {name!r} for variant {variant}")
        stacks = _whole_list("starting_stacks", data["starting_stacks"], None, minimum=1)
        count = len(stacks)
        if count < 2:
            raise PhhError(f"a hand needs at least two players, not {count}")
        actions = data["actions"]
        if not isinstance(actions, list):
            raise PhhError(f"actions must be an array of strings, not {actions!r}")
        known = set(REQUIRED_FIELDS[structure])
        rest = {k: v for k, v in data.items() if k not in known}
        return cls(
            variant=variant,
            antes=_whole_list("antes", data["antes"], count),
            blinds_or_straddles=_whole_list(
                "blinds_or_straddles", data["blinds_or_straddles"], count
            ),
            starting_stacks=stacks,
            actions=tuple(map(parse_action, actions)),
            small_bet=_whole("small_bet", data["small_bet"], minimum=1)
            if structure is Structure.LIMIT
            else None,
            big_bet=_whole("big_bet", data["big_bet"], minimum=1)
            if structure is Structure.LIMIT
            else None,
            min_bet=_whole("min_bet", data["min_bet"], minimum=1)
            if structure is not Structure.LIMIT
            else None,
            fields=rest,
        )

    def config(self) -> Config:
        """The engine configuration this hand is played under.

        `blinds_or_straddles` must be a small and a big blind, and at most one straddle of
        twice the big blind left of the big blind (index 2) or on the button (the last
        index); `antes` every player alike, or the big blind's alone (index 1, role order, so
        heads-up it lands on p1, the big blind). No blinds and antes from everyone alike is
        a bomb pot, whose big blind is `min_bet` (`small_bet` in limit). In limit the big
        blind is the small bet.
        """
        blinds = self.blinds_or_straddles
        straddle = self.straddle_index
        if any(blinds[2:]) and straddle is None:
            raise PhhError(
                f"blinds_or_straddles {list(blinds)}: past the blinds only one straddle is"
                " played here, left of the big blind or on the button"
            )
        if straddle is not None and blinds[straddle] != 2 * blinds[1]:
            raise PhhError(
                f"blinds_or_straddles {list(blinds)}: a straddle is twice the big blind"
                f" {blinds[1]}, not {blinds[straddle]}"
            )
        if self.bomb_pot:
            return self.bomb_pot_config()
        small_blind, big_blind = self._blinds()
        ante, kind = self._ante()
        try:
            return _config(
                game=self.game,
                structure=self.structure,
                big_blind=big_blind,
                small_blind=small_blind,
                ante=ante,
                ante_kind=kind,
                big_bet=self.big_bet,
                raise_cap=LIMIT_RAISE_CAP if self.structure is Structure.LIMIT else None,
                uncapped_heads_up=False,
                straddle=(
                    Straddle.NONE
                    if straddle is None
                    else Straddle.UNDER_THE_GUN
                    if straddle == 2
                    else Straddle.BUTTON
                ),
            )
        except RuleError as exc:
            raise PhhError(str(exc)) from None

    def _blinds(self) -> tuple[int | None, int]:
        """The small blind (None when it is dead) and the big blind, checked against the
        betting's sizes."""
        blinds = self.blinds_or_straddles
        small_blind: int | None
        if self.dead_small_blind:
            small_blind, big_blind = None, blinds[0]
        else:
            small_blind, big_blind = blinds[0], blinds[1]
        if big_blind < 1:
            raise PhhError(f"the big blind must be positive, not {big_blind}")
        if self.structure is Structure.LIMIT:
            assert self.small_bet is not None and self.big_bet is not None
            if big_blind != self.small_bet:
                raise PhhError(
                    f"the big blind {big_blind} must equal the small bet {self.small_bet}"
                    " in a limit game"
                )
        else:
            assert self.min_bet is not None
            if big_blind != self.min_bet:
                raise PhhError(f"min_bet {self.min_bet} must equal the big blind {big_blind}")
        return small_blind, big_blind

    def _ante(self) -> tuple[int, AnteKind]:
        """The ante and who pays it: everyone alike, the big blind alone, or nobody."""
        antes = self.antes
        trimming = self.fields.get("ante_trimming_status", False)
        if not isinstance(trimming, bool):
            raise PhhError(f"ante_trimming_status must be true or false, not {trimming!r}")
        if trimming and (len(set(antes)) > 1 or any(map(operator.le, self.starting_stacks, antes))):
            # PokerKit's trimming hands back the part of an ante nobody matched (all of a
            # big-blind ante); here antes are dead money, paid in full.
            raise PhhError("ante_trimming_status = true: antes here are paid in full, untrimmed")
        if not any(antes):
            ante, kind = 0, AnteKind.NONE
        elif len(set(antes)) == 1:
            ante, kind = antes[0], AnteKind.EACH
        elif not any(a for i, a in enumerate(antes) if i != self.big_blind_index):
            ante, kind = antes[self.big_blind_index], AnteKind.BIG_BLIND
        else:
            raise PhhError(
                f"antes {list(antes)} are neither the same for everyone nor the big blind's alone"
            )
        return ante, kind

    def bomb_pot_config(self) -> Config:
        """A bomb pot's configuration: every ante alike, the big blind from the bet size.

        A bomb pot's antes are each player's stake in the pot (`Hand._post_bomb_pot_antes`),
        which is PokerKit's `ante_trimming_status = true`; with it false a short ante is
        dead money there, so a file that says so and has a stack no larger than its ante
        plays differently and is refused.
        """
        antes = self.antes
        if len(set(antes)) > 1:
            raise PhhError(f"antes {list(antes)}: a bomb pot's antes are the same for everyone")
        trimming = self.fields.get("ante_trimming_status", False)
        if not isinstance(trimming, bool):
            raise PhhError(f"ante_trimming_status must be true or false, not {trimming!r}")
        if not trimming and any(map(operator.le, self.starting_stacks, antes)):
            raise PhhError(
                "ante_trimming_status = false: a bomb pot's short ante is its player's stake,"
                " not dead money"
            )
        big_blind = self.small_bet if self.structure is Structure.LIMIT else self.min_bet
        assert big_blind is not None
        try:
            return _config(
                game=self.game,
                structure=self.structure,
                big_blind=big_blind,
                big_bet=self.big_bet,
                raise_cap=LIMIT_RAISE_CAP if self.structure is Structure.LIMIT else None,
                uncapped_heads_up=False,
                bomb_pot_ante=antes[0],
            )
        except RuleError as exc:
            raise PhhError(str(exc)) from None


@lru_cache(maxsize=256)
def _config(**fields: Any) -> Config:
    """`Config(**fields)`, shared by the hands played under the same one (it is frozen)."""
    return Config(**fields)


# --- reading files -------------------------------------------------------------------------


def _tomllib() -> ModuleType:
    """`tomllib`, imported on first need: hand histories in the plain TOML of
    `_toml_subset` (ours, PokerKit's) never need it, and a replay starts faster without."""
    import tomllib  # noqa: PLC0415 - see the docstring

    return tomllib


def _loads(text: str) -> dict[str, Any]:
    fast = _toml_subset.loads(text)
    if fast is not None:
        return fast
    tomllib = _tomllib()
    try:
        document: dict[str, Any] = tomllib.loads(text, parse_float=_toml_subset.decimal)
    except tomllib.TOMLDecodeError as exc:
        raise PhhError(f"not valid TOML: {exc}") from None
    return document


def parse_phh(text: str) -> PhhHand:
    """One hand from the text of a `.phh` file."""
    return PhhHand.from_fields(_loads(text))


# A table header on a line of its own: `[name]`, `["a name"]`, `[a.b]` (no `[[arrays]]`).
_HEADER = re.compile(
    r"""^[ \t]*\[(?!\[)[ \t]*((?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')"""
    r"""(?:[ \t]*\.[ \t]*(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*'))*)[ \t]*\][ \t]*(?:#.*)?$"""
)


def _header_name(raw: str) -> str:
    tomllib = _tomllib()
    try:
        parsed = tomllib.loads(f"[{raw}]\n")
    except tomllib.TOMLDecodeError:
        return raw
    parts: list[str] = []
    node: Any = parsed
    while isinstance(node, dict) and len(node) == 1:
        key = next(iter(node))
        parts.append(key)
        node = node[key]
    return ".".join(parts) or raw


class HandEntry(Frozen):
    """One hand of a file: its name and either its fields or why they cannot be read."""

    __slots__ = ("name", "data", "error")

    name: str
    data: dict[str, Any] | None
    error: str | None

    def __init__(self, name: str, data: dict[str, Any] | None, error: str | None = None) -> None:
        _set(self, "name", name)
        _set(self, "data", data)
        _set(self, "error", error)


def split_phhs(text: str) -> list[HandEntry]:
    """The hands of a `.phhs` file, in file order, named by their TOML tables.

    A file TOML can read gives one entry per top-level table. One it cannot (a hand with
    malformed TOML among good ones) is cut at its table headers and each part read alone,
    so one broken hand does not hide the others.
    """
    document = _toml_subset.loads(text)
    if document is None:
        tomllib = _tomllib()
        try:
            document = tomllib.loads(text, parse_float=_toml_subset.decimal)
        except tomllib.TOMLDecodeError:
            return _split_by_headers(text)
    if document and all(not isinstance(v, dict) for v in document.values()):
        raise PhhError("a .phhs file holds its hands as TOML tables ([1], [2], ...)")
    entries = []
    for name, value in document.items():
        if isinstance(value, dict):
            entries.append(HandEntry(str(name), value))
        else:
            entries.append(HandEntry(str(name), None, f"{name!r} is not a hand (a TOML table)"))
    return entries


def _split_by_headers(text: str) -> list[HandEntry]:
    lines = text.splitlines(keepends=True)
    starts: list[tuple[int, str]] = []
    for i, line in enumerate(lines):
        found = _HEADER.match(line)
        if found:
            starts.append((i, _header_name(found.group(1))))
    entries: list[HandEntry] = []
    if not starts:
        try:
            _loads(text)
        except PhhError as exc:
            raise PhhError(str(exc)) from None
        raise PhhError("a .phhs file holds its hands as TOML tables ([1], [2], ...)")
    preamble = "".join(lines[: starts[0][0]])
    if preamble.strip():
        try:
            if _loads(preamble):
                entries.append(HandEntry("", None, "keys before the first hand's table"))
        except PhhError as exc:
            entries.append(HandEntry("", None, str(exc)))
    seen: set[str] = set()
    for k, (start, name) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else len(lines)
        body = "".join(lines[start + 1 : end])
        if name in seen:
            entries.append(HandEntry(name, None, f"not valid TOML: hand {name!r} is defined twice"))
            continue
        seen.add(name)
        try:
            entries.append(HandEntry(name, _loads(body)))
        except PhhError as exc:
            entries.append(HandEntry(name, None, str(exc)))
    return entries


def read_hands(path: str, text: str) -> list[HandEntry]:
    """The hands of a `.phh` (one, named by the file) or `.phhs` file (named by table)."""
    if path.endswith(".phhs"):
        return split_phhs(text)
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    try:
        return [HandEntry(name, _loads(text))]
    except PhhError as exc:
        return [HandEntry(name, None, str(exc))]


# --- writing -------------------------------------------------------------------------------


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    from decimal import Decimal  # noqa: PLC0415 - rare: a float read from a file

    if isinstance(value, Decimal):
        return str(value)
    if hasattr(value, "isoformat"):
        return str(value.isoformat())
    raise PhhError(f"cannot write {value!r} in PHH")


def _toml_string(text: str) -> str:
    """A TOML basic string: JSON's (the same escapes), written here when nothing needs one
    (what `json.dumps(text, ensure_ascii=False)` gives) so that the engine need not import
    `json`."""
    if text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    import json  # noqa: PLC0415 - rare: a string with a quote or a control character

    return json.dumps(text, ensure_ascii=False)


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_string(key)


def dumps_fields(fields: dict[str, Any]) -> str:
    """TOML text of one hand's fields; `actions` one per line for a human reader."""
    lines = []
    for key, value in fields.items():
        if value is None:
            continue
        if key == "actions":
            body = "".join(f"  {_toml_value(a)},\n" for a in value)
            lines.append(f"actions = [\n{body}]")
        else:
            lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


def dumps_phhs(hands: Sequence[tuple[str, str]]) -> str:
    """A `.phhs` file from (name, `.phh` text) pairs."""
    return "\n".join(f"[{_toml_key(name)}]\n{text}" for name, text in hands)


# --- the deck a file deals ----------------------------------------------------------------


class DealtDeck(Frozen):
    """The 52-card order that makes the engine deal what the file deals.

    Hole cards go in dealing order (round by round from p1, the button's left), then for
    each street a burn and its board cards. A slot the file leaves unknown (`??`, or a burn,
    which PHH never names) takes the lowest card the file does not use, so the same file
    always gives the same deck. `unknown_holes` are the players holding such a stand-in;
    `unknown_board` says the board has one. A replay refuses the hand if a stand-in would
    have to be evaluated.
    """

    __slots__ = ("deck", "unknown_holes", "unknown_board")

    deck: tuple[Card, ...]
    unknown_holes: frozenset[int]
    unknown_board: bool

    def __init__(
        self,
        deck: tuple[Card, ...],
        unknown_holes: frozenset[int],
        unknown_board: bool,
    ) -> None:
        _set(self, "deck", deck)
        _set(self, "unknown_holes", unknown_holes)
        _set(self, "unknown_board", unknown_board)


_STREET_SIZES = (3, 1, 1)
_ALL_CARDS = frozenset(range(52))
_STREET_NAMES = ("flop", "turn", "river")
# A second run's streets by its number of cards: from the flop, the turn or the river.
_SECOND_RUN_STREETS = {5: (3, 1, 1), 2: (1, 1), 1: (1,)}


def build_deck(hand: PhhHand) -> DealtDeck:
    n = hand.player_count
    if HOLE_CARD_COUNT * n + 8 > 52:
        raise PhhError(f"{n} players cannot all be dealt Omaha from one deck")
    holes, board, second, shown = _cards_dealt(hand)
    dealt_cards = [*chain.from_iterable(holes), *board, *second]
    if None in dealt_cards:
        dealt_cards = [c for c in dealt_cards if c is not None]
    known: list[Card] = dealt_cards  # type: ignore[assignment]  # no None left
    seen: set[Card] = set(known)
    if len(seen) < len(known):
        seen.clear()
        for dealt in known:
            if dealt in seen:
                raise PhhError(f"card {_card_text(dealt)} is dealt twice")
            seen.add(dealt)
    _holes_filled_from_shows(holes, shown, seen)
    spare = iter(sorted(_ALL_CARDS.difference(seen)))
    unknown_holes: set[int] = set()
    deck: list[Card] = []
    if len(seen) == len(known) == HOLE_CARD_COUNT * n + len(board) + len(second):
        # Every card known and every hole whole (none holds more than four): the usual
        # file. The hole cards are dealt round by round from p1.
        deck = list(chain.from_iterable(zip(*holes, strict=True)))
    else:
        for r in range(HOLE_CARD_COUNT):
            for player in range(n):
                card = holes[player][r] if r < len(holes[player]) else None
                if card is None:
                    unknown_holes.add(player)
                    card = next(spare)
                deck.append(card)
    unknown_board = _board_dealt(deck, board, second, spare)
    deck.extend(spare)
    return DealtDeck(tuple(deck), frozenset(unknown_holes), unknown_board)


def _cards_dealt(
    hand: PhhHand,
) -> tuple[
    list[list[Card | None]],
    list[Card | None],
    list[Card | None],
    dict[int, tuple[Card | None, ...]],
]:
    """Each player's hole cards, the board and a second run's board, as the file deals
    them (None where it deals an unknown card), each street's size checked; and the cards
    each player shows (their last show)."""
    n = hand.player_count
    holes: list[list[Card | None]] = [[] for _ in range(n)]
    board: list[Card | None] = []
    # A board run twice: the second run's cards, dealt after the first run's river.
    second: list[Card | None] = []
    twice = hand.runout_count == 2
    shown: dict[int, tuple[Card | None, ...]] = {}
    street = in_street = 0
    for action in hand.actions:
        if action.actor is not None and action.actor >= n:
            raise PhhError(f"{action.line!r}: there is no {action.player} in a hand of {n}")
        if action.verb == "dh":
            assert action.actor is not None
            holes[action.actor].extend(action.cards)
            if len(holes[action.actor]) > HOLE_CARD_COUNT:
                raise PhhError(
                    f"{action.line!r}: {action.player} is dealt more than {HOLE_CARD_COUNT}"
                    " hole cards"
                )
        elif action.verb == "db":
            # PokerKit deals a street in one line or in several (one card at a time).
            if street >= len(_STREET_SIZES) and twice:
                if len(second) + len(action.cards) > sum(_STREET_SIZES):
                    raise PhhError(f"{action.line!r}: the second run is already complete")
                second.extend(action.cards)
                continue
            if street >= len(_STREET_SIZES):
                raise PhhError(f"{action.line!r}: the board is already complete")
            left = _STREET_SIZES[street] - in_street
            if len(action.cards) > left:
                size = _STREET_SIZES[street]
                raise PhhError(
                    f"{action.line!r}: the {_STREET_NAMES[street]} is {size}"
                    f" card{'s' if size > 1 else ''}; this line deals {len(action.cards)}"
                    + (f" after {in_street}" if in_street else "")
                )
            in_street += len(action.cards)
            if in_street == _STREET_SIZES[street]:
                street, in_street = street + 1, 0
            board.extend(action.cards)
        elif action.verb == "sm" and action.cards:
            assert action.actor is not None
            shown[action.actor] = action.cards
    return holes, board, second, shown


def _holes_filled_from_shows(
    holes: list[list[Card | None]], shown: dict[int, tuple[Card | None, ...]], seen: set[Card]
) -> None:
    """A player dealt unknown cards who later shows them: the shown cards fill the gaps,
    and join `seen`."""
    for player, cards in shown.items():
        hole = holes[player]
        if None not in hole:
            continue
        extra = [c for c in cards if c is not None and c not in hole]
        for k, card in enumerate(hole):
            if card is None and extra and extra[0] not in seen:
                hole[k] = extra.pop(0)
                seen.add(hole[k])  # type: ignore[arg-type]


def _board_dealt(
    deck: list[Card], board: list[Card | None], second: list[Card | None], spare: Iterator[Card]
) -> bool:
    """Adds the burns and the board (then a second run's) to `deck`, a spare card where the
    file deals an unknown one; whether the board has such a stand-in."""
    unknown_board = False
    position = 0
    for size in _STREET_SIZES:
        deck.append(next(spare))  # the burn
        for _ in range(size):
            card = board[position] if position < len(board) else None
            position += 1
            if card is None:
                if position <= len(board):
                    unknown_board = True
                card = next(spare)
            deck.append(card)
    if second:
        # The rest of the board from the street the players went all in on, run again from
        # the same deck with its burns (docs/rules.md, Home-game options: "Run it twice").
        sizes = _SECOND_RUN_STREETS.get(len(second))
        if sizes is None:
            raise PhhError(
                f"the second run deals {len(second)} board cards; the rest of a board is"
                " 5 (flop, turn, river), 2 (turn, river) or 1 (river)"
            )
        position = 0
        for size in sizes:
            deck.append(next(spare))  # the burn
            for _ in range(size):
                card = second[position]
                position += 1
                if card is None:
                    unknown_board = True
                    card = next(spare)
                deck.append(card)
    return unknown_board


def _card_text(card: Card) -> str:
    return RANKS[card >> 2] + SUITS[card & 3]


def _cards_text(cards: Sequence[Card | None]) -> str:
    return "".join("??" if c is None else _card_text(c) for c in cards)


# --- replay --------------------------------------------------------------------------------


# Record kinds looked for on every move, as tuples: `isinstance(r, A | B)` builds the union
# anew at each call, several times slower.
_BOARD_OR_SHOWN = (BoardDealt, Shown)
_BET_OR_RAISE = (Bet, Raised)
# What `Replay.pokerkit_idle_check` looks for, by record class.
_STREET_DEALT, _POST, _BET_OR_RAISE_KIND, _CALL_KIND, _CHECK_KIND, _FOLD_KIND = range(6)
_IDLE_KINDS: dict[type, int] = {
    BoardDealt: _STREET_DEALT,
    AntePosted: _POST,
    BlindPosted: _POST,
    Bet: _BET_OR_RAISE_KIND,
    Raised: _BET_OR_RAISE_KIND,
    Called: _CALL_KIND,
    Checked: _CHECK_KIND,
    Folded: _FOLD_KIND,
}
_OUT = (Folded, Mucked)
_FOLD, _CHECK, _CALL = Action.FOLD, Action.CHECK, Action.CALL
# An enum's member read from its class costs ten times a module global's (Python 3.11).
_PREFLOP, _SHOWDOWN = Street.PREFLOP, Street.SHOWDOWN


def _player_seat(player: int) -> int:
    """Replays seat PHH player p(k+1) in seat k+1; the button is the last seat."""
    return player + 1


def replay(hand: PhhHand) -> Hand:
    """Play the hand history on the engine, strictly; return the finished `Hand`.

    Raises `PhhError` for what is not valid PHH or is dealt wrong (a card twice, hole cards
    after the betting began, a board card before its round, an `sm` that shows other cards
    than the player holds) and the engine's `RuleError` for a move the rules forbid. A hand
    whose actions stop before the pot is awarded is refused too: PokerKit's reader, with
    its default automations, needs an `sm` line for every showdown player (without one it
    turns the hand up as unknown cards and kills it), so a showdown is complete only when
    every player the engine asks has shown or mucked.

    A hand run twice (`_runout_count = 2`) is replayed with the table's option on and
    every player agreeing when the engine asks (`Replay.agree_to_run_twice`).
    """
    config = hand.config()
    if hand.runout_count == 2:
        config = Config.from_json({**config.to_json(), "run_it_twice": True})
    n = hand.player_count
    dealt = build_deck(hand)
    try:
        game = Hand.start(
            config,
            [SeatSpec(_player_seat(i), stack) for i, stack in enumerate(hand.starting_stacks)],
            _player_seat(n - 1),
            dealt.deck,
            dead_small_blind=hand.dead_small_blind,
            straddle=None if hand.straddle_index is None else _player_seat(hand.straddle_index),
            bomb_pot=hand.bomb_pot,
        )
    except RuleError as exc:
        raise PhhError(str(exc)) from None
    Replay(hand, game, dealt).run()
    return game


class Replay:
    """The walk through one file's actions beside the engine's records.

    Every card the engine deals and every hand it turns up by itself (at an all-in) must be
    confirmed by the file, in place: `pending` holds those records until their `d db` or
    `sm` line arrives, and no player may move while any is outstanding.
    """

    def __init__(self, hand: PhhHand, game: Hand, dealt: DealtDeck) -> None:
        self.hand = hand
        self.game = game
        self.dealt = dealt
        self.n = hand.player_count
        self.lines = [a for a in hand.actions if a.verb]
        self.hole_given = [0] * self.n
        self.betting_began = False
        self.idle_check: int | None = None
        # A hand can be settled by its forced bets alone (everyone all-in on the blinds and
        # antes): then the start already shows the hands and runs the board out.
        started = [*game.records, *self.agree_to_run_twice()]
        self.pending: list[Record] = [r for r in started if isinstance(r, _BOARD_OR_SHOWN)]
        self.position = 0
        # A bomb pot has no betting before the flop, but PokerKit still opens a first round
        # (p1 first) for every player with chips left after the antes, so its files record
        # a check from each: expected here in that order, before the flop's `d db`.
        ante = game.config.bomb_pot_ante
        able = [i for i, stack in enumerate(hand.starting_stacks) if stack > ante]
        self.bomb_checks = able if game.bomb_pot and len(able) > 1 else []

    def run(self) -> None:
        lines = self.lines
        n = self.n
        count = len(lines)
        while self.position < count:
            action = lines[self.position]
            actor = action.actor
            if actor is not None and actor >= n:
                raise PhhError(f"{action.line!r}: there is no {action.player} in a hand of {n}")
            verb = action.verb
            if verb == "dh":
                self.deal_hole(action)
            else:
                if not self.betting_began:
                    self.check_hole_cards_dealt(action)
                if verb != "cc" and verb != "f" and verb != "cbr":
                    self.idle_check = None
                if self.bomb_checks:
                    self.bomb_pot_check(action)
                elif verb == "db":
                    self.deal_board(action)
                elif verb == "sm":
                    self.showdown(action)
                else:
                    self.move(action)
            self.position += 1
        self.finish()

    def bomb_pot_check(self, action: PhhAction) -> None:
        """One of the checks PokerKit records before a bomb pot's flop."""
        player = self.bomb_checks[0]
        if action.verb == "cc" and action.actor == player:
            self.bomb_checks.pop(0)
            return
        if action.verb in ("f", "cbr"):
            raise RuleError(
                f"{action.line!r}: a bomb pot has no betting before the flop",
                code="bomb_pot_no_preflop_betting",
            )
        raise PhhError(
            f"{action.line!r}: before a bomb pot's flop every player with chips checks, in"
            f" order; p{player + 1} checks (cc) next"
        )

    # dealing

    def deal_hole(self, action: PhhAction) -> None:
        # The engine's deck was built from these very lines (`build_deck`), so the cards
        # are what it dealt; only the count is followed, for the betting's start.
        assert action.actor is not None
        if self.betting_began:
            raise PhhError(f"{action.line!r}: hole cards are dealt before the betting")
        self.hole_given[action.actor] += len(action.cards)

    def check_hole_cards_dealt(self, action: PhhAction) -> None:
        if self.betting_began:
            return
        for player, count in enumerate(self.hole_given):
            if count != HOLE_CARD_COUNT:
                raise PhhError(
                    f"{action.line!r}: p{player + 1} has {count} hole cards; every player"
                    f" is dealt {HOLE_CARD_COUNT} before the betting"
                )
        self.betting_began = True

    def deal_board(self, action: PhhAction) -> None:
        record = self.pending[0] if self.pending else None
        if not isinstance(record, BoardDealt):
            if isinstance(record, Shown):
                raise PhhError(
                    f"{action.line!r}: at an all-in every hand is turned up before the board"
                    f" is run out; p{_player_index(record.seat) + 1} has not shown (sm)"
                )
            if self.game.is_complete:
                raise PhhError(f"{action.line!r}: the hand is over")
            raise PhhError(f"{action.line!r}: no board card is due before the betting round ends")
        dealt, rest = record.cards[: len(action.cards)], record.cards[len(action.cards) :]
        if len(dealt) < len(action.cards) or any(
            c is not None and c != d for c, d in zip(action.cards, dealt, strict=True)
        ):
            raise PhhError(  # pragma: no cover - the deck is built from these very lines
                f"{action.line!r}: the {record.street} dealt is {_cards_text(record.cards)}"
            )
        if rest:
            # A street dealt over several lines: the rest of it is still to come.
            self.pending[0] = BoardDealt(record.street, rest, record.run)
        else:
            self.pending.pop(0)

    # betting

    def move(self, action: PhhAction) -> None:
        actor = action.actor
        assert actor is not None
        verb = action.verb
        idle = self.idle_check
        if idle is not None:
            self.idle_check = None
            if verb == "cc" and actor == idle:
                return
        if self.pending:
            raise PhhError(f"{action.line!r}: {self.describe_pending()} comes first")
        game = self.game
        seat = actor + 1  # _player_seat
        if game.is_complete:
            raise PhhError(f"{action.line!r}: the hand is over")
        legal = game.legal_actions()
        choice: Action
        amount: int | None = None
        if verb == "f":
            choice = _FOLD
        elif verb == "cc":
            choice = _CHECK if _CHECK in legal.actions else _CALL
        else:
            amount = action.amount
            if legal.bet_or_raise is not None:
                choice = legal.bet_or_raise
            elif _CALL in legal.actions or game.street is _PREFLOP:
                choice = Action.RAISE
            else:
                choice = Action.BET
        try:
            records = game.act(seat, choice, amount)
        except RuleError as exc:
            raise RuleError(
                f"{action.line!r}: {_as_players(str(exc))}", code=exc.code, params=exc.params
            ) from None
        if verb == "cbr" and not isinstance(records[0], _BET_OR_RAISE):
            # The engine takes an all-in for no more than the bet as a call; PHH does not.
            # (A move's own record comes first.)
            raise RuleError(
                f"{action.line!r}: a bet or raise must go above the current bet",
                code="phh_bet_not_above",
            )
        if len(records) == 1:
            # The move alone: the betting goes on, nothing dealt, nothing turned up.
            if game.to_act is not None and game.street is not _SHOWDOWN:
                return
        elif game.run_twice_vote is not None:
            records = [*records, *self.agree_to_run_twice()]
        pending = self.pending
        for record in records:
            if isinstance(record, _BOARD_OR_SHOWN):
                pending.append(record)
        self.idle_check = self.pokerkit_idle_check(records)

    def agree_to_run_twice(self) -> list[Record]:
        """Every player's yes when the engine asks whether to run the board twice.

        Only a hand run twice (`_runout_count = 2`) is replayed with the option on; PHH has
        no action for the answers (docs/engine-contract.md, "Hand histories"), so the
        file's second run is the agreement.
        """
        vote = self.game.run_twice_vote
        records: list[Record] = []
        if vote is not None:
            for seat in vote.waiting:
                records += self.game.vote_run_twice(seat, True)
        return records

    def pokerkit_idle_check(self, records: Sequence[Record]) -> int | None:
        """The player PokerKit still asks for a check after this move, if any.

        When every other player still in is all-in, nobody could call a raise, so the
        engine closes the round without asking the last player with chips, who has nothing
        to call (the big blind whose option comes last, typically). PokerKit asks that
        player anyway and its files record a `cc` there: a check that changes nothing,
        accepted here as the very next line. Who: not folded, chips left, and no move on
        this street since its last bet or raise.
        """
        game = self.game
        if game.to_act is not None and game.street is not _SHOWDOWN:
            return None  # the round goes on: the engine asks someone itself
        if (
            not any(isinstance(r, _BOARD_OR_SHOWN) for r in records)
            and game.street is not _SHOWDOWN
        ):
            return None
        history = game.records
        move = len(history) - len(records)  # the move itself is the first new record
        # One pass to the move: who is out (folded, or all in on any street) and who has
        # moved on this street (from its start, or from its last bet or raise on). Nobody
        # folds after the move: what follows it is dealt or derived. Each record's kind is
        # one lookup of its class, not a chain of isinstance (records are of these very
        # classes, never of subclasses).
        out: set[int] = set()
        acted: set[int] = set()
        kinds = _IDLE_KINDS
        record: Any  # its kind says its class, and so its fields
        for record in history[: move + 1]:
            kind = kinds.get(record.__class__)
            if kind is None:
                continue
            if kind == _STREET_DEALT:
                acted = set()
            elif kind == _POST:
                if record.all_in:
                    out.add(record.seat)
            else:
                if kind == _BET_OR_RAISE_KIND:
                    acted = set()
                acted.add(record.seat)
                if kind == _FOLD_KIND or (kind != _CHECK_KIND and record.all_in):
                    out.add(record.seat)
        able = [seat for seat in game.seats if seat not in out and seat not in acted]
        return _player_index(able[0]) if len(able) == 1 else None

    def describe_pending(self) -> str:
        record = self.pending[0]
        if isinstance(record, BoardDealt):
            return f"the {record.street} (d db {_cards_text(record.cards)})"
        assert isinstance(record, Shown)
        return f"p{_player_index(record.seat) + 1}'s hand, turned up at the all-in (sm)"

    # showdown

    def showdown(self, action: PhhAction) -> None:
        # At an all-in the engine has turned the hands up already: the file confirms them.
        if self.pending and isinstance(self.pending[0], Shown):
            self.confirm_all_in_show(action)
            return
        game = self.game
        if game.is_complete:
            self.after_hand_show(action)
            return
        if game.street is not _SHOWDOWN or game.to_act is None:
            raise PhhError(f"{action.line!r}: there is no showdown now")
        # PokerKit lets the showdown's sm lines come in any order; the engine asks in its
        # own (the last river aggressor first). Take the run of sm lines and answer the
        # engine's questions from it.
        run: dict[int, PhhAction] = {}
        end = self.position
        while end < len(self.lines) and self.lines[end].verb == "sm":
            line = self.lines[end]
            assert line.actor is not None
            if line.actor >= self.n:
                raise PhhError(f"{line.line!r}: there is no {line.player} in a hand of {self.n}")
            if line.actor in run:
                raise PhhError(f"{line.line!r}: {line.player} has already shown or mucked")
            run[line.actor] = line
            end += 1
        while not game.is_complete:
            seat = game.to_act
            assert seat is not None
            player = _player_index(seat)
            answer = run.get(player)
            if answer is None:
                raise PhhError(
                    f"the hand ends before the pot is awarded: p{player + 1} has not shown"
                    " or mucked (sm)"
                )
            del run[player]
            self.check_shown_cards(answer)
            self.refuse_unknown_show(answer)
            game.act(seat, Action.SHOW if answer.show else Action.MUCK)
        for line in run.values():
            # Everyone else mucked, so the engine awarded the last hand unseen; that
            # player showing is a show after the hand, anything else a line too many.
            self.after_hand_show(line)
        self.position = end - 1

    def after_hand_show(self, action: PhhAction) -> None:
        """An `sm` once the hand is over: the player still in, whose hand won unseen (the
        others folded or mucked), shows it whole, as PokerKit's showdown after the hand
        allows. The engine records it (`Hand.show`, no chips move) when the cards are
        known; a show of unknown cards changes nothing."""
        assert action.actor is not None
        if not action.show or not self.still_live(action.actor):
            raise PhhError(f"{action.line!r}: the hand is over")
        self.check_shown_cards(action)
        if action.actor in self.dealt.unknown_holes:
            return
        seat = _player_seat(action.actor)
        cards = action.cards or self.game.hole_cards(seat)  # `sm -`: the cards dealt
        try:
            self.game.show(seat, [c for c in cards if c is not None])
        except RuleError as exc:
            raise RuleError(
                f"{action.line!r}: {_as_players(str(exc))}", code=exc.code, params=exc.params
            ) from None

    def still_live(self, player: int | None) -> bool:
        if player is None:
            return False
        seat = _player_seat(player)
        return not any(isinstance(r, _OUT) and r.seat == seat for r in self.game.records)

    def confirm_all_in_show(self, action: PhhAction) -> None:
        assert action.actor is not None
        seat = _player_seat(action.actor)
        block = []
        for record in self.pending:
            if not isinstance(record, Shown):
                break
            block.append(record)
        match = next((r for r in block if r.seat == seat), None)
        if match is None:
            raise PhhError(f"{action.line!r}: {action.player} is not in the showdown")
        if not action.show:
            raise RuleError(
                f"{action.line!r}: when no more betting can follow an all-in, every hand is"
                " turned up before the board is run out; a hand cannot be mucked",
                code="all_in_hands_shown",
            )
        self.check_shown_cards(action)
        self.refuse_unknown_show(action)
        self.pending.remove(match)

    def check_shown_cards(self, action: PhhAction) -> None:
        assert action.actor is not None
        if not action.show or not action.cards:
            return
        if None in action.cards:
            raise PhhError(
                f"{action.line!r}: a hand is shown whole or mucked; keeping cards face down"
                " is not played here"
            )
        holding = self.game.hole_cards(_player_seat(action.actor))
        if sorted(action.cards) != sorted(holding):  # type: ignore[type-var]
            raise PhhError(
                f"{action.line!r}: {action.player} holds {_cards_text(holding)}, not"
                f" {_cards_text(action.cards)}"
            )

    def refuse_unknown_show(self, action: PhhAction) -> None:
        if not action.show:
            return
        if action.actor in self.dealt.unknown_holes:
            raise PhhError(
                f"{action.line!r}: {action.player}'s hole cards are unknown (??) and the"
                " showdown needs them"
            )
        if self.dealt.unknown_board:
            raise PhhError(f"{action.line!r}: the board has unknown cards (??)")

    def finish(self) -> None:
        if self.pending:
            raise PhhError(
                f"the hand ends before the pot is awarded: {self.describe_pending()} is not"
                " in the file"
            )
        if not self.betting_began:
            self.check_hole_cards_dealt(PhhAction("(end of actions)", None, ""))
        game = self.game
        if not game.is_complete:
            seat = game.to_act
            if seat is None:  # pragma: no cover - an unfinished hand always waits on someone
                raise PhhError("the hand ends before the pot is awarded")
            doing = "show or muck (sm)" if game.street is Street.SHOWDOWN else "act"
            raise PhhError(
                f"the hand ends before the pot is awarded: p{_player_index(seat) + 1} is still"
                f" to {doing}"
            )


_SEAT = re.compile(r"\bseat (\d+)")


def _as_players(message: str) -> str:
    """An engine message in the file's terms: a replay seats pN in seat N."""
    return _SEAT.sub(lambda m: f"p{m.group(1)}", message)


def _player_index(seat: int) -> int:
    return seat - 1


def finishing_stacks(game: Hand) -> list[int]:
    """The finished hand's stacks in PHH player order (left of the button first)."""
    final = game.final_stacks
    if final is None:
        raise PhhError("the hand is not finished")
    return [final[seat] for seat in game.seats]


def replay_entry(entry: HandEntry) -> dict[str, Any]:
    """The CLI's JSON object for one hand: its finishing stacks or why it was refused."""
    if entry.data is None:
        return {"hand": entry.name, "error": entry.error or "not a hand"}
    try:
        game = replay(PhhHand.from_fields(entry.data))
    except (PhhError, RuleError) as exc:
        return {"hand": entry.name, "error": str(exc)}
    except Exception as exc:  # noqa: BLE001 - one odd hand must not stop the file's others
        return {"hand": entry.name, "error": f"cannot replay: {type(exc).__name__}: {exc}"}
    return {"hand": entry.name, "finishing_stacks": finishing_stacks(game)}


def replay_text(path: str, text: str) -> list[dict[str, Any]]:
    """Replay every hand of a `.phh` or `.phhs` file's text, in file order."""
    try:
        entries = read_hands(path, text)
    except PhhError as exc:
        name = path.replace("\\", "/").rsplit("/", 1)[-1]
        return [{"hand": name, "error": str(exc)}]
    return [replay_entry(entry) for entry in entries]


# --- export --------------------------------------------------------------------------------


def hand_to_fields(
    game: Hand,
    *,
    reveal: Collection[int] | None = None,
    strict: bool = True,
    **extra: Any,
) -> dict[str, Any]:
    """The PHH fields of a hand; `extra` adds or overrides optional fields (players, table,
    hand, event, author, currency, seat_count, ...).

    `reveal`: the seats whose hole cards are written (a player's own, for their copy of the
    hand); every other hand is dealt as unknown cards (`????????`) unless it was shown, and
    a card shown after the hand (`Hand.show`) is dealt face up among unknown ones
    (`d dh p3 Ah??????`). None writes every hole card. The deck and the burns are never
    written. A show after the hand is `pN sm CARDS` when it turns up the whole of a hand
    that won unseen (PokerKit's showdown after the hand), else a commentary line
    (`# p3 shows Ah after the hand`; docs/engine-contract.md).

    `strict` (the default) refuses, with PhhError, what a PHH replay cannot play back: a
    cash table's posts out of position and a player treated as all-in after timing out.
    Otherwise they are written as faithfully as PHH allows: a missed small blind posted dead
    as that player's ante (dead money, as PHH antes are), a live big blind as that player's
    entry in `blinds_or_straddles` (which PokerKit would read as a straddle, acting last
    before the flop), and the all-in as a comment-only action line (`# p3 ...`).

    A board run twice is each run's `d db` lines, the second run's after the first run's
    river, with the user-defined field `_runout_count = 2`; the players' answers are
    commentary lines (`# p2 agrees to run it twice`). Our `replay` reads it back; PokerKit's
    reader cannot: it asks nobody how many runs, deals one and refuses the second run's
    lines (docs/engine-contract.md, "Hand histories").
    """
    shown = {r.seat for r in game.records if isinstance(r, Shown)}
    config = game.config
    order = game.seats
    index = {seat: i for i, seat in enumerate(order)}
    started = game.records[0]
    assert isinstance(started, HandStarted)
    antes, blinds, bomb_checks = _forced_bets(game, started, index, strict)
    fields: dict[str, Any] = {
        "variant": VARIANT_CODES[(config.game, config.structure)],
        "ante_trimming_status": started.bomb_pot,
        "antes": antes,
        "blinds_or_straddles": blinds,
    }
    if config.structure is Structure.LIMIT:
        fields["small_bet"] = config.big_blind
        fields["big_bet"] = config.big_bet
    else:
        fields["min_bet"] = config.big_blind
    starting = game.starting_stacks()
    fields["starting_stacks"] = [starting[seat] for seat in order]
    actions, second_run = _action_lines(game, index, shown, bomb_checks, reveal, strict)
    fields["actions"] = actions
    if second_run:
        fields["_runout_count"] = 2
    fields["seats"] = list(order)
    final = game.final_stacks
    if final is not None:
        fields["finishing_stacks"] = [final[seat] for seat in order]
    for key, value in extra.items():
        if value is not None:
            fields[key] = value
    return fields


def _forced_bets(
    game: Hand, started: HandStarted, index: dict[int, int], strict: bool
) -> tuple[list[int], list[int], list[str]]:
    """The PHH `antes` and `blinds_or_straddles` of a hand, and a bomb pot's checks before
    the flop (each player with chips checks in the round PokerKit still opens)."""
    config = game.config
    n = len(index)
    # Forced bets per player (PHH order), then written in role order: heads-up PHH lists
    # them small blind first, the reverse of its players (p1 is the big blind there).
    big_i = 0 if n == 2 or started.dead_small_blind else 1
    antes = [0] * n
    if config.ante_kind is AnteKind.EACH:
        antes = [config.ante] * n
    elif config.ante_kind is AnteKind.BIG_BLIND:
        antes[big_i] = config.ante
    assert config.small_blind is not None
    blinds = [0] * n
    blinds[big_i] = config.big_blind
    if not started.dead_small_blind:
        blinds[1 if n == 2 else 0] = config.small_blind
    if started.straddle is not None:
        # Left of the big blind (index 2) or the button's (the last): PokerKit opens the
        # first round after the largest blind or straddle, as the engine does.
        blinds[index[started.straddle]] += 2 * config.big_blind
    bomb_checks: list[str] = []
    if started.bomb_pot:
        # No blinds, the same ante from everyone, each its player's stake in the pot: what
        # PokerKit plays with ante trimming on (PhhHand.bomb_pot_config).
        antes = [config.bomb_pot_ante] * n
        blinds = [0] * n
        able = [r.seat for r in game.records if isinstance(r, AntePosted) and not r.all_in]
        if len(able) > 1:
            bomb_checks = [f"p{index[seat] + 1} cc" for seat in able]
    for spec in started.seats:
        if not (spec.live_post or spec.dead_post):
            continue
        if strict:
            raise PhhError(
                f"seat {spec.seat} posts a {'live' if spec.live_post else 'dead'} blind out of"
                " position, which PHH cannot write"
            )
        blinds[index[spec.seat]] += spec.live_post
        antes[index[spec.seat]] += spec.dead_post
    if n == 2:
        antes.reverse()
        blinds.reverse()
    return antes, blinds, bomb_checks


def _action_lines(
    game: Hand,
    index: dict[int, int],
    shown: set[int],
    bomb_checks: list[str],
    reveal: Collection[int] | None,
    strict: bool,
) -> tuple[list[str], bool]:
    """The PHH `actions` of a hand (see `hand_to_fields`), and whether its board ran twice."""
    # Cards shown once the hand was over (Hand.show): seen by everyone, one by one.
    shown_after: dict[int, set[Card]] = {}
    for r in game.records:
        if isinstance(r, CardsShown):
            shown_after.setdefault(r.seat, set()).update(r.cards)
    gone = {r.seat for r in game.records if isinstance(r, _OUT)}
    actions: list[str] = []
    face_up: dict[int, set[Card]] = {}
    second_run = False
    for record in game.records:
        if isinstance(record, HoleDealt):
            hidden = reveal is not None and record.seat not in reveal and record.seat not in shown
            seen = shown_after.get(record.seat, set()) if hidden else set(record.cards)
            cards = _cards_text([c if c in seen else None for c in record.cards])
            actions.append(f"d dh p{index[record.seat] + 1} {cards}")
        elif isinstance(record, BoardDealt):
            actions.extend(bomb_checks)
            bomb_checks = []
            if record.run == 2 and not second_run:
                # The second run's board follows the first run's river, as PokerKit deals
                # multiple runouts; the field `_runout_count` says there are two.
                second_run = True
                actions.append("# second run")
            actions.append(f"d db {_cards_text(record.cards)}")
        elif isinstance(record, RunTwiceVoted):
            # PHH has no action for choosing the number of runs: a commentary says it.
            player = f"p{index[record.seat] + 1}"
            if record.agree:
                actions.append(f"# {player} agrees to run it twice")
            elif record.silent:
                actions.append(f"# {player} does not answer whether to run it twice: once")
            else:
                actions.append(f"# {player} does not agree to run it twice: once")
        elif isinstance(record, Folded):
            actions.append(f"p{index[record.seat] + 1} f")
        elif isinstance(record, Checked | Called):
            actions.append(f"p{index[record.seat] + 1} cc")
        elif isinstance(record, Bet | Raised):
            actions.append(f"p{index[record.seat] + 1} cbr {record.to}")
        elif isinstance(record, Shown):
            actions.append(f"p{index[record.seat] + 1} sm {_cards_text(record.cards)}")
        elif isinstance(record, Mucked):
            actions.append(f"p{index[record.seat] + 1} sm")
        elif isinstance(record, CardsShown):
            player = f"p{index[record.seat] + 1}"
            hole = game.hole_cards(record.seat)
            up = face_up.setdefault(record.seat, set())
            up.update(record.cards)
            if record.seat not in gone | shown and up >= set(hole):
                # The hand won unseen, now face up whole: PHH's (and PokerKit's) showdown
                # after the hand.
                actions.append(f"{player} sm {_cards_text(hole)}")
            else:
                # A folded or mucked hand, or part of one: PHH has no move for it, and its
                # specification leaves exposed cards to a commentary. The dealt line above
                # has these cards face up.
                actions.append(f"# {player} shows {_cards_text(record.cards)} after the hand")
        elif isinstance(record, AllInDeclared):
            if strict:
                raise PhhError(
                    f"seat {record.seat} was treated as all-in after timing out, which PHH"
                    " cannot write"
                )
            # PHH has no such move: a comment-only line (a no-op to PokerKit) says it.
            actions.append(
                f"# p{index[record.seat] + 1} timed out and plays on all-in for what is in"
            )
    return actions, second_run


def hand_to_phh(
    game: Hand, *, check: bool = True, reveal: Collection[int] | None = None, **extra: Any
) -> str:
    """The hand as `.phh` text that PokerKit and `replay` read back.

    Players go in PHH order (left of the button first, the button last), `seats` keeps our
    seat numbers. With `check` (the default) a finished hand is replayed from the text and
    must end with the same stacks (hidden hole cards, see `hand_to_fields`, are never
    needed: a hand that is evaluated was shown), so a hand played under a house rule PHH
    replays do not follow (a five-bet cap, no cap heads-up, a chip unit above 1 that
    changes a split, a post out of position, an all-in after a time-out) raises `PhhError`
    instead of writing a file that replays differently. Without `check` every hand is
    written, as faithfully as PHH allows (`hand_to_fields` with `strict` off).

    >>> from tables.engine.config import Config, Game, Structure
    >>> game = Hand.start(Config(Game.OMAHA, Structure.POT_LIMIT, big_blind=2),
    ...                   [SeatSpec(4, 100), SeatSpec(7, 100)], 7, tuple(range(52)))
    >>> _ = game.act(7, Action.FOLD)
    >>> print(hand_to_phh(game, table="Tuesday 1"))  # doctest: +ELLIPSIS
    variant = "PO"
    ...
    actions = [
      "d dh p1 2c2h3c3h",
      "d dh p2 2d2s3d3s",
      "p2 f",
    ]
    seats = [4, 7]
    finishing_stacks = [101, 99]
    table = "Tuesday 1"
    <BLANKLINE>
    """
    fields = hand_to_fields(game, reveal=reveal, strict=check, **extra)
    text = dumps_fields(fields)
    if check and game.is_complete:
        try:
            replayed = finishing_stacks(replay(parse_phh(text)))
        except (PhhError, RuleError) as exc:
            raise PhhError(f"this hand does not replay from PHH: {exc}") from None
        if replayed != fields["finishing_stacks"]:
            raise PhhError(
                f"this hand replays from PHH to {replayed}, not {fields['finishing_stacks']}:"
                " it was played under a house rule PHH replays do not follow"
            )
    return text


def hand_to_phh_for(game: Hand, visible_to: int | None, **extra: Any) -> str:
    """One viewer's copy of a hand as PHH text: only the cards that viewer saw.

    `visible_to` is the viewer's seat in the hand, or None for a spectator (or a player
    not dealt in), who sees only the hands shown. Every other hand is dealt as unknown
    cards (`????????`); the deck and the burns are never written. Any hand the engine
    played is written, finished or not: all-in run-outs, live and dead posts, a player
    treated as all-in (see `hand_to_fields` with `strict` off), with no replay check, since
    a copy with hidden cards is for reading. `extra` as in `hand_to_fields`.

    >>> from tables.engine.config import Config, Game, Structure
    >>> game = Hand.start(Config(Game.OMAHA, Structure.POT_LIMIT, big_blind=2),
    ...                   [SeatSpec(4, 100), SeatSpec(7, 100)], 7, tuple(range(52)))
    >>> print(hand_to_phh_for(game, 4, hand=12))  # doctest: +ELLIPSIS
    variant = "PO"
    ...
    actions = [
      "d dh p1 2c2h3c3h",
      "d dh p2 ????????",
    ]
    seats = [4, 7]
    hand = 12
    <BLANKLINE>
    """
    reveal = () if visible_to is None else (visible_to,)
    return dumps_fields(hand_to_fields(game, reveal=reveal, strict=False, **extra))
