"""Eliminations, places, prizes, deals and the end of a tournament.

A director records each elimination from the console as it happens: who busted, by whom
(for the bounty) and, when two or more go out on one hand, their stacks at the start of
that hand. TDA rules (docs/rules.md, "Eliminations"): "two or more out on the same hand: the one
who started the hand with more chips finishes higher; equal stacks share the places and
their prizes"; in hand-for-hand (docs/rules.md "Hand-for-hand (RP-8)") "players out on the same
hand-for-hand hand share the place(s) paid" across tables, online or in the room (see
``hand_for_hand_out_hand``). Places are numbered by players, not entries, as card rooms do (see
``places_update``): the places shown during the night are the ones ``tournament_finish``
stores, because both rank with the same function.

Prizes come from ``tournaments.payouts`` (the pool, the built-in table or the director's own
percentages, rounding to the money unit with the remainder to first, tied places sharing)
and deals from ``tournaments.icm``. An accepted deal ends the tournament with its prizes.

Every function here is a director action: it locks the tournament row (the lock every
console action takes, so actions and undos run one at a time), refuses bad input with a
``TournamentError`` before changing anything, and records itself in the action log with
what it takes to reverse it. The finish sends ``tournament_finished`` after commit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Count, F, Max, Q, Sum
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext

from core.amounts import CHIPS_MAX, PRIZE_MAX
from core.amounts import chips as said_chips
from core.amounts import money as said_money
from core.names import name_key
from core.request_values import id_or_none
from series.elision import for_name
from series.selectors import places_tied
from series.services.standings import event_results_remove, event_results_store
from tournaments import icm as icm_model
from tournaments import payouts as payout_rules
from tournaments import selectors
from tournaments.errors import TournamentError, not_playing
from tournaments.models import (
    ActionKind,
    Entry,
    EntryState,
    Tournament,
    TournamentAction,
    TournamentState,
)
from tournaments.permissions import require_director
from tournaments.services import chips as chip_counts
from tournaments.services import night_news, undo
from tournaments.services.locks import tournament_locked
from tournaments.signals import tournament_finished
from tournaments.summaries import Message, joined, message

IN_PLAY = (TournamentState.RUNNING, TournamentState.ON_BREAK)
# Entries that paid a buy-in: each one adds to the prize pool.
BOUGHT_IN = (EntryState.REGISTERED, EntryState.PLAYING, EntryState.OUT)
DEAL_METHODS = ("icm", "chip-chop")
# What going out writes on an entry (its place and prize follow from everyone's).
OUT_FIELDS = [
    "state",
    "out_at",
    "out_hand",
    "out_hand_for_hand",
    "stack_at_hand_start",
    "eliminated_by",
]


# Reads the console shares ---------------------------------------------------------------


@dataclass(frozen=True)
class Payouts:
    """The prize pool and what each place wins, from the entries so far."""

    pool: int
    entries: int
    percentages: list[int]
    prizes: list[int]
    custom: bool


def payouts_compute(tournament: Tournament) -> Payouts:
    """The prize pool from buy-ins, rebuys and add-ons (fees apart) and each place's prize.

    The director's own percentages (``Tournament.payout_basis_points``) when set, else the
    built-in table for the number of entries (re-entries count). Raises ``TournamentError``
    when the percentages cannot be paid (they do not sum to 100%, say).
    """
    totals = Entry.objects.filter(tournament=tournament, state__in=BOUGHT_IN).aggregate(
        entries=Count("pk"), rebuys=Sum("rebuys"), addons=Count("pk", filter=Q(addon=True))
    )
    entries = totals["entries"] or 0
    try:
        pool = payout_rules.prize_pool(
            buy_ins=entries,
            buy_in=tournament.prize_per_entry,
            rebuys=totals["rebuys"] or 0,
            rebuy=tournament.rebuy_price,
            addons=totals["addons"] or 0,
            addon=tournament.addon_price,
        )
        custom = bool(tournament.payout_basis_points)
        if custom:
            percentages = [int(share) for share in tournament.payout_basis_points]
            payout_rules.validate_percentages(percentages)
        elif entries:
            percentages = payout_rules.payout_percentages(entries)
        else:
            return Payouts(pool=0, entries=0, percentages=[], prizes=[], custom=False)
        prizes = payout_rules.payouts(pool, percentages, unit=tournament.money_unit)
    except (payout_rules.PayoutError, TypeError, ValueError) as error:
        raise TournamentError(
            _("The payouts cannot be computed: %(reason)s.") % {"reason": error}
        ) from None
    return Payouts(
        pool=pool, entries=entries, percentages=percentages, prizes=prizes, custom=custom
    )


def _prizes_for(payouts: Payouts, players: int) -> list[int]:
    """Each place's prize when only ``players`` places can be taken.

    With re-entries the field (entries) can pay more places than there are players; the
    prizes of places nobody can take go to first, as the rounding remainder does.
    """
    prizes = list(payouts.prizes)
    if players and len(prizes) > players:
        prizes[0] += sum(prizes[players:])
        del prizes[players:]
    return prizes


def prizes_now(tournament: Tournament) -> list[int]:
    """Each place's prize as the field stands (``payouts_compute``, capped at the players
    who can take a place). Raises ``TournamentError`` as ``payouts_compute`` does."""
    return _prizes_for(payouts_compute(tournament), _players_count(tournament))


def paid_places(tournament: Tournament) -> int:
    """How many places the prizes pay as the field stands (0 when they cannot be paid)."""
    try:
        return sum(1 for prize in prizes_now(tournament) if prize > 0)
    except TournamentError:
        return 0


def _players_count(tournament: Tournament) -> int:
    return (
        Entry.objects.filter(tournament=tournament, state__in=BOUGHT_IN)
        .values("player_id")
        .distinct()
        .count()
    )


@dataclass(frozen=True)
class ResultsOverview:
    """What the console's results section shows."""

    payouts: Payouts | None
    payouts_error: str
    playing: list[Entry]
    out: list[Entry]
    finished: list[Entry]
    can_finish: bool
    # What a deal among the players still in shares out (places 1 to their number).
    prizes_left: int | None = None
    # The places two or more players share (``places_tied``), shown "3 (tied)".
    tied_places: frozenset[int] = frozenset()
    # Finished with a deal (not undone): the players still in shared what it says.
    deal: bool = False


def prizes_of_places(
    entries: Iterable[Entry], prizes: Sequence[int], unit: int = 1
) -> dict[int, int]:
    """What each of ``entries`` wins of ``prizes`` at the place it holds, by entry id: tied
    players share the prizes of the places they cover, the odd unit to the first entry of
    them, as ``places_update`` shares them. Empty when the prizes cannot be paid."""
    placed = sorted((e for e in entries if e.place is not None), key=lambda e: (e.place, e.pk))
    try:
        shares = payout_rules.shared_prizes(prizes, [e.place for e in placed], unit=unit)
    except payout_rules.PayoutError:
        return {}
    return {e.pk: share for e, share in zip(placed, shares, strict=True)}


def results_overview(tournament: Tournament) -> ResultsOverview:
    """The payouts, the players still in, and the eliminations so far, best place first."""
    try:
        payouts: Payouts | None = payouts_compute(tournament)
        error = ""
    except TournamentError as exc:
        payouts, error = None, str(exc)
    entries = list(
        Entry.objects.select_related("player", "eliminated_by__player").filter(
            tournament=tournament, state__in=(EntryState.PLAYING, EntryState.OUT)
        )
    )
    playing = sorted(
        (e for e in entries if e.state == EntryState.PLAYING),
        key=lambda e: (e.table_number or 0, e.seat_number or 0, e.player.name),
    )
    out = sorted(
        (e for e in entries if e.state == EntryState.OUT),
        key=lambda e: (e.place or 10**9, -(e.out_hand or 0), e.player.name),
    )
    finished = (
        sorted((e for e in entries if e.place is not None), key=lambda e: (e.place, e.pk))
        if tournament.state == TournamentState.FINISHED
        else []
    )
    dealt = (
        tournament.state == TournamentState.FINISHED
        and tournament.actions.filter(kind=ActionKind.DEAL, undone_at__isnull=True).exists()
    )
    prizes_left = None
    if payouts is not None and tournament.state in IN_PLAY:
        prizes_left = sum(_prizes_for(payouts, _players_count(tournament))[: len(playing)])
    return ResultsOverview(
        payouts=payouts,
        payouts_error=error,
        playing=playing,
        out=out,
        finished=finished,
        can_finish=tournament.state in IN_PLAY and len(playing) == 1 and payouts is not None,
        prizes_left=prizes_left,
        tied_places=places_tied(entries),
        deal=dealt,
    )


def overview_payable(tournament: Tournament) -> bool:
    """Whether the payouts can be worked out (the finish refuses while they cannot)."""
    try:
        payouts_compute(tournament)
    except TournamentError:
        return False
    return True


# Eliminations -----------------------------------------------------------------------------


def _require_in_play(tournament: Tournament) -> None:
    if tournament.state == TournamentState.FINISHED:
        raise TournamentError(_("This tournament is already finished."))
    if tournament.state not in IN_PLAY:
        raise TournamentError(_("This tournament is not running."))


def _entry_ids(values: Iterable[Any], what: str) -> list[int]:
    ids: list[int] = []
    for value in values:
        # An int from a JSON caller is checked like the text of a form.
        entry_id = id_or_none(str(value) if isinstance(value, int) else value)
        if entry_id is not None:
            ids.append(entry_id)
        else:
            raise TournamentError(
                _("“%(value)s” is not a player of this tournament (%(what)s).")
                % {"value": value, "what": what}
            ) from None
    return ids


def _place_label(place: int, shared: int) -> Message:
    if shared > 1:
        return message(
            gettext_noop("places %(first)s-%(last)s shared"), first=place, last=place + shared - 1
        )
    return message(gettext_noop("place %(place)s"), place=place)


def _stack_groups(entries: Sequence[Entry], stacks: Mapping[int, int]) -> list[list[Entry]]:
    """The players out on one hand, best finish first: bigger stack at the start of the hand
    first, equal stacks together (they share places)."""
    ordered = sorted(entries, key=lambda e: (-stacks.get(e.pk, 0), e.pk))
    groups: list[list[Entry]] = []
    for entry in ordered:
        if groups and stacks.get(groups[-1][0].pk, 0) == stacks.get(entry.pk, 0):
            groups[-1].append(entry)
        else:
            groups.append([entry])
    return groups


def out_groups(entries: Sequence[Entry]) -> list[list[Entry]]:
    """Players out on one hand, best finish first, as groups that share places.

    docs/rules.md "Eliminations" (TDA 20): "two or more out on the same hand: the one who started
    the hand with more chips finishes higher; equal stacks share the places". docs/rules.md
    "Hand-for-hand (RP-8)": "players out on the same hand-for-hand hand share the place(s)
    paid": players out at different tables on one hand-for-hand hand tie, while at one table
    the bigger starting stack still finishes higher. So the k-th best finish of each table
    ties with the k-th best of every other table.
    """
    stacks = {e.pk: e.stack_at_hand_start or 0 for e in entries}
    if not any(e.out_hand_for_hand for e in entries):
        return _stack_groups(entries, stacks)
    by_table: dict[int | None, list[Entry]] = {}
    for entry in entries:
        by_table.setdefault(entry.table_number, []).append(entry)
    ranks: dict[int, list[Entry]] = {}
    for at_table in by_table.values():
        for rank, group in enumerate(_stack_groups(at_table, stacks)):
            ranks.setdefault(rank, []).extend(group)
    return [sorted(ranks[rank], key=lambda e: e.pk) for rank in sorted(ranks)]


def _bounty_shares(bounty: int, winners: int, unit: int) -> list[int]:
    """A bounty split among the winners of the pot that knocked the player out: equal
    shares in the money unit, the odd remainder to the first (the high hand's winner)."""
    share = (bounty // winners) // unit * unit
    return [bounty - share * (winners - 1)] + [share] * (winners - 1)


def _next_out_hand(tournament: Tournament) -> int:
    return (
        Entry.objects.filter(tournament=tournament).aggregate(Max("out_hand"))["out_hand__max"] or 0
    ) + 1


def _mark_out(
    entry: Entry,
    *,
    at: datetime,
    out_hand: int,
    hand_for_hand: bool,
    stack: int | None,
    eliminated_by: Entry | None,
) -> None:
    """Write ``entry`` out on ``out_hand`` (its place and prize follow from everyone's:
    ``places_update``)."""
    entry.state = EntryState.OUT
    entry.out_at = at
    entry.out_hand = out_hand
    entry.out_hand_for_hand = hand_for_hand
    entry.stack_at_hand_start = stack
    entry.eliminated_by = eliminated_by
    entry.save(update_fields=OUT_FIELDS)


def entry_out_removed(tournament: Tournament, entry: Entry, chips: int) -> Entry:
    """Record ``entry`` out as the director removed them (the tournament row is locked): an
    elimination on a hand of its own, with the chips they had when removed, and the places
    stored again. Nobody knocked them out: no bounty is won."""
    shared = hand_for_hand_out_hand(tournament)
    _mark_out(
        entry,
        at=timezone.now(),
        out_hand=shared if shared is not None else _next_out_hand(tournament),
        hand_for_hand=shared is not None,
        stack=chips,
        eliminated_by=None,
    )
    places_update(tournament)
    entry.refresh_from_db()
    return entry


def hand_for_hand_out_hand(tournament: Tournament) -> int | None:
    """The ``out_hand`` shared by everyone out on the hand-for-hand hand in play, online or
    in the room (the tournament row is locked): taken by the first player out on it, kept
    on the tournament (``hand_for_hand_out_hand``) for the others, at every table, until
    the next hand is dealt. None when the hand in play is not played hand-for-hand:
    hand-for-hand is off, or it is hand 0, the hands already in play when it was announced,
    which were not dealt hand-for-hand. docs/rules.md "Hand-for-hand (RP-8)": "players out on the
    same hand-for-hand hand share the place(s) paid".
    """
    if not tournament.hand_for_hand or tournament.hand_for_hand_hand < 1:
        return None
    if tournament.hand_for_hand_out_hand is None:
        tournament.hand_for_hand_out_hand = _next_out_hand(tournament)
        tournament.save(update_fields=["hand_for_hand_out_hand"])
    return tournament.hand_for_hand_out_hand


def eliminations_from_hand(
    tournament: Tournament,
    out: Sequence[tuple[Entry, int]],
    knocked_out_by: Mapping[int, Sequence[Entry]],
    *,
    hand_for_hand: bool = False,
    out_hand: int | None = None,
) -> int:
    """Record the players a live hand left with no chips; the tournament row is locked.

    ``out``: each entry with its stack at the start of the hand. ``knocked_out_by``: for
    each entry out, the entries that won the pot that eliminated it; they share its bounty
    (a split pot splits the bounty) and the first is its ``eliminated_by``. Players out on
    one hand share ``out_hand``; in hand-for-hand every table's players out on that hand
    share one (``out_hand`` given), and their places are counted again as each table's
    hand ends. Returns the ``out_hand``.
    """
    if out_hand is None:
        out_hand = _next_out_hand(tournament)
    now = timezone.now()
    for entry, stack in out:
        winners = [w for w in knocked_out_by.get(entry.pk, ()) if w.pk != entry.pk]
        _mark_out(
            entry,
            at=now,
            out_hand=out_hand,
            hand_for_hand=hand_for_hand,
            stack=stack,
            eliminated_by=winners[0] if winners else None,
        )
        if winners and tournament.bounty:
            shares = _bounty_shares(tournament.bounty, len(winners), tournament.money_unit)
            for winner, share in zip(winners, shares, strict=True):
                Entry.objects.filter(pk=winner.pk).update(bounties=F("bounties") + share)
        if winners:
            Entry.objects.filter(pk=winners[0].pk).update(knockouts_count=F("knockouts_count") + 1)
    places_update(tournament)
    night_news.night_tell_out(Entry.objects.filter(pk__in=[entry.pk for entry, _ in out]))
    return out_hand


def _last_entries(entries: Iterable[Entry]) -> list[Entry]:
    """Each player's last entry: the one that holds their place (a re-entry replaces the
    entry it follows)."""
    last: dict[int, Entry] = {}
    for entry in entries:
        known = last.get(entry.player_id)
        if known is None or entry.number > known.number:
            last[entry.player_id] = entry
    return list(last.values())


def _out_ranked(out: Sequence[Entry]) -> list[list[Entry]]:
    """Players out, best finish first, as groups that share a place: the later out above
    the earlier, players out on one hand by ``out_groups``."""
    by_hand: dict[int, list[Entry]] = {}
    for entry in out:
        by_hand.setdefault(entry.out_hand or 0, []).append(entry)
    groups: list[list[Entry]] = []
    for hand in sorted(by_hand, reverse=True):
        groups.extend(out_groups(by_hand[hand]))
    return groups


def _numbered(groups: Sequence[Sequence[Entry]], first: int = 1) -> dict[int, int]:
    """Place by entry id for groups best first, from ``first``: a group of tied players
    shares one place and the next group comes after all of them (1, 2, 2, 4)."""
    places: dict[int, int] = {}
    place = first
    for group in groups:
        for entry in group:
            places[entry.pk] = place
        place += len(group)
    return places


def places_update(tournament: Tournament) -> None:
    """Store the place and prize of every player out so far, as the finish will store them.

    Places count players, not entries, as card rooms do:

    - a player's place is their last entry's; an entry that busted and then re-entered has
      no place (its knockouts and bounties still count for its player);
    - a player out finishes below everyone still possibly finishing: the players whose last
      entry still plays, and the players out after them. The first of thirteen players out
      is 13th, the last one out 2nd;
    - players out on one hand are ranked by ``out_groups`` (bigger starting stack higher,
      equal stacks share the places and their prizes).

    So during the night a re-entry gives the busted entry's place back and nobody else
    moves (its player was, and still is, one of the field); a new player's late entry moves
    everyone already out one place down, since the field they finish below has grown; and
    no two players ever show one place unless they share it by the rules. Called after
    every change to who is in or out (eliminations, late entries, re-entries and their
    undos) with the tournament row locked; ``tournament_finish`` ranks with the same
    functions. Prizes are those of the field as it stands (``prizes_now``); the finish
    settles them once the field is final. Does nothing unless the tournament is in play.
    """
    if tournament.state not in IN_PLAY:
        return
    entries = list(
        Entry.objects.filter(
            tournament=tournament, state__in=(EntryState.PLAYING, EntryState.OUT)
        ).order_by("pk")
    )
    final = _last_entries(entries)
    still_in = sum(1 for e in final if e.state == EntryState.PLAYING)
    groups = _out_ranked([e for e in final if e.state == EntryState.OUT])
    places = _numbered(groups, first=still_in + 1)
    try:
        prizes = prizes_now(tournament)
    except TournamentError:
        # A broken payout table must not stop the night: the places are recorded now,
        # and the finish refuses until the director fixes the percentages.
        prizes = []
    ranked = [e for group in groups for e in group]
    shares = payout_rules.shared_prizes(
        prizes, [places[e.pk] for e in ranked], unit=tournament.money_unit
    )
    won = {e.pk: share for e, share in zip(ranked, shares, strict=True)}
    changed = []
    for entry in entries:
        if entry.state != EntryState.OUT:
            continue
        place, prize = places.get(entry.pk), won.get(entry.pk, 0)
        if (entry.place, entry.prize) != (place, prize):
            entry.place, entry.prize = place, prize
            changed.append(entry)
    Entry.objects.bulk_update(changed, ["place", "prize"])


def tournament_finish_played(tournament: Tournament) -> list[dict[str, Any]]:
    """The end of an online tournament, its last player standing: as ``tournament_finish``,
    with nobody's hand on it (the tournament row is locked by the caller)."""
    results, finish_undo = _finish(tournament, deal=None, chips={})
    undo.action_record(
        tournament,
        ActionKind.FINISH,
        _("Finished: %(name)s wins") % {"name": results[0]["player_name"] if results else ""},
        by=None,
        undo={"finish": finish_undo},
    )
    return results


def _clean_stacks(
    entries: Sequence[Entry], stacks: Mapping[Any, Any] | None, *, by_table: bool = False
) -> dict[int, int]:
    """The stacks at the start of the hand, by entry id, checked; required for each of two
    or more players out together (``by_table``: hand-for-hand, where only players out at
    one table are ranked by their stacks, and players at different tables tie)."""
    given: dict[int, int] = {}
    names = {e.pk: e.player.name for e in entries}
    for key, value in (stacks or {}).items():
        if value in (None, ""):
            continue
        try:
            entry_id = int(key)
        except (TypeError, ValueError):
            raise TournamentError(_("A stack was given for an unknown player.")) from None
        if entry_id not in names:
            raise TournamentError(_("A stack was given for a player who is not going out."))
        try:
            chips = int(value)
        except (TypeError, ValueError):
            raise TournamentError(
                for_name(
                    names[entry_id],
                    _("%(name)s's stack “%(value)s” is not a number of chips."),
                    pgettext(
                        "name starting with a vowel sound",
                        "%(name)s's stack “%(value)s” is not a number of chips.",
                    ),
                )
                % {"name": names[entry_id], "value": value}
            ) from None
        if chips <= 0:
            raise TournamentError(
                for_name(
                    names[entry_id],
                    _("%(name)s's stack at the start of the hand must be more than 0 chips."),
                    pgettext(
                        "name starting with a vowel sound",
                        "%(name)s's stack at the start of the hand must be more than 0 chips.",
                    ),
                )
                % {"name": names[entry_id]}
            )
        if chips > CHIPS_MAX:
            raise TournamentError(
                for_name(
                    names[entry_id],
                    _("%(name)s's stack cannot be more than %(max)s."),
                    pgettext(
                        "name starting with a vowel sound",
                        "%(name)s's stack cannot be more than %(max)s.",
                    ),
                )
                % {"name": names[entry_id], "max": said_chips(CHIPS_MAX)}
            )
        given[entry_id] = chips
    tables = Counter(e.table_number for e in entries)
    if len(entries) > 1:
        missing = [
            names[e.pk]
            for e in entries
            if e.pk not in given
            and (not by_table or e.table_number is None or tables[e.table_number] > 1)
        ]
        if missing:
            raise TournamentError(
                _(
                    "Two or more players out on one hand are ranked by their stacks at the "
                    "start of the hand: enter the stack of %(names)s."
                )
                % {"names": ", ".join(missing)}
            )
    return given


def entry_eliminate(
    tournament_id: int,
    entry_ids: Iterable[Any],
    *,
    by: Any,
    eliminated_by: Any = None,
    stacks_at_hand_start: Mapping[Any, Any] | None = None,
) -> list[Entry]:
    """Record one or more players out on one hand; returns their entries, best place first.

    ``stacks_at_hand_start`` maps entry ids to chips; it is required when two or more go
    out together (the bigger stack finishes higher, equal stacks share the places and, in
    the money, their prizes). ``eliminated_by`` is the entry that won the pot: it takes the
    fixed bounty of each player it knocked out. Refused, with nothing changed, for a player
    already out, an unknown entry, a player knocking themselves out, or when nobody would
    be left.

    While the room plays hand-for-hand (a hand dealt hand-for-hand, not hand 0), everyone
    out on the hand in play shares its out_hand (``hand_for_hand_out_hand``), recorded
    together or one by one: players at different tables tie for the place and split its
    prizes, and stacks are needed only for two or more out at one table, where the bigger
    stack still finishes higher (``out_groups``). A second player out at a table on the
    hand, after one recorded with no stack, is refused: record them together.
    """
    require_director(by)
    ids = _entry_ids(entry_ids, _("who is out"))
    if not ids:
        raise TournamentError(_("Choose who is out."))
    if len(set(ids)) != len(ids):
        raise TournamentError(_("A player is listed twice."))
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        _require_in_play(tournament)
        if tournament.online and tournament.tables.filter(live_table__isnull=False).exists():
            raise TournamentError(
                _("This tournament is played online: a player with no chips goes out by itself.")
            )
        entries = _entries_playing(tournament, ids)
        eliminator = _eliminator(tournament, eliminated_by, ids)
        still_in = selectors.players_left(tournament)
        if len(entries) >= still_in:
            raise TournamentError(_("Someone must win the hand: at least one player stays in."))
        # In hand-for-hand every table's players out on the hand in play share its
        # out_hand, whenever each is recorded (``out_groups`` then ties them).
        shared_before = tournament.hand_for_hand_out_hand
        shared = hand_for_hand_out_hand(tournament)
        stacks = _clean_stacks(entries, stacks_at_hand_start, by_table=shared is not None)
        if shared is not None:
            _require_ranked_at_table(tournament, shared, entries, stacks)

        out_hand = shared if shared is not None else _next_out_hand(tournament)
        now = timezone.now()
        before = [_elimination_state(entry) for entry in entries]
        for entry in entries:
            _mark_out(
                entry,
                at=now,
                out_hand=out_hand,
                hand_for_hand=shared is not None,
                stack=stacks.get(entry.pk),
                eliminated_by=eliminator,
            )
        places_update(tournament)
        placed = sorted(
            Entry.objects.select_related("player").filter(pk__in=ids),
            key=lambda e: (e.place or 0, -(e.stack_at_hand_start or 0), e.pk),
        )
        night_news.night_tell_out(placed)

        eliminator_before = _knockouts_credit(tournament, eliminator, len(entries))
        undo.action_record(
            tournament,
            ActionKind.ELIMINATE,
            _out_summary(tournament, placed, eliminator, hand_for_hand=shared is not None),
            by=by,
            undo={
                "out_hand": out_hand,
                "entries": before,
                "eliminator": eliminator_before,
                "hand_for_hand_out_hand": shared_before,
            },
        )
    return placed


def _entries_playing(tournament: Tournament, ids: Sequence[int]) -> list[Entry]:
    """The entries ``ids``, in that order, each of them in play; refused otherwise."""
    found = {
        e.pk: e
        for e in Entry.objects.select_related("player").filter(tournament=tournament, pk__in=ids)
    }
    if len(found) != len(ids):
        raise TournamentError(_("That player is not in this tournament."))
    entries = [found[i] for i in ids]
    for entry in entries:
        if entry.state == EntryState.OUT:
            raise TournamentError(
                _("%(name)s is already out (place %(place)s).")
                % {"name": entry.player.name, "place": entry.place or "?"}
            )
        if entry.state != EntryState.PLAYING:
            raise not_playing(entry.player.name)
    return entries


def _knockouts_credit(
    tournament: Tournament, eliminator: Entry | None, count: int
) -> dict[str, int] | None:
    """The winner of the pot takes ``count`` knockouts and their fixed bounties; returns
    what it had before (for the undo), None with no eliminator."""
    if eliminator is None:
        return None
    before = {
        "id": eliminator.pk,
        "bounties": eliminator.bounties,
        "knockouts_count": eliminator.knockouts_count,
    }
    eliminator.bounties += tournament.bounty * count
    eliminator.knockouts_count += count
    eliminator.save(update_fields=["bounties", "knockouts_count"])
    return before


def _out_summary(
    tournament: Tournament,
    placed: Sequence[Entry],
    eliminator: Entry | None,
    *,
    hand_for_hand: bool,
) -> Message:
    """The log's line for players out on one hand: "Out: Ann (5th), by Ben"."""
    # Counted over everyone out: a player out at another table on the same hand-for-hand
    # hand, recorded before, shares the place too.
    sharing = Counter(
        Entry.objects.filter(
            tournament=tournament,
            state=EntryState.OUT,
            place__in={e.place for e in placed if e.place is not None},
        ).values_list("place", flat=True)
    )
    labels = [
        message(
            gettext_noop("%(name)s (%(place)s)"),
            name=entry.label,
            place=_place_label(entry.place or 0, sharing[entry.place]),
        )
        for entry in placed
    ]
    summary = message(gettext_noop("Out: %(players)s"), players=joined(labels))
    if eliminator is not None:
        summary = message(
            gettext_noop("%(summary)s, by %(name)s"), summary=summary, name=eliminator.label
        )
    if tournament.hand_for_hand and not tournament.online and not hand_for_hand:
        # Out on the hand in play when hand-for-hand began: it was not dealt hand-for-hand,
        # so the place is the player's own; the line says so (a tie on a hand dealt
        # hand-for-hand reads "places 3-4 shared").
        why = message(
            gettext_noop(
                "on the hand in play when hand-for-hand began: not dealt hand-for-hand, no tie"
            )
        )
        summary = message(gettext_noop("%(summary)s; %(why)s"), summary=summary, why=why)
    return summary


def _require_ranked_at_table(
    tournament: Tournament, out_hand: int, entries: Sequence[Entry], stacks: Mapping[int, int]
) -> None:
    """Players out at one table on one hand-for-hand hand do not tie: the bigger stack at
    the start of the hand finishes higher (TDA 20). A player recorded out at a table on the
    hand with no stack cannot be ranked against one recorded after: refuse the second."""
    for earlier in Entry.objects.select_related("player").filter(
        tournament=tournament, state=EntryState.OUT, out_hand=out_hand
    ):
        for entry in entries:
            if entry.table_number != earlier.table_number:
                continue
            if earlier.stack_at_hand_start is None or entry.pk not in stacks:
                raise TournamentError(
                    _(
                        "%(name)s is already out on this hand at table %(table)s: players out "
                        "at one table on one hand are ranked by their stacks at the start of "
                        "the hand. Undo that elimination and record them together, with "
                        "their stacks."
                    )
                    % {"name": earlier.player.name, "table": earlier.table_number}
                )


def _eliminator(tournament: Tournament, value: Any, out_ids: Sequence[int]) -> Entry | None:
    if value in (None, ""):
        return None
    (entry_id,) = _entry_ids([value], _("who knocked them out"))
    if entry_id in out_ids:
        raise TournamentError(_("A player cannot knock themselves out."))
    try:
        entry = Entry.objects.select_related("player").get(tournament=tournament, pk=entry_id)
    except Entry.DoesNotExist:
        raise TournamentError(
            _("The player who knocked them out is not in this tournament.")
        ) from None
    if entry.state != EntryState.PLAYING:
        raise TournamentError(
            _("%(name)s is not playing, so cannot have knocked anyone out.")
            % {"name": entry.player.name}
        )
    return entry


def _elimination_state(entry: Entry) -> dict[str, Any]:
    return {
        "id": entry.pk,
        "state": entry.state,
        "place": entry.place,
        "prize": entry.prize,
        "out_at": entry.out_at.isoformat() if entry.out_at else None,
        "out_hand": entry.out_hand,
        "out_hand_for_hand": entry.out_hand_for_hand,
        "stack_at_hand_start": entry.stack_at_hand_start,
        "eliminated_by": entry.eliminated_by_id,
    }


@undo.register(ActionKind.ELIMINATE)
def _undo_eliminate(tournament: Tournament, action: TournamentAction) -> None:
    """Bring the players back to their seats and take the bounties back."""
    data = action.undo
    for before in data["entries"]:
        entry = Entry.objects.select_related("player").get(pk=before["id"])
        night_news.night_tell_back([entry])
        if entry.state != EntryState.OUT or entry.out_hand != data["out_hand"]:
            raise TournamentError(
                _("%(name)s's elimination has changed since; it cannot be undone.")
                % {"name": entry.player.name}
            )
        if (
            entry.table_number is not None
            and Entry.objects.filter(
                tournament=tournament,
                state=EntryState.PLAYING,
                table_number=entry.table_number,
                seat_number=entry.seat_number,
            ).exists()
        ):
            raise TournamentError(
                _("Table %(table)s seat %(seat)s is taken now; %(name)s cannot go back to it.")
                % {
                    "table": entry.table_number,
                    "seat": entry.seat_number,
                    "name": entry.player.name,
                }
            )
        entry.state = before["state"]
        entry.place = before["place"]
        entry.prize = before["prize"]
        entry.out_at = parse_datetime(before["out_at"]) if before["out_at"] else None
        entry.out_hand = before["out_hand"]
        entry.out_hand_for_hand = before.get("out_hand_for_hand", False)
        entry.stack_at_hand_start = before["stack_at_hand_start"]
        entry.eliminated_by_id = before["eliminated_by"]
        entry.save(update_fields=[*OUT_FIELDS, "place", "prize"])
    eliminator = data.get("eliminator")
    if eliminator:
        Entry.objects.filter(pk=eliminator["id"]).update(
            bounties=eliminator["bounties"], knockouts_count=eliminator["knockouts_count"]
        )
    # The first player out on a hand-for-hand hand took its out_hand for the others: with
    # nobody left out on it, the next player out on this hand takes one afresh. (A hand
    # since moved on has an out_hand of its own, and keeps it.)
    shared = data.get("out_hand")
    if (
        tournament.hand_for_hand_out_hand == shared
        and not Entry.objects.filter(tournament=tournament, out_hand=shared).exists()
    ):
        tournament.hand_for_hand_out_hand = data.get("hand_for_hand_out_hand")
        tournament.save(update_fields=["hand_for_hand_out_hand"])
    places_update(tournament)


# Deals ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DealLine:
    entry_id: int
    name: str
    stack: int
    prize: int


@dataclass(frozen=True)
class DealProposal:
    """A proposal the director shows the players, edits and records with ``deal_record``."""

    method: str
    prizes_left: list[int]
    lines: list[DealLine] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.prizes_left)


def _prizes_left(tournament: Tournament, players_left: int) -> list[int]:
    """The prizes of places 1 to ``players_left``: what a deal shares out."""
    prizes = prizes_now(tournament)
    return prizes[:players_left]


def _playing(tournament: Tournament) -> list[Entry]:
    return list(
        Entry.objects.select_related("player")
        .filter(tournament=tournament, state=EntryState.PLAYING)
        .order_by("table_number", "seat_number", "pk")
    )


def _amounts(
    playing: Sequence[Entry],
    values: Mapping[Any, Any],
    *,
    what: str,
    positive: bool,
    of_chips: bool,
) -> dict[int, int]:
    """One whole amount per player still in, keyed by entry id, from form or JSON input:
    chips up to ``CHIPS_MAX``, money up to ``PRIZE_MAX``."""
    by_id: dict[int, Any] = {}
    for key, value in values.items():
        try:
            by_id[int(key)] = value
        except (TypeError, ValueError):
            raise TournamentError(_("An amount was given for an unknown player.")) from None
    ids = {e.pk for e in playing}
    if set(by_id) - ids:
        raise TournamentError(_("An amount was given for a player who is not still in."))
    amounts: dict[int, int] = {}
    for entry in playing:
        value = by_id.get(entry.pk)
        if value in (None, ""):
            raise TournamentError(
                _("Enter %(what)s for %(name)s.") % {"what": what, "name": entry.player.name}
            )
        try:
            amount = int(value)
        except (TypeError, ValueError):
            raise TournamentError(
                _("%(name)s: “%(value)s” is not a whole number.")
                % {"name": entry.player.name, "value": value}
            ) from None
        if amount < 0 or (positive and amount == 0):
            message = (
                _("%(name)s: %(what)s must be more than 0.")
                if positive
                else _("%(name)s: %(what)s cannot be negative.")
            )
            raise TournamentError(message % {"name": entry.player.name, "what": what})
        limit = CHIPS_MAX if of_chips else PRIZE_MAX
        if amount > limit:
            said = said_chips(limit) if of_chips else said_money(limit)
            raise TournamentError(
                _("%(name)s: %(what)s cannot be more than %(max)s.")
                % {"name": entry.player.name, "what": what, "max": said}
            )
        amounts[entry.pk] = amount
    return amounts


def _require_stacks_add_up(tournament: Tournament, chips: Mapping[int, int]) -> None:
    """In person the stacks are counted by hand, and a miscount would share the prizes
    wrongly: refuse stacks that do not add up to the chips in play. Online they are the live
    seats' own, which the tables keep exact."""
    if tournament.online:
        return
    refusal = chip_counts.stacks_refusal(tournament, chips.values())
    if refusal:
        raise TournamentError(refusal)


def deal_propose(
    tournament_id: int, method: str = "icm", stacks: Mapping[Any, Any] | None = None
) -> DealProposal:
    """Propose a deal among the players still in from their chip counts.

    ``method`` is "icm" (Malmuth-Harville, exact, up to ten players) or "chip-chop" (the
    lowest prize left to everyone, the rest by chips). ``stacks`` maps each player's entry
    id to their chips as the director counted them; in person they must add up to the chips
    in play (``chips.stacks_refusal``). Nothing is stored: the director edits the amounts
    and records them with ``deal_record``.
    """
    if method not in DEAL_METHODS:
        raise TournamentError(_("Choose ICM or chip-chop."))
    tournament = Tournament.objects.select_related("event").filter(pk=tournament_id).first()
    if tournament is None:
        raise TournamentError(_("This tournament does not exist."))
    _require_in_play(tournament)
    playing = _playing(tournament)
    if len(playing) < 2:
        raise TournamentError(_("A deal needs two or more players still in."))
    chips = _amounts(playing, stacks or {}, what=_("the chips"), positive=True, of_chips=True)
    _require_stacks_add_up(tournament, chips)
    prizes_left = _prizes_left(tournament, len(playing))
    counts = [chips[e.pk] for e in playing]
    # The models want the paid places only; the places below pay nothing.
    paid = [p for p in prizes_left if p > 0]
    try:
        if method == "icm":
            amounts = icm_model.icm_deal(counts, paid, unit=tournament.money_unit)
        else:
            amounts = icm_model.chip_chop(counts, paid, unit=tournament.money_unit)
    except payout_rules.PayoutError as error:
        raise TournamentError(
            _("No deal can be proposed: %(reason)s.") % {"reason": error}
        ) from None
    lines = [
        DealLine(entry_id=e.pk, name=e.player.name, stack=chips[e.pk], prize=amount)
        for e, amount in zip(playing, amounts, strict=True)
    ]
    lines.sort(key=lambda line: (-line.prize, -line.stack, line.entry_id))
    return DealProposal(method=method, prizes_left=prizes_left, lines=lines)


def deal_record(
    tournament_id: int,
    prizes: Mapping[Any, Any],
    *,
    by: Any,
    stacks: Mapping[Any, Any] | None = None,
) -> list[dict[str, Any]]:
    """Record the deal the players accepted: it ends the tournament with those prizes.

    ``prizes`` maps each player still in (entry id) to their amount; together they must pay
    exactly the prizes left (places 1 to the number still in), or nothing is recorded.
    The players in the deal are placed by their prize (then by ``stacks`` when given, which
    in person must add up to the chips in play); equal prizes share the place. Returns the results as ``tournament_finish`` does.
    """
    require_director(by)
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        _require_in_play(tournament)
        playing = _playing(tournament)
        if len(playing) < 2:
            raise TournamentError(_("A deal needs two or more players still in."))
        amounts = _amounts(playing, prizes, what=_("the prize"), positive=False, of_chips=False)
        chips = (
            _amounts(playing, stacks, what=_("the chips"), positive=True, of_chips=True)
            if stacks
            else {}
        )
        if chips:
            _require_stacks_add_up(tournament, chips)
        left = sum(_prizes_left(tournament, len(playing)))
        total = sum(amounts.values())
        if total != left:
            raise TournamentError(
                _(
                    "The deal pays %(total)s, but %(left)s is left to pay: the amounts must add up to it."
                )
                % {"total": total, "left": left}
            )
        results, finish_undo = _finish(tournament, deal=amounts, chips=chips)
        summary = message(
            gettext_noop("Deal: %(lines)s"),
            lines=", ".join(f"{e.player.name} {amounts[e.pk]}" for e in playing),
        )
        undo.action_record(
            tournament, ActionKind.DEAL, summary, by=by, undo={"finish": finish_undo}
        )
    return results


# The finish -------------------------------------------------------------------------------


def tournament_finish(tournament_id: int, *, by: Any) -> list[dict[str, Any]]:
    """End the tournament when one player is left: store every place, prize and bounty.

    Every entrant's place (from the order of the eliminations), prize (tied places sharing)
    and bounties are stored, the tournament is marked finished, and ``tournament_finished``
    is sent after commit with the results as plain data (see ``tournaments.signals``).
    Returns those results.
    """
    require_director(by)
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        _require_in_play(tournament)
        still_in = selectors.players_left(tournament)
        if still_in != 1:
            raise TournamentError(
                _(
                    "%(count)s players are still in: record the eliminations, or a deal, "
                    "before ending the tournament."
                )
                % {"count": still_in}
            )
        results, finish_undo = _finish(tournament, deal=None, chips={})
        winner = results[0]["player_name"] if results else ""
        undo.action_record(
            tournament,
            ActionKind.FINISH,
            message(gettext_noop("Finished: %(name)s wins"), name=winner),
            by=by,
            undo={"finish": finish_undo},
        )
    return results


def _finish(
    tournament: Tournament, *, deal: Mapping[int, int] | None, chips: Mapping[int, int]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Settle places and prizes, mark the tournament finished, send the signal on commit.

    Each player's last entry takes their place; an entry that busted before its player
    re-entered has no place of its own (its knockouts and bounties still count for them).
    """
    waiting = (
        Entry.objects.select_related("player")
        .filter(tournament=tournament, state=EntryState.REGISTERED)
        .first()
    )
    if waiting is not None:
        raise TournamentError(
            _("%(name)s is registered but has no seat: seat or unregister them first.")
            % {"name": waiting.player.name}
        )
    entries = list(
        Entry.objects.select_related("player").filter(
            tournament=tournament, state__in=(EntryState.PLAYING, EntryState.OUT)
        )
    )
    payouts = payouts_compute(tournament)
    final = _last_entries(entries)
    prizes = _prizes_for(payouts, len(final))
    still_in = [e for e in final if e.state == EntryState.PLAYING]
    out = [e for e in final if e.state == EntryState.OUT]

    groups = _finishing_order(still_in, out, deal=deal, chips=chips)
    places = _numbered(groups)
    won = _winnings(tournament, groups, places, prizes, deal=deal)

    before = []
    for entry in entries:
        before.append(
            {
                "id": entry.pk,
                "place": entry.place,
                "prize": entry.prize,
                "bounties": entry.bounties,
            }
        )
        entry.place = places.get(entry.pk)
        entry.prize = won.get(entry.pk, 0)
        if entry.state == EntryState.PLAYING:
            # Nobody knocked the last players out: each keeps the bounty on their own head.
            entry.bounties += tournament.bounty
        entry.save(update_fields=["place", "prize", "bounties"])

    tournament_before = {
        "state": tournament.state,
        "finished_at": tournament.finished_at.isoformat() if tournament.finished_at else None,
    }
    tournament.state = TournamentState.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["state", "finished_at"])

    results = _results(entries, tournament)
    tournament_id, event_id = tournament.pk, tournament.event_id
    transaction.on_commit(lambda: _results_publish(tournament_id, event_id, results))
    return results, {"tournament": tournament_before, "entries": before}


def _finishing_order(
    still_in: list[Entry],
    out: list[Entry],
    *,
    deal: Mapping[int, int] | None,
    chips: Mapping[int, int],
) -> list[list[Entry]]:
    """Best first, as lists of entries that share a place: the players still in (by their
    deal, then their chips), then those out, ranked as during the night
    (``places_update``)."""
    groups: list[list[Entry]] = []
    if deal is not None:
        key = {e.pk: (deal[e.pk], chips.get(e.pk, 0)) for e in still_in}
        for entry in sorted(still_in, key=lambda e: (key[e.pk][0], key[e.pk][1]), reverse=True):
            if groups and key[groups[-1][0].pk] == key[entry.pk]:
                groups[-1].append(entry)
            else:
                groups.append([entry])
    else:
        groups.extend([e] for e in still_in)
    groups.extend(_out_ranked(out))
    return groups


def _winnings(
    tournament: Tournament,
    groups: list[list[Entry]],
    places: Mapping[int, int],
    prizes: list[int],
    *,
    deal: Mapping[int, int] | None,
) -> dict[int, int]:
    """What each entry wins: a deal's amounts for the players still in and the prizes of
    their places for the others (ties share), or the prizes of every place without one."""
    ranked = [e for group in groups for e in group]
    won: dict[int, int] = {}
    if deal is not None:
        won.update({e.pk: deal[e.pk] for e in ranked if e.state == EntryState.PLAYING})
        paid_out = [e for e in ranked if e.state == EntryState.OUT]
    else:
        paid_out = ranked
    shares = payout_rules.shared_prizes(
        prizes, [places[e.pk] for e in paid_out], unit=tournament.money_unit
    )
    won.update({e.pk: share for e, share in zip(paid_out, shares, strict=True)})
    return won


def _results(entries: Sequence[Entry], tournament: Tournament) -> list[dict[str, Any]]:
    """One plain dict per player, best place first (see ``tournaments.signals``).

    ``paid_in`` is what the player paid: every entry's buy-in and fee, every rebuy and
    add-on at its price (the settle-up weighs it against prizes and bounties).
    """
    entry_price = tournament.event.buy_in + tournament.event.fee
    by_player: dict[int, list[Entry]] = {}
    for entry in entries:
        by_player.setdefault(entry.player_id, []).append(entry)
    results = []
    for player_entries in by_player.values():
        player_entries.sort(key=lambda e: e.number)
        player = player_entries[-1].player
        results.append(
            {
                "player_id": player.pk,
                "player_name": player.name,
                "is_guest": player.is_guest,
                "entry_numbers": [e.number for e in player_entries],
                "place": player_entries[-1].place,
                "prize": sum(e.prize for e in player_entries),
                "bounties": sum(e.bounties for e in player_entries),
                "knockouts": sum(e.knockouts_count for e in player_entries),
                "rebuys": sum(e.rebuys for e in player_entries),
                "addons": sum(1 for e in player_entries if e.addon),
                "reentries": len(player_entries) - 1,
                "paid_in": len(player_entries) * entry_price
                + sum(e.rebuys for e in player_entries) * tournament.rebuy_price
                + sum(1 for e in player_entries if e.addon) * tournament.addon_price,
            }
        )
    results.sort(key=lambda r: (r["place"] is None, r["place"] or 0, name_key(r["player_name"])))
    return results


def _unfinish(tournament: Tournament, data: dict[str, Any]) -> None:
    if tournament.state != TournamentState.FINISHED:
        raise TournamentError(_("This tournament is not finished; there is no end to undo."))
    if tournament.online and tournament.tables.filter(live_table__isnull=False).exists():
        raise TournamentError(
            _("An online tournament's end cannot be undone: its tables are closed.")
        )
    for before in data["entries"]:
        Entry.objects.filter(pk=before["id"], tournament=tournament).update(
            place=before["place"], prize=before["prize"], bounties=before["bounties"]
        )
    previous = data["tournament"]
    tournament.state = previous["state"]
    tournament.finished_at = (
        parse_datetime(previous["finished_at"]) if previous["finished_at"] else None
    )
    tournament.save(update_fields=["state", "finished_at"])
    tournament_id, event_id = tournament.pk, tournament.event_id
    # After commit: the undone finish's results leave the event and the standings.
    transaction.on_commit(lambda: event_results_remove(tournament_id, event_id))


def _results_publish(tournament_id: int, event_id: int, results: list[dict[str, Any]]) -> None:
    """After the finish commits: the results become the event's in the series (a call down
    to the series, which knows nothing of tournaments), then the tournaments' own listeners
    hear of it (online play releases its tables)."""
    event_results_store(tournament_id, event_id, results)
    tournament_finished.send(
        sender=Tournament, tournament_id=tournament_id, event_id=event_id, results=results
    )


@undo.register(ActionKind.FINISH)
def _undo_finish(tournament: Tournament, action: TournamentAction) -> None:
    """Reopen the tournament: the places and prizes go back to what they were."""
    _unfinish(tournament, action.undo["finish"])


@undo.register(ActionKind.DEAL)
def _undo_deal(tournament: Tournament, action: TournamentAction) -> None:
    """Take the deal back: the tournament reopens with the same players still in."""
    _unfinish(tournament, action.undo["finish"])
