"""E-mail notices: what is due to whom, in which language, sent exactly once, and the
one-click unsubscribe link (``series.services.mailings``, ``series.views_mailings``)."""

from __future__ import annotations

import email
import os
import smtplib
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail, signing
from django.core.mail import EmailMessage
from django.core.mail.backends.locmem import EmailBackend as LocmemBackend
from django.db import connection, connections
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext

from series.mail import EmlFileBackend
from series.models import (
    Event,
    Notice,
    NoticeKind,
    NoticeSettings,
    NoticeState,
    NoticeTopic,
    Player,
    Result,
    Rsvp,
    RsvpAnswer,
    Season,
)
from series.services import mailings
from series.services.mailing_messages import (
    unsubscribe_token,
    unsubscribe_url,
    unsubscribe_user_id,
)
from series.services.mailings import (
    mailings_due,
    mailings_run,
    mailings_send,
    mailings_unconfirmed,
    notice_resolve,
)
from series.services.standings import standings_recompute
from series.tasks import mailings_run as mailings_run_task
from tests.conftest import PASSWORD

STARTS = timedelta(days=1)


def person(name: str, *, email: str | None = None, language: str = "", active: bool = True) -> User:
    """An account with its series player, reachable at ``<name>@example.org``."""
    user = User.objects.create_user(
        name,
        email=f"{name}@example.org" if email is None else email,
        password=PASSWORD,
        is_active=active,
    )
    Player.objects.create(user=user, name=name.title(), language=language)
    return user


def answer(event: Event, user: User, kind: str, *, before: timedelta = timedelta(days=5)) -> Rsvp:
    """``user`` answered ``kind`` for the event ``before`` its start."""
    at = event.starts_at - before
    rsvp = Rsvp.objects.create(
        event=event, player=Player.objects.get(user=user), answer=kind, answered_at=at
    )
    Rsvp.objects.filter(pk=rsvp.pk).update(updated_at=at)
    return rsvp


def sent_to() -> list[str]:
    """Every address a message went to, once per message."""
    return sorted(address for message in mail.outbox for address in message.to)


@pytest.fixture
def ann(db: None) -> User:
    return person("ann")


@pytest.fixture
def ben(db: None) -> User:
    return person("ben")


@pytest.fixture
def host(director: User) -> User:
    """The director, with an address: the hosts' alerts go to them."""
    director.email = "dana@example.org"
    director.save(update_fields=["email"])
    return director


@pytest.fixture
def night(event: Event) -> Event:
    """Tomorrow's event, announced a week ago, its invitations queued long since."""
    event.published_at = timezone.now() - timedelta(days=7)
    event.invitations_queued_at = event.published_at
    event.save(update_fields=["published_at", "invitations_queued_at"])
    return event


def keys() -> list[str]:
    return sorted(Notice.objects.values_list("key", flat=True))


# -- invitations ---------------------------------------------------------------------------


def test_a_published_event_invites_every_player_with_an_address_once(
    event: Event, ann: User, ben: User
) -> None:
    person("nomail", email="")
    person("gone", active=False)
    Player.objects.create(name="Walk-in guest")
    NoticeSettings.objects.create(user=ben, invitations=False)

    assert mailings_due() == 1
    assert keys() == [f"invitation:event:{event.pk}:user:{ann.pk}"]
    assert mailings_due() == 0  # a second beat records nothing more
    event.refresh_from_db()
    assert event.invitations_queued_at is not None

    mailings_send()
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]
    assert "Thursday PLO8" in mail.outbox[0].subject
    assert reverse("series:event", args=[event.pk]) in mail.outbox[0].body


def test_a_draft_is_not_announced_until_it_is_published(event: Event, ann: User) -> None:
    Event.objects.filter(pk=event.pk).update(published_at=None)
    assert mailings_due() == 0
    Event.objects.filter(pk=event.pk).update(published_at=timezone.now() + timedelta(hours=1))
    assert mailings_due() == 0
    assert mailings_due(timezone.now() + timedelta(hours=2)) == 1


def test_events_from_before_the_notices_are_not_announced_again(night: Event, ann: User) -> None:
    # The migration marks existing events' invitations queued (``night`` is such an event).
    assert mailings_due() == 0


def test_migration_marks_existing_events_published_and_invited(db: None) -> None:
    from importlib import import_module

    from django.apps import apps

    migration = import_module("series.migrations.0013_notices")
    season = Season.objects.create(
        name="Old", starts_on=timezone.localdate(), ends_on=timezone.localdate()
    )
    old = Event.objects.create(
        season=season, name="Old night", starts_at=timezone.now() + STARTS, buy_in=10
    )
    Event.objects.filter(pk=old.pk).update(invitations_queued_at=None)
    migration.existing_events_invited(apps, None)
    old.refresh_from_db()
    assert old.published_at is not None
    assert old.invitations_queued_at == old.published_at


# -- reminders -----------------------------------------------------------------------------


def test_reminders_go_two_days_and_three_hours_before_to_going_and_maybe(
    night: Event, ann: User, ben: User
) -> None:
    cal = person("cal")
    dee = person("dee")
    answer(night, ann, RsvpAnswer.GOING)
    answer(night, ben, RsvpAnswer.MAYBE)
    answer(night, cal, RsvpAnswer.NO)
    NoticeSettings.objects.create(user=dee, reminders=False)
    answer(night, dee, RsvpAnswer.GOING)
    start = night.starts_at

    assert mailings_due(start - timedelta(hours=49)) == 0
    assert mailings_due(start - timedelta(hours=47)) == 2
    assert mailings_due(start - timedelta(hours=20)) == 0
    assert mailings_due(start - timedelta(hours=2)) == 2
    assert keys() == sorted(
        f"{kind}:event:{night.pk}:user:{user.pk}"
        for kind in ("reminder_48h", "reminder_3h")
        for user in (ann, ben)
    )


def test_inside_three_hours_only_the_three_hour_reminder_is_due(night: Event, ann: User) -> None:
    answer(night, ann, RsvpAnswer.GOING)
    mailings_due(night.starts_at - timedelta(hours=1))
    assert Notice.objects.get().kind == NoticeKind.REMINDER_3H


def test_someone_who_answered_inside_the_window_is_not_reminded(night: Event, ann: User) -> None:
    answer(night, ann, RsvpAnswer.GOING, before=timedelta(hours=30))
    assert mailings_due(night.starts_at - timedelta(hours=29)) == 0
    assert mailings_due(night.starts_at - timedelta(hours=2)) == 1


def test_a_reminder_found_due_is_skipped_if_the_player_dropped_since(
    night: Event, ann: User
) -> None:
    rsvp = answer(night, ann, RsvpAnswer.GOING)
    mailings_due(night.starts_at - timedelta(hours=2))
    Rsvp.objects.filter(pk=rsvp.pk).update(answer=RsvpAnswer.NO)
    outcome = mailings_send(now=night.starts_at - timedelta(hours=2))
    assert (outcome.sent, outcome.skipped) == (0, 1)
    assert mail.outbox == []
    assert Notice.objects.get().state == NoticeState.SKIPPED


def test_a_reminder_is_not_sent_after_the_event_started(night: Event, ann: User) -> None:
    answer(night, ann, RsvpAnswer.GOING)
    mailings_due(night.starts_at - timedelta(hours=2))
    mailings_send(now=night.starts_at + timedelta(minutes=5))
    assert mail.outbox == []


# -- the waiting list ----------------------------------------------------------------------


def test_a_player_moved_up_from_the_waiting_list_is_told_once(night: Event, ann: User) -> None:
    rsvp = answer(night, ann, RsvpAnswer.GOING, before=timedelta(hours=30))  # no reminder yet
    assert mailings_due() == 0
    Rsvp.objects.filter(pk=rsvp.pk).update(promoted_at=timezone.now() - timedelta(minutes=1))
    assert mailings_due() == 1
    assert mailings_due() == 0
    mailings_send()
    [message] = mail.outbox
    assert message.subject == "You got a seat: Thursday PLO8"
    assert "a seat opened up for Thursday PLO8, and it is yours" in message.body


# -- results -------------------------------------------------------------------------------


def finish(event: Event, *players: User, at: datetime) -> None:
    for place, user in enumerate(players, start=1):
        Result.objects.create(
            event=event,
            player=Player.objects.get(user=user),
            place=place,
            prize=60 if place == 1 else 0,
            paid_in=25,
        )
    Event.objects.filter(pk=event.pk).update(finished_at=at)
    standings_recompute(event.season_id)


def test_results_and_standings_go_to_the_night_s_players_after_a_delay(
    night: Event, ann: User, ben: User
) -> None:
    cal = person("cal")
    person("outsider")  # neither played nor answered
    answer(night, cal, RsvpAnswer.MAYBE)
    finished = timezone.now()
    finish(night, ann, ben, at=finished)

    assert mailings_due(finished + timedelta(minutes=5)) == 0
    assert mailings_due(finished + timedelta(minutes=11)) == 3
    mailings_send(now=finished + timedelta(minutes=11))
    assert sorted(a for m in mail.outbox for a in m.to) == [
        "ann@example.org",
        "ben@example.org",
        "cal@example.org",
    ]
    ben_mail = next(m for m in mail.outbox if m.to == ["ben@example.org"])
    assert ben_mail.subject == "Results: Thursday PLO8"
    assert "1. Ann · won 60" in ben_mail.body
    assert "You finished in place 2 of 2." in ben_mail.body
    assert "Standings of Spring" in ben_mail.body
    assert reverse("series:standings", args=[night.season_id]) in ben_mail.body


def test_old_results_are_not_mailed(night: Event, ann: User) -> None:
    finish(night, ann, at=timezone.now() - timedelta(days=3))
    assert mailings_due() == 0


# -- the hosts -----------------------------------------------------------------------------


def test_the_hosts_are_told_once_when_too_few_are_going(
    night: Event, host: User, ann: User
) -> None:
    Event.objects.filter(pk=night.pk).update(rsvp_minimum=4, rsvp_minimum_hours=30)
    answer(night, ann, RsvpAnswer.GOING)
    mailings_due()
    mailings_due()
    notice = Notice.objects.get(kind=NoticeKind.HOST_MINIMUM)
    assert notice.recipient == host
    Notice.objects.exclude(pk=notice.pk).delete()  # ann's reminder is another test's
    mailings_send()
    [message] = mail.outbox
    assert message.to == ["dana@example.org"]
    assert "Only 1 going to Thursday PLO8" in message.body
    assert "ann@example.org" not in message.body


def test_each_late_drop_is_flagged_to_the_hosts(night: Event, host: User, ann: User) -> None:
    rsvp = answer(night, ann, RsvpAnswer.GOING)
    Rsvp.objects.filter(pk=rsvp.pk).update(
        answer=RsvpAnswer.NO, dropped_late_at=timezone.now() - timedelta(minutes=2)
    )
    assert mailings_due() == 1
    mailings_send()
    [message] = mail.outbox
    assert message.subject == "Late drop: Ann, Thursday PLO8"
    assert message.to == ["dana@example.org"]
    assert "ann@example.org" not in message.body


def test_a_player_who_is_no_director_gets_no_host_alert(night: Event, ann: User) -> None:
    Event.objects.filter(pk=night.pk).update(rsvp_minimum=4, rsvp_minimum_hours=30)
    answer(night, ann, RsvpAnswer.GOING)
    mailings_due()
    assert not Notice.objects.filter(kind=NoticeKind.HOST_MINIMUM).exists()


# -- language ------------------------------------------------------------------------------


def test_a_message_is_written_in_the_reader_s_language(event: Event) -> None:
    Event.objects.filter(pk=event.pk).update(venue="")
    person("amelie", language="fr")
    english = person("eve", language="fr")
    NoticeSettings.objects.create(user=english, language="en")
    mailings_due()
    mailings_send()
    by_address = {m.to[0]: m for m in mail.outbox}
    french, other = by_address["amelie@example.org"], by_address["eve@example.org"]
    with translation.override("fr"):
        when = formats.date_format(timezone.localtime(event.starts_at), "DATETIME_FORMAT")
        subject = gettext("New event: %(event)s, %(when)s") % {"event": event.name, "when": when}
    assert french.subject == subject
    assert when in french.body  # "vendredi 27 novembre 2026 · 19 h 30"
    assert "En ligne" in french.body
    assert other.subject.startswith("New event: Thursday PLO8")
    assert "Online" in other.body


# -- exactly once --------------------------------------------------------------------------


def test_running_the_task_twice_sends_each_message_once(event: Event, ann: User, ben: User) -> None:
    assert mailings_run_task() == 2
    assert mailings_run_task() == 0
    assert sent_to() == ["ann@example.org", "ben@example.org"]
    assert set(Notice.objects.values_list("state", flat=True)) == {NoticeState.SENT}


def test_a_lost_task_is_made_up_by_the_next_run(event: Event, ann: User) -> None:
    mailings_due()  # the run that found it died before it sent anything (or was lost)
    assert mail.outbox == []
    assert mailings_run() == 1
    assert sent_to() == ["ann@example.org"]


class Crash(BaseException):
    """The process dies here (not an error the sender could catch)."""


def test_a_crash_after_the_server_took_the_message_never_sends_it_again(
    event: Event, ann: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    mailings_due()
    real_send = LocmemBackend.send_messages

    def send_then_die(self: LocmemBackend, messages: list[EmailMessage]) -> int:
        real_send(self, messages)
        raise Crash

    monkeypatch.setattr(LocmemBackend, "send_messages", send_then_die)
    with pytest.raises(Crash):
        mailings_send()
    monkeypatch.undo()
    notice = Notice.objects.get()
    assert notice.state == NoticeState.SENDING  # committed before the server was asked

    assert mailings_run() == 0
    assert mailings_run(timezone.now() + timedelta(hours=1)) == 0
    assert sent_to() == ["ann@example.org"]  # once, not twice
    # The director is shown it once it has been unconfirmed for a while.
    assert list(mailings_unconfirmed()) == []
    assert list(mailings_unconfirmed(timezone.now() + timedelta(minutes=11))) == [notice]


def test_a_crash_before_sending_leaves_it_to_the_director(
    event: Event, ann: User, monkeypatch: pytest.MonkeyPatch, director_client: Client
) -> None:
    mailings_due()

    def die(self: LocmemBackend, messages: list[EmailMessage]) -> int:
        raise Crash

    monkeypatch.setattr(LocmemBackend, "send_messages", die)
    with pytest.raises(Crash):
        mailings_send()
    monkeypatch.undo()
    assert mailings_run() == 0
    assert mail.outbox == []
    notice = Notice.objects.get()
    Notice.objects.filter(pk=notice.pk).update(claimed_at=timezone.now() - timedelta(hours=1))

    page = director_client.get(reverse("director_dashboard")).content.decode()
    assert "1 message may not have gone out" in page
    assert "ann@example.org" not in page
    response = director_client.post(
        reverse("series:notice_decide", args=[notice.pk]), {"action": "send_again"}
    )
    assert response.status_code == 302
    assert mailings_run() == 1
    assert sent_to() == ["ann@example.org"]
    assert (
        "may not have gone out"
        not in director_client.get(reverse("director_dashboard")).content.decode()
    )


def test_the_director_may_let_an_unconfirmed_message_be(event: Event, ann: User) -> None:
    mailings_due()
    Notice.objects.update(state=NoticeState.SENDING, claimed_at=timezone.now() - timedelta(hours=1))
    notice = Notice.objects.get()
    notice_resolve(notice.pk, send_again=False)
    notice.refresh_from_db()
    assert notice.state == NoticeState.SKIPPED
    assert mailings_run() == 0


def test_deciding_on_a_message_that_needs_no_decision_changes_nothing(
    event: Event, ann: User, director_client: Client
) -> None:
    mailings_due()
    notice = Notice.objects.get()
    for notice_id, action in ((notice.pk, "send_again"), (notice.pk, "delete"), (99999, "let_be")):
        response = director_client.post(
            reverse("series:notice_decide", args=[notice_id]), {"action": action}, follow=True
        )
        assert response.status_code == 200
        assert b'class="message message-error"' in response.content
    notice.refresh_from_db()
    assert notice.state == NoticeState.PENDING


def test_a_player_cannot_decide_on_messages(player_client: Client, event: Event, ann: User) -> None:
    mailings_due()
    notice = Notice.objects.get()
    response = player_client.post(
        reverse("series:notice_decide", args=[notice.pk]), {"action": "let_be"}
    )
    assert response.status_code == 403


def test_a_message_the_server_refused_is_tried_again_later(
    event: Event, ann: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    mailings_due()

    def refuse(self: LocmemBackend, messages: list[EmailMessage]) -> int:
        raise smtplib.SMTPRecipientsRefused({"ann@example.org": (450, b"try later")})

    monkeypatch.setattr(LocmemBackend, "send_messages", refuse)
    now = timezone.now()
    assert mailings_send(now=now).refused == 1
    monkeypatch.undo()
    notice = Notice.objects.get()
    assert (notice.state, notice.attempts) == (NoticeState.PENDING, 1)
    assert "SMTPRecipientsRefused" in notice.last_error
    assert mailings_send(now=now + timedelta(minutes=1)).claimed == 0  # not at once
    assert mailings_send(now=now + timedelta(minutes=6)).sent == 1
    assert sent_to() == ["ann@example.org"]


def test_a_message_refused_every_time_ends_failed_and_is_shown(
    event: Event, ann: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    mailings_due()

    def refuse(self: LocmemBackend, messages: list[EmailMessage]) -> int:
        raise smtplib.SMTPDataError(554, b"no")

    monkeypatch.setattr(LocmemBackend, "send_messages", refuse)
    now = timezone.now()
    for attempt in range(mailings.ATTEMPTS_MAX):
        mailings_send(now=now + attempt * timedelta(minutes=6))
    notice = Notice.objects.get()
    assert notice.state == NoticeState.FAILED
    assert list(mailings_unconfirmed()) == [notice]


def test_a_connection_lost_while_sending_is_never_sent_again_by_itself(
    event: Event, ann: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The server may have taken the message before the line dropped: it stays "sending",
    # no later run sends it, and the director is shown it may not have gone out.
    mailings_due()

    def drop(self: LocmemBackend, messages: list[EmailMessage]) -> int:
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")

    monkeypatch.setattr(LocmemBackend, "send_messages", drop)
    now = timezone.now()
    assert mailings_send(now=now).sent == 0
    monkeypatch.undo()
    notice = Notice.objects.get()
    assert notice.state == NoticeState.SENDING
    assert "SMTPServerDisconnected" in notice.last_error
    for minutes in (6, 30, 120):
        assert mailings_send(now=now + timedelta(minutes=minutes)).claimed == 0
    assert sent_to() == []
    assert list(mailings_unconfirmed(now + timedelta(minutes=11))) == [notice]


def test_a_row_taken_back_by_the_director_mid_batch_is_not_also_sent_by_the_first_sender(
    event: Event, ann: User, ben: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A slow first message: meanwhile the director sends the second one again, and another
    # run sends it. The first sender, reaching it, finds it no longer its own.
    mailings_due()
    first, second = Notice.objects.order_by("created_at", "pk")
    real_send = LocmemBackend.send_messages

    def slow_then_taken_back(self: LocmemBackend, messages: list[EmailMessage]) -> int:
        if messages[0].to == [first.recipient.email]:
            # "Send again" on the second row, and another run sends it.
            Notice.objects.filter(pk=second.pk).update(
                state=NoticeState.PENDING, claim="", claimed_at=None
            )
            monkeypatch.setattr(LocmemBackend, "send_messages", real_send)
            assert mailings_send(now=timezone.now()).sent == 1
        return real_send(self, messages)

    monkeypatch.setattr(LocmemBackend, "send_messages", slow_then_taken_back)
    outcome = mailings_send(now=timezone.now())
    assert outcome.sent == 1
    assert sorted(sent_to()) == sorted([first.recipient.email, second.recipient.email])


class LineDropsAfter(LocmemBackend):
    """A mail server that takes ``TAKES`` messages, then drops the line: like Django's SMTP
    backend, every later send on the same connection fails at once, before anything is
    handed over."""

    TAKES = 2

    def open(self) -> bool:
        self.taken = 0
        return True

    def send_messages(self, messages: Any) -> int:
        if self.taken >= self.TAKES:
            raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")
        self.taken += 1
        return int(super().send_messages(messages))


def test_a_line_dropped_mid_batch_flags_only_the_message_being_sent(
    season: Season, settings: Any
) -> None:
    event = Event.objects.create(
        season=season, name="Five friends", starts_at=timezone.now() + STARTS, buy_in=20
    )
    for name in ("ann", "ben", "cat", "dan", "eve"):
        person(name)
    assert mailings_due() == 5
    order = list(Notice.objects.filter(event=event).order_by("created_at", "pk"))
    settings.EMAIL_BACKEND = f"{__name__}.LineDropsAfter"
    now = timezone.now()
    outcome = mailings_send(now=now)
    assert (outcome.sent, outcome.refused) == (2, 1)

    states = {n.pk: (n.state, n.attempts) for n in Notice.objects.all()}
    assert [states[n.pk] for n in order] == [
        (NoticeState.SENT, 1),
        (NoticeState.SENT, 1),
        (NoticeState.SENDING, 1),  # handed over when the line dropped: it may have gone
        (NoticeState.PENDING, 0),  # never tried
        (NoticeState.PENDING, 0),
    ]
    assert list(mailings_unconfirmed(now + timedelta(minutes=11))) == [order[2]]

    # The next run sends the two never tried, and only them.
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert mailings_send(now=now + timedelta(minutes=1)).sent == 2
    assert sent_to() == sorted(n.recipient.email for n in order[:2] + order[3:])
    assert list(mailings_unconfirmed(now + timedelta(minutes=11))) == [order[2]]


def test_a_sender_killed_mid_batch_leaves_the_untried_messages_to_a_later_run(
    season: Season, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = Event.objects.create(
        season=season, name="Three friends", starts_at=timezone.now() + STARTS, buy_in=20
    )
    for name in ("ann", "ben", "cat"):
        person(name)
    mailings_due()
    first, second, third = Notice.objects.filter(event=event).order_by("created_at", "pk")
    real_send = LocmemBackend.send_messages

    def die_on_the_second(self: LocmemBackend, messages: list[EmailMessage]) -> int:
        if messages[0].to == [second.recipient.email]:
            raise Crash
        return int(real_send(self, messages))

    monkeypatch.setattr(LocmemBackend, "send_messages", die_on_the_second)
    now = timezone.now()
    with pytest.raises(Crash):
        mailings_send(now=now)
    monkeypatch.undo()
    later = now + timedelta(hours=1)
    assert list(mailings_unconfirmed(later)) == [second]
    third.refresh_from_db()
    assert (third.state, third.attempts) == (NoticeState.PENDING, 0)
    assert mailings_send(now=now + timedelta(minutes=1)).sent == 1
    assert sent_to() == sorted([first.recipient.email, third.recipient.email])
    assert list(mailings_unconfirmed(later)) == [second]


@pytest.mark.django_db(transaction=True)
def test_two_senders_at_once_send_each_message_once(
    season: Season, monkeypatch: pytest.MonkeyPatch
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip(
            "SQLite has no row locks and one writer at a time; run with a PostgreSQL DATABASE_URL"
        )
    event = Event.objects.create(
        season=season, name="Crowded night", starts_at=timezone.now() + STARTS, buy_in=20
    )
    for index in range(12):
        person(f"p{index:02d}")
    assert mailings_due() == 12

    # Slow each message down so the two senders overlap while each holds its claim.
    real_send = LocmemBackend.send_messages

    def slow_send(self: LocmemBackend, messages: list[EmailMessage]) -> int:
        time.sleep(0.05)
        return int(real_send(self, messages))

    monkeypatch.setattr(LocmemBackend, "send_messages", slow_send)
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []
    claimed: list[int] = []

    def sender() -> None:
        try:
            barrier.wait(timeout=10)
            while True:
                outcome = mailings_send(batch=3)
                if not outcome.claimed:
                    break
                claimed.append(outcome.claimed)
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=sender) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    addresses = [address for message in mail.outbox for address in message.to]
    assert len(addresses) == 12
    assert len(set(addresses)) == 12
    assert sum(claimed) == 12
    assert Notice.objects.filter(event=event, state=NoticeState.SENT).count() == 12


@pytest.mark.django_db(transaction=True)
def test_two_finders_at_once_record_each_message_once(season: Season) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has one writer at a time; run with a PostgreSQL DATABASE_URL")
    Event.objects.create(
        season=season, name="Crowded night", starts_at=timezone.now() + STARTS, buy_in=20
    )
    for index in range(8):
        person(f"p{index:02d}")
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def finder() -> None:
        try:
            barrier.wait(timeout=10)
            mailings_due()
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=finder) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert Notice.objects.count() == 8


# -- unsubscribe ---------------------------------------------------------------------------


def test_every_message_has_a_one_click_unsubscribe_for_its_topic(event: Event, ann: User) -> None:
    mailings_run()
    [message] = mail.outbox
    header = message.extra_headers["List-Unsubscribe"]
    assert header.startswith("<") and header.endswith(">")
    link = header[1:-1]
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert link in message.body
    # The link is Ann's, for invitations only (its signature carries the second it was made,
    # so it is read back, not compared with one made now).
    prefix = unsubscribe_url(ann.pk, NoticeTopic.INVITATIONS).rsplit("/", 2)[0] + "/"
    assert link.startswith(prefix) and "/mail/unsubscribe/invitations/" in link
    token = link.removeprefix(prefix).strip("/")
    assert unsubscribe_user_id(NoticeTopic.INVITATIONS, token) == ann.pk
    assert unsubscribe_user_id(NoticeTopic.REMINDERS, token) is None


def test_the_unsubscribe_link_asks_then_turns_off_that_topic_only(ann: User) -> None:
    client = Client(enforce_csrf_checks=True)
    path = reverse("series:unsubscribe", args=["reminders", unsubscribe_token(ann.pk, "reminders")])
    page = client.get(path)
    assert page.status_code == 200
    assert "Stop sending “Reminders two days and three hours before” to <strong>Ann</strong>" in (
        page.content.decode()
    )
    assert "ann@example.org" not in page.content.decode()
    assert not NoticeSettings.objects.filter(user=ann).exists()  # looking changes nothing

    # A mail provider's one-click POST: no cookie, no CSRF token (RFC 8058).
    done = client.post(path, {"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200
    settings = NoticeSettings.objects.get(user=ann)
    assert settings.reminders is False
    assert (settings.invitations, settings.waiting_list, settings.results, settings.host) == (
        True,
        True,
        True,
        True,
    )


@pytest.mark.parametrize(
    "topic, token",
    [
        pytest.param("results", "TOKEN_OF_REMINDERS", id="another-topic-s-link"),
        pytest.param("reminders", "TAMPERED", id="tampered"),
        pytest.param("reminders", "OTHER_SALT", id="signed-for-another-purpose"),
        pytest.param("reminders", "garbage", id="garbage"),
        pytest.param("everything", "TOKEN_OF_REMINDERS", id="unknown-topic"),
    ],
)
def test_a_link_not_made_for_that_topic_is_refused(ann: User, topic: str, token: str) -> None:
    good = unsubscribe_token(ann.pk, "reminders")
    token = {
        "TOKEN_OF_REMINDERS": good,
        "TAMPERED": good.replace(
            good.split(":")[0], signing.b64_encode(b'{"u":999,"t":"reminders"}').decode()
        ),
        "OTHER_SALT": signing.dumps({"u": ann.pk, "t": "reminders"}),
    }.get(token, token)
    client = Client(enforce_csrf_checks=True)
    path = reverse("series:unsubscribe", args=[topic, token])
    for response in (client.get(path), client.post(path)):
        assert response.status_code == 400
        assert "This unsubscribe link is not valid" in response.content.decode()
    assert not NoticeSettings.objects.filter(user=ann).exists()


def test_an_unsubscribed_topic_is_neither_recorded_nor_sent(event: Event, ann: User) -> None:
    mailings_due()  # recorded while still subscribed
    Client().post(
        reverse(
            "series:unsubscribe", args=["invitations", unsubscribe_token(ann.pk, "invitations")]
        )
    )
    assert mailings_send().skipped == 1
    assert mail.outbox == []


# -- the preferences page ------------------------------------------------------------------


@pytest.fixture
def ann_client(ann: User) -> Client:
    client = Client()
    client.force_login(ann)
    return client


def test_the_preferences_page_saves_the_topics_and_the_language(
    ann_client: Client, ann: User
) -> None:
    url = reverse("series:notice_settings")
    page = ann_client.get(url).content.decode()
    assert 'name="reminders" id="id_reminders" checked' in page
    assert 'name="host"' not in page  # the hosts' alerts are for directors
    response = ann_client.post(url, {"invitations": "on", "results": "on", "language": "fr"})
    assert response.status_code == 302
    settings = NoticeSettings.objects.get(user=ann)
    assert (settings.invitations, settings.reminders, settings.waiting_list, settings.results) == (
        True,
        False,
        False,
        True,
    )
    assert settings.language == "fr"
    assert settings.host is True  # not on the form: kept


def test_a_tampered_language_changes_nothing(ann_client: Client, ann: User) -> None:
    response = ann_client.post(
        reverse("series:notice_settings"), {"invitations": "on", "language": "xx"}
    )
    assert response.status_code == 400
    assert "Choose a language from the list." in response.content.decode()
    assert not NoticeSettings.objects.filter(user=ann).exists()


def test_a_director_chooses_the_host_alerts(director_client: Client, director: User) -> None:
    url = reverse("series:notice_settings")
    assert 'name="host"' in director_client.get(url).content.decode()
    director_client.post(url, {"invitations": "on", "language": ""})
    assert NoticeSettings.objects.get(user=director).host is False


def test_the_preferences_page_needs_a_login(client: Client) -> None:
    response = client.get(reverse("series:notice_settings"))
    assert response.status_code == 302
    assert "login" in response["Location"]


def test_the_profile_links_to_the_preferences_but_shows_no_address(
    ann_client: Client, ann: User
) -> None:
    page = ann_client.get(reverse("series:player_me"), follow=True).content.decode()
    assert reverse("series:notice_settings") in page
    assert "ann@example.org" not in page


# -- the embedded mail server: one .eml file per message -------------------------------------


def test_the_eml_backend_writes_one_file_per_message(tmp_path: Any) -> None:
    backend = EmlFileBackend(file_path=tmp_path)
    messages = [
        EmailMessage("First", "Body one", "site@example.org", ["ann@example.org"]),
        EmailMessage("Second", "Body two é", "site@example.org", ["ben@example.org"]),
        EmailMessage("Nobody", "no recipient", "site@example.org", []),
    ]
    assert backend.send_messages(messages) == 2
    files = sorted(tmp_path.glob("*.eml"))
    assert len(files) == 2
    assert not list(tmp_path.glob(".*"))  # no half-written file left
    subjects = sorted(email.message_from_bytes(f.read_bytes())["Subject"] for f in files)
    assert subjects == ["First", "Second"]


def test_the_embedded_site_writes_its_notices_to_var_mail(
    event: Event, ann: User, settings: Any, tmp_path: Any
) -> None:
    settings.EMAIL_BACKEND = "series.mail.EmlFileBackend"
    settings.MAIL_DIR = tmp_path / "mail"
    mailings_run()
    [file] = (tmp_path / "mail").glob("*.eml")
    message = email.message_from_bytes(file.read_bytes())
    assert message["To"] == "ann@example.org"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


@pytest.fixture(autouse=True)
def no_stray_mail() -> Iterator[None]:
    mail.outbox = []
    yield


# -- the settings: SMTP when EMAIL_HOST is set ---------------------------------------------


def _email_settings(**env: str) -> subprocess.CompletedProcess[str]:
    """The e-mail settings as a fresh interpreter loads them with ``env``."""
    names = ("EMAIL_HOST", "EMAIL_PORT", "EMAIL_USE_TLS", "SITE_URL", "DEFAULT_FROM_EMAIL")
    environment = {k: v for k, v in os.environ.items() if k not in names}
    environment.update(DJANGO_SETTINGS_MODULE="config.settings", DEBUG="1", **env)
    code = (
        "from django.conf import settings as s; "
        "print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_USE_TLS, s.MAIL_DIR.name)"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=Path(__file__).resolve().parents[2],
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_without_a_mail_server_messages_go_to_var_mail() -> None:
    result = _email_settings()
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["series.mail.EmlFileBackend", "25", "False", "mail"]


def test_with_email_host_the_site_sends_by_smtp() -> None:
    result = _email_settings(EMAIL_HOST="smtp.example.org", SITE_URL="https://poker.example.org")
    assert result.returncode == 0, result.stderr
    backend, host, port, tls, _dir = result.stdout.split()
    assert (backend, host, port, tls) == (
        "django.core.mail.backends.smtp.EmailBackend",
        "smtp.example.org",
        "587",
        "True",
    )


def test_smtp_without_the_site_s_address_fails_loudly() -> None:
    result = _email_settings(EMAIL_HOST="smtp.example.org")
    assert result.returncode != 0
    assert "SITE_URL must be set" in result.stderr


def test_a_player_gives_their_own_address(ann_client: Client, ann: User) -> None:
    url = reverse("series:notice_settings")
    ann.email = ""
    ann.save()
    page = ann_client.get(url).content.decode()
    assert "add it below" in page and 'name="address"' in page
    ann_client.post(url, {"address": "ann@example.net", "invitations": "on", "language": ""})
    ann.refresh_from_db()
    assert ann.email == "ann@example.net"
    # A malformed address is refused and nothing is saved.
    response = ann_client.post(url, {"address": "not an address", "language": ""})
    assert (
        response.status_code == 400 and "Enter a valid email address." in response.content.decode()
    )
    ann.refresh_from_db()
    assert ann.email == "ann@example.net"
    assert NoticeSettings.objects.get(user=ann).invitations is True
    # A form sent without the field keeps the address; an empty one removes it.
    ann_client.post(url, {"language": ""})
    ann.refresh_from_db()
    assert ann.email == "ann@example.net"
    ann_client.post(url, {"address": "", "language": ""})
    ann.refresh_from_db()
    assert ann.email == ""
