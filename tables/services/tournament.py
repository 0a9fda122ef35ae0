"""Tournament tables: what a tournament asks of the live tables, in the tables' own terms.

The tables know nothing of tournaments (docs/architecture.md); whoever runs one opens
tables with their players and stacks (``tournament_table_open``), sets the stakes of the
next hand (``table_stakes_set``), releases a table held after its hand (``table_release``) or holds it
(``table_hold``: paused, waiting for the other tables in hand-for-hand), moves a player
between tables (``seat_move``), seats a newcomer (``seat_place``), adds chips from the next
hand (``seat_chips_add``), takes a busted player's seat away (``seat_vacate``) and closes a
table (``tournament_table_close``). A tournament table has no buy-in or cash-out: its chips
come and go only through these, so the sum of the stacks over a tournament's tables is
what the tournament put there.

Every change runs with the table rows locked; a move locks both tables in id order (the same
order everywhere, so two moves never wait on each other in a circle) and bumps both
versions. After commit the old table's sockets are told where the player went (``moved``).
"""

from __future__ import annotations

import copy
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tables.engine.config import AnteKind, Game, Structure
from tables.engine.errors import RuleError
from tables.engine.timebank import TimeBank
from tables.errors import TableError
from tables.models import BOT_STYLES, SAT_OUT_BY_DIRECTOR, Seat, SeatState, Table, TableKind
from tables.runtime import broadcast, rows
from tables.runtime.state import CHANGED, STATE, Outcome, Read
from tables.services.common import schedule_next_hand, seat_clear, seat_in_hand

BOT_PREFIX = "bot-"
BOT_NAMES = (
    "Chipper",
    "Rivera",
    "Nutsy",
    "Blinds",
    "Muckler",
    "Tilt",
    "Quads",
    "Stacks",
    "Ace",
    "Boaty",
    "Wheel",
    "Scoop",
)


@dataclass(frozen=True)
class Stakes:
    """The blinds, ante and (limit) bets a hand is dealt at, and the number of the
    tournament's level they belong to (0: none; the time bank refills once per level, and
    each hand dealt at these stakes keeps the number: ``Hand.level``)."""

    small_blind: int
    big_blind: int
    ante: int = 0
    ante_kind: str = AnteKind.NONE.value
    big_bet: int | None = None
    level: int = 0


@dataclass(frozen=True)
class Sitter:
    """A player to seat: their account, their chips, and a house bot's style ("" for a person)."""

    user_id: int
    stack: int
    bot_style: str = ""


def house_bot_user(key: str, index: int) -> User:
    """A house bot's account for a tournament (``key`` names it, ``index`` numbers the bot):
    it logs in like anyone, with no password, and plays through ``tables.bots``."""
    user, created = User.objects.get_or_create(
        username=f"{BOT_PREFIX}{key}-{index}",
        defaults={"first_name": f"{BOT_NAMES[index % len(BOT_NAMES)]} {index}"},
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def bot_style_of(user: Any, index: int = 0) -> str:
    """A house bot's playing style ("" for a person): bots' accounts are named ``bot-...``
    and cannot log in with a password."""
    if user is None or not str(user.username).startswith(BOT_PREFIX) or user.has_usable_password():
        return ""
    return BOT_STYLES[(index + user.pk) % len(BOT_STYLES)]


def _stakes_of(table: Table) -> tuple[Any, ...]:
    """What ``_apply_stakes`` sets on ``table``."""
    return (
        table.small_blind,
        table.big_blind,
        table.ante,
        table.ante_kind,
        table.big_bet,
        table.stakes_level,
        table.time_bank_level,
    )


def _apply_stakes(table: Table, stakes: Stakes) -> None:
    table.small_blind = stakes.small_blind
    table.big_blind = stakes.big_blind
    table.ante = stakes.ante
    table.ante_kind = stakes.ante_kind if stakes.ante else AnteKind.NONE.value
    table.big_bet = stakes.big_bet
    table.stakes_level = stakes.level or None
    # Never back: a level the clock takes back and gives again is not refilled twice. A
    # table without a time bank has nothing to refill, and its stakes alone are news.
    if table.time_bank_cap_seconds:
        table.time_bank_level = max(table.time_bank_level, stakes.level)
    try:
        table.config  # noqa: B018 - the engine validates the stakes
    except RuleError as exc:
        raise TableError.from_rule("bad_table", exc) from None


def tournament_table_open(
    *,
    name: str,
    game: str,
    structure: str,
    seat_count: int,
    stakes: Stakes,
    sitters: dict[int, Sitter],
    raise_cap: int | None = 4,
    uncapped_heads_up: bool = False,
    pot_assumes_small_blind_call: bool = False,
    time_bank: TimeBank | None = None,
    rng: random.Random | None = None,
    group: str = "",
) -> Table:
    """Open a tournament table with its players (seat number -> ``Sitter``), held until its
    first release; ``group`` names the tables of one tournament (``seat_elsewhere``). The first hand's button goes to a seat drawn at random (TDA 7). With a
    ``time_bank``, each player (not a house bot) starts with its starting seconds, refilled
    from the next level on (``Stakes.level``)."""
    if not 2 <= seat_count <= 10:
        raise TableError("bad_table", _("a table has 2 to 10 seats"))
    if any(not 1 <= n <= seat_count for n in sitters):
        raise TableError("bad_table", _("seats run from 1 to %(count)s"), {"count": seat_count})
    table = Table(
        name=name,
        kind=TableKind.TOURNAMENT,
        group=group,
        game=Game(game).value,
        structure=Structure(structure).value,
        raise_cap=raise_cap if structure == Structure.LIMIT else None,
        seat_count=seat_count,
        min_buy_in=0,
        max_buy_in=0,
        uncapped_heads_up=uncapped_heads_up,
        pot_assumes_small_blind_call=pot_assumes_small_blind_call,
        held=True,
    )
    if time_bank is not None:
        table.time_bank_seconds = time_bank.start
        table.time_bank_refill_seconds = time_bank.refill
        table.time_bank_cap_seconds = time_bank.cap
    _apply_stakes(table, stakes)
    # deal_in gives the first hand's button to the first player after ``button``.
    table.button = (rng or secrets.SystemRandom()).randint(1, seat_count) - 1
    table.save()
    Seat.objects.bulk_create(
        Seat(
            table=table,
            number=n,
            user_id=sitters[n].user_id if n in sitters else None,
            bot_style=sitters[n].bot_style if n in sitters else "",
            stack=sitters[n].stack if n in sitters else 0,
            state=SeatState.PLAYING if n in sitters else SeatState.EMPTY,
            time_bank_ms=_starting_bank(table, sitters[n]) if n in sitters else 0,
            time_bank_level=table.time_bank_level if n in sitters else 0,
        )
        for n in range(1, seat_count + 1)
    )
    return table


def _starting_bank(table: Table, sitter: Sitter) -> int:
    """A newcomer's time bank: the table's starting seconds (none for a house bot)."""
    return 0 if sitter.bot_style else table.time_bank.starting_ms


def _tournament_table(read: Read) -> Table:
    """The table read, refused unless it is an open tournament table."""
    table = read.table
    if not table.is_tournament:
        raise TableError("not_tournament", _("this is not a tournament table"))
    if not table.is_open:
        raise TableError("closed", _("this table is closed"))
    return table


def _players(read: Read) -> int:
    """The seats with a player and chips."""
    return sum(1 for s in read.seats.values() if s.user_id is not None and s.stack > 0)


def table_stakes_set(table_id: int, stakes: Stakes) -> bool:
    """The stakes of the next hand (a hand in play keeps its own); True if they changed."""

    def decide(read: Read) -> Outcome:
        table = _tournament_table(read)
        before = _stakes_of(table)
        _apply_stakes(table, stakes)
        return None if before == _stakes_of(table) else CHANGED

    return STATE.change(table_id, None, decide)[1] is not None


def table_release(
    table_id: int, stakes: Stakes | None = None, *, now: datetime | None = None
) -> bool:
    """Let a held table deal its next hand (after the usual pause), at ``stakes`` if given.
    False when it was not held (a second release changes nothing)."""
    at = now or timezone.now()
    released = False

    def decide(read: Read) -> Outcome:
        nonlocal released
        table = _tournament_table(read)
        if stakes is not None:
            _apply_stakes(table, stakes)
        if not table.held:
            return None if stakes is None else CHANGED
        table.held = False
        released = True
        if read.hand is None and table.next_hand_at is None and _players(read) >= 2:
            schedule_next_hand(table, at)
        return CHANGED

    STATE.change(table_id, None, decide)
    return released


def table_hold(table_id: int) -> bool:
    """Deal no new hand until released; a hand in play finishes. False if already held."""

    def decide(read: Read) -> Outcome:
        table = _tournament_table(read)
        if table.held:
            return None
        table.held = True
        table.next_hand_at = None
        return CHANGED

    return STATE.change(table_id, None, decide)[1] is not None


def _seat(read: Read, number: int) -> Seat:
    seat = read.seats.get(number)
    if seat is None:
        raise TableError("no_seat", _("there is no seat %(seat)s at this table"), {"seat": number})
    return seat


@dataclass(frozen=True)
class SeatMoved:
    user_id: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    stack: int


def seat_move(from_table_id: int, from_seat: int, to_table_id: int, to_seat: int) -> SeatMoved:
    """Move a player with their stack to an empty seat of another table, between their hands.

    One transaction: both tables locked (lower id first), the old seat emptied and the new
    one taken with the same chips, both versions bumped. Refused while the player's table
    has a hand in play; the new table may be playing one (the player is dealt in from the
    next, unless between the small blind and the button: TDA 10, the engine's rule).
    """
    if from_table_id == to_table_id:
        raise TableError("bad_move", _("a move goes to another table"))
    left: list[Seat] = []

    def leave(read: Read) -> Outcome:
        source = _tournament_table(read)
        if read.hand is not None:
            raise TableError("hand_in_play", _("a player moves between hands only"))
        old = _seat(read, from_seat)
        if old.user_id is None:
            raise TableError(
                "bad_move",
                _("seat %(seat)s of %(table)s is empty"),
                {"seat": from_seat, "table": source.name},
            )
        left.append(copy.copy(old))
        seat_clear(old)
        return CHANGED

    def arrive(read: Read) -> Outcome:
        target = _tournament_table(read)
        old = left[0]
        new = _seat(read, to_seat)
        if new.user_id is not None:
            raise TableError(
                "seat_taken",
                _("seat %(seat)s of %(table)s is taken"),
                {"seat": to_seat, "table": target.name},
            )
        if any(s.user_id == old.user_id for s in read.seats.values()):
            raise TableError("already_seated", _("that player already sits at that table"))
        new.user_id = old.user_id
        new.bot_style = old.bot_style
        new.stack = old.stack + old.adding
        new.state = (
            SeatState.SITTING_OUT if old.state == SeatState.SITTING_OUT else SeatState.PLAYING
        )
        new.sat_out_reason = old.sat_out_reason
        new.is_new = True
        new.muck_losing = old.muck_losing
        # The time bank goes with the player, with the level it was last refilled for.
        new.time_bank_ms = old.time_bank_ms
        new.time_bank_level = old.time_bank_level
        read.save(new)
        if not target.held and target.next_hand_at is None and read.hand is None:
            # A table left alone by its last opponent deals again when players arrive.
            schedule_next_hand(target, timezone.now())
        return CHANGED

    with rows.writing():
        # Both tables locked in id order before either changes: two moves never wait on
        # each other in a circle.
        for table_id in sorted((from_table_id, to_table_id)):
            rows.table_locked(table_id)
        STATE.change(from_table_id, None, leave)
        read, _outcome = STATE.change(to_table_id, None, arrive)
        user_id = left[0].user_id
        assert user_id is not None
        transaction.on_commit(
            lambda: broadcast.table_moved(from_table_id, user_id, to_table_id, to_seat)
        )
    return SeatMoved(
        user_id, from_table_id, from_seat, to_table_id, to_seat, read.seats[to_seat].stack
    )


def seat_place(table_id: int, number: int, sitter: Sitter) -> Seat:
    """Seat a newcomer (a late entry, a re-entry) with their chips at an empty seat."""

    def decide(read: Read) -> Outcome:
        table = _tournament_table(read)
        seat = _seat(read, number)
        if seat.user_id is not None:
            raise TableError("seat_taken", _("seat %(seat)s is taken"), {"seat": number})
        if any(s.user_id == sitter.user_id for s in read.seats.values()):
            raise TableError("already_seated", _("that player already sits at this table"))
        if sitter.stack <= 0:
            raise TableError("bad_buy_in", _("a player is seated with chips"))
        seat.user_id = sitter.user_id
        seat.bot_style = sitter.bot_style
        seat.stack = sitter.stack
        seat.state = SeatState.PLAYING
        seat.is_new = True
        seat.time_bank_ms = _starting_bank(table, sitter)
        seat.time_bank_level = table.time_bank_level
        read.save(seat)
        if not table.held and table.next_hand_at is None and read.hand is None:
            schedule_next_hand(table, timezone.now())
        return CHANGED

    return STATE.change(table_id, None, decide)[0].seats[number]


def seat_chips_add(table_id: int, number: int, chips: int) -> Seat:
    """Add chips to a seat (a rebuy, an add-on): on its stack at once, unless its player is
    in the hand in play (chips in a hand never change), then as that hand ends."""
    if chips <= 0:
        raise TableError("bad_buy_in", _("add a positive number of chips"))

    def decide(read: Read) -> Outcome:
        table = _tournament_table(read)
        seat = _seat(read, number)
        if seat.user_id is None:
            raise TableError("no_seat", _("seat %(seat)s is empty"), {"seat": number})
        if seat_in_hand(read, seat) is not None:
            seat.adding += chips  # play_hand_finish adds them when the hand ends
        else:
            seat.stack += chips
        read.save(seat)
        if read.hand is None and not table.held and table.next_hand_at is None:
            # A table left waiting with one stack (the other busted, offered the rebuy)
            # deals again once the rebuy's chips are on the seat.
            if _players(read) >= 2:
                schedule_next_hand(table, timezone.now())
        return CHANGED

    return STATE.change(table_id, None, decide)[0].seats[number]


def seat_vacate(table_id: int, number: int, user_id: int | None = None) -> bool:
    """Take away the seat of a player with no chips left (out of the tournament).

    Idempotent: nothing happens (False) when the table has closed since, or the seat is
    empty or someone else's (``user_id`` given) by now."""

    def decide(read: Read) -> Outcome:
        table = read.table
        if not table.is_tournament or not table.is_open:
            return None
        seat = _seat(read, number)
        if seat.user_id is None or (user_id is not None and seat.user_id != user_id):
            return None
        if seat.stack > 0 or seat.adding > 0:
            raise TableError("has_chips", _("a player with chips keeps their seat"))
        seat_clear(seat)
        return CHANGED

    return STATE.change(table_id, None, decide)[1] is not None


def _director_seat(read: Read, number: int, user_id: int) -> Seat:
    """Seat ``number`` of an open tournament table, ``user_id``'s."""
    table = read.table
    if not table.is_tournament or not table.is_open:
        raise TableError("closed", _("this table is closed"))
    seat = _seat(read, number)
    if seat.user_id != user_id:
        raise TableError("not_seated", _("that player has no seat here"))
    return seat


def seat_sit_out_for(table_id: int, number: int, user_id: int) -> Seat:
    """The tournament's director sits the player of seat ``number`` out: the seat and its
    chips stay, and the engine's away rules play it (blinds posted, hands folded) until the
    player sits back in. Refused when the seat is not ``user_id``'s."""

    def decide(read: Read) -> Outcome:
        seat = _director_seat(read, number, user_id)
        if seat.state == SeatState.SITTING_OUT and seat.sat_out_reason == SAT_OUT_BY_DIRECTOR:
            return None
        seat.state = SeatState.SITTING_OUT
        seat.sat_out_reason = SAT_OUT_BY_DIRECTOR
        read.save(seat, ("state", "sat_out_reason"))
        return CHANGED

    return STATE.change(table_id, None, decide)[0].seats[number]


def seat_remove_for(table_id: int, number: int, user_id: int) -> int:
    """The tournament's director removes the player of seat ``number``: the seat is emptied
    and its chips leave play; returns them. Refused while a hand is in play at the table
    (the player's chips may be in it: sit them out, then remove them once it ends), or when
    the seat is not ``user_id``'s."""
    chips = 0

    def decide(read: Read) -> Outcome:
        nonlocal chips
        table = read.table
        if not table.is_tournament or not table.is_open:
            raise TableError("closed", _("this table is closed"))
        if read.hand is not None:
            raise TableError(
                "hand_in_play",
                _(
                    "a hand is in play at this table: sit the player out, and remove them once it ends"
                ),
            )
        seat = _director_seat(read, number, user_id)
        chips = seat.stack + seat.adding
        seat_clear(seat)
        return CHANGED

    STATE.change(table_id, None, decide)
    return chips


def tournament_table_close(table_id: int, *, now: datetime | None = None) -> bool:
    """Close a tournament table (broken, or the tournament is over): its seats are emptied
    (their chips went to other tables or the tournament is over). A hand in play is left
    to finish first: the table closes itself when it ends (``closing``)."""
    closed = False

    def decide(read: Read) -> Outcome:
        nonlocal closed
        table = read.table
        if not table.is_tournament or not table.is_open:
            return None
        if read.hand is not None:
            table.closing = True
            return CHANGED
        for seat in read.seats.values():
            if seat.user_id is not None:
                seat_clear(seat)
        table.closed_at = now or timezone.now()
        table.closing = False
        table.held = True
        table.next_hand_at = None
        closed = True
        return CHANGED

    STATE.change(table_id, None, decide)
    return closed


def seats_of(table_ids: Sequence[int]) -> list[Seat]:
    """The occupied seats of these tables (a read, no lock)."""
    return list(
        Seat.objects.filter(table_id__in=list(table_ids), user__isnull=False).order_by(
            "table_id", "number"
        )
    )


def seat_elsewhere(table_id: int, user: Any) -> tuple[int, int] | None:
    """Where a player watching tournament table ``table_id`` without a seat there sits now
    (another open table of its tournament, seat), if anywhere: a page left at the old table
    after a move (a lost ``moved`` frame, a page opened later) follows the player there,
    never to a seat of another tournament they play at the same time."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    group = (
        Table.objects.filter(pk=table_id, kind=TableKind.TOURNAMENT)
        .values_list("group", flat=True)
        .first()
    )
    if not group:
        return None
    if Seat.objects.filter(table_id=table_id, user=user).exists():
        return None
    found = (
        Seat.objects.filter(
            user=user,
            table__kind=TableKind.TOURNAMENT,
            table__group=group,
            table__closed_at__isnull=True,
        )
        .values_list("table_id", "number")
        .first()
    )
    return None if found is None else (found[0], found[1])
