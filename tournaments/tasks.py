"""The blind clock's tasks: the next level change, and the sweep that catches lost ones.

After every clock change (``services.clock.store``) a task is scheduled after commit for the
end of the row in play, with a countdown of at most ``COUNTDOWN_CAP_SECONDS``: Redis redelivers a
task whose ETA is further away than its visibility timeout, and a worker holds ETA tasks in
memory, so a long countdown is both duplicated and lost on a restart. A task that wakes up
before the end re-schedules itself. Each task carries the clock version it was scheduled
for and stops when a newer change has scheduled its own, so tasks do not pile up when a
director adjusts the clock many times in one level.

Nothing here is the truth: each level change is a conditional UPDATE, so a duplicate, late
or lost task changes nothing. A task runs ``clock_sweep``, which advances every clock whose
row has ended, from the stored end times alone: the first task to wake when many clocks end
together stores them all in one pass, and the same sweep on beat every two seconds catches
whatever a lost task missed.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from core.tasks import RETRIED_ON_DATABASE_ERRORS
from tournaments.models import DealState, Tournament, TournamentState
from tournaments.services import deals, online
from tournaments.services.clock import sweep
from tournaments.signals import clock_stored, deal_held

logger = logging.getLogger(__name__)

COUNTDOWN_CAP_SECONDS = 30.0


def _scheduling() -> bool:
    # Tests move the clock themselves by calling the services with an explicit ``now``.
    return bool(getattr(settings, "TOURNAMENTS_SCHEDULE_TASKS", True))


def schedule_clock(tournament_id: int, index: int, ends_at: datetime | None, version: int) -> None:
    """After commit, schedule the change that ends row ``index`` at ``ends_at`` (the clock
    as just stored, at ``version``); nothing for a paused or stopped clock (``ends_at``
    None), whose next change is a director's, which schedules its own."""
    if ends_at is not None and _scheduling():
        transaction.on_commit(
            lambda: _enqueue(
                tournament_id, index, version, (ends_at - timezone.now()).total_seconds()
            )
        )


def _enqueue(tournament_id: int, index: int, version: int, seconds: float) -> None:
    countdown = min(max(seconds, 0.0), COUNTDOWN_CAP_SECONDS)
    try:
        clock_tick_task.apply_async((tournament_id, index, version), countdown=countdown)
    except Exception:
        # The broker is away: the sweep advances the clock from the stored end time.
        logger.exception("scheduling the clock of tournament %s failed", tournament_id)


@receiver(clock_stored)
def _clock_stored(
    sender: Any, tournament_id: int, index: int, ends_at: datetime | None, version: int, **_: Any
) -> None:
    schedule_clock(tournament_id, index, ends_at, version)


@shared_task(ignore_result=True, **RETRIED_ON_DATABASE_ERRORS)
def clock_tick_task(tournament_id: int, expected_index: int, version: int) -> None:
    """Advance the clocks whose row has ended (this one and any other due with it);
    if this one's end is still ahead, wait again (capped countdown)."""
    sweep.clock_sweep(timezone.now())
    seen = (
        Tournament.objects.filter(pk=tournament_id)
        .values_list("level_index", "level_ends_at", "paused_remaining", "clock_version", "state")
        .first()
    )
    if seen is None:
        return
    index, ends_at, paused, current_version, state = seen
    if (
        current_version != version
        or index != expected_index
        or paused is not None
        or ends_at is None
        or state not in (TournamentState.RUNNING, TournamentState.ON_BREAK)
    ):
        return  # changed since it was scheduled; each change schedules its own task
    seconds = (ends_at - timezone.now()).total_seconds()
    if seconds <= 0:
        return  # ended, yet not advanced: a blind structure with no level stays on its last row
    if _scheduling():
        _enqueue(tournament_id, index, version, seconds)


@shared_task(ignore_result=True)
def clock_sweep_task() -> None:
    """Advance every clock whose row has ended: what lost or late tasks missed."""
    changed = sweep.clock_sweep()
    if changed:
        logger.info("clock sweep advanced %s clock(s)", changed)


# -- deals waiting for the hands in play -------------------------------------------------

# A held deal gives up looking after this many tries (about ten minutes); the director
# sees it still waiting on the console and may withdraw it and offer again.
DEAL_RELEASE_TRIES = 300


@receiver(deal_held)
def _deal_held(sender: Any, offer_id: int, **_: Any) -> None:
    if _scheduling():
        _enqueue_release(offer_id, 1)


def _enqueue_release(offer_id: int, attempt: int) -> None:
    try:
        deal_release_task.apply_async((offer_id, attempt), countdown=deals.RELEASE_SECONDS)
    except Exception:
        logger.exception("scheduling the release of deal %s failed", offer_id)


@shared_task(ignore_result=True, **RETRIED_ON_DATABASE_ERRORS)
def deal_release_task(offer_id: int, attempt: int = 1) -> None:
    """Open a held deal once the hands in play have ended; look again shortly if not."""
    offer = deals.deal_release(offer_id)
    if offer.state == DealState.HELD and attempt < DEAL_RELEASE_TRIES and _scheduling():
        _enqueue_release(offer_id, attempt + 1)


@shared_task(ignore_result=True)
def online_sweep_task() -> None:
    """Online tournaments: deal with hands whose end was not dealt with (a lost signal),
    release tables a lost release left waiting, put out the busted players whose time to
    rebuy ran out, and let deal offers whose answering time has
    run out lapse (so a deal nobody answers never holds the tables for good)."""
    handled = online.online_sweep()
    if handled:
        logger.info("online sweep dealt with %s hand(s)", handled)
    out = online.online_rebuy_offers_lapse()
    if out:
        logger.info("online sweep: %s busted player(s) did not rebuy in time", out)
    lapsed = deals.deals_lapse_due()
    if lapsed:
        logger.info("online sweep: %s deal offer(s) lapsed unanswered", lapsed)
