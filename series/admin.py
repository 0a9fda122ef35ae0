from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from core.request_values import AdminValues
from series.models import Event, Rsvp, Season
from series.services.rsvp import rsvp_seats_refresh
from series.services.standings import standings_schedule


class EventInline(admin.TabularInline):
    model = Event
    extra = 0
    fields = ["name", "starts_at", "venue", "game", "structure", "buy_in", "fee"]


@admin.register(Season)
class SeasonAdmin(AdminValues, admin.ModelAdmin):
    list_display = ["name", "starts_on", "ends_on"]
    # The defaults of a new night's parts are set on the season's own page, in a form.
    exclude = ["night_part_defaults"]
    inlines = [EventInline]

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        # Scoring settings or the events may have changed: re-score after the commit.
        super().save_related(request, form, formsets, change)
        standings_schedule(form.instance.pk)


class RsvpInline(admin.TabularInline):
    """Who answered, in the order seats are given. Read-only: players answer on the event
    page (the seats and the waiting list are kept right there); the host may delete an
    answer, and the waiting list then moves up."""

    model = Rsvp
    extra = 0
    fields = [
        "player",
        "answer",
        "guests",
        "guest_names",
        "waiting",
        "answered_at",
        "promoted_at",
        "dropped_late_at",
    ]
    readonly_fields = fields
    ordering = ["answered_at", "pk"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Event)
class EventAdmin(AdminValues, admin.ModelAdmin):
    list_display = ["name", "season", "starts_at", "venue", "game", "structure", "price"]
    list_filter = ["season", "game", "structure"]
    search_fields = ["name", "venue"]
    date_hierarchy = "starts_at"
    inlines = [RsvpInline]

    @admin.display(description=_("price"))
    def price(self, event: Event) -> str:
        return event.price

    def save_model(self, request: HttpRequest, obj: Event, form: Any, change: bool) -> None:
        # Whether an event counts, or its buy-in, changes the points: re-score after commit.
        super().save_model(request, obj, form, change)
        standings_schedule(obj.season_id)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        # More seats, or an answer deleted: whoever now fits moves up from the waiting list.
        super().save_related(request, form, formsets, change)
        rsvp_seats_refresh(form.instance.pk)
