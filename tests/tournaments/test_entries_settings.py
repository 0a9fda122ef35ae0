"""A tournament's settings: created by a director, money rules locked once it starts."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from series import event_sections
from series.models import Event
from series.services.events import EventError, event_draft_delete, event_update
from tests.series.test_host_pages import _night
from tests.tournaments.factories import make_user, start
from tests.tournaments.levels import BREAK_1, LEVEL_2
from tournaments.errors import TournamentError
from tournaments.models import BlindStructure, Entry, EntryState, Tournament, TournamentState
from tournaments.services import lifecycle, seating
from tournaments.services.entries import entry_register
from tournaments.services.lifecycle import tournament_create, tournament_update

pytestmark = pytest.mark.django_db


def settings(blind_structure: BlindStructure, /, **changes: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        "blind_structure": blind_structure,
        "capacity": 20,
        "seats_per_table": 8,
        "bounty": 5,
        "late_registration_until_level": 4,
        "rebuys_allowed": 1,
        "rebuy_until_level": 3,
        "rebuy_chips": 10000,
        "rebuy_price": 20,
        "addon_at_break": BREAK_1,
        "addon_chips": 10000,
        "addon_price": 20,
        "buy_in": 30,
        "fee": 5,
    }
    values.update(changes)
    return values


def test_a_director_creates_the_tournament_of_an_event(
    event: Event, blind_structure: BlindStructure, director: User
) -> None:
    tournament = tournament_create(event, by=director, **settings(blind_structure))
    tournament.refresh_from_db()
    event.refresh_from_db()
    assert tournament.event == event and tournament.blind_structure == blind_structure
    assert (tournament.capacity, tournament.bounty, tournament.addon_at_break) == (20, 5, BREAK_1)
    assert (event.buy_in, event.fee) == (30, 5)
    assert tournament.state == TournamentState.REGISTERING
    assert tournament.created_by == director


def test_players_cannot_create_tournaments(
    event: Event, blind_structure: BlindStructure, player: User
) -> None:
    with pytest.raises(PermissionDenied):
        tournament_create(event, by=player, **settings(blind_structure))
    assert not Tournament.objects.exists()


def test_one_tournament_per_event(
    event: Event, blind_structure: BlindStructure, director: User
) -> None:
    tournament_create(event, by=director, **settings(blind_structure))
    with pytest.raises(TournamentError, match="already has a tournament"):
        tournament_create(event, by=director, **settings(blind_structure))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"bounty": 40}, "bounty .* cannot be more than the buy-in"),
        ({"rebuy_until_level": 9}, "only 6 levels"),
        ({"late_registration_until_level": 0}, "at least 1"),
        ({"rebuy_until_level": None}, "until which level rebuys"),
        ({"rebuy_chips": 0}, "how many chips a rebuy"),
        ({"addon_at_break": LEVEL_2}, "one of the blind structure's breaks"),
        ({"reentries_allowed": 1}, "until which level re-entry"),
        ({"seats_per_table": 11}, "2 to 10"),
        ({"payout_basis_points": [5000, 3000, 1000]}, "add up to 90%, not 100%"),
        ({"payout_basis_points": [10000, 0]}, "above 0%"),
        ({"capacity": 0}, "at least 1"),
        ({"blind_structure": None}, "Choose a blind structure"),
    ],
)
def test_bad_settings_are_refused_and_nothing_is_saved(
    event: Event,
    blind_structure: BlindStructure,
    director: User,
    changes: dict[str, Any],
    message: str,
) -> None:
    with pytest.raises(TournamentError, match=message):
        tournament_create(event, by=director, **settings(blind_structure, **changes))
    event.refresh_from_db()
    assert not Tournament.objects.exists() and event.buy_in == 20


def test_a_blind_structure_with_no_levels_is_refused(event: Event, director: User) -> None:
    empty = BlindStructure.objects.create(name="Empty")
    with pytest.raises(TournamentError, match="has no levels"):
        tournament_create(event, by=director, blind_structure=empty)


def test_unknown_settings_are_a_programming_error(
    event: Event, blind_structure: BlindStructure, director: User
) -> None:
    with pytest.raises(TypeError, match="colour"):
        tournament_create(event, by=director, blind_structure=blind_structure, colour="red")


def test_settings_change_freely_before_the_start(tournament: Tournament, director: User) -> None:
    tournament_update(tournament.pk, by=director, rebuy_price=30, buy_in=40, bounty=10)
    tournament.refresh_from_db()
    assert (tournament.rebuy_price, tournament.event.buy_in, tournament.bounty) == (30, 40, 10)


def test_saving_the_settings_keeps_an_event_change_made_meanwhile(
    tournament: Tournament, director: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The settings lock the tournament's row only (a series page may rename the event
    meanwhile): they write back only the event's fields they own, never a stale name."""
    checked = lifecycle._validate

    def renamed_meanwhile(tournament: Tournament) -> None:
        Event.objects.filter(pk=tournament.event_id).update(name="Renamed on the series page")
        checked(tournament)

    monkeypatch.setattr(lifecycle, "_validate", renamed_meanwhile)

    tournament_update(tournament.pk, by=director, buy_in=40)

    event = Event.objects.get(pk=tournament.event_id)
    assert (event.name, event.buy_in) == ("Renamed on the series page", 40)


@pytest.mark.parametrize(
    "change",
    [
        {"buy_in": 40},
        {"fee": 10},
        {"bounty": 5},
        {"rebuys_allowed": 3},
        {"rebuy_price": 30},
        {"addon_chips": 5000},
        {"reentries_allowed": 2},
        {"reentry_until_level": 2},
        {"payout_basis_points": [6000, 4000]},
        {"starting_stack": 20000},
    ],
)
def test_money_rules_cannot_change_after_the_start(
    tournament: Tournament, director: User, change: dict[str, Any]
) -> None:
    start(tournament)
    with pytest.raises(TournamentError, match="has started: .* can no longer change"):
        tournament_update(tournament.pk, by=director, **change)
    tournament.refresh_from_db()
    assert (tournament.event.buy_in, tournament.event.fee, tournament.bounty) == (20, 5, 0)
    assert (tournament.rebuys_allowed, tournament.rebuy_price) == (2, 20)


def test_running_settings_change_after_the_start(tournament: Tournament, director: User) -> None:
    start(tournament)
    # The same money values sent again (a form posts every field) are no change.
    tournament_update(
        tournament.pk, by=director, late_registration_until_level=5, capacity=8, buy_in=20
    )
    tournament.refresh_from_db()
    assert (tournament.late_registration_until_level, tournament.capacity) == (5, 8)


def test_nothing_changes_once_the_tournament_is_over(
    tournament: Tournament, director: User
) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(state=TournamentState.FINISHED)
    with pytest.raises(TournamentError, match="over"):
        tournament_update(tournament.pk, by=director, capacity=10)


def test_capacity_cannot_drop_below_the_places_taken(
    tournament: Tournament, director: User
) -> None:
    for name in ("ann", "ben", "cal"):
        entry_register(tournament.pk, make_user(name))
    with pytest.raises(TournamentError, match="3 players already hold a place"):
        tournament_update(tournament.pk, by=director, capacity=2)


def test_raising_the_capacity_moves_the_waiting_list_up(
    tournament: Tournament, director: User
) -> None:
    tournament_update(tournament.pk, by=director, capacity=2)
    entries = [entry_register(tournament.pk, make_user(n)) for n in ("ann", "ben", "cal", "dee")]
    assert [e.state for e in entries] == [EntryState.REGISTERED] * 2 + [EntryState.WAITING] * 2
    tournament_update(tournament.pk, by=director, capacity=3)
    for entry in entries:
        entry.refresh_from_db()
    assert [e.state for e in entries] == [EntryState.REGISTERED] * 3 + [EntryState.WAITING]


def test_started_state_uses_the_level_of_the_clock(tournament: Tournament) -> None:
    from tests.tournaments.levels import BREAK_2, LEVEL_4, LEVEL_6
    from tournaments.selectors import current_level_number

    assert current_level_number(tournament) == 0
    for index, number in [(LEVEL_2, 2), (BREAK_1, 3), (LEVEL_4, 4), (BREAK_2, 5), (LEVEL_6, 6)]:
        start(tournament, index)
        assert current_level_number(tournament) == number
    # Past the last row the levels go on (each doubling the last): level 7, 8 ...
    start(tournament, LEVEL_6 + 2)
    assert current_level_number(tournament) == 8


def test_the_home_series_pot_limit_rule_is_a_tournament_option_off_by_default(
    tournament: Tournament, director: User
) -> None:
    # docs/rules/sources/home-series-event-plo8.txt: "it can be assumed that the small blind will
    # call the big blind" (an option of the table and the tournament).
    assert tournament.pot_assumes_small_blind_call is False
    tournament_update(tournament.pk, by=director, pot_assumes_small_blind_call=True)
    tournament.refresh_from_db()
    assert tournament.pot_assumes_small_blind_call is True


def test_the_night_s_own_page_cannot_change_the_money_of_a_started_tournament(
    tournament: Tournament, director: User
) -> None:
    """The event's buy-in, fee, stack, game and betting are the tournament's money rules: the
    series' edit page refuses them once it has started, as the tournament's settings do."""
    event = tournament.event
    start(tournament)

    with pytest.raises(EventError) as refused:
        event_update(event.pk, {"name": "Friday PLO8", "buy_in": event.buy_in + 10}, by=director)

    assert refused.value.field == "buy_in"
    assert "can no longer change" in refused.value.message
    kept = Event.objects.get(pk=event.pk)
    assert (kept.name, kept.buy_in) == (event.name, event.buy_in)
    # The same money, sent again with the rest of the form, is no change: the rest is saved.
    event_update(event.pk, {"name": "Friday PLO8", "buy_in": event.buy_in}, by=director)
    assert Event.objects.get(pk=event.pk).name == "Friday PLO8"


def test_the_night_s_own_page_changes_the_money_before_the_start(
    tournament: Tournament, director: User
) -> None:
    event_update(tournament.event_id, {"buy_in": 40}, by=director)

    assert Event.objects.get(pk=tournament.event_id).buy_in == 40


def test_the_night_s_edit_page_says_why_the_buy_in_stays(
    tournament: Tournament, director_client: Client
) -> None:
    start(tournament)

    response = director_client.post(
        reverse("series:event_edit", args=[tournament.event_id]),
        _night(days=1, name="Thursday PLO8", buy_in="30", capacity=""),
    )

    assert response.status_code == 400
    page = response.content.decode()
    assert "The tournament has started: buy-in can no longer change." in page
    assert Event.objects.get(pk=tournament.event_id).buy_in == 20
    # The whole form posted again with the money as it is (a host fixing the venue during
    # the night): every held field compares equal, and the rest is saved.
    response = director_client.post(
        reverse("series:event_edit", args=[tournament.event_id]),
        _night(days=1, name="Thursday PLO8", venue="Ben's garage", capacity=""),
    )
    assert response.status_code == 302
    assert Event.objects.get(pk=tournament.event_id).venue == "Ben's garage"


# -- the host saving the night while the director starts it -----------------------------


def _waiting_on_a_row_lock(done: threading.Thread) -> None:
    """Until ``done`` has finished or another connection to this test's database waits for
    a row lock (10 s at most): PostgreSQL's own view of who waits, so the test does not
    rely on a sleep being long enough. (With the locks right the outcome is the same either
    way; without them, this is what lets the second workflow slip in before the release.)"""
    for _ in range(200):
        if not done.is_alive():
            return
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                " AND datname = current_database() AND pid <> pg_backend_pid()"
            )
            if cursor.fetchone()[0]:
                return
        time.sleep(0.05)


def _in_thread(run: Callable[[], Any], outcome: dict[str, Any], key: str) -> threading.Thread:
    def target() -> None:
        try:
            outcome[key] = run()
        except Exception as error:  # noqa: BLE001 - the test reads it
            outcome[key] = error
        finally:
            connections.close_all()

    thread = threading.Thread(target=target)
    thread.start()
    return thread


Run = tuple[str, Callable[[], Any]]


def _one_inside_the_other(
    first: Run, second: Run, inside: threading.Event, release: threading.Event
) -> dict[str, Any]:
    """``first`` in a thread until it is ``inside`` (its own patch sets that, then waits
    for ``release``); ``second`` in another thread meanwhile, until it waits for a lock or
    ends; then ``first`` is released. What each returned or raised, by name."""
    outcome: dict[str, Any] = {}
    threads = [_in_thread(first[1], outcome, first[0])]
    try:
        assert inside.wait(10), f"{first[0]} never got to the point it is held at"
        threads.append(_in_thread(second[1], outcome, second[0]))
        _waiting_on_a_row_lock(threads[1])
    finally:
        release.set()
        for thread in threads:
            thread.join(30)
    assert not any(thread.is_alive() for thread in threads), "a workflow never ended"
    return outcome


def _ready_to_start(tournament: Tournament) -> None:
    for name in ("ann", "ben"):
        entry_register(tournament.pk, make_user(name))


@pytest.mark.django_db(transaction=True)
def test_a_buy_in_saved_while_the_tournament_starts_waits_and_is_refused(
    tournament: Tournament, director: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The director starts the night; in that very second the host saves a new buy-in on
    the series' page. The save waits for the start and is then refused: the players sat
    down for the buy-in they were told."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no row locks; run with a PostgreSQL DATABASE_URL")
    _ready_to_start(tournament)
    inside, release = threading.Event(), threading.Event()
    draw = seating.seating_draw

    def held_draw(*args: Any, **kwargs: Any) -> Any:
        inside.set()
        release.wait(10)
        return draw(*args, **kwargs)

    monkeypatch.setattr(seating, "seating_draw", held_draw)
    outcome = _one_inside_the_other(
        ("start", lambda: lifecycle.tournament_start(tournament.pk, by=director)),
        ("save", lambda: event_update(tournament.event_id, {"buy_in": 40}, by=director)),
        inside,
        release,
    )

    assert isinstance(outcome["start"], Tournament)
    assert isinstance(outcome["save"], EventError), outcome["save"]
    assert outcome["save"].field == "buy_in"
    assert Event.objects.get(pk=tournament.event_id).buy_in == 20


@pytest.mark.django_db(transaction=True)
def test_a_start_while_the_host_saves_a_new_stack_starts_on_the_new_stack(
    tournament: Tournament, director: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other order: the host's save of a new starting stack is under way when the
    director starts. The start waits for the save and plays on the stack saved, not on the
    one it would have read before the save was committed."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no row locks; run with a PostgreSQL DATABASE_URL")
    _ready_to_start(tournament)
    inside, release = threading.Event(), threading.Event()
    held = event_sections.fields_held

    def held_while_saving(event: Event) -> dict[str, str]:
        answer = held(event)
        inside.set()
        release.wait(10)
        return answer

    monkeypatch.setattr(event_sections, "fields_held", held_while_saving)
    seen: list[int] = []
    draw = seating.seating_draw

    def seeing_draw(tournament: Tournament, **kwargs: Any) -> Any:
        seen.append(tournament.event.starting_stack)
        return draw(tournament, **kwargs)

    monkeypatch.setattr(seating, "seating_draw", seeing_draw)
    outcome = _one_inside_the_other(
        ("save", lambda: event_update(tournament.event_id, {"starting_stack": 20000}, by=director)),
        ("start", lambda: lifecycle.tournament_start(tournament.pk, by=director)),
        inside,
        release,
    )

    assert isinstance(outcome["save"], Event), outcome["save"]
    assert isinstance(outcome["start"], Tournament), outcome["start"]
    assert seen == [20000]
    assert outcome["start"].event.starting_stack == 20000


# -- deleting a draft night ------------------------------------------------------------


def test_a_draft_whose_tournament_has_players_is_not_deleted(
    tournament: Tournament, director: User, director_client: Client
) -> None:
    """A draft night's tournament with a player registered (the director testing the
    night, or a player the console added): deleting the night would delete their place.
    The series asks the tournaments first; the page says why."""
    event = tournament.event
    Event.objects.filter(pk=event.pk).update(published_at=None)
    entry = entry_register(tournament.pk, make_user("ann"))

    with pytest.raises(EventError, match="tournament has players: it cannot be deleted"):
        event_draft_delete(event.pk)
    response = director_client.post(reverse("series:event_delete", args=[event.pk]), follow=True)

    assert "tournament has players: it cannot be deleted" in response.content.decode()
    assert Event.objects.filter(pk=event.pk).exists()
    assert Entry.objects.filter(pk=entry.pk).exists()


def test_a_draft_whose_tournament_has_nobody_yet_is_deleted_with_it(
    tournament: Tournament, director: User
) -> None:
    event = tournament.event
    Event.objects.filter(pk=event.pk).update(published_at=None)

    event_draft_delete(event.pk)

    assert not Event.objects.filter(pk=event.pk).exists()
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
