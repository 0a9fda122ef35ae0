from django.contrib import admin

from series.models import Event, Season


class EventInline(admin.TabularInline):
    model = Event
    extra = 0
    fields = ["name", "starts_at", "venue", "game", "structure", "buy_in", "fee"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "starts_on", "ends_on"]
    inlines = [EventInline]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "season", "starts_at", "venue", "game", "structure", "price"]
    list_filter = ["season", "game", "structure"]
    search_fields = ["name", "venue"]
    date_hierarchy = "starts_at"
