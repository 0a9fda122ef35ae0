"""Entries: registration and its waiting list, walk-ins, late entries, rebuys, re-entries
and add-ons (a tournament's settings and start are ``lifecycle``'s).

Every write runs in one transaction with the tournament row locked (``locks.tournament_locked``),
the lock every console action and the clock take, so two directors' phones and a player
registering from home are applied one at a time: the capacity count, a rebuy's "rebuys
left" and the add-on's "only once" are read and written under that lock.

Director actions are logged with ``undo.action_record`` and reversed by the handlers at the
bottom of this module. A player registering or unregistering themselves is not a director
action: it is not in the console's log, so the director's Undo never takes back a
player's own registration.

The rules "until level N" use the level number of ``tournaments.selectors``: on a break it
is the level just played, so "rebuys until level 3" still holds in the break after level 3.
Each rule has a ``*_refusal`` function that returns why an action is refused (or None),
which the console uses to show only the buttons that would work.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from core import amounts
from series.models import Player
from tournaments import selectors, summaries
from tournaments.errors import NameInUse, TournamentError, not_playing
from tournaments.models import (
    ActionKind,
    BlindLevel,
    Entry,
    EntryState,
    Tournament,
    TournamentAction,
)
from tournaments.permissions import require_director
from tournaments.services import results, seating, undo
from tournaments.services.locks import tournament_locked
from tournaments.summaries import message

NAME_MAX = Player._meta.get_field("name").max_length or 100


# -- shared pieces -----------------------------------------------------------------------


def entry_lock(entry_id: int) -> tuple[Tournament, Entry]:
    """The entry's tournament row locked (the lock of every entries action), and the entry
    read again under it. For workflows in other modules that call the ``*_take`` functions."""
    return _lock_entry(entry_id)


def _lock_entry(entry_id: int) -> tuple[Tournament, Entry]:
    tournament_id = Entry.objects.filter(pk=entry_id).values_list("tournament_id", flat=True)
    if not tournament_id:
        raise TournamentError(_("This entry does not exist."))
    tournament = tournament_locked(tournament_id[0])
    # Read the entry again under the tournament's lock: it may have changed meanwhile.
    entry = Entry.objects.select_related("player").get(pk=entry_id)
    return tournament, entry


def player_for_user(user: Any) -> Player:
    """The series' person of an account, created on first use."""
    player, _created = Player.objects.get_or_create(
        user=user, defaults={"name": user.get_username()}
    )
    return player


def _full(tournament: Tournament, *, besides: Entry | None = None) -> bool:
    """Whether every place is taken, not counting ``besides`` (an entry already holding one)."""
    if tournament.capacity is None:
        return False
    taken = tournament.entries.filter(state__in=selectors.PLACE_STATES)
    if besides is not None and besides.pk is not None:
        taken = taken.exclude(pk=besides.pk)
    return taken.count() >= tournament.capacity


def _full_message(tournament: Tournament) -> str:
    return _("The tournament is full (%(capacity)s players).") % {"capacity": tournament.capacity}


def waiting_list_promote(tournament: Tournament) -> list[int]:
    """Move the waiting list up into the places now free, first come first served."""
    waiting = selectors.entries_waiting(tournament)
    if tournament.capacity is not None:
        free = tournament.capacity - selectors.places_taken(tournament)
        if free <= 0:
            return []
        waiting = waiting[:free]
    promoted = [entry.pk for entry in waiting]
    Entry.objects.filter(pk__in=promoted).update(state=EntryState.REGISTERED)
    return promoted


def _snapshot(entry: Entry) -> dict[str, Any]:
    """An entry's values an action may change, to put back on undo."""
    return {
        "state": entry.state,
        "registered_at": entry.registered_at.isoformat() if entry.registered_at else None,
        "table_number": entry.table_number,
        "seat_number": entry.seat_number,
    }


def _restore(entry: Entry, snapshot: dict[str, Any]) -> None:
    entry.state = snapshot["state"]
    registered_at: datetime | None = (
        parse_datetime(snapshot["registered_at"]) if snapshot["registered_at"] else None
    )
    if registered_at is not None:
        entry.registered_at = registered_at
    entry.table_number = snapshot["table_number"]
    entry.seat_number = snapshot["seat_number"]
    entry.save(update_fields=["state", "registered_at", "table_number", "seat_number"])


def _level_rule(tournament: Tournament, until: int | None, rows: Sequence[BlindLevel]) -> bool:
    """Whether a rule "until level ``until``" still holds at the clock's level."""
    return until is not None and selectors.current_level_number(tournament, rows) <= until


def registration_refusal(
    tournament: Tournament, rows: Sequence[BlindLevel] | None = None
) -> str | None:
    """Why nobody can register now (None: registration is open, perhaps late)."""
    if tournament.is_over:
        return _("This tournament is over.")
    if not tournament.is_started:
        return None
    rows = selectors.blind_structure_rows(tournament) if rows is None else rows
    until = tournament.late_registration_until_level
    if until is None:
        return _("The tournament has started and takes no late registrations.")
    if not _level_rule(tournament, until, rows):
        return _("Late registration closed at the end of level %(level)s.") % {"level": until}
    return None


def _already_message(player: Player, entry: Entry) -> str:
    if entry.state == EntryState.WAITING:
        return _("%(name)s is already on the waiting list.") % {"name": player.name}
    if entry.state == EntryState.PLAYING:
        return _("%(name)s is already playing.") % {"name": player.name}
    return _("%(name)s is already registered.") % {"name": player.name}


def _reusable_entry(tournament: Tournament, player: Player) -> Entry | None:
    """The player's entry left unregistered, taken up again rather than numbered anew."""
    return (
        tournament.entries.filter(player=player, state=EntryState.UNREGISTERED)
        .order_by("-number")
        .first()
    )


def register_player(tournament: Tournament, player: Player) -> tuple[Entry, dict[str, Any]]:
    """Register ``player`` (the tournament row locked by the caller): the entry and the
    undo data of a ``REGISTER`` action (house bots registered by ``online_bots_fill``)."""
    return _register(tournament, player)


def _register(tournament: Tournament, player: Player) -> tuple[Entry, dict[str, Any]]:
    """Give ``player`` a place, or a place on the waiting list when all are taken.

    Returns the entry and the undo data that puts things back.
    """
    live = selectors.entry_live_of(tournament, player)
    if live is not None:
        raise TournamentError(_already_message(player, live))
    if tournament.entries.filter(player=player, state=EntryState.OUT).exists():
        raise TournamentError(
            _("%(name)s is out; only a re-entry brings them back.") % {"name": player.name}
        )
    state = EntryState.WAITING if _full(tournament) else EntryState.REGISTERED
    entry = _reusable_entry(tournament, player)
    if entry is None:
        entry = Entry.objects.create(tournament=tournament, player=player, state=state)
        return entry, {"entry": entry.pk, "created": True}
    before = _snapshot(entry)
    entry.state = state
    # The waiting list is in order of registration: a player coming back joins at the end.
    entry.registered_at = timezone.now()
    entry.save(update_fields=["state", "registered_at"])
    return entry, {"entry": entry.pk, "created": False, "before": before}


def _seat_late(tournament: Tournament, entry: Entry, by: Any) -> list[int]:
    """Draw a seat for an entry that plays from now (a late entry, a re-entry).

    Once the seats are drawn, the newcomer draws from the open seats (``seating``, TDA 8);
    before that there is nothing to draw from, and the draw seats them with everyone.
    Returns the ids of the actions the seating logged, for this action's ``includes``, so
    one Undo takes back the seat and the entry together.
    """
    if not tournament.tables.exists():
        return []
    seating.seating_late_seat(entry, by=by)
    seat_action = undo.action_last(tournament.pk)
    return [seat_action.pk] if seat_action is not None else []


# -- players ----------------------------------------------------------------------------


def entry_register(tournament_id: int, user: Any) -> Entry:
    """A player registers themselves: a place, or the waiting list when the field is full.

    Open until the tournament starts, then during late registration (the director then
    takes the late entry when the player arrives and pays); refused once late registration
    has closed or the tournament is over.
    """
    if user is None or not user.is_authenticated:
        raise TournamentError(_("Log in to register."))
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        refusal = registration_refusal(tournament)
        if refusal:
            raise TournamentError(refusal)
        entry, _undo = _register(tournament, player_for_user(user))
    return entry


def entry_unregister(tournament_id: int, user: Any) -> Entry:
    """A player takes back their registration; the first on the waiting list moves up.

    Only a place not yet played: once seated, a player leaves by busting out.
    """
    if user is None or not user.is_authenticated:
        raise TournamentError(_("Log in to unregister."))
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        if tournament.is_over:
            raise TournamentError(_("This tournament is over."))
        player = Player.objects.filter(user=user).first()
        entry = selectors.entry_live_of(tournament, player) if player else None
        if entry is None:
            raise TournamentError(_("You are not registered for this tournament."))
        if entry.state == EntryState.PLAYING:
            raise TournamentError(_("You are playing; ask the director."))
        _unregister(tournament, entry)
    return entry


def _unregister(tournament: Tournament, entry: Entry) -> list[int]:
    held_place = entry.state == EntryState.REGISTERED
    entry.state = EntryState.UNREGISTERED
    entry.save(update_fields=["state"])
    return waiting_list_promote(tournament) if held_place else []


# -- the director's actions -------------------------------------------------------------


def entry_remove(entry_id: int, *, by: Any) -> Entry:
    """The director takes a registration off (a no-show); the waiting list moves up."""
    require_director(by)
    with transaction.atomic():
        tournament, entry = _lock_entry(entry_id)
        if tournament.is_over:
            raise TournamentError(_("This tournament is over."))
        if entry.state not in (EntryState.REGISTERED, EntryState.WAITING):
            raise TournamentError(
                _("%(name)s is not registered or waiting; nothing to take off.")
                % {"name": entry.player.name}
            )
        before = _snapshot(entry)
        promoted = _unregister(tournament, entry)
        undo.action_record(
            tournament,
            ActionKind.UNREGISTER,
            message(gettext_noop("Unregistered: %(name)s"), name=entry.player.name),
            by=by,
            undo={"entry": entry.pk, "before": before, "promoted": promoted},
        )
    return entry


def _walk_in_name(name: str) -> str:
    cleaned = " ".join(str(name).split())
    if not cleaned:
        raise TournamentError(_("Enter the player's name."))
    if len(cleaned) > NAME_MAX:
        raise TournamentError(_("A name has at most %(max)s characters.") % {"max": NAME_MAX})
    return cleaned


def entry_add_walk_in(tournament_id: int, name: str, *, by: Any, new_guest: bool = False) -> Entry:
    """The director adds a new guest, a player with no account, by name.

    A name the series already knows (an account's or a guest's, any case) raises
    ``NameInUse`` naming those players, so a regular is not given a twin: the director
    registers one of them (``entry_add_player``) or, with ``new_guest``, confirms that this
    is someone else of the same name. Before the start the guest registers (the waiting
    list when full); once started, this is their late entry.
    """
    require_director(by)
    name = _walk_in_name(name)
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        refusal = registration_refusal(tournament)
        if refusal:
            raise TournamentError(refusal)
        if not new_guest:
            known = selectors.players_named(name)
            if known:
                raise NameInUse(
                    ngettext(
                        "There is already a player named %(name)s: register them, or confirm "
                        "a new guest.",
                        "There are already %(count)s players named %(name)s: register one of "
                        "them, or confirm a new guest.",
                        len(known),
                    )
                    # One player: their name as the series writes it ("ann", not "ANN").
                    % {"name": known[0].name if len(known) == 1 else name, "count": len(known)},
                    players=known,
                )
        player = Player.objects.create(name=name)
        return _walk_in(tournament, player, by=by, player_created=True)


def entry_add_player(tournament_id: int, player_id: int, *, by: Any) -> Entry:
    """The director adds a player the series knows, an account or a guest, as the walk-in
    form's suggestions do: registered before the start (the waiting list when full), a late
    entry once started."""
    require_director(by)
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        refusal = registration_refusal(tournament)
        if refusal:
            raise TournamentError(refusal)
        player = Player.objects.filter(pk=player_id).first()
        if player is None:
            raise TournamentError(_("This player does not exist."))
        return _walk_in(tournament, player, by=by, player_created=False)


def _walk_in(tournament: Tournament, player: Player, *, by: Any, player_created: bool) -> Entry:
    """Register ``player`` or take their late entry (the tournament row locked by the
    caller), and log it; Undo deletes a guest made for it who has no other entry."""
    if tournament.is_started:
        entry, data = _late(tournament, player)
        data[undo.INCLUDES] = _seat_late(tournament, entry, by)
        kind, summary = ActionKind.LATE_ENTRY, gettext_noop("Walk-in, late entry: %(name)s")
    else:
        entry, data = _register(tournament, player)
        kind = ActionKind.REGISTER
        summary = (
            gettext_noop("Walk-in, waiting list: %(name)s")
            if entry.state == EntryState.WAITING
            else gettext_noop("Walk-in: %(name)s")
        )
    data["player_created"] = player_created
    undo.action_record(tournament, kind, message(summary, name=player.name), by=by, undo=data)
    return entry


def late_refusal(tournament: Tournament, rows: Sequence[BlindLevel] | None = None) -> str | None:
    """Why no late entry can be taken now (None: it can)."""
    if tournament.is_over:
        return _("This tournament is over.")
    if not tournament.is_started:
        return _("The tournament has not started; register the player instead.")
    return registration_refusal(tournament, rows)


def _late(tournament: Tournament, player: Player) -> tuple[Entry, dict[str, Any]]:
    refusal = late_refusal(tournament)
    if refusal:
        raise TournamentError(refusal)
    live = selectors.entry_live_of(tournament, player)
    if live is not None and live.state == EntryState.PLAYING:
        raise TournamentError(_already_message(player, live))
    if live is None and tournament.entries.filter(player=player, state=EntryState.OUT).exists():
        raise TournamentError(
            _("%(name)s is out; only a re-entry brings them back.") % {"name": player.name}
        )
    entry = live or _reusable_entry(tournament, player)
    if _full(tournament, besides=entry if live and live.state == EntryState.REGISTERED else None):
        raise TournamentError(_full_message(tournament))
    if entry is None:
        entry = Entry.objects.create(tournament=tournament, player=player, state=EntryState.PLAYING)
        # A new player in the field: everyone already out finishes one place lower.
        results.places_update(tournament)
        return entry, {"entry": entry.pk, "created": True}
    before = _snapshot(entry)
    entry.state = EntryState.PLAYING
    entry.save(update_fields=["state"])
    results.places_update(tournament)
    return entry, {"entry": entry.pk, "created": False, "before": before}


def entry_late(tournament_id: int, player_id: int, *, by: Any) -> Entry:
    """The director takes a player's late entry: they pay and play from now.

    A player registered or on the waiting list plays on that entry; anyone else gets a new
    one. Open until the end of the late-registration level, within the capacity.
    """
    require_director(by)
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        player = Player.objects.filter(pk=player_id).first()
        if player is None:
            raise TournamentError(_("This player does not exist."))
        entry, data = _late(tournament, player)
        data["player_created"] = False
        data[undo.INCLUDES] = _seat_late(tournament, entry, by)
        undo.action_record(
            tournament,
            ActionKind.LATE_ENTRY,
            message(gettext_noop("Late entry: %(name)s"), name=player.name),
            by=by,
            undo=data,
        )
    return entry


def _not_playing_message(entry: Entry) -> str:
    if entry.state == EntryState.OUT:
        return _("%(name)s is out; only a re-entry brings them back.") % {"name": entry.player.name}
    return not_playing(entry.player.name).message


def _stack_needed() -> str:
    return _("Enter the player's stack in chips.")


def rebuy_limit(tournament: Tournament) -> int:
    """The most chips a player may have and still rebuy (default: the starting stack)."""
    return tournament.rebuy_max_stack or tournament.event.starting_stack


def rebuy_refusal(
    tournament: Tournament,
    entry: Entry,
    rows: Sequence[BlindLevel] | None = None,
    *,
    stack: int | None = None,
) -> str | None:
    """Why ``entry`` cannot rebuy now (None: it can). ``stack`` None checks all but the
    stack, for the console to decide whether to offer the button."""
    if not tournament.rebuys_allowed:
        return _("This tournament has no rebuys.")
    if tournament.is_over:
        return _("This tournament is over.")
    if not tournament.is_started:
        return _("Rebuys start with the tournament.")
    if entry.state != EntryState.PLAYING:
        return _not_playing_message(entry)
    rows = selectors.blind_structure_rows(tournament) if rows is None else rows
    if not _level_rule(tournament, tournament.rebuy_until_level, rows):
        return _("Rebuys ended with level %(level)s.") % {"level": tournament.rebuy_until_level}
    if entry.rebuys >= tournament.rebuys_allowed:
        return ngettext(
            "%(name)s has used their %(count)s rebuy.",
            "%(name)s has used all %(count)s rebuys.",
            tournament.rebuys_allowed,
        ) % {"name": entry.player.name, "count": tournament.rebuys_allowed}
    if stack is None:
        return None
    if isinstance(stack, bool) or not isinstance(stack, int) or stack < 0:
        return _stack_needed()
    limit = rebuy_limit(tournament)
    if stack > limit:
        return _("A rebuy is only allowed at or below %(limit)s; %(name)s has %(stack)s.") % {
            "limit": amounts.chips(limit),
            "name": entry.player.name,
            "stack": amounts.chips(stack),
        }
    return None


def entry_rebuy(entry_id: int, *, by: Any, stack: int) -> Entry:
    """The director records a rebuy: ``stack`` is the player's chips before it, which must
    be at or below the limit (the starting stack unless the tournament sets another)."""
    require_director(by)
    with transaction.atomic():
        if stack is None:
            raise TournamentError(_stack_needed())
        tournament, entry = _lock_entry(entry_id)
        return rebuy_take(tournament, entry, stack=stack, by=by)


def rebuy_take(tournament: Tournament, entry: Entry, *, stack: int | None, by: Any) -> Entry:
    """Record a rebuy of ``entry`` (the tournament row locked by the caller, who has checked
    who may): refused unless ``rebuy_refusal`` allows it at ``stack``. The director's
    ``entry_rebuy`` and a player's own rebuy online (``services.purchases``) both come here."""
    if stack is None:
        raise TournamentError(_stack_needed())
    refusal = rebuy_refusal(tournament, entry, stack=stack)
    if refusal:
        raise TournamentError(refusal)
    before = entry.rebuys
    entry.rebuys = before + 1
    # A player busted online and offered the rebuy plays on (``services.online``).
    entry.rebuy_offer_until = None
    entry.rebuy_offer = {}
    entry.save(update_fields=["rebuys", "rebuy_offer_until", "rebuy_offer"])
    undo.action_record(
        tournament,
        ActionKind.REBUY,
        message(
            gettext_noop("Rebuy: %(name)s (%(count)s of %(allowed)s, had %(stack)s)"),
            name=entry.player.name,
            count=entry.rebuys,
            allowed=tournament.rebuys_allowed,
            stack=summaries.chips(stack),
        ),
        by=by,
        undo={"entry": entry.pk, "rebuys": before},
    )
    return entry


def reentry_refusal(
    tournament: Tournament, entry: Entry, rows: Sequence[BlindLevel] | None = None
) -> str | None:
    """Why ``entry``'s player cannot re-enter now (None: they can)."""
    if not tournament.reentries_allowed:
        return _("This tournament has no re-entries.")
    if tournament.is_over:
        return _("This tournament is over.")
    if not tournament.is_started:
        return _("Re-entries start with the tournament.")
    if entry.state != EntryState.OUT:
        return _("%(name)s is not out.") % {"name": entry.player.name}
    rows = selectors.blind_structure_rows(tournament) if rows is None else rows
    if not _level_rule(tournament, tournament.reentry_until_level, rows):
        return _("Re-entry closed at the end of level %(level)s.") % {
            "level": tournament.reentry_until_level
        }
    played = tournament.entries.filter(
        player_id=entry.player_id, state__in=(EntryState.PLAYING, EntryState.OUT)
    ).count()
    if played - 1 >= tournament.reentries_allowed:
        return _("%(name)s has used all %(count)s re-entries.") % {
            "name": entry.player.name,
            "count": tournament.reentries_allowed,
        }
    live = selectors.entry_live_of(tournament, entry.player)
    if live is not None:
        return _already_message(entry.player, live)
    if _full(tournament):
        return _full_message(tournament)
    return None


def entry_reentry(entry_id: int, *, by: Any) -> Entry:
    """A busted player buys in again: a new entry (the next number) playing from now."""
    require_director(by)
    with transaction.atomic():
        tournament, entry = _lock_entry(entry_id)
        return reentry_take(tournament, entry, by=by)


def reentry_take(tournament: Tournament, entry: Entry, *, by: Any, seat: bool = True) -> Entry:
    """Record the re-entry of ``entry``'s player (the tournament row locked by the caller,
    who has checked who may): the new entry, seated as a late entry is unless ``seat`` is
    False (a player re-entering online is seated on the live tables by the caller)."""
    refusal = reentry_refusal(tournament, entry)
    if refusal:
        raise TournamentError(refusal)
    last = tournament.entries.filter(player_id=entry.player_id).order_by("-number").first()
    number = (last.number if last else entry.number) + 1
    new = Entry.objects.create(
        tournament=tournament,
        player=entry.player,
        number=number,
        state=EntryState.PLAYING,
    )
    # The busted entry's place goes back: the player's place will be the new entry's.
    results.places_update(tournament)
    includes = _seat_late(tournament, new, by) if seat else []
    undo.action_record(
        tournament,
        ActionKind.REENTRY,
        message(
            gettext_noop("Re-entry: %(name)s (entry %(number)s)"),
            name=entry.player.name,
            number=number,
        ),
        by=by,
        undo={"entry": new.pk, "from": entry.pk, undo.INCLUDES: includes},
    )
    return new


def addon_refusal(
    tournament: Tournament, entry: Entry, rows: Sequence[BlindLevel] | None = None
) -> str | None:
    """Why ``entry`` cannot take the add-on now (None: it can)."""
    if tournament.addon_at_break is None:
        return _("This tournament has no add-on.")
    if tournament.is_over:
        return _("This tournament is over.")
    if entry.state != EntryState.PLAYING:
        return _not_playing_message(entry)
    if entry.addon:
        return _("%(name)s has already taken the add-on.") % {"name": entry.player.name}
    rows = selectors.blind_structure_rows(tournament) if rows is None else rows
    row = selectors.current_row(tournament, rows)
    if row is None or row.position != tournament.addon_at_break:
        numbers = dict(zip((r.position for r in rows), selectors.level_numbers(rows), strict=True))
        return _("The add-on is taken at the break after level %(level)s.") % {
            "level": numbers.get(tournament.addon_at_break, "?")
        }
    return None


def entry_addon(entry_id: int, *, by: Any) -> Entry:
    """The director records a player's add-on: once, at the add-on break."""
    require_director(by)
    with transaction.atomic():
        tournament, entry = _lock_entry(entry_id)
        return addon_take(tournament, entry, by=by)


def addon_take(tournament: Tournament, entry: Entry, *, by: Any) -> Entry:
    """Record ``entry``'s add-on (the tournament row locked by the caller, who has checked
    who may)."""
    refusal = addon_refusal(tournament, entry)
    if refusal:
        raise TournamentError(refusal)
    entry.addon = True
    entry.save(update_fields=["addon"])
    undo.action_record(
        tournament,
        ActionKind.ADDON,
        message(gettext_noop("Add-on: %(name)s"), name=entry.player.name),
        by=by,
        undo={"entry": entry.pk},
    )
    return entry


# -- undo -------------------------------------------------------------------------------


def _undo_entry(action: TournamentAction) -> Entry:
    entry = Entry.objects.select_related("player").filter(pk=action.undo.get("entry")).first()
    if entry is None:
        raise TournamentError(
            _("“%(action)s” cannot be undone: the entry no longer exists.")
            % {"action": action.summary_text}
        )
    return entry


def _changed_since(action: TournamentAction) -> TournamentError:
    return TournamentError(
        _("“%(action)s” cannot be undone: the entry has changed since.")
        % {"action": action.summary_text}
    )


def _give_back_place(tournament: Tournament, entry: Entry, action: TournamentAction) -> None:
    """Reverse a registration or late entry: the entry goes back to what it was (or away)."""
    held_place = entry.state in selectors.PLACE_STATES
    player = entry.player
    if action.undo.get("created"):
        entry.delete()
    else:
        _restore(entry, action.undo["before"])
    if action.undo.get("player_created") and not player.entries.exists():
        player.delete()
    if held_place:
        waiting_list_promote(tournament)
    results.places_update(tournament)


@undo.register(ActionKind.REGISTER)
def _undo_register(tournament: Tournament, action: TournamentAction) -> None:
    entry = _undo_entry(action)
    if entry.state not in (EntryState.REGISTERED, EntryState.WAITING):
        raise _changed_since(action)
    _give_back_place(tournament, entry, action)


@undo.register(ActionKind.LATE_ENTRY)
def _undo_late_entry(tournament: Tournament, action: TournamentAction) -> None:
    entry = _undo_entry(action)
    if entry.state != EntryState.PLAYING or entry.rebuys or entry.addon:
        raise _changed_since(action)
    if entry.knockouts.exists():
        raise _changed_since(action)
    _give_back_place(tournament, entry, action)


@undo.register(ActionKind.UNREGISTER)
def _undo_unregister(tournament: Tournament, action: TournamentAction) -> None:
    entry = _undo_entry(action)
    if entry.state != EntryState.UNREGISTERED:
        raise _changed_since(action)
    # The players moved up by this removal go back to the waiting list first, so the place
    # they took is free again; one who has since left the list stays where they are.
    Entry.objects.filter(
        pk__in=action.undo.get("promoted", []), state=EntryState.REGISTERED
    ).update(state=EntryState.WAITING)
    before = dict(action.undo["before"])
    if before["state"] == EntryState.REGISTERED and _full(tournament):
        before["state"] = EntryState.WAITING
    _restore(entry, before)


@undo.register(ActionKind.REBUY)
def _undo_rebuy(tournament: Tournament, action: TournamentAction) -> None:
    entry = _undo_entry(action)
    if entry.rebuys != action.undo["rebuys"] + 1:
        raise _changed_since(action)
    entry.rebuys = action.undo["rebuys"]
    entry.save(update_fields=["rebuys"])


@undo.register(ActionKind.REENTRY)
def _undo_reentry(tournament: Tournament, action: TournamentAction) -> None:
    entry = _undo_entry(action)
    if entry.state != EntryState.PLAYING or entry.rebuys or entry.addon:
        raise _changed_since(action)
    if entry.knockouts.exists():
        raise _changed_since(action)
    entry.delete()
    results.places_update(tournament)


@undo.register(ActionKind.ADDON)
def _undo_addon(tournament: Tournament, action: TournamentAction) -> None:
    entry = _undo_entry(action)
    if not entry.addon:
        raise _changed_since(action)
    entry.addon = False
    entry.save(update_fields=["addon"])


# The last elimination ---------------------------------------------------------------------


def reentry_still_open(tournament: Tournament) -> str | None:
    """Why the night may not be over with one player left: a player out may still re-enter
    (their newest entry, as the console offers it). None when nobody can come back."""
    rows = selectors.blind_structure_rows(tournament)
    newest: dict[int, Entry] = {}
    for entry in tournament.entries.select_related("player").filter(state=EntryState.OUT):
        if entry.player_id not in newest or entry.number > newest[entry.player_id].number:
            newest[entry.player_id] = entry
    if not any(reentry_refusal(tournament, entry, rows) is None for entry in newest.values()):
        return None
    return _("Re-entries are still open until the end of level %(level)s.") % {
        "level": tournament.reentry_until_level
    }


def elimination_record(
    tournament_id: int,
    entry_ids: Sequence[Any],
    *,
    by: Any,
    eliminated_by: Any = None,
    stacks_at_hand_start: dict[Any, Any] | None = None,
) -> tuple[list[Entry], list[dict[str, Any]] | None]:
    """Record players out (``results.entry_eliminate``); when that leaves one player and
    nobody out can re-enter, the same tap ends the tournament (``results.tournament_finish``,
    undone on its own first). Returns the players out and the final results, or None while
    the tournament goes on (the console then asks whether to end it)."""
    with transaction.atomic():
        placed = results.entry_eliminate(
            tournament_id,
            entry_ids,
            by=by,
            eliminated_by=eliminated_by,
            stacks_at_hand_start=stacks_at_hand_start,
        )
        tournament = tournament_locked(tournament_id)
        if (
            selectors.players_left(tournament) != 1
            or reentry_still_open(tournament) is not None
            or not results.overview_payable(tournament)
        ):
            return placed, None
        return placed, results.tournament_finish(tournament_id, by=by)
