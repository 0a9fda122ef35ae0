""" "Break now" keeping the rest of the level for after the break: called with 7:23 left in
level 2, the break runs, then level 2 resumes with 7:23 left, then the structure goes on as
it was. Skipping the rest (the level ends with the break, ``keep_rest=False``) is
tests/tournaments/test_clock_break_now.py."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.clock_helpers import (
    KINDS_BREAK_AFTER_LEVEL_1,
    ROW_LEVEL_1,
    ROW_LEVEL_2,
    at,
    break_from_console,
    kinds_of_blind_structure,
    last_summary,
    refused,
    reload,
    shown,
)
from tournaments import selectors
from tournaments.errors import TournamentError
from tournaments.models import BlindStructure, Tournament, TournamentAction, TournamentState
from tournaments.services.clock.controls import (
    clock_next,
    clock_pause,
    clock_previous,
    clock_resume,
)
from tournaments.services.clock.levels import (
    clock_break_now,
    clock_levels_minutes,
    clock_row_remove,
)
from tournaments.services.clock.payload import clock_ahead, clock_payload
from tournaments.services.clock.reads import clock_read
from tournaments.services.clock.sweep import clock_advance_due, clock_sweep
from tournaments.services.undo import action_undo_last

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock_tasks_off")]

# Level 2 runs from 19:01 to 19:21 (``in_level_2``); a break now at 19:13:37 leaves 7:23.
CALLED = at(13, 37)
REST = timedelta(minutes=7, seconds=23)
# The rows once the break is in: level 1, the break, level 2 (resumed), the structure's
# break after level 2, levels 3 to 5.
ROW_NEW_BREAK, ROW_RESUMED = 1, 2


def ms(moment) -> int:  # type: ignore[no-untyped-def]
    return round(moment.timestamp() * 1000)


def test_the_level_resumes_after_the_break_with_exactly_the_time_it_had_left(
    in_level_2: Tournament, director: User
) -> None:
    clock_break_now(in_level_2.pk, by=director, keep_rest=True, now=CALLED)
    tournament = reload(in_level_2)
    assert tournament.state == TournamentState.ON_BREAK
    assert (tournament.level_index, tournament.level_ends_at) == (ROW_NEW_BREAK, at(23, 37))
    # The break is inserted before level 2, which keeps its number: nothing is renumbered.
    assert kinds_of_blind_structure(tournament.blind_structure_id) == KINDS_BREAK_AFTER_LEVEL_1
    state = shown(in_level_2, at(14))
    assert state.on_break and state.ends_at == at(23, 37)
    assert state.next is not None and (state.next.number, state.next.big_blind) == (2, 100)
    # The screens' rows coming up: level 2 for its rest, then the structure's break, level 3.
    assert [(c.row.number, c.starts_at) for c in state.coming] == [
        (2, at(23, 37)),
        (None, at(31)),
        (3, at(41)),
    ]
    assert state.next_break is not None and state.next_break_at == at(31)
    # The level-change task stores it on time: level 2 with 7:23 left, then on as before.
    assert clock_advance_due(in_level_2.pk, ROW_NEW_BREAK, at(23, 37))
    tournament = reload(in_level_2)
    assert (tournament.level_index, tournament.level_ends_at) == (ROW_RESUMED, at(31))
    assert tournament.state == TournamentState.RUNNING
    resumed = shown(in_level_2, at(23, 37))
    assert resumed.current is not None and resumed.current.number == 2
    assert resumed.remaining == REST
    assert clock_advance_due(in_level_2.pk, ROW_RESUMED, at(31))
    after = shown(in_level_2, at(32))
    assert after.on_break and after.level_number == 2 and after.ends_at == at(41)
    assert shown(in_level_2, at(42)).current.number == 3  # type: ignore[union-attr]


def test_a_late_sweep_lands_on_the_same_schedule(in_level_2: Tournament, director: User) -> None:
    clock_break_now(in_level_2.pk, by=director, keep_rest=True, now=CALLED)
    # Nothing ran until 19:35: the break and the rest of level 2 are over, the break after
    # level 2 runs until 19:41.
    assert clock_sweep(at(35)) == 1
    tournament = reload(in_level_2)
    assert tournament.level_ends_at == at(41) and tournament.state == TournamentState.ON_BREAK


def test_the_rows_ahead_of_the_tv_know_the_rest(in_level_2: Tournament, director: User) -> None:
    clock_break_now(in_level_2.pk, by=director, keep_rest=True, now=CALLED)
    ahead = clock_ahead(in_level_2.pk, now=at(14))
    assert [(row["number"], row["starts_at_ms"]) for row in ahead[:3]] == [
        (2, ms(at(23, 37))),
        (None, ms(at(31))),
        (3, ms(at(41))),
    ]
    payload = clock_payload(in_level_2.pk, now=at(14))
    assert payload is not None
    # The break is in level 2; the row after it lasts 7:23, not its 20 minutes.
    assert payload["clock"]["level_number"] == 2
    assert payload["clock"]["next"]["length_ms"] == REST.total_seconds() * 1000


def test_the_log_says_the_rest_is_kept(in_level_2: Tournament, director: User) -> None:
    clock_break_now(in_level_2.pk, by=director, keep_rest=True, now=CALLED)
    assert last_summary(in_level_2) == "Break now: 10 min, then the rest of level 2 (7:23)"


def test_skipping_the_rest_still_goes_on_with_the_next_level(
    in_level_2: Tournament, director: User
) -> None:
    # Level 1 in play, nothing kept: the break after level 1, then level 2 (as before).
    clock_previous(in_level_2.pk, by=director, now=at(2))
    clock_break_now(in_level_2.pk, by=director, keep_rest=False, now=at(5))
    tournament = reload(in_level_2)
    assert tournament.level_index == ROW_LEVEL_2 and tournament.level_ends_at == at(15)
    assert tournament.resume_index is None and tournament.resume_remaining is None
    state = shown(in_level_2, at(16))
    assert state.current is not None and state.current.number == 2
    assert state.ends_at == at(35)  # level 2 with its full 20 minutes
    assert last_summary(in_level_2) == "Break now: 10 min, then level 2"


def test_while_paused_the_level_keeps_its_paused_time(
    in_level_2: Tournament, director: User
) -> None:
    clock_pause(in_level_2.pk, by=director, now=at(10))  # 11:00 left in level 2
    clock_break_now(in_level_2.pk, by=director, keep_rest=True, now=at(15))
    tournament = reload(in_level_2)
    # The break runs from now (as a break now always did), the level waits with its 11:00.
    assert tournament.paused_remaining is None and tournament.level_ends_at == at(25)
    assert tournament.state == TournamentState.ON_BREAK
    assert last_summary(in_level_2) == "Break now: 10 min, then the rest of level 2 (11:00)"
    state = shown(in_level_2, at(26))
    assert state.current is not None and state.current.number == 2
    assert state.ends_at == at(36)


def test_a_pause_during_the_break_keeps_the_rest_waiting(
    in_level_2: Tournament, director: User
) -> None:
    clock_break_now(in_level_2.pk, by=director, keep_rest=True, now=CALLED)
    clock_pause(in_level_2.pk, by=director, now=at(15))  # 8:37 left in the break
    paused = shown(in_level_2, at(30))
    assert paused.on_break and paused.paused
    assert paused.coming[0].starts_in == timedelta(minutes=8, seconds=37)
    clock_resume(in_level_2.pk, by=director, now=at(20))
    state = shown(in_level_2, at(28))
    assert state.on_break and state.ends_at == at(28, 37)
    resumed = shown(in_level_2, at(28, 37))
    assert resumed.current is not None and resumed.current.number == 2
    assert resumed.ends_at == at(36)


def test_next_level_on_that_break_resumes_the_level_with_its_rest(
    in_level_2: Tournament, director: User
) -> None:
    clock_break_now(in_level_2.pk, by=director, keep_rest=True, now=CALLED)
    clock_next(in_level_2.pk, by=director, now=at(16))  # the break ended early
    tournament = reload(in_level_2)
    assert tournament.level_index == ROW_RESUMED
    assert tournament.level_ends_at == at(16) + REST


def test_undo_puts_everything_back(
    in_level_2: Tournament, director: User, clock_blind_structure: BlindStructure
) -> None:
    before = reload(in_level_2)
    fields = (before.level_index, before.level_ends_at, before.paused_remaining, before.state)
    clock_break_now(in_level_2.pk, by=director, keep_rest=True, now=CALLED)
    # Another action on the break, undone first: the rest stays kept.
    clock_pause(in_level_2.pk, by=director, now=at(15))
    action_undo_last(in_level_2.pk, by=director)
    assert reload(in_level_2).resume_remaining == REST
    action_undo_last(in_level_2.pk, by=director)
    tournament = reload(in_level_2)
    assert tournament.blind_structure_id == clock_blind_structure.pk
    assert (
        tournament.level_index,
        tournament.level_ends_at,
        tournament.paused_remaining,
        tournament.state,
    ) == fields
    assert tournament.resume_index is None and tournament.resume_remaining is None
    assert BlindStructure.objects.filter(is_template=False).count() == 1
    state = shown(in_level_2, at(14))
    assert state.current is not None and state.current.number == 2
    assert state.ends_at == at(21)


def test_the_rules_counted_in_levels_stay_on_their_level(
    in_level_2: Tournament, director: User
) -> None:
    Tournament.objects.filter(pk=in_level_2.pk).update(
        rebuys_allowed=1,
        rebuy_until_level=1,
        reentries_allowed=1,
        reentry_until_level=2,
        late_registration_until_level=3,
    )
    clock_break_now(in_level_2.pk, by=director, keep_rest=True, now=CALLED)
    tournament = reload(in_level_2)
    assert (
        tournament.rebuy_until_level,
        tournament.reentry_until_level,
        tournament.late_registration_until_level,
    ) == (1, 2, 3)
    assert "now end" not in last_summary(in_level_2)
    # The break is in level 2, not after level 1: rebuys "until level 1", closed when level 2
    # started, stay closed through it.
    assert selectors.current_level_number(tournament, now=at(14)) == 2
    # Rebuys "until level 2" would close when level 3 starts, at 19:41 (after the rest of
    # level 2 and the break after it).
    Tournament.objects.filter(pk=in_level_2.pk).update(rebuy_until_level=2)
    assert selectors.rebuy_period_closes_at(reload(in_level_2), now=at(14)) == at(41)
    Tournament.objects.filter(pk=in_level_2.pk).update(rebuy_until_level=1)
    assert selectors.rebuy_period_closes_at(reload(in_level_2), now=at(14)) == at(14)


def test_the_refusals_stay(in_level_2: Tournament, director: User) -> None:
    clock_break_now(in_level_2.pk, by=director, keep_rest=True, now=CALLED)
    with pytest.raises(TournamentError, match="already on"):
        clock_break_now(in_level_2.pk, by=director, keep_rest=True, now=at(15))
    action_undo_last(in_level_2.pk, by=director)
    Tournament.objects.filter(pk=in_level_2.pk).update(hand_for_hand=True)
    with refused(in_level_2, "hand-for-hand"):
        clock_break_now(in_level_2.pk, by=director, keep_rest=True, now=at(15))


@pytest.mark.parametrize("value", ["yes", "1", None, 0])
def test_a_choice_that_is_not_yes_or_no_is_refused(
    in_level_2: Tournament, director: User, value: object
) -> None:
    with refused(in_level_2, "rest of the level"):
        clock_break_now(in_level_2.pk, by=director, keep_rest=value, now=CALLED)  # type: ignore[arg-type]


def test_a_second_break_in_the_rest_keeps_what_is_left_then(
    in_level_2: Tournament, director: User
) -> None:
    clock_break_now(in_level_2.pk, by=director, keep_rest=True, now=CALLED)
    # Level 2 resumes at 19:23:37 with 7:23; three minutes later another break.
    clock_break_now(in_level_2.pk, by=director, keep_rest=True, now=at(26, 37))
    assert last_summary(in_level_2) == "Break now: 10 min, then the rest of level 2 (4:23)"
    state = shown(in_level_2, at(37, 37))
    assert state.current is not None and state.current.number == 2
    assert state.ends_at == at(41, 0)


# ---------------------------------------------------------------------------- the console


def test_the_console_posts_the_choice(director_client: Client, running_now: Tournament) -> None:
    tournament = break_from_console(director_client, running_now, {"rest": "keep"})
    # Level 1 waits after the break with what it had left.
    assert tournament.level_index == 0 and tournament.state == TournamentState.ON_BREAK
    assert tournament.resume_index == 1 and tournament.resume_remaining is not None
    state = clock_read(tournament)
    assert state.next is not None and state.next.number == 1
    assert "the rest of level 1" in last_summary(running_now)


def test_the_console_may_skip_the_rest(director_client: Client, running_now: Tournament) -> None:
    tournament = break_from_console(director_client, running_now, {"rest": "skip"})
    assert tournament.level_index == ROW_LEVEL_2 and tournament.resume_index is None
    assert clock_read(tournament).next.number == 2  # type: ignore[union-attr]


def test_a_tampered_choice_is_refused_and_changes_nothing(
    director_client: Client, running_now: Tournament
) -> None:
    before = reload(running_now)
    url = reverse("tournaments:clock_break", args=[running_now.pk])
    response = director_client.post(url, {"rest": "both"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200  # htmx swaps the clock section with the reason
    assert "keep the rest of the level or skip it" in response.content.decode()
    tournament = reload(running_now)
    assert tournament.clock_version == before.clock_version
    assert (tournament.level_index, tournament.blind_structure_id) == (
        ROW_LEVEL_1,
        before.blind_structure_id,
    )
    assert not TournamentAction.objects.filter(tournament=running_now, summary__contains="Break")


def test_the_console_offers_both_choices(director_client: Client, running_now: Tournament) -> None:
    page = director_client.get(reverse("tournaments:clock_panel", args=[running_now.pk]))
    html = page.content.decode()
    assert 'name="rest" value="keep"' in html and 'name="rest" value="skip"' in html
    # Keeping the rest comes first: the button a director taps.
    assert html.index('value="keep"') < html.index('value="skip"')
    assert "Break now, then the rest of this level" in html


def test_a_level_with_no_time_left_has_no_rest_to_keep(
    in_level_2: Tournament, director: User
) -> None:
    Tournament.objects.filter(pk=in_level_2.pk).update(
        level_ends_at=None, paused_remaining=timedelta(0)
    )
    with refused(in_level_2, "no time left"):
        clock_break_now(in_level_2.pk, by=director, keep_rest=True, now=CALLED)


def test_the_kept_rest_follows_the_rows_changed_before_it(
    in_level_2: Tournament, director: User
) -> None:
    clock_break_now(in_level_2.pk, by=director, keep_rest=True, now=CALLED)
    # The levels to come now last 15 minutes: the rest kept of level 2 stays 7:23.
    clock_levels_minutes(in_level_2.pk, 15, by=director, now=at(14))
    tournament = reload(in_level_2)
    assert (tournament.resume_index, tournament.resume_remaining) == (ROW_RESUMED, REST)
    # Level 2 itself removed while on the break: nothing is left to resume.
    clock_row_remove(in_level_2.pk, ROW_RESUMED, by=director, now=at(15))
    tournament = reload(in_level_2)
    assert tournament.resume_index is None and tournament.resume_remaining is None
    # The structure's break after level 2 follows at once, then the old level 3 (now level
    # 2) with its full 15 minutes.
    assert shown(in_level_2, at(24)).on_break
    state = shown(in_level_2, at(34))
    assert state.current is not None and state.current.number == 2
    assert state.current.big_blind == 200
    assert state.ends_at == at(33, 37) + timedelta(minutes=15)
    action_undo_last(in_level_2.pk, by=director)
    tournament = reload(in_level_2)
    assert (tournament.resume_index, tournament.resume_remaining) == (ROW_RESUMED, REST)
