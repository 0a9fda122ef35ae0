"""The frozen configuration of a game: variant, betting structure, stakes and house rules.

One `Config` describes every hand a table deals until its stakes change; it is part of each
hand's first record, so a stored hand can be rebuilt without the table.
"""

from __future__ import annotations

from enum import StrEnum

from tables.engine._frozen import TYPE_CHECKING, Frozen, _set
from tables.engine.errors import RuleError

if TYPE_CHECKING:
    from typing import Any


class Game(StrEnum):
    OMAHA = "omaha"
    """Omaha High."""
    OMAHA_HI_LO = "omaha-hi-lo"
    """Omaha Hi/Lo 8-or-better."""


class Structure(StrEnum):
    LIMIT = "limit"
    POT_LIMIT = "pot-limit"
    NO_LIMIT = "no-limit"


class Straddle(StrEnum):
    """Who may post a straddle before the cards (docs/rules.md, Home-game options: "Straddle").

    A table option, off by default; pot-limit and no-limit only (see `Config`).
    """

    NONE = "none"
    UNDER_THE_GUN = "under-the-gun"
    """The player left of the big blind."""
    BUTTON = "button"
    """The "Mississippi" straddle: the button posts it, and the blinds act first."""


class AnteKind(StrEnum):
    NONE = "none"
    EACH = "each"
    """Every player in the hand pays `ante`."""
    BIG_BLIND = "big-blind"
    """The big blind alone pays `ante` for the table."""


def gettext_noop(message: str) -> str:
    """Mark ``message`` for the translators and return it as it is.

    The engine speaks English and imports no Django; its names for people are collected by
    Django's ``makemessages`` (which knows this name) and worded in the reader's language by
    the site (``core.choices.choices_of``).
    """
    return message


# Each member's name for people, in English (the site translates it).
GAME_NAMES = {
    Game.OMAHA: gettext_noop("Omaha High"),
    Game.OMAHA_HI_LO: gettext_noop("Omaha Hi/Lo 8-or-better"),
}
STRUCTURE_NAMES = {
    Structure.LIMIT: gettext_noop("Limit"),
    Structure.POT_LIMIT: gettext_noop("Pot-Limit"),
    Structure.NO_LIMIT: gettext_noop("No-Limit"),
}
ANTE_KIND_NAMES = {
    AnteKind.NONE: gettext_noop("No ante"),
    AnteKind.EACH: gettext_noop("Ante from each player"),
    AnteKind.BIG_BLIND: gettext_noop("Big-blind ante"),
}


# The steps of `Config.__init__`, in the order it takes them (so a config with several
# faults is refused for the first, as before): each checks one group of fields, and those
# with a default work it out.


def _check_chip_unit(chip_unit: int, big_blind: int) -> None:
    """The chip unit is at least 1 and the big blind a positive multiple of it."""
    if chip_unit < 1:
        raise RuleError(
            f"chip unit {chip_unit} must be at least 1",
            code="chip_unit",
            params={"unit": chip_unit},
        )
    if big_blind < chip_unit or big_blind % chip_unit:
        raise RuleError(
            f"big blind {big_blind} must be a positive multiple of the chip unit {chip_unit}",
            code="big_blind_chip_unit",
            params={"big_blind": big_blind, "unit": chip_unit},
        )


def _small_blind_of(small_blind: int | None, big_blind: int, chip_unit: int) -> int:
    """The small blind given, by default half the big blind rounded down to the chip unit;
    from 0 to the big blind."""
    if small_blind is None:
        half = big_blind // 2
        small_blind = half - half % chip_unit
    if not 0 <= small_blind <= big_blind:
        raise RuleError(
            f"small blind {small_blind} must be between 0 and the big blind {big_blind}",
            code="small_blind_range",
            params={"small_blind": small_blind, "big_blind": big_blind},
        )
    return small_blind


def _ante_kind_of(ante: int, ante_kind: AnteKind) -> AnteKind:
    """Who pays the ante: no ante has no kind, an ante of no kind is paid by each player.
    A negative ante is refused."""
    if ante < 0:
        raise RuleError(
            f"ante {ante} cannot be negative",
            code="negative_ante",
            params={"ante": ante},
        )
    if ante and ante_kind is AnteKind.NONE:
        return AnteKind.EACH
    if not ante:
        return AnteKind.NONE
    return ante_kind


def _big_bet_of(big_bet: int | None, big_blind: int) -> int:
    """The upper limit, by default twice the big blind (the lower); never below it."""
    if big_bet is None:
        big_bet = 2 * big_blind
    if big_bet < big_blind:
        raise RuleError(
            f"big bet {big_bet} is below the small bet {big_blind}",
            code="big_bet_below_small_bet",
            params={"big_bet": big_bet, "small_bet": big_blind},
        )
    return big_bet


def _check_house_rules(
    structure: Structure,
    raise_cap: int | None,
    straddle: Straddle,
    bomb_pot_ante: int,
    chip_unit: int,
) -> None:
    """The raise cap allows the opening bet, a straddle is not in a limit game, and the bomb
    pot's ante is whole chip units."""
    if raise_cap is not None and raise_cap < 1:
        raise RuleError(
            f"raise cap {raise_cap} must allow at least the opening bet",
            code="raise_cap",
            params={"cap": raise_cap},
        )
    if straddle is not Straddle.NONE and structure is Structure.LIMIT:
        # docs/rules.md, Home-game options: a straddle is "twice the big blind" and "the
        # smallest raise is one straddle more", which a limit game's fixed bets cannot be.
        raise RuleError(
            "a straddle is played in pot-limit and no-limit only",
            code="straddle_in_limit",
        )
    if bomb_pot_ante < 0 or bomb_pot_ante % chip_unit:
        raise RuleError(
            f"the bomb pot ante {bomb_pot_ante} must be a whole number of chip units ({chip_unit})",
            code="bomb_pot_ante",
            params={"ante": bomb_pot_ante, "unit": chip_unit},
        )


class Config(Frozen):
    """Stakes and house rules of a table.

    >>> Config(Game.OMAHA_HI_LO, Structure.LIMIT, big_blind=5, chip_unit=1).small_blind
    2
    >>> Config(Game.OMAHA, Structure.POT_LIMIT, big_blind=10, chip_unit=5).small_blind
    5

    - `big_blind` is the lower limit in a limit game; `big_bet` the upper (default twice it).
    - `small_blind` defaults to half the big blind rounded down to the chip unit
      (docs/rules/sources/omaha-hi-lo-partypoker.txt; docs/rules.md "5/10 gives 2, not 2.5").
    - `raise_cap` (limit only) counts the bets allowed in one betting round, the opening bet
      included (before the flop the big blind is that bet): 4 is "a bet and three raises"
      (the online rooms), 5 "a bet and four raises" (the card room), None no cap.
    - `uncapped_heads_up`: the card room's option of no cap once only two players remain.
    - `all_in_on_timeout`: the online rooms' option that a player who times out while
      disconnected, with chips in the pot, is treated as all-in (`Hand.declare_all_in`;
      `autoplay.time_out_move` decides when).
    - `pot_assumes_small_blind_call` (pot-limit, off by default): the home series' rule
      that before the first raise of the first round the pot is counted as if the small
      blind had called (docs/rules/sources/home-series-event-plo8.txt).
    - `straddle` (off by default): who may post a live straddle of twice the big blind
      before the cards (`Straddle`); `Hand.start` is told who does, hand by hand. Pot-limit
      and no-limit only: a limit game's bets are fixed sizes, and a straddle there would
      change the size of every preflop bet, so limit tables refuse it. With a straddle in
      the pot, `pot_assumes_small_blind_call` adds nothing: the straddle is the last bet.
    - `bomb_pot_ante` (0: off): the chips every player dealt into a bomb pot posts (the
      table agrees on it in big blinds); `Hand.start` is told which hands are bomb pots.
      Every structure: after the antes the betting starts on the flop as usual.
    - `run_it_twice` (cash tables, off by default): when every player still in but at most
      one is all-in with cards to come, they may agree to deal the rest of the board twice
      (`Hand.vote_run_twice`); each pot is then split between the two runs.
    """

    __slots__ = (
        "game",
        "structure",
        "big_blind",
        "small_blind",
        "chip_unit",
        "ante",
        "ante_kind",
        "big_bet",
        "raise_cap",
        "uncapped_heads_up",
        "all_in_on_timeout",
        "pot_assumes_small_blind_call",
        "straddle",
        "bomb_pot_ante",
        "run_it_twice",
    )

    game: Game
    structure: Structure
    big_blind: int
    small_blind: int | None
    chip_unit: int
    ante: int
    ante_kind: AnteKind
    big_bet: int | None
    raise_cap: int | None
    uncapped_heads_up: bool
    all_in_on_timeout: bool
    pot_assumes_small_blind_call: bool
    straddle: Straddle
    bomb_pot_ante: int
    run_it_twice: bool

    def __init__(
        self,
        game: Game | str,
        structure: Structure | str,
        big_blind: int,
        small_blind: int | None = None,
        chip_unit: int = 1,
        ante: int = 0,
        ante_kind: AnteKind | str = AnteKind.NONE,
        big_bet: int | None = None,
        raise_cap: int | None = 4,
        uncapped_heads_up: bool = False,
        all_in_on_timeout: bool = False,
        pot_assumes_small_blind_call: bool = False,
        straddle: Straddle | str = Straddle.NONE,
        bomb_pot_ante: int = 0,
        run_it_twice: bool = False,
    ) -> None:
        game = Game(game)
        structure = Structure(structure)
        ante_kind = AnteKind(ante_kind)
        straddle = Straddle(straddle)
        _check_chip_unit(chip_unit, big_blind)
        small_blind = _small_blind_of(small_blind, big_blind, chip_unit)
        ante_kind = _ante_kind_of(ante, ante_kind)
        big_bet = _big_bet_of(big_bet, big_blind)
        _check_house_rules(structure, raise_cap, straddle, bomb_pot_ante, chip_unit)
        _set(self, "game", game)
        _set(self, "structure", structure)
        _set(self, "big_blind", big_blind)
        _set(self, "small_blind", small_blind)
        _set(self, "chip_unit", chip_unit)
        _set(self, "ante", ante)
        _set(self, "ante_kind", ante_kind)
        _set(self, "big_bet", big_bet)
        _set(self, "raise_cap", raise_cap)
        _set(self, "uncapped_heads_up", uncapped_heads_up)
        _set(self, "all_in_on_timeout", all_in_on_timeout)
        _set(self, "pot_assumes_small_blind_call", pot_assumes_small_blind_call)
        _set(self, "straddle", straddle)
        _set(self, "bomb_pot_ante", bomb_pot_ante)
        _set(self, "run_it_twice", run_it_twice)

    def to_json(self) -> dict[str, Any]:
        data = {name: getattr(self, name) for name in self.__slots__}
        # Written only when on, so the records of every hand without it stay as they were.
        if not data["pot_assumes_small_blind_call"]:
            del data["pot_assumes_small_blind_call"]
        if data["straddle"] is Straddle.NONE:
            del data["straddle"]
        if not data["bomb_pot_ante"]:
            del data["bomb_pot_ante"]
        if not data["run_it_twice"]:
            del data["run_it_twice"]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Config:
        return cls(**data)
