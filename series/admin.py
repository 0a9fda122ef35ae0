from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from core.request_values import AdminValues
from series.models import Event, Season
from series.services.standings import standings_schedule


class EventInline(admin.TabularInline):
    model = Event
    extra = 0
    fields = ["name", "starts_at", "venue", "game", "structure", "buy_in", "fee"]


@admin.register(Season)
class SeasonAdmin(AdminValues, admin.ModelAdmin):
    list_display = ["name", "starts_on", "ends_on"]
    inlines = [EventInline]

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        # Scoring settings or the events may have changed: re-score after the commit.
        super().save_related(request, form, formsets, change)
        standings_schedule(form.instance.pk)


@admin.register(Event)
class EventAdmin(AdminValues, admin.ModelAdmin):
    list_display = ["name", "season", "starts_at", "venue", "game", "structure", "price"]
    list_filter = ["season", "game", "structure"]
    search_fields = ["name", "venue"]
    date_hierarchy = "starts_at"

    @admin.display(description=_("price"))
    def price(self, event: Event) -> str:
        return event.price

    def save_model(self, request: HttpRequest, obj: Event, form: Any, change: bool) -> None:
        # Whether an event counts, or its buy-in, changes the points: re-score after commit.
        super().save_model(request, obj, form, change)
        standings_schedule(obj.season_id)
