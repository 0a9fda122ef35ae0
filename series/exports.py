"""The series' files for other programs: iCal feeds, an event's results as CSV, and a
player's online hands of an event as PHH.

Reads only: the views decide who may download what, these functions write the text.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from datetime import timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.utils import timezone
from django.utils.translation import gettext as _

from core import csv_safe
from series import event_sections, selectors
from series.models import Event, Season
from series.net import net_result
from tables.engine.phh import dumps_phhs
from tables.selectors import hand_phh_for, hands_played_by

if TYPE_CHECKING:
    from icalendar import Alarm

# How long a calendar app blocks out for a night: the series does not know how long a
# tournament lasts (its blind structure belongs to the tournaments), and a home game's evening is
# about this long.
EVENT_LENGTH = timedelta(hours=4)
# Every event rings on the phone an hour before it starts (a VALARM). The e-mail reminder
# comes three hours before, when there is time to plan the evening; the alarm is the "time
# to leave" nudge, and one at the same moment as the e-mail would only repeat it.
ALARM_BEFORE = timedelta(hours=1)
PRODID = "-//Home Game Omaha//Series calendar//EN"
UID_DOMAIN = "home-game-omaha"

RESULTS_CSV_HEADER = (
    "place",
    "player",
    "prize",
    "bounties",
    "knockouts",
    "rebuys",
    "addons",
    "reentries",
    "paid_in",
    "points",
    "net",
    # The event's own columns, after the player's: each row says which night it is, so a
    # season's results in one file can be imported into another site (``docs/import.md``).
    "date",
    "event",
    "buy_in",
    "fee",
    "counts",
    "points_only",
    # A night of another game's own name (empty for the site's games).
    "game_name",
)
# ``date``: the night's local start, as the importer reads it back.
DATE_FORMAT = "%Y-%m-%d %H:%M"
CENT = Decimal("0.01")


def _description(event: Event, url: str, *, names: bool) -> str:
    lines = [
        _("Game: %(game)s") % {"game": event.game_label},
        (_("Buy-in: %(price)s (points only)") if event.points_only else _("Buy-in: %(price)s"))
        % {"price": event.price},
    ]
    if not event.counts:
        lines.append(_("Does not count for the standings."))
    winners = getattr(event, "winners", None)
    if names and event.finished_at and winners:
        names = ", ".join(result.player.name for result in winners)
        lines.append(_("Won by %(names)s.") % {"names": names})
    if event.notes:
        lines.extend(["", event.notes])
    lines.extend(["", url])
    return "\n".join(lines)


def _alarm(event: Event) -> Alarm:
    from icalendar import Alarm  # noqa: PLC0415 - see events_ical

    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("trigger", -ALARM_BEFORE)
    alarm.add("description", _("%(event)s starts in one hour.") % {"event": event.name})
    return alarm


def events_ical(
    name: str, events: Iterable[Event], url_of: Callable[[Event], str], *, names: bool = True
) -> bytes:
    """An iCalendar (RFC 5545) file of ``events``, written by the ``icalendar`` library.

    ``url_of`` gives each event's page address (absolute), put in URL and the description.
    Every event keeps one UID, so a subscribed calendar updates it in place when the
    director moves it. ``names``: whether the winners are named (not to every reader).
    """
    # Imported here: every process loads the URLs, few ever write a calendar.
    from icalendar import Calendar  # noqa: PLC0415
    from icalendar import Event as CalendarEvent  # noqa: PLC0415

    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", name)
    stamp = timezone.now()
    for event in events:
        url = url_of(event)
        item = CalendarEvent()
        item.add("uid", f"series-event-{event.pk}@{UID_DOMAIN}")
        item.add("dtstamp", stamp)
        item.add("dtstart", event.starts_at)
        item.add("dtend", event.starts_at + EVENT_LENGTH)
        item.add("summary", f"{event.name} · {event.price} {event.game_label}")
        item.add("location", event.venue or _("Online"))
        item.add("description", _description(event, url, names=names))
        item.add("url", url)
        # A cancelled night stays in the feed as cancelled: calendar apps strike it out.
        item.add("status", "CANCELLED" if event.cancelled_at else "CONFIRMED")
        item.add_component(_alarm(event))
        calendar.add_component(item)
    return calendar.to_ical()


def event_results_csv(event: Event) -> str:
    """The event's results, one row per player, best place first (``RESULTS_CSV_HEADER``).

    Column names are a file format other tools read, so they stay in English. ``paid_in``
    is everything the player paid, fees included, and ``net`` is ``series.net``'s: prize
    plus bounties minus paid_in, as on the profile and the settle-up. ``net`` and the
    event's columns come last, so a reader of the older columns by position is not thrown
    off. Text that would start a formula in a spreadsheet is guarded (``core.csv_safe``).
    """
    return _results_csv([event])


def season_results_csv(season: Season) -> str:
    """Every finished event's results of the season in one file, the event's CSV's columns:
    what ``manage.py import_results`` reads to bring the season into another site."""
    events = season.events.filter(finished_at__isnull=False).order_by("starts_at", "number", "pk")
    return _results_csv(events)


def _results_csv(events: Iterable[Event]) -> str:
    out = io.StringIO()
    writer = csv_safe.writer(out, lineterminator="\n")
    writer.writerow(RESULTS_CSV_HEADER)
    for event in events:
        when = timezone.localtime(event.starts_at).strftime(DATE_FORMAT)
        own = [
            when,
            event.name,
            event.buy_in,
            event.fee,
            "yes" if event.counts else "no",
            "yes" if event.points_only else "no",
            event.game_name,
        ]
        for result in selectors.event_results(event):
            writer.writerow(
                [
                    result.place,
                    result.player.name,
                    result.prize,
                    result.bounties,
                    result.knockouts,
                    result.rebuys,
                    result.addons,
                    result.reentries,
                    result.paid_in,
                    result.points.quantize(CENT),
                    net_result(
                        prize=result.prize, bounties=result.bounties, paid_in=result.paid_in
                    ),
                    *own,
                ]
            )
    return out.getvalue()


def event_hands_phhs(event: Event, user: Any) -> str:
    """``user``'s hands of the event's online tables as a `.phhs` file (TOML tables).

    Only hands they were dealt into, each written for them (``tables.selectors``): other
    players' hole cards only where shown, never the deck. An event played in person has no
    live tables: the file is a comment line saying so.
    """
    table_ids = event_sections.live_table_ids(event)
    if not table_ids:
        return (
            "# "
            + _("%(event)s was played in person: it has no online hands.") % {"event": event.name}
            + "\n"
        )
    hands = hands_played_by(user).filter(table_id__in=table_ids).order_by("table_id", "number")
    named = [
        (f"table{hand.table_id}-hand{hand.number}", hand_phh_for(hand, user)) for hand in hands
    ]
    if not named:
        return "# " + _("You were dealt into no hands of %(event)s.") % {"event": event.name} + "\n"
    header = "# " + _("%(event)s: the hands you were dealt into.") % {"event": event.name} + "\n"
    return header + dumps_phhs(named)
