"""Reads that several views share."""

from datetime import datetime

from django.db.models import QuerySet
from django.utils import timezone

from series.models import Event, Season


def events_upcoming(now: datetime | None = None) -> QuerySet[Event]:
    now = now or timezone.now()
    return Event.objects.filter(starts_at__gte=now).select_related("season").order_by("starts_at")


def event_next(now: datetime | None = None) -> Event | None:
    return events_upcoming(now).first()


def seasons_with_events() -> QuerySet[Season]:
    return Season.objects.prefetch_related("events")
