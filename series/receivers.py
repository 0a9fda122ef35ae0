"""The series listens to Django's login, to read the site in the language the player chose.

(A finished tournament's results come the other way: the tournaments call
``series.services.standings.event_results_store`` after commit; the series imports nothing
of the tournaments.)"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from series.services.languages import session_language_remember


@receiver(user_logged_in, dispatch_uid="series.language_remember")
def language_remember(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if request is not None and hasattr(request, "session"):
        session_language_remember(request.session, user)
