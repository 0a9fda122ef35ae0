"""The action log and its undo: newest first, one at a time, all or nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tournaments.errors import TournamentError
from tournaments.models import Tournament, TournamentAction
from tournaments.services import undo

pytestmark = pytest.mark.django_db

# Test-only kinds, so these handlers never collide with the real ones.
NOTE = "test-note"
STUCK = "test-stuck"
FORGOTTEN = "test-forgotten"


@undo.register(NOTE)
def _undo_note(tournament: Tournament, action: TournamentAction) -> None:
    # Reverse by restoring the capacity the action changed.
    Tournament.objects.filter(pk=tournament.pk).update(capacity=action.undo["capacity"])


@undo.register(STUCK)
def _undo_stuck(tournament: Tournament, action: TournamentAction) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(capacity=999)
    raise TournamentError("Ann has been eliminated since; this rebuy cannot be undone.")


def change_capacity(tournament: Tournament, capacity: int, by: User) -> TournamentAction:
    tournament.refresh_from_db()
    before = tournament.capacity
    Tournament.objects.filter(pk=tournament.pk).update(capacity=capacity)
    return undo.action_record(
        tournament, NOTE, f"capacity {capacity}", by=by, undo={"capacity": before}
    )


def test_an_action_is_logged_with_who_and_what(tournament: Tournament, director: User) -> None:
    action = change_capacity(tournament, 8, director)
    action.refresh_from_db()
    assert (action.kind, action.summary, action.by, action.undo) == (
        NOTE,
        "capacity 8",
        director,
        {"capacity": 6},
    )
    assert action.at is not None and action.undone_at is None


def test_undo_reverses_the_newest_action_first(tournament: Tournament, director: User) -> None:
    first = change_capacity(tournament, 8, director)
    second = change_capacity(tournament, 10, director)

    undone = undo.action_undo_last(tournament.pk, by=director)
    tournament.refresh_from_db()
    assert undone.pk == second.pk and tournament.capacity == 8
    assert undone.undone_by == director and undone.undone_at is not None

    assert undo.action_undo_last(tournament.pk, by=director).pk == first.pk
    tournament.refresh_from_db()
    assert tournament.capacity == 6


def test_undo_with_nothing_left_is_refused(tournament: Tournament, director: User) -> None:
    with pytest.raises(TournamentError, match="nothing to undo"):
        undo.action_undo_last(tournament.pk, by=director)
    change_capacity(tournament, 8, director)
    undo.action_undo_last(tournament.pk, by=director)
    with pytest.raises(TournamentError, match="nothing to undo"):
        undo.action_undo_last(tournament.pk, by=director)


def test_a_kind_without_a_reverse_is_refused(tournament: Tournament, director: User) -> None:
    change_capacity(tournament, 8, director)
    action = undo.action_record(tournament, FORGOTTEN, "a note", by=director, undo={})
    assert not undo.action_can_undo(action)
    with pytest.raises(TournamentError, match="cannot be undone"):
        undo.action_undo_last(tournament.pk, by=director)
    action.refresh_from_db()
    assert action.undone_at is None
    # The older action stays where it was: undo never skips over one it cannot reverse.
    tournament.refresh_from_db()
    assert tournament.capacity == 8


def test_a_handler_that_refuses_changes_nothing(tournament: Tournament, director: User) -> None:
    action = undo.action_record(tournament, STUCK, "rebuy", by=director, undo={})
    with pytest.raises(TournamentError, match="cannot be undone"):
        undo.action_undo_last(tournament.pk, by=director)
    tournament.refresh_from_db()
    action.refresh_from_db()
    assert tournament.capacity == 6 and action.undone_at is None


def test_undo_of_an_unknown_tournament_is_refused(director: User) -> None:
    with pytest.raises(TournamentError, match="does not exist"):
        undo.action_undo_last(424242, by=director)


def test_a_second_handler_for_one_kind_is_a_programming_error() -> None:
    def other(tournament: Tournament, action: TournamentAction) -> None:
        return None

    with pytest.raises(ValueError, match="already registered"):
        undo.register(NOTE)(other)


def test_undo_data_must_be_a_dict(tournament: Tournament, director: User) -> None:
    with pytest.raises(TypeError):
        undo.action_record(tournament, NOTE, "x", by=director, undo=[1])  # type: ignore[arg-type]


def test_a_long_summary_is_cut_to_fit(tournament: Tournament, director: User) -> None:
    action = undo.action_record(tournament, NOTE, "x" * 500, by=director, undo={"capacity": 6})
    assert len(action.summary) == undo.SUMMARY_MAX


def test_tournament_changed_is_sent_after_commit(
    tournament: Tournament, director: User, django_capture_on_commit_callbacks
) -> None:
    seen: list[tuple[int, bool]] = []

    def receiver(
        sender: object, tournament_id: int, action: TournamentAction, undone: bool, **kwargs: object
    ) -> None:
        seen.append((tournament_id, undone))

    undo.tournament_changed.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            change_capacity(tournament, 8, director)
        assert seen == [(tournament.pk, False)]
        with django_capture_on_commit_callbacks(execute=True):
            undo.action_undo_last(tournament.pk, by=director)
        assert seen == [(tournament.pk, False), (tournament.pk, True)]
    finally:
        undo.tournament_changed.disconnect(receiver)


def test_an_action_undoes_the_actions_it_includes_first(
    tournament: Tournament, director: User
) -> None:
    order: list[str] = []

    @undo.register("test-part")
    def _undo_part(tournament: Tournament, action: TournamentAction) -> None:
        order.append(action.summary)

    @undo.register("test-whole")
    def _undo_whole(tournament: Tournament, action: TournamentAction) -> None:
        order.append(action.summary)

    older = undo.action_record(tournament, "test-part", "older", by=director, undo={})
    first = undo.action_record(tournament, "test-part", "seat", by=director, undo={})
    second = undo.action_record(tournament, "test-part", "button", by=director, undo={})
    whole = undo.action_record(
        tournament,
        "test-whole",
        "late entry",
        by=director,
        undo={"includes": [first.pk, second.pk]},
    )
    assert undo.action_can_undo(whole)
    assert undo.action_undo_last(tournament.pk, by=director).pk == whole.pk
    assert order == ["button", "seat", "late entry"]
    for action in (first, second, whole):
        action.refresh_from_db()
        assert action.undone_by == director and action.undone_at is not None
    # The next Undo goes to what came before the whole action.
    assert undo.action_undo_last(tournament.pk, by=director).pk == older.pk
