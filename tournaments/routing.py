"""WebSocket routes of the tournaments; ``config.asgi`` collects them."""

from django.urls import path

from tournaments.consumers import ClockConsumer

websocket_urlpatterns = [
    path("ws/tournaments/<slug:token>/clock/", ClockConsumer.as_asgi()),
]
