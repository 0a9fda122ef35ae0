"""Online tournaments: the tournament played on the live tables.

The tournament-night rules (``tournaments.seat_rules``, ``services.seating``, ``results``) run
the tournament; the live tables (``tables.services``, the tournament kind) deal it. The
two meet at three points:

- ``online_start`` (called by ``tournament_start`` for an online tournament, in its
  transaction) opens one live table per drawn ``TournamentTable``, seats the entries with
  their starting stacks, and releases the tables: dealing starts.
- Every hand a tournament table ends, the table holds itself and sends ``hand_ended``
  (after commit); ``online_hand_ended`` (its receiver) records who went out (places,
  prizes, bounties), finishes the tournament when one player is left, and otherwise keeps
  the tables even between hands (the final table redraw, breaking the highest table,
  balancing moves, TDA 11A, RP-9), then releases the tables that may deal again with the
  stakes of the level in force (TDA 23: a new level applies from the next hand). In
  hand-for-hand (at the money bubble, TDA RP-8) no table is released until every table has
  finished the hand, so the rounds are synchronised across tables and server processes.
- ``clock_stored`` (a new level, a break, a pause) sets the next hand's stakes at every
  live table, and releases the tables when a break or a pause ends.

Locking: every workflow here locks the tournament row first (``select_for_update``), then
the live tables it touches (the table services lock them, lower id first for a move). A
table's own hand never waits for a tournament lock, so the two orders never cross.

``Entry.table_number`` / ``seat_number`` always name the live seat (the moves update them
in the same transaction), and ``tables.Seat.stack`` is the chip count.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from core.request_values import id_or_none
from series.models import Player
from tables import services as tables
from tables.engine.config import AnteKind, Structure
from tables.engine.deal_in import ButtonMode, SeatStatus, next_positions
from tables.selectors import (
    SeatTaken,
    TableStanding,
    hand_ended_report,
    hands_in_play,
    held_hand_count,
    seats_in_play,
    table_open,
    tables_standing,
)
from tournaments import seat_rules as rules
from tournaments import selectors
from tournaments.errors import TournamentError, not_playing
from tournaments.models import (
    ActionKind,
    Entry,
    EntryState,
    Tournament,
    TournamentState,
    TournamentTable,
)
from tournaments.permissions import require_director
from tournaments.services import clock, entries, locks, results, seating, undo
from tournaments.services.seating import balance_threshold
from tournaments.signals import clock_stored, tournament_finished
from tournaments.summaries import chips as summary_chips
from tournaments.summaries import message

logger = logging.getLogger(__name__)

IN_PLAY = (TournamentState.RUNNING, TournamentState.ON_BREAK)

__all__ = [
    "online_bots_fill",
    "online_chips_add",
    "online_entry_seat",
    "online_hand_ended",
    "online_pause",
    "online_rebuy_offers_lapse",
    "online_resume",
    "online_start",
    "online_tables_release",
]


# ---------------------------------------------------------------------------- reads


def _require_online(tournament: Tournament) -> None:
    if not tournament.online:
        raise TournamentError(_("This tournament is not played online."))


def _live_tables(tournament: Tournament) -> list[TournamentTable]:
    """The open tables with a live table, lowest number first."""
    return list(
        TournamentTable.objects.filter(
            tournament=tournament, broken_at__isnull=True, live_table__isnull=False
        ).order_by("number")
    )


def stakes_now(tournament: Tournament, now: datetime | None = None) -> tables.Stakes | None:
    """The stakes of the level in force at ``now`` (None on a break or before the start)."""
    state = clock.clock_read(tournament, now)
    row = state.current
    if row is None or row.is_break:
        return None
    limit = tournament.event.structure == Structure.LIMIT
    big = (row.small_bet or row.big_blind) if limit else row.big_blind
    return tables.Stakes(
        small_blind=min(row.small_blind, big),
        big_blind=big,
        ante=row.ante if row.ante_kind != AnteKind.NONE else 0,
        ante_kind=row.ante_kind if row.ante else AnteKind.NONE.value,
        big_bet=(row.big_bet or 2 * big) if limit else None,
        level=state.level_number,
    )


def _user_of(entry: Entry) -> Any:
    user = entry.player.user
    if user is None:
        raise TournamentError(
            _("%(name)s has no account, so cannot play online.") % {"name": entry.player.name}
        )
    return user


def _sitter(entry: Entry, stack: int) -> tables.Sitter:
    user = _user_of(entry)
    return tables.Sitter(user.pk, stack, tables.bot_style_of(user, entry.pk))


def _entries_by_user(
    tournament: Tournament, user_ids: Iterable[int | None] | None = None
) -> dict[int, Entry]:
    """The entries still playing by their player's account: all, or those of ``user_ids``."""
    found = Entry.objects.select_related("player").filter(
        tournament=tournament, state=EntryState.PLAYING, player__user__isnull=False
    )
    if user_ids is not None:
        found = found.filter(player__user_id__in=[u for u in user_ids if u is not None])
    return {e.player.user_id: e for e in found}


def _no_hand(live_ids: Iterable[int]) -> set[int]:
    """The live tables with no hand in play (held, or about to deal)."""
    ids = list(live_ids)
    return set(ids) - set(hands_in_play(ids))


@dataclass
class _Floor:
    """A tournament's open tables as one workflow reads them, in four queries: the tables,
    where their live tables stand (``tables.selectors.tables_standing``: held, hands
    dealt, a hand in play), the seats of the players still in, the busted players offered
    the rebuy.

    A seat with no chips is not among ``seats``: its player is going out (their table's
    hand end, waiting for the tournament's lock, says so) and is never moved; unless they
    were offered the rebuy (``_add_offered``)."""

    tts: list[TournamentTable]
    seats: dict[int, list[SeatTaken]]
    standing: dict[int, TableStanding]

    @property
    def no_hand(self) -> set[int]:
        """The live tables with no hand in play (held, or about to deal)."""
        return {live_id for live_id, table in self.standing.items() if not table.in_hand}

    @property
    def live_ids(self) -> list[int]:
        return [tt.live_table_id for tt in self.tts if tt.live_table_id is not None]

    def between_hands(self) -> set[int]:
        """The live tables held with no hand in play: done with their hand, waiting for the
        tournament (the hand-for-hand barrier counts these)."""
        return {live_id for live_id, table in self.standing.items() if table.held} & self.no_hand

    def unsettled(self) -> set[int]:
        """The live tables whose last hand is over but not yet dealt with by the tournament:
        its "hand ended" waits for the tournament's lock in another process (or was lost,
        and the sweep will deal with it). A player out on that hand still sits there, so no
        one moves to or from that table, it is not released, and a hand-for-hand round is
        not over: its own hand end does all that once it has the lock."""
        return {
            tt.live_table_id
            for tt in self.tts
            if tt.live_table_id in self.standing
            and self.standing[tt.live_table_id].hand_count > tt.hand_seen
        } & self.no_hand

    def views(self, tournament: Tournament, *, positions: bool) -> list[rules.TableView]:
        """Each table as the seating rules see it, its players by account id; with
        ``positions``, where the next hand's button and blinds go (to choose who moves
        where), else the seats alone (enough to say whether anyone moves)."""
        return [
            _view(
                tt,
                self.standing.get(tt.live_table_id or 0),
                tt.seats or tournament.seats_per_table,
                self.seats.get(tt.live_table_id or 0, []),
                positions=positions,
            )
            for tt in self.tts
        ]


def _floor(tournament: Tournament) -> _Floor:
    tts = _live_tables(tournament)
    live_ids = [tt.live_table_id for tt in tts if tt.live_table_id is not None]
    seats = seats_in_play(live_ids)
    _add_offered(tournament, tts, seats)
    return _Floor(tts, seats, tables_standing(live_ids))


def _add_offered(
    tournament: Tournament, tts: Sequence[TournamentTable], seats: dict[int, list[SeatTaken]]
) -> None:
    """The busted players offered the rebuy keep their seats (no chips, so the tables leave
    them out): counted as seated, so nobody is seated on them and they move with the
    others (a broken table, the final table's draw)."""
    live_of = {tt.number: tt.live_table_id for tt in tts if tt.live_table_id is not None}
    offered = Entry.objects.filter(
        tournament=tournament, state=EntryState.PLAYING, rebuy_offer_until__isnull=False
    ).values_list("table_number", "seat_number", "player__user_id")
    for table_number, seat_number, user_id in offered:
        live_id = live_of.get(table_number)
        if live_id is None or seat_number is None or user_id is None:
            continue
        at_table = seats.setdefault(live_id, [])
        if all(taken.number != seat_number for taken in at_table):
            at_table.append(SeatTaken(seat_number, user_id))
            at_table.sort(key=lambda taken: taken.number)


def _hold_between_hands(live_ids: Iterable[int]) -> set[int]:
    """Hold these tables (no new hand starts: the hold takes each table's lock, which a
    deal holds too) and answer those with no hand in play: players may move from them.
    The release after the moves (``_release_ready``) lets them deal again."""
    ids = list(live_ids)
    for live_id in ids:
        tables.table_hold(live_id)
    return _no_hand(ids)


def _view(
    tt: TournamentTable,
    live: TableStanding | None,
    seat_count: int,
    seats: Sequence[SeatTaken],
    *,
    positions: bool = True,
) -> rules.TableView:
    """A live table as the seating rules see it (its players by account id), with where the
    next hand's blinds go (``live``: where its live table stands)."""
    taken = {s.number: s.user_id for s in seats}
    view_seats: dict[int, int | None] = {n: taken.get(n) for n in range(1, seat_count + 1)}
    assert live is not None
    if not positions or len(taken) < 2 or not live.last_big_blind:
        return rules.TableView(tt.number, view_seats)
    positions = next_positions(
        [SeatStatus(n, 1) for n in taken],
        previous_button=live.button,
        last_big_blind=live.last_big_blind,
        last_small_blind=live.last_small_blind,
        mode=ButtonMode.TOURNAMENT,
    )
    if positions is None or positions.big_blind not in taken:
        return rules.TableView(tt.number, view_seats)
    small = positions.small_blind if positions.small_blind in taken else None
    return rules.TableView(tt.number, view_seats, positions.button, small, positions.big_blind)


# ---------------------------------------------------------------------------- start


def online_start(tournament_id: int, *, by: Any, rng: random.Random | None = None) -> list[int]:
    """Open the live tables of an online tournament whose seats are drawn, and deal.

    ``tournament_start`` calls it in its own transaction for an online tournament (the
    seat draw, the clock, then this); called on a started tournament it opens the tables
    not opened yet. Returns the live tables' ids.
    """
    if by is not None:
        require_director(by)
    with transaction.atomic():
        tournament = locks.tournament_locked(tournament_id)
        _require_online(tournament)
        if tournament.state not in IN_PLAY:
            raise TournamentError(_("The tournament has not started."))
        stakes = stakes_now(tournament) or _first_level_stakes(tournament)
        opened = []
        for tt in TournamentTable.objects.filter(
            tournament=tournament, broken_at__isnull=True, live_table__isnull=True
        ).order_by("number"):
            _open_live(tournament, tt, stakes, rng=rng)
            opened.append(tt.live_table_id)
        _release_ready(tournament)
    return [t for t in opened if t is not None]


def _first_level_stakes(tournament: Tournament) -> tables.Stakes:
    rows = clock.clock_rows(tournament.blind_structure_id)
    first = next(r for r in rows if not r.is_break)
    limit = tournament.event.structure == Structure.LIMIT
    big = (first.small_bet or first.big_blind) if limit else first.big_blind
    return tables.Stakes(
        small_blind=first.small_blind,
        big_blind=big,
        ante=first.ante,
        ante_kind=first.ante_kind if first.ante else "none",
        big_bet=(first.big_bet or 2 * big) if limit else None,
        level=1,
    )


def _open_live(
    tournament: Tournament,
    tt: TournamentTable,
    stakes: tables.Stakes,
    *,
    rng: random.Random | None = None,
    sitters: dict[int, tables.Sitter] | None = None,
) -> int:
    """Open the table's live table with its sitters (by default its entries in play, with
    their chips); its id."""
    if sitters is None:
        starting = tournament.event.starting_stack
        sitters = {
            e.seat_number: _sitter(e, _entry_chips(tournament, e, starting))
            for e in Entry.objects.select_related("player__user").filter(
                tournament=tournament, state=EntryState.PLAYING, table_number=tt.number
            )
            if e.seat_number is not None
        }
    live = tables.tournament_table_open(
        name=_("%(event)s, table %(number)s")
        % {"event": tournament.event.name, "number": tt.number},
        game=tournament.event.game,
        structure=tournament.event.structure,
        seat_count=tt.seats or tournament.seats_per_table,
        stakes=stakes,
        sitters=sitters,
        raise_cap=tournament.raise_cap,
        uncapped_heads_up=tournament.uncapped_heads_up,
        pot_assumes_small_blind_call=tournament.pot_assumes_small_blind_call,
        time_bank=tournament.time_bank,
        rng=rng,
        group=f"tournament-{tournament.pk}",
    )
    tt.live_table = live
    tt.save(update_fields=["live_table"])
    return live.pk


def _entry_chips(tournament: Tournament, entry: Entry, starting: int) -> int:
    """A new entry's chips: the starting stack, with its rebuys and add-on if taken before
    its seat (the lobby may sell them before the start)."""
    chips = starting + entry.rebuys * tournament.rebuy_chips
    if entry.addon:
        chips += tournament.addon_chips
    return chips


def online_entry_seat(entry_id: int, *, by: Any = None, rng: random.Random | None = None) -> None:
    """Seat a late entry or re-entry on the live tables, with the entry's chips.

    The seat is drawn from the open seats by the tournament's late-seat rule (TDA 8:
    ``seating.seating_late_seat``, which opens a new table when every seat is taken);
    the player is dealt in from the next hand there (not between the small blind and the
    button, TDA 10: the engine's rule for a newcomer).
    """
    with transaction.atomic():
        entry = Entry.objects.select_related("player__user").get(pk=entry_id)
        tournament = locks.tournament_locked(entry.tournament_id)
        _require_online(tournament)
        if tournament.state not in IN_PLAY:
            raise TournamentError(_("The tournament is not running."))
        if entry.state != EntryState.PLAYING:
            raise not_playing(entry.player.name)
        if entry.table_number is None:
            seating.seating_late_seat(entry, by=by, rng=rng)
            entry.refresh_from_db()
        tt = TournamentTable.objects.get(tournament=tournament, number=entry.table_number)
        sitter = _sitter(entry, _entry_chips(tournament, entry, tournament.event.starting_stack))
        if tt.live_table_id is None:
            _open_live(
                tournament,
                tt,
                stakes_now(tournament) or _first_level_stakes(tournament),
                sitters={entry.seat_number or 1: sitter},
                rng=rng,
            )
        else:
            tables.seat_place(tt.live_table_id, entry.seat_number or 0, sitter)
        _release_ready(tournament)


def online_chips_add(entry_id: int, chips: int, *, by: Any = None) -> None:
    """Add chips (a rebuy, an add-on) to the entry's live seat from its next hand."""
    if isinstance(chips, bool) or not isinstance(chips, int) or chips <= 0:
        raise TournamentError(_("Add a positive number of chips."))
    with transaction.atomic():
        entry = Entry.objects.select_related("player").get(pk=entry_id)
        tournament = locks.tournament_locked(entry.tournament_id)
        _require_online(tournament)
        if entry.state != EntryState.PLAYING or entry.table_number is None:
            raise TournamentError(_("%(name)s has no seat.") % {"name": entry.player.name})
        tt = TournamentTable.objects.get(tournament=tournament, number=entry.table_number)
        if tt.live_table_id is None:
            raise TournamentError(_("%(name)s has no seat.") % {"name": entry.player.name})
        try:
            seat = tables.seat_chips_add(tt.live_table_id, entry.seat_number or 0, chips)
        except tables.TableError as error:
            raise TournamentError(error.message) from None
        if seat.user_id != entry.player.user_id:
            raise TournamentError(_("%(name)s has no seat.") % {"name": entry.player.name})


REASON_MAX = 200


def _director_target(
    tournament_id: Any, entry_id: Any, reason: str, by: Any
) -> tuple[Tournament, Entry, TournamentTable, str]:
    """The checks of a director's sit-out or removal, under the tournament's lock: a
    director, a reason, an entry of this online tournament in play at a live seat."""
    require_director(by)
    reason = " ".join(str(reason or "").split())
    if "\x00" in reason:
        raise TournamentError(_("Null characters are not allowed."))
    if not reason:
        raise TournamentError(_("Give the player a reason."))
    if len(reason) > REASON_MAX:
        raise TournamentError(_("A reason has at most %(max)s characters.") % {"max": REASON_MAX})
    tournament_pk = id_or_none(str(tournament_id))
    entry_pk = id_or_none(str(entry_id))
    tournament = (
        locks.tournament_locked(tournament_pk)
        if tournament_pk is not None and Tournament.objects.filter(pk=tournament_pk).exists()
        else None
    )
    entry = (
        Entry.objects.select_related("player").filter(pk=entry_pk, tournament=tournament).first()
        if tournament is not None and entry_pk is not None
        else None
    )
    if tournament is None or entry is None:
        raise TournamentError(_("That player is not in this tournament."))
    _require_online(tournament)
    if tournament.state not in IN_PLAY:
        raise TournamentError(_("The tournament is not running."))
    tt = (
        TournamentTable.objects.filter(
            tournament=tournament, number=entry.table_number, live_table__isnull=False
        ).first()
        if entry.state == EntryState.PLAYING and entry.table_number is not None
        else None
    )
    if tt is None or entry.seat_number is None or entry.player.user_id is None:
        raise TournamentError(_("%(name)s has no seat.") % {"name": entry.player.name})
    return tournament, entry, tt, reason


def online_entry_sit_out(tournament_id: Any, entry_id: Any, reason: str, *, by: Any) -> Entry:
    """The director sits a seated player out, with a reason the player reads on their panel:
    the seat and its chips stay, and the table's away rules play it (blinds posted, hands
    folded) until the player sits back in. Logged with the reason."""
    with transaction.atomic():
        tournament, entry, tt, reason = _director_target(tournament_id, entry_id, reason, by)
        try:
            tables.seat_sit_out_for(tt.live_table_id, entry.seat_number or 0, entry.player.user_id)
        except tables.TableError as error:
            raise TournamentError(error.message) from None
        entry.director_note = reason
        entry.save(update_fields=["director_note"])
        undo.action_record(
            tournament,
            ActionKind.SIT_OUT,
            message(
                gettext_noop("Sat out: %(name)s (%(reason)s)"),
                name=entry.player.name,
                reason=reason,
            ),
            by=by,
            undo={"entry": entry.pk},
        )
    return entry


def online_entry_remove(tournament_id: Any, entry_id: Any, reason: str, *, by: Any) -> Entry:
    """The director removes a seated player from the tournament, with a reason the player
    reads on their panel: they are out as an elimination (the next place, no bounty won),
    their seat is emptied and their chips leave play (the log says how many). Refused while
    a hand is in play at their table: sit them out first, then remove them once it ends."""
    with transaction.atomic():
        tournament, entry, tt, reason = _director_target(tournament_id, entry_id, reason, by)
        if selectors.players_left(tournament) < 2:
            raise TournamentError(_("Someone must win: at least one player stays in."))
        try:
            chips = tables.seat_remove_for(
                tt.live_table_id, entry.seat_number or 0, entry.player.user_id
            )
        except tables.TableError as error:
            raise TournamentError(error.message) from None
        entry.director_note = reason
        entry.rebuy_offer_until = None
        entry.rebuy_offer = {}
        entry.table_number = entry.seat_number = None
        entry.save(
            update_fields=[
                "director_note",
                "rebuy_offer_until",
                "rebuy_offer",
                "table_number",
                "seat_number",
            ]
        )
        entry = results.entry_out_removed(tournament, entry, chips)
        undo.action_record(
            tournament,
            ActionKind.REMOVE,
            message(
                gettext_noop(
                    "Removed: %(name)s (place %(place)s), %(chips)s out of play (%(reason)s)"
                ),
                name=entry.player.name,
                place=entry.place or "?",
                chips=summary_chips(chips),
                reason=reason,
            ),
            by=by,
            undo={"entry": entry.pk},
        )
        if not _finish_if_won(tournament):
            floor = _floor(tournament)
            if _keep_even(tournament, floor):
                floor = _floor(tournament)
            _release_ready(tournament, floor)
    return entry


def online_bots_fill(tournament_id: int, count: int, *, by: Any) -> list[Entry]:
    """Register ``count`` house bots (series players with bot accounts): before the start,
    or during late registration, when each is seated at once."""
    require_director(by)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 1000:
        raise TournamentError(_("Choose between 1 and 1000 bots."))
    added: list[Entry] = []
    with transaction.atomic():
        tournament = locks.tournament_locked(tournament_id)
        _require_online(tournament)
        if tournament.is_over:
            raise TournamentError(_("This tournament is over."))
        taken = set(
            Entry.objects.filter(tournament=tournament).values_list("player__user_id", flat=True)
        )
        index = 0
        while len(added) < count:
            index += 1
            user = tables.house_bot_user(f"t{tournament.pk}", index)
            if user.pk in taken:
                continue
            player, _created = Player.objects.get_or_create(
                user=user, defaults={"name": user.first_name}
            )
            if tournament.is_started:
                added.append(entries.entry_late(tournament.pk, player.pk, by=by))
                if _live_tables(tournament):
                    online_entry_seat(added[-1].pk, by=by)
                continue
            # One logged registration per bot, as a player's own, so Undo takes them back.
            entry, data = entries.register_player(tournament, player)
            undo.action_record(
                tournament,
                ActionKind.REGISTER,
                _("Registered %(name)s (house bot)") % {"name": player.name},
                by=by,
                undo=data,
            )
            added.append(entry)
    return added


# ---------------------------------------------------------------------------- pause


def online_pause(tournament_id: int, *, by: Any) -> Tournament:
    """Pause the tournament: the clock stops, each table finishes its hand and waits."""
    require_director(by)
    with transaction.atomic():
        tournament = locks.tournament_locked(tournament_id)
        _require_online(tournament)
        if tournament.state not in IN_PLAY:
            raise TournamentError(_("The tournament is not running."))
        if tournament.online_paused:
            raise TournamentError(_("The tournament is already paused."))
        tournament.online_paused = True
        tournament.save(update_fields=["online_paused"])
        if tournament.paused_remaining is None:
            clock.clock_pause(tournament.pk, by=by)
        for tt in _live_tables(tournament):
            tables.table_hold(tt.live_table_id)
        undo.action_record(
            tournament, ActionKind.CLOCK, _("Tournament paused"), by=by, undo={"online": "pause"}
        )
    return tournament


def online_resume(tournament_id: int, *, by: Any) -> Tournament:
    """Resume a paused tournament: the clock runs again and the tables deal."""
    require_director(by)
    with transaction.atomic():
        tournament = locks.tournament_locked(tournament_id)
        _require_online(tournament)
        if not tournament.online_paused:
            raise TournamentError(_("The tournament is not paused."))
        tournament.online_paused = False
        tournament.save(update_fields=["online_paused"])
        if tournament.paused_remaining is not None and not tournament.hand_for_hand:
            clock.clock_resume(tournament.pk, by=by)
        tournament = locks.tournament_locked(tournament_id)
        undo.action_record(
            tournament, ActionKind.CLOCK, _("Tournament resumed"), by=by, undo={"online": "resume"}
        )
        _release_ready(tournament)
    return tournament


# ---------------------------------------------------------------------------- a hand ended


@receiver(tables.hand_ended)
def _hand_ended(sender: Any, table_id: int, hand_number: int, **kwargs: Any) -> None:
    try:
        online_hand_ended(table_id, hand_number, **kwargs)
    except Exception:
        # The table stays held; the sweep (``online_sweep``) deals with the hand again.
        logger.exception("live table %s: the end of hand %s failed", table_id, hand_number)


def online_hand_ended(
    table_id: int,
    hand_number: int,
    *,
    seats: Sequence[dict[str, int]] = (),
    pots: Sequence[dict[str, Any]] = (),
    eliminated_in: dict[int, int] | None = None,
    **_kwargs: Any,
) -> bool:
    """Deal with a hand a live table has ended: eliminations, the finish or the moves, and
    the release of the tables that may deal again. Idempotent (``TournamentTable.hand_seen``):
    False when the hand was already dealt with, or the table is not a tournament's."""
    tournament_id = (
        TournamentTable.objects.filter(live_table_id=table_id)
        .values_list("tournament_id", flat=True)
        .first()
    )
    if tournament_id is None:
        return False
    with transaction.atomic():
        tournament = locks.tournament_locked(tournament_id)
        tt = TournamentTable.objects.select_for_update().get(live_table_id=table_id)
        if tt.hand_seen >= hand_number or tournament.state not in IN_PLAY:
            return False
        tt.hand_seen = hand_number
        tt.save(update_fields=["hand_seen"])
        _eliminate(tournament, tt, seats, pots, eliminated_in or {})
        if _finish_if_won(tournament):
            return True
        floor = _floor(tournament)
        if _keep_even(tournament, floor):
            floor = _floor(tournament)
        _release_ready(tournament, floor)
    return True


def _eliminate(
    tournament: Tournament,
    tt: TournamentTable,
    seats: Sequence[dict[str, int]],
    pots: Sequence[dict[str, Any]],
    eliminated_in: dict[int, int],
) -> None:
    """Record who the hand left with no chips: out, or offered the rebuy with their seat
    kept when they may still rebuy (``_rebuy_offer``)."""
    busted = [row for row in seats if row["after"] <= 0]
    if not busted:
        return
    entries = _entries_by_user(tournament, [row["user_id"] for row in seats])
    by_seat = {row["seat"]: entries.get(row["user_id"]) for row in seats}
    winners = {int(p["pot"]): [by_seat.get(s) for s in p["winners"]] for p in pots}
    out: list[tuple[Entry, int]] = []
    knocked: dict[int, list[Entry]] = {}
    vacated: list[dict[str, int]] = []
    now = timezone.now()
    for row in busted:
        entry = by_seat.get(row["seat"])
        if entry is None:
            continue
        pot = eliminated_in.get(row["seat"], 0)
        knocked[entry.pk] = [w for w in winners.get(pot, []) if w is not None]
        until = _rebuy_offer_until(tournament, entry, now)
        if until is not None:
            _rebuy_offer(tournament, entry, row["before"], knocked[entry.pk], until)
            continue
        out.append((entry, row["before"]))
        vacated.append(row)
    if not out:
        return
    # A hand dealt hand-for-hand (not one already in play when it was announced): every
    # table's players out on it share one out_hand (RP-8), as in the room.
    shared = results.hand_for_hand_out_hand(tournament)
    results.eliminations_from_hand(
        tournament, out, knocked, hand_for_hand=shared is not None, out_hand=shared
    )
    for row in vacated:
        tables.seat_vacate(tt.live_table_id, row["seat"], row["user_id"])


# ---------------------------------------------------------------------------- rebuy after a bust


def _rebuy_offer_until(tournament: Tournament, entry: Entry, now: datetime) -> datetime | None:
    """Until when ``entry``, just busted, keeps their seat to rebuy: the director's time
    (``rebuy_after_bust_seconds``), cut at the end of the rebuy period. None when they
    cannot rebuy now (no rebuys, none left, the period over, a deal on the table): out."""
    if not tournament.rebuy_after_bust_seconds:
        return None
    if entries.rebuy_refusal(tournament, entry, stack=0) is not None:
        return None
    if selectors.deal_pending(tournament) is not None:
        return None
    until = now + timedelta(seconds=tournament.rebuy_after_bust_seconds)
    closes = selectors.rebuy_period_closes_at(tournament, now)
    if closes is not None:
        until = min(until, closes)
    return until if until > now else None


def _rebuy_offer(
    tournament: Tournament, entry: Entry, before: int, knocked: Sequence[Entry], until: datetime
) -> None:
    """Keep the busted ``entry``'s seat (no chips: never dealt in) and offer the rebuy until
    ``until``; a house bot takes it at once the first time (its stated rule: one rebuy,
    so a field of bots does not double the chips in play), and lets it lapse after."""
    entry.rebuy_offer_until = until
    entry.rebuy_offer = {"before": before, "by": [w.pk for w in knocked if w.pk != entry.pk]}
    entry.save(update_fields=["rebuy_offer_until", "rebuy_offer"])
    if tables.bot_style_of(_user_of(entry)) and entry.rebuys == 0:
        entries.rebuy_take(tournament, entry, stack=0, by=None)
        online_chips_add(entry.pk, tournament.rebuy_chips)


def online_rebuy_offers_lapse(now: datetime | None = None) -> int:
    """Put out the busted players whose time to rebuy has run out, or whose rebuy period
    has ended meanwhile (the sweep's and the clock's call; idempotent). Returns how many."""
    now = now or timezone.now()
    due = (
        Entry.objects.filter(
            state=EntryState.PLAYING,
            rebuy_offer_until__isnull=False,
            tournament__online=True,
            tournament__state__in=IN_PLAY,
        )
        .values_list("tournament_id", flat=True)
        .distinct()
    )
    done = 0
    for tournament_id in sorted(set(due)):
        with transaction.atomic():
            tournament = locks.tournament_locked(tournament_id)
            if tournament.state not in IN_PLAY:
                continue
            done += _lapse(tournament, now)
    return done


def _lapse(tournament: Tournament, now: datetime) -> int:
    offered = Entry.objects.select_related("player__user").filter(
        tournament=tournament, state=EntryState.PLAYING, rebuy_offer_until__isnull=False
    )
    lapsed: list[Entry] = []
    for entry in offered:
        if entry.rebuy_offer_until > now and (
            entries.rebuy_refusal(tournament, entry, stack=0) is None
        ):
            continue
        if selectors.entry_live_stack(entry):
            # Chips came to the seat another way (the director's rebuy): still in.
            _offer_clear(entry)
            continue
        lapsed.append(entry)
    if not lapsed:
        return 0
    by_id = {
        e.pk: e
        for e in Entry.objects.filter(
            pk__in=[i for e in lapsed for i in e.rebuy_offer.get("by", [])]
        )
    }
    for entry in lapsed:
        knocked = {entry.pk: [by_id[i] for i in entry.rebuy_offer.get("by", []) if i in by_id]}
        results.eliminations_from_hand(
            tournament, [(entry, int(entry.rebuy_offer.get("before", 0)))], knocked
        )
        _offer_clear(entry)
        tt = TournamentTable.objects.filter(
            tournament=tournament, number=entry.table_number, live_table__isnull=False
        ).first()
        if tt is not None and entry.seat_number is not None:
            tables.seat_vacate(tt.live_table_id, entry.seat_number, entry.player.user_id)
    if not _finish_if_won(tournament):
        floor = _floor(tournament)
        if _keep_even(tournament, floor):
            floor = _floor(tournament)
        _release_ready(tournament, floor)
    return len(lapsed)


def _offer_clear(entry: Entry) -> None:
    entry.rebuy_offer_until = None
    entry.rebuy_offer = {}
    entry.save(update_fields=["rebuy_offer_until", "rebuy_offer"])


def _finish_if_won(tournament: Tournament) -> bool:
    playing = selectors.players_left(tournament)
    waiting = Entry.objects.filter(tournament=tournament, state=EntryState.REGISTERED).exists()
    if playing > 1 or waiting:
        return False
    if playing == 1:
        results.tournament_finish_played(tournament)
    return True


# ---------------------------------------------------------------------------- keeping even


def _keep_even(tournament: Tournament, floor: _Floor) -> bool:
    """Between hands, what the tournament-night rules ask: the final table redraw once the
    players fit at it (every table between hands), else break the highest table (once its
    hand is over), else balance (moves from tables between hands only). True when a table
    was held or a player moved (``floor`` is out of date).

    A table between hands is one with no hand in play, held for the moves (a table waiting
    for its next deal too: a table left with one player never deals again, and must still
    be broken or filled). In hand-for-hand only the tables done with the hand count, so no
    table is taken out of the round it has still to play.
    """
    tts = floor.tts
    if len(tts) < 2 or floor.unsettled():
        return False
    live_ids = floor.live_ids
    free = floor.between_hands() if tournament.hand_for_hand else floor.no_hand
    # Whether anyone moves depends on the counts alone: the blinds' positions, which say
    # who moves where, are worked out only when someone does.
    blind = floor.views(tournament, positions=False)
    if rules.final_table_due(blind, tournament.seats_per_table):
        if not set(live_ids) <= free:
            return False
        if set(live_ids) <= _hold_between_hands(live_ids):
            _final_table(tournament, tts, floor.seats)
        return True
    breaking = rules.should_break(blind, tournament.seats_per_table)
    if breaking is not None:
        tt = next(t for t in tts if t.number == breaking)
        if tt.live_table_id not in free:
            return False
        if _hold_between_hands([tt.live_table_id]):
            moves = rules.break_table(floor.views(tournament, positions=True), breaking)
            _carry_out(tournament, tts, moves)
            tables.tournament_table_close(tt.live_table_id)
            tt.broken_at = timezone.now()
            tt.save(update_fields=["broken_at"])
        return True
    threshold = balance_threshold(tournament, len(tts))
    if not rules.balance_moves(blind, threshold):
        return False
    moves = rules.balance_moves(floor.views(tournament, positions=True), threshold)
    by_number = {t.number: t for t in tts}
    sources = {by_number[m.from_table].live_table_id for m in moves} & free
    if not sources:
        return False
    ready = _hold_between_hands(sources)
    # Each planned move goes from a fullest table to a shortest, so carrying out some of
    # them never widens the gap; the others are planned again at the next hand's end.
    _carry_out(
        tournament, tts, [m for m in moves if by_number[m.from_table].live_table_id in ready]
    )
    return True


def _carry_out(
    tournament: Tournament, tts: Sequence[TournamentTable], moves: Sequence[rules.Move]
) -> None:
    """Make the moves the seating rules planned (their players by account id)."""
    by_number = {t.number: t for t in tts}
    entries = _entries_by_user(tournament, [m.player for m in moves])
    for move in moves:
        entry = entries.get(move.player)
        if entry is None:
            continue  # out meanwhile: never moved
        source, target = by_number[move.from_table], by_number[move.to_table]
        try:
            tables.seat_move(
                source.live_table_id, move.from_seat, target.live_table_id, move.to_seat
            )
        except tables.TableError:
            # Refused as a whole (its own savepoint), nothing changed: planned again later.
            logger.exception("tournament %s: a move was refused", tournament.pk)
            continue
        _seat_entry(entry, move.to_table, move.to_seat)


def _seat_entry(entry: Entry, table: int, seat: int) -> None:
    entry.table_number = table
    entry.seat_number = seat
    entry.save(update_fields=["table_number", "seat_number"])


def _final_table(
    tournament: Tournament, tts: Sequence[TournamentTable], seats: dict[int, list[SeatTaken]]
) -> None:
    """RP-9: every player left draws a seat at random at the final table, a new table (the
    next number, with the final table's seats); every other table is broken. Its live table
    is new too, so each table's hands stay with the table they were dealt at."""
    size = rules.final_table_size(tournament.seats_per_table)
    entries = _entries_by_user(
        tournament, [s.user_id for table_seats in seats.values() for s in table_seats]
    )
    players = [
        (tt, seat)
        for tt in tts
        for seat in seats.get(tt.live_table_id or 0, [])
        if seat.user_id in entries
    ]
    drawn = rules.final_table_draw([entries[s.user_id].pk for _, s in players], size)
    number = (
        TournamentTable.objects.filter(tournament=tournament).aggregate(Max("number"))[
            "number__max"
        ]
        or 0
    ) + 1
    final = TournamentTable.objects.create(
        tournament=tournament,
        number=number,
        seats=size if size != tournament.seats_per_table else None,
    )
    live_id = _open_live(
        tournament, final, stakes_now(tournament) or _first_level_stakes(tournament), sitters={}
    )
    Entry.objects.filter(pk__in=[entries[s.user_id].pk for _, s in players]).update(
        table_number=None, seat_number=None
    )
    for tt, seat in players:
        entry = entries[seat.user_id]
        tables.seat_move(tt.live_table_id, seat.number, live_id, drawn[entry.pk])
        _seat_entry(entry, final.number, drawn[entry.pk])
    now = timezone.now()
    for tt in tts:
        tables.tournament_table_close(tt.live_table_id)
        tt.broken_at = now
        tt.save(update_fields=["broken_at"])


# ---------------------------------------------------------------------------- releasing


def _release_ready(tournament: Tournament, floor: _Floor | None = None) -> None:
    """Release the held tables that may deal their next hand, at the level in force.

    Nothing while paused or on a break. In hand-for-hand, only when every table is between
    hands: then the round is over (the clock loses its minutes), and the next is dealt
    everywhere at once; hand-for-hand ends when the bubble has burst. It starts when the
    players left are one more than the places paid. ``floor``: the tables as just read.
    """
    if tournament.state not in IN_PLAY or tournament.online_paused:
        return
    stakes = stakes_now(tournament)
    if stakes is None:
        return  # a break: the clock's next level releases the tables
    floor = floor or _floor(tournament)
    tts = floor.tts
    if not tts:
        return
    live_ids = floor.live_ids
    # The final table is redrawn when every table is between hands: until then, hold them.
    if len(tts) > 1 and rules.final_table_due(
        floor.views(tournament, positions=False), tournament.seats_per_table
    ):
        return
    # Hand-for-hand synchronises tables: at one table every hand is already played alone.
    bubble = len(tts) > 1 and _on_bubble(tournament)
    if bubble and not tournament.hand_for_hand:
        _hand_for_hand_start(tournament, live_ids)
        floor = _floor(tournament)  # every table is held now
    idle = floor.between_hands() - floor.unsettled()
    if tournament.hand_for_hand:
        if not set(live_ids) <= idle:
            return  # wait for the other tables to finish this hand, and be dealt with
        _hand_for_hand_round(tournament, bubble)
        if tournament.hand_for_hand:
            for live_id in live_ids:
                tables.table_release(live_id, stakes)
            return
    for live_id in live_ids:
        if live_id in idle:
            tables.table_release(live_id, stakes)


def _on_bubble(tournament: Tournament) -> bool:
    """Whether the players left are one more than the places paid (the bubble: hand-for-hand
    starts there, TDA RP-8)."""
    paid = results.paid_places(tournament)
    left = selectors.players_left(tournament)
    return paid > 0 and left == paid + 1


def _hand_for_hand_start(tournament: Tournament, live_ids: Sequence[int]) -> None:
    """The bubble: hand-for-hand from now (RP-8). The clock stops (each hand takes its
    minutes off instead); tables waiting for their next hand wait for all the others."""
    tournament.hand_for_hand = True
    tournament.hand_for_hand_hand = 0
    tournament.hand_for_hand_out_hand = None
    tournament.save(update_fields=["hand_for_hand", "hand_for_hand_hand", "hand_for_hand_out_hand"])
    if tournament.paused_remaining is None:
        clock.clock_pause(tournament.pk, by=None)
        tournament.refresh_from_db()
    for live_id in live_ids:
        tables.table_hold(live_id)


def _hand_for_hand_round(tournament: Tournament, bubble: bool) -> None:
    """Every table is between hands: the hand-for-hand hand is over (the clock loses its
    minutes); the next is dealt everywhere at once, or hand-for-hand ends (the bubble has
    burst) and the clock runs again."""
    minutes = tournament.hand_for_hand_minutes
    if tournament.hand_for_hand_hand and minutes and tournament.paused_remaining:
        left = tournament.paused_remaining - timedelta(minutes=minutes)
        tournament.paused_remaining = max(left, timedelta(seconds=1))
        tournament.clock_version += 1
        tournament.save(update_fields=["paused_remaining", "clock_version"])
    if not bubble:
        tournament.hand_for_hand = False
        tournament.hand_for_hand_out_hand = None
        tournament.save(update_fields=["hand_for_hand", "hand_for_hand_out_hand"])
        if tournament.paused_remaining is not None and not tournament.online_paused:
            clock.clock_resume(tournament.pk, by=None)
        tournament.refresh_from_db()
        return
    tournament.hand_for_hand_hand += 1
    tournament.hand_for_hand_out_hand = None
    tournament.save(update_fields=["hand_for_hand_hand", "hand_for_hand_out_hand"])


def online_tables_release(tournament_id: int) -> None:
    """Release whatever tables may deal now (after a level change, a resume, a sweep)."""
    with transaction.atomic():
        tournament = locks.tournament_locked(tournament_id)
        if not tournament.online or tournament.state not in IN_PLAY:
            return
        stakes = stakes_now(tournament)
        for tt in _live_tables(tournament):
            if stakes is None:
                # A break: the tables finish the hand in play, then wait for the next level.
                tables.table_hold(tt.live_table_id)
            else:
                tables.table_stakes_set(tt.live_table_id, stakes)
        _release_ready(tournament)


@receiver(clock_stored)
def _clock_stored(sender: Any, tournament_id: int, **_kwargs: Any) -> None:
    """A new level applies from the next hand (TDA 23): set it at every live table."""
    if not Tournament.objects.filter(pk=tournament_id, online=True).exists():
        return
    transaction.on_commit(lambda: _after_clock(tournament_id))


def _after_clock(tournament_id: int) -> None:
    try:
        # The rebuy period may have ended: the busted players still offered it are out.
        online_rebuy_offers_lapse()
        online_tables_release(tournament_id)
    except Exception:
        logger.exception("tournament %s: the tables missed a clock change", tournament_id)


@receiver(tournament_finished)
def _tournament_finished(sender: Any, tournament_id: int, **_kwargs: Any) -> None:
    """A tournament over by any path (last player, a deal, the director's finish): its
    live tables close (a hand in play closes its table when it ends)."""
    for live_id in (
        TournamentTable.objects.filter(tournament_id=tournament_id, live_table__isnull=False)
        .filter(table_open("live_table_id"))
        .values_list("live_table_id", flat=True)
    ):
        tables.tournament_table_close(live_id)


def online_sweep() -> int:
    """Deal again with hands whose "hand ended" was lost (a process died in between): the
    held tables of running online tournaments whose last hand the tournament has not seen."""
    done = 0
    released: set[int] = set()
    # Broken tables too: a hand ended just before its table was broken is still theirs.
    stuck = (
        TournamentTable.objects.filter(
            tournament__online=True, tournament__state__in=IN_PLAY, live_table__isnull=False
        )
        .annotate(held_hands=held_hand_count("live_table_id"))
        .filter(held_hands__gt=0)
        .values_list("live_table_id", "hand_seen", "held_hands", "tournament_id")
    )
    for live_id, seen, count, tournament_id in stuck:
        if count > seen:
            report = hand_ended_report(live_id, count)
            if report is not None:
                online_hand_ended(live_id, count, **report)
                done += 1
        elif count and tournament_id not in released:
            released.add(tournament_id)
            online_tables_release(tournament_id)
    return done
