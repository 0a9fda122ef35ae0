from typing import Any

from django.http import HttpRequest
from django.utils.crypto import salted_hmac

from core.permissions import is_director


def roles(request: HttpRequest) -> dict[str, Any]:
    return {"is_director": is_director(request.user), "viewer": _viewer(request)}


def _viewer(request: HttpRequest) -> str:
    """Who the page was made for, as a short opaque mark (the account, or for a visitor the
    session, which a guest's PIN renews): when it changes, the service worker forgets the
    pages it kept for the one before (static/js/pwa.js), on a shared phone or tablet too."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        who = f"user:{user.pk}"
    else:
        session = getattr(request, "session", None)
        key = session.session_key if session is not None else None
        who = f"visitor:{key or ''}"
    return salted_hmac("series.context_processors.viewer", who).hexdigest()[:16]
