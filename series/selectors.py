"""Reads that several views share."""

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum
from django.utils import timezone

from core.names import NameOrder
from core.permissions import is_director
from series import scoring
from series.models import (
    Event,
    EventAction,
    EventActionKind,
    Player,
    Result,
    ResultChange,
    Rsvp,
    RsvpAnswer,
    Season,
    SeasonVisibility,
    Standing,
    StandingPoint,
    Transfer,
)
from series.net import net_result

# -- who sees what -------------------------------------------------------------------------
#
# Directors see everything, drafts included (an event whose ``published_at`` is empty or
# later). Everyone else sees published events only; a visitor who is not logged in sees
# nothing of a members-only season, and the calendar of another season without the names
# (who is coming, who won, results, profiles) unless the host made it public.


def is_member(user: Any) -> bool:
    """A logged-in, active account: a member of the series."""
    return bool(getattr(user, "is_authenticated", False) and getattr(user, "is_active", False))


def season_shown_to(season: Season, user: Any) -> bool:
    return season.visibility != SeasonVisibility.MEMBERS or is_member(user)


def event_actions(event: Event) -> list[EventAction]:
    """The night's log (made, published, moved, cancelled), newest first, with who."""
    return list(EventAction.objects.filter(event=event).select_related("by"))


def event_move(event: Event, action_id: int) -> EventAction | None:
    """``action_id`` if it is a move of ``event`` (the log offers to take it back)."""
    return EventAction.objects.filter(
        pk=action_id, event=event, kind=EventActionKind.MOVED, starts_before__isnull=False
    ).first()


def names_shown_to(season: Season, user: Any) -> bool:
    """Whether ``user`` may read people's names in the season: who is coming, results."""
    return season.visibility == SeasonVisibility.PUBLIC or is_member(user)


def event_shown_to(event: Event, user: Any, now: datetime | None = None) -> bool:
    if is_director(user):
        return True
    return not event.is_draft_at(now or timezone.now()) and season_shown_to(event.season, user)


def events_shown_to(
    events: QuerySet[Event], user: Any, now: datetime | None = None
) -> QuerySet[Event]:
    """``events`` without what ``user`` may not see (drafts, members-only seasons)."""
    if is_director(user):
        return events
    events = events.filter(published_at__lte=now or timezone.now())
    if not is_member(user):
        events = events.exclude(season__visibility=SeasonVisibility.MEMBERS)
    return events


def seasons_shown_to(seasons: QuerySet[Season], user: Any) -> QuerySet[Season]:
    if is_member(user):
        return seasons
    return seasons.exclude(visibility=SeasonVisibility.MEMBERS)


def events_upcoming(now: datetime | None = None) -> QuerySet[Event]:
    now = now or timezone.now()
    return Event.objects.filter(starts_at__gte=now).select_related("season").order_by("starts_at")


def event_next(now: datetime | None = None) -> Event | None:
    return events_upcoming(now).first()


def event_next_for(user: Any, now: datetime | None = None) -> Event | None:
    """The next event ``user`` may see (the home page's)."""
    now = now or timezone.now()
    return events_shown_to(events_upcoming(now), user, now).first()


def seasons_with_events() -> QuerySet[Season]:
    return Season.objects.prefetch_related("events")


# -- the calendar and event pages -----------------------------------------


def events_later_this_season(event: Event | None, user: Any, limit: int = 3) -> list[Event]:
    """The events after ``event`` in the same season that ``user`` may see: the home page's
    "later this season" (another season's events do not belong there)."""
    if event is None:
        return []
    events = Event.objects.filter(season_id=event.season_id, starts_at__gte=event.starts_at)
    return list(
        events_shown_to(events, user)
        .exclude(pk=event.pk)
        .select_related("season")
        .order_by("starts_at", "pk")[:limit]
    )


def seasons_listed(user: Any) -> QuerySet[Season]:
    """Every season ``user`` may see, newest first, with how many of its events they see
    and how many of those are over."""
    shown = Q()
    if not is_director(user):
        shown = Q(events__published_at__lte=timezone.now())
    return (
        seasons_shown_to(Season.objects.all(), user)
        .annotate(
            event_count=Count("events", filter=shown, distinct=True),
            finished_count=Count(
                "events", filter=shown & Q(events__finished_at__isnull=False), distinct=True
            ),
        )
        .order_by("-starts_on", "-pk")
    )


def season_current(user: Any, now: datetime | None = None) -> Season | None:
    """The season on now (the latest one started), else the next one, else the last one,
    among those ``user`` may see."""
    today = timezone.localdate(now or timezone.now())
    seasons = seasons_shown_to(Season.objects.all(), user)
    return (
        seasons.filter(starts_on__lte=today, ends_on__gte=today)
        .order_by("-starts_on", "-pk")
        .first()
        or seasons.filter(starts_on__gt=today).order_by("starts_on", "pk").first()
        or seasons.order_by("-ends_on", "-pk").first()
    )


def _with_winners_and_field(events: QuerySet[Event]) -> QuerySet[Event]:
    winners = (
        Result.objects.filter(place=1)
        .select_related("player")
        .order_by(NameOrder("player__name"), "pk")
    )
    return events.annotate(field_size=Count("results")).prefetch_related(
        Prefetch("results", queryset=winners, to_attr="winners")
    )


def season_events(season: Season, user: Any) -> list[Event]:
    """The season's calendar in order as ``user`` may see it, each event with ``winners``
    (first place: one, or several after a shared first place) and ``field_size`` (results
    stored)."""
    events = (
        Event.objects.filter(season=season)
        .select_related("season")
        .order_by("starts_at", "number", "pk")
    )
    return list(_with_winners_and_field(events_shown_to(events, user)))


def event_for_page(event_id: int) -> Event | None:
    """One event with its season, winners and field size (None: no such event)."""
    events = Event.objects.filter(pk=event_id).select_related("season")
    return _with_winners_and_field(events).first()


# Why an event scores no points (``event_not_counted``).
LEFT_OUT = "left-out"
TOO_SMALL = "too-small"


def event_not_counted(event: Event) -> str:
    """Why ``event`` scores no points in the standings: ``LEFT_OUT`` (the director left it
    out), ``TOO_SMALL`` (it finished with fewer players than the season's smallest field
    that counts, ``series.scoring.field_counts``), or "" when it counts or may still.

    Uses the ``field_size`` the calendar's reads annotate when there, else counts.
    """
    if not event.counts:
        return LEFT_OUT
    if event.finished_at is None:
        return ""
    field = getattr(event, "field_size", None)
    if field is None:
        field = Result.objects.filter(event=event).count()
    # No results stored yet: nothing to score, and nothing to tell the players.
    if field and not scoring.field_counts(field, event.season.min_field):
        return TOO_SMALL
    return ""


@dataclass(frozen=True)
class NotCounted:
    """A finished event of the season that scores no points, and why."""

    event: Event
    reason: str

    @property
    def too_small(self) -> bool:
        return self.reason == TOO_SMALL


def events_not_counted(season: Season) -> list[NotCounted]:
    """The season's finished events that score no points, in calendar order (the
    leaderboard names them, so nobody wonders where a night's points went)."""
    events = Event.objects.filter(season=season, finished_at__isnull=False).select_related("season")
    events = events.annotate(field_size=Count("results")).order_by("starts_at", "number", "pk")
    found = [NotCounted(event, event_not_counted(event)) for event in events]
    return [item for item in found if item.reason]


def event_results(event: Event) -> QuerySet[Result]:
    """The event's results table, best place first."""
    return (
        Result.objects.filter(event=event)
        .select_related("player")
        .order_by("place", NameOrder("player__name"), "pk")
    )


def places_tied(rows: Iterable[Any]) -> frozenset[int]:
    """The places two or more of ``rows`` hold (players who tie share one), for
    ``place_shown``: "3 (tied)". ``rows`` are results, or a tournament's entries (a row
    without a place, a re-entered entry or a player still in, holds none)."""
    held = Counter(row.place for row in rows if row.place is not None)
    return frozenset(place for place, count in held.items() if count > 1)


def player_of_user(user: Any) -> Player | None:
    """The series' person of an account (None: anonymous, or never registered for
    anything and no calendar link yet)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=user).first()


def player_by_calendar_token(token: str) -> Player | None:
    """Whose calendar feed this token opens (None for an empty or unknown token)."""
    if not token:
        return None
    return Player.objects.filter(calendar_token=token).first()


def events_by_ids(event_ids: list[int], now: datetime | None = None) -> list[Event]:
    """The published events among ``event_ids``, in calendar order (the player's own feed:
    its token stands for a member, so members-only seasons are in it)."""
    events = Event.objects.filter(
        pk__in=event_ids, published_at__lte=now or timezone.now()
    ).select_related("season")
    return list(_with_winners_and_field(events).order_by("starts_at", "pk"))


# Standings -------------------------------------------------------------------------------------


def standings_of(season: Season) -> QuerySet[Standing]:
    """The season's leaderboard in rank order, as the last recompute stored it."""
    return (
        Standing.objects.filter(season=season)
        .select_related("player")
        .order_by("rank", NameOrder("player__name"), "player_id")
    )


def standings_history(season: Season, player_ids: list[int]) -> list[StandingPoint]:
    """These players' points after each counted event they played, in the season's order."""
    return list(
        StandingPoint.objects.filter(season=season, player_id__in=player_ids)
        .select_related("event")
        .order_by("event__starts_at", "event__number", "event_id", "player_id")
    )


def standings_events(season: Season) -> list[Event]:
    """The season's counted events that have points, in order (the chart's x axis)."""
    counted = StandingPoint.objects.filter(season=season).values("event_id")
    return list(Event.objects.filter(pk__in=counted).order_by("starts_at", "number", "pk"))


# Players, corrections and the settle-up ----------------------------


@dataclass(frozen=True)
class ProfileResult:
    """One line of a player's results table."""

    event: Event
    place: int
    field: int
    prize: int
    bounties: int
    knockouts: int
    paid_in: int
    points: Decimal
    # Another player of the event holds the same place ("3 (tied)").
    tied: bool = False

    @property
    def net(self) -> int:
        return net_result(prize=self.prize, bounties=self.bounties, paid_in=self.paid_in)

    @property
    def cashed(self) -> bool:
        return self.prize > 0


@dataclass(frozen=True)
class PlayerProfile:
    """A player's record over every season: the numbers at the top of their page."""

    player: Player
    results: list[ProfileResult]

    @property
    def events(self) -> int:
        return len(self.results)

    @property
    def cashes(self) -> int:
        return sum(1 for r in self.results if r.cashed)

    @property
    def itm_rate(self) -> float | None:
        """Share of events finished in the money, None before the first event."""
        return self.cashes / self.events if self.results else None

    @property
    def itm_percent(self) -> int | None:
        rate = self.itm_rate
        return None if rate is None else round(rate * 100)

    @property
    def net(self) -> int:
        return sum(r.net for r in self.results)

    @property
    def won(self) -> int:
        return sum(r.prize + r.bounties for r in self.results)

    @property
    def paid_in(self) -> int:
        return sum(r.paid_in for r in self.results)

    @property
    def knockouts(self) -> int:
        return sum(r.knockouts for r in self.results)

    @property
    def wins(self) -> int:
        return sum(1 for r in self.results if r.place == 1)

    @property
    def best_finish(self) -> ProfileResult | None:
        """The best place; among equal places the biggest field, then the earliest."""
        if not self.results:
            return None
        return min(self.results, key=lambda r: (r.place, -r.field, r.event.starts_at))


def player_profile(player: Player) -> PlayerProfile:
    """Every result of ``player``, oldest first, with each event's field size: two queries."""
    field = (
        Result.objects.filter(event=OuterRef("event"))
        .order_by()
        .values("event")
        .annotate(n=Count("pk"))
        .values("n")
    )
    rows = (
        Result.objects.filter(player=player)
        .select_related("event__season")
        .annotate(
            field=Subquery(field),
            tied=Exists(
                Result.objects.filter(event=OuterRef("event"), place=OuterRef("place")).exclude(
                    pk=OuterRef("pk")
                )
            ),
        )
        .order_by("event__starts_at", "event__pk")
    )
    return PlayerProfile(
        player=player,
        results=[
            ProfileResult(
                event=r.event,
                place=r.place,
                field=r.field,
                prize=r.prize,
                bounties=r.bounties,
                knockouts=r.knockouts,
                paid_in=r.paid_in,
                points=r.points,
                tied=r.tied,
            )
            for r in rows
        ],
    )


def guests_with_results() -> QuerySet[Player]:
    """The guests (players without an account), with how many results each has."""
    return (
        Player.objects.filter(user__isnull=True)
        .annotate(result_count=Count("results"))
        .order_by(NameOrder("name"), "pk")
    )


def result_changes_of(event: Event) -> QuerySet[ResultChange]:
    """An event's corrections, newest first, with who made them."""
    return ResultChange.objects.filter(event=event).select_related("by")


def transfers_of(event: Event) -> QuerySet[Transfer]:
    return Transfer.objects.filter(event=event).select_related("payer", "payee", "marked_by")


def event_player_user_ids(event: Event) -> set[int]:
    """The accounts that played ``event`` (they may read its settle-up)."""
    return set(
        Result.objects.filter(event=event, player__user__isnull=False).values_list(
            "player__user_id", flat=True
        )
    )


def night_players(event: Event | int) -> QuerySet[Player]:
    """The players of the night (a result in it), by name: the payers and sharers its
    expenses may have."""
    return Player.objects.filter(results__event=event).order_by(NameOrder("name"), "pk")


# Who is coming (RSVP) ------------------------------------------------------------------------


def name_shown(name: str) -> str:
    """A person's name as other people read it: never an e-mail address. A username may be
    one ("ann@example.com"); only the part before the "@" is shown.

    >>> name_shown("ann@example.com"), name_shown("Ann")
    ('ann', 'Ann')
    """
    return name.split("@", 1)[0] if "@" in name else name


@dataclass(frozen=True)
class RsvpSummary:
    """Who is coming to an event: each list in the order seats are given (the order of
    the answers), and the counts the event page and the director's page show. A party
    takes one seat for the player and one for each guest."""

    capacity: int | None
    going: list[Rsvp]
    waiting: list[Rsvp]
    maybe: list[Rsvp]
    not_going: list[Rsvp]
    # People the waiting list holds (None: no limit, 0: no waiting list).
    waiting_list_size: int | None = None

    @property
    def going_players(self) -> int:
        return len(self.going)

    @property
    def going_seats(self) -> int:
        return sum(rsvp.seats for rsvp in self.going)

    @property
    def waiting_players(self) -> int:
        return len(self.waiting)

    @property
    def waiting_seats(self) -> int:
        return sum(rsvp.seats for rsvp in self.waiting)

    @property
    def maybe_count(self) -> int:
        return len(self.maybe)

    @property
    def not_going_count(self) -> int:
        return len(self.not_going)

    @property
    def waiting_room(self) -> int | None:
        """Places free on the waiting list (None: no limit)."""
        if self.waiting_list_size is None:
            return None
        return max(self.waiting_list_size - self.waiting_seats, 0)

    @property
    def seats_left(self) -> int | None:
        """Free seats (None: no limit; never below 0, even after the host lowered it)."""
        if self.capacity is None:
            return None
        return max(self.capacity - self.going_seats, 0)

    @property
    def answered(self) -> bool:
        return bool(self.going or self.waiting or self.maybe or self.not_going)

    def of_player(self, player_id: int | None) -> Rsvp | None:
        if player_id is None:
            return None
        for rsvp in (*self.going, *self.waiting, *self.maybe, *self.not_going):
            if rsvp.player_id == player_id:
                return rsvp
        return None

    def waiting_place(self, rsvp: Rsvp) -> int | None:
        """1 for the first party on the waiting list (None: not waiting)."""
        for place, row in enumerate(self.waiting, start=1):
            if row.pk == rsvp.pk:
                return place
        return None


def rsvp_summary(event: Event) -> RsvpSummary:
    """The event's answers, sorted into Going (seated), waiting, Maybe and Not going."""
    rows = list(
        Rsvp.objects.filter(event=event).select_related("player").order_by("answered_at", "pk")
    )
    return _summary_of(event, rows)


def _summary_of(event: Event, rows: list[Rsvp]) -> RsvpSummary:
    """``rsvp_summary`` of the event's answers ``rows``, in the order they were given."""
    return RsvpSummary(
        capacity=event.capacity,
        waiting_list_size=event.waiting_list_size,
        going=[r for r in rows if r.answer == RsvpAnswer.GOING and not r.waiting],
        waiting=[r for r in rows if r.answer == RsvpAnswer.GOING and r.waiting],
        maybe=[r for r in rows if r.answer == RsvpAnswer.MAYBE],
        not_going=[r for r in rows if r.answer == RsvpAnswer.NO],
    )


def rsvp_going_seats(event: Event, *, waiting: bool = False, excluding: Rsvp | None = None) -> int:
    """People going to the event and holding seats (or with ``waiting``, on its waiting
    list), guests included; ``excluding`` one answer (the one being changed)."""
    rows = Rsvp.objects.filter(event=event, answer=RsvpAnswer.GOING, waiting=waiting)
    if excluding is not None and excluding.pk:
        rows = rows.exclude(pk=excluding.pk)
    totals = rows.aggregate(players=Count("pk"), guests=Sum("guests"))
    return totals["players"] + (totals["guests"] or 0)


def rsvp_below_minimum(event: Event, now: datetime | None = None) -> bool:
    """Whether fewer people are going (guests included: they sit at the table too) than
    the host's minimum, now that the start is ``rsvp_minimum_hours`` away or less. False
    with no minimum, before that window, and once the event has started or finished."""
    now = now or timezone.now()
    if event.rsvp_minimum is None or event.finished_at is not None:
        return False
    window_opens = event.starts_at - timedelta(hours=event.rsvp_minimum_hours)
    if not window_opens <= now < event.starts_at:
        return False
    return rsvp_going_seats(event) < event.rsvp_minimum


def rsvp_late_drops(event: Event) -> list[Rsvp]:
    """Who dropped late (a Going turned Maybe or Not going inside the late-drop window)
    and has not come back to Going, latest first."""
    return _late_drops_of(list(Rsvp.objects.filter(event=event).select_related("player")))


def _late_drops_of(rows: list[Rsvp]) -> list[Rsvp]:
    """``rsvp_late_drops`` of an event's answers ``rows``: latest first, then by answer."""
    late = [r for r in rows if r.dropped_late_at is not None and r.answer != RsvpAnswer.GOING]
    return sorted(late, key=lambda r: (r.dropped_late_at, -r.pk), reverse=True)


@dataclass(frozen=True)
class LateDrop:
    """A late drop as the director's page shows it (the name never an e-mail address)."""

    name: str
    at: datetime


@dataclass(frozen=True)
class RsvpOverview:
    """One upcoming event on the director's page: who is coming and what needs a look."""

    event: Event
    summary: RsvpSummary
    below_minimum: bool
    late_drops: list[LateDrop]


def rsvp_overviews(now: datetime | None = None, limit: int = 5) -> list[RsvpOverview]:
    """The next ``limit`` events not finished, with their answers, for the director: the
    answers of all of them in one query."""
    now = now or timezone.now()
    events = list(events_upcoming(now).filter(finished_at__isnull=True)[:limit])
    rows: dict[int, list[Rsvp]] = {event.pk: [] for event in events}
    for rsvp in (
        Rsvp.objects.filter(event__in=events).select_related("player").order_by("answered_at", "pk")
    ):
        rows[rsvp.event_id].append(rsvp)
    overviews = []
    for event in events:
        late = [
            LateDrop(name_shown(r.player.name), r.dropped_late_at)
            for r in _late_drops_of(rows[event.pk])
            if r.dropped_late_at is not None
        ]
        overviews.append(
            RsvpOverview(
                event=event,
                summary=_summary_of(event, rows[event.pk]),
                below_minimum=rsvp_below_minimum(event, now),
                late_drops=late,
            )
        )
    return overviews
