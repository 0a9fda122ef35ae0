"""Guests merged into an account: every row follows, clashes are refused, standings recompute."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from series.models import Player, Result, ResultChange, Standing, Transfer
from series.services import players as player_services
from series.services.players import PlayerError, player_merge
from series.services.settle import settle_up_compute
from tests.conftest import PASSWORD
from tests.series.night import account, finished_event, guest, season
from tests.tournaments.factories import sample_tournament
from tournaments.models import Entry, EntryState

pytestmark = pytest.mark.django_db


@pytest.fixture
def scheduled(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    monkeypatch.setattr(player_services, "standings_schedule", calls.append)
    return calls


@pytest.fixture
def bob() -> Player:
    """Bob walked in twice as a guest before signing up."""
    return guest("Bob")


def test_every_row_of_the_guest_moves_to_the_account(
    bob: Player, director: User, scheduled: list[int]
) -> None:
    s = season()
    ann, cal = account("Ann"), account("Cal")
    bobby = account("Bobby")  # Bob's new account, with a result of its own
    one = finished_event(s, [(bob, 1, 40, 25), (ann, 2, 0, 25)], number=1)
    two = finished_event(s, [(cal, 1, 40, 25), (bob, 2, 0, 25)], number=2)
    three = finished_event(s, [(bobby, 1, 40, 25), (ann, 2, 0, 25)], number=3)
    settle_up_compute(one.pk)
    Standing.objects.create(season=s, player=bob, rank=1, points=10)
    tournament = sample_tournament()
    entry = Entry.objects.create(tournament=tournament, player=bob, state=EntryState.REGISTERED)

    merged = player_merge(bob.pk, bobby.pk, by=director)

    assert merged == bobby
    assert not Player.objects.filter(pk=bob.pk).exists()
    assert set(Result.objects.filter(player=bobby).values_list("event_id", flat=True)) == {
        one.pk,
        two.pk,
        three.pk,
    }
    assert Entry.objects.get(pk=entry.pk).player == bobby
    assert Transfer.objects.get(event=one).payee == bobby
    # The guest's standings were derived rows: gone, and the season recomputes.
    assert not Standing.objects.filter(player_id=bob.pk).exists()
    assert scheduled == [s.pk]


def test_an_account_that_never_played_takes_the_guest_row(
    bob: Player, director: User, scheduled: list[int]
) -> None:
    s = season()
    finished_event(s, [(bob, 1, 0, 0)])
    user = User.objects.create_user("bob", password=PASSWORD)
    merged = player_merge(bob.pk, user, by=director)
    assert merged.pk == bob.pk and merged.user == user and not merged.is_guest
    assert scheduled == [s.pk]


def test_merging_into_an_account_by_its_user(
    bob: Player, director: User, scheduled: list[int]
) -> None:
    bobby = account("Bobby")
    finished_event(season(), [(bob, 1, 0, 0)])
    assert player_merge(bob.pk, bobby.user, by=director) == bobby  # type: ignore[arg-type]
    assert Result.objects.get().player == bobby


def test_a_result_of_both_in_one_event_is_refused(
    bob: Player, director: User, scheduled: list[int]
) -> None:
    bobby = account("Bobby")
    s = season()
    finished_event(s, [(bob, 1, 0, 0), (bobby, 2, 0, 0)], number=4)
    finished_event(s, [(bob, 1, 0, 0)], number=5)
    with pytest.raises(PlayerError) as error:
        player_merge(bob.pk, bobby.pk, by=director)
    assert str(error.value) == (
        "Bob and Bobby both have a result in Event 4: correct that event's results first "
        "(one result per player)."
    )
    assert Result.objects.filter(player=bob).count() == 2 and scheduled == []


def test_an_entry_of_both_in_one_tournament_is_refused(bob: Player, director: User) -> None:
    bobby = account("Bobby")
    tournament = sample_tournament()
    Entry.objects.create(tournament=tournament, player=bob, state=EntryState.REGISTERED)
    Entry.objects.create(tournament=tournament, player=bobby, state=EntryState.REGISTERED)
    with pytest.raises(PlayerError) as error:
        player_merge(bob.pk, bobby.pk, by=director)
    assert str(error.value) == (
        f"Bob and Bobby both have entries where only one may: Bob #1 ({tournament})."
    )
    assert Entry.objects.filter(player=bob).exists()


def test_a_guest_target_or_a_non_guest_is_refused(bob: Player, director: User) -> None:
    other = guest("Robert")
    with pytest.raises(PlayerError, match="Robert is a guest with no account"):
        player_merge(bob.pk, other.pk, by=director)
    ann = account("Ann")
    with pytest.raises(PlayerError, match="Ann has an account: only a guest"):
        player_merge(ann.pk, account("Cal").pk, by=director)
    with pytest.raises(PlayerError, match="into itself"):
        player_merge(bob.pk, bob.pk, by=director)
    with pytest.raises(PlayerError, match="does not exist"):
        player_merge(10_000, ann.pk, by=director)


# The director's page ----------------------------------------------------------------------


def test_the_guests_page_is_for_directors(
    client: Client, player_client: Client, bob: Player
) -> None:
    url = reverse("series:guests")
    assert client.get(url).status_code == 302
    assert player_client.get(url).status_code == 403
    user = User.objects.create_user("bob", password=PASSWORD)
    assert player_client.post(url, {"guest": bob.pk, "account": user.pk}).status_code == 403
    assert Player.objects.get(pk=bob.pk).is_guest


def test_the_director_merges_a_guest_from_the_page(
    director_client: Client, bob: Player, scheduled: list[int]
) -> None:
    finished_event(season(), [(bob, 1, 0, 0)])
    user = User.objects.create_user("bob", password=PASSWORD)
    page = director_client.get(reverse("series:guests")).content.decode()
    assert "Bob" in page and "1 result" in page and "Merge into" in page
    response = director_client.post(
        reverse("series:guests"), {"guest": bob.pk, "account": user.pk}, follow=True
    )
    assert "Bob&#x27;s results are now bob&#x27;s." in response.content.decode()
    assert Player.objects.get(pk=bob.pk).user == user
    assert "No guests" in response.content.decode()


def test_the_page_shows_a_refused_merge(director_client: Client, bob: Player) -> None:
    bobby = account("Bobby")
    finished_event(season(), [(bob, 1, 0, 0), (bobby, 2, 0, 0)])
    response = director_client.post(
        reverse("series:guests"),
        {"guest": bob.pk, "account": bobby.user.pk},
        follow=True,  # type: ignore[union-attr]
    )
    assert "both have a result in Event 1" in response.content.decode()
    assert Player.objects.filter(pk=bob.pk).exists()
    assert not ResultChange.objects.exists()


def test_the_account_standing_counts_the_guest_results_after_the_merge(
    bob: Player, director: User, django_capture_on_commit_callbacks: object
) -> None:
    from django.test import override_settings

    from series.services.standings import standings_recompute

    s = season()
    bobby, ann, cal, dee = account("Bobby"), account("Ann"), account("Cal"), account("Dee")
    finished_event(s, [(bob, 1, 0, 0), (ann, 2, 0, 0), (cal, 3, 0, 0), (dee, 4, 0, 0)], number=1)
    finished_event(s, [(bobby, 1, 0, 0), (ann, 2, 0, 0), (cal, 3, 0, 0), (dee, 4, 0, 0)], number=2)
    standings_recompute(s.pk)
    assert Standing.objects.get(player=bobby).events == 1
    with override_settings(SERIES_STANDINGS_INLINE=True):
        with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
            player_merge(bob.pk, bobby.pk, by=director)
    standing = Standing.objects.get(player=bobby)
    assert standing.events == 2 and standing.wins == 2 and standing.rank == 1
