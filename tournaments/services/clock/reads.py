"""What the clock reads, and writes nothing: its rows, and hand-for-hand in the room.

The bottom of the clock's modules: the payload (``payload``), the stored clock (``store``)
and every workflow read the rows and hand-for-hand through these, and this module imports
none of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from django.utils import timezone
from django.utils.crypto import salted_hmac

from tournaments import selectors
from tournaments.clock import ClockRow, ClockState, clock_state, rows_from
from tournaments.models import BlindLevel, Entry, EntryState, Tournament, TournamentState
from tournaments.services import results

# States in which the clock runs by itself; the clock sets which of the two from its row.
CLOCK_STATES = (TournamentState.RUNNING, TournamentState.ON_BREAK)


# What hand-for-hand in the room keeps on the tournament row, saved and restored with the
# clock (every clock action's Undo puts them back as they were).
HAND_FOR_HAND_FIELDS = (
    "hand_for_hand",
    "hand_for_hand_hand",
    "hand_for_hand_done",
    "hand_for_hand_out_hand",
)


# What the clock reads of a row; read as values, not model instances (a level change reads
# its blind structure twice, and instances cost most of its time).
ROW_FIELDS = (
    "kind",
    "minutes",
    "small_blind",
    "big_blind",
    "ante",
    "ante_kind",
    "small_bet",
    "big_bet",
    "colour_up",
)


def clock_rows(blind_structure_id: int) -> tuple[ClockRow, ...]:
    """The clock's rows of a blind structure, breaks included, in position order."""
    levels = (
        BlindLevel.objects.filter(blind_structure_id=blind_structure_id)
        .order_by("position", "pk")
        .values(*ROW_FIELDS)
    )
    return rows_from(SimpleNamespace(**level) for level in levels)


def clock_rows_many(blind_structure_ids: Iterable[int]) -> dict[int, tuple[ClockRow, ...]]:
    """The clock's rows of several blind structures in one query, by blind structure id."""
    levels: dict[int, list[SimpleNamespace]] = {}
    query = (
        BlindLevel.objects.filter(blind_structure_id__in=list(blind_structure_ids))
        .order_by("blind_structure_id", "position", "pk")
        .values("blind_structure_id", *ROW_FIELDS)
    )
    for level in query:
        levels.setdefault(level.pop("blind_structure_id"), []).append(SimpleNamespace(**level))
    return {blind_structure_id: rows_from(rows) for blind_structure_id, rows in levels.items()}


def clock_read(tournament: Tournament, now: datetime | None = None) -> ClockState:
    """What the tournament's clock shows at ``now`` (for pages that already hold the row)."""
    return clock_state(tournament, clock_rows(tournament.blind_structure_id), now or timezone.now())


@dataclass(frozen=True)
class HandForHand:
    """Hand-for-hand as the screens show it: on or not, the hand being played (0: the
    hands in play when it was announced), the tables in play and those done with it, and
    whether the bubble burst on this hand (it ends when every table is done with it)."""

    on: bool
    hand: int
    tables: tuple[int, ...] = ()
    done: tuple[int, ...] = ()
    burst: bool = False

    @property
    def playing(self) -> tuple[int, ...]:
        return tuple(number for number in self.tables if number not in self.done)

    def as_dict(self) -> dict[str, Any]:
        return {
            "on": self.on,
            "hand": self.hand,
            "tables": list(self.tables),
            "playing": list(self.playing),
            "done": list(self.done),
            "burst": self.burst,
        }


def tables_in_play(tournament_ids: Iterable[int]) -> dict[int, tuple[int, ...]]:
    """The numbers of the tables with players in play, by tournament (one query)."""
    found: dict[int, set[int]] = {}
    rows = (
        Entry.objects.filter(
            tournament_id__in=list(tournament_ids),
            state=EntryState.PLAYING,
            table_number__isnull=False,
        )
        .order_by()
        .values_list("tournament_id", "table_number")
        .distinct()
    )
    for tournament_id, number in rows:
        found.setdefault(tournament_id, set()).add(number)
    return {tournament_id: tuple(sorted(numbers)) for tournament_id, numbers in found.items()}


def _hand_for_hand_of(tournament: Tournament, tables: tuple[int, ...]) -> HandForHand:
    if not tournament.hand_for_hand or tournament.online:
        return HandForHand(tournament.hand_for_hand, tournament.hand_for_hand_hand)
    done = tuple(n for n in tables if n in set(tournament.hand_for_hand_done or ()))
    # Read, not stored: hand-for-hand cannot start in the money and ends with the hand the
    # bubble burst on, so while it is on, players left within the places paid means this
    # hand burst it (and an undone elimination takes the burst back with it).
    burst = in_the_money(tournament)
    return HandForHand(True, tournament.hand_for_hand_hand, tables, done, burst)


def clock_hand_for_hand_many(tournaments: Sequence[Tournament]) -> dict[int, HandForHand]:
    """Hand-for-hand of each tournament; one query, and the bubble's few per tournament,
    when any is hand-for-hand in the room."""
    wanted = [t.pk for t in tournaments if t.hand_for_hand and not t.online]
    tables = tables_in_play(wanted) if wanted else {}
    return {t.pk: _hand_for_hand_of(t, tables.get(t.pk, ())) for t in tournaments}


def clock_hand_for_hand_read(tournament: Tournament) -> HandForHand:
    """Hand-for-hand of one tournament (the console's and the dealers' pages)."""
    return clock_hand_for_hand_many([tournament])[tournament.pk]


def clock_dealer_key(tournament: Tournament, table: int) -> str:
    """The key in a table's dealer link (its "hand done" page, opened without a login on
    the dealer's phone): derived from the site's secret, the tournament and its TV link key,
    and the table's number, so the link opens that table's page only, and the TV link
    (which players hold) gives no way to it."""
    value = f"{tournament.pk}:{table}:{tournament.tv_token}"
    return salted_hmac("tournaments.clock.dealer", value, algorithm="sha256").hexdigest()[:32]


def in_the_money(tournament: Tournament) -> bool:
    paid = results.paid_places(tournament)
    return bool(paid) and selectors.places_taken(tournament) <= paid
