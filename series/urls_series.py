"""The series' pages under /series/: the calendar and events, standings, players,
corrections and the settle-up. Each group keeps its own lines."""

from django.urls import path

from series import (
    views_calendar,
    views_events,
    views_import,
    views_mailings,
    views_money,
    views_players,
    views_results,
    views_rsvp,
    views_standings,
)

app_name = "series"

urlpatterns = [
    # -- the calendar, event pages and their exports
    path("", views_calendar.season_list, name="seasons"),
    path("seasons/<int:season_id>/", views_calendar.season_calendar, name="season"),
    path(
        "seasons/<int:season_id>/calendar.ics",
        views_calendar.season_ical,
        name="season_ical",
    ),
    path("me/calendar.ics", views_calendar.my_ical, name="my_ical"),
    path("me/calendar/link/", views_calendar.my_calendar_link, name="my_calendar_link"),
    path("events/<int:event_id>/", views_calendar.event_detail, name="event"),
    path(
        "events/<int:event_id>/results.csv",
        views_calendar.event_results_csv,
        name="event_results_csv",
    ),
    path("events/<int:event_id>/hands.phhs", views_calendar.event_hands, name="event_hands"),
    # -- the director's seasons and nights
    path("seasons/new/", views_events.season_new, name="season_new"),
    path("seasons/<int:season_id>/edit/", views_events.season_edit, name="season_edit"),
    path("seasons/<int:season_id>/close/", views_events.season_close_now, name="season_close"),
    path("seasons/<int:season_id>/reopen/", views_events.season_reopen_now, name="season_reopen"),
    path("seasons/<int:season_id>/events/new/", views_events.event_new, name="event_new"),
    path(
        "seasons/<int:season_id>/events/recurring/",
        views_events.events_recurring,
        name="events_recurring",
    ),
    path("events/<int:event_id>/edit/", views_events.event_edit, name="event_edit"),
    path("events/<int:event_id>/delete/", views_events.event_delete, name="event_delete"),
    path("events/<int:event_id>/publish/", views_events.event_publish_now, name="event_publish"),
    path("events/<int:event_id>/cancel/", views_events.event_cancel_now, name="event_cancel"),
    path("events/<int:event_id>/uncancel/", views_events.event_uncancel, name="event_uncancel"),
    path(
        "events/<int:event_id>/moved-back/<int:action_id>/",
        views_events.event_moved_back,
        name="event_moved_back",
    ),
    # -- who is coming: a player's answer for an event
    path("events/<int:event_id>/rsvp/", views_rsvp.rsvp, name="rsvp"),
    # -- players, guests, corrections and the settle-up
    path("players/me/", views_players.player_me, name="player_me"),
    path("players/guests/", views_players.guests, name="guests"),
    path("players/<int:player_id>/", views_players.player_detail, name="player"),
    path(
        "events/<int:event_id>/corrections/",
        views_results.event_corrections,
        name="event_corrections",
    ),
    path("events/<int:event_id>/history/", views_results.event_history, name="event_history"),
    path("events/<int:event_id>/settle-up/", views_results.settle_up, name="settle_up"),
    # -- money across nights: ledgers, the season pot, payment handles
    path(
        "seasons/<int:season_id>/players/<int:player_id>/ledger/",
        views_money.player_ledger,
        name="player_ledger",
    ),
    path("seasons/<int:season_id>/pot/", views_money.season_pot, name="season_pot"),
    path("players/me/payment-handle/", views_money.payment_handle, name="payment_handle"),
    # -- e-mail notices: a player's choices, the unsubscribe link, the director's decision
    path("players/me/mail/", views_mailings.notice_settings, name="notice_settings"),
    path(
        "mail/unsubscribe/<str:topic>/<str:token>/",
        views_mailings.unsubscribe,
        name="unsubscribe",
    ),
    path(
        "mail/notices/<int:notice_id>/decide/",
        views_mailings.notice_decide,
        name="notice_decide",
    ),
    # -- standings: the leaderboard, its CSV, the scoring settings
    path(
        "seasons/<int:season_id>/standings/",
        views_standings.season_standings,
        name="standings",
    ),
    path(
        "seasons/<int:season_id>/standings/embed/",
        views_standings.season_standings_embed,
        name="standings_embed",
    ),
    path(
        "seasons/<int:season_id>/standings.csv",
        views_standings.season_standings_csv,
        name="standings_csv",
    ),
    path(
        "seasons/<int:season_id>/scoring/",
        views_standings.season_scoring,
        name="scoring",
    ),
    # -- a series' past imported from CSV, and a season's results as one CSV
    path("import/", views_import.results_import, name="import_results"),
    path("import/confirm/", views_import.results_import_confirm, name="import_results_confirm"),
    path(
        "seasons/<int:season_id>/results.csv",
        views_import.season_results_csv,
        name="season_results_csv",
    ),
]
