"""The admin: tables, seats, hands (read-only records) and the chip ledger."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from core.request_values import AdminValues
from tables.i18n import hand_summary_words
from tables.models import ChatMessage, Hand, Seat, Table, TableLedger


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "user", "bot_style", "stack", "state", "sat_out_reason")
    readonly_fields = fields
    can_delete = False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "structure", "big_blind", "seat_count", "hand_count")
    readonly_fields = ("version", "hand_count", "button", "last_big_blind", "next_hand_at")
    inlines = [SeatInline]


@admin.register(Hand)
class HandAdmin(AdminValues, admin.ModelAdmin):
    list_display = ("table", "number", "started_at", "ended_at", "what_happened")
    list_filter = ("table",)
    exclude = ("deck", "secret")
    readonly_fields = ("records", "commitment", "button", "to_act", "deadline")

    @admin.display(description=_("What happened"))
    def what_happened(self, hand: Hand) -> str:
        # The stored awards worded in the director's language (the summary is English).
        return hand_summary_words(hand) if hand.is_complete else ""


@admin.register(TableLedger)
class TableLedgerAdmin(admin.ModelAdmin):
    list_display = ("table", "user", "seat", "kind", "amount", "created_at")
    list_filter = ("table", "kind")


admin.site.register(ChatMessage)
