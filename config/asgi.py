"""The ASGI application: HTTP through Django, WebSockets through Channels.

Every WebSocket passes the origin check (the Origin header must be one of ALLOWED_HOSTS)
and then the session authentication (``tables.consumers.SessionUserMiddleware``), before it
reaches a consumer.
"""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Django must be set up before the routing modules import consumers and models.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402

from series import routing as series_routing  # noqa: E402
from tables import routing as tables_routing  # noqa: E402
from tables.consumers import SessionUserMiddleware  # noqa: E402
from tables.engine.evaluator import prepare_tables  # noqa: E402
from tournaments import routing as tournaments_routing  # noqa: E402

websocket_urlpatterns = [
    *series_routing.websocket_urlpatterns,
    *tables_routing.websocket_urlpatterns,
    *tournaments_routing.websocket_urlpatterns,
]

# Build the evaluator's board entries now (about 0.3 s) so no showdown in play pays for
# a first use; a server lives for many thousands of hands.
prepare_tables()

# A long-lived server (daphne, or manage.py serve): what is loaded at start-up stays, so keep
# the cyclic garbage collector off it (gc.freeze), and collect the young generations less
# often. Full collections over every socket's objects were pauses of tens of milliseconds on
# every table at once.
gc.collect()
gc.freeze()
gc.set_threshold(50_000, 20, 100)

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            SessionMiddlewareStack(SessionUserMiddleware(URLRouter(websocket_urlpatterns)))
        ),
    }
)
