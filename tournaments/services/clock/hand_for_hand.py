"""Hand-for-hand in the room: on, each table's hand done, off, and the bubble bursting.

What the screens read of it (``HandForHand``) is in ``reads``; online tables go
hand-for-hand by themselves (``tournaments.services.online``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments.clock import ClockRow, position, row_at
from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.services.clock.reads import (
    CLOCK_STATES,
    HAND_FOR_HAND_FIELDS,
    clock_rows,
    in_the_money,
    tables_in_play,
)
from tournaments.services.clock.store import (
    clock_record,
    clock_running_check,
    clock_saved,
    clock_store,
    director_check,
    row_length,
)
from tournaments.services.locks import tournament_locked
from tournaments.summaries import Message, message

# In the room (TDA RP-8, docs/rules.md "Hand-for-hand"): at the bubble the director turns it on
# and the clock stops. Every table plays one hand and says so ("hand done": its dealer from
# the table's own page, or the director from the console); when every table in play has,
# the next hand is dealt everywhere at once and the clock loses the tournament's
# ``hand_for_hand_minutes`` for the hand just played. The clock never runs during
# hand-for-hand (a resume is refused), so how long a table takes over its hand changes
# nothing: each hand costs the same fixed time, as TDA RP-8 has it. Hand 0 is the hands
# already in play when it was announced: they are finished, and cost no time. When the
# time runs out the next level starts, still stopped (its blinds apply from the next hand).
# Turning it off ends it, and so does the bubble bursting: the elimination that leaves no
# more players than places paid keeps it on until that hand is done at every table (TDA
# RP-8: hand-for-hand lasts until the hand the bubble burst on is complete everywhere, so a
# player out on it at another table, recorded after, still ties); the clock then runs again.
# Online tables go hand-for-hand by themselves (``tournaments.services.online``).


def _save_hand_for_hand(tournament: Tournament) -> None:
    tournament.save(update_fields=list(HAND_FOR_HAND_FIELDS))


def _hand_for_hand_time(tournament: Tournament, rows: Sequence[ClockRow]) -> None:
    """The hand in play is over: the stopped clock loses its minutes (none for hand 0);
    when that is all the time left, the next row starts, stopped, with its full time."""
    minutes = tournament.hand_for_hand_minutes
    if not tournament.hand_for_hand_hand or not minutes or tournament.paused_remaining is None:
        return
    left = tournament.paused_remaining - timedelta(minutes=minutes)
    following = row_at(rows, tournament.level_index + 1)
    if left > timedelta(0) or following is None:
        tournament.paused_remaining = max(left, timedelta(0))
        return
    tournament.level_index = following.index
    tournament.paused_remaining = row_length(tournament, rows, following)


def _hand_for_hand_end(tournament: Tournament, now: datetime) -> None:
    """Hand-for-hand off; the clock runs again from the time it has left."""
    tournament.hand_for_hand = False
    tournament.hand_for_hand_done = []
    tournament.hand_for_hand_out_hand = None
    _save_hand_for_hand(tournament)
    if tournament.paused_remaining is not None:
        tournament.level_ends_at = now + tournament.paused_remaining
        tournament.paused_remaining = None


def clock_hand_for_hand_start(
    tournament_id: int, *, by: Any, now: datetime | None = None
) -> Tournament:
    """Turn hand-for-hand on: the clock stops where it is (a clock already paused stays
    as it is), and hand 0 (the hands in play) is to be finished at every table.

    Refused online, before the clock starts, on a break (it starts with play), with one
    table left (every hand is then played hand-for-hand anyway) and when every player left
    is already in the money.
    """
    director_check(by)
    now = now or timezone.now()
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        if tournament.online:
            raise TournamentError(_("Online tables go hand-for-hand by themselves at the bubble."))
        clock_running_check(tournament)
        if tournament.hand_for_hand:
            raise TournamentError(_("Hand-for-hand is already on."))
        rows = clock_rows(tournament.blind_structure_id)
        at = position(tournament, rows, now)
        row = row_at(rows, at.index)
        if row is not None and row.is_break:
            raise TournamentError(_("Hand-for-hand starts with play, not on a break."))
        if len(tables_in_play([tournament.pk]).get(tournament.pk, ())) < 2:
            raise TournamentError(
                _("With one table in play every hand is already played hand-for-hand.")
            )
        if in_the_money(tournament):
            raise TournamentError(_("Every player left is in the money: the bubble has burst."))
        before = clock_saved(tournament)
        tournament.level_index = at.index
        tournament.level_ends_at = None
        tournament.paused_remaining = at.remaining
        tournament.hand_for_hand = True
        tournament.hand_for_hand_hand = 0
        tournament.hand_for_hand_done = []
        tournament.hand_for_hand_out_hand = None
        _save_hand_for_hand(tournament)
        clock_store(tournament, rows)
        clock_record(
            tournament,
            "hand-for-hand",
            message(gettext_noop("Hand-for-hand started: the clock stops")),
            before,
            by,
        )
    return tournament


def _hand_over(
    tournament: Tournament,
    rows: Sequence[ClockRow],
    table: int | None,
    done: set[int],
    *,
    everywhere: bool,
    now: datetime,
) -> Message:
    """Count table ``table``'s hand done (None: every table's), ``done`` the tables done
    with it now, and say so for the log: the hand over at every table (``everywhere``)
    starts the next hand, or ends hand-for-hand when the bubble burst on it."""
    if everywhere and in_the_money(tournament):
        # The hand the bubble burst on is over at every table: no more hand-for-hand.
        _hand_for_hand_time(tournament, rows)
        _hand_for_hand_end(tournament, now)
        if table is None:
            return message(
                gettext_noop(
                    "Hand-for-hand: every table is done, the bubble has burst: "
                    "hand-for-hand ended, the clock runs again"
                )
            )
        return message(
            gettext_noop(
                "Hand-for-hand: table %(table)s is done, the bubble has burst: "
                "hand-for-hand ended, the clock runs again"
            ),
            table=table,
        )
    if everywhere:
        _hand_for_hand_time(tournament, rows)
        tournament.hand_for_hand_hand += 1
        tournament.hand_for_hand_done = []
        tournament.hand_for_hand_out_hand = None
        if table is None:
            return message(
                gettext_noop("Hand-for-hand: every table is done, hand %(hand)s starts"),
                hand=tournament.hand_for_hand_hand,
            )
        return message(
            gettext_noop("Hand-for-hand: table %(table)s is done, hand %(hand)s starts"),
            table=table,
            hand=tournament.hand_for_hand_hand,
        )
    tournament.hand_for_hand_done = sorted(done)
    return message(gettext_noop("Hand-for-hand: table %(table)s is done"), table=table)


def clock_hand_done(
    tournament_id: int,
    table: int | None,
    *,
    hand: int,
    by: Any,
    now: datetime | None = None,
) -> Tournament:
    """Table ``table`` has finished hand-for-hand hand ``hand`` (None: the director says
    every table has). The last table in play to finish starts the next hand everywhere,
    and the clock loses its minutes for the hand just played; if the bubble burst on that
    hand (every player left is in the money), hand-for-hand ends there instead and the
    clock runs again (TDA RP-8).

    ``hand`` is the hand the page showed: a tap from a page shown before the hand changed
    (a dealer's second tap, a page left open) is refused rather than counted for the next
    hand. ``by`` None: a dealer's page, which needs no login.
    """
    director_check(by)
    now = now or timezone.now()
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        if not tournament.hand_for_hand or tournament.online:
            raise TournamentError(_("Hand-for-hand is not on."))
        if hand != tournament.hand_for_hand_hand:
            raise TournamentError(
                _("That was for hand %(seen)s; hand-for-hand is now at hand %(hand)s.")
                % {"seen": hand, "hand": tournament.hand_for_hand_hand}
            )
        tables = tables_in_play([tournament.pk]).get(tournament.pk, ())
        done = set(tournament.hand_for_hand_done or ()) & set(tables)
        if table is not None:
            if table not in tables:
                raise TournamentError(_("There is no table %(table)s in play.") % {"table": table})
            if table in done:
                raise TournamentError(
                    _("Table %(table)s has already said this hand is done.") % {"table": table}
                )
            done.add(table)
        before = clock_saved(tournament)
        rows = clock_rows(tournament.blind_structure_id)
        everywhere = table is None or done >= set(tables)
        summary = _hand_over(tournament, rows, table, done, everywhere=everywhere, now=now)
        _save_hand_for_hand(tournament)
        # The clock's version moves with every tap, so each screen takes the new state.
        clock_store(tournament, rows)
        clock_record(
            tournament,
            "hand-done",
            summary,
            before,
            by,
            dealer=table if by is None and table is not None else None,
        )
    return tournament


def clock_hand_for_hand_stop(
    tournament_id: int, *, by: Any, now: datetime | None = None
) -> Tournament:
    """Turn hand-for-hand off: the clock runs again from the time it has left."""
    director_check(by)
    now = now or timezone.now()
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        if not tournament.hand_for_hand or tournament.online:
            raise TournamentError(_("Hand-for-hand is not on."))
        before = clock_saved(tournament)
        _hand_for_hand_end(tournament, now)
        clock_store(tournament)
        clock_record(
            tournament,
            "hand-for-hand-off",
            message(gettext_noop("Hand-for-hand ended: the clock runs again")),
            before,
            by,
        )
    return tournament


def clock_hand_for_hand_burst(tournament_id: int, now: datetime | None = None) -> bool:
    """After an elimination: end hand-for-hand at once if the bubble burst (every player
    left is in the money) on hand 0, the hands in play when it was announced; whether it
    did. Those hands were not dealt hand-for-hand, so nobody out on them ties and there is
    nothing to wait for; they cost no time. On a hand dealt hand-for-hand it stays on until
    that hand is done at every table (``clock_hand_done`` ends it), so that a player out on
    it at another table ties (TDA RP-8); meanwhile the screens say the bubble burst
    (``HandForHand.burst``). Logged like the director's own actions (Undo brings
    hand-for-hand back, before the elimination can be undone)."""
    now = now or timezone.now()
    if not Tournament.objects.filter(pk=tournament_id, hand_for_hand=True, online=False).exists():
        return False  # the usual case, without taking the tournament's lock
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        if (
            not tournament.hand_for_hand
            or tournament.online
            or tournament.state not in CLOCK_STATES
            or tournament.hand_for_hand_hand > 0
            or not in_the_money(tournament)
        ):
            return False
        before = clock_saved(tournament)
        rows = clock_rows(tournament.blind_structure_id)
        _hand_for_hand_end(tournament, now)
        clock_store(tournament, rows)
        clock_record(
            tournament,
            "bubble",
            message(gettext_noop("The bubble burst: hand-for-hand ended, the clock runs again")),
            before,
            None,
        )
    return True
