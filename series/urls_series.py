"""The series' pages under /series/ (namespace "series")."""

from django.urls import path

from series import views_players, views_results

app_name = "series"

urlpatterns = [
    # Players, guests, corrections and the settle-up (issue 12 items 5-7).
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
]
