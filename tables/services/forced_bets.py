"""The straddle and the bomb pot at a cash table (docs/rules.md, Home-game options): what the host
sets, what the players ask for, and what the next deal is told. The engine plays both and
decides who may straddle (``tables.engine.state.straddle_seat``) and when a vote passes
(``tables.engine.deal_in.bomb_pot_vote_passes``).

- ``table_forced_bets_set``: the host's options, for the next hand on: who may straddle;
  the bomb pot's ante in big blinds (0: no bomb pots), every how many hands one comes by
  itself (0: never), whether the players may vote for one;
- ``seat_straddle``: a player asks to straddle the next hand, or takes it back; only the
  player in the straddle's seat for that hand may ask (``Table.next_straddle_seat``);
- ``bomb_pot_vote``: a player in the game votes for a bomb pot next hand (or takes the vote
  back); the first yes opens the vote for ``timing.BOMB_POT_VOTE_SECONDS`` and the house
  bots answer it (``botbrain.votes_bomb_pot``); when every player in the game has voted,
  the next hand is a bomb pot;
- ``bomb_pot_vote_lapse``: the vote's time is up without every yes: silence is no, the
  votes go (``dealing.table_tick``, before anything else it does);
- ``bomb_pot_call``: the host calls a bomb pot for the next hand, or calls it off;
- ``forced_bets_choose`` and ``forced_bets_spent``: the straddle and the bomb pot of the hand
  being dealt, then the one-hand choices cleared (``dealing._hand_start``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tables.botbrain import votes_bomb_pot
from tables.engine.config import Straddle
from tables.engine.deal_in import DealPlan, bomb_pot_vote_passes
from tables.engine.errors import RuleError
from tables.errors import TableError
from tables.models import (
    BOMB_POT_ANTE_MAX,
    BOMB_POT_EVERY_MAX,
    Seat,
    SeatState,
    Table,
    bomb_pot_voters,
)
from tables.runtime import rows
from tables.runtime.state import CHANGED, STATE, Outcome, Read
from tables.scheduling import schedule_tick
from tables.services.common import cash_only, hosted, require_user, seat_of
from tables.timing import BOMB_POT_VOTE_SECONDS


def forced_bets_check(straddle: str, bomb_pot_ante: int, bomb_pot_every: int) -> None:
    """Refuse options out of range (``TableError``); the engine checks the rest with the
    table's stakes (``Table.config``: no straddle in limit)."""
    if straddle not in {s.value for s in Straddle}:
        raise TableError("bad_table", _("choose who may straddle"))
    if not 0 <= bomb_pot_ante <= BOMB_POT_ANTE_MAX:
        raise TableError(
            "bad_table",
            _("a bomb pot's ante is 0 to %(most)d big blinds"),
            {"most": BOMB_POT_ANTE_MAX},
        )
    if not 0 <= bomb_pot_every <= BOMB_POT_EVERY_MAX:
        raise TableError(
            "bad_table",
            _("a bomb pot comes every 0 to %(most)d hands"),
            {"most": BOMB_POT_EVERY_MAX},
        )


def table_forced_bets_set(
    table_id: int,
    user: Any,
    *,
    straddle: str,
    bomb_pot_ante: int,
    bomb_pot_every: int,
    bomb_pot_by_vote: bool,
) -> Table:
    """The host sets the straddle and bomb pot options; the hand in play keeps its own."""

    def decide(read: Read) -> Outcome:
        table = hosted(read, user)
        forced_bets_check(straddle, bomb_pot_ante, bomb_pot_every)
        table.straddle = straddle
        table.bomb_pot_ante = bomb_pot_ante
        table.bomb_pot_every = bomb_pot_every
        table.bomb_pot_by_vote = bomb_pot_by_vote
        try:
            _stakes = table.config  # the engine refuses a straddle in limit
        except RuleError as exc:
            raise TableError.from_rule("bad_table", exc) from None
        if not bomb_pot_ante:
            table.bomb_pot_next = False
        if not (bomb_pot_ante and bomb_pot_by_vote):
            table.bomb_pot_vote_until = None
        for seat in read.seats.values():
            # Choices the new options no longer allow go with them.
            fields = []
            if seat.straddle_next and straddle == Straddle.NONE:
                seat.straddle_next = False
                fields.append("straddle_next")
            if seat.straddle_always and straddle == Straddle.NONE:
                seat.straddle_always = False
                fields.append("straddle_always")
            if seat.votes_bomb_pot and not (bomb_pot_ante and bomb_pot_by_vote):
                seat.votes_bomb_pot = False
                fields.append("votes_bomb_pot")
            if fields:
                read.save(seat, tuple(fields))
        return CHANGED

    return STATE.change(table_id, None, decide)[0].table


def seat_straddle(table_id: int, user: Any, on: bool, *, always: bool = False) -> Seat:
    """Straddle the next hand (``on``), or take it back; with ``always``, straddle every
    hand (a standing choice, from any seat), or stop.

    docs/rules.md, Home-game options: "before the cards, the player left of the big blind may
    post a live straddle" (or the button, in "Mississippi"): only the player in that seat
    for the next hand, as the table stands, may ask; the deal checks it again.
    """
    require_user(user)

    def decide(read: Read) -> Outcome:
        table = read.table
        cash_only(table)
        seat = seat_of(read, user)
        if always:
            if on and table.straddle == Straddle.NONE:
                raise TableError("straddle_off", _("this table plays no straddle"))
            if seat.straddle_always == on:
                return None
            seat.straddle_always = on
            read.save(seat, ("straddle_always",))
            return CHANGED
        if on:
            _straddle_check(table, read, seat)
        if seat.straddle_next == on:
            return None
        seat.straddle_next = on
        read.save(seat, ("straddle_next",))
        return CHANGED

    return seat_of(STATE.change(table_id, None, decide)[0], user)


def _straddle_check(table: Table, read: Read, seat: Seat) -> None:
    """Refused unless ``seat`` may straddle the next hand as the table stands."""
    if table.straddle == Straddle.NONE:
        raise TableError("straddle_off", _("this table plays no straddle"))
    if table.bomb_pot_coming:
        raise TableError("bomb_pot_next", _("the next hand is a bomb pot: nobody straddles it"))
    position = table.next_straddle_seat(read.seats.values())
    if position is None:
        raise TableError(
            "straddle_position",
            _("nobody may straddle the next hand (heads-up, or that player is short)"),
        )
    if position != seat.number:
        raise TableError(
            "straddle_position",
            _("only seat %(position)d may straddle the next hand, not seat %(seat)d"),
            {"position": position, "seat": seat.number},
        )


def bomb_pot_vote(table_id: int, user: Any, yes: bool) -> Seat:
    """Vote for a bomb pot next hand (``yes``), or take the vote back.

    The vote passes, and the next hand is a bomb pot, when every player in the game has
    voted for it (``seating.bomb_pot_vote_passes``); the votes start afresh then. The first
    yes opens the vote for ``BOMB_POT_VOTE_SECONDS``; the house bots answer it at once, and
    again at each vote (a bot seated since answers too). The last player's vote taken back
    closes it.
    """
    require_user(user)
    return seat_of(STATE.change(table_id, None, lambda read: _vote(read, user, yes))[0], user)


def _vote(read: Read, user: Any, yes: bool) -> Outcome:
    table = read.table
    cash_only(table)
    seat = seat_of(read, user)
    if not (table.bomb_pot_ante and table.bomb_pot_by_vote):
        raise TableError("bomb_pot_off", _("this table does not vote for bomb pots"))
    if yes and (seat.is_bot or seat.state != SeatState.PLAYING):
        raise TableError("not_playing", _("only the players in the game vote for a bomb pot"))
    if yes and table.bomb_pot_coming:
        raise TableError("bomb_pot_next", _("the next hand is a bomb pot already"))
    if seat.votes_bomb_pot == yes:
        return None
    seat.votes_bomb_pot = yes
    read.save(seat, ("votes_bomb_pot",))
    seats = list(read.seats.values())
    voters = bomb_pot_voters(seats)
    if not any(s.votes_bomb_pot for s in voters if not s.is_bot):
        # Nobody asks any more: the vote closes, the bots' answers with it.
        table.bomb_pot_vote_until = None
        _clear_votes(seats)
        return CHANGED
    if table.bomb_pot_vote_until is None:
        table.bomb_pot_vote_until = timezone.now() + timedelta(seconds=BOMB_POT_VOTE_SECONDS)
        schedule_tick(table.pk, BOMB_POT_VOTE_SECONDS)
    for bot in voters:
        if bot.is_bot and not bot.votes_bomb_pot and votes_bomb_pot(bot.bot_style):
            bot.votes_bomb_pot = True
            read.save(bot, ("votes_bomb_pot",))
    votes = sum(1 for s in voters if s.votes_bomb_pot)
    if bomb_pot_vote_passes(votes, len(voters)):
        table.bomb_pot_next = True
        table.bomb_pot_vote_until = None
        _clear_votes(seats)
    return CHANGED


def bomb_pot_vote_lapse(table: Table, seats: list[Seat], now: datetime) -> bool:
    """The bomb pot vote's time is up at ``now`` without every player's yes: the players
    who did not answer count as no, the vote lapses and its votes go. Whether it lapsed;
    the caller (holding the table's lock) writes the table."""
    if table.bomb_pot_vote_until is None or table.bomb_pot_vote_until > now:
        return False
    table.bomb_pot_vote_until = None
    _clear_votes(seats)
    return True


def bomb_pot_call(table_id: int, user: Any, on: bool = True) -> Table:
    """The host calls a bomb pot for the next hand (``on``), or calls it off."""

    def decide(read: Read) -> Outcome:
        table = hosted(read, user)
        if on and not table.bomb_pot_ante:
            raise TableError("bomb_pot_off", _("bomb pots are off at this table: set their ante"))
        if table.bomb_pot_next == on:
            return None
        table.bomb_pot_next = on
        return CHANGED

    return STATE.change(table_id, None, decide)[0].table


def forced_bets_choose(table: Table, plan: DealPlan, seats: list[Seat]) -> tuple[int | None, bool]:
    """The hand being dealt: the seat that straddles (it asked, and the engine lets it: the
    straddle's seat, with the chips) and whether it is a bomb pot (called, voted, or due by
    the table's count of hands). A bomb pot has no straddle."""
    if table.is_tournament:
        return None, False
    if table.bomb_pot_coming:
        return None, True
    straddler = plan.straddle_seat(table.config)
    asked = {s.number for s in seats if s.straddle_next or s.straddle_always}
    return (straddler if straddler in asked else None), False


def forced_bets_spent(table: Table, seats: list[Seat], *, bomb_pot: bool) -> None:
    """After the deal: "straddle next hand" was for this hand; a bomb pot dealt uses up the
    call and the votes."""
    if bomb_pot:
        table.bomb_pot_next = False
        table.bomb_pot_vote_until = None
        _clear_votes(seats)
    for seat in seats:
        if seat.straddle_next:
            seat.straddle_next = False
            rows.save(seat, ("straddle_next",))


def _clear_votes(seats: list[Seat]) -> None:
    for seat in seats:
        if seat.votes_bomb_pot:
            seat.votes_bomb_pot = False
            rows.save(seat, ("votes_bomb_pot",))
