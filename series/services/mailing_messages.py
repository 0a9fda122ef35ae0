"""What each e-mail notice says: its subject, its text, its links, in the reader's language.

A message is built when it is sent, from the rows as they are then (the event moved, the
player dropped since the notice was found due), and may turn out not to be needed any more:
``NoticeSkipped`` says why, and the notice is recorded as skipped rather than sent.

Every message carries a one-click unsubscribe link for its topic only (RFC 8058: the
``List-Unsubscribe`` and ``List-Unsubscribe-Post`` headers, and the link in the text). The
link's token is signed with ``django.core.signing`` under a salt of its own per topic, and
names the account and the topic: it unsubscribes that account from that topic, and is good
for nothing else (not another topic, not another account, not a login).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from series import selectors
from series.models import (
    NOTICE_TOPIC,
    Event,
    Notice,
    NoticeKind,
    NoticeSettings,
    NoticeTopic,
    Player,
    Rsvp,
    RsvpAnswer,
)
from series.services.languages import language_is_supported

# The salt keeps the module's old name: the unsubscribe links in e-mails already sent are
# signed with it.
UNSUBSCRIBE_SALT = "series.notices.unsubscribe"
# Lines of the results and of the standings in a results message; the reader's own line is
# added when it is further down.
RESULTS_LINES = 10
STANDINGS_LINES = 10


class NoticeSkipped(Exception):
    """The notice is not needed any more; the message says why (for the record)."""


# -- unsubscribe links -------------------------------------------------------------------


def _salt(topic: str) -> str:
    return f"{UNSUBSCRIBE_SALT}:{topic}"


def unsubscribe_token(user_id: int, topic: str) -> str:
    """The signed token of ``user_id``'s unsubscribe link for ``topic``."""
    return signing.dumps({"u": user_id, "t": topic}, salt=_salt(topic))


def unsubscribe_user_id(topic: str, token: str) -> int | None:
    """The account a link unsubscribes from ``topic``, or None for a link that was not
    made for that topic by this site (tampered, another topic's, cut short)."""
    if topic not in NoticeTopic.values:
        return None
    try:
        data = signing.loads(token, salt=_salt(topic))
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("t") != topic:
        return None
    user_id = data.get("u")
    return user_id if isinstance(user_id, int) and not isinstance(user_id, bool) else None


def unsubscribe_url(user_id: int, topic: str) -> str:
    return absolute(reverse("series:unsubscribe", args=[topic, unsubscribe_token(user_id, topic)]))


def absolute(path: str) -> str:
    """A link for an e-mail: the site's address (``SITE_URL``) and the path."""
    return settings.SITE_URL + path


# -- language ----------------------------------------------------------------------------


def notice_language(user: User, notice_settings: NoticeSettings | None = None) -> str:
    """The language of ``user``'s e-mails: their choice for e-mail, else the language they
    chose for the site, else the site's."""
    chosen = notice_settings.language if notice_settings else ""
    if not chosen:
        chosen = Player.objects.filter(user=user).values_list("language", flat=True).first() or ""
    return chosen if language_is_supported(chosen) else settings.LANGUAGE_CODE


def _settings_of(user: User) -> NoticeSettings | None:
    return NoticeSettings.objects.filter(user=user).first()


# -- the message -------------------------------------------------------------------------


def notice_message(notice: Notice, now: datetime) -> EmailMultiAlternatives:
    """The e-mail of ``notice``, ready to send. Raises NoticeSkipped when it is not needed
    any more (no address, unsubscribed, the event started or was unpublished, the answer
    changed)."""
    user = notice.recipient
    if not user.is_active or not user.email:
        raise NoticeSkipped("the account has no e-mail address")
    topic = NOTICE_TOPIC[NoticeKind(notice.kind)]
    notice_settings = _settings_of(user)
    if notice_settings is not None and not notice_settings.receives(topic):
        raise NoticeSkipped(f"unsubscribed from {topic}")
    event = notice.event
    if event is None:
        raise NoticeSkipped("the event was deleted")
    language = notice_language(user, notice_settings)
    with translation.override(language):
        context = _context_of(notice, event, now)
        unsubscribe = unsubscribe_url(user.pk, topic)
        context.update(
            {
                "event": event,
                "when": formats.date_format(timezone.localtime(event.starts_at), "DATETIME_FORMAT"),
                "event_url": absolute(reverse("series:event", args=[event.pk])),
                "settings_url": absolute(reverse("series:notice_settings")),
                "unsubscribe_url": unsubscribe,
                "topic_label": NoticeTopic(topic).label,
                "name": _name_of(user),
            }
        )
        subject = _subject(notice, event, context)
        body = render_to_string(f"series/mail/{notice.kind}.txt", context)
    message = EmailMultiAlternatives(
        subject=subject,
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            # RFC 3834: an automatic message; vacation replies are not sent back to it.
            "Auto-Submitted": "auto-generated",
        },
    )
    return message


def _name_of(user: User) -> str:
    player = Player.objects.filter(user=user).only("name").first()
    return player.name if player else user.get_username()


def _rsvp_of(event: Event, user: User) -> Rsvp | None:
    return Rsvp.objects.filter(event=event, player__user=user).first()


def _context_of(notice: Notice, event: Event, now: datetime) -> dict[str, Any]:
    kind = notice.kind
    # A draft is in no e-mail: a notice recorded before the event went back to draft is not
    # sent.
    if event.is_draft_at(now):
        raise NoticeSkipped("the event is not published")
    if kind != NoticeKind.RESULTS and (event.finished_at or event.starts_at <= now):
        raise NoticeSkipped("the event has started")
    if kind == NoticeKind.CANCELLED:
        if event.cancelled_at is None:
            raise NoticeSkipped("the cancellation was undone")
        return {"rsvp": _rsvp_of(event, notice.recipient)}
    if event.cancelled_at is not None:
        raise NoticeSkipped("the event is cancelled")
    if kind == NoticeKind.MOVED:
        rsvp = _rsvp_of(event, notice.recipient)
        if rsvp is None:
            raise NoticeSkipped("no answer any more")
        return {"rsvp": rsvp, "answers": RsvpAnswer}
    if kind == NoticeKind.INVITATION:
        return {}
    if kind in (NoticeKind.REMINDER_48H, NoticeKind.REMINDER_3H):
        rsvp = _rsvp_of(event, notice.recipient)
        if rsvp is None or rsvp.answer not in (RsvpAnswer.GOING, RsvpAnswer.MAYBE):
            raise NoticeSkipped("not coming any more")
        return {"rsvp": rsvp, "going": rsvp.answer == RsvpAnswer.GOING}
    if kind == NoticeKind.PROMOTED:
        rsvp = _rsvp_of(event, notice.recipient)
        if rsvp is None or not rsvp.is_confirmed:
            raise NoticeSkipped("no longer has a seat")
        # One message for the seat held now: a move up that was undone and made again
        # has its own notice, and the older one says nothing the newer does not.
        moved_at = rsvp.promoted_at.timestamp() if rsvp.promoted_at else None
        if moved_at is None or not notice.key.endswith(f":at:{int(moved_at)}"):
            raise NoticeSkipped("moved up again since")
        return {"rsvp": rsvp}
    if kind == NoticeKind.RESULTS:
        return _results_context(event, notice.recipient)
    if kind == NoticeKind.HOST_MINIMUM:
        if not selectors.rsvp_below_minimum(event, now):
            raise NoticeSkipped("enough are going now")
        return {"summary": selectors.rsvp_summary(event), "minimum": event.rsvp_minimum}
    if kind == NoticeKind.HOST_LATE_DROP:
        dropped = notice.player
        rsvp = Rsvp.objects.filter(event=event, player=dropped).first() if dropped else None
        if rsvp is None or rsvp.dropped_late_at is None or rsvp.answer == RsvpAnswer.GOING:
            raise NoticeSkipped("the player is going again")
        return {
            "dropped": dropped,
            "rsvp": rsvp,
            "dropped_when": formats.date_format(
                timezone.localtime(rsvp.dropped_late_at), "DATETIME_FORMAT"
            ),
            "summary": selectors.rsvp_summary(event),
            "admin_url": absolute(reverse("director_dashboard")),
        }
    raise NoticeSkipped(f"unknown kind {kind}")


def _results_context(event: Event, user: User) -> dict[str, Any]:
    if event.finished_at is None:
        raise NoticeSkipped("the event was reopened")
    results = list(selectors.event_results(event))
    if not results:
        raise NoticeSkipped("the event has no results")
    mine = next((r for r in results if r.player.user_id == user.pk), None)
    standings = list(selectors.standings_of(event.season))
    own_standing = next((s for s in standings if s.player.user_id == user.pk), None)
    top = standings[:STANDINGS_LINES]
    return {
        "results": results[:RESULTS_LINES],
        "field": len(results),
        "more_results": max(0, len(results) - RESULTS_LINES),
        "mine": mine if mine not in results[:RESULTS_LINES] else None,
        "mine_any": mine,
        "standings": top,
        "own_standing": own_standing if own_standing not in top else None,
        "standings_url": absolute(reverse("series:standings", args=[event.season_id])),
        "results_url": absolute(reverse("series:event", args=[event.pk])),
    }


def _subject(notice: Notice, event: Event, context: dict[str, Any]) -> str:
    values = {"event": event.name, "when": context["when"]}
    kind = notice.kind
    if kind == NoticeKind.INVITATION:
        return _("New event: %(event)s, %(when)s") % values
    if kind == NoticeKind.REMINDER_48H:
        return _("In two days: %(event)s, %(when)s") % values
    if kind == NoticeKind.REMINDER_3H:
        time = formats.time_format(timezone.localtime(event.starts_at), "TIME_FORMAT")
        return _("In three hours: %(event)s at %(time)s") % {"time": time, "event": event.name}
    if kind == NoticeKind.PROMOTED:
        return _("You got a seat: %(event)s") % values
    if kind == NoticeKind.RESULTS:
        return _("Results: %(event)s") % values
    if kind == NoticeKind.HOST_MINIMUM:
        return _("Too few going: %(event)s") % values
    if kind == NoticeKind.CANCELLED:
        return _("Cancelled: %(event)s, %(when)s") % values
    if kind == NoticeKind.MOVED:
        return _("New time: %(event)s, %(when)s") % values
    return _("Late drop: %(player)s, %(event)s") % {
        "player": context["dropped"].name,
        "event": event.name,
    }
