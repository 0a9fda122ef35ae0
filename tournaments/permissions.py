"""Who may do what in the tournaments: directors run them, players register themselves.

Views use ``series.permissions.director_required``; services check again with
``require_director`` so a director-only workflow cannot be reached from any other caller
(a consumer, a task, a shell) by someone else.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from series.permissions import director_required, is_director

__all__ = ["director_required", "is_director", "require_director"]


def require_director(user: Any) -> None:
    """Raise ``PermissionDenied`` (403 in a view) unless ``user`` is a director."""
    if user is None or not is_director(user):
        raise PermissionDenied(_("Only directors may do this."))
