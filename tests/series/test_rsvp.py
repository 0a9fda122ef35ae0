"""Who is coming: answers, seats with guests, the waiting list moving up by itself, late
drops, the host's minimum, and every refusal, through the service and the pages."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from series import selectors
from series.models import Event, Player, Rsvp, RsvpAnswer, Season
from series.services import demo_load
from series.services.rsvp import (
    RsvpError,
    rsvp_answer,
    rsvp_guest_names_clean,
    rsvp_seats_refresh,
)
from tests.conftest import PASSWORD
from tests.pages import without_tokens

pytestmark = pytest.mark.django_db

GOING, MAYBE, NO = RsvpAnswer.GOING, RsvpAnswer.MAYBE, RsvpAnswer.NO


def account(name: str, email: str = "") -> User:
    return User.objects.create_user(name, email=email, password=PASSWORD)


def client_of(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def answer(
    event: Event, user: User, what: str, guests: int = 0, names: str = "", **kw: Any
) -> Rsvp:
    return rsvp_answer(event.pk, user, what, guests, names, **kw)


def row(event: Event, user: User) -> Rsvp:
    return Rsvp.objects.get(event=event, player__user=user)


def snapshot(event: Event) -> list[tuple[Any, ...]]:
    return list(
        Rsvp.objects.filter(event=event)
        .order_by("pk")
        .values_list("player_id", "answer", "guests", "guest_names", "waiting", "answered_at")
    )


@pytest.fixture
def small_event(event: Event) -> Event:
    """Tomorrow's event with four seats and room for three on the waiting list."""
    event.capacity = 4
    event.waiting_list_size = 3
    event.save()
    return event


@pytest.fixture
def ann(db: None) -> User:
    return account("ann", "ann@example.com")


@pytest.fixture
def ben(db: None) -> User:
    return account("ben", "ben@example.com")


@pytest.fixture
def cal(db: None) -> User:
    return account("cal")


@pytest.fixture
def dee(db: None) -> User:
    return account("dee")


# -- seats, guests and the waiting list ------------------------------------------------------


def test_going_takes_a_seat_for_the_player_and_each_guest(small_event: Event, ann: User) -> None:
    rsvp = answer(small_event, ann, GOING, 2, "Marc, Léa")
    assert rsvp.answer == GOING and not rsvp.waiting and rsvp.guest_names == "Marc, Léa"
    summary = selectors.rsvp_summary(small_event)
    assert (summary.going_players, summary.going_seats, summary.seats_left) == (1, 3, 1)


def test_a_party_that_does_not_fit_waits_and_the_list_keeps_answer_order(
    small_event: Event, ann: User, ben: User, cal: User, dee: User
) -> None:
    now = timezone.now()
    answer(small_event, ann, GOING, 3, now=now)  # all four seats
    answer(small_event, ben, GOING, 0, now=now + timedelta(seconds=1))
    answer(small_event, cal, GOING, 1, now=now + timedelta(seconds=2))
    summary = selectors.rsvp_summary(small_event)
    assert [r.player.name for r in summary.waiting] == ["ben", "cal"]
    assert summary.waiting_place(row(small_event, cal)) == 2
    assert summary.seats_left == 0
    # Beyond capacity plus the waiting list (three people: ben, and cal with a guest).
    before = snapshot(small_event)
    with pytest.raises(RsvpError, match="full and so is its waiting list"):
        answer(small_event, dee, GOING)
    assert snapshot(small_event) == before
    assert not Rsvp.objects.filter(player__user=dee).exists()


def test_no_waiting_list_refuses_a_going_once_full(
    small_event: Event, ann: User, ben: User
) -> None:
    small_event.waiting_list_size = 0
    small_event.save()
    answer(small_event, ann, GOING, 3)
    with pytest.raises(RsvpError, match="no waiting list"):
        answer(small_event, ben, GOING)
    # Maybe is always taken: it holds no seat.
    assert answer(small_event, ben, MAYBE).answer == MAYBE


def test_a_party_too_big_for_the_free_seats_with_no_waiting_list_is_told_fewer_fit(
    small_event: Event, ann: User, ben: User, cal: User
) -> None:
    small_event.waiting_list_size = 0
    small_event.save()
    answer(small_event, ann, GOING, 1)  # two seats left
    before = snapshot(small_event)
    with pytest.raises(RsvpError) as refusal:
        answer(small_event, ben, GOING, 2)
    assert refusal.value.message == (
        "Only 2 seats are left: answer Going with at most 1 guest to get in."
    )
    assert snapshot(small_event) == before
    answer(small_event, ben, GOING, 0)  # one seat left
    with pytest.raises(RsvpError) as refusal:
        answer(small_event, cal, GOING, 1)
    assert refusal.value.message == "Only 1 seat is left: answer Going without guests to get in."


def test_a_party_too_big_for_the_free_seats_and_a_full_waiting_list_is_told_fewer_fit(
    small_event: Event, ann: User, ben: User, cal: User
) -> None:
    small_event.waiting_list_size = 2
    small_event.save()
    answer(small_event, ann, GOING, 2)  # one seat left
    with pytest.raises(RsvpError) as refusal:
        answer(small_event, ben, GOING, 2)  # three people: more than the list holds
    assert refusal.value.message == (
        "Only 1 seat is left and the waiting list has no room for 3: answer Going without "
        "guests to get in."
    )


def test_a_party_that_waits_for_want_of_seats_is_told_fewer_would_fit_now(
    small_event: Event, ann: User, ben: User
) -> None:
    answer(small_event, ann, GOING, 1)  # two seats left
    response = client_of(ben).post(
        rsvp_url(small_event), {"answer": "going", "guests": "2"}, HTTP_HX_REQUEST="true"
    )
    body = response.content.decode()
    assert "You're on the waiting list, number 1." in body
    assert "Only 2 seats are left: with at most 1 guest you would get in now." in body


def test_a_full_event_with_no_waiting_list_says_so(
    small_event: Event, ann: User, ben: User
) -> None:
    small_event.waiting_list_size = 0
    small_event.save()
    answer(small_event, ann, GOING, 3)
    body = client_of(ben).get(reverse("series:event", args=[small_event.pk])).content.decode()
    assert "Full: there is no waiting list." in body
    assert "waiting list." not in body.replace("Full: there is no waiting list.", "")


def test_a_full_event_with_a_full_waiting_list_says_so(
    small_event: Event, ann: User, ben: User, cal: User
) -> None:
    answer(small_event, ann, GOING, 3)
    answer(small_event, ben, GOING, 2)  # the three places of the waiting list
    body = client_of(cal).get(reverse("series:event", args=[small_event.pk])).content.decode()
    assert "Full, and so is the waiting list." in body
    assert "joins the waiting list" not in body


def test_no_capacity_means_nobody_waits(event: Event, ann: User, ben: User) -> None:
    answer(event, ann, GOING, 3)
    assert not answer(event, ben, GOING, 3).waiting
    assert selectors.rsvp_summary(event).seats_left is None


def test_a_drop_moves_the_waiting_list_up_in_answer_order_and_says_so(
    small_event: Event, ann: User, ben: User, cal: User, dee: User
) -> None:
    now = timezone.now()
    answer(small_event, ann, GOING, 1, now=now)
    answer(small_event, ben, GOING, 1, now=now + timedelta(seconds=1))
    answer(small_event, cal, GOING, 0, now=now + timedelta(seconds=2))
    answer(small_event, dee, GOING, 0, now=now + timedelta(seconds=3))
    assert row(small_event, cal).waiting and row(small_event, dee).waiting

    later = now + timedelta(minutes=5)
    answer(small_event, ann, NO, now=later)
    cal_rsvp, dee_rsvp = row(small_event, cal), row(small_event, dee)
    assert not cal_rsvp.waiting and cal_rsvp.promoted_at == later
    assert not dee_rsvp.waiting and dee_rsvp.promoted_at == later
    assert selectors.rsvp_summary(small_event).seats_left == 0


def test_a_party_too_big_for_the_free_seats_keeps_its_place_and_a_smaller_one_goes_in(
    small_event: Event, ann: User, ben: User, cal: User, dee: User
) -> None:
    now = timezone.now()
    answer(small_event, ann, GOING, 0, now=now)
    answer(small_event, ben, GOING, 2, now=now + timedelta(seconds=1))  # 4 of 4
    answer(small_event, cal, GOING, 1, now=now + timedelta(seconds=2))  # waits, a party of 2
    answer(small_event, dee, GOING, 0, now=now + timedelta(seconds=3))  # waits, alone
    answer(small_event, ann, MAYBE, now=now + timedelta(minutes=1))  # one seat frees

    assert row(small_event, cal).waiting  # two seats needed: still first in line
    assert not row(small_event, dee).waiting  # the one free seat
    assert selectors.rsvp_summary(small_event).waiting_place(row(small_event, cal)) == 1
    # The next seats go to the party that was passed over.
    answer(small_event, ben, GOING, 0, now=now + timedelta(minutes=2))
    assert not row(small_event, cal).waiting


def test_bringing_fewer_guests_frees_seats_for_the_waiting_list(
    small_event: Event, ann: User, ben: User
) -> None:
    answer(small_event, ann, GOING, 3)
    answer(small_event, ben, GOING)
    answer(small_event, ann, GOING, 2)
    assert not row(small_event, ben).waiting and row(small_event, ben).promoted_at


def test_changing_the_guests_keeps_ones_place_but_more_guests_need_free_seats(
    small_event: Event, ann: User, ben: User
) -> None:
    now = timezone.now()
    first = answer(small_event, ann, GOING, 0, now=now)
    answer(small_event, ben, GOING, 1, now=now + timedelta(seconds=1))
    assert answer(
        small_event, ann, GOING, 1, "Marc", now=now + timedelta(seconds=5)
    ).answered_at == (first.answered_at)
    before = snapshot(small_event)
    with pytest.raises(RsvpError, match="Only 2 seats are left"):
        answer(small_event, ann, GOING, 2)
    assert snapshot(small_event) == before


def test_lowering_the_capacity_keeps_confirmed_seats(small_event: Event, ann: User) -> None:
    answer(small_event, ann, GOING, 3)
    small_event.capacity = 2
    small_event.save()
    # Changing only the names is not refused: the seats held are kept.
    assert not answer(small_event, ann, GOING, 3, "A, B, C").waiting


def test_more_seats_from_the_host_move_the_waiting_list_up(
    small_event: Event, ann: User, ben: User, cal: User, dee: User
) -> None:
    answer(small_event, ann, GOING, 3)
    answer(small_event, ben, GOING)
    small_event.capacity = 5
    small_event.save()
    assert [r.player.name for r in rsvp_seats_refresh(small_event.pk)] == ["ben"]
    # A seat added with nothing following it up (a raw update, say) still goes to the
    # waiting list before a newer answer.
    answer(small_event, cal, GOING)
    Event.objects.filter(pk=small_event.pk).update(capacity=6)
    answer(small_event, dee, GOING)
    assert not row(small_event, cal).waiting and row(small_event, dee).waiting


def test_coming_back_to_going_goes_to_the_end_of_the_line(
    small_event: Event, ann: User, ben: User
) -> None:
    now = timezone.now()
    answer(small_event, ann, GOING, 3, now=now)
    answer(small_event, ben, GOING, 0, now=now + timedelta(seconds=1))
    answer(small_event, ben, MAYBE, now=now + timedelta(seconds=2))
    again = answer(small_event, ben, GOING, 0, now=now + timedelta(seconds=3))
    assert again.waiting and again.answered_at == now + timedelta(seconds=3)


def test_a_promoted_player_who_drops_has_nothing_left_to_be_told(
    small_event: Event, ann: User, ben: User
) -> None:
    answer(small_event, ann, GOING, 3)
    answer(small_event, ben, GOING)
    answer(small_event, ann, NO)
    assert row(small_event, ben).promoted_at
    assert answer(small_event, ben, MAYBE).promoted_at is None


# -- late drops and the minimum -----------------------------------------------------------


def test_a_confirmed_going_dropping_inside_the_window_is_flagged(
    small_event: Event, ann: User, ben: User, cal: User
) -> None:
    small_event.late_drop_hours = 48  # the event is tomorrow: inside the window
    small_event.save()
    answer(small_event, ann, GOING, 3)
    answer(small_event, ben, GOING)  # waits
    answer(small_event, cal, GOING, 0)
    answer(small_event, cal, MAYBE)  # was waiting: not a late drop
    dropped = answer(small_event, ann, NO)
    assert dropped.dropped_late_at is not None
    assert row(small_event, cal).dropped_late_at is None
    assert [r.player.name for r in selectors.rsvp_late_drops(small_event)] == ["ann"]
    # Back to Going: no longer listed as a drop.
    answer(small_event, ann, GOING)
    assert selectors.rsvp_late_drops(small_event) == []


def test_a_drop_before_the_window_is_not_flagged(small_event: Event, ann: User) -> None:
    small_event.late_drop_hours = 2
    small_event.save()
    answer(small_event, ann, GOING)
    assert answer(small_event, ann, NO).dropped_late_at is None


def test_below_the_minimum_only_inside_its_window(small_event: Event, ann: User, ben: User) -> None:
    start = small_event.starts_at
    small_event.rsvp_minimum = 3
    small_event.rsvp_minimum_hours = 12
    small_event.save()
    answer(small_event, ann, GOING)
    assert not selectors.rsvp_below_minimum(small_event, start - timedelta(hours=13))
    assert selectors.rsvp_below_minimum(small_event, start - timedelta(hours=11))
    # Guests count: they sit at the table too.
    answer(small_event, ben, GOING, 1)
    assert not selectors.rsvp_below_minimum(small_event, start - timedelta(hours=11))
    # Started, finished, or no minimum: nothing to tell.
    answer(small_event, ben, NO)
    assert not selectors.rsvp_below_minimum(small_event, start + timedelta(minutes=1))
    small_event.rsvp_minimum = None
    assert not selectors.rsvp_below_minimum(small_event, start - timedelta(hours=1))


# -- refusals ------------------------------------------------------------------------------


def test_past_and_finished_events_refuse_answers(event: Event, ann: User) -> None:
    with pytest.raises(RsvpError, match="started or is over"):
        answer(event, ann, GOING, now=event.starts_at + timedelta(minutes=1))
    event.finished_at = timezone.now()
    event.save()
    with pytest.raises(RsvpError, match="started or is over"):
        answer(event, ann, GOING)
    assert not Rsvp.objects.exists()


@pytest.mark.parametrize(
    ("what", "guests", "names", "message"),
    [
        ("yes", 0, "", "Choose Going, Maybe or Not going"),
        ("", 0, "", "Choose Going, Maybe or Not going"),
        (None, 0, "", "Choose Going, Maybe or Not going"),
        (GOING, 4, "", "from 0 to 3 guests"),
        (GOING, -1, "", "from 0 to 3 guests"),
        (GOING, "2", "", "from 0 to 3 guests"),
        (GOING, 1, "Marc, Léa", "more guests than you bring"),
        (GOING, 1, "marc@example.com", "not their e-mail addresses"),
        (GOING, 1, "x" * 201, "at most 200 characters"),
        (GOING, 1, "Marc\x00", "Null characters"),
    ],
)
def test_bad_answers_are_refused_and_change_nothing(
    small_event: Event, ann: User, what: Any, guests: Any, names: str, message: str
) -> None:
    with pytest.raises(RsvpError, match=message):
        rsvp_answer(small_event.pk, ann, what, guests, names)
    assert not Rsvp.objects.exists()


def test_guest_names_are_tidied() -> None:
    assert rsvp_guest_names_clean(" Marc ,, Léa ", 2) == "Marc, Léa"


def test_anonymous_cannot_answer_and_an_account_gets_its_player(event: Event) -> None:
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(RsvpError, match="Log in"):
        rsvp_answer(event.pk, AnonymousUser(), GOING)
    newcomer = account("newcomer")
    answer(event, newcomer, MAYBE)
    assert Player.objects.get(user=newcomer).name == "newcomer"


def test_no_such_event(ann: User) -> None:
    with pytest.raises(RsvpError, match="does not exist"):
        rsvp_answer(999_999, ann, GOING)


@pytest.mark.django_db(transaction=True)
def test_two_answers_for_the_last_seat_at_once_give_one_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no row locks; run with a PostgreSQL DATABASE_URL")
    today = timezone.localdate()
    season = Season.objects.create(name="S", starts_on=today, ends_on=today + timedelta(30))
    event = Event.objects.create(
        season=season,
        name="Night",
        starts_at=timezone.now() + timedelta(days=2),
        buy_in=20,
        capacity=1,
    )
    users = [account("one"), account("two")]
    # Slow the seat count down so both transactions are inside it together without the lock.
    real = selectors.rsvp_going_seats

    def slow(*args: Any, **kwargs: Any) -> int:
        taken = real(*args, **kwargs)
        time.sleep(0.3)
        return taken

    monkeypatch.setattr(selectors, "rsvp_going_seats", slow)
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def run(user: User) -> None:
        try:
            barrier.wait(timeout=10)
            rsvp_answer(event.pk, user, GOING)
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(user,)) for user in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert sorted(Rsvp.objects.values_list("waiting", flat=True)) == [False, True]


# -- the pages ---------------------------------------------------------------------------


def rsvp_url(event: Event) -> str:
    return reverse("series:rsvp", args=[event.pk])


def test_a_player_answers_on_the_event_page_without_javascript(
    small_event: Event, ann: User
) -> None:
    client = client_of(ann)
    response = client.post(
        rsvp_url(small_event), {"answer": "going", "guests": "1", "guest_names": "Marc"}
    )
    assert response.status_code == 302
    assert response["Location"].endswith(f"/series/events/{small_event.pk}/#rsvp")
    page = client.get(response["Location"]).content.decode()
    assert "You're going." in page and "You bring 1 guest." in page
    assert "2 seats left" in page and "2 of 4 seats" in page
    assert "(Marc)" in page  # the player sees their own guests' names


def test_htmx_swaps_the_block_and_shows_the_waiting_place(
    small_event: Event, ann: User, ben: User
) -> None:
    answer(small_event, ann, GOING, 3)
    response = client_of(ben).post(
        rsvp_url(small_event), {"answer": "going", "guests": "0"}, HTTP_HX_REQUEST="true"
    )
    body = response.content.decode()
    assert response.status_code == 200 and body.startswith('<section id="rsvp"')
    assert "You're on the waiting list, number 1." in body
    assert "you are on the waiting list" in body  # the message, in the block
    assert "Full: a Going answer joins the waiting list." in body


def test_another_players_id_in_the_form_is_ignored(
    small_event: Event, ann: User, ben: User
) -> None:
    victim = Player.objects.create(user=ben, name="ben")
    client_of(ann).post(
        rsvp_url(small_event),
        {"answer": "no", "guests": "0", "player": str(victim.pk), "player_id": str(victim.pk)},
    )
    assert list(Rsvp.objects.values_list("player__user__username", "answer")) == [("ann", "no")]


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"answer": "going", "guests": "9"}, "from 0 to 3"),
        ({"answer": "going", "guests": "²"}, "whole number"),
        ({"answer": "going", "guests": "1e400"}, "whole number"),
        ({"answer": "maybe!", "guests": "0"}, "Choose Going, Maybe or Not going"),
        ({"guests": "0"}, "Choose Going, Maybe or Not going"),
        ({"answer": "going", "guests": "1", "guest_names": "a\x00b"}, "Null characters"),
    ],
)
def test_a_tampered_form_gets_a_message_and_changes_nothing(
    small_event: Event, ann: User, form: dict[str, str], message: str
) -> None:
    client = client_of(ann)
    response = client.post(rsvp_url(small_event), form, follow=True)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Rsvp.objects.exists()


def test_a_past_event_refuses_on_the_page_too(event: Event, ann: User) -> None:
    event.starts_at = timezone.now() - timedelta(hours=1)
    event.save()
    response = client_of(ann).post(rsvp_url(event), {"answer": "going"}, follow=True)
    assert "answers are closed" in response.content.decode()
    assert not Rsvp.objects.exists()
    assert 'id="rsvp"' not in response.content.decode()  # no block once it started


def test_anonymous_is_sent_to_log_in_and_sees_the_counts(small_event: Event, ann: User) -> None:
    answer(small_event, ann, GOING)
    response = Client().post(rsvp_url(small_event), {"answer": "going"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    page = Client().get(reverse("series:event", args=[small_event.pk])).content.decode()
    assert "Log in to answer" in page and "1 going" in page and "3 seats left" in page


def test_unknown_event_is_404(ann: User) -> None:
    assert client_of(ann).post(reverse("series:rsvp", args=[999_999]), {}).status_code == 404


def test_get_is_not_allowed(small_event: Event, ann: User) -> None:
    assert client_of(ann).get(rsvp_url(small_event)).status_code == 405


def test_no_email_address_is_ever_shown(small_event: Event, ann: User, ben: User) -> None:
    # A username may itself be an address.
    mailer = account("zed@example.org", "zed@example.org")
    answer(small_event, ann, GOING, 1, "Marc")
    answer(small_event, ben, MAYBE)
    answer(small_event, mailer, GOING)
    for client in (client_of(ben), client_of(account("host"))):
        page = client.get(reverse("series:event", args=[small_event.pk])).content.decode()
        assert "@example." not in page
        assert "zed" in page
    # A visitor who is not logged in reads no name at all, only the counts.
    page = Client().get(reverse("series:event", args=[small_event.pk])).content.decode()
    assert "@example." not in page and "zed" not in without_tokens(page) and "2 going" in page
    # Another player sees the guest count, not the names.
    page = client_of(ben).get(reverse("series:event", args=[small_event.pk])).content.decode()
    assert "+1" in page and "Marc" not in page


def test_the_director_sees_counts_names_the_minimum_and_late_drops(
    small_event: Event, director_client: Client, ann: User, ben: User, cal: User
) -> None:
    small_event.rsvp_minimum = 6
    small_event.rsvp_minimum_hours = 48
    small_event.late_drop_hours = 48
    small_event.save()
    answer(small_event, ann, GOING, 1, "Marc")
    answer(small_event, ben, GOING)
    answer(small_event, ben, NO)
    answer(small_event, cal, MAYBE)
    page = director_client.get(reverse("director_dashboard")).content.decode()
    assert "Who's coming" in page
    assert "2 of 4 seats" in page and "1 going" in page and "1 maybe" in page
    assert "Below the minimum: 2 people coming, 6 needed." in page
    assert "Late drop: ben" in page
    assert "@example." not in page
    event_page = director_client.get(reverse("series:event", args=[small_event.pk])).content
    assert "(Marc)" in event_page.decode()  # the director sees the guests' names


def test_the_admin_saving_more_seats_moves_the_list_up(
    small_event: Event, director: User, ann: User, ben: User
) -> None:
    from django.contrib import admin

    from series.admin import EventAdmin

    answer(small_event, ann, GOING, 3)
    answer(small_event, ben, GOING)
    small_event.capacity = 5
    small_event.save()
    request = type("R", (), {"user": director})()
    form = type("F", (), {"instance": small_event, "save_m2m": lambda self: None})()
    EventAdmin(Event, admin.site).save_related(request, form, [], True)  # type: ignore[arg-type]
    assert not row(small_event, ben).waiting


def test_the_demo_has_answers_on_its_first_event() -> None:
    assert demo_load() is not None
    first = Event.objects.order_by("starts_at").first()
    assert first is not None
    summary = selectors.rsvp_summary(first)
    assert (summary.going_seats, summary.seats_left, summary.waiting_players) == (4, 2, 1)
    assert summary.maybe_count == 1 and summary.not_going_count == 1


def test_a_draft_event_takes_no_answer(event: Event, ann: User) -> None:
    # A draft (no publication time) invites nobody; answers would move a waiting list that
    # no e-mail tells about.
    Event.objects.filter(pk=event.pk).update(published_at=None)
    with pytest.raises(RsvpError, match="not published"):
        rsvp_answer(event.pk, ann, GOING)
    assert not Rsvp.objects.exists()
