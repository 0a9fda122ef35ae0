"""Who is dealt into the next hand, where the button and the blinds go, and who owes what.

The table layer describes its occupied seats as `SeatStatus`es and `deal_in` answers with a
`DealPlan`: the button, the blinds, the `SeatSpec`s to start the hand with (live and dead
posts included), who now owes missed blinds and who keeps waiting. Nothing here touches a
database; the table stores what the plan says (the button, the blinds' seats, the flags).

Two ways to move the button (`ButtonMode`):

- **CASH** (docs/rules.md "Cash tables"; docs/rules/sources/omaha-hi-lo-partypoker.txt:
  "A new game on an active table starts with the button moving clockwise to the next
  player"): the button moves to the next player who owes nothing; a new player posts a live
  big blind at once or waits for the big blind; a player the big blind passed while sitting
  out owes both blinds and comes back posting them (the small dead, the big live) or waiting
  (docs/rules/sources/omaha-hi-lo-cardroom-rules.txt: "the small blind goes to the center of
  the pot while his big blind is live"). Nobody is dealt in between the button and the big
  blind (docs/rules/sources/omaha-hi-lo-cardroom-rules.txt: "A player may not enter play in
  the middle of the blinds; he must wait until the Button passes").
- **TOURNAMENT** (TDA 32, dead button): the big blind goes on to the next player after the
  last big blind; the small blind is posted where the big blind was (dead, posted by
  nobody, when that player has gone) and the button goes where the small blind was (an
  empty seat is a dead button). So every player posts the big and the small blind once a
  round. Heads-up the button posts the small blind and acts first before the flop, and the
  big blind still goes on to the other player, so at the start of heads-up nobody has it
  twice in a row (TDA 34B). Everyone with chips is dealt in (no waiting for the big blind,
  no missed blinds; a player sitting out too, blinded away: `DealPlan.absent`), except a late entrant or a moved player seated between the button and
  the small blind, who waits until the button passes (TDA 8 and 10: "dealt in anywhere
  except between the small blind and the button").

Seats are numbered clockwise; seat numbers wrap (after the highest comes the lowest).

A cash table: seats 5 and 6 have just sat down, 5 waiting for the big blind (which reaches
them at once), 6 posting a live big blind out of position.

>>> seats = [SeatStatus(1, 500), SeatStatus(2, 500), SeatStatus(3, 500),
...          SeatStatus(5, 200, is_new=True),
...          SeatStatus(6, 200, is_new=True, wait_for_big_blind=False)]
>>> plan = deal_in(seats, previous_button=1, last_big_blind=3, big_blind=10, small_blind=5)
>>> plan.button, plan.small_blind, plan.big_blind, plan.seats[-1]
(2, 3, 5, SeatSpec(seat=6, stack=200, live_post=10, dead_post=0))

A tournament table whose big blind (seat 3) went out last hand: the small blind is dead and
the button goes to the last small blind.

>>> seats = [SeatStatus(1, 500), SeatStatus(2, 500), SeatStatus(4, 500), SeatStatus(5, 500)]
>>> plan = deal_in(seats, previous_button=1, last_small_blind=2, last_big_blind=3,
...                mode=ButtonMode.TOURNAMENT, big_blind=10, small_blind=5)
>>> plan.button, plan.small_blind, plan.big_blind, plan.positions.small_blind
(2, None, 4, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from tables.engine.config import Config
from tables.engine.errors import RuleError
from tables.engine.records import SeatSpec
from tables.engine.state import Hand, straddle_seat

__all__ = [
    "ButtonMode",
    "DealPlan",
    "Positions",
    "Presence",
    "SeatStatus",
    "bomb_pot_due",
    "bomb_pot_vote_passes",
    "deal_in",
    "next_positions",
    "next_straddle_seat",
    "rebuy_amount",
]


class ButtonMode(StrEnum):
    """How the button and the blinds move from hand to hand."""

    CASH = "cash"
    TOURNAMENT = "tournament"
    """TDA 32: a dead button."""


class Presence(StrEnum):
    """Whether a seated player is taking part. The values are the table's own seat states
    (an empty seat is simply not passed to `deal_in`)."""

    PLAYING = "playing"
    WAITING = "waiting"
    """Sat in, not yet dealt in (waiting for the big blind or for the button to pass)."""
    SITTING_OUT = "sitting_out"


@dataclass(frozen=True, slots=True)
class SeatStatus:
    """An occupied seat as the next deal sees it.

    - `is_new`: not yet dealt a hand at this table (a player who just sat down; in a
      tournament also a late entrant or a player moved here from another table).
    - `wait_for_big_blind`: cash only; a new player or one owing blinds waits for the big
      blind rather than posting out of position.
    - `owes_small` / `owes_big`: cash only; blinds missed while sitting out.
    - `leaving`: cashing out; never dealt in.
    """

    number: int
    stack: int
    state: Presence = Presence.PLAYING
    is_new: bool = False
    wait_for_big_blind: bool = True
    owes_small: bool = False
    owes_big: bool = False
    leaving: bool = False


@dataclass(frozen=True, slots=True)
class Positions:
    """Where the button and the blinds are for a hand, as seat numbers.

    `small_blind` is the seat the small blind belongs to: an empty seat or a player who has
    gone when the small blind is dead (tournaments), the button heads-up. A tournament
    table keeps the last hand's positions to place the next: `deal_in(...,
    last_small_blind=positions.small_blind, last_big_blind=positions.big_blind)`.
    """

    button: int
    small_blind: int
    big_blind: int


@dataclass(frozen=True, slots=True)
class DealPlan:
    """What `deal_in` decided for the next hand.

    - `positions`: button, small blind and big blind seats (see `Positions`).
    - `small_blind`: the seat that posts the small blind, None when it is dead.
    - `seats`: the `SeatSpec`s for `Hand.start`, in seat order (live and dead posts set).
    - `owe_missed_blinds`: seats sitting out whom the big blind passed: they now owe both
      blinds (set `owes_small` and `owes_big`).
    - `waiting`: seats that could play but are not dealt this hand (they wait for the big
      blind or for the button to pass).
    - `absent`: seats dealt in while their player sits out (tournaments: their chips play
      on, posting and folding, blinded away); they stay sitting out.

    Every seat dealt in has now played a hand here and owes nothing: the table clears its
    `is_new`, `owes_small` and `owes_big` flags.
    """

    positions: Positions
    small_blind: int | None
    seats: tuple[SeatSpec, ...]
    owe_missed_blinds: tuple[int, ...] = ()
    waiting: tuple[int, ...] = ()
    absent: tuple[int, ...] = ()

    @property
    def button(self) -> int:
        return self.positions.button

    @property
    def big_blind(self) -> int:
        return self.positions.big_blind

    @property
    def dead_small_blind(self) -> bool:
        return self.small_blind is None

    @property
    def dealt(self) -> tuple[int, ...]:
        """The seats dealt in, in seat order."""
        return tuple(s.seat for s in self.seats)

    def start_hand(
        self,
        config: Config,
        deck: Sequence[int],
        *,
        straddle: int | None = None,
        bomb_pot: bool = False,
    ) -> Hand:
        """Start the hand this plan describes (`Hand.start` with its button and blinds).

        `straddle`: the seat that straddles (`straddle_seat` must allow it). `bomb_pot`:
        a bomb pot (docs/rules.md, Home-game options: "every player dealt in posts the agreed
        ante ...; no blinds"), in which a player who would have posted a blind to come in
        (a new player posting at once, one back after missing the blinds) is dealt in on
        the ante like everyone else, which settles what they owed: the ante is at least a
        big blind.
        """
        seats = self.seats
        if bomb_pot:
            seats = tuple(SeatSpec(s.seat, s.stack) for s in seats)
        return Hand.start(
            config,
            seats,
            self.button,
            deck,
            dead_small_blind=self.dead_small_blind,
            straddle=straddle,
            bomb_pot=bomb_pot,
        )

    def straddle_seat(self, config: Config) -> int | None:
        """The seat that may straddle this hand (`state.straddle_seat`), or None."""
        return straddle_seat(
            config, self.seats, self.button, dead_small_blind=self.dead_small_blind
        )


def deal_in(
    seats: Sequence[SeatStatus],
    *,
    previous_button: int,
    last_big_blind: int,
    big_blind: int,
    small_blind: int,
    mode: ButtonMode = ButtonMode.CASH,
    last_small_blind: int = 0,
) -> DealPlan | None:
    """Decide who is dealt into the next hand and where the button and the blinds go.

    `seats`: every occupied seat, in any order. `previous_button`, `last_big_blind` and (in a
    tournament) `last_small_blind`: the last hand's positions, 0 before the first hand.
    Before a table's first hand the button goes to the first player clockwise after
    `previous_button` (pass the seat before the one drawn for the button, or 0).
    `big_blind` and `small_blind` are the amounts a cash player owing blinds posts.

    None when fewer than two players can be dealt in (nobody's flags change then).
    Raises RuleError for seats that are not distinct positive numbers, and for a tournament
    hand after the first without `last_small_blind`.
    """
    ordered = sorted(seats, key=lambda s: s.number)
    for k, s in enumerate(ordered):
        if type(s.number) is not int or s.number < 1:
            raise RuleError(
                f"a seat number is a positive whole number, not {s.number!r}",
                code="bad_seat_number",
                params={"seat": repr(s.number)},
            )
        if k and ordered[k - 1].number == s.number:
            raise RuleError(
                f"seat {s.number} is described twice", code="seat_twice", params={"seat": s.number}
            )
    if mode is ButtonMode.TOURNAMENT:
        return _tournament(ordered, previous_button, last_small_blind, last_big_blind)
    return _cash(ordered, previous_button, last_big_blind, big_blind, small_blind)


def next_positions(
    seats: Sequence[SeatStatus],
    *,
    previous_button: int,
    last_big_blind: int,
    last_small_blind: int = 0,
    mode: ButtonMode = ButtonMode.TOURNAMENT,
) -> Positions | None:
    """Where the button and the blinds go next hand if these seats are all still there.

    For table balancing (TDA 11A): the player due for the big blind next hand is the one to
    move, to the worst position at the short table: `next_positions(...).big_blind`.
    """
    plan = deal_in(
        seats,
        previous_button=previous_button,
        last_big_blind=last_big_blind,
        last_small_blind=last_small_blind,
        mode=mode,
        big_blind=0,
        small_blind=0,
    )
    return None if plan is None else plan.positions


def next_straddle_seat(
    config: Config,
    seats: Sequence[SeatStatus],
    *,
    previous_button: int,
    last_big_blind: int,
) -> int | None:
    """The seat that may straddle the next hand at a cash table if these seats are all
    still there (`straddle_seat`), or None: who a table lets ask for "straddle next hand"."""
    plan = deal_in(
        seats,
        previous_button=previous_button,
        last_big_blind=last_big_blind,
        big_blind=config.big_blind,
        small_blind=config.small_blind or 0,
    )
    return None if plan is None else plan.straddle_seat(config)


def bomb_pot_due(hand_number: int, every: int) -> bool:
    """Whether a table that deals a bomb pot every `every` hands (0: never by itself) deals
    one as its hand number `hand_number` (its first hand is 1): every `every`-th hand.

    >>> [n for n in range(1, 13) if bomb_pot_due(n, 5)]
    [5, 10]
    """
    return every > 0 and hand_number > 0 and hand_number % every == 0


def bomb_pot_vote_passes(votes: int, voters: int) -> bool:
    """The players' vote for a bomb pot next hand: it passes when every player in the game
    votes for it (a bomb pot costs everyone an ante, so nobody is outvoted into one). The
    table counts its players in play, its house bots with them; a player who has not
    answered when the vote's time is up counts as no, and the vote lapses.

    >>> bomb_pot_vote_passes(3, 4), bomb_pot_vote_passes(4, 4), bomb_pot_vote_passes(0, 0)
    (False, True, False)
    """
    return voters > 0 and votes >= voters


def rebuy_amount(asked: int, stack: int, maximum: int) -> int:
    """The chips a rebuy of `asked` adds to `stack` at a cash table whose maximum buy-in is
    `maximum`: the stack after it never passes the maximum, so only what fits is bought
    (winnings may have brought the stack near it since the rebuy was asked for). docs/rules.md,
    Money outside the pot, sets only the house minimum ("usually five times the maximum
    bet"); a table's maximum buy-in is the house's own cap, on a rebuy as on a buy-in.

    >>> rebuy_amount(300, stack=500, maximum=1000)
    300
    >>> rebuy_amount(300, stack=900, maximum=1000)  # won 400 meanwhile: 100 fits
    100
    >>> rebuy_amount(300, stack=1200, maximum=1000)  # already above it: nothing
    0
    """
    return max(0, min(asked, maximum - stack))


def blind_positions(button: int, players: Sequence[int]) -> tuple[int, int]:
    """(small blind, big blind) for a hand dealt to `players` with the button on `button`
    (which may be an empty seat): the two players after the button; heads-up the button
    posts the small blind and the other player the big (docs/rules.md "Heads-up: the button
    posts the small blind"; TDA 34B). Tables run by hand (a director's console that is told
    where the button is) read the blinds from here, as `Hand.start` places them.

    >>> blind_positions(4, [1, 4, 6, 9])
    (6, 9)
    >>> blind_positions(4, [1, 4])
    (4, 1)
    """
    if len(set(players)) < 2:
        raise RuleError("blinds need at least two players", code="too_few_players")
    return _blind_positions(button, sorted(set(players)))


# ----------------------------------------------------------------------------- geometry


def _clockwise(after: int, seats: Sequence[int]) -> list[int]:
    """`seats` in dealing order, starting with the first seat after `after`."""
    ordered = sorted(seats)
    first = next((k for k, s in enumerate(ordered) if s > after), 0)
    return ordered[first:] + ordered[:first]


def _blind_positions(button: int, dealt: Sequence[int]) -> tuple[int, int]:
    """(small blind, big blind) as `Hand.start` places them for these seats and button:
    the two seats after the button; heads-up the button and the other seat."""
    order = _clockwise(button, dealt)
    if len(order) == 2:
        return order[1], order[0]
    return order[0], order[1]


def _between(start: int, end: int, seat: int) -> bool:
    """Whether `seat` lies clockwise after `start` up to and including `end` (every seat
    when `start == end`)."""
    if start < end:
        return start < seat <= end
    return seat > start or seat <= end


def _strictly_between(start: int, end: int, seat: int) -> bool:
    """Whether `seat` lies clockwise after `start` and before `end` (none when equal)."""
    if start == end:
        return False
    if start < end:
        return start < seat < end
    return seat > start or seat < end


# ----------------------------------------------------------------------------- cash


def _cash(
    seats: list[SeatStatus],
    previous_button: int,
    last_big_blind: int,
    big_blind: int,
    small_blind: int,
) -> DealPlan | None:
    candidates = [
        s
        for s in seats
        if s.stack > 0 and not s.leaving and s.state in (Presence.PLAYING, Presence.WAITING)
    ]
    if len(candidates) < 2:
        return None
    established = [s for s in candidates if not (s.is_new or s.owes_small or s.owes_big)]
    if len(established) < 2:
        # A fresh game: nobody has a blind to catch up on, everyone is dealt in free.
        established = candidates
    button = _clockwise(previous_button, [s.number for s in established])[0]
    dealt = {s.number: SeatSpec(s.number, s.stack) for s in established}
    # The others in seat order, each placed against the seats dealt in so far: who comes in
    # depends on who came in before, so the order is part of the rule.
    for s in candidates:
        if s.number in dealt:
            continue
        small, big = _blind_positions(button, [*dealt, s.number])
        if s.number == big:
            dealt[s.number] = SeatSpec(s.number, s.stack)  # the big blind reached them
        elif s.number == small or s.number == button or s.wait_for_big_blind:
            continue  # waits: nobody is dealt in between the button and the big blind
        else:
            owes_small = s.owes_small and not s.is_new
            dealt[s.number] = SeatSpec(
                s.number,
                s.stack,
                live_post=big_blind,
                dead_post=small_blind if owes_small else 0,
            )
    if len(dealt) < 2:
        return None
    small, big = _blind_positions(button, list(dealt))
    owe: list[int] = []
    if last_big_blind:
        # A player sitting out whom the big blind passed owes both blinds.
        owe = [
            s.number
            for s in seats
            if s.number not in dealt
            and s.state == Presence.SITTING_OUT
            and not s.is_new
            and _between(last_big_blind, big, s.number)
        ]
    return DealPlan(
        positions=Positions(button, small, big),
        small_blind=small,
        seats=tuple(dealt[n] for n in sorted(dealt)),
        owe_missed_blinds=tuple(owe),
        waiting=tuple(s.number for s in candidates if s.number not in dealt),
    )


# ----------------------------------------------------------------------------- tournament


def _tournament(
    seats: list[SeatStatus],
    previous_button: int,
    last_small_blind: int,
    last_big_blind: int,
) -> DealPlan | None:
    # Chips play on whether or not their player is at the table: in a tournament an absent
    # player is dealt in and posts the blinds like everyone else.
    players = [s for s in seats if s.stack > 0 and not s.leaving]
    if len(players) < 2:
        return None
    numbers = [s.number for s in players]
    if not last_big_blind:
        # The table's first hand: blinds in their usual places after the drawn button.
        button = _clockwise(previous_button, numbers)[0]
        small, big = _blind_positions(button, numbers)
        return _tournament_plan(players, Positions(button, small, big), small, ())
    if not last_small_blind:
        raise RuleError(
            "a dead button needs the last hand's small blind seat",
            code="dead_button_needs_small_blind",
        )
    # TDA 32: the small blind goes where the big blind was, the button where the small
    # blind was, whoever sits there now.
    button, small = last_small_blind, last_big_blind
    waiting = [s.number for s in players if s.is_new and _strictly_between(button, small, s.number)]
    dealt = [n for n in numbers if n not in waiting]
    if len(dealt) < 2:
        # Nobody to play with unless the newcomers come in: deal everyone, as a fresh start.
        dealt, waiting = numbers, []
    if len(dealt) == 2:
        # TDA 34B: heads-up the button posts the small blind; the big blind goes on to the
        # player after the last big blind, so nobody has it twice in a row.
        big = _clockwise(last_big_blind, dealt)[0]
        button = next(n for n in dealt if n != big)
        return _tournament_plan(players, Positions(button, button, big), button, waiting)
    skipped = [n for n in dealt if _strictly_between(button, small, n)]
    if skipped:
        # Only when the stored positions do not match the seats (nobody but a newcomer can
        # sit there): the last of them takes the button rather than missing the hand.
        button = _clockwise(button, skipped)[-1]
    big = _clockwise(small, dealt)[0]
    poster = small if small in dealt else None
    return _tournament_plan(players, Positions(button, small, big), poster, waiting)


def _tournament_plan(
    players: list[SeatStatus],
    positions: Positions,
    small_blind: int | None,
    waiting: Sequence[int],
) -> DealPlan:
    dealt = [s for s in players if s.number not in waiting]
    return DealPlan(
        positions=positions,
        small_blind=small_blind,
        seats=tuple(SeatSpec(s.number, s.stack) for s in dealt),
        waiting=tuple(waiting),
        absent=tuple(s.number for s in dealt if s.state == Presence.SITTING_OUT),
    )
