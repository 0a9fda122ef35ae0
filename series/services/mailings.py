"""E-mail notices, each sent exactly once: the outbox and its two steps.

``mailings_due(now)`` finds what is due and records one pending ``Notice`` per message. Each
message has a unique key (``reminder_3h:event:12:user:7``) and rows are inserted with
``ON CONFLICT DO NOTHING`` (``bulk_create(ignore_conflicts=True)``, the set-wise
``get_or_create``), so a duplicated beat, two workers at once, or a rerun after a crash
record nothing twice.

``mailings_send()`` sends the pending rows. It claims a batch under ``SELECT ... FOR UPDATE
SKIP LOCKED`` (two senders take different rows): the rows stay pending, with the sender's
claim and a lease of ``RETRY_AFTER`` during which no other sender takes them. Then, one
message at a time, it marks the row ``sending`` and *commits* before it asks the mail server
anything, and marks it ``sent`` once the server took it. The order is what makes a crash
harmless:

- a process that dies before a row is marked ``sending`` leaves it pending: it was never
  tried, and a later run sends it (at once when the sender could still hand the rest of its
  batch back, after the lease when it was killed outright);
- one that dies after that commit, while sending, leaves that one row in ``sending``. Such
  a row is never sent again by itself, because nobody can tell whether the mail server got
  it: a duplicate e-mail is the failure this design refuses. After
  ``UNCONFIRMED_AFTER`` the director's page lists it ("1 message may not have gone out"),
  and the director sends it again or lets it be (``notice_resolve``);
- a line dropped or a time-out while sending (the server may have taken the message) flags
  that message as above and ends the batch: the connection is gone, so the messages after it
  go back unsent, never tried, for the next run, instead of each failing on the dead line
  and being flagged too;
- a message the server refused (an exception from the backend, before it took the message)
  was not sent: it goes back to pending and is tried again after ``RETRY_AFTER``, up to
  ``ATTEMPTS_MAX`` times, then stays ``failed`` (also listed for the director).

A lost task is harmless: beat sends ``series.tasks.mailings_run`` every minute, and the next
one finds the same due messages (their rows exist already) and the same pending rows.

What is due, and to whom (a person gets a message only with an active account, an e-mail
address, and the topic not turned off in ``NoticeSettings``; guests without an account get
nothing):

- invitation: once an event's ``published_at`` has passed, to every player, once per event
  (``Event.invitations_queued_at``);
- reminders 48 h and 3 h before the start, to those who answered Going (waiting list
  included) or Maybe before that moment: someone who answered inside the window has just
  looked at the event. Inside 3 h only the 3 h reminder is sent;
- waiting list: a player moved up (``Rsvp.promoted_at``), once per move;
- results and standings: ``RESULTS_DELAY`` after the event finished (the standings task has
  run and a quick correction is in), to its players and those who answered Going or Maybe;
- hosts (directors with an address): the event below its RSVP minimum (once per event),
  and each late drop (``Rsvp.dropped_late_at``).
"""

from __future__ import annotations

import logging
import smtplib
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.core import mail
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from core.permissions import DIRECTORS_GROUP
from series import selectors
from series.models import (
    NOTICE_TOPIC,
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
)
from series.services.mailing_messages import NoticeSkipped, notice_message, unsubscribe_user_id

logger = logging.getLogger(__name__)

REMINDERS = (
    (NoticeKind.REMINDER_48H, timedelta(hours=48)),
    (NoticeKind.REMINDER_3H, timedelta(hours=3)),
)
# Results go this long after the event finished: the standings task has long run by then
# (it is sent on the commit of the results), and a correction made at the table is in.
RESULTS_DELAY = timedelta(minutes=10)
# Past this, a finished event, a move up or a late drop is old news: nothing is sent for it
# (an upgrade, or a worker down for days, does not mail last week's events).
NEWS_FOR = timedelta(days=1)
# A row claimed this long ago and still ``sending`` is shown to the director.
UNCONFIRMED_AFTER = timedelta(minutes=10)
# What the mail server says before it takes a message: it was not sent, and may be tried
# again. Anything else (a connection lost, a time-out) may come after the server took it.
CLEAR_REFUSALS = (
    smtplib.SMTPRecipientsRefused,
    smtplib.SMTPSenderRefused,
    smtplib.SMTPDataError,
    smtplib.SMTPHeloError,
    smtplib.SMTPAuthenticationError,
    smtplib.SMTPNotSupportedError,
)
# A message the mail server refused is tried again this much later, at most this many times.
RETRY_AFTER = timedelta(minutes=5)
ATTEMPTS_MAX = 5
BATCH = 50
# Batches one run sends at most (the rest waits a minute for the next run).
BATCHES_PER_RUN = 10
ERROR_MAX = 300


# -- finding what is due -----------------------------------------------------------------


def mailings_due(now: datetime | None = None) -> int:
    """Record a pending notice for every message due at ``now``; returns how many were new.

    Running it again, or twice at once, records nothing more.
    """
    now = now or timezone.now()
    created = _invitations_due(now)
    created += _reminders_due(now)
    created += _promotions_due(now)
    created += _results_due(now)
    created += _host_minimum_due(now)
    created += _late_drops_due(now)
    return created


def _recipients(topic: str) -> QuerySet[User]:
    """Accounts that can receive ``topic``: active, with an address, not unsubscribed."""
    return (
        User.objects.filter(is_active=True)
        .exclude(email="")
        .exclude(**{f"notice_settings__{topic}": False})
    )


def _hosts() -> QuerySet[User]:
    return (
        _recipients(NoticeTopic.HOST)
        .filter(Q(is_superuser=True) | Q(groups__name=DIRECTORS_GROUP))
        .distinct()
    )


def _player_users(player_ids: Iterable[int], topic: str) -> list[tuple[int, int]]:
    """(user id, player id) of the players among ``player_ids`` who receive ``topic``."""
    return list(
        Player.objects.filter(pk__in=list(player_ids), user__in=_recipients(topic)).values_list(
            "user_id", "pk"
        )
    )


def _record(kind: str, event: Event, rows: Iterable[tuple[str, int, int | None]]) -> int:
    """Insert a pending notice per (key, recipient id, player id) not recorded yet."""
    wanted = {key: (user_id, player_id) for key, user_id, player_id in rows}
    if not wanted:
        return 0
    known = set(Notice.objects.filter(key__in=list(wanted)).values_list("key", flat=True))
    new = [
        Notice(kind=kind, key=key, event=event, recipient_id=user_id, player_id=player_id)
        for key, (user_id, player_id) in wanted.items()
        if key not in known
    ]
    # Another finder may insert the same keys between the read and here: the unique key
    # and ON CONFLICT DO NOTHING keep one row each.
    Notice.objects.bulk_create(new, ignore_conflicts=True)
    return len(new)


def _published(now: datetime) -> QuerySet[Event]:
    return Event.objects.filter(
        published_at__lte=now, finished_at__isnull=True, starts_at__gt=now, cancelled_at=None
    )


def mailings_for_answers(event: Event, kind: str, at: datetime) -> int:
    """Record a notice of ``kind`` (a cancellation, a move) to everyone who answered for
    ``event``, whatever they answered, for the change made ``at``: a change undone and made
    again is told again, and a move not told yet gives way to the next. The outbox sends
    them like the rest."""
    answered = Rsvp.objects.filter(event=event).values_list("player_id", flat=True)
    if kind == NoticeKind.MOVED:
        # Moved again before the last move was told: one e-mail, of the time it is now.
        # The one given way gives up its key, so a move back within the same second is
        # told too.
        for notice in Notice.objects.filter(event=event, kind=kind, state=NoticeState.PENDING):
            notice.state = NoticeState.SKIPPED
            notice.last_error = "moved again"
            notice.key = f"{notice.key}:gave-way:{notice.pk}"
            notice.save(update_fields=["state", "last_error", "key"])
    return _record(
        kind,
        event,
        (
            (f"{kind}:event:{event.pk}:user:{user_id}:at:{_stamp(at)}", user_id, player_id)
            for user_id, player_id in _player_users(answered, NOTICE_TOPIC[NoticeKind(kind)])
        ),
    )


def mailings_reminders_renew(event: Event, at: datetime) -> int:
    """After ``event`` moved ``at``: its reminders were for the old time. One not sent yet
    is not sent, and every one gives up its key (kept, marked with the move), so the
    reminders of the new time are recorded when they fall due. Returns how many were not
    sent."""
    reminders = Notice.objects.filter(event=event, kind__in=[kind for kind, _ in REMINDERS])
    skipped = reminders.filter(state=NoticeState.PENDING).update(
        state=NoticeState.SKIPPED, last_error="the night moved"
    )
    for notice in reminders.exclude(key__contains=":moved:"):
        notice.key = f"{notice.key}:moved:{_stamp(at)}"
        notice.save(update_fields=["key"])
    return skipped


def _invitations_due(now: datetime) -> int:
    created = 0
    for event in _published(now).filter(invitations_queued_at__isnull=True):
        with transaction.atomic():
            # Whoever marks the event queued records its invitations; the same runner's
            # crash rolls both back, and a second runner updates 0 rows and moves on.
            if not Event.objects.filter(pk=event.pk, invitations_queued_at__isnull=True).update(
                invitations_queued_at=now
            ):
                continue
            players = Player.objects.filter(user__in=_recipients(NoticeTopic.INVITATIONS))
            created += _record(
                NoticeKind.INVITATION,
                event,
                (
                    (f"invitation:event:{event.pk}:user:{user_id}", user_id, player_id)
                    for user_id, player_id in players.values_list("user_id", "pk")
                ),
            )
    return created


def _reminders_due(now: datetime) -> int:
    created = 0
    for kind, before in REMINDERS:
        # Inside 3 h the 3 h reminder is the one due, not both.
        later = [b for k, b in REMINDERS if b < before]
        events = _published(now).filter(starts_at__lte=now + before)
        if later:
            events = events.filter(starts_at__gt=now + max(later))
        for event in events:
            answers = Rsvp.objects.filter(
                event=event,
                answer__in=[RsvpAnswer.GOING, RsvpAnswer.MAYBE],
                updated_at__lt=event.starts_at - before,
            ).values_list("player_id", flat=True)
            created += _record(
                kind,
                event,
                (
                    (f"{kind}:event:{event.pk}:user:{user_id}", user_id, player_id)
                    for user_id, player_id in _player_users(answers, NoticeTopic.REMINDERS)
                ),
            )
    return created


def _stamp(moment: datetime) -> int:
    return int(moment.timestamp())


def _promotions_due(now: datetime) -> int:
    created = 0
    moved = Rsvp.objects.filter(
        promoted_at__gte=now - NEWS_FOR,
        promoted_at__lte=now,
        answer=RsvpAnswer.GOING,
        waiting=False,
        event__in=_published(now),
        player__user__in=_recipients(NoticeTopic.WAITING_LIST),
    ).select_related("event", "player")
    for rsvp in moved:
        assert rsvp.promoted_at is not None
        user_id = rsvp.player.user_id
        key = f"promoted:event:{rsvp.event_id}:user:{user_id}:at:{_stamp(rsvp.promoted_at)}"
        created += _record(NoticeKind.PROMOTED, rsvp.event, [(key, user_id, rsvp.player_id)])
    return created


def _results_due(now: datetime) -> int:
    created = 0
    # A draft's results stay with the directors: drafts are in no e-mail.
    events = Event.objects.filter(
        finished_at__gte=now - NEWS_FOR,
        finished_at__lte=now - RESULTS_DELAY,
        published_at__lte=now,
    ).filter(pk__in=Result.objects.values("event_id"))
    for event in events:
        played = Result.objects.filter(event=event).values_list("player_id", flat=True)
        answered = Rsvp.objects.filter(
            event=event, answer__in=[RsvpAnswer.GOING, RsvpAnswer.MAYBE]
        ).values_list("player_id", flat=True)
        people = set(played) | set(answered)
        created += _record(
            NoticeKind.RESULTS,
            event,
            (
                (f"results:event:{event.pk}:user:{user_id}", user_id, player_id)
                for user_id, player_id in _player_users(people, NoticeTopic.RESULTS)
            ),
        )
    return created


def _host_minimum_due(now: datetime) -> int:
    created = 0
    events = _published(now).filter(rsvp_minimum__isnull=False)
    for event in events:
        if not selectors.rsvp_below_minimum(event, now):
            continue
        created += _record(
            NoticeKind.HOST_MINIMUM,
            event,
            (
                (f"host_minimum:event:{event.pk}:user:{user_id}", user_id, None)
                for user_id in _hosts().values_list("pk", flat=True)
            ),
        )
    return created


def _late_drops_due(now: datetime) -> int:
    created = 0
    drops = Rsvp.objects.filter(
        dropped_late_at__gte=now - NEWS_FOR, dropped_late_at__lte=now
    ).select_related("event")
    hosts = list(_hosts().values_list("pk", flat=True))
    for rsvp in drops:
        assert rsvp.dropped_late_at is not None
        about = f"event:{rsvp.event_id}:player:{rsvp.player_id}:at:{_stamp(rsvp.dropped_late_at)}"
        created += _record(
            NoticeKind.HOST_LATE_DROP,
            rsvp.event,
            (
                (f"host_late_drop:{about}:user:{user_id}", user_id, rsvp.player_id)
                for user_id in hosts
            ),
        )
    return created


# -- sending -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SendOutcome:
    claimed: int = 0
    sent: int = 0
    skipped: int = 0
    refused: int = 0


def _claim(batch: int, now: datetime) -> tuple[str, list[int]]:
    """Claim up to ``batch`` pending rows for this sender, and commit. They stay pending: a
    row becomes ``sending`` only when its message is handed to the mail server (``_take``)."""
    claim = uuid.uuid4().hex
    with transaction.atomic():
        ids = list(
            _claimable(Notice.objects.select_for_update(skip_locked=True), now)
            .order_by("created_at", "pk")
            .values_list("pk", flat=True)[:batch]
        )
        if ids:
            # The same conditions in the WHERE as well: on SQLite, where FOR UPDATE is not a
            # thing, the write lock taken at BEGIN (IMMEDIATE) already keeps a second sender
            # out, and on PostgreSQL the row locks do.
            _claimable(Notice.objects.filter(pk__in=ids), now).update(claim=claim, claimed_at=now)
    return claim, ids


def _claimable(notices: QuerySet[Notice], now: datetime) -> QuerySet[Notice]:
    """Pending rows nobody holds: never claimed, handed back, or their lease (or the wait
    after a refusal) is over."""
    return notices.filter(state=NoticeState.PENDING).filter(
        Q(claimed_at__isnull=True) | Q(claimed_at__lte=now - RETRY_AFTER)
    )


def _take(notice: Notice, claim: str) -> bool:
    """Mark the row ``sending`` (committed, autocommit) just before its message is handed to
    the mail server; False if it is no longer this sender's (a director took it back, or the
    lease ran out and another sender claimed it)."""
    taken = Notice.objects.filter(pk=notice.pk, state=NoticeState.PENDING, claim=claim).update(
        state=NoticeState.SENDING, claimed_at=timezone.now(), attempts=F("attempts") + 1
    )
    notice.attempts += 1
    return bool(taken)


def _hand_back(claim: str, untried: Iterable[int]) -> None:
    """The rows of this claim never tried are free for the next run at once (a row refused
    by the server is pending too, but waits ``RETRY_AFTER`` from its try)."""
    Notice.objects.filter(pk__in=list(untried), claim=claim, state=NoticeState.PENDING).update(
        claim="", claimed_at=None
    )


def _mark(notice: Notice, claim: str, **values: object) -> int:
    return Notice.objects.filter(pk=notice.pk, state=NoticeState.SENDING, claim=claim).update(
        **values
    )


def _refused(notice: Notice, claim: str, error: BaseException) -> None:
    """The message did not go out: pending again for a later try, or failed at last."""
    state = NoticeState.FAILED if notice.attempts >= ATTEMPTS_MAX else NoticeState.PENDING
    _mark(notice, claim, state=state, last_error=_error_text(error))


def _error_text(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"[:ERROR_MAX]


def mailings_send(batch: int = BATCH, now: datetime | None = None) -> SendOutcome:
    """Send up to ``batch`` pending notices, each at most once (see the module's notes)."""
    now = now or timezone.now()
    claim, ids = _claim(batch, now)
    if not ids:
        return SendOutcome()
    # Committed: from here on these rows are this sender's, and no other sender takes them.
    notices = list(
        Notice.objects.filter(claim=claim, state=NoticeState.PENDING)
        .select_related("recipient", "event__season", "player")
        .order_by("created_at", "pk")
    )
    connection = mail.get_connection()
    try:
        connection.open()
    except Exception as error:
        # No server, nothing sent: every row goes back for a later try, and the try counts,
        # so a server down for good ends in ``failed`` rows the director is shown.
        logger.warning("e-mail: could not reach the mail server: %s", error)
        for notice in notices:
            if _take(notice, claim):
                _refused(notice, claim, error)
        return SendOutcome(claimed=len(notices), refused=len(notices))
    sent = skipped = refused = 0
    untried = {notice.pk for notice in notices}
    try:
        for notice in notices:
            untried.discard(notice.pk)
            try:
                message = notice_message(notice, now)
            except NoticeSkipped as reason:
                Notice.objects.filter(pk=notice.pk, state=NoticeState.PENDING, claim=claim).update(
                    state=NoticeState.SKIPPED, last_error=str(reason)[:ERROR_MAX]
                )
                skipped += 1
                continue
            except Exception as error:
                # A message that cannot be written was not sent either.
                logger.exception("e-mail notice %s could not be written", notice.key)
                if _take(notice, claim):
                    _refused(notice, claim, error)
                refused += 1
                continue
            # Still this sender's, and ``sending`` from now: a director who took the row back
            # ("Send again") while an earlier message of this batch was slow has its row
            # sent by the next run, never also by this one.
            if not _take(notice, claim):
                continue
            try:
                count = connection.send_messages([message])
            except CLEAR_REFUSALS as error:
                logger.warning("e-mail notice %s refused: %s", notice.key, error)
                _refused(notice, claim, error)
                refused += 1
                continue
            except Exception as error:
                # A connection lost or a time-out may come after the server took the
                # message: it stays ``sending``, and the director sees it may not have gone.
                # The line is gone, so the batch ends here: the rest, never tried, is handed
                # back below for the next run.
                logger.warning("e-mail notice %s may not have gone out: %s", notice.key, error)
                _mark(notice, claim, last_error=_error_text(error))
                refused += 1
                break
            if count:
                _mark(notice, claim, state=NoticeState.SENT, sent_at=timezone.now(), last_error="")
                sent += 1
            else:
                _refused(notice, claim, RuntimeError("the backend sent nothing"))
                refused += 1
    finally:
        # Also when the sender is stopped by an exception it cannot catch: what it never
        # tried is not the director's worry. A sender killed outright cannot do this; its
        # untried rows wait out the lease instead.
        _hand_back(claim, untried)
        connection.close()
    return SendOutcome(claimed=len(notices), sent=sent, skipped=skipped, refused=refused)


def mailings_run(now: datetime | None = None) -> int:
    """Beat's minute: record what is due, then send the pending notices (at most
    ``BATCHES_PER_RUN`` batches; the rest is sent by the next run). Returns how many went."""
    mailings_due(now)
    total = 0
    for _batch in range(BATCHES_PER_RUN):
        outcome = mailings_send(now=now)
        total += outcome.sent
        if outcome.claimed < BATCH:
            break
    return total


# -- the director's view of what may not have gone out --------------------------------------


def mailings_unconfirmed(now: datetime | None = None) -> QuerySet[Notice]:
    """Notices the director should look at: claimed long ago and never confirmed sent (the
    sender died while sending), and those the mail server refused ``ATTEMPTS_MAX`` times."""
    now = now or timezone.now()
    return (
        Notice.objects.filter(
            Q(state=NoticeState.SENDING, claimed_at__lte=now - UNCONFIRMED_AFTER)
            | Q(state=NoticeState.FAILED, created_at__gte=now - timedelta(days=7))
        )
        .select_related("event", "recipient", "player")
        .order_by("created_at", "pk")
    )


class NoticeError(Exception):
    """A director's action on a notice refused; ``message`` says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def notice_resolve(notice_id: int, *, send_again: bool, now: datetime | None = None) -> Notice:
    """The director's answer to a notice that may not have gone out: send it again (it is
    pending once more, and the next run sends it), or let it be (recorded as skipped)."""
    now = now or timezone.now()
    with transaction.atomic():
        notice = Notice.objects.select_for_update().filter(pk=notice_id).first()
        if notice is None or not mailings_unconfirmed(now).filter(pk=notice_id).exists():
            raise NoticeError(_("This message is not waiting for a decision any more."))
        if send_again:
            notice.state = NoticeState.PENDING
            notice.claim = ""
            notice.claimed_at = None
            notice.attempts = 0
        else:
            notice.state = NoticeState.SKIPPED
            notice.last_error = "let be by a director"
        notice.save(update_fields=["state", "claim", "claimed_at", "attempts", "last_error"])
    return notice


# -- a person's choices ------------------------------------------------------------------


def notice_settings_of(user: User) -> NoticeSettings:
    """The account's choices as stored, or the defaults (everything on) unsaved."""
    return NoticeSettings.objects.filter(user=user).first() or NoticeSettings(user=user)


def notice_settings_save(
    user: User, topics: Iterable[str], language: str, *, address: str | None = None
) -> NoticeSettings:
    """Keep the topics ``user`` receives (the others are turned off), their language for
    e-mail ("" follows the site's language) and, when given, their address ("" for none)."""
    chosen = set(topics)
    unknown = chosen - set(NoticeTopic.values)
    if unknown:
        raise ValueError(f"unknown topics {sorted(unknown)}")
    values: dict[str, object] = {topic: topic in chosen for topic in NoticeTopic.values}
    values["language"] = language
    with transaction.atomic():
        if address is not None and address != user.email:
            user.email = address
            user.save(update_fields=["email"])
        notice_settings, _created = NoticeSettings.objects.update_or_create(
            user=user, defaults=values
        )
    return notice_settings


def notice_unsubscribe(topic: str, token: str) -> User | None:
    """Turn ``topic`` off for the account the signed link names; None (and nothing changed)
    for a link that is not one of ours for that topic. Other topics are left as they are."""
    user_id = unsubscribe_user_id(topic, token)
    user = User.objects.filter(pk=user_id).first() if user_id is not None else None
    if user is None:
        return None
    NoticeSettings.objects.update_or_create(user=user, defaults={topic: False})
    return user


def notice_link_user(topic: str, token: str) -> User | None:
    """The account an unsubscribe link names (for its confirmation page), or None."""
    user_id = unsubscribe_user_id(topic, token)
    return User.objects.filter(pk=user_id).first() if user_id is not None else None
