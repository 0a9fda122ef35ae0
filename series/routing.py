"""WebSocket routes of the series app."""

from django.urls import path

from series.consumers import HealthConsumer

websocket_urlpatterns = [
    path("ws/health/", HealthConsumer.as_asgi()),
]
