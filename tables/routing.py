"""WebSocket routes of the live tables; ``config.asgi`` collects them."""

from django.urls import path

from tables.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
]
