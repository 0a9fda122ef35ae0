"""Who is coming: a player answers Going, Maybe or Not going for an event, with guests.

Seats fill in the order of the answers. A Going answer takes ``1 + guests`` seats; when
the event's ``capacity`` cannot hold the party it waits (``Rsvp.waiting``), as long as the
waiting list (``Event.waiting_list_size``, in people) has room; otherwise it is refused.
When seats free up (a confirmed party drops, brings fewer guests, or the host raises the
capacity) the waiting list moves up by itself (``rsvp_waiting_promote``) and the promoted
answers get ``promoted_at``, from which the player is told.

The rule for moving up: the waiting parties are taken in the order they answered, and
every party that fits the seats left goes in; a party that does not fit stays first in
line, and a later, smaller party may still take the seats it cannot use. A strict queue
(nobody passes a party that does not fit) was the other choice; it leaves seats empty that
someone on the list wants, possibly until the night itself, and at a home game an empty
chair helps nobody. The party passed over keeps its place for the next seats, and can
lower its guests to fit at once. A new Going answer follows the same rule: it only gets a
seat no waiting party can use, because after every answer no waiting party fits.

Lowering the capacity under what is taken moves nobody out: a confirmed seat is kept.

Every workflow locks the event's row first (``select_for_update``), so two answers to one
event are applied one after the other and the seat count never goes stale between the
check and the write.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from series import selectors
from series.models import GUEST_NAMES_MAX, GUESTS_MAX, Event, Player, Rsvp, RsvpAnswer


class RsvpError(Exception):
    """An answer refused; ``message`` says why, in the reader's language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def rsvp_guest_names_clean(raw: str, guests: int) -> str:
    """The guests' names as stored: trimmed, one comma and space between them.

    Refused: more names than guests, a name that looks like an e-mail address (names are
    shown to the director and never an address), text beyond ``GUEST_NAMES_MAX``.

    >>> rsvp_guest_names_clean(" Marc ,, Léa ", 2)
    'Marc, Léa'
    """
    if "\x00" in raw:
        raise RsvpError(_("Null characters are not allowed."))
    names = [name.strip() for name in raw.split(",") if name.strip()]
    if len(names) > guests:
        raise RsvpError(
            ngettext(
                "You named more guests than you bring (%(count)s).",
                "You named more guests than you bring (%(count)s).",
                guests,
            )
            % {"count": guests}
        )
    if any("@" in name for name in names):
        raise RsvpError(_("Give your guests' names, not their e-mail addresses."))
    cleaned = ", ".join(names)
    if len(cleaned) > GUEST_NAMES_MAX:
        raise RsvpError(
            _("Use at most %(count)s characters for the names.") % {"count": GUEST_NAMES_MAX}
        )
    return cleaned


def _event_locked(event_id: int) -> Event:
    event = Event.objects.select_for_update().filter(pk=event_id).first()
    if event is None:
        raise RsvpError(_("This event does not exist."))
    return event


def _player_of(user: Any) -> Player:
    """The account's series player, made on first use as registering for a tournament or
    asking for a calendar feed does; only a logged-in account answers."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        raise RsvpError(_("Log in to say whether you are coming."))
    player, _created = Player.objects.get_or_create(
        user=user, defaults={"name": user.get_username()}
    )
    return player


def _answer_of(raw: Any) -> RsvpAnswer:
    if raw not in RsvpAnswer.values:
        raise RsvpError(_("Choose Going, Maybe or Not going."))
    return RsvpAnswer(raw)


def _guests_of(raw: Any) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= GUESTS_MAX:
        raise RsvpError(
            _("You may bring from 0 to %(count)s guests.") % {"count": GUESTS_MAX},
        )
    return raw


def rsvp_event_open(event: Event, now: datetime) -> bool:
    """Whether answers are taken: the event is published (not a draft), not cancelled, in
    a season not closed, and has neither started nor finished."""
    return (
        not event.is_draft_at(now)
        and event.cancelled_at is None
        and event.season.closed_at is None
        and event.finished_at is None
        and event.starts_at > now
    )


def rsvp_waiting_promote(event: Event, now: datetime) -> list[Rsvp]:
    """Move up every waiting party that fits the seats left, in the order they answered
    (the module's docstring says why a party that does not fit is passed). The caller holds
    the event's lock. Returns the answers moved up, ``promoted_at`` set to ``now``."""
    if event.capacity is None:
        left = None
    else:
        left = event.capacity - selectors.rsvp_going_seats(event)
    waiting = Rsvp.objects.filter(event=event, answer=RsvpAnswer.GOING, waiting=True).order_by(
        "answered_at", "pk"
    )
    promoted: list[Rsvp] = []
    for rsvp in waiting:
        if left is not None and rsvp.seats > left:
            continue
        rsvp.waiting = False
        rsvp.promoted_at = now
        rsvp.save(update_fields=["waiting", "promoted_at", "updated_at"])
        promoted.append(rsvp)
        if left is not None:
            left -= rsvp.seats
    return promoted


@transaction.atomic
def rsvp_answer(
    event_id: int,
    user: Any,
    answer: Any,
    guests: Any = 0,
    guest_names: str = "",
    *,
    now: datetime | None = None,
) -> Rsvp:
    """Record ``user``'s answer for the event, for themselves only.

    Going takes a seat for the player and each guest if they fit, else a place on the
    waiting list; a party already holding seats keeps them when it changes its names, and
    when it brings more guests only if the extra seats are free. A confirmed Going that
    drops (or brings fewer guests) frees seats, and the waiting list moves up at once.
    A confirmed Going dropping to Maybe or Not going within the event's late-drop window
    sets ``dropped_late_at``.

    Refused (``RsvpError``, nothing changed): an anonymous user, an event that started or
    finished, an answer or a guest count that is none of the choices, names that do not
    fit (``rsvp_guest_names_clean``), a Going that fits neither the seats nor the waiting
    list.
    """
    now = now or timezone.now()
    answer = _answer_of(answer)
    guests = _guests_of(guests)
    if answer != RsvpAnswer.GOING:
        # Guests come with a Going player; another answer brings none.
        guests, guest_names = 0, ""
    names = rsvp_guest_names_clean(guest_names or "", guests)
    player = _player_of(user)
    event = _event_locked(event_id)
    if not rsvp_event_open(event, now):
        if event.is_draft_at(now):
            raise RsvpError(_("This event is not published yet: answers open when it is."))
        if event.cancelled_at is not None:
            raise RsvpError(_("This night is cancelled: answers are closed."))
        if event.season.closed_at is not None:
            raise RsvpError(_("This season is closed: answers are closed."))
        raise RsvpError(_("This event has started or is over: answers are closed."))
    # Seats the host added in the admin, say, go to the waiting list before this answer is
    # placed: after this no waiting party fits, so a new Going only takes seats none of
    # them can use.
    rsvp_waiting_promote(event, now)

    rsvp = Rsvp.objects.filter(event=event, player=player).first()
    was_confirmed = rsvp is not None and rsvp.is_confirmed
    if rsvp is None:
        rsvp = Rsvp(event=event, player=player, answer=answer, answered_at=now)
    elif rsvp.answer != answer:
        rsvp.answered_at = now
    if answer == RsvpAnswer.GOING:
        _going_place(event, rsvp, guests, was_confirmed=was_confirmed)
    else:
        if was_confirmed and now >= event.starts_at - timedelta(hours=event.late_drop_hours):
            rsvp.dropped_late_at = now
        rsvp.waiting = False
        # Moved up, then dropped: nothing to tell them any more.
        rsvp.promoted_at = None
    rsvp.answer = answer
    rsvp.guests = guests
    rsvp.guest_names = names
    rsvp.save()
    rsvp_waiting_promote(event, now)
    rsvp.refresh_from_db()
    return rsvp


def _going_place(event: Event, rsvp: Rsvp, guests: int, *, was_confirmed: bool) -> None:
    """Seat a Going party, or put it on the waiting list, or refuse it (``rsvp_answer``).
    The caller has just moved up every waiting party that fits."""
    party = 1 + guests
    if event.capacity is None:
        rsvp.waiting = False
        return
    left = event.capacity - selectors.rsvp_going_seats(event, excluding=rsvp)
    if was_confirmed:
        # Already seated: the seats held are kept (even when the host has since lowered the
        # capacity under them); more guests only into seats that are free.
        if guests > rsvp.guests and party > left:
            raise RsvpError(
                ngettext(
                    "Only %(count)s seat is left for you and your guests.",
                    "Only %(count)s seats are left for you and your guests.",
                    max(left, 0),
                )
                % {"count": max(left, 0)}
            )
        return
    if party <= left:
        rsvp.waiting = False
        return
    room = event.waiting_list_size
    if room == 0:
        if left > 0:
            raise RsvpError(_fewer_fit(left))
        raise RsvpError(_("The event is full, and it has no waiting list."))
    if (
        room is not None
        and selectors.rsvp_going_seats(event, waiting=True, excluding=rsvp) + party > room
    ):
        if left > 0:
            raise RsvpError(_fewer_fit(left, party_waiting=party))
        raise RsvpError(_("The event is full and so is its waiting list."))
    rsvp.waiting = True


def _fewer_fit(left: int, *, party_waiting: int | None = None) -> str:
    """A party too big for the ``left`` free seats (at least one), with no room on the
    waiting list (none, or none for its ``party_waiting`` people): how many would get in."""
    guests = left - 1
    if party_waiting is None:
        if guests == 0:
            return _("Only 1 seat is left: answer Going without guests to get in.")
        return ngettext(
            "Only %(left)s seats are left: answer Going with at most %(count)s guest to get in.",
            "Only %(left)s seats are left: answer Going with at most %(count)s guests to get in.",
            guests,
        ) % {"left": left, "count": guests}
    if guests == 0:
        return _(
            "Only 1 seat is left and the waiting list has no room for %(party)s: answer Going "
            "without guests to get in."
        ) % {"party": party_waiting}
    return ngettext(
        "Only %(left)s seats are left and the waiting list has no room for %(party)s: answer "
        "Going with at most %(count)s guest to get in.",
        "Only %(left)s seats are left and the waiting list has no room for %(party)s: answer "
        "Going with at most %(count)s guests to get in.",
        guests,
    ) % {"left": left, "party": party_waiting, "count": guests}


def rsvp_fewer_would_fit(rsvp: Rsvp | None, seats_left: int | None) -> str:
    """For a party on the waiting list while some seats are free (too few for it): how many
    would get in now; "" otherwise."""
    if rsvp is None or not rsvp.waiting or not seats_left or rsvp.seats <= seats_left:
        return ""
    guests = seats_left - 1
    if guests == 0:
        return _("Only 1 seat is left: without guests you would get in now.")
    return ngettext(
        "Only %(left)s seats are left: with at most %(count)s guest you would get in now.",
        "Only %(left)s seats are left: with at most %(count)s guests you would get in now.",
        guests,
    ) % {"left": seats_left, "count": guests}


@transaction.atomic
def rsvp_seats_refresh(event_id: int, *, now: datetime | None = None) -> list[Rsvp]:
    """Move the waiting list up after the host changed the event (more seats, an answer
    deleted in the admin); nothing once answers are closed. Returns who moved up."""
    now = now or timezone.now()
    event = Event.objects.select_for_update().filter(pk=event_id).first()
    if event is None or not rsvp_event_open(event, now):
        return []
    return rsvp_waiting_promote(event, now)


# The demo's answers on its first event (``series.services.accounts.demo_load``): a party
# with a named guest, a full house but for two seats, a party of three waiting for them.
DEMO_ANSWERS = (
    ("ann", RsvpAnswer.GOING, 1, "Marc"),
    ("ben", RsvpAnswer.GOING, 0, ""),
    ("dee", RsvpAnswer.GOING, 0, ""),
    ("cal", RsvpAnswer.MAYBE, 0, ""),
    ("eve", RsvpAnswer.NO, 0, ""),
    ("fay", RsvpAnswer.GOING, 2, ""),
)


def rsvp_demo_load(event: Event, users: dict[str, Any], now: datetime) -> None:
    """Seats, a waiting list and a minimum on the demo's first event, and a few answers
    of ``users`` (by username), so the event page and the director's page show who is
    coming."""
    event.capacity, event.waiting_list_size, event.rsvp_minimum = 6, 4, 4
    event.save(update_fields=["capacity", "waiting_list_size", "rsvp_minimum"])
    for step, (name, answer, guests, names) in enumerate(DEMO_ANSWERS):
        if name in users:
            rsvp_answer(
                event.pk, users[name], answer, guests, names, now=now + timedelta(seconds=step)
            )
