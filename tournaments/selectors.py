"""Reads of the tournaments that several views and services share.

The level number here is the clock's (``tournaments.clock``, projected from the stored
clock to now), so the entries rules (late registration, rebuys, re-entry "until level N")
and every screen agree on it. Level numbers
never count breaks: rows level, level, break, level are levels 1, 2, -, 3.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.db.models import Count, Q, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from core.names import NameOrder
from series.models import Player
from tables.selectors import hands_in_play as live_hands_in_play
from tables.selectors import seat_chips, table_open
from tournaments import clock
from tournaments.models import (
    BlindLevel,
    DealOffer,
    DealState,
    Entry,
    EntryState,
    LevelKind,
    Tournament,
    TournamentAction,
    TournamentState,
    TournamentTable,
)

# Entries that hold a place against the capacity: promised a seat, or in it.
PLACE_STATES = (EntryState.REGISTERED, EntryState.PLAYING)
LIVE_STATES = (EntryState.REGISTERED, EntryState.WAITING, EntryState.PLAYING)


def blind_structure_rows(tournament: Tournament) -> list[BlindLevel]:
    """The rows of the tournament's blind structure in clock order, breaks included."""
    return list(tournament.blind_structure.levels.order_by("position"))


def level_numbers(rows: Sequence[BlindLevel]) -> list[int]:
    """The level number of each row; a break gets the number of the level before it
    (0 for a break before the first level), as ``tournaments.clock`` counts them."""
    return [
        row.number if row.number is not None else row.levels_before for row in clock.rows_from(rows)
    ]


def level_count(rows: Sequence[BlindLevel]) -> int:
    return sum(1 for row in rows if row.kind == LevelKind.LEVEL)


def current_row(
    tournament: Tournament,
    rows: Sequence[BlindLevel] | None = None,
    now: datetime | None = None,
) -> BlindLevel | None:
    """The row the clock is on at ``now``: None before the start, and in the extra levels
    past the blind structure's end (no row of it is in play). Projected by ``tournaments.clock``
    like every clock screen, so a level whose time is up counts as over even if the task
    storing the change is a moment late."""
    if not tournament.is_started:
        return None
    rows = blind_structure_rows(tournament) if rows is None else rows
    if not rows:
        return None
    index = clock.position(tournament, clock.rows_from(rows), now or timezone.now()).index
    return rows[index] if index < len(rows) else None


def current_level_number(
    tournament: Tournament,
    rows: Sequence[BlindLevel] | None = None,
    now: datetime | None = None,
) -> int:
    """The level being played at ``now`` (on a break, the level just played); 0 before the
    start. A rule "until level N" holds while this is at most N."""
    if not tournament.is_started:
        return 0
    rows = blind_structure_rows(tournament) if rows is None else rows
    return clock.current_level_number(tournament, clock.rows_from(rows), now or timezone.now())


def rebuy_period_closes_at(tournament: Tournament, now: datetime | None = None) -> datetime | None:
    """When the rebuys end as the clock runs (the start of the first level past
    ``rebuy_until_level``); None with no rebuy period, or while the clock is stopped."""
    if tournament.rebuy_until_level is None or not tournament.is_started:
        return None
    rows = clock.rows_from(blind_structure_rows(tournament))
    return clock.window_closes_at(
        tournament, rows, now or timezone.now(), tournament.rebuy_until_level
    )


def status_shown(tournament: Tournament, now: datetime | None = None) -> tuple[str, str]:
    """The tournament's status as a badge shows it, (css name, words): in play, what the
    clock is on now (a break over counts as over, even if the task storing the change is a
    moment late), "Paused" while the clock is stopped, "Held for a deal" while a deal
    offered online holds the tables; otherwise the stored state."""
    if tournament.state not in (TournamentState.RUNNING, TournamentState.ON_BREAK):
        return tournament.state, tournament.get_state_display()
    if tournament.online_paused and deal_pending(tournament) is not None:
        return "paused", _("Held for a deal")
    if tournament.paused_remaining is not None or tournament.online_paused:
        return "paused", _("Paused")
    row = current_row(tournament, now=now)
    if row is not None and row.kind == LevelKind.BREAK:
        return TournamentState.ON_BREAK, TournamentState.ON_BREAK.label
    return TournamentState.RUNNING, TournamentState.RUNNING.label


def entries_of(tournament: Tournament) -> QuerySet[Entry]:
    """Every entry of the tournament with its player, in registration order."""
    return tournament.entries.select_related("player", "player__user").order_by(
        "registered_at", "pk"
    )


def entries_registered(tournament: Tournament) -> QuerySet[Entry]:
    return entries_of(tournament).filter(state__in=PLACE_STATES)


def entries_waiting(tournament: Tournament) -> QuerySet[Entry]:
    """The waiting list, first come first served."""
    return entries_of(tournament).filter(state=EntryState.WAITING)


def places_taken(tournament: Tournament) -> int:
    return tournament.entries.filter(state__in=PLACE_STATES).count()


def players_left(tournament: Tournament) -> int:
    """How many players are still in play (one count, no rows loaded)."""
    return tournament.entries.filter(state=EntryState.PLAYING).count()


def seats_drawn(tournament: Tournament) -> bool:
    """Whether the tournament has tables to sit at: its seats are drawn (before the start,
    the director may draw them early and start later)."""
    return tournament.tables.filter(broken_at__isnull=True).exists()


def entry_live_of(tournament: Tournament, player: Player) -> Entry | None:
    """The player's entry still in play (registered, waiting or playing), if any."""
    return tournament.entries.filter(player=player, state__in=LIVE_STATES).first()


# -- the walk-in form: the series' players a typed name may mean ----------------------------

# How many players the walk-in form suggests at most: a phone screen's worth.
SUGGESTIONS_MAX = 8


def _players_with_events() -> QuerySet[Player]:
    # The count of events played tells two players of one name apart on the director's screen.
    return Player.objects.select_related("user").annotate(events=Count("results", distinct=True))


def players_named(name: str) -> list[Player]:
    """The accounts and guests called ``name``, any case, oldest first."""
    name = " ".join(name.split())
    if not name:
        return []
    return list(_players_with_events().filter(name__iexact=name).order_by("pk"))


def players_matching(text: str, limit: int = SUGGESTIONS_MAX) -> list[Player]:
    """The accounts and guests whose name holds ``text`` (any case): the names that start
    with it first, then alphabetical."""
    text = " ".join(text.split())
    if not text:
        return []
    found = _players_with_events().filter(name__icontains=text)
    by_name = (NameOrder("name"), "pk")
    starting = list(found.filter(name__istartswith=text).order_by(*by_name)[:limit])
    inside = list(found.exclude(name__istartswith=text).order_by(*by_name)[: limit - len(starting)])
    return starting + inside


def entries_live_by_player(tournament: Tournament, players: Sequence[Player]) -> dict[int, Entry]:
    """Of ``players``, those already in the tournament (registered, waiting, playing or out,
    their newest entry): {player id: entry}. Such a player cannot be added again."""
    found: dict[int, Entry] = {}
    for entry in tournament.entries.filter(
        player__in=players, state__in=(*LIVE_STATES, EntryState.OUT)
    ).order_by("number"):
        found[entry.player_id] = entry
    return found


def entries_seated(tournament: Tournament) -> list[Entry]:
    """The players in play who have a seat, table by table and seat by seat."""
    return list(
        entries_of(tournament)
        .filter(state=EntryState.PLAYING, table_number__isnull=False, seat_number__isnull=False)
        .order_by("table_number", "seat_number", "pk")
    )


def entry_counts(tournament: Tournament) -> dict[str, int]:
    """Entries by state, plus the money-bearing counts the prize pool is made of."""
    totals = tournament.entries.aggregate(
        registered=Count("pk", filter=Q(state=EntryState.REGISTERED)),
        waiting=Count("pk", filter=Q(state=EntryState.WAITING)),
        playing=Count("pk", filter=Q(state=EntryState.PLAYING)),
        out=Count("pk", filter=Q(state=EntryState.OUT)),
        addons=Count("pk", filter=Q(addon=True)),
        rebuys=Coalesce(Sum("rebuys"), 0),
    )
    totals["entries"] = totals["playing"] + totals["out"]
    return totals


def actions_recent(tournament: Tournament, limit: int = 30) -> QuerySet[TournamentAction]:
    """The newest actions first, undone ones included (the console shows them struck out)."""
    return tournament.actions.select_related("by", "undone_by").order_by("-pk")[:limit]


def blind_structure_table(tournament: Tournament) -> list[dict[str, object]]:
    """The blind structure as the pages show it: each row with its level number (None for a
    break), whether the clock is on it, and whether it is the add-on break."""
    rows = blind_structure_rows(tournament)
    current = current_row(tournament, rows)
    table: list[dict[str, object]] = []
    for row, number in zip(rows, level_numbers(rows), strict=True):
        table.append(
            {
                "row": row,
                "number": None if row.kind == LevelKind.BREAK else number,
                "after_level": number,
                "current": current is not None and row.pk == current.pk,
                "addon": row.kind == LevelKind.BREAK and row.position == tournament.addon_at_break,
            }
        )
    return table


# -- online tournaments: reads of the live tables ------------------------------------------


def live_tables_of(tournament: Tournament) -> dict[int, int]:
    """The tournament's tables in play on the live tables: {table number: live table id}
    (not those broken, nor closed when the tournament ended)."""
    return dict(
        TournamentTable.objects.filter(
            tournament=tournament, broken_at__isnull=True, live_table__isnull=False
        )
        .filter(table_open("live_table_id"))
        .values_list("number", "live_table_id")
    )


def live_chips_of(tournament: Tournament) -> dict[tuple[int, int], int]:
    """The chips at each live seat of the tournament's tables: {(table number, seat number):
    chips}, a seat's chips counting those bought during the hand in play.

    One query for every table, so a lobby of 300 players costs the same as one of 6.
    """
    tables = live_tables_of(tournament)
    number_of = {live_id: number for number, live_id in tables.items()}
    return {
        (number_of[live_id], seat): chips
        for (live_id, seat), chips in seat_chips(tables.values()).items()
    }


def entry_live_stack(entry: Entry) -> int | None:
    """The chips of an entry's live seat (None: it has no live seat)."""
    if entry.table_number is None or entry.seat_number is None:
        return None
    # One query: the live table's id is a subquery of the seats' read.
    live = TournamentTable.objects.filter(
        tournament_id=entry.tournament_id, number=entry.table_number
    ).values_list("live_table_id", flat=True)
    chips = seat_chips(live)
    return next((c for (_, seat), c in chips.items() if seat == entry.seat_number), None)


def hands_in_play(tournament: Tournament) -> int:
    """How many of the tournament's live tables are in the middle of a hand."""
    return len(live_hands_in_play(live_tables_of(tournament).values()))


def deal_pending(tournament: Tournament) -> DealOffer | None:
    """The deal offer waiting for the hands in play or for the players' answers, if any."""
    return (
        DealOffer.objects.filter(tournament=tournament, state__in=(DealState.HELD, DealState.OPEN))
        .prefetch_related("answers__entry__player")
        .first()
    )


def deal_latest(tournament: Tournament) -> DealOffer | None:
    """The newest deal offer, pending or settled."""
    return (
        DealOffer.objects.filter(tournament=tournament)
        .prefetch_related("answers__entry__player")
        .first()
    )


def guest_entrants(tournament: Tournament | int) -> QuerySet[Player]:
    """The guests (players with no account) who entered ``tournament`` (or its id), by name:
    the names a guest picks from on the PIN page of their night, and whose seat cards carry
    a PIN."""
    return (
        Player.objects.filter(
            user__isnull=True,
            entries__tournament=tournament,
            entries__state__in=[*LIVE_STATES, EntryState.OUT],
        )
        .distinct()
        .order_by("name", "pk")
    )
