"""Reads that several views share."""

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.utils import timezone

from series.models import Event, Player, Result, ResultChange, Season, Transfer


def events_upcoming(now: datetime | None = None) -> QuerySet[Event]:
    now = now or timezone.now()
    return Event.objects.filter(starts_at__gte=now).select_related("season").order_by("starts_at")


def event_next(now: datetime | None = None) -> Event | None:
    return events_upcoming(now).first()


def seasons_with_events() -> QuerySet[Season]:
    return Season.objects.prefetch_related("events")


# Players, corrections and the settle-up (issue 12 items 5-7) ----------------------------


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

    @property
    def net(self) -> int:
        return self.prize + self.bounties - self.paid_in

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
        .annotate(field=Subquery(field))
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
            )
            for r in rows
        ],
    )


def guests_with_results() -> QuerySet[Player]:
    """The guests (players without an account), with how many results each has."""
    return Player.objects.filter(user__isnull=True).annotate(
        result_count=Count("results")
    ).order_by("name", "pk")


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
