"""ASGI entry point: HTTP to Django, websockets to the table consumer."""

from __future__ import annotations

import gc
import os

from django.conf import settings
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.socket.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(URLRouter(websocket_urlpatterns)),
    }
)


def tune_garbage_collector() -> bool:
    """Tune the collector for a long-lived server process when ``settings.GC_TUNING`` is on; True if it did.

    What start-up loaded (Django, templates, engines) lives as long as the process, so
    ``gc.freeze()`` moves it out of the collector's sight, and the youngest generation is
    collected every 20 000 allocations instead of 700 (a push allocates thousands of
    short-lived objects and frees nearly all of them by reference counting). Off, the
    collector keeps Python's defaults.
    """
    if not settings.GC_TUNING:
        return False
    gc.freeze()
    gc.set_threshold(20000, 50, 100)
    return True


tune_garbage_collector()
