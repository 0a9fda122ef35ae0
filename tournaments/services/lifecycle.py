"""A tournament's life before play: its settings (created, changed, checked together) and
its start, with the start's Undo.

Kept apart from ``entries`` (who plays) because the start reaches further than entries do:
it draws the seats, starts the clock and, online, opens the live tables
(``online.online_start``), and ``online`` itself builds on ``entries``. Every write runs with
the tournament row locked (``locks.tournament_locked``), the lock every console action takes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from core import amounts
from series.models import Event
from tables.engine.errors import RuleError
from tables.services import rule_words
from tournaments import selectors
from tournaments.errors import TournamentError
from tournaments.models import (
    ActionKind,
    BlindStructure,
    LevelKind,
    Tournament,
    TournamentAction,
    TournamentState,
)
from tournaments.permissions import require_director
from tournaments.services import entries, locks, online, seating, undo
from tournaments.services.clock.controls import clock_start
from tournaments.services.clock.store import clock_restore, clock_saved
from tournaments.summaries import message

# The settings a director edits; ``EVENT_SETTINGS`` live on the event and are edited with it.
TOURNAMENT_SETTINGS = (
    "blind_structure",
    "online",
    "raise_cap",
    "uncapped_heads_up",
    "pot_assumes_small_blind_call",
    "seats_per_table",
    "capacity",
    "money_unit",
    "bounty",
    "late_registration_until_level",
    "rebuys_allowed",
    "rebuy_until_level",
    "rebuy_chips",
    "rebuy_price",
    "rebuy_max_stack",
    "rebuy_after_bust_seconds",
    "addon_at_break",
    "addon_chips",
    "addon_price",
    "reentries_allowed",
    "reentry_until_level",
    "payout_basis_points",
    "balance_threshold",
    "hand_for_hand_minutes",
    "time_bank_seconds",
    "time_bank_refill_seconds",
    "time_bank_cap_seconds",
)
EVENT_SETTINGS = ("game", "structure", "buy_in", "fee", "starting_stack")

# What may not change once the tournament has started: the money rules (what an entry,
# rebuy or add-on costs and gives, and how the pool is paid), and what the clock and the
# chips already in play were built on.
LOCKED_AFTER_START = (
    "buy_in",
    "fee",
    "starting_stack",
    "game",
    "structure",
    "blind_structure",
    "online",
    "bounty",
    "money_unit",
    "rebuys_allowed",
    "rebuy_until_level",
    "rebuy_chips",
    "rebuy_price",
    "rebuy_max_stack",
    "addon_at_break",
    "addon_chips",
    "addon_price",
    "reentries_allowed",
    "reentry_until_level",
    "payout_basis_points",
    # The live tables are opened with the time bank (and new ones must match them).
    "time_bank_seconds",
    "time_bank_refill_seconds",
    "time_bank_cap_seconds",
)

# The settings that are money and chips, bounded by ``core.amounts``.
MONEY_SETTINGS = ("buy_in", "fee", "bounty", "money_unit", "rebuy_price", "addon_price")
CHIPS_SETTINGS = ("starting_stack", "rebuy_chips", "addon_chips", "rebuy_max_stack")


# -- settings ---------------------------------------------------------------------------


def _setting_label(name: str) -> str:
    model = Event if name in EVENT_SETTINGS else Tournament
    return str(model._meta.get_field(name).verbose_name)


def _current_value(tournament: Tournament, name: str) -> Any:
    if name in EVENT_SETTINGS:
        return getattr(tournament.event, name)
    if name == "blind_structure":
        return tournament.blind_structure_id
    return getattr(tournament, name)


def _new_value(name: str, value: Any) -> Any:
    if name == "blind_structure" and isinstance(value, BlindStructure):
        return value.pk
    return value


def _apply(tournament: Tournament, settings: dict[str, Any]) -> None:
    unknown = set(settings) - set(TOURNAMENT_SETTINGS) - set(EVENT_SETTINGS)
    if unknown:
        raise TypeError(f"unknown tournament settings: {', '.join(sorted(unknown))}")
    for name, value in settings.items():
        if name == "blind_structure":
            if not isinstance(value, BlindStructure):
                raise TournamentError(_("Choose a blind structure."), field=name)
            tournament.blind_structure = value
        elif name in EVENT_SETTINGS:
            setattr(tournament.event, name, value)
        else:
            setattr(tournament, name, value)


def _check_int(tournament: Tournament, name: str, *, minimum: int, optional: bool) -> None:
    value = _current_value(tournament, name)
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise TournamentError(
            _("%(setting)s must be a whole number of at least %(minimum)s.")
            % {"setting": _setting_label(name).capitalize(), "minimum": minimum},
            field=name,
        )


def _check_amounts(tournament: Tournament) -> None:
    """The home game's bounds of ``core.amounts``, checked here as well as on the form, for
    a caller that has none."""
    for names, limit, said in (
        (MONEY_SETTINGS, amounts.MONEY_MAX, amounts.money),
        (CHIPS_SETTINGS, amounts.CHIPS_MAX, amounts.chips),
    ):
        for name in names:
            value = _current_value(tournament, name)
            if isinstance(value, int) and value > limit:
                raise TournamentError(
                    _("%(setting)s can be at most %(limit)s.")
                    % {"setting": _setting_label(name).capitalize(), "limit": said(limit)},
                    field=name,
                )


# The engine's name of each time bank setting (``TimeBank``'s refusals name one), and ours.
TIME_BANK_SETTINGS = {
    "start": "time_bank_seconds",
    "refill": "time_bank_refill_seconds",
    "cap": "time_bank_cap_seconds",
}


def _check_time_bank(tournament: Tournament) -> None:
    """The online time bank as the engine has it (docs/rules.md, Home-game options)."""
    for name in TIME_BANK_SETTINGS.values():
        _check_int(tournament, name, minimum=0, optional=False)
    try:
        tournament.time_bank  # noqa: B018 - the engine checks the settings together
    except RuleError as exc:
        field = TIME_BANK_SETTINGS[str(exc.params.get("setting", "cap"))]
        raise TournamentError(rule_words(exc), field=field) from None


def _validate(tournament: Tournament) -> None:
    """Check a tournament's settings together; raise ``TournamentError`` on the first fault."""
    if tournament.blind_structure_id is None:
        raise TournamentError(_("Choose a blind structure."), field="blind_structure")
    _validate_numbers(tournament)
    _validate_levels(tournament)
    _validate_payouts(tournament)


def _validate_numbers(tournament: Tournament) -> None:
    """Each number in its range, the time bank and the bounty within the buy-in."""
    event = tournament.event
    for name in ("buy_in", "fee", "bounty", "rebuys_allowed", "rebuy_chips", "rebuy_price"):
        _check_int(tournament, name, minimum=0, optional=False)
    for name in ("addon_chips", "addon_price", "reentries_allowed"):
        _check_int(tournament, name, minimum=0, optional=False)
    for name in ("starting_stack", "money_unit", "balance_threshold"):
        _check_int(tournament, name, minimum=1, optional=False)
    for name in ("capacity", "raise_cap", "rebuy_max_stack"):
        _check_int(tournament, name, minimum=1, optional=True)
    _check_amounts(tournament)
    if not 2 <= tournament.seats_per_table <= 10:
        raise TournamentError(_("A table seats 2 to 10 players."), field="seats_per_table")
    # docs/rules.md "Hand-for-hand (RP-8)": "the clock loses at most 3 minutes per hand".
    minutes = tournament.hand_for_hand_minutes
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 0 <= minutes <= 3:
        raise TournamentError(
            _("Hand-for-hand takes 0 to 3 minutes off the clock per hand."),
            field="hand_for_hand_minutes",
        )
    _check_time_bank(tournament)
    if tournament.bounty > event.buy_in:
        raise TournamentError(
            _("The bounty (%(bounty)s) cannot be more than the buy-in (%(buy_in)s).")
            % {"bounty": amounts.money(tournament.bounty), "buy_in": amounts.money(event.buy_in)},
            field="bounty",
        )


def _validate_levels(tournament: Tournament) -> None:
    """What the settings say of the blind structure's levels: there are some, the levels
    named are among them, rebuys, re-entries and the add-on say when they stop and what
    they give, and the add-on comes at one of its breaks."""
    rows = selectors.blind_structure_rows(tournament)
    levels = selectors.level_count(rows)
    if levels == 0:
        raise TournamentError(
            _("The blind structure “%(name)s” has no levels.")
            % {"name": tournament.blind_structure.name},
            field="blind_structure",
        )
    for name in ("late_registration_until_level", "rebuy_until_level", "reentry_until_level"):
        _check_int(tournament, name, minimum=1, optional=True)
        value = getattr(tournament, name)
        if value is not None and value > levels:
            raise TournamentError(
                _("%(setting)s: the blind structure has only %(levels)s levels.")
                % {"setting": _setting_label(name).capitalize(), "levels": levels},
                field=name,
            )
    if tournament.rebuys_allowed:
        if tournament.rebuy_until_level is None:
            raise TournamentError(
                _("Say until which level rebuys are allowed."), field="rebuy_until_level"
            )
        if not tournament.rebuy_chips:
            raise TournamentError(_("Say how many chips a rebuy gives."), field="rebuy_chips")
    if tournament.reentries_allowed and tournament.reentry_until_level is None:
        raise TournamentError(
            _("Say until which level re-entry is allowed."), field="reentry_until_level"
        )
    if tournament.addon_at_break is not None:
        breaks = {row.position for row in rows if row.kind == LevelKind.BREAK}
        if tournament.addon_at_break not in breaks:
            raise TournamentError(
                _("The add-on must be at one of the blind structure's breaks."),
                field="addon_at_break",
            )
        if not tournament.addon_chips:
            raise TournamentError(_("Say how many chips the add-on gives."), field="addon_chips")


def _validate_payouts(tournament: Tournament) -> None:
    """The paid places' shares: each above 0%, together 100%."""
    payouts = tournament.payout_basis_points
    if payouts:
        if not isinstance(payouts, list) or any(
            isinstance(p, bool) or not isinstance(p, int) or p <= 0 for p in payouts
        ):
            raise TournamentError(
                _("Each paid place needs a share above 0%."), field="payout_basis_points"
            )
        if sum(payouts) != 10000:
            raise TournamentError(
                _("The payout percentages add up to %(total)s%%, not 100%%.")
                % {"total": f"{sum(payouts) / 100:g}"},
                field="payout_basis_points",
            )


def tournament_create(event: Event, *, by: Any, **settings: Any) -> Tournament:
    """Create the tournament of ``event`` with the director's settings.

    ``settings`` are the names in ``TOURNAMENT_SETTINGS`` (``blind_structure`` is required)
    and ``EVENT_SETTINGS`` (the event's game, betting structure, buy-in, fee and starting
    stack, saved on the event). One tournament per event.
    """
    require_director(by)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if Tournament.objects.filter(event=event).exists():
            raise TournamentError(
                _("“%(event)s” already has a tournament.") % {"event": event.name}
            )
        tournament = Tournament(event=event, created_by=by)
        _apply(tournament, settings)
        _validate(tournament)
        event.save()
        tournament.save()
    return tournament


def event_fields_held(tournament: Tournament) -> dict[str, str]:
    """The event's fields that are the tournament's money rules (``LOCKED_AFTER_START``),
    each with why it may not change now: none before the start, all of them from it on, as
    ``tournament_update`` refuses them. For the series' own edit page of the night."""
    if not tournament.is_started:
        return {}
    names = [name for name in EVENT_SETTINGS if name in LOCKED_AFTER_START]
    if tournament.is_over:
        over = _("This tournament is over; its settings stay as played.")
        return {name: over for name in names}
    return {
        name: _("The tournament has started: %(settings)s can no longer change.")
        % {"settings": _setting_label(name)}
        for name in names
    }


def event_deletion_refused(event_id: int) -> str | None:
    """Why the series may not delete the draft night ``event_id``: its tournament has players
    (registered, waiting, or in play), whose places would be deleted with it. The
    tournament's row is locked until the caller's transaction ends, before the series
    locks the event: the order the start takes them in (tournament, then event)."""
    tournament = Tournament.objects.select_for_update().filter(event_id=event_id).first()
    if tournament is None or not tournament.entries.exists():
        return None
    return _("This night's tournament has players: it cannot be deleted.")


def tournament_update(tournament_id: int, *, by: Any, **settings: Any) -> Tournament:
    """Change a tournament's settings.

    Once it has started, the money rules (``LOCKED_AFTER_START``) may not change: refused
    with the settings named, and nothing saved. Settings that run the night (capacity, late
    registration, seats per table, balancing) may. A finished or cancelled tournament is
    left as it was played. Raising the capacity moves the waiting list up.
    """
    require_director(by)
    with transaction.atomic():
        tournament = locks.tournament_locked(tournament_id)
        if tournament.is_over:
            raise TournamentError(_("This tournament is over; its settings stay as played."))
        if tournament.is_started:
            changed = [
                name
                for name, value in settings.items()
                if name in LOCKED_AFTER_START
                and _new_value(name, value) != _current_value(tournament, name)
            ]
            if changed:
                raise TournamentError(
                    _("The tournament has started: %(settings)s can no longer change.")
                    % {"settings": ", ".join(_setting_label(name) for name in changed)},
                    field=changed[0],
                )
        _apply(tournament, settings)
        _validate(tournament)
        taken = selectors.places_taken(tournament)
        if tournament.capacity is not None and tournament.capacity < taken:
            raise TournamentError(
                _("%(taken)s players already hold a place; the capacity cannot be lower.")
                % {"taken": taken},
                field="capacity",
            )
        # Only the event's fields these settings own: its row is not locked, and a series page
        # may have changed the others (its name, its date) since it was read.
        tournament.event.save(update_fields=EVENT_SETTINGS)
        tournament.save()
        entries.waiting_list_promote(tournament)
    return tournament


def start_refusal(tournament: Tournament) -> str | None:
    """Why the tournament cannot start now (None: it can)."""
    if tournament.is_over:
        return _("This tournament is over.")
    if tournament.is_started:
        return _("The tournament has already started.")
    # Before the start a player in play is one whose seat the director has drawn already:
    # they start with the registered players, in the seat they drew.
    if selectors.places_taken(tournament) < 2:
        return _("At least two players must be registered to start.")
    return None


def tournament_start(tournament_id: int, *, by: Any, now: datetime | None = None) -> Tournament:
    """Start the tournament: draw every registered player's seat and start the clock.

    One transaction: the seat draw (``seating.seating_draw``) makes the registered entries
    play, the clock (``clock_start``) runs from ``now`` on the first row, and the start
    is logged with what it takes to go back to registration. Players on the waiting list
    stay there as alternates; one Undo takes back the clock and the draw. Seats the director
    drew before the start are kept (only players registered since draw theirs), and are
    still drawn after an Undo of the start.
    """
    require_director(by)
    with transaction.atomic():
        # The event's row too: the start plays on its money and stack, which the series'
        # edit page may be saving this very second (``locks``).
        tournament = locks.tournament_locked(tournament_id, with_event=True)
        refusal = start_refusal(tournament)
        if refusal:
            raise TournamentError(refusal)
        before = clock_saved(tournament)
        seats = seating.seating_draw(tournament, by=by)
        drawn = undo.action_last(tournament.pk) if seats else None
        clock_start(tournament.pk, by=by, now=now)
        if tournament.online:
            # Online, the drawn tables are live tables and dealing starts now.
            online.online_start(tournament.pk, by=by)
        tournament = locks.tournament_locked(tournament_id)
        # Everyone in play, those seated by an earlier draw too, not only this draw's.
        players = selectors.players_left(tournament)
        undo.action_record(
            tournament,
            ActionKind.START,
            message(gettext_noop("Started with %(count)s players"), count=players),
            by=by,
            undo={"clock": before, undo.INCLUDES: [drawn.pk] if drawn else []},
        )
    return tournament


@undo.register(ActionKind.START)
def _undo_start(tournament: Tournament, action: TournamentAction) -> None:
    # The draw (included in the start) is already undone: the players are registered again.
    if tournament.state not in (TournamentState.RUNNING, TournamentState.ON_BREAK):
        raise TournamentError(
            _("“%(action)s” cannot be undone: the tournament is %(state)s.")
            % {"action": action.summary_text, "state": tournament.get_state_display().lower()}
        )
    tournament.started_at = None
    clock_restore(tournament, action.undo["clock"])
