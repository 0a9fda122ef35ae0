"""The series listens to the tournaments' signals (``tournaments.signals``, the only module
of the tournaments it imports): a finished tournament's results become the event's results,
a reopened one's leave, and the season's standings are recomputed after commit. It also
listens to Django's login, to read the site in the language the player chose."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from series.services.languages import session_language_remember
from series.services.standings import event_results_remove, event_results_store
from tournaments.signals import tournament_finished, tournament_reopened


@receiver(tournament_finished, dispatch_uid="series.results_store")
def results_store(
    sender: Any, tournament_id: int, event_id: int, results: list[dict[str, Any]], **kwargs: Any
) -> None:
    event_results_store(tournament_id, event_id, results)


@receiver(tournament_reopened, dispatch_uid="series.results_remove")
def results_remove(sender: Any, tournament_id: int, event_id: int, **kwargs: Any) -> None:
    event_results_remove(tournament_id, event_id)


@receiver(user_logged_in, dispatch_uid="series.language_remember")
def language_remember(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if request is not None and hasattr(request, "session"):
        session_language_remember(request.session, user)
