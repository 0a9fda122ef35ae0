"""Playing a hand: a player's move, the moves nobody has to wait for, the turn clock, the
all-in run-out dealt street by street, and the end of the hand.

No rule of poker lives here: who acts, what is legal, who wins all come from the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Case, Value, When
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tables.alerts import PRE_ACTION_CLEARED, REMOVED, alert_add
from tables.botbrain import run_twice_answer
from tables.engine.autoplay import show_or_muck, time_out
from tables.engine.errors import RuleError
from tables.engine.preactions import KEPT_WHEN_THE_BET_CHANGES, pre_action_move, pre_action_stands
from tables.engine.records import MOVE_RECORDS, PotAwarded, record_to_json
from tables.engine.state import Hand as EngineHand
from tables.engine.state import Street
from tables.engine.timebank import bank_left
from tables.errors import NeedsLock, TableError
from tables.i18n import hand_awards
from tables.models import (
    PRE_ACTION_FIELDS,
    Hand,
    HandPlayer,
    LedgerKind,
    Seat,
    SeatState,
    Table,
    TableLedger,
)
from tables.runtime import rows
from tables.runtime.state import STATE, Moved, Read
from tables.scheduling import schedule_tick
from tables.services.common import (
    NO_CHIPS,
    TIMED_OUT,
    apply_adding,
    cash_out,
    display_name,
    next_hand_time,
    require_user,
    schedule_next_hand,
    table_close_now,
)
from tables.timing import RUN_TWICE_VOTE_SECONDS, runout_step_seconds, turn_seconds


@dataclass(frozen=True)
class ActResult:
    version: int
    records: int


def table_act(
    table_id: int,
    user: Any,
    hand_id: int,
    version: int,
    action: str,
    amount: int | None = None,
    *,
    now: datetime | None = None,
) -> ActResult:
    """Apply one move for ``user``'s seat if ``hand_id``/``version`` are still current.

    The version check makes a double click or a replayed frame a no-op ("stale"); the
    engine decides whose turn it is and what is legal. The table state makes it
    (``TableState.change``): unlocked when it only adds its records and hands the turn on,
    under the table's lock when it writes more (``_move`` asks for it: ``NeedsLock``).
    """
    require_user(user)
    asked = _Asked(table_id, user, hand_id, version, action, amount, now or timezone.now())
    read, moved = STATE.change(table_id, version, lambda read: _move(read, asked))
    assert isinstance(moved, Moved)
    return ActResult(read.table.version, len(moved.hand.records))


@dataclass(frozen=True)
class _Asked:
    """A player's move as asked for: whose, on which hand and version, what."""

    table_id: int
    user: Any
    hand_id: int
    version: int
    action: str
    amount: int | None
    now: datetime


async def table_act_on_loop(
    table_id: int,
    user: Any,
    hand_id: int,
    version: int,
    action: str,
    amount: int | None = None,
) -> ActResult | None:
    """``table_act`` without leaving the caller's event loop, where the table state makes
    moves there (``TableState.change_on_loop``: PostgreSQL): the same ``_move``, written
    in one statement on the loop's own connection. None when it is not made here: the
    caller makes it with ``table_act`` on a database thread. A refusal raises
    ``TableError`` as ``table_act`` does, with nothing written.
    """
    asked = _Asked(table_id, user, hand_id, version, action, amount, timezone.now())
    done = await STATE.change_on_loop(table_id, version, lambda read: _move(read, asked))
    if done is None:
        return None
    read, moved = done
    return ActResult(read.table.version, len(moved.hand.records))


def _move(read: Read, asked: _Asked) -> Moved:
    """The move on the rows read: checked, made by the engine, and what it changes (not
    yet written). ``NeedsLock`` (from ``read``) when it writes more than the way it is
    being made can carry."""
    table, seats, hand = read.table, read.seats, read.hand
    user, version, now = asked.user, asked.version, asked.now
    require_user(user)
    seat = next((s for s in seats.values() if s.user_id == user.pk), None)
    if seat is None:
        raise TableError("not_seated", _("you have no seat at this table"))
    # Words for the person, not the version numbers the check compares: the move was for
    # a hand already over (a late or double click), or the table changed since the page
    # showed the buttons (a move, a player sitting down, a chat line).
    if hand is None or hand.pk != asked.hand_id:
        raise TableError("stale", _("that hand is over: your move came too late"))
    if table.version != version:
        raise TableError("stale", _("the table moved on meanwhile; try again"))
    engine = read.engine_to_move(hand)
    if engine.to_act != seat.number:
        raise TableError("not_your_turn", _("it is not your turn"))
    try:
        new = engine.act(seat.number, asked.action, asked.amount)
    except RuleError as exc:
        raise TableError.from_rule("illegal_action", exc) from None
    back = seat.state == SeatState.SITTING_OUT and seat.sat_out_reason == TIMED_OUT
    bank = bank_after_turn(table, seat, hand, now)
    ends = engine.is_complete or engine.street == Street.SHOWDOWN
    if (
        back
        or bank is not None
        or not (_only_records(engine, seats, hand) or (ends and read.one_statement_end))
    ):
        read.writes_more()
    if back:
        # Acting again shows the player is back: they play the next hand too.
        seat.state = SeatState.PLAYING
        seat.sat_out_reason = ""
        read.save(seat, ("state", "sat_out_reason"))
    if bank is not None:
        # The move came after the turn's own time: the bank pays for what it took.
        seat.time_bank_ms = bank
        read.save(seat, ("time_bank_ms",))
    return after_moves(
        table, hand, engine, new, now, seats, one_statement_end=read.one_statement_end
    )


def _only_records(engine: EngineHand, seats: dict[int, Seat], hand: Hand) -> bool:
    """Whether the move's only writes are its records, the hand's turn clock and the
    version: the hand goes on, to a player who decides for themselves (``after_moves``
    makes no move for them and touches no other row; with a pre-action chosen at the
    table, it may make one, or drop it: ``_pre_actions_follow``)."""
    if engine.is_complete or engine.to_act is None or engine.street == Street.SHOWDOWN:
        return False
    if any(s.pre_action_in(hand.number) for s in seats.values()):
        return False
    actor = seats.get(engine.to_act)
    return actor is not None and not (
        actor.leaving
        or (actor.state == SeatState.SITTING_OUT and actor.sat_out_reason == TIMED_OUT)
    )


def bank_after_turn(table: Table, seat: Seat, hand: Hand, now: datetime) -> int | None:
    """What is left of ``seat``'s time bank when its player acts at ``now`` on their turn,
    or None when the turn did not draw on it (the move came in the turn's own time, or the
    player has no bank to draw on). The hand's deadline includes the bank (``after_moves``),
    so the time to it is what the bank still holds (``tables.engine.timebank``)."""
    bank = table.turn_bank_ms(seat)
    if not bank or hand.deadline is None:
        return None
    left = bank_left(bank, (hand.deadline - now) // timedelta(milliseconds=1))
    return left if left < bank else None


def timeout_move(engine: EngineHand, seat: Seat) -> list[Any]:
    """The records of ``seat``'s time-out: the engine says what it becomes
    (``tables.engine.autoplay``), from the hand's house option and whether the player is
    still connected."""
    return time_out(engine, seat.number, disconnected=not seat.connected)


def _pre_action_due(table: Table, hand: Hand, engine: EngineHand, seat: Seat) -> list[Any] | None:
    """The records of the move ``seat``'s player chose before their turn, made now that it
    has come, as ``Hand.act`` makes the player's own (the engine says what a pre-action
    becomes: ``tables.engine.preactions``); None when they chose none, or when it was
    dropped (cleared, and the player told): they decide for themselves."""
    chosen = seat.pre_action_in(hand.number)
    if chosen is None:
        return None
    move = pre_action_move(chosen, engine.street, engine.legal_actions())
    records = None
    if move is not None:
        try:
            records = engine.act(seat.number, *move)
        except RuleError:
            records = None
    # Made, it is spent; dropped in the round it was chosen for, the bet changed: news.
    told = records is None and engine.street == chosen.street
    _pre_action_drop(table, engine, seat, told=told)
    return records


def _pre_actions_follow(
    table: Table, hand: Hand, engine: EngineHand, seats: dict[int, Seat]
) -> None:
    """Drop the pre-actions the hand has overtaken, so their players see it before their
    turn: the amount to call changed ("call 40" after a raise to 120), a new betting round
    began, the player is out of the betting, or the hand is over."""
    for seat in seats.values():
        chosen = seat.pre_action_in(hand.number)
        if chosen is None:
            continue
        if engine.is_complete or not engine.may_bet_later(seat.number):
            _pre_action_drop(table, engine, seat, told=False)
        elif not pre_action_stands(chosen, engine.street, engine.to_call(seat.number)):
            # A new round is no news (the bar offers that round's choices); a changed bet is.
            _pre_action_drop(table, engine, seat, told=engine.street == chosen.street)


def _pre_action_drop(table: Table, engine: EngineHand, seat: Seat, *, told: bool) -> None:
    """Clear ``seat``'s pre-action; ``told``: tell its player the bet it was chosen against
    has changed ("Your call 40 was cleared: the bet is now 120")."""
    chosen = seat.pre_action_in(seat.pre_action_hand or 0)
    seat.pre_action_clear()
    rows.save(seat, PRE_ACTION_FIELDS)
    if (
        told
        and chosen is not None
        and chosen.kind not in KEPT_WHEN_THE_BET_CHANGES
        and seat.user_id is not None
    ):
        alert_add(
            table.pk,
            seat.user_id,
            PRE_ACTION_CLEARED,
            {"kind": chosen.kind.value, "amount": chosen.to_call, "bet": engine.current_bet},
        )


def after_moves(
    table: Table,
    hand: Hand,
    engine: EngineHand,
    new: list[Any],
    now: datetime,
    seats: dict[int, Seat],
    *,
    one_statement_end: bool = False,
) -> Moved:
    """Store the new records, make the moves nobody has to wait for, and set the clock.

    ``seats``: the change's seats by number (``Read.seats``), saved since any change.
    ``one_statement_end``: nothing is written here (the table state writes it all in the
    move's one statement, ``Read.one_statement_end``), so a hand that ends must end simply
    (``_hand_end_in_one_statement``), else ``NeedsLock``.
    """
    new = list(new)
    wake_bot = False
    ended = None
    while not engine.is_complete and engine.to_act is not None:
        seat = seats[engine.to_act]
        if engine.street == Street.SHOWDOWN:
            # A showdown never waits on anybody: the engine shows or mucks the hand, from
            # what its player chose beforehand (Seat.muck_losing).
            move = show_or_muck(engine, seat.number, muck_losing=seat.muck_losing)
            new += engine.act(seat.number, move)
        elif seat.leaving or (
            seat.state == SeatState.SITTING_OUT
            and (seat.sat_out_reason == TIMED_OUT or table.is_tournament)
        ):
            # Away: checked when free, else folded, without waiting (a tournament's absent
            # player is dealt in, posts and is blinded away).
            new += timeout_move(engine, seat)
        elif (chosen := _pre_action_due(table, hand, engine, seat)) is not None:
            # The player chose this move before their turn: made now, as their own.
            new += chosen
        else:
            break
    new += _run_twice_answers_now(engine, seats)
    added = [record_to_json(r) for r in new]
    hand.records = hand.records + added
    if one_statement_end and engine.is_complete:
        ended_seats, next_hand_in = _hand_end_in_one_statement(table, hand, engine, seats, now)
        return Moved(
            hand, engine, seats, tuple(added), ended_seats=ended_seats, next_hand_in=next_hand_in
        )
    if one_statement_end and engine.street == Street.SHOWDOWN:
        raise NeedsLock  # a showdown that waits on somebody: not a simple end
    _pre_actions_follow(table, hand, engine, seats)
    if engine.run_twice_vote is None:
        hand.vote_until = None
    if engine.is_complete and engine.runout_from is not None and hand.board_shown is None:
        # The engine has run the board out; the table deals it street by street (ticks
        # move it on), and the chips move when the river is out.
        hand.board_shown = engine.runout_from
        _next_reveal(table, hand, now)
    elif engine.is_complete:
        ended = _hand_finish(table, hand, engine, seats, now)
    elif engine.run_twice_vote is not None:
        _run_twice_clock(table, hand, now)
    else:
        if hand.to_act != engine.to_act or any(_is_move(r) for r in new):
            actor = seats.get(engine.to_act) if engine.to_act is not None else None
            hand.to_act = engine.to_act
            hand.turn_started_at = now
            # The player's time bank is part of the deadline: they draw on it when the
            # turn's own time runs out, and time out only once it is spent too.
            bank = table.turn_bank_ms(actor) if actor is not None else 0
            hand.deadline = now + timedelta(seconds=turn_seconds(), milliseconds=bank)
            hand.turn_extended = False
            # No timer task per turn: the sweep (every second) applies a passed deadline, so
            # a move costs no scheduling and a restart forgets nothing.
            # Asked for by the table state once the move is written.
            wake_bot = actor is not None and actor.is_bot
    return Moved(hand, engine, seats, tuple(added), wake_bot=wake_bot, hand_ended=ended)


def _run_twice_answers_now(engine: EngineHand, seats: dict[int, Seat]) -> list[Any]:
    """The answers nobody waits for when the players still in are asked to run it twice.

    A house bot answers at once, by its rule (``botbrain.run_twice_answer``), so a table
    of bots never waits; a player away (timed out, or leaving when the hand ends) says
    nothing, and silence is no (docs/rules.md, Home-game options).
    """
    new: list[Any] = []
    vote = engine.run_twice_vote
    for number in vote.waiting if vote is not None else ():
        if engine.run_twice_vote is None:
            break  # a no ended it
        seat = seats[number]
        if seat.is_bot:
            new += engine.vote_run_twice(number, run_twice_answer(seat.bot_style))
        elif seat.leaving or (
            seat.state == SeatState.SITTING_OUT and seat.sat_out_reason == TIMED_OUT
        ):
            new += engine.vote_run_twice(number, False, silent=True)
    return new


def _run_twice_clock(table: Table, hand: Hand, now: datetime) -> None:
    """The vote on running it twice is open: nobody's turn, and the sweep closes it at
    ``vote_until`` (``run_twice_time_out``), when the silent are taken as no."""
    hand.to_act = None
    hand.deadline = None
    hand.turn_started_at = None
    hand.turn_extended = False
    if hand.vote_until is None:
        hand.vote_until = now + timedelta(seconds=RUN_TWICE_VOTE_SECONDS)
        schedule_tick(table.pk, RUN_TWICE_VOTE_SECONDS)


def run_twice_time_out(read: Read, hand: Hand, now: datetime) -> Moved:
    """The time to answer is up: the first player still silent says no for them all
    (docs/rules.md, Home-game options: "silence is no"), and the board is run once."""
    engine = read.engine_to_move(hand)
    table, seats = read.table, read.seats
    vote = engine.run_twice_vote
    new = [] if vote is None else engine.vote_run_twice(vote.waiting[0], False, silent=True)
    return after_moves(table, hand, engine, new, now, seats)


def run_twice_vote(
    table_id: int,
    user: Any,
    hand_id: int,
    agree: bool,
    *,
    seat: int | None = None,
    now: datetime | None = None,
) -> int:
    """``user`` answers whether to run the board twice in hand ``hand_id``; returns the
    table's new version.

    Votes are not turns: every player asked answers when they like, in any order, so no
    version is checked, only that the hand is still the one asked about. ``seat``, when
    given, must be the player's own (a player answers for nobody else). The engine refuses
    a vote that is not open, a player not still in the hand, or one who already agreed.
    """
    at = now or timezone.now()
    require_user(user)

    def decide(read: Read) -> Moved:
        mine = next((s for s in read.seats.values() if s.user_id == user.pk), None)
        if mine is None:
            raise TableError("not_seated", _("you have no seat at this table"))
        if seat is not None and seat != mine.number:
            raise TableError("not_your_seat", _("you may answer only for your own seat"))
        hand = read.hand
        if hand is None or hand.pk != hand_id:
            raise TableError("stale", _("that hand is over: your answer came too late"))
        engine = read.engine_to_move(hand)
        try:
            new = engine.vote_run_twice(mine.number, agree)
        except RuleError as exc:
            raise TableError.from_rule("illegal_action", exc) from None
        return after_moves(read.table, hand, engine, new, at, read.seats)

    return STATE.change(table_id, None, decide)[0].table.version


def _next_reveal(table: Table, hand: Hand, now: datetime) -> None:
    hand.to_act = None
    hand.deadline = None
    hand.turn_started_at = None
    step = runout_step_seconds()
    hand.reveal_at = now + timedelta(seconds=step)
    schedule_tick(table.pk, step)


def reveal_street(read: Read, hand: Hand, now: datetime) -> Moved:
    """Deal the next street of a run-out to the table; with the river, settle the hand."""
    engine = STATE.engine(hand)
    table, seats = read.table, read.seats
    shown = hand.board_shown or 0
    hand.board_shown = 3 if shown < 3 else shown + 1
    ended = None
    if hand.board_shown >= len(engine.board):
        hand.reveal_at = None
        ended = _hand_finish(table, hand, engine, seats, now)
    else:
        _next_reveal(table, hand, now)
    return Moved(hand, engine, seats, hand_ended=ended)


def _is_move(record: Any) -> bool:
    # A player's own move (not the dealer's records) restarts the turn clock.
    return isinstance(record, MOVE_RECORDS)


def _hand_finish(
    table: Table, hand: Hand, engine: EngineHand, seats: dict[int, Seat], now: datetime
) -> dict[str, Any] | None:
    final = engine.final_stacks or {}
    _hand_close(hand, engine, seats, now)
    # Every player's finishing stack in one UPDATE, not one round trip per player.
    if final:
        HandPlayer.objects.filter(hand=hand.pk, seat__in=list(final)).update(
            stack_after=Case(*(When(seat=n, then=Value(s)) for n, s in final.items()))
        )
    if table.is_tournament:
        return _tournament_hand_finish(table, hand, engine, seats, final, now)
    finished = []
    for number, stack in final.items():
        seat = seats[number]
        seat.stack = stack
        # Chips bought during the hand play from the next one (docs/protocol.md, rebuy).
        apply_adding(table, seat)
        if seat.leaving or seat.removing:
            if seat.removing and not seat.is_bot:
                # The host removed them during this hand: their page says why it went.
                alert_add(table.pk, seat.user_id, REMOVED, {"chips": seat.stack})  # type: ignore[arg-type]
            cash_out(table, seat)
            continue
        if seat.stack <= 0 and seat.is_bot:
            # A house bot buys in again, so a demo table plays on for ever instead of
            # stalling with one bot holding every chip.
            TableLedger.objects.create(
                table=table,
                user_id=seat.user_id,
                seat=number,
                kind=LedgerKind.BUY_IN,
                amount=table.max_buy_in,
            )
            seat.stack = table.max_buy_in
        elif seat.stack <= 0:
            _out_of_chips(seat)
        _bank_refill(table, seat)
        finished.append(seat)
    # The players' seats in one statement, not one round trip each.
    rows.save_many(finished)
    if table.closing:
        # The host closed the table during this hand: everyone is cashed out now.
        table_close_now(table, [s for s in seats.values() if s.user_id is not None], now)
        return None
    schedule_next_hand(table, now)
    return None


def _hand_close(hand: Hand, engine: EngineHand, seats: dict[int, Seat], now: datetime) -> None:
    """The hand row's end: when, no turn any more, who won what."""
    hand.ended_at = now
    hand.to_act = None
    hand.deadline = None
    hand.turn_started_at = None
    names = {n: display_name(s) for n, s in seats.items()}
    hand.summary = hand_summary(engine.records, names)[:300]
    hand.awards = hand_awards(engine.records, names)


def _bank_refill(table: Table, seat: Seat) -> None:
    """A cash table's time bank refills by its set amount for each hand played, up to its
    cap (a tournament's refills once per level instead: ``dealing``)."""
    if table.time_bank_cap_seconds and not seat.is_bot:
        seat.time_bank_ms = table.time_bank.refilled(seat.time_bank_ms)


def _out_of_chips(seat: Seat) -> None:
    seat.state = SeatState.SITTING_OUT
    seat.sat_out_reason = NO_CHIPS


def _hand_end_in_one_statement(
    table: Table, hand: Hand, engine: EngineHand, seats: dict[int, Seat], now: datetime
) -> tuple[tuple[Seat, ...], float]:
    """``_hand_finish`` for a cash hand whose end writes nothing but the hand, the dealt
    seats' chips and state, the players' finishing stacks and the next hand's time, all in
    the move's one statement (``rows.hand_end_write_on_loop``); nothing is written here.
    Any other end (a tournament's, a table closing, a player leaving or removed, chips
    bought during the hand, a house bot to buy in again, a run-out) raises
    ``NeedsLock``: ``_hand_finish`` makes it, under the table's lock.

    Returns the dealt seats as they are after the hand, and the delay before the next.
    """
    final = engine.final_stacks or {}
    if (
        not final
        or engine.runout_from is not None
        or table.is_tournament
        or table.closing
        or any(
            seats[n].leaving
            or seats[n].removing
            or seats[n].adding > 0
            or (stack <= 0 and seats[n].is_bot)
            for n, stack in final.items()
        )
    ):
        raise NeedsLock
    _hand_close(hand, engine, seats, now)
    for number, stack in final.items():
        seat = seats[number]
        seat.stack = stack
        if stack <= 0:
            _out_of_chips(seat)
        _bank_refill(table, seat)
    return tuple(seats[number] for number in final), next_hand_time(table, now)


def _tournament_hand_finish(
    table: Table,
    hand: Hand,
    engine: EngineHand,
    seats: dict[int, Seat],
    final: dict[int, int],
    now: datetime,
) -> dict[str, Any]:
    """A tournament table's hand ends: stacks stored, the table held until its tournament
    has dealt with the hand (eliminations, moves) and releases it. Answers the
    ``hand_ended`` news, which the table state sends after the commit and the table's own
    news."""
    before = engine.starting_stacks()
    report = []
    for number, stack in final.items():
        seat = seats[number]
        seat.stack = stack
        apply_adding(table, seat)
        report.append(
            {
                "seat": number,
                "user_id": seat.user_id,
                "before": before.get(number, 0),
                "after": seat.stack,
            }
        )
    rows.save_many([seats[number] for number in final])
    winners: dict[int, list[int]] = {}
    for r in engine.records:
        if isinstance(r, PotAwarded) and r.seat not in winners.setdefault(r.pot, []):
            winners[r.pot].append(r.seat)
    pots = [{"pot": k, "winners": winners[k]} for k in sorted(winners)]
    eliminated_in: dict[int, int] = {}
    busted = [row["seat"] for row in report if row["after"] <= 0]
    if busted:
        levels = [eligible for _, eligible in engine.pots()]
        for number in busted:
            played = [k for k, eligible in enumerate(levels) if number in eligible and k in winners]
            eliminated_in[number] = played[-1] if played else (min(winners) if winners else 0)
    table.held = True
    table.next_hand_at = None
    if table.closing:
        table.closed_at = now
        table.closing = False
    return {
        "hand_id": hand.pk,
        "hand_number": hand.number,
        "seats": report,
        "pots": pots,
        "eliminated_in": eliminated_in,
    }


def hand_summary(records: Any, names: dict[int, str]) -> str:
    """ "ann wins 24 with a flush": who won what, from the PotAwarded records."""
    won: dict[tuple[int, str], int] = {}
    texts: dict[tuple[int, str], str] = {}
    for r in records:
        if isinstance(r, PotAwarded):
            key = (r.seat, str(r.half))
            won[key] = won.get(key, 0) + r.amount
            texts[key] = r.hand
    parts = []
    for (seat, half), amount in won.items():
        text = f"{names.get(seat, f'seat {seat}')} wins {amount}"
        if half != "whole":
            text += f" ({half})"
        if texts[(seat, half)]:
            text += f" with {texts[(seat, half)]}"
        parts.append(text)
    return "; ".join(parts) or "no award"
