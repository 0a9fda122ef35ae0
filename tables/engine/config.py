"""The frozen configuration of a game: variant, betting structure, stakes and house rules.

One `Config` describes every hand a table deals until its stakes change; it is part of each
hand's first record, so a stored hand can be rebuilt without the table.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

from tables.engine.errors import RuleError


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


@dataclass(frozen=True, slots=True)
class Config:
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

    game: Game
    structure: Structure
    big_blind: int
    small_blind: int | None = None
    chip_unit: int = 1
    ante: int = 0
    ante_kind: AnteKind = AnteKind.NONE
    big_bet: int | None = None
    raise_cap: int | None = 4
    uncapped_heads_up: bool = False
    all_in_on_timeout: bool = False
    pot_assumes_small_blind_call: bool = False
    straddle: Straddle = Straddle.NONE
    bomb_pot_ante: int = 0
    run_it_twice: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "game", Game(self.game))
        object.__setattr__(self, "structure", Structure(self.structure))
        object.__setattr__(self, "ante_kind", AnteKind(self.ante_kind))
        object.__setattr__(self, "straddle", Straddle(self.straddle))
        if self.chip_unit < 1:
            raise RuleError(
                f"chip unit {self.chip_unit} must be at least 1",
                code="chip_unit",
                params={"unit": self.chip_unit},
            )
        if self.big_blind < self.chip_unit or self.big_blind % self.chip_unit:
            raise RuleError(
                f"big blind {self.big_blind} must be a positive multiple of the chip unit"
                f" {self.chip_unit}",
                code="big_blind_chip_unit",
                params={"big_blind": self.big_blind, "unit": self.chip_unit},
            )
        if self.small_blind is None:
            half = self.big_blind // 2
            object.__setattr__(self, "small_blind", half - half % self.chip_unit)
        assert self.small_blind is not None
        if not 0 <= self.small_blind <= self.big_blind:
            raise RuleError(
                f"small blind {self.small_blind} must be between 0 and the big blind"
                f" {self.big_blind}",
                code="small_blind_range",
                params={"small_blind": self.small_blind, "big_blind": self.big_blind},
            )
        if self.ante < 0:
            raise RuleError(
                f"ante {self.ante} cannot be negative",
                code="negative_ante",
                params={"ante": self.ante},
            )
        if self.ante and self.ante_kind is AnteKind.NONE:
            object.__setattr__(self, "ante_kind", AnteKind.EACH)
        if not self.ante:
            object.__setattr__(self, "ante_kind", AnteKind.NONE)
        if self.big_bet is None:
            object.__setattr__(self, "big_bet", 2 * self.big_blind)
        assert self.big_bet is not None
        if self.big_bet < self.big_blind:
            raise RuleError(
                f"big bet {self.big_bet} is below the small bet {self.big_blind}",
                code="big_bet_below_small_bet",
                params={"big_bet": self.big_bet, "small_bet": self.big_blind},
            )
        if self.raise_cap is not None and self.raise_cap < 1:
            raise RuleError(
                f"raise cap {self.raise_cap} must allow at least the opening bet",
                code="raise_cap",
                params={"cap": self.raise_cap},
            )
        if self.straddle is not Straddle.NONE and self.structure is Structure.LIMIT:
            # docs/rules.md, Home-game options: a straddle is "twice the big blind" and "the
            # smallest raise is one straddle more", which a limit game's fixed bets cannot be.
            raise RuleError(
                "a straddle is played in pot-limit and no-limit only",
                code="straddle_in_limit",
            )
        if self.bomb_pot_ante < 0 or self.bomb_pot_ante % self.chip_unit:
            raise RuleError(
                f"the bomb pot ante {self.bomb_pot_ante} must be a whole number of chip"
                f" units ({self.chip_unit})",
                code="bomb_pot_ante",
                params={"ante": self.bomb_pot_ante, "unit": self.chip_unit},
            )

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
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
