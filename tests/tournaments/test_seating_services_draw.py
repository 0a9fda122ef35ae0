"""The seat draw and late seats: everyone seated once, tables as even as the field allows,
late entrants from the open seats told when to wait for the button (TDA 7, 8, 10)."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from series.models import Player
from tests.tournaments.factories import late as late_entries
from tests.tournaments.factories import register, seat
from tests.tournaments.lookups import last_action, seats_of, where
from tournaments.errors import TournamentError
from tournaments.models import ActionKind, Entry, EntryState, Tournament, TournamentTable
from tournaments.services import undo
from tournaments.services.entries import entry_late
from tournaments.services.seating import seating_draw, seating_late_seat, table_button_set

pytestmark = pytest.mark.django_db

NAMES = [f"P{n:02d}" for n in range(1, 21)]


def test_the_draw_seats_every_registered_player_once(
    tournament: Tournament, director: User
) -> None:
    # TDA 7: "seats are drawn at random"; twenty players at nine-seat tables make three
    # tables of 7, 7 and 6.
    entries = register(tournament, NAMES)

    drawn = seating_draw(tournament, by=director)

    assert len(drawn) == 20
    layout = seats_of(tournament)
    assert sorted(len(seats) for seats in layout.values()) == [6, 7, 7]
    assert sorted(layout) == [1, 2, 3]
    assert sorted(name for seats in layout.values() for name in seats.values()) == NAMES
    assert all(1 <= s <= 9 for seats in layout.values() for s in seats)
    assert set(
        TournamentTable.objects.filter(tournament=tournament).values_list("number", flat=True)
    ) == {1, 2, 3}
    for entry in entries:
        entry.refresh_from_db()
        assert entry.state == EntryState.PLAYING
    assert last_action(tournament).kind == ActionKind.SEAT
    assert [(m.to_table, m.to_seat) for m in drawn] == sorted(
        (m.to_table, m.to_seat) for m in drawn
    )


def test_the_draw_is_random(tournament: Tournament, director: User) -> None:
    """The same field drawn with the system's CSPRNG does not land the same way twice in a
    row (twenty players: the chance of an identical draw is negligible)."""
    register(tournament, NAMES)
    first = {m.name: (m.to_table, m.to_seat) for m in seating_draw(tournament, by=director)}
    undo.action_undo_last(tournament.pk, by=director)

    second = {m.name: (m.to_table, m.to_seat) for m in seating_draw(tournament, by=director)}

    assert first != second


def test_waiting_list_and_unregistered_entries_are_not_drawn(
    tournament: Tournament, director: User
) -> None:
    register(tournament, ["Ann", "Ben", "Cal"])
    waiting, gone = register(tournament, ["Wes", "Una"])
    Entry.objects.filter(pk=waiting.pk).update(state=EntryState.WAITING)
    Entry.objects.filter(pk=gone.pk).update(state=EntryState.UNREGISTERED)

    seating_draw(tournament, by=director, rng=random.Random(1))

    assert sorted(seats_of(tournament)[1].values()) == ["Ann", "Ben", "Cal"]
    assert where(waiting) == (None, None)


def test_drawing_again_seats_only_the_newcomers_and_nothing_when_nobody_waits(
    tournament: Tournament, director: User
) -> None:
    register(tournament, NAMES[:10])
    seating_draw(tournament, by=director, rng=random.Random(2))
    before = seats_of(tournament)
    actions = tournament.actions.count()

    assert seating_draw(tournament, by=director) == []
    assert tournament.actions.count() == actions

    (late,) = register(tournament, ["Zed"])
    (seated,) = seating_draw(tournament, by=director, rng=random.Random(3))
    after = seats_of(tournament)
    assert seated.name == "Zed" and where(late) == (seated.to_table, seated.to_seat)
    # The others did not move.
    for number, seats in before.items():
        for s, name in seats.items():
            assert after[number][s] == name


def test_a_late_entrant_sits_at_the_shortest_table(
    tournament_in_play: Tournament, director: User
) -> None:
    # TDA 8: late entrants draw from the open seats, here those of the short table 2.
    seat(
        tournament_in_play,
        {1: {s: f"A{s}" for s in range(1, 7)}, 2: {s: f"B{s}" for s in range(1, 6)}},
    )
    (late,) = late_entries(tournament_in_play, ["Zed"])

    placed = seating_late_seat(late, by=director, rng=random.Random(4))

    assert placed.to_table == 2 and placed.to_seat in (6, 7, 8, 9)
    assert where(late) == (2, placed.to_seat)
    late.refresh_from_db()
    assert late.state == EntryState.PLAYING
    assert (
        last_action(tournament_in_play).kind == ActionKind.SEAT
        and "Zed" in last_action(tournament_in_play).summary
    )


@pytest.mark.parametrize(("button", "must_wait"), [(6, True), (3, False)])
def test_a_late_entrant_between_the_small_blind_and_the_button_waits(
    tournament_in_play: Tournament, director: User, button: int, must_wait: bool
) -> None:
    # TDA 10: newcomers are "dealt in anywhere except between the small blind and the
    # button". Seats 1-6 taken, 7-9 open. Button at 6: the small blind is seat 1, so seats
    # 7-9 are between them. Button at 3: small blind 4, big blind 5; seats 7-9 are dealt in.
    seat(tournament_in_play, {1: {s: f"A{s}" for s in range(1, 7)}})
    table_button_set(tournament_in_play.pk, 1, button, by=director)
    (late,) = late_entries(tournament_in_play, ["Zed"])

    placed = seating_late_seat(late, by=director, rng=random.Random(5))

    assert placed.to_seat in (7, 8, 9)
    assert placed.must_wait is must_wait


def test_a_late_seat_at_a_table_whose_button_is_not_known_says_so(
    tournament_in_play: Tournament, director: User
) -> None:
    seat(tournament_in_play, {1: {1: "Ann", 2: "Ben"}})
    table = TournamentTable.objects.get(tournament=tournament_in_play, number=1)
    # Told where the button was ten minutes ago: it has moved since.
    table.button, table.button_set_at = 1, timezone.now() - timedelta(minutes=10)
    table.save()
    (late,) = late_entries(tournament_in_play, ["Zed"])

    assert seating_late_seat(late, by=director).must_wait is None


def test_when_every_seat_is_taken_a_late_entrant_opens_a_new_table(
    tournament_in_play: Tournament, director: User
) -> None:
    tournament_in_play.seats_per_table = 2
    tournament_in_play.save(update_fields=["seats_per_table"])
    seat(tournament_in_play, {1: {1: "Ann", 2: "Ben"}, 2: {1: "Cal", 2: "Dee"}})
    (late,) = late_entries(tournament_in_play, ["Zed"])

    placed = seating_late_seat(late, by=director, rng=random.Random(6))

    assert placed.to_table == 3
    assert TournamentTable.objects.filter(tournament=tournament_in_play, number=3).exists()


def test_late_seats_refused(tournament_in_play: Tournament, director: User) -> None:
    players = seat(tournament_in_play, {1: {1: "Ann", 2: "Ben"}})
    with pytest.raises(TournamentError, match="Ann already has a seat: table 1 seat 1"):
        seating_late_seat(players["Ann"], by=director)
    (unpaid,) = register(tournament_in_play, ["Val"])
    with pytest.raises(TournamentError, match="Val is registered but not in play yet"):
        seating_late_seat(unpaid, by=director)
    assert where(unpaid) == (None, None)
    (gone,) = register(tournament_in_play, ["Una"])
    Entry.objects.filter(pk=gone.pk).update(state=EntryState.UNREGISTERED)
    with pytest.raises(TournamentError, match="not registered"):
        seating_late_seat(gone, by=director)


def test_a_late_seat_before_the_draw_waits_for_the_draw(
    tournament: Tournament, director: User
) -> None:
    (early,) = register(tournament, ["Ann"])
    with pytest.raises(TournamentError, match="have not been drawn yet"):
        seating_late_seat(early, by=director)


def test_undo_of_the_draw_puts_everyone_back_in_registration(
    tournament: Tournament, director: User
) -> None:
    entries = register(tournament, NAMES)
    seating_draw(tournament, by=director)

    undone = undo.action_undo_last(tournament.pk, by=director)

    assert undone.kind == ActionKind.SEAT
    assert not TournamentTable.objects.filter(tournament=tournament).exists()
    assert Counter(
        Entry.objects.filter(pk__in=[e.pk for e in entries]).values_list("state", "table_number")
    ) == Counter({(EntryState.REGISTERED, None): 20})


def test_undo_of_a_late_seat_frees_the_seat_and_the_new_table(
    tournament_in_play: Tournament, director: User
) -> None:
    tournament_in_play.seats_per_table = 2
    tournament_in_play.save(update_fields=["seats_per_table"])
    seat(tournament_in_play, {1: {1: "Ann", 2: "Ben"}})
    (late,) = late_entries(tournament_in_play, ["Zed"])
    seating_late_seat(late, by=director)

    undo.action_undo_last(tournament_in_play.pk, by=director)

    late.refresh_from_db()
    assert (late.state, late.table_number, late.seat_number) == (EntryState.PLAYING, None, None)
    assert list(
        TournamentTable.objects.filter(tournament=tournament_in_play).values_list(
            "number", flat=True
        )
    ) == [1]


def test_undoing_a_seat_after_the_entry_itself_was_taken_back_leaves_it_alone(
    tournament_in_play: Tournament, director: User
) -> None:
    """Whichever order a late entry records itself and its seat in, undoing both never
    brings back an entry the director took away."""
    seat(tournament_in_play, {1: {1: "Ann", 2: "Ben"}})
    (late,) = late_entries(tournament_in_play, ["Zed"])
    seating_late_seat(late, by=director)
    Entry.objects.filter(pk=late.pk).update(state=EntryState.UNREGISTERED)

    undo.action_undo_last(tournament_in_play.pk, by=director)

    late.refresh_from_db()
    assert late.state == EntryState.UNREGISTERED


def test_a_late_entry_taken_on_the_console_is_seated_and_both_undo_in_order(
    tournament_in_play: Tournament, director: User
) -> None:
    """A late entry draws its seat here (its own SEAT action) and records itself last,
    including that seat: one Undo takes back the seat, then the entry."""
    seat(tournament_in_play, {1: {1: "Ann", 2: "Ben"}})
    zed = Player.objects.create(name="Zed")
    entry = entry_late(tournament_in_play.pk, zed.pk, by=director)
    table, seat_number = where(entry)
    assert table == 1 and seat_number not in (1, 2)
    seat_action, late_action = tournament_in_play.actions.order_by("-pk")[:2][::-1]
    assert (seat_action.kind, late_action.kind) == (ActionKind.SEAT, ActionKind.LATE_ENTRY)

    assert undo.action_undo_last(tournament_in_play.pk, by=director).kind == ActionKind.LATE_ENTRY
    assert not Entry.objects.filter(pk=entry.pk).exists()
    seat_action.refresh_from_db()
    assert seat_action.undone_at is not None


def test_the_draw_also_seats_players_in_play_without_a_seat(
    tournament_in_play: Tournament, director: User
) -> None:
    seat(tournament_in_play, {1: {1: "Ann", 2: "Ben"}})
    (late,) = late_entries(tournament_in_play, ["Zed"])
    Entry.objects.filter(pk=late.pk).update(state=EntryState.PLAYING)

    (drawn,) = seating_draw(tournament_in_play, by=director)

    assert drawn.name == "Zed" and where(late) == (1, drawn.to_seat)


def test_only_directors_seat_players(tournament_in_play: Tournament, player: User) -> None:
    seat(tournament_in_play, {1: {1: "Ann", 2: "Ben"}})
    (late,) = late_entries(tournament_in_play, ["Zed"])
    with pytest.raises(PermissionDenied):
        seating_late_seat(late, by=player)
    with pytest.raises(PermissionDenied):
        seating_draw(tournament_in_play, by=player)
