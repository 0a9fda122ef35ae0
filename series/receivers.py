"""The series listens to the tournaments' signals (``tournaments.signals``, the only module
of the tournaments it imports): a finished tournament's results become the event's results,
a reopened one's leave, and the season's standings are recomputed after commit."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

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
