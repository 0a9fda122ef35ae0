"""The series' pages under /series/: the calendar and events (s2), standings (s1),
players, corrections and the settle-up (s3). Each group keeps its own lines."""

from django.urls import path

from series import views_calendar, views_players, views_results, views_standings

app_name = "series"

urlpatterns = [
    # -- the calendar, event pages and their exports (s2)
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
    # -- players, guests, corrections and the settle-up (s3)
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
    # -- standings: the leaderboard, its CSV, the scoring settings (s1)
    path(
        "seasons/<int:season_id>/standings/",
        views_standings.season_standings,
        name="standings",
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
]
