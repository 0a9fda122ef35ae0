"""The admin: blind structures with their levels, tournaments with their entries, tables, and the
director's action log (read-only: it is what happened, and undo goes through the console).

The console and the settings page are where a night is run; the admin is for fixing a row
by hand, so it shows every field but does not replace the services' checks.
"""

from django.contrib import admin
from django.http import HttpRequest

from core.request_values import ADMIN_FORMFIELD_OVERRIDES, AdminValues
from tournaments.models import (
    BlindLevel,
    BlindStructure,
    Entry,
    Tournament,
    TournamentAction,
    TournamentTable,
)


class BlindLevelInline(admin.TabularInline):
    model = BlindLevel
    extra = 0
    formfield_overrides = ADMIN_FORMFIELD_OVERRIDES
    ordering = ("position",)
    fields = (
        "position",
        "kind",
        "minutes",
        "small_blind",
        "big_blind",
        "ante",
        "ante_kind",
        "small_bet",
        "big_bet",
        "colour_up",
    )


@admin.register(BlindStructure)
class BlindStructureAdmin(AdminValues, admin.ModelAdmin):
    list_display = ("name", "for_limit", "is_template", "created_by", "created_at")
    list_filter = ("is_template", "for_limit")
    search_fields = ("name",)
    inlines = [BlindLevelInline]


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = (
        "player",
        "number",
        "state",
        "table_number",
        "seat_number",
        "rebuys",
        "addon",
        "place",
        "prize",
        "bounties",
    )
    raw_id_fields = ("player",)
    ordering = ("registered_at", "pk")


class TournamentTableInline(admin.TabularInline):
    model = TournamentTable
    extra = 0
    fields = ("number", "button", "broken_at", "live_table")
    raw_id_fields = ("live_table",)


@admin.register(Tournament)
class TournamentAdmin(AdminValues, admin.ModelAdmin):
    list_display = ("__str__", "state", "blind_structure", "capacity", "online", "started_at")
    list_filter = ("state", "online")
    search_fields = ("event__name",)
    raw_id_fields = ("event",)
    readonly_fields = ("tv_token", "clock_version", "created_by", "created_at")
    inlines = [EntryInline, TournamentTableInline]


@admin.register(Entry)
class EntryAdmin(AdminValues, admin.ModelAdmin):
    list_display = ("__str__", "tournament", "state", "rebuys", "addon", "place", "prize")
    list_filter = ("state", "tournament")
    search_fields = ("player__name",)
    raw_id_fields = ("player", "eliminated_by")


@admin.register(TournamentAction)
class TournamentActionAdmin(admin.ModelAdmin):
    list_display = ("at", "tournament", "kind", "summary", "by", "undone_at")
    list_filter = ("kind", "tournament")
    readonly_fields = (
        "tournament",
        "kind",
        "summary",
        "by",
        "at",
        "undo",
        "undone_at",
        "undone_by",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
