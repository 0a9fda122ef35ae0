"""WebSocket routes of the tournaments; ``config.asgi`` collects them."""

from django.urls import path

from tournaments.consumers import ClockConsumer, NightConsumer

websocket_urlpatterns = [
    path("ws/tournaments/<slug:token>/clock/", ClockConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/night/", NightConsumer.as_asgi()),
]
