from __future__ import annotations

from django.urls import path

from games.socket.consumers import TableConsumer

websocket_urlpatterns = [path("ws/tables/<str:code>/", TableConsumer.as_asgi())]
