"""Quick changes to a running night's levels from the console: add or remove a level, change
the length of the levels to come, add a break. Each changes the tournament's own copy of the
levels (never the structure other events share), keeps the clock where it is, is logged and
undone like every console action, and leaves no level-change task able to fire a wrong
level."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.clock_helpers import (
    ROW_BREAK,
    ROW_LEVEL_1,
    ROW_LEVEL_2,
    ROW_LEVEL_3,
    at,
    reload,
    rows_of_blind_structure,
    shown,
)
from tournaments.errors import TournamentError
from tournaments.models import (
    BlindLevel,
    BlindStructure,
    Tournament,
    TournamentAction,
    TournamentState,
)
from tournaments.services.clock.controls import clock_next, clock_pause
from tournaments.services.clock.levels import (
    clock_break_add,
    clock_break_now,
    clock_level_add,
    clock_levels_minutes,
    clock_row_remove,
)
from tournaments.services.clock.sweep import clock_advance_due, clock_sweep
from tournaments.services.undo import action_undo_last
from tournaments.views.once import FIELD

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock_tasks_off")]

HTMX = {"HTTP_HX_REQUEST": "true"}


def rows_of(tournament: Tournament) -> list[tuple[Any, ...]]:
    """(kind, minutes, small blind, big blind) of each row the tournament plays."""
    return rows_of_blind_structure(reload(tournament).blind_structure_id)


def last_summary(tournament: Tournament) -> str:
    return TournamentAction.objects.filter(tournament=tournament).latest("pk").summary


# ---------------------------------------------------------------------------- add a level


def test_a_level_added_comes_after_the_level_in_play(
    running_clock: Tournament, director: User, clock_blind_structure: BlindStructure
) -> None:
    shared = rows_of_blind_structure(clock_blind_structure.pk)
    clock_level_add(
        running_clock.pk, by=director, small_blind=25, big_blind=50, minutes=15, now=at(5)
    )
    assert rows_of(running_clock)[:3] == [
        ("level", 20, 25, 50),
        ("level", 15, 25, 50),
        ("level", 20, 50, 100),
    ]
    # The shared structure is as it was; the tournament plays its own copy.
    assert rows_of_blind_structure(clock_blind_structure.pk) == shared
    assert reload(running_clock).blind_structure_id != clock_blind_structure.pk
    # The level in play keeps its end; the new level 2 follows it, then 50/100 as level 3.
    state = shown(running_clock, at(6))
    assert state.ends_at == at(20) and state.current is not None and state.current.number == 1
    assert state.next is not None and (state.next.number, state.next.minutes) == (2, 15)
    later = shown(running_clock, at(36))
    assert later.current is not None and (later.current.number, later.current.big_blind) == (
        3,
        100,
    )
    assert last_summary(running_clock) == "Added level 2 (25/50, 15 min) after level 1"


def test_a_level_added_on_a_break_comes_after_the_break(
    running_clock: Tournament, director: User
) -> None:
    clock_next(running_clock.pk, by=director, now=at(1))
    clock_next(running_clock.pk, by=director, now=at(2))  # the break
    # (The break colours up the 25 chips: the blinds are made of 100s from then on.)
    clock_level_add(running_clock.pk, by=director, small_blind=100, big_blind=200, now=at(3))
    kinds = [row[0] for row in rows_of(running_clock)]
    assert kinds[ROW_BREAK : ROW_BREAK + 3] == ["break", "level", "level"]
    # Without minutes it lasts as long as the level before it.
    assert rows_of(running_clock)[ROW_BREAK + 1] == ("level", 20, 100, 200)


def test_a_level_that_breaks_a_rule_is_refused_and_nothing_changes(
    running_clock: Tournament, director: User, clock_blind_structure: BlindStructure
) -> None:
    before = reload(running_clock).clock_version
    with pytest.raises(TournamentError, match="below the small blind"):
        clock_level_add(running_clock.pk, by=director, small_blind=100, big_blind=50, now=at(5))
    with pytest.raises(TournamentError, match="smallest chip"):
        clock_level_add(running_clock.pk, by=director, small_blind=30, big_blind=60, now=at(5))
    tournament = reload(running_clock)
    assert tournament.clock_version == before
    assert tournament.blind_structure_id == clock_blind_structure.pk
    assert BlindStructure.objects.filter(is_template=False).count() == 1


# ---------------------------------------------------------------------------- remove a row


def test_removing_the_next_level_brings_the_one_after_it_forward(
    running_clock: Tournament, director: User
) -> None:
    clock_row_remove(running_clock.pk, ROW_LEVEL_2, by=director, now=at(5))
    assert [row[2:] for row in rows_of(running_clock)][:3] == [(25, 50), (0, 0), (100, 200)]
    # Level 1 ends on time and the break follows it; level 2 is now 100/200.
    assert clock_advance_due(running_clock.pk, ROW_LEVEL_1, at(20))
    state = shown(running_clock, at(21))
    assert state.on_break and state.next is not None
    assert (state.next.number, state.next.big_blind) == (2, 200)
    assert last_summary(running_clock) == "Removed level 2 (50/100)"


def test_the_row_in_play_and_past_rows_cannot_be_removed(
    running_clock: Tournament, director: User
) -> None:
    clock_next(running_clock.pk, by=director, now=at(1))
    with pytest.raises(TournamentError, match="in play"):
        clock_row_remove(running_clock.pk, ROW_LEVEL_2, by=director, now=at(2))
    with pytest.raises(TournamentError, match="already been played"):
        clock_row_remove(running_clock.pk, ROW_LEVEL_1, by=director, now=at(2))
    with pytest.raises(TournamentError, match="no such row"):
        clock_row_remove(running_clock.pk, 99, by=director, now=at(2))


def test_the_add_on_break_stays_and_follows_the_rows_moved(
    running_clock: Tournament, director: User
) -> None:
    position = BlindLevel.objects.get(
        blind_structure_id=running_clock.blind_structure_id, kind="break"
    ).position
    Tournament.objects.filter(pk=running_clock.pk).update(addon_at_break=position)
    with pytest.raises(TournamentError, match="add-on"):
        clock_row_remove(running_clock.pk, ROW_BREAK, by=director, now=at(5))
    clock_level_add(running_clock.pk, by=director, small_blind=25, big_blind=50, now=at(5))
    tournament = reload(running_clock)
    addon_row = BlindLevel.objects.get(
        blind_structure_id=tournament.blind_structure_id, position=tournament.addon_at_break
    )
    assert addon_row.kind == "break" and addon_row.colour_up == [25]
    action_undo_last(running_clock.pk, by=director)
    assert reload(running_clock).addon_at_break == position


def test_a_form_shown_before_the_clock_moved_on_is_refused(
    running_clock: Tournament, director: User
) -> None:
    version = reload(running_clock).clock_version
    # The form showed level 1 in play; level 2 started by time since.
    with pytest.raises(TournamentError, match="moved on"):
        clock_row_remove(
            running_clock.pk, ROW_BREAK, by=director, expected_index=ROW_LEVEL_1, now=at(21)
        )
    clock_pause(running_clock.pk, by=director, now=at(5))
    with pytest.raises(TournamentError, match="moved on"):
        clock_row_remove(running_clock.pk, ROW_BREAK, by=director, version=version, now=at(6))
    assert [row[0] for row in rows_of(running_clock)][ROW_BREAK] == "break"


# ---------------------------------------------------------------------------- level length


def test_the_levels_to_come_get_the_new_length_and_breaks_keep_theirs(
    running_clock: Tournament, director: User
) -> None:
    clock_levels_minutes(running_clock.pk, 15, by=director, now=at(5))
    assert [row[1] for row in rows_of(running_clock)] == [20, 15, 10, 15, 15, 15]
    state = shown(running_clock, at(6))
    # Level 1 keeps its end (14 minutes left); then 15 + 10 + 3 x 15 minutes.
    assert state.ends_at == at(20)
    assert state.time_to_end.total_seconds() == (14 + 15 + 10 + 45) * 60
    # Past the structure's end the extra levels last as long as its last level.
    far = shown(running_clock, at(20 + 15 + 10 + 45 + 1))
    assert far.current is not None and far.current.number == 6 and far.current.minutes == 15
    assert last_summary(running_clock) == "Levels after level 1 now last 15 min"


def test_a_length_out_of_bounds_is_refused(running_clock: Tournament, director: User) -> None:
    for minutes in (0, -5, 241):
        with pytest.raises(TournamentError, match="minutes"):
            clock_levels_minutes(running_clock.pk, minutes, by=director, now=at(5))
    assert [row[1] for row in rows_of(running_clock)] == [20, 20, 10, 20, 20, 20]


def test_in_the_extra_levels_the_length_applies_to_the_levels_to_come(
    running_clock: Tournament, director: User
) -> None:
    # The structure ran out at 110:00: level 7 (an extra level) is in play at 135:00.
    clock_levels_minutes(running_clock.pk, 10, by=director, now=at(135))
    state = shown(running_clock, at(136))
    assert state.current is not None and state.current.number == 7
    assert state.ends_at == at(150)  # its own end stays
    assert state.next is not None and state.next.minutes == 10
    assert (state.next.small_blind, state.next.big_blind) == (1600, 3200)


# ---------------------------------------------------------------------------- add a break


def test_a_break_added_after_a_later_level(running_clock: Tournament, director: User) -> None:
    clock_break_add(running_clock.pk, 5, after=ROW_LEVEL_3, by=director, now=at(5))
    assert rows_of(running_clock)[ROW_LEVEL_3 + 1] == ("break", 5, 0, 0)
    state = shown(running_clock, at(6))
    assert state.next_break is not None and state.next_break.levels_before == 2
    assert last_summary(running_clock) == "Added a 5 min break after level 3"
    with pytest.raises(TournamentError, match="already been played"):
        clock_break_add(running_clock.pk, 5, after=-1, by=director, now=at(6))


def test_a_break_added_after_the_level_in_play_starts_when_it_ends(
    running_clock: Tournament, director: User
) -> None:
    clock_break_add(running_clock.pk, 15, after=ROW_LEVEL_1, by=director, now=at(5))
    assert clock_advance_due(running_clock.pk, ROW_LEVEL_1, at(20))
    state = shown(running_clock, at(21))
    assert state.on_break and state.ends_at == at(35)
    assert reload(running_clock).state == TournamentState.ON_BREAK


# ---------------------------------------------------------------------------- undo and tasks


def test_every_quick_change_is_undone_in_order(
    running_clock: Tournament, director: User, clock_blind_structure: BlindStructure
) -> None:
    snapshots = []

    def keep() -> None:
        t = reload(running_clock)
        snapshots.append((rows_of(running_clock), t.level_index, t.level_ends_at, t.state))

    keep()
    clock_level_add(running_clock.pk, by=director, small_blind=25, big_blind=50, now=at(1))
    keep()
    clock_row_remove(running_clock.pk, 3, by=director, now=at(2))
    keep()
    clock_levels_minutes(running_clock.pk, 30, by=director, now=at(3))
    keep()
    clock_break_add(running_clock.pk, 5, after=ROW_LEVEL_1, by=director, now=at(4))
    keep()
    clock_break_now(running_clock.pk, by=director, now=at(5))
    copy = reload(running_clock).blind_structure_id
    for expected in reversed(snapshots):
        action_undo_last(running_clock.pk, by=director)
        t = reload(running_clock)
        assert (rows_of(running_clock), t.level_index, t.level_ends_at, t.state) == expected
    assert reload(running_clock).blind_structure_id == clock_blind_structure.pk
    assert not BlindStructure.objects.filter(pk=copy).exists()


def test_a_task_scheduled_before_a_removal_plays_the_rows_as_they_are_now(
    running_clock: Tournament, director: User
) -> None:
    """The task for the end of level 1 was scheduled when level 2 was 50/100; level 2 was
    removed since: when the task fires, the break comes, not the removed level."""
    version = reload(running_clock).clock_version
    clock_row_remove(running_clock.pk, ROW_LEVEL_2, by=director, now=at(5))
    assert reload(running_clock).clock_version > version
    assert clock_sweep(at(20)) == 1
    tournament = reload(running_clock)
    assert tournament.level_index == 1 and tournament.state == TournamentState.ON_BREAK
    assert tournament.level_ends_at == at(30)


def test_a_late_level_change_is_stored_where_the_screens_were(
    running_clock: Tournament, director: User
) -> None:
    """Level 1 ended at 20:00 and no task stored it yet: a change at 21:00 works from level
    2, which every screen already shows, not from the stale stored level 1."""
    clock_row_remove(running_clock.pk, ROW_BREAK, by=director, now=at(21))
    tournament = reload(running_clock)
    assert (tournament.level_index, tournament.level_ends_at) == (ROW_LEVEL_2, at(40))
    state = shown(running_clock, at(41))
    assert state.current is not None and state.current.number == 3


# ---------------------------------------------------------------------------- the console


def test_the_console_forms_change_the_levels(
    director_client: Client, running_now: Tournament, director: User
) -> None:
    tournament = reload(running_now)
    seen = {"version": tournament.clock_version, "at": tournament.level_index}
    url = reverse("tournaments:clock_level_add", args=[tournament.pk])
    response = director_client.post(
        url,
        {"small_blind": "25", "big_blind": "50", "ante": "0", "minutes": "20", **seen},
        **HTMX,
    )
    assert response.status_code == 200 and response["HX-Trigger"] == "tournament-changed"
    assert len(rows_of(tournament)) == 7
    tournament = reload(running_now)
    seen = {"version": tournament.clock_version, "at": tournament.level_index}
    response = director_client.post(
        reverse("tournaments:clock_row_remove", args=[tournament.pk]), {"row": "1", **seen}, **HTMX
    )
    assert response.status_code == 200 and len(rows_of(tournament)) == 6
    response = director_client.post(
        reverse("tournaments:clock_levels_minutes", args=[tournament.pk]),
        {"minutes": "12"},
        **HTMX,
    )
    assert response.status_code == 200 and rows_of(tournament)[1][1] == 12
    tournament = reload(running_now)
    seen = {"version": tournament.clock_version, "at": tournament.level_index}
    response = director_client.post(
        reverse("tournaments:clock_break_add", args=[tournament.pk]),
        {"minutes": "5", "after": "0", **seen},
        **HTMX,
    )
    assert response.status_code == 200 and rows_of(tournament)[1] == ("break", 5, 0, 0)
    assert TournamentAction.objects.filter(tournament=tournament, by=director).count() == 4


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("clock_level_add", {"small_blind": "x", "big_blind": "50"}, "small blind"),
        ("clock_level_add", {"small_blind": "25", "big_blind": "50", "minutes": "1e9"}, "min"),
        ("clock_row_remove", {"row": "abc"}, "Choose the row"),
        ("clock_row_remove", {"row": "99"}, "no such row"),
        ("clock_levels_minutes", {"minutes": "-3"}, "minutes"),
        ("clock_break_add", {"minutes": "5", "after": "nope"}, "Choose the level"),
        ("clock_row_remove", {"row": "2", "version": "1", "at": "0"}, "moved on"),
    ],
)
def test_bad_input_is_refused_with_a_message_and_changes_nothing(
    director_client: Client, running_now: Tournament, name: str, data: dict[str, str], message: str
) -> None:
    before = reload(running_now).clock_version
    response = director_client.post(
        reverse(f"tournaments:{name}", args=[running_now.pk]), data, **HTMX
    )
    assert response.status_code == 200  # htmx swaps the clock section with the reason
    assert message in response.content.decode()
    assert reload(running_now).clock_version == before
    assert len(rows_of(running_now)) == 6


def test_a_quick_change_posted_twice_is_recorded_once(
    director_client: Client, running_now: Tournament
) -> None:
    url = reverse("tournaments:clock_level_add", args=[running_now.pk])
    data = {"small_blind": "25", "big_blind": "50", FIELD: "quick-change-token-0001"}
    assert director_client.post(url, data, **HTMX).status_code == 200
    second = director_client.post(url, data, **HTMX)
    assert "already recorded" in second.content.decode()
    assert TournamentAction.objects.filter(tournament=running_now).count() == 1
    assert len(rows_of(running_now)) == 7


@pytest.mark.parametrize(
    "name", ["clock_level_add", "clock_row_remove", "clock_levels_minutes", "clock_break_add"]
)
def test_players_get_403_on_quick_changes(
    player_client: Client, running_now: Tournament, name: str
) -> None:
    url = reverse(f"tournaments:{name}", args=[running_now.pk])
    assert player_client.post(url, {"minutes": "10", "row": "2"}).status_code == 403
    assert len(rows_of(running_now)) == 6


def test_the_console_shows_the_quick_changes(director: User, running_now: Tournament) -> None:
    from django.template.loader import render_to_string
    from django.test import RequestFactory

    request = RequestFactory().get("/console/")
    request.user = director
    html = render_to_string(
        "tournaments/_console_clock.html", {"tournament": reload(running_now)}, request=request
    )
    for name in ("clock_level_add", "clock_row_remove", "clock_levels_minutes", "clock_break_add"):
        assert reverse(f"tournaments:{name}", args=[running_now.pk]) in html
    # The rows that may be removed are the ones to come: level 2 onwards.
    assert 'value="1"' in html and "Level 2 (50/100)" in html
    remove_url = reverse("tournaments:clock_row_remove", args=[running_now.pk])
    assert "Level 1 (25/50)" not in html.split(remove_url)[-1].split("</form>")[0]
