"""WebSocket routes of the live tables; ``series.asgi`` collects them."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
