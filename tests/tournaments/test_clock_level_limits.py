"""Adding or removing a level keeps the rebuy, re-entry and late-registration limits on the
blind level they were set on (the add-on's break already moves with its row), and the log
line says what moved."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.tournaments.clock_helpers import at, reload
from tournaments.models import Tournament, TournamentAction
from tournaments.services.clock.levels import clock_level_add, clock_row_remove
from tournaments.services.undo import action_undo_last

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock_tasks_off")]


@pytest.fixture
def limits(running_clock: Tournament) -> Tournament:
    Tournament.objects.filter(pk=running_clock.pk).update(
        rebuys_allowed=1,
        rebuy_until_level=2,
        reentries_allowed=1,
        reentry_until_level=3,
        late_registration_until_level=3,
    )
    return reload(running_clock)


def until(tournament: Tournament) -> tuple[int | None, int | None, int | None]:
    t = reload(tournament)
    return t.rebuy_until_level, t.reentry_until_level, t.late_registration_until_level


def last_summary(tournament: Tournament) -> str:
    return TournamentAction.objects.filter(tournament=tournament).latest("pk").summary_text


def test_a_level_added_before_the_limits_moves_them_with_their_blinds(
    limits: Tournament, director: User
) -> None:
    clock_level_add(limits.pk, by=director, small_blind=25, big_blind=50, minutes=15, now=at(5))
    # The old level 2 (rebuys end with it) is level 3 now; level 3 is level 4.
    assert until(limits) == (3, 4, 4)
    summary = last_summary(limits)
    assert "rebuys now end with level 3" in summary
    assert "re-entries" in summary and "late registration" in summary
    action_undo_last(limits.pk, by=director)
    assert until(limits) == (2, 3, 3)


def test_a_level_removed_before_the_limits_moves_them_back(
    limits: Tournament, director: User
) -> None:
    # Row 1 is level 2 (rebuys end with it); removing it ends rebuys with level 1.
    clock_row_remove(limits.pk, 1, by=director, now=at(5))
    assert until(limits) == (1, 2, 2)
    assert "rebuys now end with level 1" in last_summary(limits)
