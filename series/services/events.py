"""A director's seasons and events from the site's own pages: create, edit, duplicate,
delete a draft, publish.

A new event is a draft (``published_at`` empty) unless published as it is made; publishing
sets ``published_at`` to now, and the outbox's next run invites the players
(``series.services.mailings``: invitations are due once ``published_at`` has passed). Every
workflow checks what the form cannot (the seats already taken, a draft that got answers)
under the event's row lock, and changes nothing when it refuses.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, time
from typing import Any

from dateutil.rrule import WEEKLY, rrule
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from series import event_sections, selectors
from series.models import Event, EventAction, EventActionKind, NoticeKind, Rsvp, Season
from series.services.mailings import mailings_for_answers, mailings_reminders_renew
from series.services.rsvp import rsvp_waiting_promote
from series.services.standings import standings_schedule

# What an event form sets (the rest is the night's own record: results, the outbox).
EVENT_FIELDS = (
    "name",
    "starts_at",
    "venue",
    "game",
    "structure",
    "buy_in",
    "fee",
    "starting_stack",
    "notes",
    "number",
    "counts",
    "points_only",
    "capacity",
    "waiting_list_size",
    "rsvp_minimum",
    "rsvp_minimum_hours",
    "late_drop_hours",
)
# "The same as last time": what a new event takes from the season's last one.
REPEATED_FIELDS = tuple(name for name in EVENT_FIELDS if name not in ("starts_at", "number"))


# Recurring nights: at most a year of them, in one step.
RECURRENCE_DAYS_MAX = 366


class EventError(Exception):
    """A change refused; ``message`` says why (in the reader's language), ``field`` where."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def _logged(
    event: Event,
    kind: str,
    by: Any,
    now: datetime,
    *,
    before: datetime | None = None,
    after: datetime | None = None,
) -> None:
    """The night's log line (``EventAction``): who did what, when."""
    EventAction.objects.create(
        event=event,
        kind=kind,
        by=by if getattr(by, "is_authenticated", False) else None,
        at=now,
        starts_before=before,
        starts_after=after,
    )


def season_save(season: Season, values: dict[str, Any]) -> Season:
    """Create or update a season from the director's form (validated by it)."""
    for name, value in values.items():
        setattr(season, name, value)
    season.full_clean()
    season.save()
    return season


def _season_open(season: Season) -> None:
    if season.closed_at is not None:
        raise EventError(_("This season is closed: reopen it to add or publish a night."))


@transaction.atomic
def season_close(season_id: int, *, now: datetime | None = None) -> Season:
    """Close a season: no new night in it, answers closed for the nights still ahead, the
    standings recomputed one last time and shown as final. Refused, changing nothing, when
    it would lose something: a night being played (its results are still to come), or a
    night still ahead that people answered (cancel it first, so they are told)."""
    now = now or timezone.now()
    season = Season.objects.select_for_update().get(pk=season_id)
    if season.closed_at is not None:
        raise EventError(_("This season is already closed."))
    events = Event.objects.filter(season=season, cancelled_at=None, finished_at=None)
    playing = [e.name for e in events.filter(starts_at__lte=now, published_at__lte=now)]
    if playing:
        raise EventError(
            _("“%(names)s” is being played: close the season once it is over.")
            % {"names": "”, “".join(playing)}
        )
    answered = [
        e.name
        for e in events.filter(starts_at__gt=now, published_at__lte=now)
        if Rsvp.objects.filter(event=e).exists()
    ]
    if answered:
        raise EventError(
            ngettext(
                "Players answered for “%(names)s”, still to come: cancel it first, so "
                "they are told, then close the season.",
                "Players answered for “%(names)s”, still to come: cancel them first, so "
                "they are told, then close the season.",
                len(answered),
            )
            % {"names": "”, “".join(answered)}
        )
    season.closed_at = now
    season.save(update_fields=["closed_at"])
    standings_schedule(season.pk)
    return season


@transaction.atomic
def season_reopen(season_id: int) -> Season:
    """Reopen a closed season: nights may be added and published again, answers reopen for
    the published nights still ahead."""
    season = Season.objects.select_for_update().get(pk=season_id)
    if season.closed_at is None:
        raise EventError(_("This season is not closed."))
    season.closed_at = None
    season.save(update_fields=["closed_at"])
    return season


# A season's defaults for its new nights: the event's field each one fills in.
SEASON_DEFAULTS = {
    "default_venue": "venue",
    "default_game": "game",
    "default_structure": "structure",
    "default_buy_in": "buy_in",
    "default_fee": "fee",
    "default_capacity": "capacity",
}


def season_has_defaults(season: Season) -> bool:
    return any(getattr(season, name) not in ("", None) for name in SEASON_DEFAULTS)


def event_defaults(season: Season) -> dict[str, Any]:
    """A new event's form, prefilled from the season's defaults where it has them, the rest
    "the same as last time": the season's latest event, else the latest event of any
    season, else the model's defaults. The next number and the start time of day follow
    the last one."""
    last = (
        Event.objects.filter(season=season).order_by("-starts_at", "-pk").first()
        or Event.objects.order_by("-starts_at", "-pk").first()
    )
    values: dict[str, Any] = {"number": 1}
    if last is not None:
        values = {name: getattr(last, name) for name in REPEATED_FIELDS}
        values["name"] = ""
        numbers = Event.objects.filter(season=season).exclude(number=None)
        values["number"] = (max(numbers.values_list("number", flat=True), default=0) or 0) + 1
        values["time"] = timezone.localtime(last.starts_at).time().replace(second=0, microsecond=0)
    for name, field in SEASON_DEFAULTS.items():
        value = getattr(season, name)
        if value not in ("", None):
            values[field] = value
    return values


def event_copy_values(event: Event) -> dict[str, Any]:
    """A duplicate's form: everything of ``event`` but its date (the director picks it)."""
    values = {name: getattr(event, name) for name in REPEATED_FIELDS}
    values["time"] = timezone.localtime(event.starts_at).time().replace(second=0, microsecond=0)
    values["number"] = None
    return values


def venues_remembered(limit: int = 20) -> list[str]:
    """The venues events were held at, most recent first, each once: the form offers them."""
    seen: list[str] = []
    for venue in (
        Event.objects.exclude(venue="").order_by("-starts_at").values_list("venue", flat=True)
    ):
        if venue not in seen:
            seen.append(venue)
        if len(seen) == limit:
            break
    return seen


def _in_future(starts_at: datetime, now: datetime) -> None:
    if starts_at <= now:
        raise EventError(_("A new night cannot start in the past."), "date")


def _in_season(season: Season, starts_at: datetime) -> None:
    day = timezone.localdate(starts_at)
    if not season.starts_on <= day <= season.ends_on:
        raise EventError(
            _("The night is outside the season (%(start)s to %(end)s).")
            % {"start": season.starts_on.isoformat(), "end": season.ends_on.isoformat()},
            "date",
        )


@transaction.atomic
def event_create(
    season: Season,
    values: dict[str, Any],
    *,
    publish: bool,
    now: datetime | None = None,
    by: Any = None,
    then: Callable[[Event], None] | None = None,
) -> Event:
    """A new event of ``season``: a draft, or published now (the invitations follow).
    ``then`` makes the rest of the night (its tournament) in the same transaction: what
    it raises leaves no event."""
    now = now or timezone.now()
    locked = Season.objects.select_for_update().filter(pk=season.pk).first()
    _season_open(locked or season)
    _in_future(values["starts_at"], now)
    _in_season(season, values["starts_at"])
    event = Event(season=season, published_at=now if publish else None)
    for name in EVENT_FIELDS:
        if name in values:
            setattr(event, name, values[name])
    event.full_clean()
    event.save()
    _logged(event, EventActionKind.CREATED, by, now)
    if publish:
        _logged(event, EventActionKind.PUBLISHED, by, now)
    if then is not None:
        then(event)
    return event


@transaction.atomic
def event_update(
    event_id: int, values: dict[str, Any], *, now: datetime | None = None, by: Any = None
) -> Event:
    """Save the director's changes. Refused: seats below the people already going (a
    confirmed seat is never taken back), a finished night moved into the future. Raised
    seats move the waiting list up at once."""
    now = now or timezone.now()
    event = Event.objects.select_for_update().select_related("season").get(pk=event_id)
    capacity = values.get("capacity", event.capacity)
    if capacity is not None:
        taken = selectors.rsvp_going_seats(event)
        if capacity < taken:
            raise EventError(
                ngettext(
                    "%(taken)s person is already going: the seats cannot be fewer "
                    "(you asked for %(capacity)s).",
                    "%(taken)s people are already going: the seats cannot be fewer "
                    "(you asked for %(capacity)s).",
                    taken,
                )
                % {"taken": taken, "capacity": capacity},
                "capacity",
            )
    # What another app runs on the night may hold some fields (a started tournament its
    # money): sent unchanged with the rest of the form they are no change.
    for name, why in event_sections.fields_held(event).items():
        if name in values and values[name] != getattr(event, name):
            raise EventError(why, name)
    before = event.starts_at
    moved = bool(values.get("starts_at")) and values["starts_at"] != before
    if moved:
        if event.finished_at is not None:
            raise EventError(_("This night is over: it cannot move."), "date")
        if event.cancelled_at is not None:
            raise EventError(_("This night is cancelled: undo that before moving it."), "date")
        _in_future(values["starts_at"], now)
        _in_season(event.season, values["starts_at"])
    for name in EVENT_FIELDS:
        if name in values:
            setattr(event, name, values[name])
    event.full_clean()
    event.save()
    rsvp_waiting_promote(event, now)
    if moved:
        _logged(event, EventActionKind.MOVED, by, now, before=before, after=event.starts_at)
        # The reminders follow the new time: the old time's are not sent, and stand in
        # for nothing.
        mailings_reminders_renew(event, now)
    if moved and not event.is_draft_at(now):
        # Everyone who answered is told; their answers are kept, and each may change it.
        mailings_for_answers(event, NoticeKind.MOVED, now)
    return event


def event_moved_told(event: Event) -> int:
    """How many people who answered are told of a move (the director's message says it)."""
    return Rsvp.objects.filter(event=event).count()


@transaction.atomic
def event_cancel(event_id: int, *, now: datetime | None = None, by: Any = None) -> Event:
    """Cancel a published night before it starts: answers close (kept, for an undo) and
    everyone who answered is told. A draft is deleted rather than cancelled."""
    now = now or timezone.now()
    event = Event.objects.select_for_update().get(pk=event_id)
    if event.is_draft_at(now):
        raise EventError(_("A draft is not cancelled: delete it."))
    if event.cancelled_at is not None:
        raise EventError(_("This night is already cancelled."))
    if event.finished_at is not None or event.starts_at <= now:
        raise EventError(_("This night has started: it can no longer be cancelled."))
    event.cancelled_at = now
    event.save(update_fields=["cancelled_at"])
    _logged(event, EventActionKind.CANCELLED, by, now)
    mailings_for_answers(event, NoticeKind.CANCELLED, now)
    return event


@transaction.atomic
def event_cancel_undo(event_id: int, *, now: datetime | None = None, by: Any = None) -> Event:
    """Undo a cancellation before the night: answers open again as they were. The
    cancellation notices not sent yet are not sent (``series.services.mailing_messages``
    skips them)."""
    now = now or timezone.now()
    event = Event.objects.select_for_update().get(pk=event_id)
    if event.cancelled_at is None:
        raise EventError(_("This night is not cancelled."))
    if event.starts_at <= now:
        raise EventError(_("This night's time has passed: the cancellation stays."))
    event.cancelled_at = None
    event.save(update_fields=["cancelled_at"])
    _logged(event, EventActionKind.UNCANCELLED, by, now)
    return event


@transaction.atomic
def event_draft_delete(event_id: int, *, now: datetime | None = None) -> Season:
    """Delete a draft nobody saw. Refused: a published event (cancel it instead), a draft
    with answers or results, or one another app holds people on (a tournament with
    players: ``event_sections.deletion_refused``, asked first, as it locks its own rows
    before the event's)."""
    now = now or timezone.now()
    held = event_sections.deletion_refused(event_id)
    event = Event.objects.select_for_update().select_related("season").get(pk=event_id)
    if not event.is_draft_at(now):
        raise EventError(_("Only a draft can be deleted; a published night is cancelled."))
    if Rsvp.objects.filter(event=event).exists() or event.results.exists():
        raise EventError(_("This draft has answers or results: it cannot be deleted."))
    if held:
        raise EventError(held)
    season = event.season
    event.delete()
    return season


@transaction.atomic
def event_publish(event_id: int, *, now: datetime | None = None, by: Any = None) -> Event:
    """Publish a draft now: it shows to everyone who may see the season, answers open, and
    the outbox's next run sends the invitations."""
    now = now or timezone.now()
    event = Event.objects.select_for_update().select_related("season").get(pk=event_id)
    if not event.is_draft_at(now):
        raise EventError(_("This night is already published."))
    _season_open(event.season)
    if event.cancelled_at is not None:
        raise EventError(_("This night is cancelled."))
    if event.starts_at <= now:
        raise EventError(_("This night has started: it can no longer be published."))
    event.published_at = now
    event.save(update_fields=["published_at"])
    _logged(event, EventActionKind.PUBLISHED, by, now)
    return event


def event_move_back(
    event_id: int, action_id: int, *, now: datetime | None = None, by: Any = None
) -> Event:
    """Take a move back: the night returns to the time it had before ``action_id`` (a
    move of this night), told to everyone who answered like any move. Refused: an action
    of another night or not a move, a time already passed."""
    now = now or timezone.now()
    event = Event.objects.get(pk=event_id)
    action = selectors.event_move(event, action_id)
    if action is None:
        raise EventError(_("That is not a move of this night: nothing changed."))
    return event_update(event_id, {"starts_at": action.starts_before}, now=now, by=by)


def recurrence_days(first: date, last: date, every_weeks: int, skip: list[date]) -> list[date]:
    """The days of "every ``every_weeks`` weeks from ``first`` to ``last``", without
    ``skip``. Refused: an end before the start, more than a year, a skipped day that is not
    one of the nights, no night left.

    >>> [d.isoformat() for d in recurrence_days(date(2027, 1, 1), date(2027, 1, 29), 2, [])]
    ['2027-01-01', '2027-01-15', '2027-01-29']
    """
    if last < first:
        raise EventError(_("The last night comes before the first."), "last_day")
    if (last - first).days >= RECURRENCE_DAYS_MAX:
        raise EventError(_("At most a year of nights at once."), "last_day")
    days = [
        moment.date()
        for moment in rrule(
            WEEKLY,
            interval=every_weeks,
            dtstart=datetime.combine(first, time()),
            until=datetime.combine(last, time()),
        )
    ]
    strays = sorted(set(skip) - set(days))
    if strays:
        raise EventError(
            _("%(day)s is not one of the nights: nothing to skip.")
            % {"day": strays[0].isoformat()},
            "skip",
        )
    kept = [day for day in days if day not in set(skip)]
    if not kept:
        raise EventError(_("These dates make no night."), "skip")
    return kept


@transaction.atomic
def events_recurring_create(
    season: Season,
    values: dict[str, Any],
    days: list[date],
    at: time,
    *,
    publish: bool,
    now: datetime | None = None,
    by: Any = None,
    then: Callable[[Event], None] | None = None,
) -> list[Event]:
    """One event per day of ``days`` at ``at``, numbered after the season's last: all made,
    or none (the first refused night rolls every one back). Each is its own event
    afterwards, edited, moved or cancelled alone."""
    now = now or timezone.now()
    Season.objects.select_for_update().filter(pk=season.pk).first()
    numbers = Event.objects.filter(season=season).exclude(number=None)
    number = max(numbers.values_list("number", flat=True), default=0) or 0
    made = []
    for day in days:
        starts_at = timezone.make_aware(datetime.combine(day, at))
        number += 1
        made.append(
            event_create(
                season,
                {**values, "starts_at": starts_at, "number": number},
                publish=publish,
                now=now,
                by=by,
                then=then,
            )
        )
    return made
