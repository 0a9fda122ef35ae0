"""Who may do what. Directors run the series; everyone else plays or watches."""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

DIRECTORS_GROUP = "Directors"

View = Callable[..., HttpResponse]


# Where ``is_director`` keeps its answer on the user it was asked about: a page asks several
# times (the view's check, the menu, the page's own links), the group is read once per user
# object, which lives for one request (a socket's, for its connection: a director named
# meanwhile hosts from the next one). ``director_grant`` updates it.
DIRECTOR_KNOWN = "director_known"


def is_director(user: Any) -> bool:
    if not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    known = getattr(user, DIRECTOR_KNOWN, None)
    if known is None:
        known = bool(user.groups.filter(name=DIRECTORS_GROUP).exists())
        setattr(user, DIRECTOR_KNOWN, known)
    return bool(known)


def director_required(view: View) -> View:
    """Let only directors in: anonymous users go to log in, players get 403.

    The wrapper is marked ``director_only`` so the tests can find every such page by
    walking the URL patterns.
    """

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_director(request.user):
            raise PermissionDenied(_("Only directors may open this page."))
        return view(request, *args, **kwargs)

    wrapper.director_only = True  # type: ignore[attr-defined]
    return wrapper
