"""Seating: opening a table, taking a seat with a buy-in, sitting out and in, a player's
standing options, leaving (cashed out now or when the hand ends), a player's sockets, and
the house bots' seats.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.permissions import is_director
from tables.alerts import REQUEST_REFUSED, alert_add
from tables.engine.config import Game, Straddle, Structure
from tables.engine.deal_in import rebuy_amount
from tables.engine.errors import RuleError
from tables.engine.state import Action
from tables.errors import TableError
from tables.models import (
    BOT_STYLES,
    LedgerKind,
    Seat,
    SeatRequest,
    SeatRequestStatus,
    SeatState,
    Table,
    TableLedger,
)
from tables.runtime import rows
from tables.runtime.state import CHANGED, STATE, Changed, Decide, Outcome, Read
from tables.services.common import (
    apply_adding,
    cash_only,
    cash_out,
    may_host,
    maybe_schedule_hand,
    require_host,
    require_open,
    require_user,
    seat_in_hand,
    seat_of,
)
from tables.services.forced_bets import forced_bets_check
from tables.services.play import after_moves
from tables.services.servers import SERVER_NAME
from tables.timing import RECONNECT_BONUS_SECONDS


def players_may_open_tables() -> bool:
    return bool(getattr(settings, "TABLES_PLAYERS_MAY_OPEN", False))


def may_open_table(user: Any) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return is_director(user) or players_may_open_tables()


def default_buy_ins(structure: str, big_blind: int, big_bet: int | None) -> tuple[int, int]:
    """The card room's house minimum: five times the maximum bet; maximum 100 big blinds.

    In pot-limit and no-limit there is no maximum bet; the limit game's big bet (twice the
    big blind) stands in for it, which gives the usual 10-big-blind minimum.
    """
    top_bet = big_bet or 2 * big_blind
    minimum = 5 * top_bet
    return minimum, max(minimum, 100 * big_blind)


def _buy_ins(
    structure: str,
    big_blind: int,
    big_bet: int | None,
    min_buy_in: int | None,
    max_buy_in: int | None,
) -> tuple[int, int]:
    """The buy-ins asked for, the house's defaults where none is given; refused
    (``bad_table``) unless the maximum is at least the minimum."""
    default_min, default_max = default_buy_ins(structure, big_blind, big_bet)
    least = default_min if min_buy_in is None else min_buy_in
    most = max(default_max, least) if max_buy_in is None else max_buy_in
    if least <= 0 or most < least:
        raise TableError("bad_table", _("the maximum buy-in must be at least the minimum"))
    return least, most


def table_create(
    *,
    created_by: Any,
    name: str,
    game: str = Game.OMAHA_HI_LO.value,
    structure: str = Structure.POT_LIMIT.value,
    big_blind: int = 2,
    small_blind: int | None = None,
    big_bet: int | None = None,
    ante: int = 0,
    raise_cap: int | None = 4,
    seat_count: int = 6,
    min_buy_in: int | None = None,
    max_buy_in: int | None = None,
    all_in_on_disconnect: bool = False,
    uncapped_heads_up: bool = False,
    pot_assumes_small_blind_call: bool = False,
    run_it_twice: bool = False,
    time_bank_seconds: int = 0,
    time_bank_refill_seconds: int = 0,
    time_bank_cap_seconds: int = 0,
    straddle: str = Straddle.NONE.value,
    bomb_pot_ante: int = 0,
    bomb_pot_every: int = 0,
    bomb_pot_by_vote: bool = False,
    private: bool = False,
    invite_seats: bool = False,
    check_permission: bool = True,
) -> Table:
    """Open a cash table with its empty seats. Tournaments call this with their own stakes.

    A ``private`` table gets an unguessable invite token: only players with the link may ask
    its host for a seat (or, with ``invite_seats``, sit at once), and the lobby does not
    list it.
    """
    if check_permission and not may_open_table(created_by):
        raise TableError("forbidden", _("only directors may open tables here"))
    if not 2 <= seat_count <= 10:
        raise TableError("bad_table", _("a table has 2 to 10 seats"))
    min_buy_in, max_buy_in = _buy_ins(structure, big_blind, big_bet, min_buy_in, max_buy_in)
    forced_bets_check(straddle, bomb_pot_ante, bomb_pot_every)
    table = Table(
        name=name,
        game=game,
        structure=structure,
        big_blind=big_blind,
        small_blind=small_blind,
        big_bet=big_bet,
        ante=ante,
        raise_cap=raise_cap,
        seat_count=seat_count,
        min_buy_in=min_buy_in,
        max_buy_in=max_buy_in,
        all_in_on_disconnect=all_in_on_disconnect,
        uncapped_heads_up=uncapped_heads_up,
        pot_assumes_small_blind_call=pot_assumes_small_blind_call,
        run_it_twice=run_it_twice,
        time_bank_seconds=time_bank_seconds,
        time_bank_refill_seconds=time_bank_refill_seconds,
        time_bank_cap_seconds=time_bank_cap_seconds,
        straddle=straddle,
        bomb_pot_ante=bomb_pot_ante,
        bomb_pot_every=bomb_pot_every,
        bomb_pot_by_vote=bomb_pot_by_vote,
        is_private=private,
        invite_token=secrets.token_urlsafe(24) if private else "",
        invite_seats=private and invite_seats,
        created_by=created_by if getattr(created_by, "is_authenticated", False) else None,
    )
    try:
        _stakes = table.config  # the engine validates the stakes
        _bank = table.time_bank  # and the time bank
    except RuleError as exc:
        raise TableError.from_rule("bad_table", exc) from None
    with rows.writing():
        table.save()
        Seat.objects.bulk_create(Seat(table=table, number=n) for n in range(1, seat_count + 1))
    return table


# ----------------------------------------------------------------------------- seating


def seat_take(
    table_id: int,
    user: Any,
    seat_number: int,
    buy_in: int,
    wait_for_big_blind: bool = True,
    *,
    bot_style: str = "",
    approved: bool = False,
    now: datetime | None = None,
) -> Seat:
    """Sit ``user`` at an empty seat with a buy-in, recorded in the table's ledger.

    At a private table only its host and directors sit directly; others ask with the invite
    link (``seat_request``) and are seated when the host approves (``approved``).
    """
    require_user(user)
    at = now or timezone.now()

    def decide(read: Read) -> Outcome:
        return _sit(read, user, seat_number, buy_in, wait_for_big_blind, at, bot_style, approved)

    return STATE.change(table_id, None, decide)[0].seats[seat_number]


def _sit(
    read: Read,
    user: Any,
    seat_number: int,
    buy_in: int,
    wait_for_big_blind: bool,
    at: datetime,
    bot_style: str = "",
    approved: bool = False,
) -> Outcome:
    """``seat_take`` on the rows read: the checks, the seat, the ledger's buy-in."""
    table = read.table
    cash_only(table)
    require_open(table)
    if table.is_private and not approved and not may_host(table, user):
        raise TableError(
            "private", _("this table is private: ask its host for a seat with the invite link")
        )
    seat = _free_seat(read, user, seat_number)
    if not table.min_buy_in <= buy_in <= table.max_buy_in:
        raise TableError(
            "bad_buy_in",
            _("the buy-in is between %(min)d and %(max)d, not %(buy_in)d"),
            {"min": table.min_buy_in, "max": table.max_buy_in, "buy_in": buy_in},
        )
    seat.user = user
    seat.bot_style = bot_style
    seat.stack = buy_in
    seat.state = SeatState.WAITING
    seat.sat_out_reason = ""
    seat.is_new = True
    seat.wait_for_big_blind = wait_for_big_blind
    seat.owes_small = seat.owes_big = False
    seat.leaving = False
    # A house bot never draws on a time bank (``Table.turn_bank_ms``).
    seat.time_bank_ms = 0 if bot_style else table.time_bank.starting_ms
    read.save(seat)
    TableLedger.objects.create(
        table=table, user=user, seat=seat_number, kind=LedgerKind.BUY_IN, amount=buy_in
    )
    maybe_schedule_hand(read, at)
    return CHANGED


def _not_seated(read: Read, user: Any) -> None:
    if any(s.user_id == user.pk for s in read.seats.values()):
        raise TableError("already_seated", _("you already have a seat at this table"))


def _free_seat(read: Read, user: Any, seat_number: int) -> Seat:
    """Seat ``seat_number``, empty, for ``user``, who has none at the table yet."""
    _not_seated(read, user)
    seat = read.seats.get(seat_number)
    if seat is None:
        raise TableError(
            "seat_taken", _("there is no seat %(n)d at this table"), {"n": seat_number}
        )
    if not seat.is_empty:
        raise TableError("seat_taken", _("seat %(n)d is taken"), {"n": seat_number})
    return seat


def _seat_change(table_id: int, user: Any, decide: Decide) -> Seat:
    """A change to ``user``'s own seat at the table; the seat as ``decide`` left it."""
    require_user(user)
    read, _outcome = STATE.change(table_id, None, decide)
    return seat_of(read, user)


def seat_sit_out(table_id: int, user: Any) -> Seat:
    """Sit out from the next hand on (the current hand, if dealt in, plays on)."""

    def decide(read: Read) -> Outcome:
        seat = seat_of(read, user)
        seat.state = SeatState.SITTING_OUT
        seat.sat_out_reason = "sat out"
        read.save(seat)
        return CHANGED

    return _seat_change(table_id, user, decide)


def seat_sit_in(
    table_id: int, user: Any, wait_for_big_blind: bool = True, *, now: datetime | None = None
) -> Seat:
    at = now or timezone.now()

    def decide(read: Read) -> Outcome:
        seat = seat_of(read, user)
        if seat.stack <= 0:
            raise TableError("bad_buy_in", _("you have no chips: add chips to play on"))
        if seat.state == SeatState.SITTING_OUT:
            owes = seat.owes_small or seat.owes_big or seat.is_new
            seat.state = SeatState.WAITING if owes else SeatState.PLAYING
            seat.sat_out_reason = ""
            seat.wait_for_big_blind = wait_for_big_blind
            read.save(seat)
            maybe_schedule_hand(read, at)
            return CHANGED
        if seat.state == SeatState.WAITING and seat.wait_for_big_blind != wait_for_big_blind:
            # Already back (a rebuy after a bust, a new seat): the choice between posting the
            # blinds owed now and waiting for the big blind can still change before the deal.
            seat.wait_for_big_blind = wait_for_big_blind
            read.save(seat, ("wait_for_big_blind",))
            return CHANGED
        return None

    return _seat_change(table_id, user, decide)


def seat_options(table_id: int, user: Any, *, muck_losing: bool) -> Seat:
    """A seated player's standing choices: show or muck a hand that cannot win."""

    def decide(read: Read) -> Outcome:
        seat = seat_of(read, user)
        if seat.muck_losing == muck_losing:
            return None
        seat.muck_losing = muck_losing
        read.save(seat, ("muck_losing",))
        return CHANGED

    return _seat_change(table_id, user, decide)


def seat_leave(table_id: int, user: Any, *, now: datetime | None = None) -> Seat:
    """Leave the table: the stack is cashed out now, or when the hand it is in ends."""
    at = now or timezone.now()
    number = 0

    def decide(read: Read) -> Outcome:
        nonlocal number
        cash_only(read.table)
        seat = seat_of(read, user)
        number = seat.number
        engine = seat_in_hand(read, seat)
        if engine is None:
            cash_out(read.table, seat)
            return CHANGED
        seat.leaving = True
        seat.state = SeatState.SITTING_OUT
        seat.sat_out_reason = "leaving"
        read.save(seat)
        if engine.to_act != seat.number:
            return CHANGED
        assert read.hand is not None
        new = engine.act(seat.number, Action.FOLD)
        return after_moves(read.table, read.hand, engine, new, at, read.seats)

    require_user(user)
    read, _outcome = STATE.change(table_id, None, decide)
    return read.seats[number]


# Players' sockets open in bursts: their news goes out with the others of its burst.
GATHERED = Changed(gathered=True)


def seat_connection(
    table_id: int,
    user: Any,
    delta: int,
    *,
    server: str | None = None,
    now: datetime | None = None,
) -> None:
    """Count a player's sockets on this process (or ``server``). Reconnecting on one's own
    turn adds 20 seconds, once."""
    if user is None or not user.is_authenticated:
        return
    at = now or timezone.now()
    name = server or SERVER_NAME

    def decide(read: Read) -> Outcome:
        seat = next((s for s in read.seats.values() if s.user_id == user.pk), None)
        if seat is None:
            return None
        was_connected = bool(seat.sockets)
        count = max(0, seat.sockets.get(name, 0) + delta)
        sockets = {n: k for n, k in seat.sockets.items() if n != name}
        if count:
            sockets[name] = count
        seat.sockets = sockets
        read.save(seat, ("sockets",))
        if was_connected == bool(seat.sockets):
            return None
        hand = read.hand
        if (
            delta > 0
            and hand is not None
            and hand.to_act == seat.number
            and hand.deadline is not None
            and not hand.turn_extended
        ):
            # docs/rules.md: "A player who reconnects while their turn is still running gets
            # 20 more seconds", on top of the time they had left.
            hand.deadline = max(hand.deadline, at) + timedelta(seconds=RECONNECT_BONUS_SECONDS)
            hand.turn_extended = True
            read.save(hand, ("deadline", "turn_extended"))
        # Players' sockets open in bursts (a tournament's start, a restart): their news is
        # gathered and goes out once for the burst.
        return GATHERED

    STATE.change(table_id, None, decide)


BOT_NAMES = ("Chipper", "Rivera", "Nutsy", "Blinds", "Muckler", "Tilt", "Quads", "Stacks", "Ace")


def bot_user(table_id: int, seat_number: int) -> User:
    """The house bot's account for one seat: it logs in like anyone, with no password."""
    name = f"bot-{table_id}-{seat_number}"
    user, created = User.objects.get_or_create(
        username=name, defaults={"first_name": BOT_NAMES[seat_number % len(BOT_NAMES)]}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def table_add_bots(
    table_id: int, user: Any, count: int | None = None, style: str | None = None
) -> list[Seat]:
    """A director fills empty seats with house bots, each buying in for the maximum."""
    if user is not None and not is_director(user):
        raise TableError("forbidden", _("only directors may add bots"))
    table = Table.objects.get(pk=table_id)
    cash_only(table)
    empty = list(table.seats.filter(user__isnull=True).order_by("number"))
    if count is not None:
        empty = empty[:count]
    added = []
    for k, seat in enumerate(empty):
        bot_style = style or BOT_STYLES[(seat.number + k) % len(BOT_STYLES)]
        added.append(
            seat_take(
                table_id,
                bot_user(table_id, seat.number),
                seat.number,
                table.max_buy_in,
                wait_for_big_blind=False,
                bot_style=bot_style,
                approved=True,
            )
        )
    return added


# ----------------------------------------------------------------------------- rebuys


def seat_rebuy(
    table_id: int,
    user: Any,
    amount: int,
    *,
    next_hand: bool = False,
    now: datetime | None = None,
) -> Seat:
    """Buy more chips at a cash table, up to its maximum buy-in in total, in the ledger.

    Between hands (or when the player is not in the hand in play) the chips go on the stack
    at once, and a player sat out with no chips is back in. Chips in a hand in play cannot
    change: the rebuy is refused unless the player asks for it ``next_hand``, when it is
    added as that hand ends (``common.apply_adding``).
    """
    at = now or timezone.now()

    def decide(read: Read) -> Outcome:
        table = read.table
        cash_only(table)
        require_open(table)
        seat = seat_of(read, user)
        if seat.leaving or seat.removing:
            raise TableError("not_seated", _("you are leaving this table"))
        _rebuy_check(table, seat, amount)
        engine = seat_in_hand(read, seat)
        if engine is not None and not next_hand:
            raise TableError(
                "in_hand", _("your chips are in the hand in play: buy them for the next hand")
            )
        seat.adding += amount
        if engine is None:
            apply_adding(table, seat)
            read.save(seat)
            maybe_schedule_hand(read, at)
        else:
            read.save(seat, ("adding",))
        return CHANGED

    return _seat_change(table_id, user, decide)


def _rebuy_check(table: Table, seat: Seat, amount: int) -> None:
    """Refused (``bad_buy_in``) unless ``amount`` more keeps the stack within the buy-ins."""
    total = seat.stack + seat.adding + amount
    if amount <= 0:
        raise TableError("bad_buy_in", _("a rebuy is a positive number of chips"))
    if total > table.max_buy_in:
        raise TableError(
            "bad_buy_in",
            _("at most %(most)d more: the maximum buy-in is %(max)d in all"),
            {
                "most": rebuy_amount(amount, seat.stack + seat.adding, table.max_buy_in),
                "max": table.max_buy_in,
            },
        )
    if total < table.min_buy_in:
        raise TableError(
            "bad_buy_in",
            _("at least %(least)d more: a stack starts at the minimum buy-in, %(min)d"),
            {"least": table.min_buy_in - seat.stack - seat.adding, "min": table.min_buy_in},
        )


# ----------------------------------------------------------------------------- private tables


def seat_request(
    table_id: int,
    user: Any,
    seat_number: int,
    buy_in: int,
    wait_for_big_blind: bool = True,
    *,
    invite: str,
) -> SeatRequest:
    """Ask a private table's host for a seat, with the table's invite token.

    One request per player is pending at a time: asking again replaces its seat and buy-in.
    At a table whose host lets the link seat players (``invite_seats``), the request is
    approved at once and the player sits.
    """
    require_user(user)
    asked: list[SeatRequest] = []

    def decide(read: Read) -> Outcome:
        table = read.table
        cash_only(table)
        require_open(table)
        if not table.is_private:
            raise TableError("not_private", _("this table is open to all: take a seat"))
        if not isinstance(invite, str) or not secrets.compare_digest(
            invite.encode(), table.invite_token.encode()
        ):
            raise TableError("forbidden", _("that is not this table's invite link"))
        _not_seated(read, user)
        seat = read.seats.get(seat_number)
        if seat is None or not seat.is_empty:
            raise TableError("seat_taken", _("seat %(n)d is not free"), {"n": seat_number})
        if not table.min_buy_in <= buy_in <= table.max_buy_in:
            raise TableError(
                "bad_buy_in",
                _("the buy-in is between %(min)d and %(max)d"),
                {"min": table.min_buy_in, "max": table.max_buy_in},
            )
        if table.invite_seats:
            at = timezone.now()
            asked.append(
                SeatRequest.objects.create(
                    table=table,
                    user=user,
                    seat=seat_number,
                    buy_in=buy_in,
                    wait_for_big_blind=wait_for_big_blind,
                    status=SeatRequestStatus.APPROVED,
                    decided_at=at,
                )
            )
            # The player sits at once, in this change (the seat and buy-in checked again).
            return _sit(read, user, seat_number, buy_in, wait_for_big_blind, at, approved=True)
        request, _created = SeatRequest.objects.update_or_create(
            table=table,
            user=user,
            status=SeatRequestStatus.PENDING,
            defaults={
                "seat": seat_number,
                "buy_in": buy_in,
                "wait_for_big_blind": wait_for_big_blind,
            },
        )
        asked.append(request)
        return CHANGED

    STATE.change(table_id, None, decide)
    return asked[0]


def seat_request_decide(
    table_id: int, user: Any, request_id: int, approve: bool, *, now: datetime | None = None
) -> SeatRequest:
    """The host approves (the player sits, with the ledger's buy-in) or refuses a request.

    An approval whose seat was taken meanwhile is refused with ``seat_taken`` and the
    request stays pending, so the host can ask the player to choose another seat.
    """
    at = now or timezone.now()
    decided: list[SeatRequest] = []

    def decide(read: Read) -> Outcome:
        table = read.table
        cash_only(table)
        require_host(table, user)
        request = (
            table.seat_requests.select_for_update()
            .filter(pk=request_id, status=SeatRequestStatus.PENDING)
            .select_related("user")
            .first()
        )
        if request is None:
            raise TableError("not_found", _("there is no such pending seat request"))
        decided.append(request)
        request.decided_at = at
        if approve:
            request.status = SeatRequestStatus.APPROVED
            request.save()
            # The player sits in this change (refused if the seat was taken meanwhile).
            return _sit(
                read,
                request.user,
                request.seat,
                request.buy_in,
                request.wait_for_big_blind,
                at,
                approved=True,
            )
        request.status = SeatRequestStatus.REFUSED
        request.save()
        # The player's page hears it now, not at its next reload.
        alert_add(table.pk, request.user_id, REQUEST_REFUSED, {"seat": request.seat})
        return CHANGED

    STATE.change(table_id, None, decide)
    return decided[0]
