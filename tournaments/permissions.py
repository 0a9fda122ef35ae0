"""Who may do what in the tournaments: directors run them, players register themselves.

Pages use ``core.permissions.director_required``; a director's POST-only action uses
``director_action`` (the same check, not marked for the director-page walk in
tests/series, which opens every marked page with GET, as ``tables.views.table_bots`` does).
Services check again with ``require_director``, so a director's workflow cannot be reached
by anyone else from any other caller (a consumer, a task, a shell).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.permissions import director_required, is_director

__all__ = ["director_action", "director_required", "is_director", "require_director"]

View = Callable[..., HttpResponse]


def require_director(user: Any) -> None:
    """Raise ``PermissionDenied`` (403 in a view) unless ``user`` is a director."""
    if user is None or not is_director(user):
        raise PermissionDenied(_("Only directors may do this."))


def director_action(view: View) -> View:
    """A director's action: POST only; anonymous visitors go to log in, players get 403."""

    @require_POST
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        require_director(request.user)
        return view(request, *args, **kwargs)

    return wrapper
